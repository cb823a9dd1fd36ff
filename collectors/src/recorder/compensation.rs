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
//! `calls · callee + child_calls · caller` of probe cost in its base. [`Recorder::calibrate`] measures
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

use std::sync::atomic::Ordering;

use hpm_model::snapshot::compensates;

use super::*;

struct NoResolver;
impl MethodResolver for NoResolver {
    fn resolve(&mut self, method: u64, _: &ClassFilter, out: &mut Vec<(u64, Option<String>)>) {
        out.push((method, None));
    }
    fn stack(&mut self, _: &mut Vec<u64>) {}
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

impl Recorder {
    /// Measures the probe cost on the calling thread (see the module docs): `batches` batches of
    /// `calls` calls of an empty method through the recorder's entry/exit path on a private thread
    /// that no snapshot shows; keeps the result for later snapshots and returns it.
    ///
    /// With sampled metrics (`metrics_from_sampler = Some(Sampled)`, the research VM's sampled
    /// mode) the path reads no metrics and is timed instead ([`Recorder::calibrate_sampled`]).
    pub fn calibrate(&self, batches: usize, calls: usize) -> Compensation {
        if self.config.metrics_from_sampler == Some(MetricMode::Sampled) {
            return self.calibrate_sampled(batches, calls);
        }
        self.calibrate_reading(self.metric_set.open_current_thread(), "the metrics' own readers", batches, calls)
    }

    /// [`Recorder::calibrate`] with the metrics read by `reader`, opened on the calling thread:
    /// the reader the recorded threads' reads go through, where it is not the metric set's own
    /// (the research VM's processors read `cpu-time` from their switch records). `read_by` says
    /// which reader it is, in the compensation's description.
    pub fn calibrate_reading(&self, reader: Box<dyn ThreadMetrics>, read_by: &str, batches: usize, calls: usize) -> Compensation {
        let metrics = self.bindings.metrics.clone();
        let m = metrics.len();
        let t = self.calibration_thread(reader, None);
        let calls = calls.max(1);
        let mut callee: Vec<Vec<f64>> = vec![Vec::new(); m];
        let mut caller: Vec<Vec<f64>> = vec![Vec::new(); m];
        for b in 0..=batches.max(1) {
            self.calibration_batch(&t, calls);
            if b == 0 {
                continue; // warm-up
            }
            let s = lock(&t.state);
            let tree = s.calls.tree();
            let (Some(p), Some(c)) = (tree.find_child(Tree::ROOT, CALLER), None::<NodeId>.or_else(|| tree.find_child(tree.find_child(Tree::ROOT, CALLER)?, CALLEE))) else {
                continue;
            };
            for k in 0..m {
                // P's base is its children's caller parts plus its own callee part (one call).
                let alpha = tree.base(c)[k] as f64 / calls as f64;
                callee[k].push(alpha);
                caller[k].push(((tree.base(p)[k] as f64 - alpha) / calls as f64).max(0.0));
            }
        }
        let comp = Compensation {
            applied: metrics.iter().map(compensates).collect(),
            metrics: metrics.iter().map(|x| x.name.clone()).collect(),
            callee: callee.iter_mut().map(|v| median(v)).collect(),
            caller: caller.iter_mut().map(|v| median(v)).collect(),
            calls_measured: (batches.max(1) * calls) as u64,
            how: format!("the recorder's entry/exit path (lock, method lookup, counter read by {read_by}) on a dummy thread, at start-up; the VM's event dispatch is not included"),
            measured: Vec::new(),
        };
        *lock(&self.compensation) = Some(comp.clone());
        comp
    }

    /// The calibration of threads whose metrics are sampled ([`Recorder::register_credited_thread`]):
    /// the entry/exit path of such a thread (lock, method lookup, context published; no metric
    /// read) timed with the monotonic clock over `batches` batches of `calls` entry/exit pairs;
    /// the median ns per pair goes half to the callee and half to the caller, for metrics in ns
    /// ([`Compensation::from_call_cost`]): a sample during an entry finds the caller's context
    /// until the entry publishes the callee's near its end, one during an exit the callee's.
    pub fn calibrate_sampled(&self, batches: usize, calls: usize) -> Compensation {
        static CELL: AtomicU32 = AtomicU32::new(0);
        let t = self.calibration_thread(Box::new(Credited), Some(&CELL));
        let calls = calls.max(1);
        let mut per_pair = Vec::new();
        for b in 0..=batches.max(1) {
            let t0 = std::time::Instant::now();
            self.calibration_batch(&t, calls);
            let ns = t0.elapsed().as_nanos() as f64 / (calls + 1) as f64;
            if b > 0 {
                per_pair.push(ns); // batch 0 warms up
            }
        }
        let how = "the recorder's entry/exit path of a thread with sampled metrics (lock, method lookup, context published; no metric read), timed on a dummy thread at start-up; half of it removed from the callee, half from the caller; the VM's event dispatch is not included";
        let comp = Compensation::from_call_cost(&self.bindings.metrics, median(&mut per_pair), 0.5, (batches.max(1) * calls) as u64, how.into());
        *lock(&self.compensation) = Some(comp.clone());
        comp
    }

    /// A dummy thread for calibration, not registered: method key 1 is the caller's consumer
    /// (`CALLER`), key 2 the callee's (`CALLEE`); with `cell`, it publishes its context there.
    fn calibration_thread(&self, reader: Box<dyn ThreadMetrics>, cell: Option<&'static AtomicU32>) -> ThreadRecorder {
        let info = ThreadInfo { name: "(calibration)".into(), kind: None, os_tid: None };
        let t = self.new_thread(EXCLUDED - 3, info, reader, false);
        {
            let mut s = lock(&t.state);
            s.methods.insert(1, CALLER);
            s.methods.insert(2, CALLEE);
            s.cell = cell;
        }
        t
    }

    /// One calibration batch on `t`, from an empty tree: the caller entered, `calls` entry/exit
    /// pairs of the callee, the caller left.
    fn calibration_batch(&self, t: &ThreadRecorder, calls: usize) {
        {
            let mut s = lock(&t.state);
            s.epoch = self.epoch.load(Ordering::Acquire);
            s.needs_sync = false;
            s.clear_calls();
        }
        let r = &mut NoResolver;
        self.entry_unpaused(t, 1, r);
        for _ in 0..calls {
            self.entry_unpaused(t, 2, r);
            self.exit_unpaused(t, 2, false, r);
        }
        self.exit_unpaused(t, 1, false, r);
    }
}

/// The calibration thread's consumers: the caller and the callee.
const CALLER: ConsumerId = EXCLUDED - 1;
const CALLEE: ConsumerId = EXCLUDED - 2;
