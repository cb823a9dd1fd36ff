//! Per-Java-thread metrics on green threads (M-to-N scheduling, as in the research VM `rvm`).
//!
//! Under HotSpot a Java thread is an OS thread, so its metrics are opened on it and count only while
//! it runs. Under an M-to-N scheduler many Java ("green") threads share a few OS threads, the virtual
//! processors (VPs): a per-OS-thread counter (CPU clock, perf_event group) counts whatever the VP
//! runs. This module virtualises such counters per green thread:
//!
//! - Each VP opens the metric set on its own OS thread once ([`Processor::open`], at the VP's start,
//!   on that thread) and installs it in a thread-local slot ([`install`]).
//! - At every thread switch the VP reads its metrics once ([`Processor::switch`]): the outgoing
//!   thread's [`Account`] adds `now − the VP's reading at its switch-in` (kept by the VP), and the
//!   VP remembers `now` for the incoming thread. The same reading serves the quantum-trace record of
//!   that switch ([`Processor::now`]). Only the sum is in the account, so the switches of two VPs
//!   may reach it in either order (rvm delivers them after its scheduler lock: a thread's switch
//!   onto one VP can arrive before its switch away from the other).
//! - A green thread's value at any moment is `acc + (vp_now − vp_at_switch_in)` when it is running on
//!   the VP of the calling OS thread, and just `acc` otherwise: it counts only its own running
//!   intervals, whichever VPs they were on, and never another thread's interval.
//! - [`GreenThreadMetrics`] is a [`ThreadMetrics`], so the recorder uses it unchanged
//!   (`Recorder::register_thread(info, Box::new(GreenThreadMetrics::new(..)))`): its `read` looks up
//!   the calling OS thread's installed processor.
//!
//! Real-time metrics (`wall-time`) are not virtualised: they keep their HotSpot meaning, elapsed time
//! including time the thread was blocked, waiting or descheduled. Their value is the processor's
//! reading on a VP and the shared clock elsewhere ([`GreenConfig`] says which metrics they are and
//! which clock they read).
//!
//! Locking: each account has its own mutex, taken briefly by the VP that switches the thread and by
//! reads of its metrics. A green thread runs on one VP at a time and both happen on that VP, so the
//! lock is uncontended; the switch path never allocates.

use std::cell::RefCell;
use std::sync::{Arc, Mutex, MutexGuard};

use hpm_model::metrics::{Metric, MetricSet, ThreadMetrics};

/// Which metrics of a set are real time (read from a clock shared by all threads, never
/// virtualised), and that clock.
#[derive(Clone)]
pub struct GreenConfig {
    real_time: Arc<[bool]>,
    clock: fn() -> u64,
}

impl GreenConfig {
    /// `real_time[i]`: metric `i` is real time, read with `clock` off a VP (on a VP, from the VP's
    /// reading, which must use the same clock).
    pub fn new(real_time: Vec<bool>, clock: fn() -> u64) -> GreenConfig {
        GreenConfig { real_time: real_time.into(), clock }
    }

    /// The usual configuration: `wall-time` (CLOCK_MONOTONIC) is real time, everything else is
    /// counted per OS thread.
    pub fn for_metrics(metrics: &[Metric]) -> GreenConfig {
        GreenConfig::new(metrics.iter().map(|m| m.name == "wall-time").collect(), crate::counters::monotonic_ns)
    }

    /// Number of metrics.
    pub fn len(&self) -> usize {
        self.real_time.len()
    }

    pub fn is_empty(&self) -> bool {
        self.real_time.is_empty()
    }

    /// Whether metric `i` is real time.
    pub fn is_real_time(&self, i: usize) -> bool {
        self.real_time.get(i).copied().unwrap_or(false)
    }

    /// The shared clock.
    pub fn clock(&self) -> u64 {
        (self.clock)()
    }
}

/// What one green thread has consumed of the per-OS-thread metrics.
pub struct Account {
    state: Mutex<AccountState>,
    /// Real-time values when the account was created (the thread's start).
    created: Vec<u64>,
}

struct AccountState {
    /// Sum of the VP deltas over the thread's finished running intervals.
    acc: Vec<u64>,
    /// Switches onto a VP minus switches away (1 while it runs, whatever order they arrive in).
    on: u32,
}

fn lock(m: &Mutex<AccountState>) -> MutexGuard<'_, AccountState> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Account {
    /// A new thread's account (nothing consumed yet), with the real-time metrics read now.
    pub fn new(cfg: &GreenConfig) -> Arc<Account> {
        let n = cfg.len();
        let now = cfg.clock();
        let created = (0..n).map(|i| if cfg.is_real_time(i) { now } else { 0 }).collect();
        Arc::new(Account { state: Mutex::new(AccountState { acc: vec![0; n], on: 0 }), created })
    }

    /// The accumulated values (finished running intervals only); real-time entries are 0.
    pub fn accumulated(&self) -> Vec<u64> {
        lock(&self.state).acc.clone()
    }

    /// Whether the thread is running on some VP now.
    pub fn is_running(&self) -> bool {
        lock(&self.state).on > 0
    }
}

/// One virtual processor's metric reader and the green thread it runs. Owned by the VP's OS thread
/// (installed in its thread-local slot with [`install`]).
pub struct Processor {
    vp: u32,
    cfg: GreenConfig,
    reader: Box<dyn ThreadMetrics>,
    /// The last reading (at the last switch or [`Processor::read_now`]).
    now: Vec<u64>,
    /// The reading when `current` was switched in.
    switched_in: Vec<u64>,
    current: Option<Arc<Account>>,
}

impl Processor {
    /// A processor reading `reader` (opened on the calling OS thread); reads it once.
    pub fn new(vp: u32, cfg: GreenConfig, mut reader: Box<dyn ThreadMetrics>) -> Processor {
        let mut now = vec![0; cfg.len()];
        reader.read(&mut now);
        let switched_in = now.clone();
        Processor { vp, cfg, reader, now, switched_in, current: None }
    }

    /// Opens `set` on the calling OS thread (the VP's own thread, at its start).
    pub fn open(vp: u32, cfg: GreenConfig, set: &dyn MetricSet) -> Processor {
        Processor::new(vp, cfg, set.open_current_thread())
    }

    pub fn vp(&self) -> u32 {
        self.vp
    }

    pub fn config(&self) -> &GreenConfig {
        &self.cfg
    }

    /// The last reading: the values at the last [`switch`](Self::switch) (or
    /// [`read_now`](Self::read_now)).
    pub fn now(&self) -> &[u64] {
        &self.now
    }

    /// The account of the thread running on this VP, if any.
    pub fn current(&self) -> Option<&Arc<Account>> {
        self.current.as_ref()
    }

    /// Whether `a` is the thread running on this VP.
    pub fn runs(&self, a: &Arc<Account>) -> bool {
        self.current.as_ref().is_some_and(|c| Arc::ptr_eq(c, a))
    }

    /// Reads the processor's metrics now (without switching); returns the reading.
    pub fn read_now(&mut self) -> &[u64] {
        self.reader.read(&mut self.now);
        &self.now
    }

    /// The VP switches from its current thread to `to` (`None`: to nothing, e.g. at the VP's end):
    /// one read; the outgoing thread's account is charged its interval, the incoming one starts
    /// counting at this reading. Returns the reading. `to` may be the current thread (a new
    /// quantum of the same thread). Never allocates.
    pub fn switch(&mut self, to: Option<Arc<Account>>) -> &[u64] {
        self.reader.read(&mut self.now);
        self.switched(to)
    }

    /// [`Processor::switch`] at `now_ns` (`CLOCK_MONOTONIC`, e.g. the time the VM's scheduler
    /// stamped the switch with): wall time is that time, and other clocks built on it read
    /// no clock again.
    pub fn switch_at(&mut self, to: Option<Arc<Account>>, now_ns: u64) -> &[u64] {
        self.reader.read_at(now_ns, &mut self.now);
        self.switched(to)
    }

    /// The accounts' side of a switch, after the reading.
    fn switched(&mut self, to: Option<Arc<Account>>) -> &[u64] {
        if let Some(out) = self.current.take() {
            let mut s = lock(&out.state);
            let AccountState { acc, on } = &mut *s;
            for (i, ((a, &at), &now)) in acc.iter_mut().zip(&self.switched_in).zip(&self.now).enumerate() {
                if !self.cfg.is_real_time(i) {
                    *a = a.wrapping_add(now.saturating_sub(at));
                }
            }
            *on = on.saturating_sub(1);
        }
        if let Some(inc) = &to {
            lock(&inc.state).on += 1;
        }
        self.switched_in.copy_from_slice(&self.now);
        self.current = to;
        &self.now
    }

    /// The values of thread `a` now, as [`GreenThreadMetrics`] reads them on this VP.
    fn value_of(&mut self, a: &Account, out: &mut [u64]) {
        let running_here = self.current.as_ref().is_some_and(|c| std::ptr::eq(&**c, a));
        if running_here {
            self.reader.read(&mut self.now);
        }
        let s = lock(&a.state);
        for (i, o) in out.iter_mut().enumerate() {
            *o = if self.cfg.is_real_time(i) {
                if running_here {
                    self.now[i]
                } else {
                    self.cfg.clock()
                }
            } else if running_here {
                s.acc[i].wrapping_add(self.now[i].saturating_sub(self.switched_in[i]))
            } else {
                s.acc[i]
            };
        }
    }
}

thread_local! {
    /// The processor of the calling OS thread (a VP), if it installed one.
    static PROCESSOR: RefCell<Option<Processor>> = const { RefCell::new(None) };
}

/// Installs `p` as the calling OS thread's processor; returns the one it replaces.
pub fn install(p: Processor) -> Option<Processor> {
    PROCESSOR.with(|s| s.borrow_mut().replace(p))
}

/// Removes the calling OS thread's processor.
pub fn uninstall() -> Option<Processor> {
    PROCESSOR.try_with(|s| s.try_borrow_mut().ok().and_then(|mut s| s.take())).ok().flatten()
}

/// Runs `f` with the calling OS thread's processor; `None` when it has none (not a VP) or when it
/// is in use further up this thread's stack.
pub fn with_processor<R>(f: impl FnOnce(&mut Processor) -> R) -> Option<R> {
    PROCESSOR.try_with(|s| s.try_borrow_mut().ok().and_then(|mut s| s.as_mut().map(f))).ok().flatten()
}

/// A green thread's metrics as a [`ThreadMetrics`]: reads through the calling OS thread's
/// processor (see the module documentation). The first read (the recorder's, at registration)
/// returns the values at the thread's start, so whatever it consumed before it was registered is
/// charged at its first event, as if it had been registered when it started.
pub struct GreenThreadMetrics {
    account: Arc<Account>,
    cfg: GreenConfig,
    fresh: bool,
}

impl GreenThreadMetrics {
    pub fn new(account: Arc<Account>, cfg: GreenConfig) -> GreenThreadMetrics {
        GreenThreadMetrics { account, cfg, fresh: true }
    }
}

impl ThreadMetrics for GreenThreadMetrics {
    fn read(&mut self, out: &mut [u64]) {
        if self.fresh {
            self.fresh = false;
            for (o, &c) in out.iter_mut().zip(&self.account.created) {
                *o = c;
            }
            return;
        }
        if with_processor(|p| p.value_of(&self.account, out)).is_some() {
            return;
        }
        // Not on a VP: the finished intervals, and real time from the clock.
        let s = lock(&self.account.state);
        for (i, o) in out.iter_mut().enumerate() {
            *o = if self.cfg.is_real_time(i) { self.cfg.clock() } else { s.acc.get(i).copied().unwrap_or(0) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    thread_local! {
        /// Fake "CPU" counters of two processors and a fake real-time clock (per test thread: the
        /// processors of a test take turns on its thread).
        static CPU: [Cell<u64>; 2] = const { [Cell::new(0), Cell::new(0)] };
        static CLOCK: Cell<u64> = const { Cell::new(1_000) };
    }

    fn clock() -> u64 {
        CLOCK.with(|c| c.get())
    }

    /// Metrics (cpu, wall) of processor `vp`: its own counter, and the shared clock.
    struct FakeReader(usize);
    impl ThreadMetrics for FakeReader {
        fn read(&mut self, out: &mut [u64]) {
            out[0] = CPU.with(|c| c[self.0].get());
            out[1] = clock();
        }
    }

    fn cfg() -> GreenConfig {
        GreenConfig::new(vec![false, true], clock)
    }

    /// Processor `vp` runs for `d`: its counter and the clock advance.
    fn run(vp: usize, d: u64) {
        CPU.with(|c| c[vp].set(c[vp].get() + d));
        CLOCK.with(|c| c.set(c.get() + d));
    }

    /// Runs `f` on "processor" `vp`: installs it on this OS thread for the duration (the two
    /// processors take turns on the test thread; each keeps its own reader and current thread).
    fn on<R>(procs: &mut [Option<Processor>; 2], vp: usize, f: impl FnOnce() -> R) -> R {
        install(procs[vp].take().unwrap());
        let r = f();
        procs[vp] = uninstall();
        r
    }

    /// The installed processor switches to `to`.
    fn sw(to: Option<Arc<Account>>) {
        with_processor(|p| {
            p.switch(to);
        })
        .expect("a processor is installed");
    }

    fn read(m: &mut GreenThreadMetrics) -> [u64; 2] {
        let mut v = [0; 2];
        m.read(&mut v);
        v
    }

    #[test]
    fn a_migrating_thread_counts_only_its_own_intervals() {
        let cfg = cfg();
        let mut procs = [Some(Processor::new(0, cfg.clone(), Box::new(FakeReader(0)))), Some(Processor::new(1, cfg.clone(), Box::new(FakeReader(1))))];
        let a = Account::new(&cfg);
        let b = Account::new(&cfg);
        let mut ma = GreenThreadMetrics::new(a.clone(), cfg.clone());
        let mut mb = GreenThreadMetrics::new(b.clone(), cfg.clone());
        let start = clock();
        // First read: the values at the thread's start.
        assert_eq!(read(&mut ma), [0, start]);
        assert_eq!(read(&mut mb), [0, start]);

        // vp0 runs A for 10, then B for 5.
        on(&mut procs, 0, || sw(Some(a.clone())));
        run(0, 10);
        assert_eq!(on(&mut procs, 0, || read(&mut ma))[0], 10, "A running on vp0");
        on(&mut procs, 0, || sw(Some(b.clone())));
        run(0, 5);
        assert_eq!(on(&mut procs, 0, || read(&mut ma))[0], 10, "A not running: its interval only");
        assert_eq!(on(&mut procs, 0, || read(&mut mb))[0], 5);

        // A migrates to vp1 (whose counter is far from vp0's) and runs 7 while B runs 3 on vp0.
        run(1, 1000); // vp1 ran something else before (another thread's interval)
        on(&mut procs, 1, || sw(Some(a.clone())));
        run(1, 7);
        run(0, 3);
        assert_eq!(on(&mut procs, 1, || read(&mut ma))[0], 17, "10 on vp0 + 7 on vp1");
        assert_eq!(on(&mut procs, 1, || read(&mut mb))[0], 0, "B runs on vp0, read on vp1: its finished intervals (none yet)");
        assert_eq!(on(&mut procs, 0, || read(&mut mb))[0], 8, "B on its own vp: 5 + 3");
        // Off any VP: finished intervals only; real time from the clock.
        let off = read(&mut ma);
        assert_eq!(off, [10, clock()]);

        // B ends its quantum on vp0 (idle runs), then migrates to vp1 after A.
        on(&mut procs, 0, || sw(None));
        run(0, 50); // idle time on vp0: nobody's
        on(&mut procs, 1, || sw(Some(b.clone())));
        run(1, 4);
        on(&mut procs, 1, || sw(None));
        run(1, 100);
        assert_eq!(a.accumulated(), vec![17, 0]);
        assert_eq!(b.accumulated(), vec![12, 0]);
        assert_eq!(read(&mut ma)[0], 17);
        assert_eq!(read(&mut mb)[0], 12);
        assert!(!a.is_running() && !b.is_running());
        // Wall time is real elapsed time, running or not.
        assert_eq!(read(&mut ma)[1], clock());
        assert!(clock() - start > 17 + 12);
    }

    #[test]
    fn switches_of_two_processors_may_arrive_in_either_order() {
        // rvm delivers switches after its scheduler lock: A's switch onto vp1 can reach the agent
        // before its switch away from vp0.
        let cfg = cfg();
        let mut procs = [Some(Processor::new(0, cfg.clone(), Box::new(FakeReader(0)))), Some(Processor::new(1, cfg.clone(), Box::new(FakeReader(1))))];
        let a = Account::new(&cfg);
        let mut ma = GreenThreadMetrics::new(a.clone(), cfg.clone());
        read(&mut ma);
        on(&mut procs, 0, || sw(Some(a.clone())));
        run(0, 10);
        run(1, 500); // vp1 ran another thread meanwhile
        on(&mut procs, 1, || sw(Some(a.clone())));
        assert!(a.is_running());
        on(&mut procs, 0, || sw(None)); // vp0's switch away from A arrives late
        assert!(a.is_running(), "still on vp1");
        run(1, 4);
        assert_eq!(on(&mut procs, 1, || read(&mut ma))[0], 14, "10 on vp0, 4 so far on vp1");
        on(&mut procs, 1, || sw(None));
        assert!(!a.is_running());
        assert_eq!(a.accumulated(), vec![14, 0]);
    }

    #[test]
    fn the_recorder_charges_green_threads_their_own_intervals() {
        use hpm_model::snapshot::{ClassFilter, RecorderConfig};
        use crate::recorder::{MethodResolver, Recorder, ThreadInfo};

        struct Names;
        impl MethodResolver for Names {
            fn resolve(&mut self, method: u64, _f: &ClassFilter, out: &mut Vec<(u64, Option<String>)>) {
                out.push((method, Some(format!("app.M.m{method}"))));
            }
            fn stack(&mut self, _out: &mut Vec<u64>) {}
        }
        struct Set;
        impl MetricSet for Set {
            fn metrics(&self) -> Vec<Metric> {
                vec![Metric::new("cpu", "ns"), Metric::new("wall-time", "ns")]
            }
            fn open_current_thread(&self) -> Box<dyn ThreadMetrics> {
                Box::new(FakeReader(0))
            }
        }
        let cfg = GreenConfig::new(vec![false, true], clock);
        let rec = Recorder::new(RecorderConfig { filter: ClassFilter { include: vec![hpm_model::snapshot::Glob::new("*")], exclude: vec![] }, ..RecorderConfig::default() }, Box::new(Set));
        let mut procs = [Some(Processor::new(0, cfg.clone(), Box::new(FakeReader(0)))), Some(Processor::new(1, cfg.clone(), Box::new(FakeReader(1))))];
        let (a, b) = (Account::new(&cfg), Account::new(&cfg));
        let ta = rec.register_thread(ThreadInfo { name: "A".into(), ..Default::default() }, Box::new(GreenThreadMetrics::new(a.clone(), cfg.clone())));
        let tb = rec.register_thread(ThreadInfo { name: "B".into(), ..Default::default() }, Box::new(GreenThreadMetrics::new(b.clone(), cfg.clone())));
        let r = &mut Names;
        // A enters m1 on vp0, runs 10, B runs 20 on vp0 meanwhile A waits, A moves to vp1, runs 5, exits.
        on(&mut procs, 0, || {
            sw(Some(a.clone()));
            rec.method_entry(&ta, 1, r);
            run(0, 10);
            sw(Some(b.clone()));
            rec.method_entry(&tb, 2, r);
            run(0, 20);
            rec.method_exit(&tb, 2, false, r);
            sw(None);
        });
        on(&mut procs, 1, || {
            sw(Some(a.clone()));
            run(1, 5);
            rec.method_exit(&ta, 1, false, r);
            sw(None);
        });
        let snap = rec.snapshot();
        let cpu_of = |thread: &str, method: &str| {
            let t = snap.calls.threads.iter().find(|t| t.name == thread).unwrap();
            let n = t.tree.preorder().into_iter().find(|&n| snap.calls.consumers.name(t.tree.consumer(n)) == method).unwrap();
            t.tree.base(n)[0]
        };
        assert_eq!(cpu_of("A", "app.M.m1"), 15, "A's two intervals on two processors");
        assert_eq!(cpu_of("B", "app.M.m2"), 20);
    }
}
