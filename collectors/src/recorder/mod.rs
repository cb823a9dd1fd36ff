//! Live recording: per-thread recorder state fed by a VM backend.
//!
//! A backend (HotSpot through JVMTI, the research VM through its hooks) translates VM events into calls
//! on a [`Recorder`]. The recorder does not know which VM it is in: methods are opaque `u64` keys that
//! a [`MethodResolver`] supplied by the backend turns into names on first sight.
//!
//! Concurrency: every Java thread owns a [`ThreadRecorder`] whose state sits behind its own mutex. The
//! mutex is taken by its own thread at each event and by another thread only to snapshot, reset or
//! rebase it (dump, reset, resume), so the hot path never waits on a lock that other threads take
//! routinely. Global structures (the registry of threads, the method-name cache, the consumer table,
//! the GC log, the code map) are touched only on cold paths: thread start/end, the first time a thread
//! sees a method, GC, JIT events, dumps.
//!
//! Per thread the recorder keeps these arcflow trees over the same consumer table:
//! - the **call tree** (metrics: those of the [`MetricSet`], then `alloc-bytes`/`alloc-objects` when
//!   allocation is recorded): method contexts with calls and base values;
//! - the **lock tree**: call paths ending in a node named after the contended monitor's class, calls =
//!   contended entries, base = `contended-time` (ns, wall);
//! - the **wait tree**: the same for `Object.wait`, base = `wait-time` (ns, wall) and `timed-out`;
//! - with stack sampling, the **sampled tree**: the stacks a sampler found, each context counting
//!   the samples whose innermost recorded frame it was, and the metric deltas they carried;
//! - with allocation sampling, the **allocation tree**: allocating stacks, then the class.
//!
//! One file per kind of event, each an `impl Recorder` block with the state it owns: this file
//! has the configuration, the thread and method registry, calls, and the control operations
//! (snapshot, reset, pause); `sampled.rs` stack and allocation samples and execution forms;
//! `monitors.rs` locks and waits; `alloc.rs` allocation into call trees; `gc.rs` collections;
//! `code.rs` the code map and class counts; `compiles.rs` the compiler threads' tasks;
//! `compensation.rs` the probe-cost calibration. What a snapshot holds (its types, class filters
//! and names, the compensation's arithmetic) is the model's: `hpm_model::snapshot`.

mod alloc;
mod code;
pub mod compensation;
pub mod compiles;
mod gc;
mod monitors;
pub mod phases;
mod probe_log;
mod sampled;

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use rustc_hash::FxHashMap;

use hpm_model::arcflow::{Bindings, ConsumerId, CursorBuilder, ConsumerTable, Metric, MetricMode, NodeId, Profile, ThreadProfile, Tree};
use hpm_model::metrics::{MetricSet, ThreadMetrics};
use hpm_model::snapshot::{
    ClassFilter, CodeEntry, Compensation, Form, FormRow, GcRecord, ProbeRequest, RecorderConfig, SampleTimeline, Snapshot,
    ThreadSummary, MERGED_VIRTUAL_THREADS, PARK_NODE, PARK_TIMED_NODE,
};

use code::CodeMap;
use sampled::{add_samples, FormKey};

/// Resolves the VM's method keys to consumer names. Implemented by the backend.
pub trait MethodResolver {
    /// Names `method` and, where cheap, the other methods of its class: pushes `(key, Some(name))` for
    /// methods whose class `filter` accepts and `(key, None)` for the others. Must push an entry for
    /// `method` itself (None if it cannot be resolved).
    fn resolve(&mut self, method: u64, filter: &ClassFilter, out: &mut Vec<(u64, Option<String>)>);
    /// The method keys of the calling thread's stack, outermost first, innermost (the method of the
    /// current event) last. Used to re-synchronise a thread's context after a pause or on first sight.
    fn stack(&mut self, out: &mut Vec<u64>);
    /// The name of the pseudo-frame of a stack sample whose walk failed with `code`
    /// ([`crate::sampling::StackWalker`]).
    fn walk_failure(&self, code: i32) -> String {
        format!("(stack not walked: code {code})")
    }
    /// The name of a native code frame at program counter `pc`: its symbol and library where
    /// the process's symbols say, else its library and offset.
    fn native_code(&mut self, pc: u64) -> String {
        format!("[native] 0x{pc:x}")
    }
    /// The source line of position `pos` (a bytecode index on HotSpot) in `method`, where the
    /// class file has a line table; None otherwise (the default).
    fn line_of(&mut self, _method: u64, _pos: i32) -> Option<u32> {
        None
    }
}

/// One thread's stack read from another thread: how a control operation (a window that closes, a
/// snapshot) finds the context of a thread that has had no method event since its window opened,
/// e.g. one native call spanning the whole window. A backend that can read a running thread's stack
/// from outside gives one per thread ([`Recorder::set_remote_stack`]); it is dropped when the thread
/// ends, under the thread's lock, so no read overlaps the drop.
pub trait RemoteStack: Send {
    /// Reads the thread's stack now, from the calling thread: pushes its method keys into `out`,
    /// outermost first, innermost (the method the thread is executing) last, and returns a resolver
    /// for them that works on the calling thread. `None` when the stack cannot be read now (the
    /// thread is gone, the calling thread cannot reach the VM).
    fn read(&mut self, out: &mut Vec<u64>) -> Option<Box<dyn MethodResolver + '_>>;
}

/// What is known about a thread when it registers.
#[derive(Debug, Clone, Default)]
pub struct ThreadInfo {
    pub name: String,
    /// "application", "daemon", "system", …
    pub kind: Option<String>,
    pub os_tid: Option<u64>,
}

const EXCLUDED: ConsumerId = ConsumerId::MAX;

/// The recording state of one thread. Locked by its own thread at each event.
pub struct ThreadRecorder {
    id: u64,
    state: Mutex<ThreadState>,
}

struct ThreadState {
    info: ThreadInfo,
    calls: CursorBuilder,
    locks: Tree,
    waits: Tree,
    /// Stack samples (with `RecorderConfig::stack_samples`), and their forms: (charged
    /// consumer, form) → (samples, weights); and (consumer on the stack, its frame's form) →
    /// (samples, weights).
    samples: Option<Tree>,
    /// With stack samples: when each was taken and its node in `samples`.
    timeline: Option<SampleTimeline>,
    /// With stack samples: the same samples, each with a last node naming the thread's state
    /// ([`hpm_model::sampling::SampleState`], [`state_node_name`]) below its context.
    sample_states: Option<Tree>,
    forms: FxHashMap<FormKey, (u64, Vec<u64>)>,
    stack_forms: FxHashMap<FormKey, (u64, Vec<u64>)>,
    /// Allocation samples (with `RecorderConfig::alloc_samples`): the allocating stack, then the
    /// allocated class; base values `alloc-bytes` and `alloc-objects`, estimated.
    alloc_samples: Option<Tree>,
    /// The fraction of an object the thread's allocation samples stood for and their integer
    /// counts did not carry yet (error diffusion: the totals stay unbiased).
    alloc_object_carry: f64,
    /// Per-thread cache of method key → consumer (EXCLUDED for methods not recorded).
    methods: FxHashMap<u64, ConsumerId>,
    /// With `RecorderConfig::sample_lines`: (method's consumer, line) → `method:line`'s consumer.
    lines: FxHashMap<(ConsumerId, u32), ConsumerId>,
    reader: Box<dyn ThreadMetrics>,
    /// `reader` may be read from any thread: control operations charge the thread up to now.
    remote: bool,
    /// Metric values read by the MetricSet, then the allocation counters.
    now: Vec<u64>,
    n_read: usize,
    alloc_bytes: u64,
    alloc_objects: u64,
    vm_alloc_bytes: u64,
    vm_alloc_objects: u64,
    /// Monitor contention or wait in progress: (start wall ns, monitor class consumer).
    contended: Option<(u64, ConsumerId)>,
    waiting: Option<(u64, ConsumerId)>,
    /// A `LockSupport.park*` in progress ([`Recorder::park`]).
    parking: Option<monitors::Parking>,
    /// The lock and wait tree nodes of (call-tree node, monitor class) seen before, so that a
    /// monitor event finds its context without walking the call path (a thread that waits in a
    /// loop waits in the same few contexts). Cleared with the trees ([`ThreadState::clear_calls`]).
    lock_nodes: FxHashMap<(NodeId, ConsumerId), NodeId>,
    wait_nodes: FxHashMap<(NodeId, ConsumerId), NodeId>,
    /// The recorder epoch this thread last synchronised with; a newer epoch means "rebase the
    /// metrics and re-synchronise the context to the real stack at the next event".
    epoch: u64,
    /// True until the first method event: the context is synchronised to the real stack then.
    needs_sync: bool,
    /// Reads this thread's stack from other threads, if the backend can.
    stack: Option<Box<dyn RemoteStack>>,
    /// Where the thread's current call-tree context (node id) is published at every change, for
    /// a sampler that credits it from outside ([`Recorder::register_credited_thread`]).
    cell: Option<&'static AtomicU32>,
    /// What control operations charged since the thread's last event to the context they read from
    /// outside (see [`Recorder::sync_from_outside`]); settled at the thread's next event.
    outside: Option<OutsideRead>,
    method_events: u64,
    exception_exits: u64,
    /// What samples found in the probes' own code on this thread ([`Recorder::set_in_probes`]).
    in_probes: Vec<u64>,
    ended: bool,
    start_wall: u64,
    end_wall: Option<u64>,
}

/// A thread's context read from outside while it had no event, and what was charged to it.
struct OutsideRead {
    /// The stack as read (method keys, outermost first).
    keys: Vec<u64>,
    /// The context those keys resolved to, and what has been charged to it since.
    node: NodeId,
    charged: Vec<u64>,
}

impl ThreadState {
    /// Empties the call tree (see [`CursorBuilder::clear`]): its nodes get new ids, so the lock and
    /// wait nodes found by call-tree node are forgotten too.
    fn clear_calls(&mut self) {
        self.calls.clear();
        self.forget_monitor_nodes();
    }

    /// Forgets the lock and wait nodes found by call-tree node: the call tree's node ids changed.
    fn forget_monitor_nodes(&mut self) {
        self.lock_nodes.clear();
        self.wait_nodes.clear();
    }

    /// Publishes the current context in the thread's cell, if it has one (a relaxed store).
    #[inline]
    fn publish(&self) {
        if let Some(c) = self.cell {
            c.store(self.calls.current(), Ordering::Relaxed);
        }
    }

    /// Charges the current context with what the thread consumed since the last reading.
    #[inline]
    fn charge_now(&mut self) {
        self.read();
        self.calls.charge(&self.now);
    }

    /// Makes the current reading the baseline without charging anything.
    fn rebase_now(&mut self) {
        self.read();
        self.calls.rebase(&self.now);
        // What an outside read charged is settled from this baseline on: nothing to move later.
        self.outside = None;
    }

    #[inline]
    fn read(&mut self) {
        let n = self.n_read;
        self.reader.read(&mut self.now[..n]);
        if self.now.len() > n {
            self.now[n] = self.alloc_bytes;
            self.now[n + 1] = self.alloc_objects;
        }
    }
}

/// The reader of a thread whose metric-set values are credited from outside: reads nothing (the
/// values stay 0, so its events charge nothing of them).
struct Credited;

impl ThreadMetrics for Credited {
    fn read(&mut self, _out: &mut [u64]) {}
}

/// Counters of VM activity that belong to no thread.
#[derive(Debug, Default)]
struct VmCounters {
    classes_loaded: AtomicU64,
    classes_prepared: AtomicU64,
}

/// What [`Recorder::status`] reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Status {
    pub paused: bool,
    pub live_threads: usize,
    pub finished_threads: usize,
    pub methods_known: usize,
    pub method_events: u64,
    pub gc_count: u64,
    pub classes_loaded: u64,
    pub code_blobs: usize,
    pub uptime_ns: u64,
    /// Nodes in all trees (calls, locks, waits) of all threads.
    pub nodes: usize,
    /// Heap bytes held by those trees.
    pub tree_bytes: usize,
}

struct Registry {
    live: Vec<Arc<ThreadRecorder>>,
    finished: Vec<Arc<ThreadRecorder>>,
    /// Ended virtual threads kept in `finished`, and the thread the later ones are merged into.
    virtual_kept: usize,
    virtual_merged: Option<Arc<ThreadRecorder>>,
}

/// The reader of a thread that reads no metrics (the merged virtual threads).
struct NoMetrics;

impl ThreadMetrics for NoMetrics {
    fn read(&mut self, out: &mut [u64]) {
        out.fill(0);
    }
}

/// The recorder of one VM: configuration, the registry of threads and the shared, cold-path tables.
pub struct Recorder {
    config: RecorderConfig,
    metric_set: Box<dyn MetricSet>,
    bindings: Bindings,
    n_read: usize,
    /// `CLOCK_MONOTONIC` at creation, in ns: the origin of [`Recorder::wall_ns`].
    origin_ns: u64,
    consumers: Mutex<ConsumerTable>,
    methods: Mutex<FxHashMap<u64, ConsumerId>>,
    registry: Mutex<Registry>,
    live_threads: AtomicUsize,
    next_thread: AtomicU64,
    paused: AtomicBool,
    epoch: AtomicU64,
    gc: gc::GcTracker,
    code: Mutex<CodeMap>,
    /// The JIT compiler threads' time by method compiled ([`Recorder::compiler_look`]).
    compiles: compiles::CompileTracker,
    vm: VmCounters,
    compensation: Mutex<Option<Compensation>>,
    phases: Mutex<phases::PhaseSplits>,
    probe_log: Mutex<probe_log::ProbeLog>,
}

// Locks a mutex even if a thread panicked while holding it (the data is counters and trees,
// always in a usable state between statements).
use hpm_support::lock;

impl Recorder {
    pub fn new(config: RecorderConfig, metric_set: Box<dyn MetricSet>) -> Recorder {
        let mode = config.metrics_from_sampler.unwrap_or(MetricMode::Exact);
        let mut metrics: Vec<Metric> = metric_set.metrics().into_iter().map(|m| m.with_mode(mode)).collect();
        let n_read = metrics.len();
        if config.alloc {
            metrics.push(Metric::new("alloc-bytes", "bytes"));
            metrics.push(Metric::new("alloc-objects", "objects"));
        }
        Recorder {
            bindings: Bindings::methods(metrics),
            n_read,
            metric_set,
            config,
            origin_ns: crate::counters::clock::monotonic_ns(),
            consumers: Mutex::new(ConsumerTable::new()),
            methods: Mutex::new(FxHashMap::default()),
            registry: Mutex::new(Registry { live: Vec::new(), finished: Vec::new(), virtual_kept: 0, virtual_merged: None }),
            live_threads: AtomicUsize::new(0),
            next_thread: AtomicU64::new(0),
            paused: AtomicBool::new(false),
            epoch: AtomicU64::new(0),
            gc: gc::GcTracker::default(),
            compiles: compiles::CompileTracker::default(),
            code: Mutex::new(CodeMap::default()),
            vm: VmCounters::default(),
            compensation: Mutex::new(None),
            phases: Mutex::new(phases::PhaseSplits::default()),
            probe_log: Mutex::new(probe_log::ProbeLog::default()),
        }
    }

    pub fn config(&self) -> &RecorderConfig {
        &self.config
    }
    /// The metrics this recorder reads per thread (to open them on a thread of the backend's
    /// choosing, e.g. a carrier of virtual threads).
    pub fn metric_set(&self) -> &dyn MetricSet {
        &*self.metric_set
    }

    pub fn bindings(&self) -> &Bindings {
        &self.bindings
    }
    /// Wall-clock ns since the recorder was created.
    #[inline]
    pub fn wall_ns(&self) -> u64 {
        // The clock itself rather than `Instant::elapsed`, whose `Duration` arithmetic costs as
        // much again as the vDSO read (waits read it twice each).
        self.wall_ns_of(crate::counters::clock::monotonic_ns())
    }
    /// The `CLOCK_MONOTONIC` time of the recorder's wall clock's zero.
    pub fn origin_ns(&self) -> u64 {
        self.origin_ns
    }
    /// A `CLOCK_MONOTONIC` time (e.g. one the VM read) on the recorder's wall clock.
    #[inline]
    pub fn wall_ns_of(&self, monotonic_ns: u64) -> u64 {
        monotonic_ns.saturating_sub(self.origin_ns)
    }
    #[inline]
    pub fn is_paused(&self) -> bool {
        self.paused.load(Ordering::Relaxed)
    }

    fn intern(&self, name: &str) -> ConsumerId {
        lock(&self.consumers).intern(name)
    }

    // ---------------------------------------------------------------- threads

    /// Registers the calling thread with metrics opened on it. The returned handle is what the
    /// backend passes to every later event of this thread.
    pub fn register_current_thread(&self, info: ThreadInfo) -> Arc<ThreadRecorder> {
        // Where the metrics can be read from any thread, windows charge a thread up to the moment
        // they open or close, even inside one long call with no event (see `catch_up`).
        let remote = if self.config.metrics_from_sampler.is_some() { None } else { self.metric_set.open_current_thread_remote() };
        let (reader, remote) = match remote {
            Some(r) => (r, true),
            None => (self.metric_set.open_current_thread(), false),
        };
        self.register(info, reader, remote)
    }

    /// Registers a thread whose metrics are read by `reader` (opened on the thread that will report
    /// its events).
    pub fn register_thread(&self, info: ThreadInfo, reader: Box<dyn ThreadMetrics>) -> Arc<ThreadRecorder> {
        self.register(info, reader, false)
    }

    /// As [`Recorder::register_thread`], with a `reader` that may also be read from any other
    /// thread (as a green thread's account is: its finished intervals), so that control operations
    /// charge the thread up to the moment they run.
    pub fn register_thread_readable_anywhere(&self, info: ThreadInfo, reader: Box<dyn ThreadMetrics>) -> Arc<ThreadRecorder> {
        self.register(info, reader, true)
    }

    /// Registers a thread whose metric-set values are credited from outside rather than read at its
    /// events (the research VM's sampled mode, `metrics_from_sampler = Some(Sampled)`): its events
    /// read nothing but the allocation counters, and every change of its call-tree context
    /// publishes the new context's node id in `cell` (a relaxed store) for a sampler to credit,
    /// through [`Recorder::add_sampled`].
    pub fn register_credited_thread(&self, info: ThreadInfo, cell: &'static AtomicU32) -> Arc<ThreadRecorder> {
        let t = self.register(info, Box::new(Credited), false);
        {
            let mut s = lock(&t.state);
            s.cell = Some(cell);
            s.publish();
        }
        t
    }

    /// Adds sampled amounts (`deltas`: one per metric of the metric set) to context `node` of
    /// thread `t`'s call tree, a node id its cell held (see
    /// [`Recorder::register_credited_thread`]); also after the thread ended. Node ids are those of
    /// the tree since the last [`Recorder::reset`]: amounts taken before it must be dropped
    /// rather than added after it.
    pub fn add_sampled(&self, t: &ThreadRecorder, node: NodeId, deltas: &[u64]) {
        let n = self.n_read.min(deltas.len());
        lock(&t.state).calls.add_base(node, &deltas[..n]);
    }

    /// `remote`: `reader` may be read from any thread.
    fn register(&self, info: ThreadInfo, reader: Box<dyn ThreadMetrics>, remote: bool) -> Arc<ThreadRecorder> {
        let root = self.intern(&info.name);
        let t = Arc::new(self.new_thread(root, info, reader, remote));
        lock(&self.registry).live.push(t.clone());
        self.live_threads.fetch_add(1, Ordering::Relaxed);
        t
    }

    fn new_thread(&self, root: ConsumerId, info: ThreadInfo, mut reader: Box<dyn ThreadMetrics>, remote: bool) -> ThreadRecorder {
        let m = self.bindings.metrics.len();
        let mut now = vec![0u64; m];
        reader.read(&mut now[..self.n_read]);
        let tree = Tree::new(root, m);
        let mut locks = Tree::new(root, 1);
        locks.add_calls(Tree::ROOT, 1);
        let mut waits = Tree::new(root, 2);
        waits.add_calls(Tree::ROOT, 1);
        let samples = self.config.stack_samples.as_ref().map(|m| Tree::new(root, m.len()));
        let alloc_samples = self.config.alloc_samples.map(|_| Tree::new(root, 2));
        ThreadRecorder {
            id: self.next_thread.fetch_add(1, Ordering::Relaxed),
            state: Mutex::new(ThreadState {
                calls: CursorBuilder::new(tree, &now),
                locks,
                waits,
                timeline: samples.as_ref().map(|_| SampleTimeline::default()),
                sample_states: samples.clone(),
                samples,
                forms: FxHashMap::default(),
                stack_forms: FxHashMap::default(),
                alloc_samples,
                alloc_object_carry: 0.0,
                methods: FxHashMap::default(),
                lines: FxHashMap::default(),
                lock_nodes: FxHashMap::default(),
                wait_nodes: FxHashMap::default(),
                reader,
                remote,
                now,
                n_read: self.n_read,
                alloc_bytes: 0,
                alloc_objects: 0,
                vm_alloc_bytes: 0,
                vm_alloc_objects: 0,
                contended: None,
                waiting: None,
                parking: None,
                epoch: self.epoch.load(Ordering::Acquire),
                needs_sync: true,
                stack: None,
                cell: None,
                outside: None,
                method_events: 0,
                in_probes: Vec::new(),
                exception_exits: 0,
                ended: false,
                start_wall: self.wall_ns(),
                end_wall: None,
                info,
            }),
        }
    }

    /// The OS thread ids of every thread registered so far (live and ended) with their kind
    /// ("application", "daemon", "system", …), for telling the VM's threads from the program's.
    pub fn os_threads(&self) -> Vec<(u64, Option<String>)> {
        let r = lock(&self.registry);
        r.live
            .iter()
            .chain(&r.finished)
            .filter_map(|t| {
                let s = lock(&t.state);
                s.info.os_tid.map(|tid| (tid, s.info.kind.clone()))
            })
            .collect()
    }

    /// Updates a thread's name/kind (e.g. a thread renamed before it ended).
    pub fn rename_thread(&self, t: &ThreadRecorder, name: &str) {
        let mut s = lock(&t.state);
        if s.info.name != name {
            s.info.name = name.to_string();
        }
    }

    /// Sets the probe cost that reports subtract (for backends that calibrate their own probes).
    pub fn set_compensation(&self, c: Compensation) {
        *lock(&self.compensation) = Some(c);
    }

    /// What the sampler found running in the probes' own code on thread `t` since the last reset,
    /// per metric (the first metrics of the call trees; the rest count 0): credited to none of
    /// its contexts. Snapshots carry it per thread (`ThreadSummary::in_probes`) and all threads'
    /// together in their compensation ([`Compensation::measured`]).
    pub fn set_in_probes(&self, t: &ThreadRecorder, measured: Vec<u64>) {
        lock(&t.state).in_probes = measured;
    }

    /// The consumer named `name` (interned once): how a backend that names methods itself (the
    /// bytecode probes name them when their class is instrumented) gets their consumers.
    /// Consumers are never dropped, so a backend may keep the id (rvm keeps one per monitor class,
    /// for [`Recorder::monitor_wait_of`]).
    pub fn consumer(&self, name: &str) -> ConsumerId {
        self.intern(name)
    }

    /// Replaces the call tree of `t` by `build(root consumer, metric count)`: for backends whose
    /// call trees are kept outside the recorder (the bytecode probes keep each thread's tree in the
    /// VM and hand a copy over before every snapshot). The tree's root must be the thread.
    /// `exception_exits`: exits by exception the backend counted. The thread's method events are
    /// the entries and exits the tree's calls imply.
    pub fn replace_calls_tree(&self, t: &ThreadRecorder, exception_exits: u64, build: impl FnOnce(ConsumerId, usize) -> Tree) {
        let mut s = lock(&t.state);
        let root = s.calls.tree().consumer(Tree::ROOT);
        let tree = build(root, self.bindings.metrics.len());
        let calls: u64 = (1..tree.len() as NodeId).map(|n| tree.calls(n)).fold(0, u64::saturating_add);
        s.method_events = calls.saturating_mul(2);
        s.exception_exits = exception_exits;
        s.outside = None;
        let ThreadState { calls, now, .. } = &mut *s;
        *calls = CursorBuilder::new(tree, now);
        s.forget_monitor_nodes();
    }

    /// Lets control operations read `t`'s stack from outside the thread (see [`RemoteStack`]).
    pub fn set_remote_stack(&self, t: &ThreadRecorder, stack: Box<dyn RemoteStack>) {
        let mut s = lock(&t.state);
        if !s.ended {
            s.stack = Some(stack);
        }
    }

    /// Makes `path` (consumers below the thread's root) the current context of `t` without counting
    /// calls: for backends whose call trees live outside the recorder, before a monitor event, so
    /// that lock and wait trees get the context the thread is in.
    pub fn move_to_context(&self, t: &ThreadRecorder, path: &[ConsumerId]) {
        let mut s = lock(&t.state);
        s.calls.move_to(path);
        s.publish();
    }

    /// The thread has ended: its open contexts are closed (the time since its last event is charged
    /// to where it was) and its trees move to the finished list, kept for every later dump.
    pub fn end_thread(&self, t: &Arc<ThreadRecorder>) {
        {
            let mut s = lock(&t.state);
            if s.ended {
                return;
            }
            if !self.is_paused() && self.sync_epoch(&mut s) {
                s.charge_now();
            }
            s.calls.close_all();
            s.publish();
            s.ended = true;
            // The backend's handle on the thread goes with it (under this lock: no read overlaps).
            s.stack = None;
            s.outside = None;
            s.end_wall = Some(self.wall_ns());
        }
        let mut r = lock(&self.registry);
        if let Some(i) = r.live.iter().position(|x| Arc::ptr_eq(x, t)) {
            let t = r.live.remove(i);
            self.live_threads.fetch_sub(1, Ordering::Relaxed);
            let is_virtual = lock(&t.state).info.kind.as_deref() == Some("virtual");
            if !is_virtual || r.virtual_kept < self.config.virtual_threads_kept {
                r.virtual_kept += is_virtual as usize;
                r.finished.push(t);
                return;
            }
            let merged = match &r.virtual_merged {
                Some(m) => m.clone(),
                None => {
                    let info = ThreadInfo { name: MERGED_VIRTUAL_THREADS.into(), kind: Some("virtual".into()), os_tid: None };
                    let m = Arc::new(self.new_thread(self.intern(&info.name), info, Box::new(NoMetrics), false));
                    {
                        let mut s = lock(&m.state);
                        s.ended = true;
                        s.start_wall = u64::MAX;
                        // Its root counts the threads merged in, not an entry of its own.
                        s.calls.tree_mut().set_calls(Tree::ROOT, 0);
                        s.locks.set_calls(Tree::ROOT, 0);
                        s.waits.set_calls(Tree::ROOT, 0);
                    }
                    r.finished.push(m.clone());
                    r.virtual_merged = Some(m.clone());
                    m
                }
            };
            Self::merge_thread(&mut lock(&merged.state), &lock(&t.state));
        }
    }

    /// Adds what ended thread `from` recorded to `into` (the merged virtual threads): its trees
    /// at the root, its counts, its span.
    fn merge_thread(into: &mut ThreadState, from: &ThreadState) {
        into.calls.tree_mut().merge_from(Tree::ROOT, from.calls.tree(), Tree::ROOT);
        into.locks.merge_from(Tree::ROOT, &from.locks, Tree::ROOT);
        into.waits.merge_from(Tree::ROOT, &from.waits, Tree::ROOT);
        if let (Some(a), Some(b)) = (into.samples.as_mut(), from.samples.as_ref()) {
            a.merge_from(Tree::ROOT, b, Tree::ROOT);
        }
        if let (Some(a), Some(b)) = (into.alloc_samples.as_mut(), from.alloc_samples.as_ref()) {
            a.merge_from(Tree::ROOT, b, Tree::ROOT);
        }
        for (into_forms, from_forms) in [(&mut into.forms, &from.forms), (&mut into.stack_forms, &from.stack_forms)] {
            for (k, (n, w)) in from_forms {
                let e = into_forms.entry(*k).or_insert_with(|| (0, vec![0; w.len()]));
                e.0 += n;
                for (a, b) in e.1.iter_mut().zip(w) {
                    *a = a.saturating_add(*b);
                }
            }
        }
        into.method_events += from.method_events;
        into.exception_exits += from.exception_exits;
        into.vm_alloc_bytes += from.vm_alloc_bytes;
        into.vm_alloc_objects += from.vm_alloc_objects;
        into.start_wall = into.start_wall.min(from.start_wall);
        into.end_wall = into.end_wall.max(from.end_wall);
    }

    /// True if the thread's metrics can be charged now; rebases them (and asks for a stack
    /// re-synchronisation) when the recorder was reset or resumed since the thread's last event.
    #[inline]
    fn sync_epoch(&self, s: &mut ThreadState) -> bool {
        let e = self.epoch.load(Ordering::Acquire);
        if s.epoch == e {
            return true;
        }
        s.epoch = e;
        s.needs_sync = true;
        s.rebase_now();
        false
    }

    // ---------------------------------------------------------------- methods

    /// The consumer of `method` for this thread, resolving it on first sight.
    #[inline]
    fn consumer_of(&self, s: &mut ThreadState, method: u64, r: &mut dyn MethodResolver) -> ConsumerId {
        if let Some(&c) = s.methods.get(&method) {
            return c;
        }
        let c = self.resolve_global(method, r);
        s.methods.insert(method, c);
        c
    }

    #[cold]
    fn resolve_global(&self, method: u64, r: &mut dyn MethodResolver) -> ConsumerId {
        if let Some(&c) = lock(&self.methods).get(&method) {
            return c;
        }
        // Resolve outside the cache lock (the backend calls into the VM).
        let mut found = Vec::new();
        r.resolve(method, &self.config.filter, &mut found);
        let named: Vec<(u64, ConsumerId)> = {
            let mut ct = lock(&self.consumers);
            found.iter().map(|(k, n)| (*k, n.as_deref().map_or(EXCLUDED, |n| ct.intern(n)))).collect()
        };
        let mut m = lock(&self.methods);
        for (k, c) in named {
            m.entry(k).or_insert(c);
        }
        *m.entry(method).or_insert(EXCLUDED)
    }

    /// Re-synchronises the thread's context with its real stack (without counting calls).
    #[cold]
    fn resync(&self, s: &mut ThreadState, r: &mut dyn MethodResolver, drop_innermost: bool) {
        s.needs_sync = false;
        let mut keys = Vec::new();
        r.stack(&mut keys);
        // A control operation that read this very stack from outside saw the thread at this event
        // (its frame already pushed, waiting for this thread's lock): what it charged belongs to
        // the context this event re-synchronises to, which differs at an entry (the entered method
        // is not running yet). A different stack was read before this event: its context was right.
        let outside = s.outside.take().filter(|o| o.keys == keys);
        if drop_innermost {
            keys.pop();
        }
        let path = self.context_of(s, &keys, r);
        s.calls.move_to(&path);
        if let Some(o) = outside {
            s.calls.move_charge(o.node, &o.charged);
        }
        s.publish();
    }

    /// The context of a stack (method keys, outermost first): the recorded methods' consumers.
    fn context_of(&self, s: &mut ThreadState, keys: &[u64], r: &mut dyn MethodResolver) -> Vec<ConsumerId> {
        let mut path = Vec::with_capacity(keys.len());
        for &k in keys {
            let c = self.consumer_of(s, k, r);
            if c != EXCLUDED {
                path.push(c);
            }
        }
        path
    }

    /// Moves a thread that has had no method event since its window opened to the context of its
    /// stack read from outside (by the calling control thread), without counting calls. False if
    /// its stack cannot be read.
    ///
    /// `needs_sync` stays set, so the thread's own next event still re-synchronises from its own
    /// stack: the stack read here may show the thread at an entry it is posting right now (the new
    /// frame is pushed before the event, which then waits for this thread's lock), and counting
    /// that entry again, or charging the time before it to the entered method, would be wrong. The
    /// re-synchronisation finds the same context (the stack cannot change without an event), or,
    /// at that entry, the caller, and moves there what was charged from outside
    /// ([`OutsideRead`]).
    #[cold]
    fn sync_from_outside(&self, s: &mut ThreadState) -> bool {
        let Some(mut stack) = s.stack.take() else { return false };
        let mut keys = Vec::new();
        let moved = match stack.read(&mut keys) {
            Some(mut r) => {
                // Names resolved here, on the control thread, under this thread's lock only (as
                // at the thread's own events: `resolve_global` takes no global lock across the VM).
                let path = self.context_of(s, &keys, &mut *r);
                s.calls.move_to(&path);
                true
            }
            None => false,
        };
        s.stack = Some(stack);
        if moved {
            let node = s.calls.current();
            match &mut s.outside {
                Some(o) if o.keys == keys && o.node == node => {}
                o => *o = Some(OutsideRead { keys, node, charged: vec![0; s.now.len()] }),
            }
        }
        moved
    }

    /// Method entry on thread `t` (the calling thread).
    #[inline]
    pub fn method_entry(&self, t: &ThreadRecorder, method: u64, r: &mut dyn MethodResolver) {
        if self.is_paused() {
            return;
        }
        self.entry_unpaused(t, method, r)
    }

    #[inline]
    fn entry_unpaused(&self, t: &ThreadRecorder, method: u64, r: &mut dyn MethodResolver) {
        let mut s = lock(&t.state);
        if s.ended {
            return;
        }
        s.method_events += 1;
        let charge = self.sync_epoch(&mut s);
        if s.needs_sync {
            self.resync(&mut s, r, true);
        }
        let c = self.consumer_of(&mut s, method, r);
        if c == EXCLUDED {
            return;
        }
        if charge {
            s.charge_now();
        }
        s.calls.enter_uncharged(c);
        s.publish();
    }

    /// Method exit on thread `t`; `by_exception` when the frame was popped by an exception.
    #[inline]
    pub fn method_exit(&self, t: &ThreadRecorder, method: u64, by_exception: bool, r: &mut dyn MethodResolver) {
        if self.is_paused() {
            return;
        }
        self.exit_unpaused(t, method, by_exception, r)
    }

    #[inline]
    fn exit_unpaused(&self, t: &ThreadRecorder, method: u64, by_exception: bool, r: &mut dyn MethodResolver) {
        let mut s = lock(&t.state);
        if s.ended {
            return;
        }
        s.method_events += 1;
        let charge = self.sync_epoch(&mut s);
        if s.needs_sync {
            self.resync(&mut s, r, false);
        }
        let c = self.consumer_of(&mut s, method, r);
        if c == EXCLUDED {
            return;
        }
        if by_exception {
            s.exception_exits += 1;
        }
        if charge {
            s.charge_now();
        }
        s.calls.exit_uncharged(c);
        s.publish();
    }

    // ---------------------------------------------------------------- control

    /// Stops recording: events that still arrive are ignored (the backend also turns method events
    /// off in the VM). Returns false if already paused.
    pub fn pause(&self) -> bool {
        if self.is_paused() {
            return false;
        }
        // What each thread consumed up to now belongs to the window that closes.
        self.for_live(|s| self.catch_up(s));
        !self.paused.swap(true, Ordering::AcqRel)
    }

    /// Runs `f` on the state of every live thread, one at a time.
    fn for_live(&self, mut f: impl FnMut(&mut ThreadState)) {
        let live: Vec<Arc<ThreadRecorder>> = lock(&self.registry).live.clone();
        for t in live {
            f(&mut lock(&t.state));
        }
    }

    /// Charges a thread's current context with what it consumed since its last event, from any
    /// thread: a thread inside one long call (a native call, a sleep, a loop over methods not
    /// recorded) has no event to do it when a window closes or a dump is taken. A thread whose
    /// context is not known yet (no event since the window opened) gets it from its stack read
    /// from outside ([`RemoteStack`]). Threads whose metrics only their own thread can read, and
    /// threads of unknown context whose stack cannot be read, wait for their next event.
    fn catch_up(&self, s: &mut ThreadState) {
        if !s.remote || s.ended || s.epoch != self.epoch.load(Ordering::Acquire) || self.is_paused() {
            return;
        }
        if !s.needs_sync {
            s.charge_now();
            return;
        }
        if !self.sync_from_outside(s) {
            return;
        }
        let before = s.calls.last_values().to_vec();
        s.charge_now();
        if let Some(o) = &mut s.outside {
            for ((c, b), n) in o.charged.iter_mut().zip(before).zip(&s.now) {
                *c = c.wrapping_add(n.saturating_sub(b));
            }
        }
    }

    /// Makes now the start of a thread's window, from any thread; with `resync` its context is
    /// re-synchronised with its real stack at its next event, which charges the time from now to
    /// that event to the synchronised context. A thread whose metrics only it can read is rebased
    /// at its next event instead (the time until then is lost).
    fn start_window(&self, s: &mut ThreadState, epoch: u64, resync: bool) {
        if !s.remote || s.ended {
            return;
        }
        s.rebase_now();
        s.epoch = epoch;
        s.needs_sync |= resync;
    }

    /// Starts recording again: every thread rebases its metrics (time spent paused belongs to no
    /// context) and re-synchronises its context with its real stack at its next event. Returns false
    /// if not paused.
    pub fn resume(&self) -> bool {
        if !self.paused.load(Ordering::Acquire) {
            return false;
        }
        let epoch = self.epoch.fetch_add(1, Ordering::AcqRel) + 1;
        self.for_live(|s| self.start_window(s, epoch, true));
        self.paused.store(false, Ordering::Release);
        true
    }

    /// Drops everything recorded so far (trees of live threads are emptied, keeping their open
    /// contexts; finished threads, GC log and counters are cleared). The code map is kept: code stays
    /// where it is.
    pub fn reset(&self) {
        let epoch = self.epoch.fetch_add(1, Ordering::AcqRel) + 1;
        let recording = !self.is_paused();
        let mut r = lock(&self.registry);
        r.finished.clear();
        for t in &r.live {
            let mut s = lock(&t.state);
            s.clear_calls();
            // The open contexts have new node ids.
            s.publish();
            s.outside = None;
            // The open contexts stay: a thread inside a long call is charged from now on.
            if recording {
                self.start_window(&mut s, epoch, false);
            }
            let root = s.locks.consumer(Tree::ROOT);
            s.locks = Tree::new(root, 1);
            s.locks.add_calls(Tree::ROOT, 1);
            s.waits = Tree::new(root, 2);
            s.waits.add_calls(Tree::ROOT, 1);
            if let Some(t) = s.samples.as_mut() {
                *t = Tree::new(root, t.metric_count());
            }
            if let Some(t) = s.timeline.as_mut() {
                *t = SampleTimeline::default();
            }
            if let Some(t) = s.sample_states.as_mut() {
                *t = Tree::new(root, t.metric_count());
            }
            s.forms.clear();
            s.stack_forms.clear();
            if let Some(t) = s.alloc_samples.as_mut() {
                *t = Tree::new(root, 2);
            }
            s.method_events = 0;
            s.exception_exits = 0;
            s.in_probes.clear();
            s.vm_alloc_bytes = 0;
            s.vm_alloc_objects = 0;
        }
        drop(r);
        self.gc.clear();
        self.compiles.clear();
        lock(&self.probe_log).reset(self.wall_ns());
    }

    /// A request for probes at run time was done (see [`Snapshot::probe_requests`]).
    pub fn probe_requested(&self, request: ProbeRequest) {
        lock(&self.probe_log).request(request);
    }

    /// `method`'s probes went into its code at `at_ns`, by a request.
    pub fn probe_opened(&self, method: &str, at_ns: u64) {
        lock(&self.probe_log).opened(method, at_ns);
    }

    /// `method`'s requested probes came out of its code at `at_ns`.
    pub fn probe_closed(&self, method: &str, at_ns: u64) {
        lock(&self.probe_log).closed(method, at_ns);
    }

    pub fn status(&self) -> Status {
        let (live, finished, events, nodes, tree_bytes) = {
            let r = lock(&self.registry);
            let (mut ev, mut nodes, mut bytes) = (0u64, 0usize, 0usize);
            for t in r.live.iter().chain(&r.finished) {
                let st = lock(&t.state);
                ev += st.method_events;
                for tree in [st.calls.tree(), &st.locks, &st.waits] {
                    nodes += tree.len();
                    bytes += tree.heap_bytes();
                }
            }
            (r.live.len(), r.finished.len(), ev, nodes, bytes)
        };
        Status {
            paused: self.is_paused(),
            live_threads: live,
            finished_threads: finished,
            methods_known: lock(&self.methods).len(),
            method_events: events,
            gc_count: self.gc.count(),
            classes_loaded: self.vm.classes_loaded.load(Ordering::Relaxed),
            code_blobs: lock(&self.code).live.len(),
            uptime_ns: self.wall_ns(),
            nodes,
            tree_bytes,
        }
    }

    /// Copies everything recorded so far. Safe while threads run: each thread's state is locked only
    /// while its trees are copied; a thread that ends meanwhile waits for the registry and moves to the
    /// finished list afterwards, so it is in this snapshot (as it was) and in every later one.
    /// Ends a phase of the exact call trees here (at a marker): the snapshot's
    /// [`Snapshot::phase_calls`] split at this point. False when [`phases::PHASE_LIMIT`] splits
    /// were made already (this one is not).
    pub fn split_phase(&self) -> bool {
        self.for_live(|s| self.catch_up(s));
        let trees: Vec<(u64, ThreadProfile, Tree)> = {
            let r = lock(&self.registry);
            let mut all: Vec<&Arc<ThreadRecorder>> = r.live.iter().chain(&r.finished).collect();
            all.sort_by_key(|t| t.id);
            all.iter()
                .map(|t| {
                    let s = lock(&t.state);
                    let profile = ThreadProfile { name: s.info.name.clone(), kind: s.info.kind.clone(), os_tid: s.info.os_tid, tree: Tree::new(0, 0) };
                    (t.id, profile, s.calls.tree().clone())
                })
                .collect()
        };
        let views: Vec<phases::ThreadCalls> = trees.iter().map(|(id, p, t)| phases::ThreadCalls { id: *id, profile: p.clone(), tree: t }).collect();
        lock(&self.phases).split(&views)
    }

    /// Markers that did not split the call trees (past [`phases::PHASE_LIMIT`]).
    pub fn phase_splits_ignored(&self) -> u64 {
        lock(&self.phases).ignored
    }

    pub fn snapshot(&self) -> Snapshot {
        // A running thread is charged up to the snapshot, not up to its last event.
        self.for_live(|s| self.catch_up(s));
        struct Copy {
            id: u64,
            info: ThreadInfo,
            calls: Tree,
            locks: Tree,
            waits: Tree,
            samples: Option<Tree>,
            timeline: Option<SampleTimeline>,
            sample_states: Option<Tree>,
            forms: Vec<(FormKey, (u64, Vec<u64>))>,
            stack_forms: Vec<(FormKey, (u64, Vec<u64>))>,
            alloc_samples: Option<Tree>,
            summary: ThreadSummary,
        }
        let copies: Vec<Copy> = {
            let r = lock(&self.registry);
            let mut all: Vec<&Arc<ThreadRecorder>> = r.live.iter().chain(&r.finished).collect();
            all.sort_by_key(|t| t.id);
            all.iter()
                .map(|t| {
                    let s = lock(&t.state);
                    Copy {
                        id: t.id,
                        info: s.info.clone(),
                        calls: s.calls.tree().clone(),
                        locks: s.locks.clone(),
                        waits: s.waits.clone(),
                        samples: s.samples.clone(),
                        timeline: s.timeline.clone(),
                        sample_states: s.sample_states.clone(),
                        forms: s.forms.iter().map(|(k, v)| (*k, v.clone())).collect(),
                        stack_forms: s.stack_forms.iter().map(|(k, v)| (*k, v.clone())).collect(),
                        alloc_samples: s.alloc_samples.clone(),
                        summary: ThreadSummary {
                            name: s.info.name.clone(),
                            kind: s.info.kind.clone(),
                            os_tid: s.info.os_tid,
                            alive: !s.ended,
                            method_events: s.method_events,
                            exception_exits: s.exception_exits,
                            unmatched_exits: s.calls.stats().unmatched_exits,
                            vm_alloc_bytes: s.vm_alloc_bytes,
                            vm_alloc_objects: s.vm_alloc_objects,
                            start_ns: s.start_wall,
                            end_ns: s.end_wall,
                            scaled_reads: s.reader.scaled_reads(),
                            in_probes: s.in_probes.clone(),
                        },
                    }
                })
                .collect()
        };
        // The table is append-only: cloned after the trees, it names every consumer they use.
        let mut consumers = lock(&self.consumers).clone();
        let mk = |metrics: Vec<Metric>, label: &str, count: &str| Profile {
            bindings: Bindings { consumer_label: label.into(), count_label: count.into(), metrics },
            consumers: ConsumerTable::new(),
            threads: Vec::new(),
        };
        let mut calls = mk(self.bindings.metrics.clone(), "methods", "calls");
        let mut locks = mk(vec![Metric::new("contended-time", "ns")], "methods and monitor classes", "contended entries");
        let mut waits =
            mk(vec![Metric::new("wait-time", "ns"), Metric::new("timed-out", "waits")], "methods and monitor classes", "waits");
        let mut samples = self.config.stack_samples.as_ref().map(|m| {
            let metrics = m.iter().map(|m| m.clone().with_mode(MetricMode::Sampled)).collect();
            mk(metrics, "methods", "samples")
        });
        let mut alloc_samples = self.config.alloc_samples.map(|_| {
            let metrics = vec![Metric::new("alloc-bytes", "bytes").with_mode(MetricMode::Sampled), Metric::new("alloc-objects", "objects").with_mode(MetricMode::Sampled)];
            mk(metrics, "methods and allocated classes", "samples")
        });
        let mut timelines = samples.as_ref().map(|_| Vec::new());
        let mut sample_states = samples.as_ref().map(|p| mk(p.bindings.metrics.clone(), "methods and thread states", "samples"));
        let mut threads = Vec::new();
        let form_rows = |per_thread: &mut dyn Iterator<Item = &Vec<(FormKey, (u64, Vec<u64>))>>| -> Vec<FormRow> {
            let mut sum: std::collections::BTreeMap<FormKey, (u64, Vec<u64>)> = std::collections::BTreeMap::new();
            for rows in per_thread {
                for (k, (n, w)) in rows {
                    add_samples(sum.entry(*k).or_default(), *n, w);
                }
            }
            sum.into_iter()
                .map(|((c, form), (samples, weights))| FormRow { method: consumers.name(c).to_string(), form, samples, weights })
                .collect()
        };
        let mut phase_calls = {
            let views: Vec<phases::ThreadCalls> = copies
                .iter()
                .map(|c| phases::ThreadCalls {
                    id: c.id,
                    profile: ThreadProfile { name: c.info.name.clone(), kind: c.info.kind.clone(), os_tid: c.info.os_tid, tree: Tree::new(0, 0) },
                    tree: &c.calls,
                })
                .collect();
            lock(&self.phases).profiles(&views, &calls.bindings, &ConsumerTable::new())
        };
        let sample_forms = form_rows(&mut copies.iter().map(|c| &c.forms));
        let stack_forms = form_rows(&mut copies.iter().map(|c| &c.stack_forms));
        for c in copies {
            // A renamed thread: make sure its current name is interned for the root too.
            let root = consumers.intern(&c.info.name);
            let fix = |t: Tree| if t.consumer(Tree::ROOT) == root { t } else { reroot(&t, root) };
            let tp = |tree: Tree| ThreadProfile { name: c.info.name.clone(), kind: c.info.kind.clone(), os_tid: c.info.os_tid, tree };
            calls.threads.push(tp(fix(c.calls)));
            locks.threads.push(tp(fix(c.locks)));
            waits.threads.push(tp(fix(c.waits)));
            if let (Some(p), Some(t)) = (samples.as_mut(), c.samples) {
                let mut timeline = c.timeline.unwrap_or_default();
                let t = if t.consumer(Tree::ROOT) == root {
                    t
                } else {
                    // Rerooting makes new node ids: the timeline follows.
                    let r = reroot(&t, root);
                    timeline.remap(&t, &r);
                    r
                };
                if let Some(ts) = timelines.as_mut() {
                    ts.push(timeline);
                }
                p.threads.push(tp(t));
            }
            if let (Some(p), Some(t)) = (alloc_samples.as_mut(), c.alloc_samples) {
                p.threads.push(tp(fix(t)));
            }
            if let (Some(p), Some(t)) = (sample_states.as_mut(), c.sample_states) {
                p.threads.push(tp(fix(t)));
            }
            threads.push(c.summary);
        }
        calls.consumers = consumers.clone();
        locks.consumers = consumers.clone();
        if let Some(p) = samples.as_mut() {
            p.consumers = consumers.clone();
        }
        if let Some(p) = alloc_samples.as_mut() {
            p.consumers = consumers.clone();
        }
        if let Some(p) = sample_states.as_mut() {
            p.consumers = consumers.clone();
        }
        // A walker that tells no state (the research VM's) leaves no state-split trees.
        let sample_states = sample_states.filter(sampled::any_state_known);
        // Phase trees as the calls': rooted at the thread's current name.
        for p in &mut phase_calls {
            for t in &mut p.threads {
                let root = consumers.intern(&t.name);
                if t.tree.consumer(Tree::ROOT) != root {
                    t.tree = reroot(&t.tree, root);
                }
            }
            p.consumers = consumers.clone();
        }
        waits.consumers = consumers;
        let (gc, gc_dropped, gc_count, gc_total_ns) = self.gc.copy();
        let (code, code_loads, code_unloads) = {
            let c = lock(&self.code);
            (c.live.values().cloned().collect(), c.loads, c.unloads)
        };
        let (probe_requests, probe_windows) = lock(&self.probe_log).copy();
        // The probes' own code, all threads together (ended ones keep their last measurement).
        let compensation = lock(&self.compensation).clone().map(|mut c| {
            if threads.iter().any(|t| !t.in_probes.is_empty()) {
                c.measured = (0..c.metrics.len()).map(|k| threads.iter().map(|t| t.in_probes.get(k).copied().unwrap_or(0)).sum()).collect();
            }
            c
        });
        Snapshot {
            calls,
            locks,
            waits,
            samples,
            sample_timelines: timelines,
            sample_states,
            alloc_samples,
            sample_forms,
            stack_forms,
            compiles: self.compiles.rows(),
            threads,
            gc,
            gc_dropped,
            gc_count,
            gc_total_ns,
            code,
            code_loads,
            code_unloads,
            classes_loaded: self.vm.classes_loaded.load(Ordering::Relaxed),
            classes_prepared: self.vm.classes_prepared.load(Ordering::Relaxed),
            uptime_ns: self.wall_ns(),
            config: self.config.clone(),
            compensation,
            phase_calls,
            probe_requests,
            probe_windows,
        }
    }
}

/// A copy of `t` whose root consumer is `root`.
fn reroot(t: &Tree, root: ConsumerId) -> Tree {
    let mut out = Tree::new(root, t.metric_count());
    out.merge_from(Tree::ROOT, t, Tree::ROOT);
    out
}

#[cfg(test)]
mod tests;
