//! The research VM's agent interface: `rvm -agentpath:libhpmagent.so=OPTIONS` calls
//! [`Agent_OnLoad_rvm`] with the VM's queries and services ([`RvmVm`]) and callbacks to fill in
//! ([`RvmCallbacks`], the C ABI of the `rvm-abi` crate). The only FFI of the agent for rvm: every
//! `unsafe` block here reads memory the VM hands over for the duration of a call.
//!
//! The callbacks feed the same [`Recorder`] as the HotSpot backend, so both VMs give the same
//! reports:
//!
//! - Threads: `thread_start` (under the VM's scheduler lock) only puts the thread in the agent's
//!   table — a lock-free two-level array indexed by the VM's dense thread id — with its green-thread
//!   metric account; the recorder registration (which takes the recorder's locks) happens outside
//!   the scheduler lock: at `vm_init` for the threads that exist then, at the thread's first event,
//!   at its end or at `vm_death`. Idle, collector and service threads are "system" threads and are
//!   registered too, so `threads.txt` shows the VM's own cost.
//! - Metrics (`metric-mode=`): exact, each processor opens the recorder's metric set on its own OS
//!   thread at `vp_start` and reads it at every switch (`hpm_collectors::green`): a thread's CPU time
//!   and counters are the sum of its running intervals on whichever processors ran it; sampled (the
//!   default where a read is a system call), see [`Sampling`]. `wall-time` stays real time.
//! - Switches arrive on the switching processor right after rvm's scheduler lock, stamped with
//!   the time of the switch under it (`SwitchInfo::time_ns`).
//! - Method events: the processor keeps the running thread's table entry in a thread-local set at
//!   `thread_switch`, so an event finds its thread's recorder without a global lock. Methods are
//!   named through the VM's `method_name`/`current_stack` queries exactly as the HotSpot backend
//!   names them (see [`Resolver`]).
//! - Quantum traces (`quantum`): see [`hpm_collectors::quantum::tracer`]; the processor's reading at
//!   a switch serves both the green-thread accounting (exact mode) and the record.
//!
//! Every callback runs inside [`guard`]: a panic never unwinds into the VM (the first is logged).
//! Callbacks for what is not collected stay unset, so the VM pays one branch for them.

use std::cell::RefCell;
use std::ffi::{c_char, c_void, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::thread::JoinHandle;
use std::time::Duration;

use hpm_support::{guard, log};
use hpm_collectors::counters::switch_clock;
use hpm_collectors::counters::{monotonic_ns, Metrics};
use hpm_collectors::green::{self, Account, GreenConfig, GreenThreadMetrics, Processor};
use hpm_model::arcflow::MetricMode;
use hpm_model::metrics::MetricSet;
use hpm_collectors::sampling::{ContextSampler, SampledThread, SamplerConfig, SignalSource};
use hpm_model::quantum::{MarkerKind, ThreadInfo as TraceThread, ThreadKind};
use hpm_model::snapshot::naming::{class_name_from_signature, name_class_methods};
use hpm_model::snapshot::ClassFilter;
use hpm_collectors::recorder::{MethodResolver, Recorder, ThreadInfo, ThreadRecorder};
use rvm_abi::{method_part, thread_kind, AgentCtx, RvmCallbacks, RvmVm, SwitchInfo, ABI_VERSION};

use hpm_agent_core::options::{self, QuantumMode};
use hpm_collectors::quantum::tracer::{RecordAt, Tracer};
use hpm_agent_core::{control, AgentState, Backend, Features, ProbeChange};

/// The VM's queries and services, copied out of the [`RvmVm`] at load (valid until `vm_death`
/// returns; the handle is kept as an address so the table can be shared between threads).
#[derive(Clone, Copy)]
struct VmFns {
    handle: usize,
    vps: u32,
    thread_name: extern "C" fn(rvm_abi::VmHandle, u32, *mut u8, usize) -> isize,
    method_name: extern "C" fn(rvm_abi::VmHandle, u32, u32, *mut u8, usize) -> isize,
    class_name: extern "C" fn(rvm_abi::VmHandle, u32, *mut u8, usize) -> isize,
    current_stack: extern "C" fn(rvm_abi::VmHandle, *mut u32, usize) -> isize,
    create_service_thread: extern "C" fn(rvm_abi::VmHandle, u32, *const c_char, extern "C" fn(*mut c_void), *mut c_void) -> i64,
    wake_service_thread: extern "C" fn(rvm_abi::VmHandle, u32),
    method_events_off: extern "C" fn(rvm_abi::VmHandle, u32),
}

/// Calls a query that copies a string (`f(buf, cap)` returns the full length or -1), growing the
/// buffer when the first one was too small.
fn query_string(f: impl Fn(*mut u8, usize) -> isize) -> Option<String> {
    let mut buf = [0u8; 256];
    let n = f(buf.as_mut_ptr(), buf.len());
    if n < 0 {
        return None;
    }
    let n = n as usize;
    if n <= buf.len() {
        return Some(String::from_utf8_lossy(&buf[..n]).into_owned());
    }
    let mut big = vec![0u8; n];
    let m = f(big.as_mut_ptr(), big.len());
    if m < 0 {
        return None;
    }
    big.truncate((m as usize).min(n));
    Some(String::from_utf8_lossy(&big).into_owned())
}

impl VmFns {
    fn h(&self) -> rvm_abi::VmHandle {
        self.handle as rvm_abi::VmHandle
    }
    fn thread_name(&self, tid: u32) -> Option<String> {
        query_string(|b, c| (self.thread_name)(self.h(), tid, b, c))
    }
    fn method_part(&self, m: u32, part: u32) -> Option<String> {
        query_string(|b, c| (self.method_name)(self.h(), m, part, b, c))
    }
    fn class_name(&self, class: u32) -> String {
        query_string(|b, c| (self.class_name)(self.h(), class, b, c)).map_or_else(|| "<unknown>".into(), |n| dotted(&n))
    }
    /// The calling thread's stack, outermost first.
    fn current_stack(&self, out: &mut Vec<u64>) {
        let mut buf = vec![0u32; 256];
        loop {
            let n = (self.current_stack)(self.h(), buf.as_mut_ptr(), buf.len());
            if n < 0 {
                return;
            }
            let n = n as usize;
            if n <= buf.len() {
                out.extend(buf[..n].iter().map(|&m| m as u64));
                return;
            }
            buf.resize(n, 0);
        }
    }
}

/// A class name as the HotSpot backend writes it: `java/lang/String` → `java.lang.String`,
/// `[I` → `int[]`, `[Ljava/lang/String;` → `java.lang.String[]`.
pub fn dotted(internal: &str) -> String {
    if internal.starts_with('[') {
        class_name_from_signature(internal)
    } else {
        internal.replace('/', ".")
    }
}

/// Names methods through the VM's queries, as `hotspot_backend::Resolver` names them through
/// JVMTI: `package.Class.method`, with parameter types when the class declares several methods of
/// that name. The interface gives the methods of a class consecutive ids (see
/// `RvmVm::method_name`), so the class's other methods are the neighbouring ids with the same class.
struct Resolver<'a> {
    vm: &'a VmFns,
}

/// Upper bound on the methods of one class looked at for overloads.
const MAX_CLASS_METHODS: u32 = 65_536;

impl MethodResolver for Resolver<'_> {
    /// Names `method` and its class's other methods; the recorder ignores those without a name
    /// (outside the filter) for good, so the VM is told to stop reporting them: in a program that
    /// calls the class library often, about half of all method events.
    fn resolve(&mut self, method: u64, filter: &ClassFilter, out: &mut Vec<(u64, Option<String>)>) {
        let from = out.len();
        self.resolve_names(method, filter, out);
        for &(id, _) in out[from..].iter().filter(|(_, name)| name.is_none()) {
            (self.vm.method_events_off)(self.vm.h(), id as u32);
        }
    }

    fn stack(&mut self, out: &mut Vec<u64>) {
        self.vm.current_stack(out);
    }
}

impl Resolver<'_> {
    fn resolve_names(&mut self, method: u64, filter: &ClassFilter, out: &mut Vec<(u64, Option<String>)>) {
        let vm = self.vm;
        let m = method as u32;
        let Some(class) = vm.method_part(m, method_part::CLASS) else {
            out.push((method, None));
            return;
        };
        // The class's methods: the run of ids around `m` with the same class.
        let same = |id: u32| vm.method_part(id, method_part::CLASS).is_some_and(|c| c == class);
        let mut first = m;
        while first > 0 && m - first < MAX_CLASS_METHODS && same(first - 1) {
            first -= 1;
        }
        let mut last = m;
        while last < u32::MAX - 1 && last - first < MAX_CLASS_METHODS && same(last + 1) {
            last += 1;
        }
        let dotted_class = dotted(&class);
        // Hidden classes (a lambda's or a concatenation's class, made for a call site) are
        // transparent, as on HotSpot, where bytecode probes cannot reach them: their cost goes to
        // the caller, and the lambda's body (`Foo.lambda$main$0`) is a context of its own.
        let hidden = vm.method_part(m, method_part::HIDDEN).as_deref() == Some("1");
        if hidden || !filter.accepts(&dotted_class) {
            out.extend((first..=last).map(|id| (id as u64, None)));
            return;
        }
        let named: Vec<(u64, String, String)> = (first..=last)
            .filter_map(|id| Some((id as u64, vm.method_part(id, method_part::NAME)?, vm.method_part(id, method_part::DESCRIPTOR)?)))
            .collect();
        name_class_methods(&dotted_class, &named, method, out);
    }
}

/// One VM thread in the agent's table.
struct Entry {
    kind: u32,
    name: Mutex<String>,
    account: Arc<Account>,
    recorder: OnceLock<Arc<ThreadRecorder>>,
    ended: AtomicBool,
    /// Sampled mode: the thread's current call-tree context, published by its recorder at every
    /// change (never freed: a processor's sampler may read it until the process ends).
    cell: &'static AtomicU32,
    /// Sampled mode: CLOCK_MONOTONIC when its wall time was last credited.
    wall_at: AtomicU64,
    /// In `Object.wait` and not switched out since: its next switch out starts the wait.
    wait_pending: AtomicBool,
    /// The switch times (rvm's, CLOCK_MONOTONIC) that time a wait, with no clock read of the
    /// agent's: when the thread went off its processor after the wait began, and when it last
    /// came back on (rvm reports the wait's end right after that).
    wait_from: AtomicU64,
    switched_in: AtomicU64,
}

const CHUNK: usize = 1024;
const CHUNKS: usize = 4096;

/// Thread id → entry, without locks: `CHUNKS` chunks of `CHUNK` slots (4M threads), each chunk
/// allocated when its first thread starts. Ids are dense and never reused.
/// One chunk of [`Threads`]: `CHUNK` slots, each set once.
type Chunk = Box<[OnceLock<Arc<Entry>>]>;

struct Threads {
    chunks: Box<[OnceLock<Chunk>]>,
    /// One more than the highest id inserted.
    len: AtomicU32,
}

impl Threads {
    fn new() -> Threads {
        Threads { chunks: (0..CHUNKS).map(|_| OnceLock::new()).collect(), len: AtomicU32::new(0) }
    }

    #[inline]
    fn get(&self, tid: u32) -> Option<&Arc<Entry>> {
        let (c, i) = (tid as usize / CHUNK, tid as usize % CHUNK);
        self.chunks.get(c)?.get()?[i].get()
    }

    fn insert(&self, tid: u32, e: Arc<Entry>) {
        let (c, i) = (tid as usize / CHUNK, tid as usize % CHUNK);
        let Some(chunk) = self.chunks.get(c) else { return };
        let chunk = chunk.get_or_init(|| (0..CHUNK).map(|_| OnceLock::new()).collect());
        let _ = chunk[i].set(e);
        self.len.fetch_max(tid.saturating_add(1), Ordering::AcqRel);
    }

    fn all(&self) -> impl Iterator<Item = (u32, &Arc<Entry>)> {
        (0..self.len.load(Ordering::Acquire)).filter_map(|t| self.get(t).map(|e| (t, e)))
    }
}

/// The agent on rvm.
struct Rvm {
    state: Arc<AgentState>,
    vm: VmFns,
    threads: Threads,
    green: GreenConfig,
    quantum: Option<Tracer>,
    /// Sampled metric mode (None: exact, the recorder reads the green-thread metrics at every
    /// event and each processor at every switch).
    sampling: Option<Sampling>,
    dead: AtomicBool,
    /// Thread-switch callbacks, those timed, and the time spent in those (ns), summed over
    /// processors at `vp_end`: the agent's own cost per switch, reported at exit (`log=info`).
    switch_calls: AtomicU64,
    switch_timed: AtomicU64,
    switch_ns: AtomicU64,
}

static RVM: OnceLock<Rvm> = OnceLock::new();

thread_local! {
    /// On a processor's OS thread: switch callbacks since `vp_start`, and the ns spent in those
    /// timed (every [`SWITCH_TIMED_EVERY`]th).
    static SWITCH_COST: std::cell::Cell<SwitchCost> = const { std::cell::Cell::new(SwitchCost::ZERO) };
    /// Sampled mode, on a processor's OS thread: the processor as its sampler's thread.
    static SAMPLED: RefCell<Option<Arc<SampledThread>>> = const { RefCell::new(None) };
    /// On a processor's OS thread: the consumer of each monitor class seen, by rvm class id
    /// (`u32::MAX`: not yet), so that a monitor event asks the VM for no name and interns none.
    /// Classes are never unloaded and consumers never dropped, so an entry stays right.
    static MONITOR_CLASSES: RefCell<Vec<u32>> = const { RefCell::new(Vec::new()) };
}

/// The consumer of rvm class `class`, named by the VM the first time this processor sees it.
fn monitor_class(r: &Rvm, class: u32) -> u32 {
    let known = MONITOR_CLASSES.with(|m| m.try_borrow().ok().and_then(|m| m.get(class as usize).copied())).filter(|c| *c != u32::MAX);
    known.unwrap_or_else(|| {
        let c = r.state.recorder().consumer(&r.vm.class_name(class));
        // (class ids are indices of the VM's class table; a larger one than any table would
        // hold is named every time rather than grow the cache)
        if class < 1 << 20 {
            MONITOR_CLASSES.with(|m| {
                if let Ok(mut m) = m.try_borrow_mut() {
                    if m.len() <= class as usize {
                        m.resize(class as usize + 1, u32::MAX);
                    }
                    m[class as usize] = c;
                }
            });
        }
        c
    })
}

/// Switch callbacks and the time of those timed, on one processor.
#[derive(Clone, Copy)]
struct SwitchCost {
    calls: u64,
    timed: u64,
    ns: u64,
}

impl SwitchCost {
    const ZERO: SwitchCost = SwitchCost { calls: 0, timed: 0, ns: 0 };
}

/// One switch callback in this many is timed for `log=info`'s cost line: two clock reads at every
/// switch would be a good part of what they measure.
const SWITCH_TIMED_EVERY: u64 = 16;

/// The cell given with owner 0 (the processor's own code), which the sampler ignores.
static NO_CELL: AtomicU32 = AtomicU32::new(0);

/// Sampled metric mode (`metric-mode=sampled`, or `auto` where one read of the metrics costs
/// more than 50 ns, as a thread CPU clock does where it is a system call): method events and
/// switches read no metrics. Each processor's OS thread is a thread of a
/// [`ContextSampler`] (a POSIX CPU timer's signal every 1 ms of its CPU time, at most one per
/// scheduler tick; a settle by `hpm-rvm-drain` every 10 ms); at every switch it is retargeted, without a read, to the incoming green thread (owner
/// = thread id + 1) and its context cell, which the thread's recorder keeps at its current
/// call-tree node. The credits, per (green thread, context), are drained into the recorder
/// (`Recorder::add_sampled`) every [`DRAIN_PERIOD`] by `hpm-rvm-drain`, before every snapshot,
/// before recording stops, and at the end. `wall-time` keeps its meaning, elapsed time: the
/// processors' wall deltas are dropped, and each green thread is credited its own elapsed time
/// at every drain, in the context it is in then (running, ready or blocked), as HotSpot's wall
/// sampler credits blocked threads.
struct Sampling {
    sampler: Arc<ContextSampler>,
    /// Each processor's OS thread as sampled (from its `vp_start`).
    vps: Vec<OnceLock<Arc<SampledThread>>>,
    /// Index of `wall-time` in the metric set, and the number of metrics.
    wall: Option<usize>,
    metrics: usize,
    /// Serialises drains, and holds them off across a reset.
    draining: Mutex<()>,
    stop: (Mutex<bool>, Condvar),
    drainer: Mutex<Option<JoinHandle<()>>>,
}

/// How often `hpm-rvm-drain` moves the credits into the recorder and credits wall time: at most
/// 10 samples and 1 wall settle per processor in between, far below the sampler's 512 contexts.
const DRAIN_PERIOD: Duration = Duration::from_millis(10);

fn rvm() -> Option<&'static Rvm> {
    RVM.get().filter(|r| !r.dead.load(Ordering::Relaxed))
}

fn kind_name(kind: u32) -> &'static str {
    match kind {
        thread_kind::APPLICATION => "application",
        thread_kind::DAEMON => "daemon",
        _ => "system",
    }
}

impl Rvm {
    /// The thread's recorder, registering it on first use. Never under the scheduler lock (it
    /// takes the recorder's registry and consumer-table locks).
    fn recorder_of<'e>(&self, e: &'e Entry) -> &'e Arc<ThreadRecorder> {
        e.recorder.get_or_init(|| {
            let name = e.name.lock().unwrap_or_else(|x| x.into_inner()).clone();
            let info = ThreadInfo { name, kind: Some(kind_name(e.kind).into()), os_tid: None };
            if self.sampling.is_some() {
                self.state.recorder().register_credited_thread(info, e.cell)
            } else {
                self.state.recorder().register_thread(info, Box::new(GreenThreadMetrics::new(e.account.clone(), self.green.clone())))
            }
        })
    }

    /// Sampled mode: moves every processor's credits into the recorder (`keep`) or drops them,
    /// and credits (or, without `keep`, skips) each live green thread's wall time up to now. The
    /// caller holds `s.draining`.
    fn drain_locked(&self, s: &Sampling, keep: bool) {
        let rec = self.state.recorder();
        let mut buf = vec![0u64; s.metrics];
        for st in s.vps.iter().filter_map(|v| v.get()) {
            st.drain(&mut |owner, node, deltas| {
                if !keep || owner == 0 || deltas.len() != buf.len() {
                    return;
                }
                let Some(e) = self.threads.get(owner - 1) else { return };
                buf.copy_from_slice(deltas);
                if let Some(w) = s.wall {
                    buf[w] = 0; // the processor's elapsed time, not the thread's
                }
                rec.add_sampled(self.recorder_of(e), node, &buf);
            });
        }
        let now = monotonic_ns();
        for (_, e) in self.threads.all() {
            if !e.ended.load(Ordering::Relaxed) {
                self.credit_wall(s, e, now, keep);
            }
        }
    }

    /// Sampled mode: credits thread `e` its elapsed time since its last wall credit, in the
    /// context it is in now (`keep`), or only restarts its wall count from `now`.
    fn credit_wall(&self, s: &Sampling, e: &Entry, now: u64, keep: bool) {
        let from = e.wall_at.swap(now, Ordering::Relaxed);
        let Some(w) = s.wall.filter(|_| keep && now > from) else { return };
        let mut buf = vec![0u64; s.metrics];
        buf[w] = now - from;
        let t = self.recorder_of(e);
        self.state.recorder().add_sampled(t, e.cell.load(Ordering::Relaxed), &buf);
    }

    fn drain(&self, s: &Sampling, keep: bool) {
        let _g = s.draining.lock().unwrap_or_else(|x| x.into_inner());
        self.drain_locked(s, keep);
    }

    /// Every processor's thread credits what it used up to now (a read from here each).
    fn settle_all(s: &Sampling) {
        for st in s.vps.iter().filter_map(|v| v.get()) {
            st.settle();
        }
    }

    /// Every processor's thread forgets what it used so far: sampling starts anew from now.
    fn rebase_all(s: &Sampling) {
        for st in s.vps.iter().filter_map(|v| v.get()) {
            st.rebase();
        }
    }

    /// Runs `f` with the recorder of thread `tid`, from the table (lock-free, and cheaper than a
    /// thread-local in this shared library, where each access is a call to `__tls_get_addr`).
    #[inline]
    fn with_thread(&self, tid: u32, f: impl FnOnce(&Recorder, &ThreadRecorder)) {
        if let Some(e) = self.threads.get(tid) {
            f(self.state.recorder(), self.recorder_of(e));
        }
    }

    /// Processor `vp`'s idle thread: the VM registers one idle and one collector thread per
    /// processor, in processor order, before `vm_init`; a processor runs its idle thread until its
    /// first switch.
    fn idle_thread(&self, vp: u32) -> Option<(u32, &Arc<Entry>)> {
        self.threads.all().filter(|(_, e)| e.kind == thread_kind::IDLE).nth(vp as usize)
    }

    fn register_all(&self) {
        for (_, e) in self.threads.all() {
            self.recorder_of(e);
        }
    }

    fn trace_threads(&self) -> Vec<TraceThread> {
        self.threads
            .all()
            .map(|(tid, e)| {
                let kind = match e.kind {
                    thread_kind::APPLICATION | thread_kind::DAEMON => ThreadKind::App,
                    thread_kind::IDLE => ThreadKind::Idle,
                    thread_kind::COLLECTOR => ThreadKind::Collector,
                    _ if self.quantum.as_ref().is_some_and(|q| q.is_writer(tid)) => ThreadKind::Writer,
                    _ => ThreadKind::System,
                };
                TraceThread { id: tid + 1, kind, name: e.name.lock().unwrap_or_else(|x| x.into_inner()).clone() }
            })
            .collect()
    }
}

/// The VM's live threads as (name, kind), from the agent's table (for `status`).
pub fn vm_threads() -> Vec<(String, String)> {
    let Some(r) = RVM.get() else { return Vec::new() };
    r.threads
        .all()
        .filter(|(_, e)| !e.ended.load(Ordering::Relaxed))
        .map(|(_, e)| (e.name.lock().unwrap_or_else(|x| x.into_inner()).clone(), kind_name(e.kind).to_string()))
        .collect()
}

// ------------------------------------------------------------------------------------- callbacks

extern "C" fn cb_vm_init(_ctx: AgentCtx) {
    guard("vm_init", || {
        let Some(r) = rvm() else { return };
        if let Some(q) = &r.quantum {
            for vp in 0..q.vps() {
                let Ok(name) = CString::new(format!("VM.TraceWriter-{vp}")) else { continue };
                let tid = (r.vm.create_service_thread)(r.vm.h(), vp, name.as_ptr(), cb_trace_writer, vp as usize as *mut c_void);
                if tid < 0 {
                    log::error(&format!("cannot create the trace writer of processor {vp}; its buffers are written at exit only"));
                } else {
                    q.set_writer(vp, tid as u32);
                }
            }
        }
        // The threads that exist now (main, idle, collector, trace writers): registered outside the
        // scheduler lock.
        r.register_all();
        if let Some(s) = &r.sampling {
            match std::thread::Builder::new().name("hpm-rvm-drain".into()).spawn(drain_loop) {
                Ok(h) => *s.drainer.lock().unwrap_or_else(|x| x.into_inner()) = Some(h),
                Err(e) => log::warn(&format!("cannot start hpm-rvm-drain ({e}): sampled metrics go into the reports at dumps only")),
            }
        }
        r.state.start_control_socket();
    })
}

/// The body of `hpm-rvm-drain` (sampled mode): drains every [`DRAIN_PERIOD`] until `vm_death`.
fn drain_loop() {
    let Some(r) = RVM.get() else { return };
    let Some(s) = &r.sampling else { return };
    let (lock, cv) = &s.stop;
    let mut stop = lock.lock().unwrap_or_else(|x| x.into_inner());
    while !*stop {
        stop = cv.wait_timeout(stop, DRAIN_PERIOD).unwrap_or_else(|x| x.into_inner()).0;
        if *stop {
            break;
        }
        drop(stop);
        // The settle the sampler's own wall thread would make (it has none here: one thread
        // waking every 10 ms, not two, each wake-up costing tens of µs on a virtual machine).
        let _ = catch_unwind(AssertUnwindSafe(|| {
            Rvm::settle_all(s);
            r.drain(s, !r.state.recorder().is_paused())
        }));
        stop = lock.lock().unwrap_or_else(|x| x.into_inner());
    }
}

// ---------------------------------------------------------------------- control operations

fn sampling() -> Option<(&'static Rvm, &'static Sampling)> {
    let r = RVM.get()?;
    Some((r, r.sampling.as_ref()?))
}

/// Recording stops: what the processors used up to now goes in, then the signals stop.
fn ctl_stopping() {
    let Some((r, s)) = sampling() else { return };
    Rvm::settle_all(s);
    r.drain(s, true);
    if let Err(e) = s.sampler.set_active(false) {
        log::warn(&format!("cannot hold the sampler off: {e}"));
    }
    r.drain(s, true);
}

/// Recording started again: sampling and wall time count from now.
fn ctl_started() {
    let Some((r, s)) = sampling() else { return };
    {
        let _g = s.draining.lock().unwrap_or_else(|x| x.into_inner());
        Rvm::rebase_all(s);
        r.drain_locked(s, false);
    }
    if let Err(e) = s.sampler.set_active(true) {
        log::warn(&format!("cannot restart the sampler: {e}"));
    }
}

/// A reset: the signals held off and the credits dropped around the recorder's reset (which
/// gives the open contexts new node ids), no drain in between; sampling restarts if it ran.
fn ctl_reset(reset: &dyn Fn()) {
    let Some((r, s)) = sampling() else {
        reset();
        return;
    };
    let _g = s.draining.lock().unwrap_or_else(|x| x.into_inner());
    let active = s.sampler.is_active();
    if let Err(e) = s.sampler.set_active(false) {
        log::warn(&format!("cannot hold the sampler off: {e}"));
    }
    r.drain_locked(s, false);
    reset();
    if active {
        Rvm::rebase_all(s);
        if let Err(e) = s.sampler.set_active(true) {
            log::warn(&format!("cannot restart the sampler: {e}"));
        }
    }
}

/// Before a snapshot: what the processors used up to now goes in.
fn ctl_sync() {
    let Some((r, s)) = sampling() else { return };
    let keep = !r.state.recorder().is_paused();
    if keep {
        Rvm::settle_all(s);
    }
    r.drain(s, keep);
}

/// The research VM as the agent's core sees it. Its state lives here, in the adapter: the live
/// threads are the adapter's own table, and with sampled metrics what the sampler credited goes
/// into the recorder before recording stops and before every snapshot, and a window that opens
/// (or a reset) starts the sampling anew. Method events need no switching: the callbacks stay
/// installed (a branch in the paused recorder), and no thread needs attaching.
struct RvmBackend;

impl Backend for RvmBackend {
    fn name(&self) -> &'static str {
        "rvm"
    }

    fn features(&self, _options: &options::Options) -> Features {
        // Its interpreter reports each call; no samples, no code map, no VM-cost timeline, and
        // its quantum traces are written before the final dump.
        Features { green_threads: true, ..Features::default() }
    }

    fn threads(&self) -> Result<Vec<(String, String)>, String> {
        Ok(vm_threads())
    }

    fn stopping(&self) {
        ctl_stopping()
    }

    fn started(&self) {
        ctl_started()
    }

    fn reset(&self, reset: &dyn Fn()) {
        ctl_reset(reset)
    }

    fn sync(&self) {
        ctl_sync()
    }

    fn request_probes(&self, _add: bool, _patterns: &[String]) -> Result<ProbeChange, String> {
        Err("the research VM counts every call already (its interpreter reports each entry and exit): there are no probes to put in or take out".into())
    }
}

/// The body of processor `arg`'s trace-writer thread.
extern "C" fn cb_trace_writer(arg: *mut c_void) {
    guard("trace writer", || {
        if let Some(q) = RVM.get().and_then(|r| r.quantum.as_ref()) {
            q.write_pending(arg as usize as u32);
        }
    })
}

extern "C" fn cb_vm_death(_ctx: AgentCtx, _exit_code: i32) {
    guard("vm_death", || {
        let Some(r) = RVM.get() else { return };
        if r.dead.swap(true, Ordering::AcqRel) {
            return;
        }
        r.state.stop_control_socket();
        if let Some(s) = &r.sampling {
            *s.stop.0.lock().unwrap_or_else(|x| x.into_inner()) = true;
            s.stop.1.notify_all();
            if let Some(h) = s.drainer.lock().unwrap_or_else(|x| x.into_inner()).take() {
                let _ = h.join();
            }
            // The processors have stopped (their final settle is in): everything goes in before
            // the VM's own threads end below.
            r.drain(s, !r.state.recorder().is_paused());
            let (mut samples, mut deferred, mut busy) = (0, 0, 0);
            for st in s.vps.iter().filter_map(|v| v.get()) {
                let x = st.stats();
                (samples, deferred, busy) = (samples + x.samples, deferred + x.deferred, busy + x.busy);
            }
            log::info(&format!("sampled metrics: {samples} samples on {} processors ({busy} found busy, {deferred} deferred)", s.vps.iter().filter(|v| v.get().is_some()).count()));
        }
        // Threads that never had an event (and so were never registered) are listed too. The VM's
        // own threads (idle, collector, service) end with the processors: ending them charges what
        // they consumed to their roots, so threads.txt shows the VM's cost. Application threads
        // still alive stay "running at the dump", as on HotSpot.
        r.register_all();
        for (_, e) in r.threads.all() {
            if !matches!(e.kind, thread_kind::APPLICATION | thread_kind::DAEMON) && !e.ended.swap(true, Ordering::Relaxed) {
                r.state.recorder().end_thread(r.recorder_of(e));
            }
        }
        if let Some(q) = &r.quantum {
            let vm = r.vm;
            let (files, errors) = q.finish(r.trace_threads(), |m| {
                Some((vm.method_part(m, method_part::CLASS)?, vm.method_part(m, method_part::NAME)?, vm.method_part(m, method_part::DESCRIPTOR)?))
            });
            hpm_agent_core::say_quantum_traces(&r.state.out, &files, &errors);
        }
        let (n, timed, ns) = (r.switch_calls.load(Ordering::Relaxed), r.switch_timed.load(Ordering::Relaxed), r.switch_ns.load(Ordering::Relaxed));
        if let Some(each) = ns.checked_div(timed) {
            log::info(&format!(
                "thread-switch callbacks: {n}, {:.3} ms in total, {each} ns each on average (every {SWITCH_TIMED_EVERY}th timed)",
                (each * n) as f64 / 1e6
            ));
        }
        r.state.final_dump();
    })
}

extern "C" fn cb_vp_start(_ctx: AgentCtx, vp: u32) {
    guard("vp_start", || {
        let Some(r) = rvm() else { return };
        // The processor runs its idle thread until its first switch.
        let idle = r.idle_thread(vp).map(|(t, e)| (t, e.clone()));
        if let Some(s) = &r.sampling {
            // Its own cell (owner 0) is never credited: it runs its idle thread from now on.
            let own = hpm_collectors::lines::new_cell();
            match s.sampler.start_current_thread(own) {
                Ok(st) => {
                    if let Some((t, e)) = &idle {
                        st.retarget(e.cell, t + 1, false);
                    }
                    if let Some(slot) = s.vps.get(vp as usize) {
                        let _ = slot.set(st.clone());
                    }
                    SAMPLED.with(|x| *x.borrow_mut() = Some(st));
                }
                Err(e) => log::warn(&format!("processor {vp}: time and counters of the threads it runs are not sampled: {e}")),
            }
        }
        // Exact mode reads the processor at every switch for the green-thread accounts; sampled
        // mode only for quantum records.
        if r.sampling.is_none() || r.quantum.is_some() {
            let mut p = Processor::new(vp, r.green.clone(), processor_reader(vp, r.state.metric_set()));
            p.switch(idle.as_ref().map(|(_, e)| e.account.clone()));
            if let Some(q) = &r.quantum {
                q.vp_start(vp, p.now(), idle.as_ref().map(|(t, _)| *t));
            }
            green::install(p);
        }
    })
}

/// The reader of processor `vp`'s metrics, on its own OS thread: `cpu-time` from the thread's
/// context-switch records where perf gives them (no system call per read, see
/// `hpm_collectors::counters::switch_clock`), else from its CPU clock.
fn processor_reader(vp: u32, set: &Metrics) -> Box<dyn hpm_model::metrics::ThreadMetrics> {
    static SAID: std::sync::Once = std::sync::Once::new();
    let (reader, refused) = switch_clock::processor_reader(set);
    SAID.call_once(|| match refused {
        None => log::info("processors read cpu-time from their context-switch records (no system call per read)"),
        Some(e) => log::info(&format!("processor {vp}: {e}; cpu-time is read from the thread's CPU clock (a system call per read)")),
    });
    reader
}

extern "C" fn cb_vp_end(_ctx: AgentCtx, _vp: u32, exit_code: i32) {
    guard("vp_end", || {
        let Some(r) = RVM.get() else { return };
        // The thread still on the processor is charged up to now.
        green::with_processor(|p| {
            p.switch(None);
            if let Some(q) = &r.quantum {
                q.vp_end(exit_code, p.now());
            }
        });
        green::uninstall();
        // Sampled mode: the final settle (to the thread still on it); its credits stay to drain.
        if let Some(st) = SAMPLED.with(|x| x.borrow_mut().take()) {
            st.stop();
        }
        let cost = SWITCH_COST.replace(SwitchCost::ZERO);
        r.switch_calls.fetch_add(cost.calls, Ordering::Relaxed);
        r.switch_timed.fetch_add(cost.timed, Ordering::Relaxed);
        r.switch_ns.fetch_add(cost.ns, Ordering::Relaxed);
    })
}

extern "C" fn cb_thread_start(_ctx: AgentCtx, tid: u32, name: *const u8, name_len: usize, kind: u32) {
    guard("thread_start", || {
        let Some(r) = rvm() else { return };
        let name = if name.is_null() {
            format!("thread-{tid}")
        } else {
            // SAFETY: the ABI passes `name_len` bytes of UTF-8 at `name`, valid during the call.
            String::from_utf8_lossy(unsafe { std::slice::from_raw_parts(name, name_len) }).into_owned()
        };
        // Under the scheduler lock: no recorder locks here, only the table (lock-free).
        let e = Arc::new(Entry {
            kind,
            name: Mutex::new(name),
            account: Account::new(&r.green),
            recorder: OnceLock::new(),
            ended: AtomicBool::new(false),
            // A line of its own: its events store into it at every call, on whichever processor.
            cell: hpm_collectors::lines::new_cell(),
            wall_at: AtomicU64::new(monotonic_ns()),
            wait_pending: AtomicBool::new(false),
            wait_from: AtomicU64::new(0),
            switched_in: AtomicU64::new(0),
        });
        r.threads.insert(tid, e);
    })
}

extern "C" fn cb_thread_end(_ctx: AgentCtx, tid: u32) {
    guard("thread_end", || {
        let Some(r) = rvm() else { return };
        let Some(e) = r.threads.get(tid) else { return };
        if let Some(s) = &r.sampling {
            // Its elapsed time up to its end (its CPU time is in the processors' credits).
            r.credit_wall(s, e, monotonic_ns(), !r.state.recorder().is_paused());
        }
        e.ended.store(true, Ordering::Relaxed);
        // The thread may have been renamed since it started.
        let name = r.vm.thread_name(tid);
        let t = r.recorder_of(e);
        if let Some(name) = name {
            r.state.recorder().rename_thread(t, &name);
            *e.name.lock().unwrap_or_else(|x| x.into_inner()) = name;
        }
        r.state.recorder().end_thread(t);
    })
}

extern "C" fn cb_thread_switch(_ctx: AgentCtx, info: *const SwitchInfo) {
    guard("thread_switch", || {
        let Some(r) = rvm() else { return };
        if info.is_null() {
            return;
        }
        let cost = SWITCH_COST.get();
        let t0 = cost.calls.is_multiple_of(SWITCH_TIMED_EVERY).then(monotonic_ns);
        // SAFETY: the ABI passes a valid SwitchInfo for the duration of the call; it is copied.
        let info = unsafe { *info };
        let method = |m: u32| (m != rvm_abi::NO_METHOD).then_some(m);
        let switch = hpm_collectors::quantum::Switch {
            processor: info.vp,
            from: info.from,
            to: info.to,
            voluntary: info.voluntary != 0,
            // (the trace's reason codes are rvm's: `switch_reason_codes_are_the_traces`)
            reason: u8::try_from(info.reason).unwrap_or(u8::MAX),
            callee: method(info.callee),
            caller: method(info.caller),
        };
        // On the switching processor, right after rvm's scheduler lock: no allocation, no lock but
        // the two threads' own accounts. The record's time is the switch's, read under the lock.
        let to = r.threads.get(info.to);
        // The times that bound a wait (see `cb_monitor_waited`).
        if let Some(e) = &to {
            e.switched_in.store(info.time_ns, Ordering::Relaxed);
        }
        if info.from != info.to {
            if let Some(e) = r.threads.get(info.from).filter(|e| e.wait_pending.load(Ordering::Relaxed)) {
                e.wait_pending.store(false, Ordering::Relaxed);
                e.wait_from.store(info.time_ns, Ordering::Relaxed);
            }
        }
        // Sampled mode: the processor's samples go to the incoming thread's context from now on
        // (no read).
        SAMPLED.with(|x| {
            if let Some(st) = x.borrow().as_ref() {
                match &to {
                    Some(e) => st.retarget(e.cell, info.to + 1, false),
                    None => st.retarget(&NO_CELL, 0, false),
                }
            }
        });
        green::with_processor(|p| {
            // The accounts serve exact mode only; sampled mode reads the processor for the record.
            // At the scheduler's time of the switch: no clock read of its own.
            p.switch_at(to.filter(|_| r.sampling.is_none()).map(|e| e.account.clone()), info.time_ns);
            if let Some(q) = &r.quantum {
                q.on_switch_at(&switch, info.time_ns, p.now(), |writer| (r.vm.wake_service_thread)(r.vm.h(), writer));
            }
        });
        SWITCH_COST.set(match t0 {
            Some(t0) => SwitchCost { calls: cost.calls + 1, timed: cost.timed + 1, ns: cost.ns + monotonic_ns().saturating_sub(t0) },
            None => SwitchCost { calls: cost.calls + 1, ..cost },
        });
    })
}

extern "C" fn cb_method_entry(_ctx: AgentCtx, tid: u32, method: u32) {
    guard("method_entry", || {
        let Some(r) = rvm() else { return };
        r.with_thread(tid, |rec, t| rec.method_entry(t, method as u64, &mut Resolver { vm: &r.vm }));
    })
}

extern "C" fn cb_method_exit(_ctx: AgentCtx, tid: u32, method: u32, by_exception: u32) {
    guard("method_exit", || {
        let Some(r) = rvm() else { return };
        r.with_thread(tid, |rec, t| rec.method_exit(t, method as u64, by_exception != 0, &mut Resolver { vm: &r.vm }));
    })
}

extern "C" fn cb_gc_start(_ctx: AgentCtx) {
    guard("gc_start", || {
        if let Some(r) = rvm() {
            r.state.recorder().gc_start();
        }
    })
}

extern "C" fn cb_gc_finish(_ctx: AgentCtx) {
    guard("gc_finish", || {
        if let Some(r) = rvm() {
            r.state.recorder().gc_finish();
        }
    })
}

extern "C" fn cb_monitor_contended_enter(_ctx: AgentCtx, tid: u32, class: u32) {
    guard("monitor_contended_enter", || {
        let Some(r) = rvm() else { return };
        let class = monitor_class(r, class);
        r.with_thread(tid, |rec, t| rec.monitor_contended_enter_of(t, class));
    })
}

extern "C" fn cb_monitor_contended_entered(_ctx: AgentCtx, tid: u32) {
    guard("monitor_contended_entered", || {
        let Some(r) = rvm() else { return };
        r.with_thread(tid, |rec, t| rec.monitor_contended_entered(t));
    })
}

extern "C" fn cb_monitor_wait(_ctx: AgentCtx, tid: u32, class: u32, _timeout_ms: i64) {
    guard("monitor_wait", || {
        let Some(r) = rvm() else { return };
        let class = monitor_class(r, class);
        // Timed by the switches that take the thread off its processor and put it back: rvm
        // reports a wait only when the thread blocks, so a switch out follows at once.
        if let Some(e) = r.threads.get(tid) {
            e.wait_pending.store(true, Ordering::Relaxed);
        }
        r.with_thread(tid, |rec, t| rec.monitor_wait_at(t, class, 0));
    })
}

extern "C" fn cb_monitor_waited(_ctx: AgentCtx, tid: u32, timed_out: u32) {
    guard("monitor_waited", || {
        let Some(r) = rvm() else { return };
        let Some(e) = r.threads.get(tid) else { return };
        // rvm reports the end of a wait as the thread resumes, right after its switch in. A wait
        // whose switch out was not seen (its processor's callback still running when another
        // processor resumed the thread) counts as lasting nothing.
        let end = e.switched_in.load(Ordering::Relaxed);
        let start = if e.wait_pending.swap(false, Ordering::Relaxed) { end } else { e.wait_from.load(Ordering::Relaxed) };
        let rec = r.state.recorder();
        rec.monitor_waited_at(r.recorder_of(e), timed_out != 0, Some(rec.wall_ns_of(start)), rec.wall_ns_of(end));
    })
}

extern "C" fn cb_allocation(_ctx: AgentCtx, tid: u32, _class: u32, bytes: u64) {
    guard("allocation", || {
        let Some(r) = rvm() else { return };
        r.with_thread(tid, |rec, t| rec.object_alloc(t, bytes));
    })
}

extern "C" fn cb_marker(_ctx: AgentCtx, _vp: u32, tid: u32, kind: u32, run: u32, text: *const u8, text_len: usize) {
    guard("marker", || {
        let Some(r) = rvm() else { return };
        let text = if text.is_null() {
            String::new()
        } else {
            // SAFETY: the ABI passes `text_len` bytes of UTF-8 at `text`, valid during the call.
            String::from_utf8_lossy(unsafe { std::slice::from_raw_parts(text, text_len) }).into_owned()
        };
        if let Some(q) = &r.quantum {
            let kind = match kind {
                rvm_abi::marker_kind::APP_START => MarkerKind::AppStart,
                rvm_abi::marker_kind::APP_COMPLETE => MarkerKind::AppComplete,
                rvm_abi::marker_kind::RUN_START => MarkerKind::RunStart,
                rvm_abi::marker_kind::RUN_COMPLETE => MarkerKind::RunComplete,
                _ => MarkerKind::Note,
            };
            q.marker(kind, tid, run, &text);
        }
        // Also in marks.txt, as on HotSpot.
        control::add_mark(&r.state, control::trace_mark_text(kind, run, &text));
    })
}

// ------------------------------------------------------------------------------------- loading

/// Checks the VM, parses the options, builds the agent and fills `cb`. The error is the line to
/// print.
/// Refuses a VM with another major interface version, or one whose [`RvmVm`] is smaller than
/// this build's.
fn check_version(version: u32, size: u32) -> Result<(), String> {
    if version != ABI_VERSION {
        return Err(format!("this rvm speaks agent interface version {version}, hpmagent speaks version {ABI_VERSION}; use matching builds"));
    }
    if (size as usize) < std::mem::size_of::<RvmVm>() {
        return Err(format!("this rvm's agent interface is {size} bytes, hpmagent needs {}; use matching builds", std::mem::size_of::<RvmVm>()));
    }
    Ok(())
}

fn load(vm: &RvmVm, options: Option<String>, cb: &mut RvmCallbacks) -> Result<(), String> {
    let opts = options::parse(options.as_deref())?;
    if opts.help {
        log::line(options::help_text().trim_end());
        return Err("help printed; the VM does not start (remove 'help' to run)".into());
    }
    hpm_agent_core::run_dir::prepare(&opts.out_dir())?;
    log::set_level(opts.log);
    hpm_agent_core::quiet_panics();
    if RVM.get().is_some() || hpm_agent_core::agent().is_some() {
        return Err("hpmagent is already loaded in this VM".into());
    }
    let fns = VmFns {
        handle: vm.vm as usize,
        vps: vm.vps,
        thread_name: vm.thread_name,
        method_name: vm.method_name,
        class_name: vm.class_name,
        current_stack: vm.current_stack,
        create_service_thread: vm.create_service_thread,
        wake_service_thread: vm.wake_service_thread,
        method_events_off: vm.method_events_off,
    };
    if opts.sample != options::SampleMode::Off || opts.sample_alloc.is_some() {
        log::warn("stack and allocation sampling (sample=, sample-alloc=) need HotSpot; ignored on the research VM");
    }
    let state = Arc::new(AgentState::new(opts, Box::new(RvmBackend)));
    let metrics = state.metric_set().metrics();
    let sampling = match &state.probe_metrics {
        Some(p) if p.mode == MetricMode::Sampled => {
            log::info(&p.why);
            // The POSIX CPU timer rather than perf task-clock: a processor's OS thread sleeps and
            // wakes at a high rate (idle waits), and a perf sampling event makes every one of its
            // context switches several µs dearer here (its hrtimer is reprogrammed at each),
            // while a CPU timer is only looked at by the scheduler tick (hence samples at most
            // once per tick of CPU time).
            // No wall thread of the sampler's: `hpm-rvm-drain` settles the processors before
            // each drain, and credits the Java threads' wall time itself.
            let config = SamplerConfig { source: SignalSource::PosixCpuTimer, wall_period_ns: 0, ..SamplerConfig::default() };
            match ContextSampler::new(state.metric_set().clone(), config) {
                Ok(sampler) => {
                    log::info(&format!("{}; processors settled every {} ms by hpm-rvm-drain", sampler.describe(), DRAIN_PERIOD.as_millis()));
                    if state.options.start_paused {
                        let _ = sampler.set_active(false);
                    }
                    Some(Sampling {
                        sampler,
                        vps: (0..fns.vps.max(1)).map(|_| OnceLock::new()).collect(),
                        wall: metrics.iter().position(|m| m.name == "wall-time"),
                        metrics: metrics.len(),
                        draining: Mutex::new(()),
                        stop: (Mutex::new(false), Condvar::new()),
                        drainer: Mutex::new(None),
                    })
                }
                Err(e) => {
                    log::warn(&format!("time and counters are not sampled (call trees have calls only): {e}"));
                    None
                }
            }
        }
        Some(p) => {
            log::info(&p.why);
            None
        }
        None => None,
    };
    let quantum = match state.options.quantum {
        QuantumMode::Off => None,
        QuantumMode::Switch | QuantumMode::All => Some(Tracer::new(&state.out, RecordAt::Switch, &metrics, fns.vps.max(1))),
        QuantumMode::Tick => Some(Tracer::new(&state.out, RecordAt::Tick, &metrics, fns.vps.max(1))),
    };
    if state.options.start_paused {
        state.recorder().pause();
    }
    let o = &state.options;
    cb.version = ABI_VERSION;
    cb.size = std::mem::size_of::<RvmCallbacks>() as u32;
    cb.ctx = std::ptr::null_mut();
    cb.vm_init = Some(cb_vm_init);
    cb.vm_death = Some(cb_vm_death);
    cb.vp_start = Some(cb_vp_start);
    cb.vp_end = Some(cb_vp_end);
    cb.thread_start = Some(cb_thread_start);
    cb.thread_end = Some(cb_thread_end);
    cb.thread_switch = Some(cb_thread_switch);
    cb.method_entry = o.calls.then_some(cb_method_entry as _);
    cb.method_exit = o.calls.then_some(cb_method_exit as _);
    cb.gc_start = o.gc.then_some(cb_gc_start as _);
    cb.gc_finish = o.gc.then_some(cb_gc_finish as _);
    cb.monitor_contended_enter = o.locks.then_some(cb_monitor_contended_enter as _);
    cb.monitor_contended_entered = o.locks.then_some(cb_monitor_contended_entered as _);
    cb.monitor_wait = o.waits.then_some(cb_monitor_wait as _);
    cb.monitor_waited = o.waits.then_some(cb_monitor_waited as _);
    cb.allocation = o.alloc.then_some(cb_allocation as _);
    cb.marker = Some(cb_marker);
    let green = GreenConfig::for_metrics(&metrics);
    let _ = RVM.set(Rvm {
        state: state.clone(),
        vm: fns,
        threads: Threads::new(),
        green,
        quantum,
        sampling,
        dead: AtomicBool::new(false),
        switch_calls: AtomicU64::new(0),
        switch_timed: AtomicU64::new(0),
        switch_ns: AtomicU64::new(0),
    });
    hpm_agent_core::set_agent(state);
    Ok(())
}

/// Called by `rvm -agentpath:libhpmagent.so=OPTIONS` before any Java code runs. Returns 0, or 1
/// after one line on stderr (bad options, another interface version): the VM then does not start.
///
/// # Safety
/// Called by rvm with a valid [`RvmVm`] (kept until `vm_death`), a NUL-terminated option string or
/// null, and a writable [`RvmCallbacks`].
#[no_mangle]
pub unsafe extern "C" fn Agent_OnLoad_rvm(vm: *const RvmVm, options: *const c_char, callbacks: *mut RvmCallbacks) -> i32 {
    let r = catch_unwind(AssertUnwindSafe(|| {
        if vm.is_null() || callbacks.is_null() {
            return Err("rvm passed no interface to the agent".to_string());
        }
        // SAFETY: non-null; `version` and `size` are the first fields of every version of RvmVm,
        // read by value without assuming the rest of the struct is there.
        let (version, size) = unsafe { (std::ptr::addr_of!((*vm).version).read(), std::ptr::addr_of!((*vm).size).read()) };
        check_version(version, size)?;
        // SAFETY: non-null, and at least as large as this build's RvmVm (checked); the ABI keeps
        // it valid until vm_death.
        let vm = unsafe { &*vm };
        let text = if options.is_null() {
            None
        } else {
            // SAFETY: the ABI passes a NUL-terminated option string (or null), valid for the call.
            Some(hpm_agent_core::options::text_of(unsafe { CStr::from_ptr(options) }.to_bytes())?)
        };
        // SAFETY: non-null; the ABI passes the VM's callback table, writable for the call.
        let cb = unsafe { &mut *callbacks };
        load(vm, text, cb)
    }));
    match r {
        Ok(Ok(())) => 0,
        Ok(Err(msg)) => {
            log::line(&format!("hpmagent: error: {msg}"));
            1
        }
        Err(_) => {
            log::line("hpmagent: error: internal error while loading; the VM does not start");
            1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The trace stores rvm's switch reasons as they come: the codes and names must agree.
    #[test]
    fn switch_reason_codes_are_the_traces() {
        use hpm_model::quantum::reason;
        assert_eq!(rvm_abi::switch_reason::NAMES, reason::NAMES);
        let pairs = [
            (rvm_abi::switch_reason::PREEMPTED, reason::NONE),
            (rvm_abi::switch_reason::YIELD, reason::YIELD),
            (rvm_abi::switch_reason::SLEEP, reason::SLEEP),
            (rvm_abi::switch_reason::WAIT, reason::WAIT),
            (rvm_abi::switch_reason::MONITOR, reason::MONITOR),
            (rvm_abi::switch_reason::PARK, reason::PARK),
            (rvm_abi::switch_reason::UNPARK, reason::UNPARK),
            (rvm_abi::switch_reason::END, reason::END),
            (rvm_abi::switch_reason::VM, reason::VM),
            (rvm_abi::switch_reason::GC, reason::GC),
        ];
        for (rvm, trace) in pairs {
            assert_eq!(rvm, trace as u32);
        }
    }

    extern "C" fn no_string(_: rvm_abi::VmHandle, _: u32, _: *mut u8, _: usize) -> isize {
        -1
    }
    extern "C" fn no_kind(_: rvm_abi::VmHandle, _: u32) -> u32 {
        u32::MAX
    }
    extern "C" fn no_method(_: rvm_abi::VmHandle, _: u32, _: u32, _: *mut u8, _: usize) -> isize {
        -1
    }
    extern "C" fn no_stack(_: rvm_abi::VmHandle, _: *mut u32, _: usize) -> isize {
        -1
    }
    extern "C" fn no_service(_: rvm_abi::VmHandle, _: u32, _: *const c_char, _: extern "C" fn(*mut c_void), _: *mut c_void) -> i64 {
        -1
    }
    extern "C" fn no_wake(_: rvm_abi::VmHandle, _: u32) {}

    fn fake_vm(version: u32) -> RvmVm {
        RvmVm {
            version,
            size: std::mem::size_of::<RvmVm>() as u32,
            vm: std::ptr::null_mut(),
            vps: 1,
            quantum_ns: 10_000_000,
            thread_name: no_string,
            thread_kind: no_kind,
            method_name: no_method,
            class_name: no_string,
            current_stack: no_stack,
            create_service_thread: no_service,
            wake_service_thread: no_wake,
            method_events_off: no_wake,
        }
    }

    #[test]
    fn another_interface_version_or_bad_options_are_refused() {
        let e = check_version(1, std::mem::size_of::<RvmVm>() as u32).unwrap_err();
        assert_eq!(e, format!("this rvm speaks agent interface version 1, hpmagent speaks version {ABI_VERSION}; use matching builds"));
        assert!(check_version(ABI_VERSION, 8).unwrap_err().contains("8 bytes"));
        assert!(check_version(ABI_VERSION, std::mem::size_of::<RvmVm>() as u32).is_ok());

        // Through the entry point: refused before anything is set up or any callback is filled.
        let vm = fake_vm(ABI_VERSION + 1);
        let mut cb = RvmCallbacks::empty();
        // SAFETY: `vm` and `cb` are valid for the call; null options are allowed by the ABI.
        let rc = unsafe { Agent_OnLoad_rvm(&vm, std::ptr::null(), &mut cb) };
        assert_eq!(rc, 1);
        assert!(cb.thread_switch.is_none() && cb.vm_init.is_none());
        let vm = fake_vm(ABI_VERSION);
        let opts = CString::new("collect=cpu").unwrap();
        // SAFETY: as above, with a NUL-terminated option string.
        let rc = unsafe { Agent_OnLoad_rvm(&vm, opts.as_ptr(), &mut cb) };
        assert_eq!(rc, 1);
        assert!(cb.thread_switch.is_none());
        assert!(RVM.get().is_none());
    }

    #[test]
    fn class_names_as_hotspot_writes_them() {
        assert_eq!(dotted("java/lang/String"), "java.lang.String");
        assert_eq!(dotted("calls/Threads$Worker"), "calls.Threads$Worker");
        assert_eq!(dotted("[I"), "int[]");
        assert_eq!(dotted("[[Ljava/lang/Object;"), "java.lang.Object[][]");
    }
}
