//! The signal side of the context sampler ([`crate::sampling`]): the SIGPROF handler, the two
//! per-thread signal sources, the lock-free tables through which the handler finds a thread's
//! state, and that state ([`ThreadState`]): a try-lock, the thread's metric reader and its table of
//! credits.
//!
//! How the handler finds its thread without thread-locals (a Rust `thread_local!` in a dlopen'ed
//! library may allocate on first access): every signal carries a key. A perf task-clock overflow
//! signal carries the perf fd in `si_fd`; a POSIX CPU timer or a queued test signal carries
//! `MAGIC << 32 | tid` in `sival_ptr`. Two two-level tables of atomic pointers, indexed by fd and by
//! tid, map keys to states; the handler does two atomic loads. A stopped thread's entries become
//! `RETIRED` (a late signal for it is recognised as ours and ignored), and the table's reference
//! is released only once no handler that looked that key up is running (each table counts its
//! running handlers per key shard, a line per shard), so a handler never touches freed memory.
//!
//! Async-signal-safety: the handler allocates nothing, takes no blocking lock (only
//! [`SpinLock::try_lock`]; a busy lock means another thread is settling or draining this one, and
//! the sample is simply left for later), and calls only `clock_gettime` and `read` (through the
//! metric reader). It saves and restores `errno`.

use std::cell::UnsafeCell;
use std::io;
use std::ops::{Deref, DerefMut};
use std::os::fd::AsRawFd;
use std::ptr::{null_mut, NonNull};
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use libc::{c_int, c_long, c_void};
use perf_event::events::Software;
use perf_event::{Builder, Counter, SampleFlag, Sampler};
use hpm_model::metrics::ThreadMetrics;

use super::clock::{clock_ns, current_tid, monotonic_ns, tid_cpu_clock};
use super::credits::CreditTable;
use super::refusal::perf_event_paranoid;
use super::stacks::{CodeAt, ProbeCode, RawFrame, SampleRing, SampleSink, Site, StackWalker, PROBE_CODE_OWNER};
use crate::lines::{LineBuf, OwnLines};

/// The signal every source delivers. HotSpot does not use SIGPROF.
pub const SAMPLE_SIGNAL: c_int = libc::SIGPROF;

/// Tag in the high half of `sival_ptr` of our timer and queued signals ("HPMS").
const MAGIC: u64 = 0x4850_4D53;

// fcntl commands and siginfo codes that the libc crate does not define for glibc.
const F_SETSIG: c_int = 10;
const F_SETOWN_EX: c_int = 15;
const F_OWNER_TID: c_int = 0;
const POLL_IN: c_int = 1;
const POLL_HUP: c_int = 6;

#[repr(C)]
struct FOwnerEx {
    kind: c_int,
    pid: libc::pid_t,
}

/// The head of a `siginfo_t` as the kernel fills it for SIGPOLL-style signals (perf overflow
/// with F_SETSIG): `si_band`, then `si_fd`. `repr(C)` gives the union its 8-byte alignment on
/// 64-bit targets, as in the kernel's layout.
#[repr(C)]
struct PollInfo {
    signo: c_int,
    errno: c_int,
    code: c_int,
    band: c_long,
    fd: c_int,
}

/// The head of a `siginfo_t` for timer and queued signals: (timer id, overrun) or (pid, uid), then
/// the `sigval`; padded to the kernel's 128 bytes so it can be passed to `rt_tgsigqueueinfo`.
#[repr(C)]
struct ValueInfo {
    signo: c_int,
    errno: c_int,
    code: c_int,
    first: c_int,
    second: c_int,
    value: *mut c_void,
    _pad: [u64; 12],
}
const _: () = assert!(std::mem::size_of::<ValueInfo>() >= 128);

// ---------------------------------------------------------------------------------------------
// A lock the signal handler can try without blocking.

/// A spin lock around `T`: the signal handler only tries it; other threads spin briefly, then
/// yield. Never held across anything that blocks.
pub struct SpinLock<T> {
    locked: AtomicBool,
    value: UnsafeCell<T>,
}

// SAFETY: the value is only reached through a guard, and `locked` admits one guard at a time, so
// sharing the lock between threads hands `T` from one thread to another: `T: Send` is enough.
unsafe impl<T: Send> Sync for SpinLock<T> {}

pub struct SpinGuard<'a, T> {
    lock: &'a SpinLock<T>,
}

impl<T> SpinLock<T> {
    pub fn new(value: T) -> SpinLock<T> {
        SpinLock { locked: AtomicBool::new(false), value: UnsafeCell::new(value) }
    }

    /// Takes the lock if it is free; never waits (the signal handler's way in).
    #[inline]
    pub fn try_lock(&self) -> Option<SpinGuard<'_, T>> {
        self.locked
            .compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed)
            .ok()
            .map(|_| SpinGuard { lock: self })
    }

    /// Takes the lock, spinning while a signal handler or another thread holds it (both hold it
    /// for a few microseconds). Not for signal handlers.
    pub fn lock(&self) -> SpinGuard<'_, T> {
        let mut spins = 0u32;
        loop {
            if let Some(g) = self.try_lock() {
                return g;
            }
            spins += 1;
            if spins < 200 {
                std::hint::spin_loop();
            } else {
                // The holder may be a handler on a thread that lost its CPU: let it run.
                std::thread::yield_now();
            }
        }
    }
}

impl<T> Deref for SpinGuard<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        // SAFETY: this guard is the only one (see `try_lock`); the value lives as long as the lock.
        unsafe { &*self.lock.value.get() }
    }
}

impl<T> DerefMut for SpinGuard<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        // SAFETY: as in `deref`, and `&mut self` makes this the only reference through the guard.
        unsafe { &mut *self.lock.value.get() }
    }
}

impl<T> Drop for SpinGuard<'_, T> {
    fn drop(&mut self) {
        self.lock.locked.store(false, Ordering::Release);
    }
}

// ---------------------------------------------------------------------------------------------
// Per-thread state.

/// Counts of what happened to one thread's state.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ThreadStats {
    /// Signals delivered to the thread that reached its state.
    pub signals: u64,
    /// Signals that credited (the others found the state busy).
    pub samples: u64,
    /// Signals that found the state locked by a settle, rebase or drain from another thread; the
    /// amount is credited by that operation or the next sample, not lost.
    pub busy: u64,
    /// Credits put off because the table was full of other contexts; the amount stays in the
    /// metrics and goes to the context current at the next credit after a drain.
    pub deferred: u64,
    /// `settle` calls (from the wall sampler, window boundaries, snapshots).
    pub settles: u64,
    /// Of those, settles of a thread that had used no CPU since its last credit: one clock read.
    pub idle_settles: u64,
    /// Changes of context credited at once (exact mode, [`ThreadState::switch_to`]).
    pub switches: u64,
    /// Stack samples stored (with a stack walker), of which `walk_failures` hold the walker's
    /// failure code instead of frames.
    pub stacks: u64,
    pub walk_failures: u64,
    /// Stack samples not stored because the thread's ring was full; their weights went to the
    /// thread's next stack sample.
    pub stacks_full: u64,
    /// Samples whose signal interrupted the probes' code ([`ProbeCode`]): credited under
    /// [`PROBE_CODE_OWNER`], to no context.
    pub in_probe_code: u64,
    /// Of the settles, wall-sampler settles of a running thread that credited its wall time only
    /// ([`ThreadState::settle_from_wall`]).
    pub running_settles: u64,
}

#[derive(Default)]
struct AtomicStats {
    signals: AtomicU64,
    samples: AtomicU64,
    busy: AtomicU64,
    deferred: AtomicU64,
    settles: AtomicU64,
    idle_settles: AtomicU64,
    switches: AtomicU64,
    walk_failures: AtomicU64,
    in_probe_code: AtomicU64,
    running_settles: AtomicU64,
}

fn bump(a: &AtomicU64) {
    a.fetch_add(1, Ordering::Relaxed);
}

/// A context cell and the owner of the contexts written into it.
#[derive(Clone, Copy)]
struct Target {
    cell: &'static AtomicU32,
    owner: u32,
}

impl Target {
    /// The credit key of the context now in the cell: owner in the high half.
    fn key(&self) -> u64 {
        (self.owner as u64) << 32 | self.cell.load(Ordering::Relaxed) as u64
    }
}

/// How `Inner::read_now` got the values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reading {
    Full,
    /// The thread used no CPU since the last credit: one clock read.
    Idle,
    /// The thread's CPU clock is gone: it ended (without `stop`).
    Ended,
}

/// What the lock guards: the reader, the last credited values and the credits.
struct Inner {
    /// Where the thread's current context is read, and whose contexts they are: the thread's own
    /// cell (owner 0) or, while it runs a logical thread of its VM (a virtual thread mounted on
    /// this carrier, a green thread on this processor), that thread's ([`ThreadState::retarget`]).
    target: Target,
    /// `None` once the thread is finished: `cur` then holds its final values.
    reader: Option<Box<dyn ThreadMetrics>>,
    /// Indexes of `cpu-time` and `wall-time` in the metric set, for the one-clock idle check.
    cpu: Option<usize>,
    wall: Option<usize>,
    /// Values at the last credit (or rebase), the current read, and their difference.
    last: LineBuf<u64>,
    cur: LineBuf<u64>,
    delta: LineBuf<u64>,
    table: CreditTable,
    /// A credit was deferred: `last` is behind and the next credit carries the amount.
    lagging: bool,
    /// With a stack walker: the frames buffer it fills, and the values at the last stored stack
    /// sample (stack samples carry what the thread used since its previous one, whatever the
    /// settles and credits in between).
    frames: LineBuf<RawFrame>,
    stack_last: LineBuf<u64>,
    /// The thread's CPU clock when the wall sampler last looked ([`ThreadState::settle_from_wall`]).
    seen_cpu: u64,
    /// CPU signals until the next stack sample ([`StackSampling::every`]).
    stack_countdown: u32,
    /// With kernel frames ([`StackSampling::kernel`]): the thread's task-clock event and its
    /// ring. Here, under the lock, because the handler reads the ring; `Armed` reaches the event
    /// through the lock too.
    kernel: Option<KernelRing>,
}

impl Inner {
    /// Fills `cur` with the thread's values now. With `check` (settles, not the handler), reads the
    /// thread's CPU clock first: a thread that used no CPU since the last credit gets `last` with
    /// only `wall-time` advanced (one clock read instead of a full read: nothing per-thread counts
    /// while a thread is off CPU), and a thread that has ended gets nothing new (it has no CPU clock to read).
    fn read_now(&mut self, tid: i32, check: bool) -> Reading {
        let Some(reader) = self.reader.as_mut() else { return Reading::Full };
        if check {
            match clock_ns(tid_cpu_clock(tid)) {
                // `cur` keeps the thread's last read: equal to or below `last`, or, when a credit
                // was deferred, the deferred amount, still to be credited.
                None => return Reading::Ended,
                Some(c) if !self.lagging && self.cpu.is_some_and(|ci| c <= self.last[ci]) => {
                    self.cur.copy_from_slice(&self.last);
                    if let Some(wi) = self.wall {
                        self.cur[wi] = self.last[wi].max(monotonic_ns());
                    }
                    return Reading::Idle;
                }
                Some(_) => {}
            }
        }
        reader.read(&mut self.cur);
        Reading::Full
    }

    /// Credits `cur − last` to `context`. When the table is full of other contexts the credit is
    /// deferred, unless the caller may allocate (`may_grow`: not the signal handler), which grows
    /// the table instead.
    fn credit(&mut self, stats: &AtomicStats, may_grow: bool) {
        let context = self.target.key();
        self.credit_to(context, stats, may_grow);
    }

    /// [`Inner::credit`] to the credit key `context` (owner in the high half).
    fn credit_to(&mut self, context: u64, stats: &AtomicStats, may_grow: bool) {
        let mut any = false;
        for ((d, c), l) in self.delta.iter_mut().zip(&self.cur).zip(&self.last) {
            *d = c.saturating_sub(*l);
            any |= *d != 0;
        }
        if !any {
            return;
        }
        let mut added = self.table.add(context, &self.delta);
        if !added && may_grow {
            self.table.grow();
            added = self.table.add(context, &self.delta);
        }
        if added {
            advance(&mut self.last, &self.cur);
            self.lagging = false;
        } else {
            self.lagging = true;
            bump(&stats.deferred);
        }
    }

    /// Credits only the wall time since the last credit (`wall-time` read now) to the current
    /// context; every other metric waits for the next credit. No-op without `wall-time`.
    fn credit_wall(&mut self, stats: &AtomicStats) {
        let Some(wi) = self.wall else { return };
        let now = self.last[wi].max(monotonic_ns());
        self.delta.fill(0);
        self.delta[wi] = now - self.last[wi];
        if self.delta[wi] == 0 {
            return;
        }
        let context = self.target.key();
        if self.table.add(context, &self.delta) {
            self.last[wi] = now;
        } else {
            bump(&stats.deferred);
        }
    }

    fn rebase(&mut self) {
        advance(&mut self.last, &self.cur);
        advance(&mut self.stack_last, &self.cur);
        self.lagging = false;
        self.table.clear();
    }

    /// The handler's stack sample: walks the interrupted stack and stores it with `cur − stack_last`
    /// (a failed walk as one pseudo-frame with the walker's code). When the ring is full nothing
    /// is stored and the amount stays for the next sample.
    /// With `kernel`, the frames of the kernel ring's last drain go first (a CPU-time signal's).
    fn sample_stack(&mut self, stacks: &StackSampling, ucontext: *mut c_void, stats: &AtomicStats, kernel: bool) {
        let pc = program_counter(ucontext);
        let mut code = CodeAt::unknown();
        // The kernel's frames first (innermost), where the overflow came in kernel mode; the
        // walker's follow, with room for at least one.
        let room = self.frames.len() - 1;
        let kernel = match self.kernel.as_ref().filter(|_| kernel) {
            Some(k) => k.frames(&mut self.frames[..room]),
            None => 0,
        };
        let (_, walked) = self.frames.split_at_mut(kernel);
        // SAFETY: we are in the SIGPROF handler on the sampled thread (`on_signal`), `ucontext` is
        // this signal's and `pc` its program counter, and `stacks.thread` the handle this thread's
        // sampling started with.
        let n = unsafe { stacks.walker.walk(stacks.thread, ucontext, pc, walked, &mut code) };
        let depth = kernel
            + if n > 0 {
                (n as usize).min(walked.len())
            } else {
                bump(&stats.walk_failures);
                walked[0] = RawFrame::new(n, 0);
                1
            };
        for ((d, c), l) in self.delta.iter_mut().zip(&self.cur).zip(&self.stack_last) {
            *d = c.saturating_sub(*l);
        }
        // The time, for the samples' timeline: CLOCK_MONOTONIC is read through the vDSO (no system
        // call, async-signal-safe), about 40 ns on the test machine (a virtual one).
        let time = monotonic_ns();
        if stacks.ring.push(&self.delta, Site { pc, code, time }, &self.frames[..depth]) {
            advance(&mut self.stack_last, &self.cur);
        }
    }
}

/// Moves a baseline up to the values just read. `max`: a source that went backwards is not
/// credited twice when it comes back.
fn advance(last: &mut [u64], cur: &[u64]) {
    for (l, c) in last.iter_mut().zip(cur) {
        *l = (*l).max(*c);
    }
}

/// The interrupted program counter of a signal's `ucontext` (0 where unknown).
fn program_counter(ucontext: *mut c_void) -> u64 {
    if ucontext.is_null() {
        return 0;
    }
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: a non-null `ucontext` is the `ucontext_t` the kernel passed to this signal's
        // handler (the caller's contract: it comes from `on_sigprof`); reading one register.
        unsafe { (*(ucontext as *const libc::ucontext_t)).uc_mcontext.gregs[libc::REG_RIP as usize] as u64 }
    }
    #[cfg(target_arch = "aarch64")]
    {
        // SAFETY: as above.
        unsafe { (*(ucontext as *const libc::ucontext_t)).uc_mcontext.pc }
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        0
    }
}

/// A thread's stack sampling: the VM's walker, the thread's handle for it, and the ring the
/// samples go to.
pub struct StackSampling {
    pub walker: Arc<dyn StackWalker>,
    /// What the walker needs to walk this thread (HotSpot: its JNIEnv).
    pub thread: usize,
    pub ring: SampleRing,
    /// A stack sample at every this many signals (at least 1).
    pub every: u32,
    /// Stack samples only at queued signals (wall-clock sampling), not at CPU-time ones.
    pub wall_clock: bool,
    /// Kernel frames above the walker's: the perf task-clock source also records the kernel
    /// part of the call chain at each overflow, in a ring of the thread's ([`KernelRing`]).
    pub kernel: bool,
}

/// One sampled thread's state, shared by the thread's signal handler, other threads' settles and
/// drains, and the signal tables. On lines of its own, with its buffers ([`crate::lines`]): the
/// handler writes its lock, statistics and values at every signal.
#[repr(align(128))]
pub struct ThreadState {
    tid: i32,
    /// The thread's own cell (owner 0).
    cell: &'static AtomicU32,
    inner: SpinLock<Inner>,
    stacks: Option<StackSampling>,
    /// The probes' code, once the VM has it: a signal that interrupts it credits under
    /// [`PROBE_CODE_OWNER`] (shared by every thread of one sampler).
    probe_code: Arc<OnceLock<Arc<dyn ProbeCode>>>,
    /// The second credit table, swapped with the live one by `drain` so that the caller's callback
    /// runs outside the spin lock. A plain mutex: the handler never touches it.
    spare: Mutex<CreditTable>,
    stats: AtomicStats,
    /// Held off ([`ThreadState::set_held`]): a signal still arriving (generated or queued before
    /// the source was disarmed) is counted and ignored.
    held: AtomicBool,
}

impl ThreadState {
    /// State for thread `tid`, whose current context is in `cell`, read through `reader` (valid
    /// from any thread) with `metrics` values; `cpu`/`wall` index `cpu-time`/`wall-time` if present.
    /// Reads the baseline now. With `stacks`, every signal also stores a stack sample (frames up to
    /// `max_depth`). Every buffer is allocated here.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        tid: i32,
        cell: &'static AtomicU32,
        mut reader: Box<dyn ThreadMetrics>,
        metrics: usize,
        cpu: Option<usize>,
        wall: Option<usize>,
        contexts: usize,
        stacks: Option<(StackSampling, usize)>,
        probe_code: Arc<OnceLock<Arc<dyn ProbeCode>>>,
    ) -> Arc<ThreadState> {
        let mut last = vec![0; metrics];
        reader.read(&mut last);
        let max_depth = stacks.as_ref().map_or(0, |(s, d)| (*d).clamp(1, s.ring.max_frames()));
        let inner = Inner {
            target: Target { cell, owner: 0 },
            reader: Some(reader),
            cpu,
            wall,
            cur: LineBuf::from_slice(&last, 0),
            delta: LineBuf::new(metrics, 0),
            stack_last: LineBuf::from_slice(&last, 0),
            last: LineBuf::from_slice(&last, 0),
            table: CreditTable::new(metrics, contexts),
            lagging: false,
            frames: LineBuf::new(max_depth, RawFrame::default()),
            stack_countdown: stacks.as_ref().map_or(1, |(s, _)| s.every.max(1)),
            seen_cpu: 0,
            kernel: None,
        };
        Arc::new(ThreadState {
            tid,
            cell,
            inner: SpinLock::new(inner),
            stacks: stacks.map(|(s, _)| s),
            probe_code,
            spare: Mutex::new(CreditTable::new(metrics, contexts)),
            stats: AtomicStats::default(),
            held: AtomicBool::new(false),
        })
    }

    pub fn tid(&self) -> i32 {
        self.tid
    }

    /// Holds the thread's signal handling off (`true`: a signal that still arrives stores no
    /// stack sample and credits nothing) or lets it run again.
    pub fn set_held(&self, held: bool) {
        self.held.store(held, Ordering::Release);
    }

    /// The signal handler's work: store a stack sample (with a walker), and credit what the thread
    /// used since its last credit to the context in its cell, unless the state is busy.
    fn on_signal(&self, ucontext: *mut c_void, queued: bool) {
        bump(&self.stats.signals);
        if self.held.load(Ordering::Acquire) {
            return;
        }
        let Some(mut g) = self.inner.try_lock() else {
            bump(&self.stats.busy);
            return;
        };
        g.read_now(self.tid, false);
        if !queued {
            if let Some(k) = g.kernel.as_mut() {
                k.drain();
            }
        }
        // Wall-clock stack samples come only from queued signals (the wall stack sampler's).
        if let Some(stacks) = self.stacks.as_ref().filter(|s| queued || !s.wall_clock) {
            g.stack_countdown -= 1;
            if g.stack_countdown == 0 {
                g.stack_countdown = stacks.every.max(1);
                g.sample_stack(stacks, ucontext, &self.stats, !queued);
            }
        }
        // SAFETY: in the handler on the interrupted thread (the trait's contract).
        if self.probe_code.get().is_some_and(|c| unsafe { c.contains(ucontext, program_counter(ucontext)) }) {
            g.credit_to((PROBE_CODE_OWNER as u64) << 32, &self.stats, false);
            bump(&self.stats.in_probe_code);
        } else {
            g.credit(&self.stats, false);
        }
        bump(&self.stats.samples);
    }

    /// Exact mode, on the thread itself at a change of context: credits what the thread used since
    /// its last credit to the context in its cell, then makes `next` current. A signal arriving
    /// meanwhile finds the state busy and credits nothing; the table grows instead of deferring, so
    /// every amount goes to the context that was current while it was used.
    pub fn switch_to(&self, next: u32) {
        let mut g = self.inner.lock();
        g.read_now(self.tid, false);
        g.credit(&self.stats, true);
        g.target.cell.store(next, Ordering::Relaxed);
        bump(&self.stats.switches);
    }

    /// The thread starts running another logical thread (`owner` > 0, whose current context is in
    /// `cell`), or its own code again (`owner` 0: `cell` is ignored, the thread's own cell is
    /// read). With `settle`, what the thread used since its last credit goes to the context being
    /// left first (one read; exact mode); without, it goes to whatever context the next credit
    /// finds, as any sampled amount does. A signal arriving meanwhile finds the state busy.
    pub fn retarget(&self, cell: &'static AtomicU32, owner: u32, settle: bool) {
        let mut g = self.inner.lock();
        if settle {
            g.read_now(self.tid, false);
            g.credit(&self.stats, true);
        }
        g.target = if owner == 0 { Target { cell: self.cell, owner: 0 } } else { Target { cell, owner } };
    }

    /// Credits what the thread used since its last credit to its current context, now. Returns
    /// false if the thread has ended without `finish` (nothing is credited then: its CPU clock is
    /// gone, and wall time after its end is not its own).
    pub fn settle(&self) -> bool {
        let mut g = self.inner.lock();
        let r = g.read_now(self.tid, true);
        if r == Reading::Idle {
            bump(&self.stats.idle_settles);
        }
        g.credit(&self.stats, false);
        bump(&self.stats.settles);
        r != Reading::Ended
    }

    /// The wall sampler's settle. With the probes' code measured ([`ProbeCode`]), a thread that
    /// has run since the wall sampler last looked gets only its wall time credited here: its CPU
    /// time and counters wait for its next CPU-time signal, which sees whether the probes' code
    /// or the program's was running (a credit from here cannot tell, and gave the probes' time
    /// of about one interval in twenty to the contexts they run in). A thread that has not run
    /// since is settled as by [`ThreadState::settle`]. Returns false if the thread has ended.
    pub fn settle_from_wall(&self) -> bool {
        if self.probe_code.get().is_none() {
            return self.settle();
        }
        let mut g = self.inner.lock();
        let Some(cpu) = clock_ns(tid_cpu_clock(self.tid)) else {
            drop(g);
            return self.settle();
        };
        let ran = cpu > g.seen_cpu;
        g.seen_cpu = cpu;
        if !ran || g.lagging || g.reader.is_none() {
            drop(g);
            return self.settle();
        }
        g.credit_wall(&self.stats);
        bump(&self.stats.settles);
        bump(&self.stats.running_settles);
        true
    }

    /// A window opens now: forgets what the thread used since its last credit and every credit
    /// not yet drained.
    pub fn rebase(&self) {
        let mut g = self.inner.lock();
        g.read_now(self.tid, true);
        g.rebase();
        drop(g);
        self.drain_stacks(&mut |_, _, _| {});
    }

    /// Moves the credits out: `f(owner, context, sums)` per owner and context, outside the spin
    /// lock. A credit that was deferred because the table was full is made now, to the current
    /// context.
    pub fn drain(&self, f: &mut dyn FnMut(u32, u32, &[u64])) {
        let mut spare = self.spare.lock().unwrap_or_else(|e| e.into_inner());
        if !spare.is_empty() {
            spare.clear(); // left over from a callback that panicked
        }
        {
            let mut g = self.inner.lock();
            std::mem::swap(&mut g.table, &mut *spare);
            if g.lagging {
                g.read_now(self.tid, true);
                g.credit(&self.stats, false);
            }
        }
        spare.for_each(&mut |key, sums| f((key >> 32) as u32, key as u32, sums));
        spare.clear();
    }

    /// Final settle; then the reader is closed (its perf fds) and later reads repeat the final
    /// values. Returns whether this call finished the thread (false if it already was).
    pub fn finish(&self) -> bool {
        let reader = {
            let mut g = self.inner.lock();
            if g.reader.is_none() {
                return false;
            }
            // Checked: after the thread ended, only the values it left are credited (wall time
            // since then is not its own).
            g.read_now(self.tid, true);
            g.credit(&self.stats, false);
            bump(&self.stats.settles);
            g.reader.take()
        };
        // Closing fds is a system call per fd: outside the spin lock.
        drop(reader);
        true
    }

    pub fn is_finished(&self) -> bool {
        self.inner.lock().reader.is_none()
    }

    pub fn stats(&self) -> ThreadStats {
        let l = |a: &AtomicU64| a.load(Ordering::Relaxed);
        let s = &self.stats;
        ThreadStats {
            signals: l(&s.signals),
            samples: l(&s.samples),
            busy: l(&s.busy),
            deferred: l(&s.deferred),
            settles: l(&s.settles),
            idle_settles: l(&s.idle_settles),
            switches: l(&s.switches),
            stacks: self.stacks.as_ref().map_or(0, |st| st.ring.stats().pushed),
            walk_failures: l(&s.walk_failures),
            in_probe_code: l(&s.in_probe_code),
            running_settles: l(&s.running_settles),
            stacks_full: self.stacks.as_ref().map_or(0, |st| st.ring.stats().full),
        }
    }

    /// Moves the stored stack samples out, oldest first: `f(weights, pc, frames)`, frames
    /// innermost first. Never blocks the thread's signal handler.
    pub fn drain_stacks(&self, f: &mut SampleSink) {
        if let Some(s) = &self.stacks {
            s.ring.drain(f);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Key tables: fd or tid → state, readable from the handler.

const CHUNK: usize = 1024;
const CHUNKS: usize = 4096;
/// Keys must be below this: 4 Mi covers every tid (pid_max ≤ 4 Mi) and the fds of any sane limit.
pub const KEY_LIMIT: usize = CHUNK * CHUNKS;

type Chunk = [AtomicPtr<ThreadState>; CHUNK];

/// Shards of a table's count of running handlers: a handler counts itself in the shard of the
/// key it looks up (`key % SHARDS`), each shard on a line of its own, so that the busy threads of
/// a process (consecutive tids, consecutive fds) do not write one shared counter at every signal.
/// Threads whose keys differ by a multiple of `SHARDS` share a shard; each handler writes it twice.
const SHARDS: usize = 256;

struct KeyTable {
    chunks: [AtomicPtr<Chunk>; CHUNKS],
    /// Signal handlers using an entry of this table right now, by key shard (for reclaiming
    /// retired states).
    in_handler: [OwnLines<AtomicUsize>; SHARDS],
}

static BY_FD: KeyTable = KeyTable::new();
static BY_TID: KeyTable = KeyTable::new();
/// Retired states whose memory was kept because handlers never went quiet while reclaiming.
static LEAKED: AtomicU64 = AtomicU64::new(0);

/// Marks a key whose thread stopped: a late signal for it is ours and is ignored.
fn retired() -> *mut ThreadState {
    NonNull::dangling().as_ptr()
}

impl KeyTable {
    const fn new() -> KeyTable {
        KeyTable {
            chunks: [const { AtomicPtr::new(null_mut()) }; CHUNKS],
            in_handler: [const { OwnLines(AtomicUsize::new(0)) }; SHARDS],
        }
    }

    /// The handler's count for `key`: [`KeyTable::enter`] and [`KeyTable::leave`] bracket its use
    /// of the entry, and [`reclaim`] waits for it.
    fn handlers(&self, key: usize) -> &AtomicUsize {
        &self.in_handler[key % SHARDS]
    }

    /// The handler's way in: counts itself in `key`'s shard, then loads the entry for `key` (null
    /// if none, [`retired`], or a live state that stays alive until [`KeyTable::leave`]).
    fn enter(&self, key: usize) -> *mut ThreadState {
        self.handlers(key).fetch_add(1, Ordering::SeqCst);
        self.get(key)
    }

    fn leave(&self, key: usize) {
        self.handlers(key).fetch_sub(1, Ordering::SeqCst);
    }

    /// The entry for `key`: null if none, [`retired`], or a live state. Two atomic loads.
    fn get(&self, key: usize) -> *mut ThreadState {
        if key >= KEY_LIMIT {
            return null_mut();
        }
        let chunk = self.chunks[key / CHUNK].load(Ordering::Acquire);
        if chunk.is_null() {
            return null_mut();
        }
        // SAFETY: chunks are allocated once (by `slot`) and never freed.
        unsafe { (*chunk)[key % CHUNK].load(Ordering::SeqCst) }
    }

    fn slot(&self, key: usize) -> &'static AtomicPtr<ThreadState> {
        let top = &self.chunks[key / CHUNK];
        let mut chunk = top.load(Ordering::Acquire);
        if chunk.is_null() {
            let fresh: *mut Chunk = Box::into_raw(Box::new([const { AtomicPtr::new(null_mut()) }; CHUNK]));
            match top.compare_exchange(null_mut(), fresh, Ordering::AcqRel, Ordering::Acquire) {
                Ok(_) => chunk = fresh,
                Err(other) => {
                    // SAFETY: `fresh` was never published; we still own it.
                    drop(unsafe { Box::from_raw(fresh) });
                    chunk = other;
                }
            }
        }
        // SAFETY: published chunks are never freed, so the reference is valid for the process.
        unsafe { &(*chunk)[key % CHUNK] }
    }

    /// Maps `key` to `state` (the table keeps one reference to it). A live state the key still
    /// held (a thread that ended without `stop`, whose tid or fd came back) is released.
    fn insert(&self, key: usize, state: &Arc<ThreadState>) {
        let p = Arc::into_raw(state.clone()) as *mut ThreadState;
        let old = self.slot(key).swap(p, Ordering::SeqCst);
        if !old.is_null() && old != retired() {
            self.reclaim(key, old);
        }
    }

    /// Retires `key` if it still maps to `state`, and releases the table's reference.
    fn remove(&self, key: usize, state: &Arc<ThreadState>) {
        if key >= KEY_LIMIT {
            return;
        }
        let p = Arc::as_ptr(state) as *mut ThreadState;
        if self.slot(key).compare_exchange(p, retired(), Ordering::SeqCst, Ordering::Acquire).is_ok() {
            self.reclaim(key, p);
        }
    }

    /// Releases this table's reference to a state just unlinked from `key`, once no signal
    /// handler can still be using it: the only handlers that can hold it loaded it from `key`,
    /// counted in `key`'s shard first, and a handler that counts itself after we see the shard
    /// at 0 loads the entry after our unlinking store (all SeqCst) and cannot find it. If the
    /// shard never goes quiet within ~20 ms the memory is kept (counted in [`leaked_states`])
    /// rather than risked.
    fn reclaim(&self, key: usize, p: *mut ThreadState) {
        let start = std::time::Instant::now();
        while self.handlers(key).load(Ordering::SeqCst) != 0 {
            if start.elapsed() > std::time::Duration::from_millis(20) {
                LEAKED.fetch_add(1, Ordering::Relaxed);
                return;
            }
            std::thread::yield_now();
        }
        // SAFETY: `p` came from `Arc::into_raw` in `insert`, this table holds it no more and no
        // handler is using it, so this is the table's reference, dropped exactly once.
        drop(unsafe { Arc::from_raw(p) });
    }
}

/// Thread states kept because signal handlers were running every time they were reclaimed.
pub fn leaked_states() -> u64 {
    LEAKED.load(Ordering::Relaxed)
}

// ---------------------------------------------------------------------------------------------
// The handler.

/// What an earlier SIGPROF disposition was, for chaining signals that are not ours.
static PREVIOUS: OnceLock<libc::sigaction> = OnceLock::new();
static INSTALLED: Mutex<bool> = Mutex::new(false);

/// The table and key a signal is for: None if the signal is not ours.
///
/// # Safety
/// `info` must be the `siginfo_t` the kernel passed to an SA_SIGINFO handler.
unsafe fn key_of(info: *const libc::siginfo_t) -> Option<(&'static KeyTable, usize)> {
    // SAFETY: the kernel's siginfo is 128 bytes, larger than both views; which view is meaningful
    // is decided by si_code (at the same offset in both).
    unsafe {
        let code = (*info).si_code;
        if code == libc::SI_TIMER || code == libc::SI_QUEUE {
            let v = (*(info as *const ValueInfo)).value as usize as u64;
            if v >> 32 == MAGIC {
                return Some((&BY_TID, (v & 0xffff_ffff) as usize));
            }
        } else if (POLL_IN..=POLL_HUP).contains(&code) {
            let fd = (*(info as *const PollInfo)).fd;
            if fd >= 0 {
                return Some((&BY_FD, fd as usize));
            }
        }
    }
    None
}

extern "C" fn on_sigprof(sig: c_int, info: *mut libc::siginfo_t, uctx: *mut c_void) {
    // SAFETY: __errno_location returns the calling thread's errno slot; the handler's system calls
    // may change errno, and the interrupted code must find it as it left it.
    let errno = unsafe { *libc::__errno_location() };
    // SAFETY: `info` is the kernel's siginfo for this SA_SIGINFO handler.
    let key = unsafe { key_of(info) };
    let mut target = null_mut();
    if let Some((table, key)) = key {
        target = table.enter(key);
        if !target.is_null() && target != retired() {
            // SAFETY: a live entry holds a reference to the state, and `reclaim` does not release
            // it while the key's shard counts us; si_code is at the same offset in every siginfo
            // layout.
            let queued = unsafe { (*info).si_code } == libc::SI_QUEUE;
            // SAFETY: as above.
            unsafe { (*target).on_signal(uctx, queued) };
        }
        table.leave(key);
    }
    // SAFETY: as above.
    unsafe { *libc::__errno_location() = errno };
    if target.is_null() {
        chain(sig, info, uctx);
    }
}

/// Passes a SIGPROF that is not ours to the handler that was installed before ours. A default
/// disposition would end the process; a stray SIGPROF is ignored instead.
fn chain(sig: c_int, info: *mut libc::siginfo_t, uctx: *mut c_void) {
    let Some(prev) = PREVIOUS.get() else { return };
    let h = prev.sa_sigaction;
    if h == libc::SIG_DFL || h == libc::SIG_IGN {
        return;
    }
    if prev.sa_flags & libc::SA_SIGINFO != 0 {
        // SAFETY: with SA_SIGINFO the previous owner installed a three-argument handler.
        let f: extern "C" fn(c_int, *mut libc::siginfo_t, *mut c_void) = unsafe { std::mem::transmute(h) };
        f(sig, info, uctx);
    } else {
        // SAFETY: without SA_SIGINFO it is a one-argument handler.
        let f: extern "C" fn(c_int) = unsafe { std::mem::transmute(h) };
        f(sig);
    }
}

/// Installs the SIGPROF handler (SA_SIGINFO | SA_RESTART) once per process, keeping the previous
/// disposition for chaining.
pub fn install_handler() -> Result<(), String> {
    let mut installed = INSTALLED.lock().unwrap_or_else(|e| e.into_inner());
    if *installed {
        return Ok(());
    }
    let ours = on_sigprof as extern "C" fn(c_int, *mut libc::siginfo_t, *mut c_void) as usize;
    // SAFETY: an all-zero sigaction is a valid value (SIG_DFL, empty mask, no flags).
    let mut old: libc::sigaction = unsafe { std::mem::zeroed() };
    // SAFETY: querying only (null new action); `old` is a valid out-pointer.
    if unsafe { libc::sigaction(SAMPLE_SIGNAL, std::ptr::null(), &mut old) } != 0 {
        return Err(format!("cannot read the SIGPROF disposition: {}", io::Error::last_os_error()));
    }
    if old.sa_sigaction != ours {
        let _ = PREVIOUS.set(old);
    }
    // SAFETY: as above.
    let mut sa: libc::sigaction = unsafe { std::mem::zeroed() };
    sa.sa_sigaction = ours;
    sa.sa_flags = libc::SA_SIGINFO | libc::SA_RESTART;
    // SAFETY: `sa.sa_mask` is a valid sigset to initialise; installing a handler with valid
    // arguments. SIGPROF stays blocked while the handler runs (no SA_NODEFER).
    let rc = unsafe {
        libc::sigemptyset(&mut sa.sa_mask);
        libc::sigaction(SAMPLE_SIGNAL, &sa, std::ptr::null_mut())
    };
    if rc != 0 {
        return Err(format!("cannot install the SIGPROF handler: {}", io::Error::last_os_error()));
    }
    *installed = true;
    Ok(())
}

/// Unblocks SIGPROF on the calling thread (a blocked signal would only pile up as pending).
pub fn unblock_signal_on_current_thread() -> Result<(), String> {
    // SAFETY: `set` is initialised by sigemptyset before use; pthread_sigmask only reads it.
    let rc = unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, SAMPLE_SIGNAL);
        libc::pthread_sigmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut())
    };
    if rc != 0 {
        return Err(format!("cannot unblock SIGPROF: {}", io::Error::from_raw_os_error(rc)));
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Kernel frames.

/// perf record types (`perf_event.h`).
const PERF_RECORD_LOST: u32 = 2;
const PERF_RECORD_SAMPLE: u32 = 9;
/// Call-chain entries from here up are context markers (`PERF_CONTEXT_KERNEL`, ...), not
/// addresses.
const PERF_CONTEXT_MAX: u64 = -4095i64 as u64;
/// Kernel frames kept per sample at most (the kernel's own limit is `perf_event_max_stack`,
/// 127 by default).
pub const KERNEL_FRAMES: usize = 64;
/// The ring's data size: one page holds several records of the deepest chains (each 16 bytes
/// plus 8 per frame), and the handler empties it at every overflow signal.
const KERNEL_RING_BYTES: usize = 4096;

/// A thread's task-clock event with a ring that receives one record per overflow: the kernel
/// part of the call chain where the overflow came in (the kernel's `perf_callchain_kernel`,
/// empty when the thread was in user mode). The handler empties it at each CPU-time signal.
struct KernelRing {
    ring: Sampler,
    /// The kernel frames of the last sample record drained, innermost first, and their number.
    chain: [u64; KERNEL_FRAMES],
    len: usize,
}

impl KernelRing {
    fn new(ring: Sampler) -> KernelRing {
        KernelRing { ring, chain: [0; KERNEL_FRAMES], len: 0 }
    }

    /// Reads the ring up to its head, handing the space back, and keeps the last sample
    /// record's kernel frames. When records were lost (the ring filled while signals were
    /// skipped), the newest overflow's record is not in the ring: no frames then, rather than an
    /// older overflow's. Allocation-free (the perf crate's records borrow the mapping).
    fn drain(&mut self) {
        let (mut len, mut lost) = (0, false);
        while let Some(record) = self.ring.next_record() {
            match record.ty() {
                PERF_RECORD_SAMPLE => {
                    // The record is `u64 nr; u64 ips[nr]` (sample_type CALLCHAIN only). Records
                    // and the ring's size are multiples of 8: no word is split by the wrap.
                    let mut words = record.data().iter().flat_map(|part| part.chunks_exact(8)).map(|w| <[u8; 8]>::try_from(w).map_or(0, u64::from_ne_bytes));
                    let nr = words.next().unwrap_or(0) as usize;
                    len = 0;
                    for ip in words.take(nr) {
                        if ip < PERF_CONTEXT_MAX && len < KERNEL_FRAMES {
                            self.chain[len] = ip;
                            len += 1;
                        }
                    }
                }
                PERF_RECORD_LOST => lost = true,
                _ => {}
            }
        }
        self.len = if lost { 0 } else { len };
    }

    /// Writes the last drain's kernel frames into `out` (as many as fit): native code frames
    /// whose `method` is the kernel address. Returns how many.
    fn frames(&self, out: &mut [RawFrame]) -> usize {
        let n = self.len.min(out.len());
        for (f, &ip) in out.iter_mut().zip(&self.chain[..n]) {
            *f = RawFrame::new(RawFrame::NATIVE_CODE, ip);
        }
        n
    }
}

/// Opens the task-clock event of the calling thread (`tid` None) or thread `tid` with kernel
/// samples and a ring for the kernel part of each overflow's call chain. The error says why
/// kernel frames cannot be had and how to allow them.
fn open_kernel_ring(period_ns: u64, tid: Option<i32>) -> Result<Sampler, String> {
    let mut b = Builder::new(Software::TASK_CLOCK);
    b.sample_period(period_ns)
        .exclude_kernel(false)
        .exclude_hv(true)
        .any_cpu()
        .sample(SampleFlag::CALLCHAIN)
        .exclude_callchain_user(true)
        .sample_max_stack(KERNEL_FRAMES as u16)
        .enabled(false);
    match tid {
        Some(t) => b.observe_pid(t),
        None => b.observe_self(),
    };
    let counter = b.build().map_err(|e| match e.raw_os_error() {
        Some(libc::EACCES) | Some(libc::EPERM) => {
            let p = match perf_event_paranoid() {
                Some(v) => format!("/proc/sys/kernel/perf_event_paranoid is {v}"),
                None => "perf_event_paranoid unreadable".into(),
            };
            format!("kernel samples refused: {e} ({p}; fix: sysctl kernel.perf_event_paranoid=1 or lower, or CAP_PERFMON)")
        }
        _ => format!("a task-clock event with kernel call chains refused: {e}"),
    })?;
    counter.sampled(KERNEL_RING_BYTES).map_err(|e| {
        let hint = match e.raw_os_error() {
            Some(libc::EPERM) | Some(libc::ENOMEM) => {
                " (each thread's ring is locked memory: raise kernel.perf_event_mlock_kb or `ulimit -l`, or run with CAP_IPC_LOCK)"
            }
            _ => "",
        };
        format!("cannot map the perf ring for kernel call chains: {e}{hint}")
    })
}

/// Whether the calling thread can open a task-clock event with kernel call chains: the error
/// says why not and how to allow it.
pub fn probe_kernel_frames(period_ns: u64) -> Result<(), String> {
    open_kernel_ring(period_ns, None).map(drop)
}

// ---------------------------------------------------------------------------------------------
// Sources.

/// Which source delivers a thread's signals.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SourceKind {
    /// A perf software `task-clock` event that overflows every period of the thread's CPU time
    /// (hrtimer-based: any period from 10 µs up), delivered by F_SETSIG to the thread.
    PerfTaskClock,
    /// `timer_create(CLOCK_THREAD_CPUTIME_ID)` with SIGEV_THREAD_ID: expires at scheduler ticks.
    PosixCpuTimer,
    /// No CPU-time source: the thread gets only queued signals ([`Armed::queue_signal`]), e.g.
    /// from a wall-clock stack sampler.
    None,
}

fn errno_text(e: &io::Error) -> String {
    match e.raw_os_error() {
        Some(libc::EACCES) | Some(libc::EPERM) => {
            let p = match perf_event_paranoid() {
                Some(v) => format!("/proc/sys/kernel/perf_event_paranoid is {v}"),
                None => "perf_event_paranoid unreadable".into(),
            };
            format!("{e} ({p}; fix: sysctl kernel.perf_event_paranoid=2 or lower, CAP_PERFMON, or a seccomp profile that allows perf_event_open)")
        }
        Some(libc::EMFILE) => format!("{e} (each sampled thread holds one more descriptor; raise `ulimit -n`)"),
        Some(libc::ENOENT) | Some(libc::ENOSYS) | Some(libc::EOPNOTSUPP) => {
            format!("{e} (this kernel has no perf_event task-clock; the POSIX CPU timer is used instead)")
        }
        _ => e.to_string(),
    }
}

/// Opens the task-clock sampling event on the calling thread (disabled): user and kernel time
/// if permitted, else samples landing in user mode only (the count is the same either way).
/// A task-clock sampling event on the calling thread (`tid` None) or on thread `tid` of this process.
fn open_task_clock(period_ns: u64, tid: Option<i32>) -> io::Result<Counter> {
    let build = |exclude_kernel: bool| {
        let mut b = Builder::new(Software::TASK_CLOCK);
        b.sample_period(period_ns).exclude_kernel(exclude_kernel).exclude_hv(true).any_cpu();
        match tid {
            Some(t) => b.observe_pid(t),
            None => b.observe_self(),
        };
        b.enabled(false);
        b.build()
    };
    match build(false) {
        Err(e) if matches!(e.raw_os_error(), Some(libc::EACCES) | Some(libc::EPERM)) => build(true),
        r => r,
    }
}

/// Whether the calling thread can open a task-clock sampling event; the error says why not and
/// how to fix it.
pub fn probe_perf_source(period_ns: u64) -> Result<(), String> {
    open_task_clock(period_ns, None)
        .map(drop)
        .map_err(|e| format!("perf task-clock sampling event refused: {}", errno_text(&e)))
}

/// Time between scheduler ticks (1/HZ), from the resolution of CLOCK_MONOTONIC_COARSE: POSIX CPU
/// timers expire only at ticks.
pub fn tick_ns() -> Option<u64> {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid out-pointer.
    let rc = unsafe { libc::clock_getres(libc::CLOCK_MONOTONIC_COARSE, &mut ts) };
    (rc == 0).then(|| ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64).filter(|&t| t > 0)
}

struct Timer(libc::timer_t);
// SAFETY: a POSIX timer id is a process-wide handle; timer_delete may be called from any thread.
unsafe impl Send for Timer {}

enum Source {
    Perf(Counter),
    /// A task-clock event with a kernel ring: the event is the state's ([`Inner::kernel`]),
    /// reached through its lock; this is its fd.
    PerfRing(c_int),
    Timer(Timer),
}

/// A thread's signal source, registered in the key tables. Dropping it disarms it.
pub struct Armed {
    state: Arc<ThreadState>,
    source: Option<Source>,
    kind: SourceKind,
    period_ns: u64,
    /// Delivering signals (false while [`Armed::set_active`] holds it off).
    active: bool,
    /// Why this thread's samples have no kernel frames although they were asked for.
    kernel_refusal: Option<String>,
}

fn sys<T>(what: &str, rc: c_int, ok: T) -> Result<T, String> {
    if rc == -1 {
        Err(format!("{what}: {}", io::Error::last_os_error()))
    } else {
        Ok(ok)
    }
}

impl Armed {
    /// Starts `kind` on `state`'s thread (the calling thread, or another thread of this process,
    /// opened by its tid): a signal every `period_ns` of its CPU time.
    pub fn start(state: &Arc<ThreadState>, kind: SourceKind, period_ns: u64) -> Result<Armed, String> {
        let tid = state.tid;
        let own = tid == current_tid();
        if tid <= 0 || tid as usize >= KEY_LIMIT {
            return Err(format!("thread id {tid} out of the sampler's table range"));
        }
        BY_TID.insert(tid as usize, state);
        let mut armed = Armed { state: state.clone(), source: None, kind, period_ns, active: true, kernel_refusal: None };
        armed.source = Some(match kind {
            SourceKind::PerfTaskClock => {
                let (source, refusal) = start_perf(state, period_ns, own)?;
                armed.kernel_refusal = refusal;
                source
            }
            SourceKind::PosixCpuTimer => Source::Timer(start_timer(tid, period_ns, own)?),
            SourceKind::None => return Ok(armed),
        });
        Ok(armed)
    }

    pub fn kind(&self) -> SourceKind {
        self.kind
    }

    /// Why kernel frames were asked for but this thread's samples will not have them (the
    /// permission or the ring's memory refused, or a source that is not perf's).
    pub fn kernel_refusal(&self) -> Option<&str> {
        self.kernel_refusal.as_deref()
    }

    /// Holds the source off (`false`: no more signals; the perf event or timer stays allocated)
    /// or lets it run again (`true`), from any thread. A perf event keeps the part of its period
    /// already counted; a timer restarts a full period.
    pub fn set_active(&mut self, on: bool) -> Result<(), String> {
        if on == self.active {
            return Ok(());
        }
        match &mut self.source {
            Some(Source::Perf(c)) => {
                let r = if on { c.enable() } else { c.disable() };
                r.map_err(|e| format!("cannot {} the task-clock sampling event: {e}", if on { "enable" } else { "disable" }))?;
            }
            Some(Source::PerfRing(_)) => {
                if let Some(k) = self.state.inner.lock().kernel.as_mut() {
                    let r = if on { k.ring.enable() } else { k.ring.disable() };
                    r.map_err(|e| format!("cannot {} the task-clock sampling event: {e}", if on { "enable" } else { "disable" }))?;
                }
            }
            Some(Source::Timer(t)) => set_timer(t, if on { self.period_ns } else { 0 })?,
            None => {}
        }
        self.active = on;
        Ok(())
    }

    /// Queues one signal to the thread as its source would (for tests and benchmarks): through
    /// `rt_tgsigqueueinfo`, so it is delivered and handled like a real sample.
    pub fn queue_signal(&self) -> Result<(), String> {
        queue_signal(self.state.tid)
    }
}

/// Starts the task-clock source of `state`'s thread: with a kernel ring where kernel frames are
/// asked for and allowed, else a plain event (and why there is no ring).
fn start_perf(state: &Arc<ThreadState>, period_ns: u64, own: bool) -> Result<(Source, Option<String>), String> {
    let tid = (!own).then_some(state.tid);
    let mut refusal = None;
    if state.stacks.as_ref().is_some_and(|s| s.kernel) {
        match open_kernel_ring(period_ns, tid) {
            Ok(ring) => {
                let fd = ring.as_raw_fd();
                route_overflows(fd, state.tid)?;
                let mut g = state.inner.lock();
                let k = g.kernel.insert(KernelRing::new(ring));
                // Registered before the first overflow can happen.
                BY_FD.insert(fd as usize, state);
                if let Err(e) = k.ring.enable() {
                    BY_FD.remove(fd as usize, state);
                    g.kernel = None;
                    return Err(format!("cannot enable the task-clock sampling event: {e}"));
                }
                return Ok((Source::PerfRing(fd), None));
            }
            Err(why) => refusal = Some(why),
        }
    }
    let mut counter = open_task_clock(period_ns, tid).map_err(|e| format!("perf task-clock sampling event refused: {}", errno_text(&e)))?;
    let fd = counter.as_raw_fd();
    route_overflows(fd, state.tid)?;
    BY_FD.insert(fd as usize, state);
    if let Err(e) = counter.enable() {
        BY_FD.remove(fd as usize, state);
        return Err(format!("cannot enable the task-clock sampling event: {e}"));
    }
    Ok((Source::Perf(counter), refusal))
}

/// Sends the overflow signals of perf event `fd` to thread `tid` (not the process), as SIGPROF
/// with `si_fd` set.
fn route_overflows(fd: c_int, tid: i32) -> Result<(), String> {
    if fd < 0 || fd as usize >= KEY_LIMIT {
        return Err(format!("perf fd {fd} out of the sampler's table range"));
    }
    let owner = FOwnerEx { kind: F_OWNER_TID, pid: tid };
    // SAFETY: fcntl on a perf fd the caller owns, with the argument type each command expects: a
    // pointer to a live f_owner_ex, a signal number, no argument, file status flags.
    let (own, sig, flags) = unsafe {
        (
            libc::fcntl(fd, F_SETOWN_EX, &owner as *const FOwnerEx),
            libc::fcntl(fd, F_SETSIG, SAMPLE_SIGNAL),
            libc::fcntl(fd, libc::F_GETFL),
        )
    };
    sys("fcntl(F_SETOWN_EX)", own, ())?;
    sys("fcntl(F_SETSIG)", sig, ())?;
    sys("fcntl(F_GETFL)", flags, ())?;
    // SAFETY: as above.
    let rc = unsafe { libc::fcntl(fd, libc::F_SETFL, flags | libc::O_ASYNC) };
    sys("fcntl(F_SETFL, O_ASYNC)", rc, ())
}

fn start_timer(tid: i32, period_ns: u64, own: bool) -> Result<Timer, String> {
    // SAFETY: an all-zero sigevent is valid; the fields used are set below.
    let mut sev: libc::sigevent = unsafe { std::mem::zeroed() };
    sev.sigev_notify = libc::SIGEV_THREAD_ID;
    sev.sigev_signo = SAMPLE_SIGNAL;
    sev.sigev_notify_thread_id = tid;
    sev.sigev_value.sival_ptr = ((MAGIC << 32) | tid as u64) as usize as *mut c_void;
    let mut id: libc::timer_t = null_mut();
    // The calling thread's CPU clock, or `tid`'s (a thread of this process: its clock id is allowed).
    let clock = if own { libc::CLOCK_THREAD_CPUTIME_ID } else { tid_cpu_clock(tid) };
    // SAFETY: valid sigevent and out-pointer; `clock` is a CPU clock of a thread of this process.
    let rc = unsafe { libc::timer_create(clock, &mut sev, &mut id) };
    sys("timer_create(thread CPU clock)", rc, ())?;
    let timer = Timer(id);
    set_timer(&timer, period_ns)?;
    Ok(timer)
}

/// Arms `timer` to expire every `period_ns` of its thread's CPU time; 0 disarms it.
fn set_timer(timer: &Timer, period_ns: u64) -> Result<(), String> {
    let ts = libc::timespec { tv_sec: (period_ns / 1_000_000_000) as _, tv_nsec: (period_ns % 1_000_000_000) as _ };
    let spec = libc::itimerspec { it_interval: ts, it_value: ts };
    // SAFETY: `timer.0` is a live timer (deleted only when its Armed is dropped); `spec` is valid;
    // no old value wanted.
    let rc = unsafe { libc::timer_settime(timer.0, 0, &spec, null_mut()) };
    sys("timer_settime", rc, ())
}

impl Drop for Armed {
    /// Stops the source first (no new signals), then retires the keys (late signals are ignored),
    /// then closes the perf fd.
    fn drop(&mut self) {
        let tid = self.state.tid as usize;
        match self.source.take() {
            Some(Source::Perf(mut c)) => {
                let _ = c.disable();
                BY_FD.remove(c.as_raw_fd() as usize, &self.state);
                BY_TID.remove(tid, &self.state);
                drop(c);
            }
            Some(Source::PerfRing(fd)) => {
                if let Some(k) = self.state.inner.lock().kernel.as_mut() {
                    let _ = k.ring.disable();
                }
                BY_FD.remove(fd as usize, &self.state);
                BY_TID.remove(tid, &self.state);
                // No handler can reach the ring now; unmapping and closing are system calls:
                // outside the spin lock.
                let ring = self.state.inner.lock().kernel.take();
                drop(ring);
            }
            Some(Source::Timer(t)) => {
                // SAFETY: the timer was created by `start_timer` and is deleted once, here.
                unsafe { libc::timer_delete(t.0) };
                BY_TID.remove(tid, &self.state);
            }
            None => BY_TID.remove(tid, &self.state),
        }
    }
}

/// Queues SIGPROF to thread `tid` of this process with the tag of our timer signals.
fn queue_signal(tid: i32) -> Result<(), String> {
    let info = ValueInfo {
        signo: SAMPLE_SIGNAL,
        errno: 0,
        code: libc::SI_QUEUE,
        // SAFETY: getpid and getuid cannot fail.
        first: unsafe { libc::getpid() },
        second: unsafe { libc::getuid() } as c_int,
        value: ((MAGIC << 32) | tid as u64) as usize as *mut c_void,
        _pad: [0; 12],
    };
    // SAFETY: rt_tgsigqueueinfo reads a 128-byte siginfo from `info` (ValueInfo is at least that
    // large); SI_QUEUE is a negative code, which any thread may send to a thread of its process.
    let rc = unsafe {
        libc::syscall(libc::SYS_rt_tgsigqueueinfo, libc::getpid(), tid, SAMPLE_SIGNAL, &info as *const ValueInfo)
    };
    if rc != 0 {
        return Err(format!("rt_tgsigqueueinfo: {}", io::Error::last_os_error()));
    }
    Ok(())
}

/// Sends the calling thread a SIGPROF that is not ours (tgkill: no tag, no perf fd), for
/// measuring signal delivery alone: the handler finds no state and passes it on, here to nothing.
pub fn signal_self_untagged() -> Result<(), String> {
    if !*INSTALLED.lock().unwrap_or_else(|e| e.into_inner()) {
        // The default action of SIGPROF would end the process.
        return Err("the SIGPROF handler is not installed".into());
    }
    // SAFETY: getpid and gettid cannot fail; tgkill of the calling thread with SIGPROF, whose
    // handler is installed (checked above; it is never uninstalled).
    let rc = unsafe { libc::syscall(libc::SYS_tgkill, libc::getpid(), libc::syscall(libc::SYS_gettid), SAMPLE_SIGNAL) };
    if rc != 0 {
        return Err(format!("tgkill: {}", io::Error::last_os_error()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lines::{share_a_line, LINE};

    struct Zeros;
    impl ThreadMetrics for Zeros {
        fn read(&mut self, out: &mut [u64]) {
            out.fill(0);
        }
    }

    fn bytes<T>(s: &[T]) -> (usize, usize) {
        (s.as_ptr() as usize, std::mem::size_of_val(s))
    }

    /// What the handler writes at every signal (the state's lock and statistics, its buffers
    /// and credit table) shares no line between two threads' states, nor with the cells.
    #[test]
    fn two_threads_states_share_no_line() {
        let states: Vec<Arc<ThreadState>> = (0..8)
            .map(|i| ThreadState::new(1000 + i, crate::lines::new_cell(), Box::new(Zeros), 3, Some(0), None, 16, None, Arc::default()))
            .collect();
        let mut regions: Vec<(usize, usize)> = Vec::new();
        for s in &states {
            let at = Arc::as_ptr(s) as usize;
            assert_eq!(at % LINE, 0, "a thread state is not line-aligned");
            regions.push((at, std::mem::size_of::<ThreadState>()));
            let g = s.inner.lock();
            for b in [&g.last, &g.cur, &g.delta, &g.stack_last] {
                regions.push(bytes(b));
            }
            regions.push((s.cell as *const AtomicU32 as usize, 4));
        }
        for (i, a) in regions.iter().enumerate() {
            for (j, b) in regions.iter().enumerate().skip(i + 1) {
                // Regions of one state may share lines with each other (one thread writes them).
                let per_state = 6;
                if i / per_state != j / per_state {
                    assert!(!share_a_line(a.0, a.1, b.0, b.1), "regions {i} and {j} of two threads share a line");
                }
            }
        }
    }

    /// Consecutive keys (the tids and fds of the threads of one process) count their handlers on
    /// lines of their own.
    #[test]
    fn consecutive_keys_count_their_handlers_on_separate_lines() {
        for table in [&BY_TID, &BY_FD] {
            for k in 1000..1000 + SHARDS - 1 {
                let (a, b) = (table.handlers(k) as *const AtomicUsize as usize, table.handlers(k + 1) as *const AtomicUsize as usize);
                assert!(!share_a_line(a, 8, b, 8), "keys {k} and {} share a line", k + 1);
            }
        }
    }
}
