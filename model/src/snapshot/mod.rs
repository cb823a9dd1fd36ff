//! What a recording holds when it is copied out: the recorder's [`Snapshot`] (the arcflow trees of
//! every kind, thread summaries, GC, code, compiles, forms, compensation, configuration) and the
//! pure functions that read it. The live recorder that fills it is `hpm_collectors::recorder`.

pub mod compensation;
pub mod compiles;
pub mod naming;
pub mod sampled;

use crate::arcflow::{Metric, MetricMode, Profile};

pub use compensation::{compensates, Compensation};
pub use compiles::{CompileRow, CompilerActivity, NO_TASK};
pub use naming::{ClassFilter, Glob};
pub use sampled::{state_node_name, state_of_node, Form, FormRow, SampleTimeline, TIMELINE_LIMIT};

/// What a recorder collects.
#[derive(Debug, Clone)]
pub struct RecorderConfig {
    /// Method entry/exit into call trees.
    pub calls: bool,
    /// Garbage collections.
    pub gc: bool,
    /// Contended monitor entries.
    pub locks: bool,
    /// Monitor waits.
    pub waits: bool,
    /// Allocation (adds the `alloc-bytes` and `alloc-objects` metrics).
    pub alloc: bool,
    /// Compiled and generated code (code map, perf map).
    pub code: bool,
    pub filter: ClassFilter,
    /// Where the metric set's values in call trees come from. `None`: this recorder reads them at
    /// every event (exact). `Some(mode)`: the bytecode probes' context sampler credits them, at
    /// every change of context (`Exact`) or by sampling (`Sampled`); the bindings say which, and
    /// threads get no reader of their own. Allocation stays exact.
    pub metrics_from_sampler: Option<MetricMode>,
    /// Stack samples (`Recorder::add_stack_sample`) with these metrics per sample, in a tree of
    /// their own per thread; `None`: no sampled trees.
    pub stack_samples: Option<Vec<Metric>>,
    /// Allocation samples (`Recorder::add_alloc_sample`) from a heap sampler whose mean
    /// interval is this many bytes, in a tree of their own per thread; `None`: none.
    pub alloc_samples: Option<u64>,
    /// Stack samples name each Java frame with its source line: `Class.method:LINE`
    /// (`MethodResolver::line_of`), so the sampled trees tell lines of one method apart.
    pub sample_lines: bool,
    /// Stack samples keep the native code frames above the Java ones
    /// (`crate::sampling::RawFrame::NATIVE_CODE`, named by `MethodResolver::native_code`).
    pub sample_native: bool,
    /// Ended virtual threads (kind `virtual`) kept as threads of their own; each one that ends
    /// after them is merged into one thread, [`MERGED_VIRTUAL_THREADS`], so that a program that
    /// runs millions of them keeps the agent's memory and its reports bounded.
    pub virtual_threads_kept: usize,
}

/// The thread that ended virtual threads are merged into past
/// `RecorderConfig::virtual_threads_kept`.
pub const MERGED_VIRTUAL_THREADS: &str = "virtual threads (merged)";

impl Default for RecorderConfig {
    fn default() -> Self {
        RecorderConfig {
            calls: true,
            gc: true,
            locks: true,
            waits: true,
            alloc: false,
            code: true,
            filter: ClassFilter::default(),
            metrics_from_sampler: None,
            stack_samples: None,
            alloc_samples: None,
            sample_lines: false,
            sample_native: false,
            virtual_threads_kept: 10_000,
        }
    }
}

/// Everything recorded, copied out for the reports.
#[derive(Debug, Clone)]
pub struct Snapshot {
    /// Call trees, one per thread (live threads first in registration order, then finished ones).
    pub calls: Profile,
    /// Contention trees (metric `contended-time`).
    pub locks: Profile,
    /// Wait trees (metrics `wait-time`, `timed-out`).
    pub waits: Profile,
    /// Sampled trees, with stack sampling: counts are samples (a context's own, where it was the
    /// innermost recorded frame), base values the metric deltas those samples carried.
    pub samples: Option<Profile>,
    /// With stack samples: per thread of `samples` (same order), when each sample was taken and
    /// its context, for a timeline.
    pub sample_timelines: Option<Vec<SampleTimeline>>,
    /// With stack samples: the sampled trees with each sample's thread state as a last node
    /// below its context (named by [`state_node_name`]; a sample of unknown state has none), so
    /// that the states split each context's samples and weights, which sum to the sampled trees'.
    /// `None` in saved runs from before states were recorded.
    pub sample_states: Option<Profile>,
    /// Allocation-sampled trees: counts are samples, base values the estimated `alloc-bytes`
    /// and `alloc-objects` they stand for (see `Recorder::add_alloc_sample`).
    pub alloc_samples: Option<Profile>,
    /// The forms of the stack samples, per method charged and form (empty where neither the
    /// walker nor a code map tells them).
    pub sample_forms: Vec<FormRow>,
    /// Per method on the stack and the form its frame ran in: the stack samples with it
    /// anywhere on the stack (once per sample and form), where the walker placed the frames.
    pub stack_forms: Vec<FormRow>,
    /// The compiler threads' CPU time by method compiled and tier, most first (with a backend
    /// that looks at its compiler threads; see `Recorder::compiler_look`).
    pub compiles: Vec<CompileRow>,
    /// Per thread, in the same order as the profiles' threads.
    pub threads: Vec<ThreadSummary>,
    pub gc: Vec<GcRecord>,
    /// Collections not kept in `gc` because the log was full (counted in the totals).
    pub gc_dropped: u64,
    pub gc_count: u64,
    pub gc_total_ns: u64,
    pub code: Vec<CodeEntry>,
    pub code_loads: u64,
    pub code_unloads: u64,
    pub classes_loaded: u64,
    pub classes_prepared: u64,
    pub uptime_ns: u64,
    pub config: RecorderConfig,
    /// The calibrated probe cost (`Recorder::calibrate`); `calls` holds raw values, see
    /// [`Snapshot::compensated_calls`].
    pub compensation: Option<Compensation>,
    /// `calls` split by phase (`Recorder::split_phase`): from the start to the first split, from
    /// each split to the next, from the last to the snapshot; empty when nothing split the run.
    /// Raw values, as `calls`.
    pub phase_calls: Vec<Profile>,
    /// Probes requested while the program ran, in order (empty when none was).
    pub probe_requests: Vec<ProbeRequest>,
    /// Per method reached by those requests, when its probes were in its code: its counts are
    /// exact within these windows only.
    pub probe_windows: Vec<ProbeWindow>,
}

/// Per-thread facts that are not in the trees.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ThreadSummary {
    pub name: String,
    pub kind: Option<String>,
    pub os_tid: Option<u64>,
    pub alive: bool,
    pub method_events: u64,
    pub exception_exits: u64,
    pub unmatched_exits: u64,
    pub vm_alloc_bytes: u64,
    pub vm_alloc_objects: u64,
    pub start_ns: u64,
    pub end_ns: Option<u64>,
    /// Metric reads in which a perf counter value was scaled for multiplexing (0: exact counts).
    pub scaled_reads: u64,
    /// Per metric of the call trees, what the sampler found running in the probes' own code on
    /// this thread: in none of its contexts (see `Compensation::measured`). Empty where not measured.
    pub in_probes: Vec<u64>,
}

/// Compiled or generated code in the code map.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeEntry {
    pub start: u64,
    pub size: u64,
    /// Method consumer name, or the VM's name for generated code (stubs, interpreter). Compiled
    /// code may be loaded without names ([`CodeEntry::inlined_methods`]) and named at the next
    /// `Recorder::name_code`, before a snapshot: naming every compiled method as it loads costs
    /// more than naming the few that are still live at a dump.
    pub name: String,
    /// "compiled" or "generated".
    pub kind: &'static str,
    /// The VM's key of the compiled method (0 for generated code).
    pub method: u64,
    /// Methods inlined into this code (from the VM's inlining records), distinct, first seen first.
    pub inlined: Vec<String>,
    /// The VM's keys of the inlined methods, while not named yet (`inlined` empty).
    pub inlined_methods: Vec<u64>,
}

/// One garbage collection (a stop-the-world pause reported by the VM).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GcRecord {
    /// Start, ns since the recorder was created.
    pub start_ns: u64,
    pub duration_ns: u64,
    /// Java threads alive (and therefore stopped at the safepoint) when it started.
    pub threads_stopped: usize,
}

/// One request, as the agent took it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProbeRequest {
    /// `true`: probes into the matching methods; `false`: out of them.
    pub add: bool,
    /// `CLASS_GLOB` or `CLASS_GLOB::METHOD_GLOB`, as given.
    pub pattern: String,
    /// On the recorder's wall clock, when the request was done (its classes retransformed).
    pub at_ns: u64,
    /// Loaded classes retransformed for it.
    pub classes: u32,
}

/// A time during which one method's probes were in its code because of a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProbeWindow {
    /// The method as the call trees name it.
    pub method: String,
    /// When its probes went in (or when the data was reset, if later).
    pub from_ns: u64,
    /// When they came out; `None`: still in at the snapshot.
    pub to_ns: Option<u64>,
}

/// The wait tree's node between a park's calling context and its blocker class: `park()`,
/// `park(Object)` (until unparked).
pub const PARK_NODE: &str = "(park)";
/// As [`PARK_NODE`] for `parkNanos` and `parkUntil` (at most until a time).
pub const PARK_TIMED_NODE: &str = "(park, timed)";
/// The class node of a park without a blocker object.
pub const NO_BLOCKER: &str = "(no blocker)";
