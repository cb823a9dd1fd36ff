//! Top methods for quanta written without one: HotSpot's traces come from the kernel's context
//! switches, which know no Java method, so their records are written with callee 0. Once the
//! run's stack samples are in, [`set_top_methods`] fills the callee of each record from a lookup
//! by (thread, start, end), in a copy of each trace file renamed over it, and adds the methods
//! to `quantum.meta`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use hpm_support::files;

use hpm_model::quantum::{decode, format, MethodInfo, Meta, META_FILE};

use super::files::MetaFile;

/// Sets the callee of every quantum record in `trace` (a file's bytes, format of
/// `docs/quantum-trace.md`) to `top(thread id, start, end)` (0: none). Returns how many records
/// got one. The error names the offset where the bytes stop being a trace.
fn set_callees(trace: &mut [u8], top: &mut dyn FnMut(u32, u64, u64) -> u32) -> Result<u64, String> {
    const HEADER: usize = 32;
    if trace.len() < HEADER || &trace[..8] != b"HPMQUANT" {
        return Err("not a quantum trace (no HPMQUANT header)".into());
    }
    let u32_at = |b: &[u8], at: usize| -> Option<u32> { Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?)) };
    let u64_at = |b: &[u8], at: usize| -> Option<u64> { Some(u64::from_le_bytes(b.get(at..at + 8)?.try_into().ok()?)) };
    let deltas = u32_at(trace, 16).unwrap_or(0) as usize;
    let (mut at, mut named) = (HEADER, 0);
    while at < trace.len() {
        let truncated = || format!("a record cut short at byte {at}");
        let (_, _, _, _, kind) = decode(u32_at(trace, at).ok_or_else(truncated)?);
        let size = match kind {
            format::QUANTUM => 32 + 8 * deltas,
            format::APP_START | format::APP_COMPLETE | format::NOTE => 16 + u32_at(trace, at + 12).ok_or_else(truncated)? as usize,
            format::RUN_START | format::RUN_COMPLETE => 20 + u32_at(trace, at + 16).ok_or_else(truncated)? as usize,
            format::EXIT => 16,
            format::REASON => 8,
            format::PADDING => 8 + u32_at(trace, at + 4).ok_or_else(truncated)? as usize,
            other => return Err(format!("unknown record format {other} at byte {at}")),
        };
        if at + size > trace.len() {
            return Err(truncated());
        }
        if kind == format::QUANTUM {
            let thread = (u32_at(trace, at + 4).ok_or_else(truncated)? as i32).unsigned_abs();
            let (start, end) = (u64_at(trace, at + 8).ok_or_else(truncated)?, u64_at(trace, at + 16).ok_or_else(truncated)?);
            let callee = top(thread, start, end);
            named += (callee != 0) as u64;
            trace[at + 24..at + 28].copy_from_slice(&callee.to_le_bytes());
        }
        at += size;
    }
    Ok(named)
}

/// Gives the quanta of the trace files `traces` in `dir` their top method, `top(thread id, start,
/// end)` as a method name (`class.method`, or `class.method(parameters)` for an overload, as the
/// sampled trees name them; None: no method for that quantum), and lists the methods in the
/// directory's `quantum.meta` (ids from 1, class in internal form, the parameters, if any, in
/// the descriptor field, else `-`). Each file is rewritten atomically. Returns the quanta named.
pub fn set_top_methods(dir: &Path, traces: &[PathBuf], top: &mut dyn FnMut(u32, u64, u64) -> Option<String>) -> Result<u64, String> {
    let meta_path = dir.join(META_FILE);
    let text = std::fs::read_to_string(&meta_path).map_err(|e| format!("cannot read {}: {e}", meta_path.display()))?;
    let mut meta = Meta::parse(&text).map_err(|e| format!("{}: {e}", meta_path.display()))?;
    let mut ids: HashMap<String, u32> = meta.methods.iter().map(|m| (method_name(m), m.id)).collect();
    let mut next = meta.methods.iter().map(|m| m.id).max().unwrap_or(0) + 1;
    let mut named = 0;
    for path in traces {
        let mut bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let mut lookup = |thread: u32, start: u64, end: u64| -> u32 {
            let Some(name) = top(thread, start, end) else { return 0 };
            if let Some(&id) = ids.get(&name) {
                return id;
            }
            let id = next;
            next += 1;
            meta.methods.push(method_info(id, &name));
            ids.insert(name, id);
            id
        };
        named += set_callees(&mut bytes, &mut lookup).map_err(|e| format!("{}: {e}", path.display()))?;
        files::write_atomic(path, &bytes).map_err(|e| format!("cannot rewrite {}: {e}", path.display()))?;
    }
    meta.write(dir).map_err(|e| format!("cannot write {}: {e}", meta_path.display()))?;
    Ok(named)
}

/// `org.h2.Foo.bar(int)` → class `org/h2/Foo`, name `bar`, descriptor `(int)`.
fn method_info(id: u32, name: &str) -> MethodInfo {
    let (base, params) = match name.find('(') {
        Some(i) => (&name[..i], &name[i..]),
        None => (name, "-"),
    };
    let (class, method) = base.rsplit_once('.').unwrap_or(("", base));
    MethodInfo { id, class: class.replace('.', "/"), name: method.to_string(), descriptor: params.to_string() }
}

/// The inverse of [`method_info`].
fn method_name(m: &MethodInfo) -> String {
    let params = if m.descriptor == "-" { "" } else { m.descriptor.as_str() };
    format!("{}.{}{params}", m.class.replace('/', "."), m.name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quantum::files::RunToDir;
    use hpm_model::quantum::{read_dir, Quantum, QuantumWriter, ThreadInfo, ThreadKind};

    #[test]
    fn method_names_go_to_the_meta_and_back() {
        let m = method_info(3, "java.io.FileInputStream.read(byte[])");
        assert_eq!((m.class.as_str(), m.name.as_str(), m.descriptor.as_str()), ("java/io/FileInputStream", "read", "(byte[])"));
        assert_eq!(method_name(&m), "java.io.FileInputStream.read(byte[])");
        let m = method_info(4, "app.Main.work");
        assert_eq!((m.class.as_str(), m.descriptor.as_str()), ("app/Main", "-"));
        assert_eq!(method_name(&m), "app.Main.work");
    }

    /// A trace written with callee 0, with markers and reasons between its quanta: each quantum
    /// gets the method the lookup gives for its thread and times, the rest of the file is
    /// unchanged, and the meta lists each method once.
    #[test]
    fn quanta_get_the_looked_up_method_and_the_trace_stays_valid() {
        let dir = tempfile::tempdir().unwrap();
        let (mut w, sink) = QuantumWriter::with_reasons(2, 1);
        let q = |thread: u32, start: u64| Quantum { thread, local_tid: thread as u16, yielded: thread == 7, thread_switch: true, start, end: start + 50, callee: 0, caller: 0 };
        w.record(&q(7, 100), &[40]);
        w.marker(hpm_model::quantum::MarkerKind::Note, 7, 160, 0, "a note");
        w.record_with_reason(&q(8, 200), &[30], hpm_model::quantum::reason::YIELD);
        w.record(&q(7, 300), &[45]);
        w.finish(400, 0);
        let (written, _) = sink.run_to_dir(dir.path()).unwrap();
        let written = vec![written];
        let meta = Meta {
            counters: vec!["real-time".into(), "cpu-time".into()],
            time_unit: "ns".into(),
            processor_kind: "cpu".into(),
            threads: [7, 8].map(|id| ThreadInfo { id, name: format!("t{id}"), kind: ThreadKind::App }).to_vec(),
            ..Meta::default()
        };
        meta.write(dir.path()).unwrap();
        let before = read_dir(dir.path()).unwrap();
        assert!(before.is_valid(), "{:?}", before.issues);
        let named = set_top_methods(dir.path(), &written, &mut |thread, start, end| {
            assert_eq!(end, start + 50);
            match (thread, start) {
                (7, 100) | (8, 200) => Some("app.Main.work".to_string()),
                (7, _) => Some("app.Main.read(int)".to_string()),
                _ => None,
            }
        })
        .unwrap();
        assert_eq!(named, 3);
        let after = read_dir(dir.path()).unwrap();
        assert!(after.is_valid(), "{:?}", after.issues);
        let names: Vec<String> = after.quanta().map(|q| after.meta.method(q.callee).map(method_name).unwrap_or_default()).collect();
        assert_eq!(names, ["app.Main.work", "app.Main.work", "app.Main.read(int)"]);
        assert_eq!(after.meta.methods.len(), 2);
        // Everything else as it was.
        let strip = |t: &hpm_model::quantum::Trace| t.quanta().map(|q| (q.thread, q.start, q.end, q.yielded, q.deltas.to_vec())).collect::<Vec<_>>();
        assert_eq!(strip(&before), strip(&after));
        let markers = |t: &hpm_model::quantum::Trace| t.merged().filter(|e| matches!(e, hpm_model::quantum::Entry::Marker(_))).count();
        assert_eq!((markers(&before), markers(&after)), (1, 1));
    }
}
