use std::cell::Cell;
use std::rc::Rc;

use hpm_model::metrics::{MetricSet, ThreadMetrics};
use hpm_model::snapshot::{state_of_node, NO_BLOCKER};

use super::*;

/// A metric that is whatever the test sets in the shared cell.
#[derive(Clone)]
struct Manual(Arc<AtomicU64>);
struct ManualReader(Arc<AtomicU64>);
impl ThreadMetrics for ManualReader {
    fn read(&mut self, out: &mut [u64]) {
        out[0] = self.0.load(Ordering::Relaxed);
    }
}
impl MetricSet for Manual {
    fn metrics(&self) -> Vec<Metric> {
        vec![Metric::new("ticks", "ticks")]
    }
    fn open_current_thread(&self) -> Box<dyn ThreadMetrics> {
        Box::new(ManualReader(self.0.clone()))
    }
}

/// Methods 1..: key k is "p.C.m<k>"; keys >= 100 are in an excluded class; `stack` is settable.
struct Names {
    stack: Rc<Cell<Vec<u64>>>,
    resolved: u32,
}
impl MethodResolver for Names {
    fn resolve(&mut self, method: u64, filter: &ClassFilter, out: &mut Vec<(u64, Option<String>)>) {
        self.resolved += 1;
        let class = if method >= 100 { "java.lang.X" } else { "p.C" };
        out.push((method, filter.accepts(class).then(|| format!("{class}.m{method}"))));
    }
    fn stack(&mut self, out: &mut Vec<u64>) {
        let s = self.stack.take();
        out.extend(&s);
        self.stack.set(s);
    }
}

fn setup() -> (Recorder, Arc<AtomicU64>, Names) {
    let ticks = Arc::new(AtomicU64::new(0));
    let r = Recorder::new(RecorderConfig::default(), Box::new(Manual(ticks.clone())));
    (r, ticks, Names { stack: Rc::new(Cell::new(Vec::new())), resolved: 0 })
}

fn contexts(p: &Profile, thread: usize) -> Vec<(String, u64, Vec<u64>)> {
    let t = &p.threads[thread].tree;
    t.preorder()
        .into_iter()
        .map(|n| {
            let path: Vec<&str> = t.path(n).iter().map(|&c| p.consumers.name(c)).collect();
            (path.join(";"), t.calls(n), t.base(n).to_vec())
        })
        .collect()
}

#[test]
fn entry_exit_builds_tree_and_excluded_methods_are_transparent() {
    let (r, ticks, mut names) = setup();
    let t = r.register_current_thread(ThreadInfo { name: "main".into(), ..Default::default() });
    ticks.store(10, Ordering::Relaxed);
    r.method_entry(&t, 1, &mut names); // 10 charged to root
    ticks.store(15, Ordering::Relaxed);
    r.method_entry(&t, 100, &mut names); // excluded: nothing happens
    ticks.store(20, Ordering::Relaxed);
    r.method_entry(&t, 2, &mut names); // m1 gets 10
    ticks.store(27, Ordering::Relaxed);
    r.method_exit(&t, 2, true, &mut names); // m2 gets 7
    r.method_exit(&t, 100, true, &mut names);
    ticks.store(30, Ordering::Relaxed);
    r.method_exit(&t, 1, false, &mut names); // m1 gets 3
    for _ in 0..3 {
        r.method_entry(&t, 2, &mut names);
        r.method_exit(&t, 2, false, &mut names);
    }
    let s = r.snapshot();
    assert_eq!(
        contexts(&s.calls, 0),
        vec![
            ("main".to_string(), 1, vec![10]),
            ("main;p.C.m1".to_string(), 1, vec![13]),
            ("main;p.C.m1;p.C.m2".to_string(), 1, vec![7]),
            ("main;p.C.m2".to_string(), 3, vec![0]),
        ]
    );
    assert_eq!(s.threads[0].exception_exits, 1);
    // Each method resolved once for the whole recorder.
    assert_eq!(names.resolved, 3);
}

#[test]
fn pause_resume_resyncs_to_the_real_stack() {
    let (r, ticks, mut names) = setup();
    let t = r.register_current_thread(ThreadInfo { name: "main".into(), ..Default::default() });
    r.method_entry(&t, 1, &mut names);
    assert!(r.pause());
    // While paused the thread returned from m1 and entered m3 → m4 (not seen).
    r.method_exit(&t, 1, false, &mut names);
    ticks.store(1000, Ordering::Relaxed);
    assert!(r.resume());
    names.stack.set(vec![3, 100, 4, 5]);
    ticks.store(1005, Ordering::Relaxed);
    r.method_entry(&t, 5, &mut names); // resync to m3;m4 (100 excluded), then enter m5
    ticks.store(1008, Ordering::Relaxed);
    r.method_exit(&t, 5, false, &mut names);
    r.method_exit(&t, 4, false, &mut names);
    let s = r.snapshot();
    let c = contexts(&s.calls, 0);
    assert!(c.contains(&("main;p.C.m3;p.C.m4".to_string(), 0, vec![0])), "{c:?}");
    assert!(c.contains(&("main;p.C.m3;p.C.m4;p.C.m5".to_string(), 1, vec![3])), "{c:?}");
    // Paused time (0 → 1005) is charged nowhere.
    assert_eq!(s.calls.threads[0].tree.total(), vec![3]);
}

#[test]
fn threads_survive_their_end_and_reset_clears() {
    let (r, _ticks, mut names) = setup();
    let a = r.register_current_thread(ThreadInfo { name: "a".into(), ..Default::default() });
    let b = r.register_current_thread(ThreadInfo { name: "b".into(), ..Default::default() });
    r.method_entry(&a, 1, &mut names);
    r.method_entry(&b, 2, &mut names);
    r.end_thread(&a);
    r.end_thread(&a);
    let s = r.snapshot();
    assert_eq!(s.threads.len(), 2);
    assert!(!s.threads[0].alive && s.threads[1].alive);
    assert_eq!(r.status().finished_threads, 1);
    r.reset();
    let s = r.snapshot();
    assert_eq!(s.threads.len(), 1);
    // b's open context survives the reset with 0 calls, so its exit still matches.
    r.method_exit(&b, 2, false, &mut names);
    let c = contexts(&r.snapshot().calls, 0);
    assert_eq!(c, vec![("b".to_string(), 1, vec![0]), ("b;p.C.m2".to_string(), 0, vec![0])]);
}

#[test]
fn monitors_waits_alloc_and_gc() {
    let ticks = Arc::new(AtomicU64::new(0));
    let cfg = RecorderConfig { alloc: true, ..Default::default() };
    let r = Recorder::new(cfg, Box::new(Manual(ticks.clone())));
    let mut names = Names { stack: Rc::new(Cell::new(Vec::new())), resolved: 0 };
    let t = r.register_current_thread(ThreadInfo { name: "w".into(), ..Default::default() });
    r.method_entry(&t, 1, &mut names);
    r.object_alloc(&t, 24);
    r.object_alloc(&t, 16);
    r.monitor_contended_enter(&t, "p.Lock");
    std::thread::sleep(std::time::Duration::from_millis(2));
    r.monitor_contended_entered(&t);
    r.monitor_wait(&t, "p.Lock");
    r.monitor_waited(&t, true);
    r.method_exit(&t, 1, false, &mut names);
    r.gc_start();
    r.gc_finish();
    let s = r.snapshot();
    assert_eq!(s.calls.bindings.metric_index("alloc-bytes"), Some(1));
    let c = contexts(&s.calls, 0);
    assert_eq!(c[1], ("w;p.C.m1".to_string(), 1, vec![0, 40, 2]));
    let l = contexts(&s.locks, 0);
    assert_eq!(l[2].0, "w;p.C.m1;p.Lock");
    assert_eq!(l[2].1, 1);
    assert!(l[2].2[0] >= 2_000_000);
    let w = contexts(&s.waits, 0);
    assert_eq!((w[2].0.as_str(), w[2].1, w[2].2[1]), ("w;p.C.m1;p.Lock", 1, 1));
    assert_eq!(s.gc_count, 1);
    assert_eq!(s.gc[0].threads_stopped, 1);
}

/// A wait timed by the VM (`monitor_wait_at`, `monitor_waited_at`): its wall time is the end
/// given less the start given, the start at the wait or, when the VM learned it later, the one
/// given at the end.
#[test]
fn a_wait_timed_by_the_vm_lasts_from_the_start_given_to_the_end_given() {
    let r = Recorder::new(RecorderConfig::default(), Box::new(Manual(Arc::new(AtomicU64::new(0)))));
    let t = r.register_current_thread(ThreadInfo { name: "w".into(), ..Default::default() });
    let lock = r.consumer("p.Lock");
    r.monitor_wait_at(&t, lock, 1_000);
    r.monitor_waited_at(&t, false, None, 4_500);
    r.monitor_wait_at(&t, lock, 0);
    r.monitor_waited_at(&t, true, Some(10_000), 12_000);
    // Without a wait begun, an end records nothing.
    r.monitor_waited_at(&t, false, Some(0), 1_000_000);
    let w = contexts(&r.snapshot().waits, 0);
    assert_eq!(w.last().map(|c| (c.0.as_str(), c.1, c.2.clone())), Some(("w;p.Lock", 2, vec![3_500 + 2_000, 1])));
}

/// Lock and wait nodes are found again by call-tree node (`monitor_node`): repeated waits in one
/// context count there, a wait in another context of the same class gets its own node, and after
/// a reset (new node ids in every tree) the contexts are right again.
#[test]
fn repeated_monitor_events_find_their_contexts_through_resets() {
    let ticks = Arc::new(AtomicU64::new(0));
    let r = Recorder::new(RecorderConfig::default(), Box::new(Manual(ticks.clone())));
    let mut names = Names { stack: Rc::new(Cell::new(Vec::new())), resolved: 0 };
    let t = r.register_current_thread(ThreadInfo { name: "w".into(), ..Default::default() });
    let lock = r.consumer("p.Lock");
    let wait_and_block = |times: usize| {
        for _ in 0..times {
            r.monitor_wait_of(&t, lock);
            r.monitor_waited(&t, false);
            r.monitor_contended_enter_of(&t, lock);
            r.monitor_contended_entered(&t);
        }
    };
    r.method_entry(&t, 1, &mut names);
    wait_and_block(3);
    r.method_entry(&t, 2, &mut names);
    wait_and_block(2);
    r.method_exit(&t, 2, false, &mut names);
    wait_and_block(1);
    let s = r.snapshot();
    let calls = |p: &Profile| contexts(p, 0).into_iter().filter(|c| c.0.ends_with("p.Lock")).map(|c| (c.0, c.1)).collect::<Vec<_>>();
    let want = vec![("w;p.C.m1;p.C.m2;p.Lock".to_string(), 2), ("w;p.C.m1;p.Lock".to_string(), 4)];
    let sorted = |mut v: Vec<(String, u64)>| {
        v.sort();
        v
    };
    assert_eq!(sorted(calls(&s.waits)), sorted(want.clone()));
    assert_eq!(sorted(calls(&s.locks)), sorted(want));

    r.reset();
    wait_and_block(1);
    let s = r.snapshot();
    let want = vec![("w;p.C.m1;p.Lock".to_string(), 1)];
    assert_eq!(calls(&s.waits), want);
    assert_eq!(calls(&s.locks), want);
}

#[test]
fn code_map_lookup_and_unload() {
    let (r, _t, _n) = setup();
    r.code_load(CodeEntry { start: 0x1000, size: 0x100, name: "p.C.m1".into(), kind: "compiled", method: 1, inlined: vec!["p.C.m2".into()], inlined_methods: vec![] });
    r.code_load(CodeEntry { start: 0x2000, size: 0x10, name: "Interpreter".into(), kind: "generated", method: 0, inlined: vec![], inlined_methods: vec![] });
    assert_eq!(r.code_at(0x10ff).unwrap().name, "p.C.m1");
    assert!(r.code_at(0x1100).is_none());
    let code: Vec<String> = r.snapshot().code.iter().map(|c| c.name.clone()).collect();
    assert_eq!(code, ["p.C.m1", "Interpreter"], "the snapshot's code map, by address");
    r.code_unload(0x1000);
    assert!(r.code_at(0x1000).is_none());
}

/// Compiled code loaded by key is named before a snapshot, each key once however often it
/// appears, inlined methods deduplicated by name; a key that cannot be named gets `method@KEY`.
#[test]
fn compiled_code_is_named_lazily_each_method_once() {
    let (r, _t, _n) = setup();
    let entry = |start: u64, method: u64, inlined: Vec<u64>| CodeEntry {
        start,
        size: 0x100,
        name: String::new(),
        kind: "compiled",
        method,
        inlined: vec![],
        inlined_methods: inlined,
    };
    r.code_load(entry(0x1000, 7, vec![8, 9, 8]));
    r.code_load(entry(0x2000, 8, vec![]));
    let mut asked = Vec::new();
    let mut name_of = |k: u64| {
        asked.push(k);
        (k != 9).then(|| format!("p.C.m{k}"))
    };
    r.name_code(&mut name_of);
    r.code_load(entry(0x3000, 7, vec![]));
    r.name_code(&mut name_of);
    assert_eq!(asked, [7, 8, 9], "each key named once");
    let code: Vec<(String, Vec<String>)> = r.snapshot().code.iter().map(|c| (c.name.clone(), c.inlined.clone())).collect();
    assert_eq!(
        code,
        [
            ("p.C.m7".to_string(), vec!["p.C.m8".to_string(), "method@9".to_string()]),
            ("p.C.m8".to_string(), vec![]),
            ("p.C.m7".to_string(), vec![]),
        ]
    );
}

#[test]
fn threads_ending_while_snapshots_run_lose_nothing() {
    let ticks = Arc::new(AtomicU64::new(0));
    let r = Arc::new(Recorder::new(RecorderConfig::default(), Box::new(Manual(ticks))));
    let stop = Arc::new(AtomicBool::new(false));
    let started = Arc::new(AtomicBool::new(false));
    // A dumper snapshotting continuously while 8 threads × 50 short-lived "Java threads" start and end.
    let dumper = {
        let (r, stop, started) = (r.clone(), stop.clone(), started.clone());
        std::thread::spawn(move || {
            let mut n = 0;
            let mut last = 0;
            loop {
                let s = r.snapshot();
                // Threads never disappear from one snapshot to the next.
                assert!(s.threads.len() >= last);
                last = s.threads.len();
                n += 1;
                started.store(true, Ordering::Release);
                if stop.load(Ordering::Relaxed) {
                    break n;
                }
            }
        })
    };
    let workers: Vec<_> = (0..8)
        .map(|w| {
            let (r, started) = (r.clone(), started.clone());
            std::thread::spawn(move || {
                while !started.load(Ordering::Acquire) {
                    std::thread::yield_now();
                }
                for i in 0..50 {
                    let mut names = Names { stack: Rc::new(Cell::new(Vec::new())), resolved: 0 };
                    let t = r.register_current_thread(ThreadInfo { name: format!("t{w}-{i}"), ..Default::default() });
                    r.method_entry(&t, 1, &mut names);
                    r.method_entry(&t, 2, &mut names);
                    r.method_exit(&t, 2, false, &mut names);
                    r.end_thread(&t);
                }
            })
        })
        .collect();
    for w in workers {
        w.join().unwrap();
    }
    stop.store(true, Ordering::Relaxed);
    assert!(dumper.join().unwrap() > 0);
    let s = r.snapshot();
    assert_eq!(s.threads.len(), 400);
    assert!(s.threads.iter().all(|t| !t.alive));
    for (i, t) in s.calls.threads.iter().enumerate() {
        let c = contexts(&s.calls, i);
        assert_eq!(c.iter().map(|(p, n, _)| (p.split(';').count(), *n)).collect::<Vec<_>>(), vec![(1, 1), (2, 1), (3, 1)], "{}", t.name);
    }
}

/// A clock that advances by `work` plus a fixed 10 "ns" per read (the probe's own cost).
#[derive(Clone)]
struct CostlyClock(Arc<AtomicU64>);
struct CostlyReader(Arc<AtomicU64>, u64);
impl ThreadMetrics for CostlyReader {
    fn read(&mut self, out: &mut [u64]) {
        self.1 += 10;
        out[0] = self.0.load(Ordering::Relaxed) + self.1;
        out[1] = 3; // a count the probe never moves
    }
}
impl MetricSet for CostlyClock {
    fn metrics(&self) -> Vec<Metric> {
        vec![Metric::new("t", "ns"), Metric::new("page-faults", "")]
    }
    fn open_current_thread(&self) -> Box<dyn ThreadMetrics> {
        Box::new(CostlyReader(self.0.clone(), 0))
    }
}

#[test]
fn compensation_calibrates_callee_and_caller_parts_and_recovers_the_work() {
    let work = Arc::new(AtomicU64::new(0));
    let r = Recorder::new(RecorderConfig::default(), Box::new(CostlyClock(work.clone())));
    let mut names = Names { stack: Rc::new(Cell::new(Vec::new())), resolved: 0 };
    let c = r.calibrate(5, 100);
    assert_eq!(c.callee, vec![10.0, 0.0]);
    assert_eq!(c.caller, vec![10.0, 0.0]);
    assert_eq!(c.applied, vec![true, false]);
    let t = r.register_current_thread(ThreadInfo { name: "main".into(), ..Default::default() });
    r.method_entry(&t, 1, &mut names);
    for _ in 0..5 {
        work.fetch_add(7, Ordering::Relaxed);
        r.method_entry(&t, 2, &mut names);
        work.fetch_add(100, Ordering::Relaxed);
        r.method_exit(&t, 2, false, &mut names);
    }
    r.method_exit(&t, 1, false, &mut names);
    let snap = r.snapshot();
    assert_eq!(snap.threads.len(), 1, "the calibration thread is not in snapshots");
    let raw = contexts(&snap.calls, 0);
    assert_eq!(raw[1], ("main;p.C.m1".into(), 1, vec![95, 0]));
    assert_eq!(raw[2], ("main;p.C.m1;p.C.m2".into(), 5, vec![550, 0]));
    let comp = Snapshot { calls: snap.compensated_calls(), ..snap.clone() };
    let got = contexts(&comp.calls, 0);
    assert_eq!(got[1], ("main;p.C.m1".into(), 1, vec![35, 0]), "5 x 7 of work");
    assert_eq!(got[2], ("main;p.C.m1;p.C.m2".into(), 5, vec![500, 0]), "5 x 100 of work");
    // The root: only the caller part of its one child call, clamped at 0.
    assert_eq!(got[0].2[0], raw[0].2[0].saturating_sub(10));
}

/// The calibration reads through the reader it is given, not the metric set's own: the research
/// VM's threads read through their processors' reader, much cheaper than the set's.
#[test]
fn calibration_with_another_reader_measures_that_readers_cost() {
    let r = Recorder::new(RecorderConfig::default(), Box::new(CostlyClock(Arc::new(AtomicU64::new(0)))));
    // 3 "ns" a read, where the set's own reader costs 10.
    struct Cheap(u64);
    impl ThreadMetrics for Cheap {
        fn read(&mut self, out: &mut [u64]) {
            self.0 += 3;
            out[0] = self.0;
            out[1] = 3;
        }
    }
    let c = r.calibrate_reading(Box::new(Cheap(0)), "a cheap reader", 5, 100);
    assert!(c.how.contains("counter read by a cheap reader"), "{}", c.how);
    assert_eq!(c.callee, vec![3.0, 0.0]);
    assert_eq!(c.caller, vec![3.0, 0.0]);
    assert_eq!(r.calibrate(5, 100).callee, vec![10.0, 0.0]);
}

/// [`Manual`], readable from any thread (as the built-in clocks are).
struct RemoteManual(Arc<AtomicU64>);
impl MetricSet for RemoteManual {
    fn metrics(&self) -> Vec<Metric> {
        vec![Metric::new("ticks", "ticks")]
    }
    fn open_current_thread(&self) -> Box<dyn ThreadMetrics> {
        Box::new(ManualReader(self.0.clone()))
    }
    fn open_current_thread_remote(&self) -> Option<Box<dyn ThreadMetrics>> {
        Some(Box::new(ManualReader(self.0.clone())))
    }
}

/// A thread's stack as another thread reads it: settable keys (`None`: cannot be read); says when
/// it is dropped.
/// The keys an [`Outside`] reads.
type OutsideKeys = Arc<Mutex<Option<Vec<u64>>>>;

struct Outside {
    keys: OutsideKeys,
    dropped: Arc<AtomicBool>,
}
impl RemoteStack for Outside {
    fn read(&mut self, out: &mut Vec<u64>) -> Option<Box<dyn MethodResolver + '_>> {
        out.extend(lock(&self.keys).clone()?);
        Some(Box::new(Names { stack: Rc::new(Cell::new(Vec::new())), resolved: 0 }))
    }
}
impl Drop for Outside {
    fn drop(&mut self) {
        self.dropped.store(true, Ordering::Relaxed);
    }
}

fn outside(r: &Recorder, t: &ThreadRecorder, keys: Option<Vec<u64>>) -> (OutsideKeys, Arc<AtomicBool>) {
    let (keys, dropped) = (Arc::new(Mutex::new(keys)), Arc::new(AtomicBool::new(false)));
    r.set_remote_stack(t, Box::new(Outside { keys: keys.clone(), dropped: dropped.clone() }));
    (keys, dropped)
}

#[test]
fn a_window_with_no_event_of_a_thread_charges_the_context_of_its_stack_read_from_outside() {
    let ticks = Arc::new(AtomicU64::new(0));
    let r = Recorder::new(RecorderConfig::default(), Box::new(RemoteManual(ticks.clone())));
    let a = r.register_current_thread(ThreadInfo { name: "a".into(), ..Default::default() });
    let b = r.register_current_thread(ThreadInfo { name: "b".into(), ..Default::default() });
    let _c = r.register_current_thread(ThreadInfo { name: "c".into(), ..Default::default() });
    // a: inside m1 → (excluded) → m2, one call spanning the window; b: a stack that cannot be read;
    // c: no way to read its stack from outside.
    let (_, a_dropped) = outside(&r, &a, Some(vec![1, 100, 2]));
    outside(&r, &b, None);
    assert!(r.pause());
    ticks.store(100, Ordering::Relaxed);
    assert!(r.resume());
    ticks.store(160, Ordering::Relaxed);
    assert!(r.pause());
    let s = r.snapshot();
    assert_eq!(contexts(&s.calls, 0), vec![("a".into(), 1, vec![0]), ("a;p.C.m1".into(), 0, vec![0]), ("a;p.C.m1;p.C.m2".into(), 0, vec![60])]);
    // Not charged: their context is unknown until their next event (the window has closed).
    assert_eq!(s.calls.threads[1].tree.total(), vec![0]);
    assert_eq!(s.calls.threads[2].tree.total(), vec![0]);
    // The backend's handle goes when the thread ends.
    assert!(!a_dropped.load(Ordering::Relaxed));
    r.end_thread(&a);
    assert!(a_dropped.load(Ordering::Relaxed));
}

#[test]
fn an_entry_seen_from_outside_is_settled_at_the_threads_own_event() {
    let ticks = Arc::new(AtomicU64::new(0));
    let r = Recorder::new(RecorderConfig::default(), Box::new(RemoteManual(ticks.clone())));
    let mut names = Names { stack: Rc::new(Cell::new(vec![1])), resolved: 0 };
    let t = r.register_current_thread(ThreadInfo { name: "t".into(), ..Default::default() });
    let (keys, _) = outside(&r, &t, None);
    r.method_entry(&t, 1, &mut names);
    assert!(r.pause());
    ticks.store(100, Ordering::Relaxed);
    assert!(r.resume());
    // A dump while the thread, after 50 ticks in m1 with no event, posts its entry into m2: the
    // frame of m2 is on the stack already.
    *lock(&keys) = Some(vec![1, 2]);
    ticks.store(150, Ordering::Relaxed);
    let dumped = r.snapshot();
    assert_eq!(contexts(&dumped.calls, 0)[2], ("t;p.C.m1;p.C.m2".into(), 0, vec![50]));
    // The entry goes on: the 50 belong to m1, where the thread was; m2 is entered once.
    names.stack.set(vec![1, 2]);
    ticks.store(170, Ordering::Relaxed);
    r.method_entry(&t, 2, &mut names);
    ticks.store(175, Ordering::Relaxed);
    r.method_exit(&t, 2, false, &mut names);
    let c = contexts(&r.snapshot().calls, 0);
    assert_eq!(c[1..], [("t;p.C.m1".into(), 1, vec![70]), ("t;p.C.m1;p.C.m2".into(), 1, vec![5])]);
    // Another window, the thread inside m2 with no event until it returns: read from outside, the
    // same stack as at the exit, whose context is right.
    r.method_entry(&t, 2, &mut names);
    assert!(r.pause());
    ticks.store(200, Ordering::Relaxed);
    assert!(r.resume());
    ticks.store(230, Ordering::Relaxed);
    r.snapshot();
    ticks.store(240, Ordering::Relaxed);
    r.method_exit(&t, 2, false, &mut names);
    let c = contexts(&r.snapshot().calls, 0);
    assert_eq!(c[1..], [("t;p.C.m1".into(), 1, vec![70]), ("t;p.C.m1;p.C.m2".into(), 2, vec![45])]);
}

/// Forms from the code map, for samples whose walker did not look (`CodeAt::unknown`): the
/// compiled method at the PC owns the code (a frame inside it was inlined), the tier is not
/// known; the interpreter, other generated code, and outside all code: native or VM by the
/// innermost frame. A walker's answer wins over the map.
#[test]
fn stack_sample_forms_from_the_code_map() {
    use hpm_model::sampling::Tier;
    use crate::sampling::{CodeAt, RawFrame, Site};
    let ticks = Arc::new(AtomicU64::new(0));
    let cfg = RecorderConfig { stack_samples: Some(vec![Metric::new("ticks", "ticks")]), ..RecorderConfig::default() };
    let r = Recorder::new(cfg, Box::new(Manual(ticks)));
    let mut n = Names { stack: Rc::new(Cell::new(Vec::new())), resolved: 0 };
    let t = r.register_current_thread(ThreadInfo { name: "main".into(), ..Default::default() });
    r.code_load(CodeEntry { start: 0x1000, size: 0x100, name: String::new(), kind: "compiled", method: 1, inlined: vec![], inlined_methods: vec![] });
    r.code_load(CodeEntry { start: 0x2000, size: 0x100, name: "Interpreter".into(), kind: "generated", method: 0, inlined: vec![], inlined_methods: vec![] });
    r.code_load(CodeEntry { start: 0x3000, size: 0x100, name: "StubRoutines".into(), kind: "generated", method: 0, inlined: vec![], inlined_methods: vec![] });
    let f = |m: u64, pos: i32| RawFrame::new(pos, m);
    let unknown = |pc: u64| Site { pc, code: CodeAt::unknown(), time: 0 };
    // m2 inlined into m1's code; m1's own code; an excluded callee's code charged to m1.
    r.add_stack_sample(&t, &[f(2, 0), f(1, 0)], unknown(0x1010), &[1], &mut n);
    r.add_stack_sample(&t, &[f(1, 0), f(3, 0)], unknown(0x1010), &[1], &mut n);
    r.add_stack_sample(&t, &[f(100, 0), f(1, 0)], unknown(0x1010), &[1], &mut n);
    r.add_stack_sample(&t, &[f(4, 0)], unknown(0x2010), &[1], &mut n);
    r.add_stack_sample(&t, &[f(5, 0)], unknown(0x3010), &[1], &mut n);
    r.add_stack_sample(&t, &[f(6, RawFrame::NATIVE)], unknown(0x9000), &[1], &mut n);
    r.add_stack_sample(&t, &[f(7, 0)], unknown(0x9000), &[1], &mut n);
    // The walker said C2: the map is not asked.
    r.add_stack_sample(&t, &[f(8, 0)], Site { pc: 0x2010, code: CodeAt::compiled(0, Tier::C2), time: 0 }, &[1], &mut n);
    // The walker found a native method's wrapper, which HotSpot keeps as the method's compiled
    // code (at no compiler's level): native, not compiled code.
    r.add_stack_sample(&t, &[f(9, RawFrame::NATIVE)], Site { pc: 0x2010, code: CodeAt::compiled(0, Tier::Unknown), time: 0 }, &[1], &mut n);
    let forms: Vec<(String, Form, u64)> = r.snapshot().sample_forms.iter().map(|f| (f.method.clone(), f.form, f.samples)).collect();
    assert_eq!(
        forms,
        [
            ("p.C.m1".to_string(), Form::Compiled, 2),
            ("p.C.m2".to_string(), Form::Inlined, 1),
            ("p.C.m4".to_string(), Form::Interpreted, 1),
            ("p.C.m5".to_string(), Form::Stub, 1),
            ("p.C.m6".to_string(), Form::Native, 1),
            ("p.C.m7".to_string(), Form::Vm, 1),
            ("p.C.m8".to_string(), Form::C2, 1),
            ("p.C.m9".to_string(), Form::Native, 1),
        ]
    );
}

/// On-stack forms: every recorded frame's own form, once per sample and (method, form), where
/// the walker looked; frames it did not place count as unknown, excluded frames not at all.
#[test]
fn stack_forms_count_each_frame_once_per_sample() {
    use hpm_model::sampling::{FrameForm, Tier};
    use crate::sampling::{CodeAt, RawFrame, Site};
    let ticks = Arc::new(AtomicU64::new(0));
    let cfg = RecorderConfig { stack_samples: Some(vec![Metric::new("ticks", "ticks")]), ..RecorderConfig::default() };
    let r = Recorder::new(cfg, Box::new(Manual(ticks)));
    let mut n = Names { stack: Rc::new(Cell::new(Vec::new())), resolved: 0 };
    let t = r.register_current_thread(ThreadInfo { name: "main".into(), ..Default::default() });
    let f = |m: u64, form: FrameForm| RawFrame { pos: 0, form, method: m };
    let looked = Site { pc: 0x10, code: CodeAt::compiled(1, Tier::C2), time: 0 };
    // m2 inlined into m1 (C2), called from the interpreted m3, which recursed (twice on the
    // stack, once counted); the excluded m100 is left out.
    let stack = [f(2, FrameForm::Inlined), f(1, FrameForm::C2), f(100, FrameForm::Interpreted), f(3, FrameForm::Interpreted), f(3, FrameForm::Interpreted)];
    r.add_stack_sample(&t, &stack, looked, &[5], &mut n);
    r.add_stack_sample(&t, &[f(3, FrameForm::C1), f(4, FrameForm::Unknown)], Site { pc: 0x20, code: CodeAt::outside(), time: 0 }, &[1], &mut n);
    // A walker that did not look at the code says nothing of its frames either.
    r.add_stack_sample(&t, &[f(9, FrameForm::Unknown)], Site { pc: 0x30, code: CodeAt::unknown(), time: 0 }, &[1], &mut n);
    let mut rows: Vec<(String, Form, u64, u64)> = r.snapshot().stack_forms.iter().map(|f| (f.method.clone(), f.form, f.samples, f.weights[0])).collect();
    rows.sort();
    assert_eq!(
        rows,
        [
            ("p.C.m1".to_string(), Form::C2, 1, 5),
            ("p.C.m2".to_string(), Form::Inlined, 1, 5),
            ("p.C.m3".to_string(), Form::Interpreted, 1, 5),
            ("p.C.m3".to_string(), Form::C1, 1, 1),
            ("p.C.m4".to_string(), Form::Unknown, 1, 1),
        ]
    );
}

/// Past `virtual_threads_kept` ended virtual threads, each one that ends is merged into one thread:
/// its calls and values are kept (summed per context), platform threads never are.
#[test]
fn ended_virtual_threads_past_the_limit_are_merged_into_one_thread() {
    let ticks = Arc::new(AtomicU64::new(0));
    let cfg = RecorderConfig { virtual_threads_kept: 2, ..RecorderConfig::default() };
    let r = Recorder::new(cfg, Box::new(Manual(ticks.clone())));
    let mut names = Names { stack: Rc::new(Cell::new(Vec::new())), resolved: 0 };
    let run = |name: &str, kind: &str, work: u64, names: &mut Names| {
        let info = ThreadInfo { name: name.into(), kind: Some(kind.into()), os_tid: None };
        let t = r.register_thread(info, Box::new(ManualReader(ticks.clone())));
        r.method_entry(&t, 1, names);
        ticks.fetch_add(work, Ordering::Relaxed);
        r.method_exit(&t, 1, false, names);
        r.end_thread(&t);
    };
    for i in 0..5 {
        run(&format!("v{i}"), "virtual", 10 + i, &mut names);
    }
    run("platform", "application", 100, &mut names);
    let p = r.snapshot().calls;
    let names_of: Vec<&str> = p.threads.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names_of, ["v0", "v1", MERGED_VIRTUAL_THREADS, "platform"]);
    let merged = &p.threads[2];
    assert_eq!(merged.kind.as_deref(), Some("virtual"));
    // v2, v3, v4: one call of m1 each, 12 + 13 + 14 ticks in it.
    assert_eq!(contexts(&p, 2), [(MERGED_VIRTUAL_THREADS.to_string(), 3, vec![0]), (format!("{MERGED_VIRTUAL_THREADS};p.C.m1"), 3, vec![39])]);
    assert_eq!(contexts(&p, 3)[1], ("platform;p.C.m1".to_string(), 1, vec![100]));
}

#[test]
fn credited_threads_publish_their_context_and_take_sampled_amounts() {
    let ticks = Arc::new(AtomicU64::new(0));
    let cfg = RecorderConfig { metrics_from_sampler: Some(MetricMode::Sampled), ..RecorderConfig::default() };
    let rec = Recorder::new(cfg, Box::new(Manual(ticks.clone())));
    let r = &mut Names { stack: Rc::new(Cell::new(Vec::new())), resolved: 0 };
    let cell: &'static AtomicU32 = Box::leak(Box::new(AtomicU32::new(u32::MAX)));
    let t = rec.register_credited_thread(ThreadInfo { name: "g".into(), ..Default::default() }, cell);
    assert_eq!(cell.load(Ordering::Relaxed), Tree::ROOT, "published at registration");
    rec.method_entry(&t, 1, r);
    let m1 = cell.load(Ordering::Relaxed);
    assert_ne!(m1, Tree::ROOT);
    // The thread's events read nothing: ticks move, nothing is charged.
    ticks.store(1_000, Ordering::Relaxed);
    rec.method_entry(&t, 2, r);
    let m2 = cell.load(Ordering::Relaxed);
    rec.add_sampled(&t, m2, &[70]);
    rec.add_sampled(&t, m1, &[30]);
    // An excluded method leaves the context where it is.
    rec.method_entry(&t, 100, r);
    assert_eq!(cell.load(Ordering::Relaxed), m2);
    rec.method_exit(&t, 100, false, r);
    rec.method_exit(&t, 2, false, r);
    assert_eq!(cell.load(Ordering::Relaxed), m1);
    rec.add_sampled(&t, 9_999, &[5]); // not a node of the tree: ignored
    let snap = rec.snapshot();
    assert_eq!(snap.calls.bindings.metrics[0].mode, MetricMode::Sampled);
    assert_eq!(contexts(&snap.calls, 0), vec![("g".into(), 1, vec![0]), ("g;p.C.m1".into(), 1, vec![30]), ("g;p.C.m1;p.C.m2".into(), 1, vec![70])]);
    // A reset gives the open contexts new nodes: the cell follows.
    rec.method_entry(&t, 3, r);
    let before = cell.load(Ordering::Relaxed);
    rec.reset();
    let after = cell.load(Ordering::Relaxed);
    rec.add_sampled(&t, after, &[11]);
    let snap = rec.snapshot();
    assert_eq!(contexts(&snap.calls, 0), vec![("g".into(), 1, vec![0]), ("g;p.C.m1".into(), 0, vec![0]), ("g;p.C.m1;p.C.m3".into(), 0, vec![11])]);
    assert_ne!(before, Tree::ROOT);
    // The thread's end closes its contexts: the root is current; amounts still land after it.
    rec.end_thread(&t);
    assert_eq!(cell.load(Ordering::Relaxed), Tree::ROOT);
    rec.add_sampled(&t, after, &[1]);
    assert_eq!(contexts(&rec.snapshot().calls, 0)[2].2, vec![12]);
}

#[test]
fn sampled_calibration_times_the_path_without_reads() {
    struct Ns;
    impl MetricSet for Ns {
        fn metrics(&self) -> Vec<Metric> {
            vec![Metric::new("cpu-time", "ns"), Metric::new("faults", "faults")]
        }
        fn open_current_thread(&self) -> Box<dyn ThreadMetrics> {
            panic!("a credited thread opens no reader")
        }
    }
    let cfg = RecorderConfig { metrics_from_sampler: Some(MetricMode::Sampled), ..RecorderConfig::default() };
    let rec = Recorder::new(cfg, Box::new(Ns));
    let c = rec.calibrate(3, 1000);
    assert_eq!(c.applied, vec![true, false]);
    assert!(c.callee[0] > 0.0 && c.callee[0] == c.caller[0], "{c:?}");
    assert_eq!((c.callee[1], c.caller[1]), (0.0, 0.0));
    assert!(c.how.contains("timed"), "{}", c.how);
    assert_eq!(c.calls_measured, 3000);
}

/// The timeline of stack samples: each sample with a time keeps it (on the recorder's clock) and
/// its context's node in the sampled tree, in the order taken; a sample without a time stays out
/// of it; a thread renamed after its samples keeps its timeline on its rerooted tree's nodes.
#[test]
fn stack_samples_keep_their_time_and_context() {
    use crate::counters::clock::monotonic_ns;
    use crate::sampling::{CodeAt, RawFrame, Site};
    let ticks = Arc::new(AtomicU64::new(0));
    let cfg = RecorderConfig { stack_samples: Some(vec![Metric::new("ticks", "ticks")]), ..RecorderConfig::default() };
    let r = Recorder::new(cfg, Box::new(Manual(ticks)));
    let mut n = Names { stack: Rc::new(Cell::new(Vec::new())), resolved: 0 };
    let t = r.register_current_thread(ThreadInfo { name: "main".into(), ..Default::default() });
    let f = |m: u64| RawFrame::new(0, m);
    let at = |time: u64| Site { pc: 0, code: CodeAt::unknown(), time };
    let t0 = monotonic_ns();
    r.add_stack_sample(&t, &[f(2), f(1)], at(t0 + 1_000), &[1], &mut n);
    r.add_stack_sample(&t, &[f(3), f(1)], at(t0 + 2_000), &[1], &mut n);
    r.add_stack_sample(&t, &[f(3), f(1)], at(0), &[1], &mut n);
    r.add_stack_sample(&t, &[f(2), f(1)], at(t0 + 3_000), &[1], &mut n);
    let check = |s: &Snapshot| {
        let p = s.samples.as_ref().unwrap();
        let tree = &p.threads[0].tree;
        let tl = &s.sample_timelines.as_ref().unwrap()[0];
        let paths: Vec<String> = tl.nodes.iter().map(|&k| tree.path(k).iter().map(|&c| p.consumers.name(c)).collect::<Vec<_>>().join(";")).collect();
        assert_eq!(paths, [p.threads[0].name.clone() + ";p.C.m1;p.C.m2", p.threads[0].name.clone() + ";p.C.m1;p.C.m3", p.threads[0].name.clone() + ";p.C.m1;p.C.m2"]);
        let origin = t0 + 1_000 - tl.times[0];
        assert_eq!(tl.times.iter().map(|&x| x + origin - t0).collect::<Vec<_>>(), [1_000, 2_000, 3_000]);
        assert_eq!(tl.dropped, 0);
    };
    check(&r.snapshot());
    r.rename_thread(&t, "worker");
    let s = r.snapshot();
    assert_eq!(s.samples.as_ref().unwrap().threads[0].name, "worker");
    check(&s);
}

/// Parks (`park`, `parked`): under the current call path, then the kind node, then the blocker
/// class; a timed park that lasted its timeout is timed out; with frames (no calls recorded) the
/// context is the recorded methods among them; an end without a start, or a park begun while
/// stopped, records nothing.
#[test]
fn parks_are_waits_below_a_kind_node() {
    use crate::sampling::RawFrame;
    let (r, _, mut names) = setup();
    let t = r.register_current_thread(ThreadInfo { name: "w".into(), ..Default::default() });
    r.method_entry(&t, 1, &mut names);
    r.park(&t, "p.Sync", None);
    r.parked(&t, None);
    r.park(&t, NO_BLOCKER, Some(1));
    std::thread::sleep(std::time::Duration::from_millis(1));
    r.parked(&t, None);
    r.park(&t, NO_BLOCKER, Some(60_000_000_000));
    r.parked(&t, None);
    r.parked(&t, None);
    // The stack, innermost first: an excluded frame (100) is left out.
    r.park(&t, "p.Sync", None);
    r.parked(&t, Some((&[RawFrame::new(0, 100), RawFrame::new(0, 3), RawFrame::new(0, 2)], &mut names)));
    r.pause();
    r.park(&t, "p.Sync", None);
    r.resume();
    r.parked(&t, None);
    // An Object.wait of a thread whose calls are not recorded: its context from its stack too.
    r.monitor_wait(&t, "p.Lock");
    r.monitor_waited_in(&t, false, &[RawFrame::new(0, 4), RawFrame::new(0, 2)], &mut names);
    let w = contexts(&r.snapshot().waits, 0);
    assert_eq!(w.iter().find(|c| c.0 == "w;p.C.m2;p.C.m4;p.Lock").map(|c| c.1), Some(1), "{w:?}");
    let w: Vec<_> = w.into_iter().filter(|c| !c.0.ends_with("p.Lock")).collect();
    let at = |path: &str| w.iter().find(|c| c.0 == path).map(|c| (c.1, c.2[1])).unwrap_or_else(|| panic!("no {path} in {w:?}"));
    assert_eq!(at(&format!("w;p.C.m1;{PARK_NODE};p.Sync")), (1, 0));
    assert_eq!(at(&format!("w;p.C.m1;{PARK_TIMED_NODE};{NO_BLOCKER}")), (2, 1), "one of the two timed parks lasted its timeout");
    assert_eq!(at(&format!("w;p.C.m2;p.C.m3;{PARK_NODE};p.Sync")), (1, 0));
    assert_eq!(w.iter().skip(1).map(|c| c.1).sum::<u64>(), 4, "the root aside: {w:?}");
}

/// Samples with a state go to the state-split trees below a state node, every sample (of
/// unknown state too), so that they sum to the sampled trees; without any known state there are
/// none.
#[test]
fn sample_states_split_the_sampled_trees() {
    use hpm_model::sampling::SampleState;
    use crate::sampling::{CodeAt, RawFrame, Site};
    let cfg = RecorderConfig { stack_samples: Some(vec![Metric::new("ticks", "ticks")]), ..RecorderConfig::default() };
    let r = Recorder::new(cfg, Box::new(Manual(Arc::new(AtomicU64::new(0)))));
    let mut n = Names { stack: Rc::new(Cell::new(Vec::new())), resolved: 0 };
    let t = r.register_current_thread(ThreadInfo { name: "main".into(), ..Default::default() });
    let in_state = |s: SampleState| Site { pc: 0, code: CodeAt::unknown().with_state(s), time: 0 };
    r.add_stack_sample(&t, &[RawFrame::new(0, 1)], in_state(SampleState::Unknown), &[5], &mut n);
    assert!(r.snapshot().sample_states.is_none(), "no state known yet");
    r.add_stack_sample(&t, &[RawFrame::new(0, 2), RawFrame::new(0, 1)], in_state(SampleState::Parked), &[7], &mut n);
    r.add_stack_sample(&t, &[RawFrame::new(0, 2), RawFrame::new(0, 1)], in_state(SampleState::Parked), &[3], &mut n);
    r.add_stack_sample(&t, &[RawFrame::new(0, 1)], in_state(SampleState::Running), &[11], &mut n);
    let s = r.snapshot();
    let states = contexts(s.sample_states.as_ref().unwrap(), 0);
    let leaves: Vec<(&str, u64, u64)> = states.iter().filter(|c| c.0.ends_with(']')).map(|c| (c.0.as_str(), c.1, c.2[0])).collect();
    assert_eq!(leaves, [("main;p.C.m1;[unknown]", 1, 5), ("main;p.C.m1;p.C.m2;[parked]", 2, 10), ("main;p.C.m1;[running]", 1, 11)]);
    let total = |p: &Profile| p.threads[0].tree.preorder().into_iter().map(|k| p.threads[0].tree.base(k)[0]).sum::<u64>();
    assert_eq!(total(s.sample_states.as_ref().unwrap()), total(s.samples.as_ref().unwrap()));
    assert_eq!(state_of_node("[parked]"), Some(SampleState::Parked));
    assert_eq!(state_of_node("p.C.m1"), None);
}
