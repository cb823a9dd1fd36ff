//! The code map: compiled methods and generated code by address, with inlined methods, named
//! lazily; classes loaded and prepared.

use super::*;

#[derive(Default)]
pub(super) struct CodeMap {
    pub(super) live: std::collections::BTreeMap<u64, CodeEntry>,
    pub(super) loads: u64,
    pub(super) unloads: u64,
    /// Names of method keys, once named (keys are never reused, see the backend's naming).
    pub(super) names: FxHashMap<u64, String>,
}

impl CodeMap {
    /// The entry whose code contains `addr`.
    pub(super) fn containing(&self, addr: u64) -> Option<&CodeEntry> {
        let (_, e) = self.live.range(..=addr).next_back()?;
        (addr < e.start + e.size.max(1)).then_some(e)
    }

    /// What the map has at `pc`, for a stack sample's `frames` (innermost first), as a walker
    /// would say it: compiled code owned by the frame of its method (an outer frame when the
    /// innermost ones were inlined; the innermost when the method is not on the stack, e.g. a
    /// callee the walker left out), the interpreter, other generated code, or none. The map does
    /// not know which compiler made the code.
    pub(super) fn code_at(&self, pc: u64, frames: &[crate::sampling::RawFrame]) -> crate::sampling::CodeAt {
        use hpm_model::sampling::Tier;
        use crate::sampling::CodeAt;
        match self.containing(pc) {
            Some(e) if e.kind == "compiled" => CodeAt::compiled(frames.iter().position(|f| f.method == e.method).unwrap_or(0), Tier::Unknown),
            Some(e) if e.name.starts_with("Interpreter") => CodeAt::interpreted(),
            Some(_) => CodeAt::stub(),
            None => CodeAt::outside(),
        }
    }
}

impl Recorder {
    pub fn class_loaded(&self) {
        self.vm.classes_loaded.fetch_add(1, Ordering::Relaxed);
    }
    pub fn class_prepared(&self) {
        self.vm.classes_prepared.fetch_add(1, Ordering::Relaxed);
    }

    /// Names methods ahead of time (e.g. when their class is prepared) so that first sight is a cache
    /// hit. Entries already known are kept.
    pub fn preresolve(&self, method: u64, r: &mut dyn MethodResolver) {
        let _ = self.resolve_global(method, r);
    }

    /// Code loaded at `start..start+size`.
    pub fn code_load(&self, entry: CodeEntry) {
        if !self.config.code {
            return;
        }
        let mut c = lock(&self.code);
        c.loads += 1;
        c.live.insert(entry.start, entry);
    }

    /// Forgets the code map (before the VM replays the code live now; see the backend's code
    /// events, which are off while recording is stopped). The load and unload counts stay.
    pub fn code_clear(&self) {
        lock(&self.code).live.clear();
    }

    /// Code at `start` unloaded.
    pub fn code_unload(&self, start: u64) {
        if !self.config.code {
            return;
        }
        let mut c = lock(&self.code);
        c.unloads += 1;
        c.live.remove(&start);
    }

    /// Names the compiled code loaded without names: `name_of(key)` for each method key not named
    /// before (called without the code map's lock; `None`: `method@KEY`). Call before a snapshot,
    /// on a thread that can reach the VM.
    pub fn name_code(&self, name_of: &mut dyn FnMut(u64) -> Option<String>) {
        let wanted: Vec<u64> = {
            let c = lock(&self.code);
            let mut keys: Vec<u64> = c
                .live
                .values()
                .filter(|e| e.kind == "compiled" && (e.name.is_empty() || !e.inlined_methods.is_empty()))
                .flat_map(|e| std::iter::once(e.method).chain(e.inlined_methods.iter().copied()))
                .filter(|k| !c.names.contains_key(k))
                .collect();
            keys.sort_unstable();
            keys.dedup();
            keys
        };
        let named: Vec<(u64, String)> = wanted.into_iter().map(|k| (k, name_of(k).unwrap_or_else(|| format!("method@{k:x}")))).collect();
        let mut c = lock(&self.code);
        c.names.extend(named);
        let CodeMap { live, names, .. } = &mut *c;
        for e in live.values_mut().filter(|e| e.kind == "compiled") {
            if e.name.is_empty() {
                e.name = names.get(&e.method).cloned().unwrap_or_else(|| format!("method@{:x}", e.method));
            }
            if !e.inlined_methods.is_empty() {
                let mut inlined: Vec<String> = Vec::new();
                for k in std::mem::take(&mut e.inlined_methods) {
                    let n = names.get(&k).cloned().unwrap_or_else(|| format!("method@{k:x}"));
                    if !inlined.contains(&n) {
                        inlined.push(n);
                    }
                }
                e.inlined = inlined;
            }
        }
    }

    /// The code entry containing `addr`, if any.
    pub fn code_at(&self, addr: u64) -> Option<CodeEntry> {
        lock(&self.code).containing(addr).cloned()
    }
}
