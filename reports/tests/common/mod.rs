//! Shared test data and helpers (also of the `hpm` binary's tests, `hpm/tests/common`).
#![allow(dead_code)]

use std::path::Path;

use hpm_collectors::quantum::files::RunToDir;
use hpm_model::quantum::{MarkerKind, Quantum, QuantumWriter};

// The paper's example, shared with the model's tests.
#[path = "../../../model/tests/common/mod.rs"]
mod paper;
#[allow(unused_imports)]
pub use paper::{named_contexts, paper_profile, FIGURE_2, PAPER_METRIC};

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
