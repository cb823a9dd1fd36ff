//! Shared test data and helpers (also of the `hpm` binary's tests, `hpm/tests/common`).
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::Path;

use hpm_model::arcflow::Profile;
use hpm_collectors::quantum::files::RunToDir;
use hpm_model::quantum::{MarkerKind, Quantum, QuantumWriter};
use hpm_model::text_trace::read_text_trace;

/// The paper's Figure 2 trace (`examples/figure2.trace`: the figure's records, with comment lines).
pub const FIGURE_2: &str = include_str!("../../../examples/figure2.trace");

/// The metric of the paper's example: CPU time in seconds.
pub const PAPER_METRIC: &str = "CPU time:s";

pub fn paper_profile() -> Profile {
    let t = read_text_trace(FIGURE_2.as_bytes(), &[PAPER_METRIC.to_string()]).expect("reading from memory");
    assert!(t.warnings.is_empty(), "{:?}", t.warnings);
    t.profile
}

/// Every context of every thread keyed by thread name and consumer *names* (consumer ids may differ
/// between two models of the same data).
pub fn named_contexts(p: &Profile) -> BTreeMap<(String, Vec<String>), (u64, Vec<u64>)> {
    let mut out = BTreeMap::new();
    for th in &p.threads {
        for (path, v) in th.tree.contexts() {
            let names = path.iter().map(|&c| p.consumers.name(c).to_string()).collect();
            let old = out.insert((th.name.clone(), names), v);
            assert!(old.is_none(), "two threads called {}", th.name);
        }
    }
    out
}

/// A quantum of a test trace: (thread, start, end, yielded, cycles, instructions).
pub type Q = (u32, u64, u64, bool, u64, u64);

/// Writes `quantum.vp<vp>.trace` into `dir` with the collectors' writer, as the agent does: the
/// quanta with two deltas each, a marker (time, text) before the quantum starting then, and the
/// exit record at `exit_at`.
pub fn write_vp(dir: &Path, vp: u32, quanta: &[Q], marker: Option<(u64, &str)>, exit_at: u64) {
    let (mut w, sink) = QuantumWriter::new(vp, 2);
    let d = dir.to_path_buf();
    let writer = std::thread::spawn(move || sink.run_to_dir(&d).unwrap());
    for &(thread, start, end, yielded, cyc, ins) in quanta {
        if let Some((t, text)) = marker {
            if t == start {
                assert!(w.marker(MarkerKind::AppStart, thread as u16, t, 0, text));
            }
        }
        let q = Quantum { thread, local_tid: thread as u16, yielded, thread_switch: true, start, end, callee: 0, caller: 0 };
        assert!(w.record(&q, &[cyc, ins]));
    }
    w.finish(exit_at, 0);
    writer.join().unwrap();
}
