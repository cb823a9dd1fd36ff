//! A saved run: what an `arcflow.json` holds, and loading it.
//!
//! Version 2 (written by the agent at every dump, module [`v2`]) holds everything a run keeps: the
//! recorder's [`Snapshot`] (call, lock, wait, sampled and allocation trees, thread summaries, GC,
//! code, compiles, forms, compensation, configuration) and what the agent adds at the dump (which
//! run it was, the VM-cost timeline, the markers). Version 1 (module [`v1`]) holds only call
//! trees; [`read`] reads both (`hpm_reports::saved::load` reads a file, refusing special files). Every report of a run is rendered from it
//! (`hpm_reports::write_all`), by the agent at each dump and by `hpm report DIR` on the loaded file.

pub mod run;
pub mod v1;
pub mod v2;

use std::borrow::Cow;

use crate::arcflow::Profile;
use crate::snapshot::Snapshot;
use crate::vmcost::CostRow;

pub use run::RunIdentity;
pub use v1::ReadError;

/// A marker put into the data (`hpm ctl PID mark TEXT`, `hpmagent.Trace`; `marks.txt`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mark {
    /// Nanoseconds since the agent started.
    pub at_ns: u64,
    /// Method events recorded so far (all threads), to place the marker in the event stream.
    pub method_events: u64,
    pub text: String,
}

/// A thread selector matches the thread's name, or its name without the `_pidtid` suffix that text
/// traces add.
pub fn thread_matches(thread: &str, wanted: &str) -> bool {
    thread == wanted || thread.strip_suffix("_pidtid") == Some(wanted)
}

/// The VM-cost timeline as `vm-cost.txt` shows it (`hpm_collectors::vmcost::CostTimeline`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VmCostData {
    /// The counters of each row's `counters`, in order.
    pub counters: Vec<String>,
    pub rows: Vec<CostRow>,
    /// Threads whose last interval is missing (they ended unseen).
    pub lost_threads: u64,
}

/// Everything a run keeps: the recorder's snapshot and what the agent adds at a dump.
#[derive(Debug, Clone)]
pub struct SavedRun {
    pub snapshot: Snapshot,
    /// Which run this is (the `Run:` line of `threads.txt`); `None`: not known, no line.
    pub run: Option<RunIdentity>,
    /// The VM-cost timeline (`vm-cost.txt`, HotSpot only).
    pub vm_cost: Option<VmCostData>,
    /// The markers (`marks.txt`).
    pub marks: Option<Vec<Mark>>,
}

/// What an `arcflow.json` holds.
#[derive(Debug, Clone)]
pub enum Saved {
    /// Version 1: call trees only.
    Trees(Profile),
    /// Version 2: a whole run.
    Run(Box<SavedRun>),
}

impl Saved {
    /// The call trees the reports show: with overhead compensation, the compensated ones.
    pub fn calls(&self) -> Cow<'_, Profile> {
        match self {
            Saved::Trees(p) => Cow::Borrowed(p),
            Saved::Run(r) => r.calls_shown(),
        }
    }

    /// The file format's major version.
    pub fn version(&self) -> u64 {
        match self {
            Saved::Trees(_) => v1::VERSION,
            Saved::Run(_) => v2::VERSION,
        }
    }
}

/// Whether any thread of `p` has a context below its root.
fn records_calls(p: &Profile) -> bool {
    p.threads.iter().any(|t| t.tree.len() > 1)
}

impl SavedRun {
    /// The call trees the reports show: compensated where the probe cost was calibrated (the
    /// snapshot keeps the raw values, also written as `arcflow-raw.json`). A run that recorded no
    /// exact call (`calls=none`, sampling alone) shows its sampled trees instead, so that the
    /// top-level reports and the page hold what the run recorded, not thread roots alone
    /// (`sampled/` has them too).
    pub fn calls_shown(&self) -> Cow<'_, Profile> {
        if !records_calls(&self.snapshot.calls) {
            if let Some(samples) = self.snapshot.samples.as_ref().filter(|s| records_calls(s)) {
                return Cow::Borrowed(samples);
            }
        }
        match self.snapshot.compensation {
            Some(_) => Cow::Owned(self.snapshot.compensated_calls()),
            None => Cow::Borrowed(&self.snapshot.calls),
        }
    }

    /// The run with only the threads `names` selects (a name, or a text trace's name without
    /// `_pidtid`) in every tree and in the thread summaries; what belongs to no thread (GC, code,
    /// forms, compiles, VM cost, markers) stays whole.
    pub fn select_threads(&self, names: &[String]) -> SavedRun {
        let keep = |name: &str| names.iter().any(|w| thread_matches(name, w));
        let pick = |p: &Profile| p.select_threads(|t| keep(&t.name));
        let s = &self.snapshot;
        SavedRun {
            snapshot: Snapshot {
                calls: pick(&s.calls),
                locks: pick(&s.locks),
                waits: pick(&s.waits),
                samples: s.samples.as_ref().map(pick),
                sample_timelines: s.sample_timelines.as_ref().zip(s.samples.as_ref()).map(|(ts, p)| {
                    ts.iter().zip(&p.threads).filter(|(_, t)| keep(&t.name)).map(|(tl, _)| tl.clone()).collect()
                }),
                alloc_samples: s.alloc_samples.as_ref().map(pick),
                sample_states: s.sample_states.as_ref().map(pick),
                sample_forms: s.sample_forms.clone(),
                stack_forms: s.stack_forms.clone(),
                compiles: s.compiles.clone(),
                threads: s.threads.iter().filter(|t| keep(&t.name)).cloned().collect(),
                gc: s.gc.clone(),
                gc_dropped: s.gc_dropped,
                gc_count: s.gc_count,
                gc_total_ns: s.gc_total_ns,
                code: s.code.clone(),
                code_loads: s.code_loads,
                code_unloads: s.code_unloads,
                classes_loaded: s.classes_loaded,
                classes_prepared: s.classes_prepared,
                uptime_ns: s.uptime_ns,
                config: s.config.clone(),
                compensation: s.compensation.clone(),
                phase_calls: s.phase_calls.iter().map(pick).collect(),
                probe_requests: s.probe_requests.clone(),
                probe_windows: s.probe_windows.clone(),
            },
            run: self.run.clone(),
            vm_cost: self.vm_cost.clone(),
            marks: self.marks.clone(),
        }
    }
}

/// Reads an arcflow.json document of either version.
pub fn read(text: &str) -> Result<Saved, ReadError> {
    match v1::version(text)? {
        v1::VERSION => v1::read(text).map(Saved::Trees),
        v2::VERSION => v2::read(text).map(|r| Saved::Run(Box::new(r))),
        v => Err(ReadError {
            message: format!(
                "unsupported arcflow.json version {v}: this hpm reads versions {} and {}; use the hpm that wrote the file, or a newer one",
                v1::VERSION,
                v2::VERSION
            ),
        }),
    }
}
