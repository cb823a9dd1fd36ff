//! The context sampler on real threads, real signals and real perf fds.
//!
//! Every amount is checked against the thread's own CPU clock (`cpu-time` is what the sampler
//! credits; task-clock would include hypervisor steal). Work is measured in CPU time, so a loaded
//! machine stretches the tests but does not change what they expect. The tests run one at a time:
//! several CPU-bound tests at once on a 2-core machine would starve the wall sampler.

#[path = "support/spin.rs"]
mod spin;
use spin::{spin_cpu, MS};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{mpsc, Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use hpm_collectors::counters::{probe, thread_cpu_ns, CounterOptions, Metrics, ThreadCpuClock, WallClock};
use hpm_model::metrics::MetricSet;
use hpm_collectors::sampling::{ContextSampler, ProbeCode, SampledThread, SamplerConfig, SignalSource, PROBE_CODE_OWNER};

const CPU: usize = 0;
const WALL: usize = 1;

fn one_at_a_time() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

/// A context cell that lives as long as the process, as the probes' native memory does.
fn cell(context: u32) -> &'static AtomicU32 {
    Box::leak(Box::new(AtomicU32::new(context)))
}

fn clocks() -> Arc<dyn MetricSet> {
    Arc::new(Metrics::new().with(ThreadCpuClock).with(WallClock))
}

fn sampler(config: SamplerConfig) -> Arc<ContextSampler> {
    let s = ContextSampler::new(clocks(), config).expect("sampler opens");
    eprintln!("sampler: {}", s.describe());
    s
}


/// Credits per owner and context, summed over drains.
#[derive(Debug, Default)]
struct Credits(BTreeMap<(u32, u32), Vec<u64>>);

impl Credits {
    /// What `t` has credited and not yet drained.
    fn of(t: &SampledThread) -> Credits {
        let mut c = Credits::default();
        c.drain(t);
        c
    }
    fn drain(&mut self, t: &SampledThread) {
        t.drain(&mut |owner, c, d| {
            let e = self.0.entry((owner, c)).or_insert_with(|| vec![0; d.len()]);
            for (s, v) in e.iter_mut().zip(d) {
                *s += v;
            }
        });
    }
    /// The thread's own context's credit.
    fn get(&self, context: u32, metric: usize) -> u64 {
        self.owned(0, context, metric)
    }
    fn owned(&self, owner: u32, context: u32, metric: usize) -> u64 {
        self.0.get(&(owner, context)).map_or(0, |v| v[metric])
    }
    fn total(&self, metric: usize) -> u64 {
        self.0.values().map(|v| v[metric]).sum()
    }
}

/// A run on the calling thread: sampled from `start_current_thread` to `stop`, with the CPU time
/// it used in that span and what was credited.
struct Run {
    thread: Arc<SampledThread>,
    credits: Credits,
    cpu_used: u64,
}

/// Starts sampling the calling thread in context `first`, runs `work` (which stores contexts into
/// the cell), stops and drains.
fn sampled_run(s: &Arc<ContextSampler>, first: u32, work: impl FnOnce(&AtomicU32, &SampledThread)) -> Run {
    let c = cell(first);
    let c0 = thread_cpu_ns();
    let thread = s.start_current_thread(c).unwrap();
    work(c, &thread);
    thread.stop();
    let cpu_used = thread_cpu_ns() - c0;
    let credits = Credits::of(&thread);
    eprintln!("{credits:?}; {:?}", thread.stats());
    Run { thread, credits, cpu_used }
}

fn assert_close(what: &str, got: u64, want: u64, tolerance: f64) {
    let err = (got as f64 - want as f64).abs() / want as f64;
    assert!(err <= tolerance, "{what}: credited {got} ns, expected {want} ns (off by {:.2}%)", err * 100.0);
}

#[test]
fn cpu_time_is_split_between_contexts_in_proportion_to_their_work() {
    let _one = one_at_a_time();
    let s = sampler(SamplerConfig::default());
    assert!(s.describe().starts_with("perf task-clock overflow signals"), "{}", s.describe());
    let Run { thread: t, credits, cpu_used } = sampled_run(&s, 1, |c, t| {
        assert_eq!(t.source(), Some(SignalSource::PerfTaskClock));
        assert!(s.start_current_thread(cell(0)).unwrap_err().contains("already sampled"));
        // 50 rounds of 15 ms in context 1 and 5 ms in context 2: long against the 1 ms period, so
        // the estimate's error is that of the 100 boundaries, each less than one period.
        for _ in 0..50 {
            c.store(1, Ordering::Relaxed);
            spin_cpu(15);
            c.store(2, Ordering::Relaxed);
            spin_cpu(5);
        }
    });
    let (one, two) = (credits.get(1, CPU), credits.get(2, CPU));
    let st = t.stats();
    // Only the signals split the time: without them everything would go to the last context.
    assert!(st.samples >= 500, "about 1000 samples expected in 1 s of CPU: {st:?}");
    let ratio = one as f64 / two as f64;
    assert!((2.7..=3.3).contains(&ratio), "ratio {ratio:.3} (context 1 {one} ns, context 2 {two} ns)");
    assert_close("total cpu-time", credits.total(CPU), cpu_used, 0.02);
    assert!(s.threads().is_empty(), "a stopped thread leaves the list");
}

/// A carrier thread running logical threads in turn (virtual threads mounted on it): credits go
/// to the owner running when they are taken, each in its own cell's context, and the carrier's
/// own contexts get only what it ran itself.
#[test]
fn a_retargeted_thread_credits_the_logical_thread_it_runs() {
    let _one = one_at_a_time();
    for settle in [false, true] {
        let s = sampler(SamplerConfig::default());
        let (a, b) = (cell(7), cell(7)); // the same context id in two logical threads
        let Run { credits, cpu_used, .. } = sampled_run(&s, 1, |_own, t| {
            for _ in 0..20 {
                t.retarget(a, 1, settle);
                spin_cpu(10);
                a.store(8, Ordering::Relaxed);
                spin_cpu(5);
                a.store(7, Ordering::Relaxed);
                t.retarget(b, 2, settle);
                spin_cpu(5);
                t.retarget(a, 0, settle); // owner 0: the thread's own cell, whatever cell is given
                spin_cpu(5);
            }
        });
        let (a7, a8, b7, own) =
            (credits.owned(1, 7, CPU), credits.owned(1, 8, CPU), credits.owned(2, 7, CPU), credits.get(1, CPU));
        let total = credits.total(CPU);
        eprintln!("settle={settle}: a7 {a7} a8 {a8} b7 {b7} own {own} of {total}");
        assert_close("total cpu-time", total, cpu_used, 0.02);
        // Shares 10 : 5 : 5 : 5 of the work, each boundary off by at most a period when sampled.
        for (what, got, share) in [("a/7", a7, 0.4), ("a/8", a8, 0.2), ("b/7", b7, 0.2), ("own", own, 0.2)] {
            let f = got as f64 / total as f64;
            assert!((f - share).abs() < 0.05, "settle={settle}: {what} got {:.3} of the CPU, expected {share}", f);
        }
        assert!(credits.0.keys().all(|&(o, c)| matches!((o, c), (1, 7) | (1, 8) | (2, 7) | (0, 1))), "{credits:?}");
    }
}

#[test]
fn a_blocked_thread_gets_wall_time_from_the_wall_sampler() {
    let _one = one_at_a_time();
    let s = sampler(SamplerConfig::default());
    let mut slept = 0;
    let Run { thread: t, credits, .. } = sampled_run(&s, 5, |c, _| {
        let start = Instant::now();
        std::thread::sleep(Duration::from_millis(300));
        slept = start.elapsed().as_nanos() as u64;
        c.store(6, Ordering::Relaxed);
        spin_cpu(50);
    });
    let st = t.stats();
    eprintln!("slept {} ms", slept / MS);
    // The wall sampler settles every 10 ms: context 5 gets the sleep up to its last settle.
    let wall5 = credits.get(5, WALL);
    assert!(wall5 >= 300 * MS - 2 * 10 * MS && wall5 <= slept + 2 * MS, "wall-time of context 5: {wall5} ns");
    assert!(credits.get(5, CPU) < 2 * MS, "cpu-time of the sleeping context: {} ns", credits.get(5, CPU));
    assert!(credits.get(6, CPU) >= 45 * MS, "cpu-time of the spinning context: {} ns", credits.get(6, CPU));
    // A sleeping thread costs the wall sampler one clock read per settle.
    assert!(st.idle_settles >= 15, "{st:?}");
}

/// "Probe code" for the test: whatever the thread runs while the flag is up.
struct Flagged(&'static AtomicBool);

impl ProbeCode for Flagged {
    unsafe fn contains(&self, _ucontext: *mut std::ffi::c_void, _pc: u64) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// With the probes' code known, a CPU-time signal that interrupts it credits the interval under
/// PROBE_CODE_OWNER and no context gets it; the wall sampler credits a running thread's wall time
/// only, so the probes' CPU time reaches no context through it either.
#[test]
fn samples_in_the_probes_code_are_credited_to_no_context() {
    let _one = one_at_a_time();
    static IN_PROBES: AtomicBool = AtomicBool::new(false);
    let s = sampler(SamplerConfig::default());
    assert!(s.set_probe_code(Arc::new(Flagged(&IN_PROBES))));
    assert!(!s.set_probe_code(Arc::new(Flagged(&IN_PROBES))), "set once");
    let Run { thread: t, credits, cpu_used } = sampled_run(&s, 1, |c, _| {
        // 10 rounds: 30 ms "in the probes" in context 1, then 30 ms of the program's own in 2.
        for _ in 0..10 {
            c.store(1, Ordering::Relaxed);
            IN_PROBES.store(true, Ordering::Relaxed);
            spin_cpu(30);
            IN_PROBES.store(false, Ordering::Relaxed);
            c.store(2, Ordering::Relaxed);
            spin_cpu(30);
        }
    });
    let st = t.stats();
    let probes = credits.owned(PROBE_CODE_OWNER, 0, CPU);
    // Each of the 20 changes can move less than one 1 ms period either way.
    assert_close("cpu-time in the probes' code", probes, cpu_used / 2, 0.1);
    assert_close("cpu-time of context 2", credits.get(2, CPU), cpu_used / 2, 0.1);
    assert!(credits.get(1, CPU) < 2 * MS, "context 1 ran only 'probe code': {} ns of cpu-time credited", credits.get(1, CPU));
    assert_close("total cpu-time", credits.total(CPU), cpu_used, 0.02);
    assert!(st.in_probe_code >= 200, "about 300 of the samples interrupted the 'probes': {st:?}");
    assert!(st.running_settles > 0 && credits.get(1, WALL) > 0, "the wall sampler credits a running thread's wall time: {st:?}");
}

#[test]
fn a_window_credits_only_what_was_used_between_rebase_and_settle() {
    let _one = one_at_a_time();
    let s = sampler(SamplerConfig::default());
    // On the thread itself.
    let c = cell(1);
    let t = s.start_current_thread(c).unwrap();
    spin_cpu(60); // before the window: sampled into context 1, then forgotten
    c.store(2, Ordering::Relaxed);
    t.rebase();
    let c0 = thread_cpu_ns();
    spin_cpu(100);
    let c1 = thread_cpu_ns();
    t.settle();
    let window = Credits::of(&t);
    eprintln!("window: {window:?}");
    assert_eq!(window.0.keys().copied().collect::<Vec<_>>(), [(0, 2)], "only the window's context");
    assert_close("window cpu-time", window.get(2, CPU), c1 - c0, 0.02);
    t.stop();

    // From another thread, while the sampled thread is blocked at both ends of the window.
    let (to_worker, from_main) = mpsc::channel::<()>();
    let (to_main, from_worker) = mpsc::channel();
    let s2 = s.clone();
    let worker = std::thread::spawn(move || {
        let c = cell(7);
        let t = s2.start_current_thread(c).unwrap();
        spin_cpu(40);
        to_main.send((t.clone(), 0)).unwrap();
        from_main.recv().unwrap(); // main rebases now
        c.store(8, Ordering::Relaxed);
        let c0 = thread_cpu_ns();
        spin_cpu(80);
        to_main.send((t.clone(), thread_cpu_ns() - c0)).unwrap();
        from_main.recv().unwrap(); // main settles and drains now
        t.stop();
    });
    let (t, _) = from_worker.recv().unwrap();
    t.rebase();
    to_worker.send(()).unwrap();
    let (_, used) = from_worker.recv().unwrap();
    t.settle();
    let window = Credits::of(&t);
    to_worker.send(()).unwrap();
    worker.join().unwrap();
    eprintln!("window from another thread: {window:?}, worker used {} ns in it", used);
    assert!(window.get(7, CPU) < MS, "context 7 was blocked in the window: {window:?}");
    assert_close("window cpu-time of context 8", window.get(8, CPU), used, 0.02);
}

#[test]
fn settling_and_draining_from_another_thread_loses_nothing() {
    let _one = one_at_a_time();
    let s = sampler(SamplerConfig::default());
    let (tx, rx) = mpsc::channel();
    let workers: Vec<_> = (0..3u32)
        .map(|w| {
            let s = s.clone();
            let tx = tx.clone();
            std::thread::spawn(move || {
                let c = cell(w * 100);
                let c0 = thread_cpu_ns();
                let t = s.start_current_thread(c).unwrap();
                tx.send(Some(t.clone())).unwrap();
                for i in 0..300 {
                    c.store(w * 100 + i % 10, Ordering::Relaxed);
                    spin_cpu(1);
                }
                t.stop();
                (t, thread_cpu_ns() - c0)
            })
        })
        .collect();
    drop(tx);
    // The controller: settle and drain every thread in a loop while they run and stop.
    let mut threads = Vec::new();
    let mut credits: Vec<Credits> = Vec::new();
    let mut rounds = 0u64;
    loop {
        match rx.try_recv() {
            Ok(Some(t)) => {
                threads.push(t);
                credits.push(Credits::default());
            }
            Ok(None) => {}
            Err(mpsc::TryRecvError::Empty) => {}
            Err(mpsc::TryRecvError::Disconnected) if threads.iter().all(|t| t.is_stopped()) => break,
            Err(mpsc::TryRecvError::Disconnected) => {}
        }
        for (t, c) in threads.iter().zip(&mut credits) {
            t.settle();
            c.drain(t);
        }
        rounds += 1;
    }
    let mut used = Vec::new();
    for w in workers {
        used.push(w.join().unwrap());
    }
    for (t, c) in threads.iter().zip(&mut credits) {
        c.drain(t);
        let (_, cpu) = used.iter().find(|(u, _)| Arc::ptr_eq(u, t)).unwrap();
        eprintln!("thread {}: credited {} ns of {} ns over {} contexts; {:?}", t.tid(), c.total(CPU), cpu, c.0.len(), t.stats());
        assert_close("a thread's cpu-time", c.total(CPU), *cpu, 0.02);
        assert!(c.0.len() >= 10, "all ten contexts credited: {:?}", c.0.keys());
    }
    eprintln!("{rounds} controller rounds");
    assert_eq!(threads.len(), 3);
    assert!(s.threads().is_empty());
}

#[test]
fn the_posix_timer_fallback_samples_at_tick_resolution() {
    let _one = one_at_a_time();
    let s = sampler(SamplerConfig { source: SignalSource::PosixCpuTimer, ..SamplerConfig::default() });
    let d = s.describe();
    assert!(d.starts_with("POSIX CPU-time timer") && d.contains("tick resolution:"), "{d}");
    let Run { thread: t, credits, cpu_used } = sampled_run(&s, 9, |c, t| {
        assert_eq!(t.source(), Some(SignalSource::PosixCpuTimer));
        spin_cpu(200);
        c.store(10, Ordering::Relaxed);
        spin_cpu(100);
    });
    let st = t.stats();
    // A 1 ms timer fires at most once per tick (10 ms at HZ=100): about 30 samples in 300 ms.
    assert!(st.samples >= 10, "{st:?}");
    if d.contains("HZ=100,") {
        assert!(st.samples <= 40, "more samples than ticks: {st:?}");
    }
    assert_close("total cpu-time", credits.total(CPU), cpu_used, 0.02);
    let ratio = credits.get(9, CPU) as f64 / credits.get(10, CPU) as f64;
    assert!((1.5..=2.5).contains(&ratio), "ratio {ratio:.2} of 200 ms to 100 ms at tick resolution");
}

/// Held off, a thread gets no signal and the wall sampler no round; let run again, both resume.
fn held_off_and_resumed(source: SignalSource) {
    let s = sampler(SamplerConfig { source, ..SamplerConfig::default() });
    s.set_active(false).unwrap();
    assert!(!s.is_active());
    let Run { thread: t, credits, .. } = sampled_run(&s, 1, |c, t| {
        // Started while held off: it follows the others.
        spin_cpu(100);
        std::thread::sleep(Duration::from_millis(50));
        let held = t.stats();
        assert_eq!((held.signals, held.samples, held.settles), (0, 0, 0), "held off: {held:?}");
        t.rebase();
        s.set_active(true).unwrap();
        c.store(2, Ordering::Relaxed);
        spin_cpu(100);
        std::thread::sleep(Duration::from_millis(50));
        let resumed = t.stats();
        assert!(resumed.samples >= 5, "signals again: {resumed:?}");
        assert!(resumed.settles >= 5, "wall rounds again (every 10 ms): {resumed:?}");
        s.set_active(false).unwrap(); // returns after a wall round under way has ended
        let off = t.stats();
        c.store(3, Ordering::Relaxed);
        spin_cpu(100);
        std::thread::sleep(Duration::from_millis(50));
        let later = t.stats();
        assert_eq!((later.signals, later.settles), (off.signals, off.settles), "held off again: {later:?}");
    });
    // The rebase forgot context 1's time; context 3's comes from the final settle at stop only.
    assert_eq!(credits.get(1, CPU), 0, "{credits:?}");
    assert!(credits.get(2, CPU) >= 90 * MS, "{credits:?}");
    assert!(t.stats().samples >= 5);
}

#[test]
fn a_held_off_sampler_sends_no_signal_and_makes_no_round_until_let_run_perf() {
    let _one = one_at_a_time();
    held_off_and_resumed(SignalSource::PerfTaskClock);
}

#[test]
fn a_held_off_sampler_sends_no_signal_and_makes_no_round_until_let_run_posix_timer() {
    let _one = one_at_a_time();
    held_off_and_resumed(SignalSource::PosixCpuTimer);
}

/// Writes one byte per 4 KiB page of a fresh allocation of `len` bytes: one page fault each (a
/// large zeroed allocation is a fresh mapping; with transparent huge pages set to `always` there
/// would be one fault per 2 MiB instead).
fn touch_fresh_pages(len: usize) {
    let mut v = vec![0u8; len];
    for off in (0..len).step_by(4096) {
        v[off] = 1;
    }
    std::hint::black_box(&v);
}

fn open_fds() -> usize {
    std::fs::read_dir("/proc/self/fd").unwrap().count()
}

#[test]
fn a_perf_counter_is_credited_too() {
    let _one = one_at_a_time();
    let p = probe(&["page-faults"], CounterOptions::default());
    assert!(p.refusals.is_empty(), "{:?}", p.refusals.iter().map(|r| r.to_string()).collect::<Vec<_>>());
    let stats = p.spec.stats().clone();
    let metrics: Arc<dyn MetricSet> = Arc::new(Metrics::new().with(ThreadCpuClock).with(WallClock).with(p.spec));
    let s = ContextSampler::new(metrics, SamplerConfig::default()).unwrap();
    let names: Vec<_> = s.metrics().iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["cpu-time", "wall-time", "page-faults"]);
    const FAULTS: usize = 2;
    // An independent count of the same thread's faults.
    let reference = probe(&["page-faults"], CounterOptions::default()).spec;
    let mut r = reference.try_open_current_thread().unwrap();
    let mut before = [0u64];
    let mut after = [0u64];
    let fds = open_fds();
    let c = cell(1);
    r.read_into(&mut before);
    let t = s.start_current_thread(c).unwrap();
    touch_fresh_pages(64 << 20); // 16384 faults
    c.store(2, Ordering::Relaxed);
    spin_cpu(30);
    t.stop();
    r.read_into(&mut after);
    assert_eq!(open_fds(), fds, "stop closes the thread's perf fds");
    let credits = Credits::of(&t);
    let (total, one) = (credits.total(FAULTS), credits.get(1, FAULTS));
    eprintln!("page faults: {one} to context 1 of {total} credited, {} counted; {:?}", after[0] - before[0], t.stats());
    assert!(total >= 1000, "{total} faults credited (transparent huge pages set to `always`?)");
    let counted = after[0] - before[0];
    assert!(total <= counted && counted - total < 200, "credited {total} of {counted} faults");
    assert!(one as f64 >= 0.85 * total as f64, "the faulting context gets the faults: {one} of {total}");
    assert_eq!(stats.snapshot().groups_failed, 0);
}

#[test]
fn a_full_table_defers_credits_without_losing_them() {
    let _one = one_at_a_time();
    let s = sampler(SamplerConfig { contexts_per_thread: 4, ..SamplerConfig::default() });
    let Run { thread: t, credits, cpu_used } = sampled_run(&s, 0, |c, _| {
        for i in 0..100 {
            c.store(i % 12, Ordering::Relaxed);
            spin_cpu(2);
        }
    });
    let st = t.stats();
    assert!(st.deferred > 0, "twelve contexts in a table of four: {st:?}");
    assert!(credits.0.len() <= 5, "four, plus the final deferred credit made at the drain: {:?}", credits.0.keys());
    assert_close("total cpu-time", credits.total(CPU), cpu_used, 0.02);
}

#[test]
fn switching_credits_each_context_exactly_what_it_used() {
    let _one = one_at_a_time();
    // A table of four for twelve contexts: in exact mode it grows rather than deferring.
    let s = sampler(SamplerConfig { contexts_per_thread: 4, ..SamplerConfig::default() });
    let mut used: BTreeMap<u32, u64> = BTreeMap::new();
    let Run { thread: t, credits, cpu_used } = sampled_run(&s, 0, |_, t| {
        // Visits of 200 µs, a fifth of the 1 ms sampling period: sampling alone would credit each
        // context about ten 1 ms samples out of 50 visits, give or take a third.
        for i in 0..600u32 {
            let context = 1 + i % 12;
            t.switch_to(context);
            let c0 = thread_cpu_ns();
            let end = c0 + 200_000;
            while thread_cpu_ns() < end {}
            *used.entry(context).or_default() += thread_cpu_ns() - c0;
            t.switch_to(0);
        }
    });
    let st = t.stats();
    assert_eq!(st.deferred, 0, "{st:?}");
    assert!(st.switches >= 1200, "{st:?}");
    for (&context, &want) in &used {
        // Each visit's credit also carries the time between the switch and the clock reads around
        // the visit (a few µs of 200): well under 3%.
        assert_close(&format!("context {context}"), credits.get(context, CPU), want, 0.03);
    }
    assert_close("total cpu-time", credits.total(CPU), cpu_used, 0.02);
}

#[test]
fn a_queued_signal_is_handled_like_a_sample() {
    let _one = one_at_a_time();
    let s = sampler(SamplerConfig { wall_period_ns: 0, ..SamplerConfig::default() });
    assert!(s.describe().contains("no wall sampler"));
    let c = cell(3);
    let t = s.start_current_thread(c).unwrap();
    let before = t.stats().samples;
    for _ in 0..100 {
        t.signal().unwrap();
    }
    assert!(t.stats().samples >= before + 100, "{:?}", t.stats());
    t.stop();
    assert!(t.signal().is_err(), "a stopped thread has no source");
}

#[test]
fn a_thread_that_ends_without_stop_is_reaped_by_the_wall_sampler() {
    let _one = one_at_a_time();
    let s = sampler(SamplerConfig::default());
    let fds = open_fds();
    let s2 = s.clone();
    let started = Instant::now();
    let (t, cpu) = std::thread::spawn(move || {
        let t = s2.start_current_thread(cell(4)).unwrap();
        spin_cpu(30);
        (t, thread_cpu_ns())
    })
    .join()
    .unwrap();
    let lived = started.elapsed().as_nanos() as u64;
    std::thread::sleep(Duration::from_millis(100));
    assert!(t.is_stopped() && s.threads().is_empty(), "reaped within a few wall periods: {t:?}");
    assert_eq!(open_fds(), fds, "its perf fd is closed");
    let credits = Credits::of(&t);
    eprintln!("lived {} ms; {credits:?}", lived / MS);
    // Credited up to its last sample or settle (it used a little more CPU after `cpu` was read,
    // on its way out).
    assert!(credits.get(4, CPU).abs_diff(cpu) < 2 * MS, "{credits:?} of {cpu} ns");
    // Wall time stops at its end (at its last credit before that).
    let wall = credits.get(4, WALL);
    assert!(wall <= lived, "no wall time after the thread ended: {credits:?}, lived {lived} ns");
}
