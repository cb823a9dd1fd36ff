//! Overhead compensation (Golm et al. 2002, section 2; jprof's calibration).
//!
//! Each recorded call costs a probe at entry and one at exit, and part of that cost lands in the
//! metrics. The counters are sampled in the middle of each probe:
//!
//! ```text
//!   caller ─┬─ entry probe: [a1 | read | a2] ── callee body ── exit probe: [b1 | read | b2] ─┬─ caller
//!           └─ charged to the caller: a1 + ½read     charged to the callee: ½read + a2 + b1 + ½read
//!                                                                          ½read + b2 → caller
//! ```
//!
//! so a context with `calls` calls and `child_calls` calls of its children carries
//! `calls · callee + child_calls · caller` of probe cost in its base. `Recorder::calibrate` measures
//! both parts, per metric, by running the recorder's own entry/exit path (lock, method lookup,
//! counter read, charge) on a private dummy thread: a context P calling an empty method C many times,
//! so `base(C)/calls` is the callee part and `base(P)/calls` the caller part. The cost of the VM's
//! event dispatch before and after the recorder (JVMTI) is not part of it: compensation removes a
//! lower bound of the probe cost, never more than the probe costs.
//!
//! The snapshot keeps raw values; [`Snapshot::compensated_calls`] subtracts the correction (clamped
//! at 0) for the metrics it applies to: time-like (ns: `cpu-time`, `wall-time`, `task-clock`,
//! `cpu-clock`) and instruction/cycle-like counts (`instructions`, `cycles`, `ref-cycles`,
//! `bus-cycles`, `msr/tsc/`). Counts such as page faults or cache misses are left as counted.

use crate::arcflow::{Metric, NodeId, Profile, Tree};

use super::Snapshot;

/// The calibrated probe cost per metric, in the metric's units.
#[derive(Debug, Clone, PartialEq)]
pub struct Compensation {
    /// Metric names (as in the call tree's bindings).
    pub metrics: Vec<String>,
    /// Per call, charged to the called context (median over batches).
    pub callee: Vec<f64>,
    /// Per call of a child, charged to the calling context (median over batches).
    pub caller: Vec<f64>,
    /// Whether the correction is subtracted for this metric (time-like or instruction-like).
    pub applied: Vec<bool>,
    /// Calibration calls made (all batches).
    pub calls_measured: u64,
    /// How and when it was measured, one line for compensation.txt.
    pub how: String,
    /// Per metric, what the sampler found running in the probes' own compiled code (a signal
    /// whose program counter was there): credited to no context, so not in the trees at all.
    /// Empty where it was not measured (exact mode, rvm, a VM whose code cache is not read).
    pub measured: Vec<u64>,
}

/// Whether compensation applies to a metric: time in ns, instructions and cycle counts. Counts of
/// things a probe rarely causes (faults, misses, switches) are left alone.
pub fn compensates(m: &Metric) -> bool {
    if m.unit == "ns" {
        return true;
    }
    let base = m.name.split(':').next().unwrap_or("").to_ascii_lowercase();
    matches!(base.as_str(), "instructions" | "cycles" | "cpu-cycles" | "ref-cycles" | "bus-cycles" | "msr/tsc/" | "msr/tsc")
        || base.ends_with("/tsc/")
}

impl Compensation {
    /// A compensation from a measured cost per call (ns, entry and exit probe together) for
    /// probes whose metrics are sampled: `callee_share` of it is charged to the callee, the rest to
    /// the caller, for the metrics in ns; other metrics are left as counted.
    pub fn from_call_cost(metrics: &[Metric], ns_per_call: f64, callee_share: f64, calls_measured: u64, how: String) -> Compensation {
        let applied: Vec<bool> = metrics.iter().map(|m| m.unit == "ns").collect();
        let part = |share: f64| move |a: &bool| if *a { ns_per_call * share } else { 0.0 };
        Compensation {
            metrics: metrics.iter().map(|m| m.name.clone()).collect(),
            callee: applied.iter().map(part(callee_share)).collect(),
            caller: applied.iter().map(part(1.0 - callee_share)).collect(),
            applied,
            calls_measured,
            how,
            measured: Vec::new(),
        }
    }

    /// The same with no per-call correction subtracted from any metric: the probes' cost is
    /// measured where it lands instead ([`Compensation::measured`]).
    pub fn measured_only(mut self) -> Compensation {
        self.applied.iter_mut().for_each(|a| *a = false);
        self.callee.iter_mut().for_each(|c| *c = 0.0);
        self.caller.iter_mut().for_each(|c| *c = 0.0);
        self
    }

    /// The correction for a context with `calls` calls whose children had `child_calls` calls.
    pub fn correction(&self, k: usize, calls: u64, child_calls: u64) -> u64 {
        if !self.applied.get(k).copied().unwrap_or(false) {
            return 0;
        }
        (calls as f64 * self.callee[k] + child_calls as f64 * self.caller[k]).round() as u64
    }

    /// Subtracts the correction from every context of `tree` (clamped at 0). The root is not a call
    /// of its own: only its children's caller part is removed there.
    pub fn apply(&self, tree: &mut Tree) {
        let n = tree.len();
        let mut child_calls = vec![0u64; n];
        for id in 1..n as NodeId {
            if let Some(p) = tree.parent(id) {
                child_calls[p as usize] += tree.calls(id);
            }
        }
        for id in 0..n as NodeId {
            let calls = if id == Tree::ROOT { 0 } else { tree.calls(id) };
            let cc = child_calls[id as usize];
            let base = tree.base_mut(id);
            for (k, b) in base.iter_mut().enumerate() {
                *b = b.saturating_sub(self.correction(k, calls, cc));
            }
        }
    }
}

impl Snapshot {
    /// The call trees with the probe cost subtracted (a copy of `calls` when not calibrated).
    /// [`Snapshot::phase_calls`] with the calibrated cost subtracted, as [`Snapshot::compensated_calls`].
    pub fn compensated_phase_calls(&self) -> Vec<Profile> {
        let mut phases = self.phase_calls.clone();
        if let Some(c) = &self.compensation {
            for t in phases.iter_mut().flat_map(|p| p.threads.iter_mut()) {
                c.apply(&mut t.tree);
            }
        }
        phases
    }

    pub fn compensated_calls(&self) -> Profile {
        let mut p = self.calls.clone();
        if let Some(c) = &self.compensation {
            for t in &mut p.threads {
                c.apply(&mut t.tree);
            }
        }
        p
    }
}
