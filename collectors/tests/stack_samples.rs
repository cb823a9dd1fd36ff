//! Stack samples from the signal handler into the recorder, on real threads, real signals and
//! real perf fds, under load.
//!
//! The walker here reads a stack that each worker publishes in atomics (as a VM's frames are in
//! memory the handler can read). The test binary's allocator counts allocations made while SIGPROF
//! is blocked on the allocating thread, which in these threads is only ever inside the sampling
//! handler: the handler path must make none. A drainer resolves samples into the recorder while
//! the workers run, and holds a ring's drain side for a long stretch: a handler that waited on
//! anything the drain side holds would stop its worker, and the test checks that workers keep
//! going.

#[path = "support/spin.rs"]
mod spin;
use spin::{spin_cpu, MS};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hpm_model::arcflow::Tree;
use hpm_collectors::counters::{thread_cpu_ns, Metrics, ThreadCpuClock, WallClock};
use hpm_model::metrics::{Metric, MetricSet};
use hpm_model::snapshot::{ClassFilter, Form, RecorderConfig};
use hpm_collectors::recorder::{MethodResolver, Recorder, ThreadInfo};
use hpm_model::sampling::Tier;
use hpm_collectors::sampling::{CodeAt, ContextSampler, RawFrame, SampledThread, SamplerConfig, StackConfig, StackTrigger, StackWalker};

/// Counts allocations made with SIGPROF blocked (inside the sampling handler, in this binary).
struct CountingAlloc;

static IN_HANDLER_ALLOCS: AtomicU64 = AtomicU64::new(0);
static CHECK_ALLOCS: AtomicBool = AtomicBool::new(false);

fn sigprof_blocked() -> bool {
    // SAFETY: a query of the calling thread's mask into a zeroed, valid sigset.
    unsafe {
        let mut old: libc::sigset_t = std::mem::zeroed();
        libc::pthread_sigmask(libc::SIG_BLOCK, std::ptr::null(), &mut old) == 0 && libc::sigismember(&old, libc::SIGPROF) == 1
    }
}

// SAFETY: forwards to the system allocator; the check only reads the signal mask.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if CHECK_ALLOCS.load(Ordering::Relaxed) && sigprof_blocked() {
            IN_HANDLER_ALLOCS.fetch_add(1, Ordering::Relaxed);
        }
        // SAFETY: the caller's contract, forwarded.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, forwarded.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

const MAIN: u64 = 1;
const HEAVY: u64 = 2;
const LIGHT: u64 = 3;
const JDK: u64 = 4;

/// A worker's stack as its handler reads it: `depth` method keys, outermost first.
struct PublishedStack {
    keys: [AtomicU64; 4],
    depth: AtomicUsize,
}

impl PublishedStack {
    const fn new() -> PublishedStack {
        PublishedStack { keys: [const { AtomicU64::new(0) }; 4], depth: AtomicUsize::new(0) }
    }

    fn set(&self, keys: &[u64]) {
        self.depth.store(0, Ordering::Release);
        for (k, v) in self.keys.iter().zip(keys) {
            k.store(*v, Ordering::Relaxed);
        }
        self.depth.store(keys.len(), Ordering::Release);
    }
}

/// One published stack per worker; a worker's walker handle is its index.
static STACKS: [PublishedStack; 4] = [const { PublishedStack::new() }; 4];

/// Walks a [`PublishedStack`]: 0 frames (a failed walk) while it is being changed.
struct AtomicsWalker;

impl StackWalker for AtomicsWalker {
    /// Says what a VM's walker would at the program counter: light runs inlined into main's C1
    /// code, everything else in the innermost frame's own C2 code.
    unsafe fn walk(&self, thread: usize, _ucontext: *mut std::ffi::c_void, _pc: u64, out: &mut [RawFrame], code: &mut CodeAt) -> i32 {
        let stack = &STACKS[thread];
        let depth = stack.depth.load(Ordering::Acquire).min(out.len());
        for (i, o) in out.iter_mut().take(depth).enumerate() {
            *o = RawFrame::new(i as i32, stack.keys[depth - 1 - i].load(Ordering::Relaxed));
        }
        if depth > 0 {
            *code = if out[0].method == LIGHT { CodeAt::compiled(1, Tier::C1) } else { CodeAt::compiled(0, Tier::C2) };
        }
        depth as i32
    }
}

struct Names;

impl MethodResolver for Names {
    fn resolve(&mut self, method: u64, filter: &ClassFilter, out: &mut Vec<(u64, Option<String>)>) {
        let name = match method {
            MAIN => "app.Main.main()",
            HEAVY => "app.Main.heavy()",
            LIGHT => "app.Main.light()",
            JDK => "java.lang.Math.sqrt()",
            _ => "unknown.Method.m()",
        };
        let class = name.rsplit_once('.').unwrap().0;
        out.push((method, filter.accepts(class).then(|| name.to_string())));
    }
    fn stack(&mut self, _out: &mut Vec<u64>) {}
}


/// What one worker did: CPU time in each phase, by its own clock.
#[derive(Debug, Default, Clone, Copy)]
struct Work {
    heavy_ns: u64,
    light_ns: u64,
}

/// A worker's sampler and recorder handles.
type Started = (Arc<SampledThread>, Arc<hpm_collectors::recorder::ThreadRecorder>);

#[test]
fn stack_samples_from_the_signal_handler_reach_the_recorder_without_allocating_or_waiting() {
    let metrics: Arc<dyn MetricSet> = Arc::new(Metrics::new().with(ThreadCpuClock).with(WallClock));
    let stacks = StackConfig { walker: Arc::new(AtomicsWalker), max_depth: 64, ring_words: 4096, every: 1, trigger: StackTrigger::CpuTime, kernel: false };
    let config = SamplerConfig { cpu_period_ns: MS, wall_period_ns: 10 * MS, ..SamplerConfig::default() };
    let sampler = ContextSampler::with_stacks(metrics.clone(), config, Some(stacks)).expect("sampler opens");
    eprintln!("sampler: {}", sampler.describe());
    let metric_list: Vec<Metric> = metrics.metrics();
    let recorder = Arc::new(Recorder::new(
        RecorderConfig { stack_samples: Some(metric_list), ..RecorderConfig::default() },
        Box::new(Metrics::new().with(WallClock)),
    ));

    const WORKERS: usize = 2;
    let progress: Arc<[AtomicU64; WORKERS]> = Arc::new([const { AtomicU64::new(0) }; WORKERS]);
    let done = Arc::new(AtomicBool::new(false));
    let started: Arc<Mutex<Vec<Started>>> = Arc::new(Mutex::new(Vec::new()));
    CHECK_ALLOCS.store(true, Ordering::Relaxed);
    let workers: Vec<_> = (0..WORKERS)
        .map(|w| {
            let (sampler, recorder, progress, started) = (sampler.clone(), recorder.clone(), progress.clone(), started.clone());
            std::thread::spawn(move || {
                let t = recorder.register_current_thread(ThreadInfo { name: format!("worker-{w}"), ..ThreadInfo::default() });
                let cell: &'static AtomicU32 = Box::leak(Box::new(AtomicU32::new(0)));
                STACKS[w].set(&[MAIN]);
                let st = sampler.start_current_thread_walked(cell, w).expect("thread sampled");
                started.lock().unwrap().push((st.clone(), t));
                let mut work = Work::default();
                // 3 ms heavy (through a JDK frame the filter leaves out), 1 ms light, 150 rounds.
                for _ in 0..150 {
                    STACKS[w].set(&[MAIN, HEAVY, JDK]);
                    let c0 = thread_cpu_ns();
                    spin_cpu(3);
                    let c1 = thread_cpu_ns();
                    STACKS[w].set(&[MAIN, LIGHT]);
                    spin_cpu(1);
                    let c2 = thread_cpu_ns();
                    work.heavy_ns += c1 - c0;
                    work.light_ns += c2 - c1;
                    progress[w].fetch_add(1, Ordering::Relaxed);
                }
                STACKS[w].set(&[MAIN]);
                st.stop();
                (work, st.stats())
            })
        })
        .collect();

    // The drainer: resolves samples into the recorder while the workers run. Once, it holds one
    // ring's drain side for 300 ms: the worker must keep going meanwhile.
    let drainer = {
        let (started, recorder, progress, done) = (started.clone(), recorder.clone(), progress.clone(), done.clone());
        std::thread::spawn(move || {
            let mut held = false;
            let mut progress_while_held = 0;
            while !done.load(Ordering::Acquire) {
                let threads = started.lock().unwrap().clone();
                for (st, t) in &threads {
                    let mut names = Names;
                    st.drain_stacks(&mut |weights, site, frames| {
                        recorder.add_stack_sample(t, frames, site, weights, &mut names);
                        if !held && progress[0].load(Ordering::Relaxed) > 20 {
                            held = true;
                            let before = progress[0].load(Ordering::Relaxed);
                            std::thread::sleep(Duration::from_millis(300));
                            progress_while_held = progress[0].load(Ordering::Relaxed) - before;
                        }
                    });
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            progress_while_held
        })
    };
    let results: Vec<_> = workers.into_iter().map(|h| h.join().unwrap()).collect();
    done.store(true, Ordering::Release);
    let progress_while_held = drainer.join().unwrap();
    CHECK_ALLOCS.store(false, Ordering::Relaxed);
    for (st, t) in started.lock().unwrap().iter() {
        st.drain_stacks(&mut |weights, site, frames| recorder.add_stack_sample(t, frames, site, weights, &mut Names));
    }

    assert_eq!(IN_HANDLER_ALLOCS.load(Ordering::Relaxed), 0, "allocations inside the signal handler");
    assert!(progress_while_held >= 5, "worker 0 made {progress_while_held} rounds while its ring's drain side was held");

    let snap = recorder.snapshot();
    let samples = snap.samples.expect("sampled trees");
    assert_eq!(samples.bindings.count_label, "samples");
    let name = |id| samples.consumers.name(id).to_string();
    for (w, (work, stats)) in results.iter().enumerate() {
        eprintln!("worker {w}: {work:?} {stats:?}");
        let tree = &samples.threads.iter().find(|p| p.name == format!("worker-{w}")).unwrap().tree;
        assert!(stats.stacks > 300, "worker {w}: {} stack samples for {} ms of CPU", stats.stacks, (work.heavy_ns + work.light_ns) / MS);
        // Every stored sample reached the tree once.
        let counted: u64 = (0..tree.len() as u32).map(|n| tree.calls(n)).sum();
        assert_eq!(counted, stats.stacks, "worker {w}");
        // The JDK frame is left out: heavy's samples are heavy's own, as in call trees.
        let mut self_cpu = std::collections::BTreeMap::new();
        for n in 0..tree.len() as u32 {
            if n != Tree::ROOT {
                let path: Vec<String> = tree.path(n).into_iter().skip(1).map(name).collect();
                *self_cpu.entry(path.join(";")).or_insert(0u64) += tree.base(n)[0];
            }
        }
        eprintln!("worker {w}: self cpu {self_cpu:?}");
        assert!(self_cpu.keys().all(|k| !k.contains("sqrt")), "{self_cpu:?}");
        let heavy = self_cpu.get("app.Main.main();app.Main.heavy()").copied().unwrap_or(0);
        let light = self_cpu.get("app.Main.main();app.Main.light()").copied().unwrap_or(0);
        // The weights are the thread's CPU time between samples: they sum to its CPU time (less
        // what it used after its last sample, and before the first), and split as the work did.
        let total: u64 = self_cpu.values().sum();
        let cpu = work.heavy_ns + work.light_ns;
        assert!(total <= cpu + 50 * MS && total + 50 * MS >= cpu, "worker {w}: sampled {total} ns of {cpu} ns");
        let share = heavy as f64 / (heavy + light) as f64;
        let truth = work.heavy_ns as f64 / cpu as f64;
        assert!((share - truth).abs() < 0.05, "worker {w}: heavy's share {share:.3} sampled, {truth:.3} measured");
    }
    // The walker's word on the code at each sample came through the ring: light inlined, heavy
    // in its own C2 code even where the excluded sqrt was the innermost frame.
    let forms: std::collections::BTreeSet<(String, Form)> = snap.sample_forms.iter().map(|r| (r.method.clone(), r.form)).collect();
    assert!(forms.contains(&("app.Main.light()".into(), Form::Inlined)), "{forms:?}");
    assert!(forms.contains(&("app.Main.heavy()".into(), Form::C2)), "{forms:?}");
    assert!(forms.iter().all(|(m, f)| (m == "app.Main.light()") == (*f == Form::Inlined) && *f != Form::C1), "{forms:?}");
}

/// Wall-clock stack samples with no CPU-time source: a sleeping thread is sampled where it
/// sleeps, each sample weighing the wall time since the previous one and almost no CPU; held
/// off, the sampler sends nothing.
#[test]
fn wall_clock_stack_samples_reach_sleeping_threads_and_stop_when_held_off() {
    let metrics: Arc<dyn MetricSet> = Arc::new(Metrics::new().with(ThreadCpuClock).with(WallClock));
    let stacks = StackConfig {
        walker: Arc::new(AtomicsWalker),
        max_depth: 8,
        ring_words: 4096,
        every: 1,
        trigger: StackTrigger::WallClock { period_ns: 5 * MS },
        kernel: false,
    };
    let config = SamplerConfig { wall_period_ns: 0, source: hpm_collectors::sampling::SignalSource::None, ..SamplerConfig::default() };
    let sampler = ContextSampler::with_stacks(metrics, config, Some(stacks)).expect("sampler opens");
    assert!(sampler.describe().contains("no CPU-time signals; every thread signalled for a stack sample every 5 ms of wall time"), "{}", sampler.describe());
    let (tx, rx) = std::sync::mpsc::channel();
    let sleeper = {
        let sampler = sampler.clone();
        std::thread::spawn(move || {
            STACKS[3].set(&[MAIN, LIGHT]);
            let cell: &'static AtomicU32 = Box::leak(Box::new(AtomicU32::new(0)));
            let st = sampler.start_current_thread_walked(cell, 3).unwrap();
            tx.send(st.clone()).unwrap();
            // Sleeping in short naps: each signal interrupts one (SA_RESTART does not restart
            // nanosleep), as it would any blocking call.
            let end = std::time::Instant::now() + Duration::from_millis(400);
            while std::time::Instant::now() < end {
                std::thread::sleep(Duration::from_millis(1));
            }
            st
        })
    };
    let st = rx.recv().unwrap();
    std::thread::sleep(Duration::from_millis(200));
    sampler.set_active(false).unwrap();
    let held_at = st.stats().stacks;
    std::thread::sleep(Duration::from_millis(100));
    let after_hold = st.stats().stacks;
    sampler.set_active(true).unwrap();
    let st = sleeper.join().unwrap();
    st.stop();
    let (mut n, mut wall, mut cpu) = (0u64, 0u64, 0u64);
    st.drain_stacks(&mut |w, _, f| {
        assert_eq!(f, [RawFrame::new(0, LIGHT), RawFrame::new(1, MAIN)]);
        n += 1;
        cpu += w[0];
        wall += w[1];
    });
    eprintln!("{n} samples, wall {} ms, cpu {} ms, held at {held_at}, after hold {after_hold}", wall / MS, cpu / MS);
    assert_eq!(after_hold, held_at, "samples while held off");
    // About 300 ms sampled at one per 5 ms.
    assert!((40..=70).contains(&n), "{n} wall-clock samples");
    assert!(wall > 250 * MS && cpu * 5 < wall, "wall {wall} ns, cpu {cpu} ns");
}

/// One frame, `MAIN`, at every walk: what the Java walker would give above which the kernel
/// frames go.
struct MainOnlyWalker;

impl StackWalker for MainOnlyWalker {
    unsafe fn walk(&self, _thread: usize, _ucontext: *mut std::ffi::c_void, _pc: u64, out: &mut [RawFrame], _code: &mut CodeAt) -> i32 {
        out[0] = RawFrame::new(0, MAIN);
        1
    }
}

/// Kernel frames (`StackConfig::kernel`): a thread that spends its CPU time in the kernel
/// (reading /dev/zero: the kernel clears the buffer) gets samples whose innermost frames are
/// kernel addresses, above the walker's frame; where kernel samples are not allowed, the
/// sampler says why (naming the setting to change) and no sample has one.
#[test]
fn kernel_frames_come_from_each_overflows_call_chain() {
    const KERNEL_SPACE: u64 = 0xffff_8000_0000_0000;
    let metrics: Arc<dyn MetricSet> = Arc::new(Metrics::new().with(ThreadCpuClock).with(WallClock));
    let stacks =
        StackConfig { walker: Arc::new(MainOnlyWalker), max_depth: 32, ring_words: 1 << 16, every: 1, trigger: StackTrigger::CpuTime, kernel: true };
    let config = SamplerConfig { cpu_period_ns: MS, wall_period_ns: 0, ..SamplerConfig::default() };
    let sampler = ContextSampler::with_stacks(metrics, config, Some(stacks)).expect("sampler opens");
    eprintln!("sampler: {}", sampler.describe());
    let worker = {
        let sampler = sampler.clone();
        std::thread::spawn(move || {
            let cell: &'static AtomicU32 = Box::leak(Box::new(AtomicU32::new(0)));
            let st = sampler.start_current_thread_walked(cell, 0).unwrap();
            let mut zero = std::fs::File::open("/dev/zero").unwrap();
            let mut buf = vec![1u8; 1 << 20];
            let start = thread_cpu_ns();
            while thread_cpu_ns() - start < 300 * MS {
                std::io::Read::read_exact(&mut zero, &mut buf).unwrap();
            }
            st.stop();
            st
        })
    };
    let st = worker.join().unwrap();
    let (mut n, mut with_kernel) = (0u64, 0u64);
    st.drain_stacks(&mut |_, _, f| {
        n += 1;
        let kernel = f.iter().take_while(|fr| fr.pos == RawFrame::NATIVE_CODE).count();
        assert!(f[..kernel].iter().all(|fr| fr.method >= KERNEL_SPACE), "a native frame that is not a kernel address: {f:?}");
        assert_eq!(&f[kernel..], [RawFrame::new(0, MAIN)], "the walker's frames follow the kernel's");
        with_kernel += (kernel > 0) as u64;
    });
    eprintln!("{n} samples, {with_kernel} with kernel frames; refusal: {:?}", sampler.kernel_refusal());
    match sampler.kernel_refusal() {
        // Without kernel samples the task clock's overflows land in user mode only: few here.
        Some(why) => {
            assert!(n > 0, "no samples");
            assert!(why.contains("perf_event_paranoid") || why.contains("ulimit -l"), "{why}");
            assert!(sampler.describe().contains("no kernel frames: "), "{}", sampler.describe());
            assert_eq!(with_kernel, 0);
        }
        // Most of the thread's CPU time is the kernel's clearing of the buffer.
        None => {
            assert!(n >= 100, "{n} samples in 300 ms of CPU at 1 ms");
            assert!(with_kernel * 2 > n, "{with_kernel} of {n} samples with kernel frames");
        }
    }
}
