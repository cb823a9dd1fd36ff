//! Compilations, as sampling the JIT compiler threads sees them: each look at a compiler thread
//! charges the CPU time it used since the previous look to the method it is compiling now (and
//! the tier it compiles for), and counts each compilation (by the VM's compile id) once.

use std::collections::BTreeMap;

use super::lock;

use crate::sampling::Tier;

/// What a backend saw a compiler thread doing at one look.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CompilerActivity {
    /// Compiling `method` (a consumer name) at `tier`; `id` is the VM's compile id, `osr` whether
    /// it is an on-stack-replacement compilation.
    Compiling { method: String, tier: Tier, id: u64, osr: bool },
    /// No compile task: waiting for one, or between two (the thread's compiler's `tier`, if
    /// known). Tasks shorter than the time between looks are mostly seen this way.
    Idle { tier: Tier },
}

/// One method compiled at one tier: the compiler threads' CPU time charged to it, the looks
/// that found it, and the distinct compilations seen (a compilation shorter than the interval
/// between looks may be missed: the counts are a lower bound, the time an estimate).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompileRow {
    /// The method, or `(no compile task)` for time a compiler thread used without one.
    pub method: String,
    pub tier: Tier,
    pub cpu_ns: u64,
    pub looks: u64,
    pub compilations: u64,
    pub osr_compilations: u64,
}

#[derive(Default)]
struct Sums {
    cpu_ns: u64,
    looks: u64,
    compilations: u64,
    osr: u64,
}

/// The pseudo-method of a compiler thread's time outside any compile task.
pub const NO_TASK: &str = "(no compile task)";

/// The recorder's compile table (see the module comment).
#[derive(Default)]
pub(crate) struct CompileTracker {
    table: std::sync::Mutex<Table>,
}

#[derive(Default)]
struct Table {
    sums: BTreeMap<(String, Tier), Sums>,
    /// The compile id each compiler thread (by OS thread id) was last seen on.
    current: BTreeMap<i32, u64>,
}

impl CompileTracker {
    /// One look at compiler thread `tid`: it used `cpu_ns` since the previous look and is now
    /// doing `activity`.
    pub(crate) fn look(&self, tid: i32, cpu_ns: u64, activity: &CompilerActivity) {
        let mut t = lock(&self.table);
        let (key, new) = match activity {
            CompilerActivity::Compiling { method, tier, id, osr } => {
                let new = t.current.insert(tid, *id) != Some(*id);
                ((method.clone(), *tier), new.then_some(*osr))
            }
            CompilerActivity::Idle { tier } => {
                t.current.remove(&tid);
                ((NO_TASK.to_string(), *tier), None)
            }
        };
        let s = t.sums.entry(key).or_default();
        s.cpu_ns += cpu_ns;
        s.looks += 1;
        if let Some(osr) = new {
            s.compilations += 1;
            s.osr += osr as u64;
        }
    }

    pub(crate) fn clear(&self) {
        let mut t = lock(&self.table);
        t.sums.clear();
        t.current.clear();
    }

    /// The table, most CPU time first.
    pub(crate) fn rows(&self) -> Vec<CompileRow> {
        let t = lock(&self.table);
        let mut rows: Vec<CompileRow> = t
            .sums
            .iter()
            .map(|((m, tier), s)| CompileRow { method: m.clone(), tier: *tier, cpu_ns: s.cpu_ns, looks: s.looks, compilations: s.compilations, osr_compilations: s.osr })
            .collect();
        rows.sort_by(|a, b| b.cpu_ns.cmp(&a.cpu_ns).then_with(|| a.method.cmp(&b.method)));
        rows
    }
}

impl super::Recorder {
    /// One look at JIT compiler thread `tid` (from a backend's poller): it used `cpu_ns` of CPU
    /// since the previous look and is doing `activity` now. Ignored while recording is stopped.
    pub fn compiler_look(&self, tid: i32, cpu_ns: u64, activity: &CompilerActivity) {
        if !self.is_paused() {
            self.compiles.look(tid, cpu_ns, activity);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn compiling(m: &str, tier: Tier, id: u64) -> CompilerActivity {
        CompilerActivity::Compiling { method: m.into(), tier, id, osr: id == 9 }
    }

    #[test]
    fn time_goes_to_the_task_and_each_compilation_counts_once() {
        let t = CompileTracker::default();
        t.look(1, 5, &compiling("a.B.m", Tier::C2, 7));
        t.look(1, 10, &compiling("a.B.m", Tier::C2, 7));
        t.look(2, 3, &compiling("a.B.m", Tier::C1, 8));
        t.look(1, 2, &CompilerActivity::Idle { tier: Tier::C2 });
        t.look(1, 4, &compiling("a.B.m", Tier::C2, 9)); // compiled again, OSR
        t.look(2, 1, &compiling("a.B.m", Tier::C1, 8));
        let rows = t.rows();
        let row = |m: &str, tier| rows.iter().find(|r| r.method == m && r.tier == tier).unwrap();
        let c2 = row("a.B.m", Tier::C2);
        assert_eq!((c2.cpu_ns, c2.looks, c2.compilations, c2.osr_compilations), (19, 3, 2, 1));
        let c1 = row("a.B.m", Tier::C1);
        assert_eq!((c1.cpu_ns, c1.looks, c1.compilations), (4, 2, 1));
        assert_eq!(row(NO_TASK, Tier::C2).cpu_ns, 2);
        assert_eq!(rows[0].method, "a.B.m", "most time first");
        t.clear();
        assert!(t.rows().is_empty());
    }
}
