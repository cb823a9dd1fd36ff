//! The context sampler: exact calls, sampled costs.
//!
//! Bytecode probes keep each thread's calling-context tree exact and write the id of the thread's
//! current context (a `u32`) into a per-thread cell at every entry and exit. They cannot afford to
//! read CPU time or counters at every call, so this engine samples them: a signal every
//! `cpu_period_ns` of a thread's CPU time reads the thread's metrics and credits the difference
//! since the previous credit to the context found in the cell. Summed over a run, a context's
//! credits estimate its base (self) cost without bias. A wall sampler thread credits every started
//! thread every `wall_period_ns`, so time spent blocked (when no CPU signal fires) is credited too.
//!
//! ```no_run
//! use std::sync::{atomic::AtomicU32, Arc};
//! use hpm_collectors::counters::{Metrics, ThreadCpuClock, WallClock};
//! use hpm_collectors::sampling::{ContextSampler, SamplerConfig};
//!
//! let metrics = Arc::new(Metrics::new().with(ThreadCpuClock).with(WallClock));
//! let sampler = ContextSampler::new(metrics, SamplerConfig::default()).unwrap();
//! eprintln!("{}", sampler.describe());
//! // On each thread: a cell that lives as long as the process (Java: native memory).
//! let cell: &'static AtomicU32 = Box::leak(Box::new(AtomicU32::new(0)));
//! let t = sampler.start_current_thread(cell).unwrap();
//! // ... probes store context ids into `cell` ...
//! t.settle();
//! t.drain(&mut |_owner, context, deltas| println!("{context}: {deltas:?}"));
//! t.stop();
//! ```
//!
//! The signal machinery (all `unsafe`) is in [`crate::counters::sampler`]; see `docs/counters.md`,
//! "Sampled metrics".

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock, Weak};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::counters::clock::current_tid;
use crate::counters::sampler::{
    install_handler, probe_kernel_frames, probe_perf_source, tick_ns, unblock_signal_on_current_thread, Armed, SourceKind, StackSampling,
    ThreadState,
};
use crate::counters::stacks::SampleRing;
pub use crate::counters::stacks::{CodeAt, ProbeCode, RawFrame, SampleSink, Site, StackWalker, PROBE_CODE_OWNER};
pub use crate::counters::sampler::ThreadStats;
use hpm_model::metrics::{Metric, MetricSet, ThreadMetrics};

/// Which signal source drives the CPU-time samples.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SignalSource {
    /// perf task-clock if this machine permits it, else the POSIX CPU timer (`describe` says why).
    #[default]
    Auto,
    /// A perf software `task-clock` event per thread whose overflow is delivered as SIGPROF to that
    /// thread: exact periods down to 10 µs. Fails if perf_event_open is refused.
    PerfTaskClock,
    /// `timer_create(CLOCK_THREAD_CPUTIME_ID)` per thread: expires only at scheduler ticks, so the
    /// effective period is at least 1/HZ of CPU time.
    PosixCpuTimer,
    /// No CPU-time signals: only wall-clock stack samples ([`StackTrigger::WallClock`]) signal
    /// the threads.
    None,
}

impl SignalSource {
    /// The source a thread actually got.
    fn of(kind: SourceKind) -> SignalSource {
        match kind {
            SourceKind::PerfTaskClock => SignalSource::PerfTaskClock,
            SourceKind::PosixCpuTimer => SignalSource::PosixCpuTimer,
            SourceKind::None => SignalSource::None,
        }
    }
}

/// Periods and limits of a [`ContextSampler`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SamplerConfig {
    /// A sample every this much of a thread's CPU time (default 1 ms).
    pub cpu_period_ns: u64,
    /// The wall sampler settles every thread this often (default 10 ms; 0: no wall sampler).
    pub wall_period_ns: u64,
    pub source: SignalSource,
    /// Distinct contexts a thread can be credited between two drains (default 512). A credit to
    /// one more is deferred, not lost: see [`SampledThread::deferred`].
    pub contexts_per_thread: usize,
}

impl Default for SamplerConfig {
    fn default() -> SamplerConfig {
        SamplerConfig {
            cpu_period_ns: 1_000_000,
            wall_period_ns: 10_000_000,
            source: SignalSource::Auto,
            contexts_per_thread: 512,
        }
    }
}

/// Stack samples: every CPU-time signal also walks the thread's stack with the VM's walker and
/// stores the frames with the thread's metric deltas since its previous stack sample.
#[derive(Clone)]
pub struct StackConfig {
    pub walker: Arc<dyn StackWalker>,
    /// Frames kept per sample, innermost first (deeper stacks lose their outermost frames).
    pub max_depth: usize,
    /// Each thread's ring, in 8-byte words (a sample of d frames and m metrics takes 2 + m + 2d):
    /// what a thread can hold between two drains.
    pub ring_words: usize,
    /// A stack sample at every this many CPU-time signals (1: each), for a stack interval that
    /// is a multiple of the metrics' sampling period.
    pub every: u32,
    /// What takes the stack samples.
    pub trigger: StackTrigger,
    /// Kernel frames above the walker's, innermost first, as native code frames whose method is
    /// the kernel address: each CPU-time overflow of the perf task-clock source also records the
    /// kernel part of the call chain. Needs kernel samples (`perf_event_paranoid` 1 or lower, or
    /// CAP_PERFMON) and a locked ring per thread; CPU-time stack samples only.
    pub kernel: bool,
}

/// When threads' stacks are sampled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StackTrigger {
    /// At the CPU-time signals (every `every`-th): where threads use CPU.
    CpuTime,
    /// Every `period_ns` of wall-clock time, every started thread, running or blocked: a thread
    /// of the sampler's own sends each one a signal (`hpm-wall-stacks`). Where threads spend
    /// their time, waiting included.
    WallClock { period_ns: u64 },
}

impl std::fmt::Debug for StackConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StackConfig")
            .field("max_depth", &self.max_depth)
            .field("ring_words", &self.ring_words)
            .field("every", &self.every)
            .field("trigger", &self.trigger)
            .finish()
    }
}

/// perf clamps shorter task-clock periods to 10 µs; below that signals would cost more than the
/// work they sample.
const MIN_CPU_PERIOD_NS: u64 = 10_000;

/// The started threads, shared with the wall sampler.
type Registry = Mutex<Vec<Arc<SampledThread>>>;

/// The sampling engine of one process: one per metric set, shared by every sampled thread.
pub struct ContextSampler {
    set: Arc<dyn MetricSet>,
    metrics: Vec<Metric>,
    config: SamplerConfig,
    source: SourceKind,
    /// Why perf task-clock was not used (Auto fell back), or that the timer was configured.
    source_note: Option<String>,
    cpu_index: Option<usize>,
    wall_index: Option<usize>,
    stacks: Option<StackConfig>,
    registry: Arc<Registry>,
    /// Signals and wall rounds run ([`ContextSampler::set_active`]); changed under the registry's
    /// lock, so a thread starting meanwhile is armed or held off as the others are.
    active: AtomicBool,
    wall: Mutex<Option<WallSampler>>,
    /// The wall-clock stack sampler ([`StackTrigger::WallClock`]).
    wall_stacks: Mutex<Option<WallSampler>>,
    /// Threads that fell back from perf to the POSIX timer, and why the first did.
    fallbacks: AtomicU64,
    first_fallback: OnceLock<String>,
    /// Why no sample will have kernel frames although they were asked for (checked at start);
    /// then threads whose samples have none, and why the first has none.
    kernel_refusal: Option<String>,
    kernel_refused: AtomicU64,
    first_kernel_refusal: OnceLock<String>,
    /// Threads that could not be sampled at all, and why the first could not.
    failures: AtomicU64,
    first_failure: OnceLock<String>,
    /// The probes' code ([`ContextSampler::set_probe_code`]), shared with every thread's state.
    probe_code: Arc<OnceLock<Arc<dyn ProbeCode>>>,
}

impl ContextSampler {
    /// Opens the engine for `metrics` (cpu-time, wall-time, perf_event counters…): checks that the
    /// set can be read from any thread, chooses the signal source, installs the SIGPROF handler
    /// (once per process) and starts the wall sampler. Errors are one line with cause and fix.
    pub fn new(metrics: Arc<dyn MetricSet>, config: SamplerConfig) -> Result<Arc<ContextSampler>, String> {
        Self::with_stacks(metrics, config, None)
    }

    /// As [`ContextSampler::new`]; with `stacks`, every CPU-time signal also stores a stack sample
    /// of the thread (threads started with [`ContextSampler::start_current_thread_walked`]).
    pub fn with_stacks(
        metrics: Arc<dyn MetricSet>,
        config: SamplerConfig,
        stacks: Option<StackConfig>,
    ) -> Result<Arc<ContextSampler>, String> {
        if config.cpu_period_ns < MIN_CPU_PERIOD_NS && config.source != SignalSource::None {
            return Err(format!(
                "cpu period {} is below the 10 µs minimum of task-clock sampling; use a longer period",
                fmt_ns(config.cpu_period_ns)
            ));
        }
        let list = metrics.metrics();
        // Every thread opens the set the same way: trying it here turns a set that cannot be read
        // from another thread into one error now rather than one per thread.
        if metrics.open_current_thread_remote().is_none() {
            return Err(format!(
                "metrics [{}] cannot all be read from another thread or a signal handler (a source without \
                 MetricSet::open_current_thread_remote, or a perf group of more than 16 events); sample fewer or other metrics",
                list.iter().map(|m| m.name.as_str()).collect::<Vec<_>>().join(", ")
            ));
        }
        let (source, source_note) = match config.source {
            SignalSource::PosixCpuTimer => (SourceKind::PosixCpuTimer, Some("POSIX timer configured".to_string())),
            SignalSource::None => (SourceKind::None, None),
            SignalSource::PerfTaskClock => {
                probe_perf_source(config.cpu_period_ns)?;
                (SourceKind::PerfTaskClock, None)
            }
            SignalSource::Auto => match probe_perf_source(config.cpu_period_ns) {
                Ok(()) => (SourceKind::PerfTaskClock, None),
                Err(why) => (SourceKind::PosixCpuTimer, Some(why)),
            },
        };
        let kernel_refusal = match stacks.as_ref().filter(|s| s.kernel) {
            None => None,
            Some(s) if s.trigger != StackTrigger::CpuTime => {
                Some("kernel frames come with CPU-time samples only, not wall-clock ones".to_string())
            }
            Some(_) if source != SourceKind::PerfTaskClock => {
                Some("kernel frames need the perf task-clock signal source, and this run uses the POSIX CPU timer".to_string())
            }
            Some(_) => probe_kernel_frames(config.cpu_period_ns).err(),
        };
        install_handler()?;
        let registry: Arc<Registry> = Arc::new(Mutex::new(Vec::new()));
        let sampler = Arc::new(ContextSampler {
            set: metrics,
            cpu_index: list.iter().position(|m| m.name == "cpu-time"),
            wall_index: list.iter().position(|m| m.name == "wall-time"),
            stacks,
            metrics: list,
            config,
            source,
            source_note,
            registry: registry.clone(),
            active: AtomicBool::new(true),
            wall: Mutex::new(None),
            wall_stacks: Mutex::new(None),
            fallbacks: AtomicU64::new(0),
            first_fallback: OnceLock::new(),
            kernel_refusal,
            kernel_refused: AtomicU64::new(0),
            first_kernel_refusal: OnceLock::new(),
            failures: AtomicU64::new(0),
            first_failure: OnceLock::new(),
            probe_code: Arc::default(),
        });
        if config.wall_period_ns > 0 {
            let w = WallSampler::start(registry.clone(), Duration::from_nanos(config.wall_period_ns), WallAction::Settle)
                .map_err(|e| format!("cannot start the wall sampler thread: {e}"))?;
            *sampler.wall.lock().unwrap_or_else(|e| e.into_inner()) = Some(w);
        }
        if let Some(StackTrigger::WallClock { period_ns }) = sampler.stacks.as_ref().map(|s| s.trigger) {
            let w = WallSampler::start(registry, Duration::from_nanos(period_ns.max(MIN_CPU_PERIOD_NS)), WallAction::Signal)
                .map_err(|e| format!("cannot start the wall stack sampler thread: {e}"))?;
            *sampler.wall_stacks.lock().unwrap_or_else(|e| e.into_inner()) = Some(w);
        }
        Ok(sampler)
    }

    /// A reader of the metrics on the calling thread, the one each sampled thread uses (for
    /// measuring what a read costs).
    pub fn open_reader(&self) -> Option<Box<dyn ThreadMetrics>> {
        self.set.open_current_thread_remote()
    }

    /// From now on a signal whose program counter is in `code` credits what it samples under
    /// [`PROBE_CODE_OWNER`] instead of the thread's current context (every thread, started or
    /// not). Set once; a second call changes nothing and returns false.
    pub fn set_probe_code(&self, code: Arc<dyn ProbeCode>) -> bool {
        self.probe_code.set(code).is_ok()
    }

    /// Whether [`ContextSampler::set_probe_code`] was called.
    pub fn has_probe_code(&self) -> bool {
        self.probe_code.get().is_some()
    }

    /// The metrics credited, in the order of the deltas given to [`SampledThread::drain`].
    pub fn metrics(&self) -> &[Metric] {
        &self.metrics
    }

    pub fn config(&self) -> SamplerConfig {
        self.config
    }

    /// The source in use for new threads.
    pub fn source(&self) -> SignalSource {
        SignalSource::of(self.source)
    }

    /// One line: the signal source and its period (and resolution), the wall sampler, and why a
    /// source was refused or a thread could not be sampled, if so.
    /// Why samples will have no kernel frames although they were asked for, known at start
    /// (permission, signal source, trigger); `None` when they were not asked for or are had.
    pub fn kernel_refusal(&self) -> Option<&str> {
        self.kernel_refusal.as_deref()
    }

    pub fn describe(&self) -> String {
        let period = fmt_ns(self.config.cpu_period_ns);
        let mut s = match self.source {
            SourceKind::PerfTaskClock => {
                format!("perf task-clock overflow signals (SIGPROF) every {period} of each thread's CPU time")
            }
            SourceKind::PosixCpuTimer => format!(
                "POSIX CPU-time timer (SIGPROF) every {period} of each thread's CPU time ({})",
                tick_text(self.config.cpu_period_ns)
            ),
            SourceKind::None => "no CPU-time signals".to_string(),
        };
        if let Some(StackTrigger::WallClock { period_ns }) = self.stacks.as_ref().map(|s| s.trigger) {
            s += &format!("; every thread signalled for a stack sample every {} of wall time", fmt_ns(period_ns));
        }
        if self.config.wall_period_ns > 0 {
            s += &format!("; wall sampler every {}", fmt_ns(self.config.wall_period_ns));
        } else {
            s += "; no wall sampler";
        }
        if let Some(note) = &self.source_note {
            s += &format!("; {note}");
        }
        let n = self.fallbacks.load(Ordering::Relaxed);
        if let Some(why) = self.first_fallback.get() {
            s += &format!("; {n} thread(s) fell back to the POSIX timer, the first because: {why}");
        }
        if let Some(why) = &self.kernel_refusal {
            s += &format!("; no kernel frames: {why}");
        } else if let Some(why) = self.first_kernel_refusal.get() {
            let n = self.kernel_refused.load(Ordering::Relaxed);
            s += &format!("; {n} thread(s) without kernel frames, the first because: {why}");
        }
        let n = self.failures.load(Ordering::Relaxed);
        if let Some(why) = self.first_failure.get() {
            s += &format!("; {n} thread(s) not sampled, the first because: {why}");
        }
        s
    }

    /// Starts sampling the calling thread: opens its metrics (readable from any thread), starts
    /// its signal source and reads its current context from `cell` at every sample. On error the
    /// thread is left unsampled; the first error is also kept for [`ContextSampler::describe`].
    pub fn start_current_thread(self: &Arc<Self>, cell: &'static AtomicU32) -> Result<Arc<SampledThread>, String> {
        self.start_current_thread_walked(cell, 0)
    }

    /// As [`ContextSampler::start_current_thread`]; with stack samples configured, `walker_thread`
    /// is what the walker is given to walk this thread (HotSpot: its JNIEnv).
    pub fn start_current_thread_walked(
        self: &Arc<Self>,
        cell: &'static AtomicU32,
        walker_thread: usize,
    ) -> Result<Arc<SampledThread>, String> {
        self.try_start(None, cell, walker_thread).inspect_err(|why| {
            self.failures.fetch_add(1, Ordering::Relaxed);
            let _ = self.first_failure.set(why.clone());
        })
    }

    /// As [`ContextSampler::start_current_thread_walked`], for thread `tid` of this process,
    /// started from another thread: for threads that ran before the agent was attached, which
    /// run no code of the agent's at a start of their own. Their signal mask is theirs: a thread
    /// that blocks SIGPROF gets no samples (HotSpot's Java threads do not block it).
    pub fn start_thread_walked(
        self: &Arc<Self>,
        tid: i32,
        cell: &'static AtomicU32,
        walker_thread: usize,
    ) -> Result<Arc<SampledThread>, String> {
        self.try_start(Some(tid), cell, walker_thread).inspect_err(|why| {
            self.failures.fetch_add(1, Ordering::Relaxed);
            let _ = self.first_failure.set(why.clone());
        })
    }

    /// Starts sampling the calling thread (`other` None) or thread `other`.
    fn try_start(self: &Arc<Self>, other: Option<i32>, cell: &'static AtomicU32, walker_thread: usize) -> Result<Arc<SampledThread>, String> {
        let tid = other.unwrap_or_else(current_tid);
        if self.lock_registry().iter().any(|t| t.tid() == tid) {
            return Err(format!("thread {tid} is already sampled"));
        }
        let reader = match other {
            None => self.set.open_current_thread_remote(),
            Some(t) => self.set.open_thread_remote(t),
        };
        let reader = reader.ok_or_else(|| format!("thread {tid}: its metrics cannot be read from another thread"))?;
        let state = ThreadState::new(
            tid,
            cell,
            reader,
            self.metrics.len(),
            self.cpu_index,
            self.wall_index,
            self.config.contexts_per_thread,
            self.stacks.as_ref().map(|c| {
                let ring = SampleRing::new(c.ring_words, self.metrics.len());
                let sampling = StackSampling {
                    walker: c.walker.clone(),
                    thread: walker_thread,
                    ring,
                    every: c.every,
                    wall_clock: matches!(c.trigger, StackTrigger::WallClock { .. }),
                    kernel: c.kernel,
                };
                (sampling, c.max_depth)
            }),
            self.probe_code.clone(),
        );
        if other.is_none() {
            unblock_signal_on_current_thread()?;
        }
        let armed = match Armed::start(&state, self.source, self.config.cpu_period_ns) {
            Ok(a) => a,
            Err(why) if self.source == SourceKind::PerfTaskClock && self.config.source == SignalSource::Auto => {
                let a = Armed::start(&state, SourceKind::PosixCpuTimer, self.config.cpu_period_ns)
                    .map_err(|e| format!("thread {tid}: {why}; POSIX timer fallback: {e}"))?;
                self.fallbacks.fetch_add(1, Ordering::Relaxed);
                let _ = self.first_fallback.set(why);
                a
            }
            Err(why) => return Err(format!("thread {tid}: {why}")),
        };
        if let Some(why) = armed.kernel_refusal().filter(|_| self.kernel_refusal.is_none()) {
            self.kernel_refused.fetch_add(1, Ordering::Relaxed);
            let _ = self.first_kernel_refusal.set(format!("thread {tid}: {why}"));
        }
        let mut registry = self.lock_registry();
        let mut armed = armed;
        if !self.active.load(Ordering::Relaxed) {
            state.set_held(true);
            armed.set_active(false).map_err(|e| format!("thread {tid}: {e}"))?;
        }
        let thread =
            Arc::new(SampledThread { state, armed: Mutex::new(Some(armed)), registry: Arc::downgrade(&self.registry) });
        registry.push(thread.clone());
        Ok(thread)
    }

    /// Holds every thread's signals and the wall sampler's rounds off (`false`; returns after a
    /// round under way has ended), or lets them run again (`true`); threads started meanwhile
    /// follow. While held off nothing is credited, and a sampled thread costs nothing: for
    /// recording windows that are closed. What a thread used while held off goes to its next
    /// credit unless it is rebased ([`SampledThread::rebase`]).
    /// The error names the first thread whose source could not be switched, and how many failed.
    pub fn set_active(&self, on: bool) -> Result<(), String> {
        let registry = self.lock_registry();
        self.active.store(on, Ordering::Relaxed);
        let mut failed = 0;
        let mut first = None;
        for t in registry.iter() {
            // Before the source is disarmed: a signal generated just before, or queued by a wall
            // round, may still arrive; it is ignored, not credited.
            t.state.set_held(!on);
            if let Some(a) = t.lock_armed().as_mut() {
                if let Err(e) = a.set_active(on) {
                    failed += 1;
                    first.get_or_insert(format!("thread {}: {e}", t.tid()));
                }
            }
        }
        drop(registry);
        for w in [&self.wall, &self.wall_stacks] {
            if let Some(w) = w.lock().unwrap_or_else(|e| e.into_inner()).as_ref() {
                w.set_active(on);
            }
        }
        match first {
            None => Ok(()),
            Some(e) => Err(format!("{e} ({failed} thread(s) failed)")),
        }
    }

    /// Whether signals and wall rounds run ([`ContextSampler::set_active`]).
    pub fn is_active(&self) -> bool {
        self.active.load(Ordering::Relaxed)
    }

    /// All threads started and not yet stopped (for snapshots).
    pub fn threads(&self) -> Vec<Arc<SampledThread>> {
        self.lock_registry().clone()
    }

    fn lock_registry(&self) -> std::sync::MutexGuard<'_, Vec<Arc<SampledThread>>> {
        self.registry.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Stops the wall sampler (waits for its thread), then stops every started thread from here
    /// (final settle, source stopped, fds closed); their credits remain to be drained. Idempotent;
    /// also done on drop.
    pub fn shutdown(&self) {
        for w in [&self.wall, &self.wall_stacks] {
            let taken = w.lock().unwrap_or_else(|e| e.into_inner()).take();
            if let Some(w) = taken {
                w.stop();
            }
        }
        for t in self.threads() {
            t.stop();
        }
    }
}

impl Drop for ContextSampler {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// One sampled thread. Every method may be called from any thread unless it says otherwise.
pub struct SampledThread {
    state: Arc<ThreadState>,
    /// The running signal source; `None` once stopped.
    armed: Mutex<Option<Armed>>,
    registry: Weak<Registry>,
}

impl SampledThread {
    /// The thread's kernel id.
    pub fn tid(&self) -> i32 {
        self.state.tid()
    }

    /// The source delivering this thread's signals (`None` once stopped).
    pub fn source(&self) -> Option<SignalSource> {
        self.lock_armed().as_ref().map(|a| SignalSource::of(a.kind()))
    }

    /// Credits everything this thread used since its last credit to its current context, now
    /// (window boundaries, before snapshots, the wall sampler). A thread that used no CPU since
    /// costs one clock read.
    pub fn settle(&self) {
        self.state.settle();
    }

    /// The wall sampler's settle: a thread found to have ended without `stop` is stopped here (its
    /// fds closed, removed from the list); what it used after its last credit is lost with it.
    fn settle_or_reap(&self) {
        if !self.state.settle_from_wall() {
            self.stop();
        }
    }

    /// Exact mode, on the thread itself (the probes, at every change of context): credits what the
    /// thread used since its last credit to the context in its cell, then stores `next` there.
    /// Every amount then lands in the context that used it; each call costs one read of the metrics.
    pub fn switch_to(&self, next: u32) {
        self.state.switch_to(next);
    }

    /// The thread now runs a logical thread of its VM (`owner` > 0: a virtual thread mounted on
    /// this carrier, a green thread on this processor) whose current context is in `cell`, or its
    /// own code again (`owner` 0, `cell` ignored): credits go to `(owner, context in cell)` from
    /// now on. With `settle` (exact mode), what the thread used up to now is credited to the
    /// context being left first, one read of its metrics; without (sampled mode) nothing is read,
    /// and the next sample's amount goes to the new context, as any sampled amount goes to the
    /// context current when it is taken. On the thread itself.
    pub fn retarget(&self, cell: &'static AtomicU32, owner: u32, settle: bool) {
        self.state.retarget(cell, owner, settle);
    }

    /// A recording window opens now: forgets what the thread used since its last credit, and the
    /// credits not yet drained (drain first what should be kept).
    pub fn rebase(&self) {
        self.state.rebase();
    }

    /// Moves the credits out, summed per owner and context in first-credit order:
    /// `f(owner, context, deltas)` with one delta per metric of [`ContextSampler::metrics`]; owner
    /// 0 is the thread itself, others those given to [`SampledThread::retarget`]. `f` runs without
    /// the sampler's lock.
    pub fn drain(&self, f: &mut dyn FnMut(u32, u32, &[u64])) {
        self.state.drain(f);
    }

    /// Moves the thread's stack samples out, oldest first: `f(weights, pc, frames)` with one
    /// weight per metric of [`ContextSampler::metrics`] (what the thread used since its previous
    /// stack sample), the interrupted program counter and frames innermost first. Runs beside
    /// the signal handler without blocking it.
    pub fn drain_stacks(&self, f: &mut SampleSink) {
        self.state.drain_stacks(f);
    }

    /// On the thread itself (or any thread, also after it ended): stops its signal source, makes
    /// the final settle, closes its fds and removes it from [`ContextSampler::threads`]. Its credits
    /// remain to be drained. Idempotent.
    pub fn stop(&self) {
        let armed = self.lock_armed().take();
        drop(armed);
        if self.state.finish() {
            if let Some(r) = self.registry.upgrade() {
                r.lock().unwrap_or_else(|e| e.into_inner()).retain(|t| !Arc::ptr_eq(&t.state, &self.state));
            }
        }
    }

    /// Whether `stop` was called.
    pub fn is_stopped(&self) -> bool {
        self.state.is_finished()
    }

    /// Samples taken by the signal handler.
    pub fn samples(&self) -> u64 {
        self.state.stats().samples
    }

    /// Credits deferred because the thread's table was full (the amount went to a later credit).
    pub fn deferred(&self) -> u64 {
        self.state.stats().deferred
    }

    /// All counts: signals, samples, busy, deferred, settles, idle settles.
    pub fn stats(&self) -> ThreadStats {
        self.state.stats()
    }

    /// Queues one sampling signal to this thread, handled exactly as one from its source (for
    /// tests and benchmarks). On the thread itself it is handled before this returns.
    pub fn signal(&self) -> Result<(), String> {
        match self.lock_armed().as_ref() {
            Some(a) => a.queue_signal(),
            None => Err("the thread is stopped".into()),
        }
    }

    fn lock_armed(&self) -> std::sync::MutexGuard<'_, Option<Armed>> {
        self.armed.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl std::fmt::Debug for SampledThread {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SampledThread")
            .field("tid", &self.tid())
            .field("source", &self.source())
            .field("stats", &self.stats())
            .finish()
    }
}

impl std::fmt::Debug for ContextSampler {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ContextSampler").field("describe", &self.describe()).finish()
    }
}

/// What a [`WallSampler`] does to every started thread each period.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum WallAction {
    /// Credits it (from the wall sampler's thread).
    Settle,
    /// Sends it a sampling signal, whose handler takes a stack sample on the thread itself.
    Signal,
}

/// The thread that settles every started thread every period, so wall time (and anything else
/// that advances while a thread is blocked) is credited to the context current at that moment;
/// or, for wall-clock stack samples, signals every started thread every period.
struct WallSampler {
    control: Arc<(Mutex<WallControl>, Condvar)>,
    handle: JoinHandle<()>,
}

struct WallControl {
    stop: bool,
    /// Rounds run; while false the thread sleeps until this or `stop` changes.
    active: bool,
    /// A round is under way (holding off waits for it to end).
    in_round: bool,
}

impl WallSampler {
    fn start(registry: Arc<Registry>, period: Duration, action: WallAction) -> std::io::Result<WallSampler> {
        let control = Arc::new((Mutex::new(WallControl { stop: false, active: true, in_round: false }), Condvar::new()));
        let shared = control.clone();
        let name = match action {
            WallAction::Settle => "hpm-wall-sampler",
            WallAction::Signal => "hpm-wall-stacks",
        };
        let handle = std::thread::Builder::new().name(name.into()).spawn(move || {
            let (lock, cv) = &*shared;
            let mut batch: Vec<Arc<SampledThread>> = Vec::new();
            let mut next = Instant::now() + period;
            loop {
                // Wait for the next tick on a fixed grid (no drift), for stop, or while held off
                // for the rounds to resume (then a new grid starts a period later).
                let mut c = lock.lock().unwrap_or_else(|e| e.into_inner());
                loop {
                    if c.stop {
                        return;
                    }
                    if !c.active {
                        c = cv.wait(c).unwrap_or_else(|e| e.into_inner());
                        next = Instant::now() + period;
                        continue;
                    }
                    let now = Instant::now();
                    if now >= next {
                        break;
                    }
                    c = cv.wait_timeout(c, next - now).unwrap_or_else(|e| e.into_inner()).0;
                }
                c.in_round = true;
                drop(c);
                let now = Instant::now();
                next += period;
                if next <= now {
                    next = now + period; // late by more than a period: skip, do not burst
                }
                // Copy the list (reused buffer) so starts and stops do not wait for a round.
                batch.extend(registry.lock().unwrap_or_else(|e| e.into_inner()).iter().cloned());
                for t in &batch {
                    match action {
                        WallAction::Settle => t.settle_or_reap(),
                        // A thread that ended without `stop` cannot be signalled; the settling
                        // sampler (or its stop) reaps it.
                        WallAction::Signal => {
                            let _ = t.signal();
                        }
                    }
                }
                batch.clear();
                lock.lock().unwrap_or_else(|e| e.into_inner()).in_round = false;
                cv.notify_all();
            }
        })?;
        Ok(WallSampler { control, handle })
    }

    /// Holding off returns once a round under way has ended: no settle follows it.
    fn set_active(&self, on: bool) {
        let (lock, cv) = &*self.control;
        let mut c = lock.lock().unwrap_or_else(|e| e.into_inner());
        c.active = on;
        cv.notify_all();
        while !on && c.in_round {
            c = cv.wait(c).unwrap_or_else(|e| e.into_inner());
        }
    }

    fn stop(self) {
        let (lock, cv) = &*self.control;
        lock.lock().unwrap_or_else(|e| e.into_inner()).stop = true;
        cv.notify_all();
        let _ = self.handle.join();
    }
}

/// What one read of `set` costs on the calling thread through the reader a sampled thread uses
/// (in ns: the fastest of up to 5 batches of 50 reads), or `None` if the set has no such reader.
/// Decides whether the probes can afford to read the metrics at every entry and exit. Batches stop
/// once 100 µs went by: a read that is a system call (about 1 µs, 20 times the 50 ns that decide)
/// is known well enough after 150 reads, and every start of the agent pays for this.
pub fn read_cost_ns(set: &dyn MetricSet) -> Option<f64> {
    let mut reader = set.open_current_thread_remote()?;
    Some(reader_cost_ns(reader.as_mut(), set.metrics().len()))
}

/// [`read_cost_ns`] of a reader already open on the calling thread, of `n` metrics.
pub fn reader_cost_ns(reader: &mut dyn ThreadMetrics, n: usize) -> f64 {
    let mut out = vec![0u64; n];
    let mut best = f64::MAX;
    let start = Instant::now();
    for _ in 0..5 {
        let t0 = Instant::now();
        for _ in 0..50 {
            reader.read(&mut out);
            std::hint::black_box(&mut out);
        }
        best = best.min(t0.elapsed().as_nanos() as f64 / 50.0);
        if start.elapsed() > Duration::from_micros(100) {
            break;
        }
    }
    best
}

/// The POSIX timer's resolution, for `describe`.
fn tick_text(period_ns: u64) -> String {
    match tick_ns() {
        Some(t) => {
            let hz = 1_000_000_000 / t;
            let effect = if period_ns < t {
                format!(", so at most one sample per {} of CPU", fmt_ns(t))
            } else {
                String::new()
            };
            format!("tick resolution: {} at HZ={hz}{effect}", fmt_ns(t))
        }
        None => "tick resolution: the scheduler tick (unknown here)".into(),
    }
}

/// `1 ms`, `250 µs`, `1.5 s`.
fn fmt_ns(ns: u64) -> String {
    let (v, unit) = if ns >= 1_000_000_000 {
        (ns as f64 / 1e9, "s")
    } else if ns >= 1_000_000 {
        (ns as f64 / 1e6, "ms")
    } else if ns >= 1_000 {
        (ns as f64 / 1e3, "µs")
    } else {
        (ns as f64, "ns")
    };
    let s = format!("{v:.3}");
    format!("{} {unit}", s.trim_end_matches('0').trim_end_matches('.'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_read_of_the_clocks_is_timed() {
        use crate::counters::{Metrics, ThreadCpuClock, WallClock};
        let wall = read_cost_ns(&Metrics::new().with(WallClock)).unwrap();
        let both = read_cost_ns(&Metrics::new().with(ThreadCpuClock).with(WallClock)).unwrap();
        // The thread CPU clock is a system call (no vDSO for it), the monotonic clock is not.
        assert!(wall > 0.0 && both > wall, "wall-time {wall} ns, cpu-time + wall-time {both} ns");
    }

    #[test]
    fn durations_read_naturally() {
        assert_eq!(fmt_ns(1_000_000), "1 ms");
        assert_eq!(fmt_ns(10_000_000), "10 ms");
        assert_eq!(fmt_ns(250_000), "250 µs");
        assert_eq!(fmt_ns(1_500_000_000), "1.5 s");
        assert_eq!(fmt_ns(999), "999 ns");
    }
}
