//! The events an agent needs, seen through Rust hooks (`run_with_hooks`): processor start/end,
//! boot order, switch callee/caller, the allocating thread, monitor contention, waits, markers,
//! the stack handed to method events, and the main class initialised before `main` runs (as on
//! HotSpot).

use rvm_abi::{marker_kind, thread_kind, NO_METHOD};
use rvm_backend::hooks::{Hooks, JavaStack, SwitchInfo};
use rvm_backend::Vm;
use std::cell::Cell;
use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::thread::ThreadId;

#[derive(Debug, Clone)]
enum Ev {
    Start(u32, String, u32),
    Init,
    VpStart(u32, ThreadId),
    VpEnd(u32, i32, ThreadId),
    Death(i32),
    Switch(SwitchInfo),
    Alloc { tid: u32, running: u32 },
    Enter(u32, u32),
    Entered(u32),
    Wait(u32, u32, i64),
    Waited(u32, bool),
    Marker(u32, u32, u32, u32, String),
}

#[derive(Default)]
struct Rec {
    evs: Mutex<Vec<Ev>>,
    /// Per thread: method ids entered and not yet exited.
    shadow: Mutex<HashMap<u32, Vec<u32>>>,
    stack_mismatches: AtomicUsize,
    entries: AtomicUsize,
    exceptional_exits: AtomicUsize,
    vm: Mutex<Option<Arc<Vm>>>,
    /// When `Some`: the main thread's (tid 0) method entries and exits, in order.
    main_calls: Mutex<Option<Vec<Call>>>,
    /// Switch events that found the scheduler lock free / held (by anyone, the calling thread
    /// included).
    switch_lock_free: AtomicUsize,
    switch_lock_held: AtomicUsize,
}

/// A method entry or exit of the main thread, with the stack handed to the event.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Call {
    entry: bool,
    by_exception: bool,
    method: u32,
    stack: Vec<u32>,
}

impl Rec {
    fn main_call(&self, tid: u32, entry: bool, by_exception: bool, method: u32, stack: &JavaStack) {
        if tid == 0 {
            if let Some(calls) = self.main_calls.lock().unwrap().as_mut() {
                calls.push(Call { entry, by_exception, method, stack: stack.methods().collect() });
            }
        }
    }
}

thread_local! {
    /// The thread the processor on this OS thread switched to last.
    static RUNNING: Cell<u32> = const { Cell::new(u32::MAX) };
}

struct Shared(Arc<Rec>);

impl Shared {
    fn push(&self, e: Ev) {
        self.0.evs.lock().unwrap().push(e);
    }
}

impl Hooks for Shared {
    fn vm_init(&self, vm: &Arc<Vm>) {
        *self.0.vm.lock().unwrap() = Some(vm.clone());
        self.push(Ev::Init);
    }
    fn vm_death(&self, code: i32) {
        self.push(Ev::Death(code));
    }
    fn vp_start(&self, vp: u32) {
        self.push(Ev::VpStart(vp, std::thread::current().id()));
    }
    fn vp_end(&self, vp: u32, code: i32) {
        self.push(Ev::VpEnd(vp, code, std::thread::current().id()));
    }
    fn thread_start(&self, tid: u32, name: &str, kind: u32) {
        self.push(Ev::Start(tid, name.to_string(), kind));
    }
    fn thread_switch(&self, s: &SwitchInfo) {
        RUNNING.set(s.to);
        if let Some(vm) = self.0.vm.lock().unwrap().as_ref() {
            let c = if vm.sched.state.try_lock().is_ok() { &self.0.switch_lock_free } else { &self.0.switch_lock_held };
            c.fetch_add(1, Relaxed);
        }
        self.push(Ev::Switch(*s));
    }
    fn method_entry(&self, tid: u32, m: u32, stack: JavaStack) {
        self.0.entries.fetch_add(1, Relaxed);
        self.0.main_call(tid, true, false, m, &stack);
        let mut sh = self.0.shadow.lock().unwrap();
        let s = sh.entry(tid).or_default();
        s.push(m);
        if !stack.methods().eq(s.iter().copied()) {
            self.0.stack_mismatches.fetch_add(1, Relaxed);
        }
    }
    fn method_exit(&self, tid: u32, m: u32, by_exception: bool, stack: JavaStack) {
        if by_exception {
            self.0.exceptional_exits.fetch_add(1, Relaxed);
        }
        self.0.main_call(tid, false, by_exception, m, &stack);
        let mut sh = self.0.shadow.lock().unwrap();
        let s = sh.entry(tid).or_default();
        if !stack.methods().eq(s.iter().copied()) || s.last() != Some(&m) {
            self.0.stack_mismatches.fetch_add(1, Relaxed);
        }
        s.pop();
    }
    fn allocation(&self, tid: u32, _class: u32, _bytes: usize, _stack: JavaStack) {
        self.push(Ev::Alloc { tid, running: RUNNING.get() });
    }
    fn monitor_contended_enter(&self, tid: u32, class: u32, _stack: JavaStack) {
        self.push(Ev::Enter(tid, class));
    }
    fn monitor_contended_entered(&self, tid: u32, _stack: JavaStack) {
        self.push(Ev::Entered(tid));
    }
    fn monitor_wait(&self, tid: u32, class: u32, timeout_ms: i64, _stack: JavaStack) {
        self.push(Ev::Wait(tid, class, timeout_ms));
    }
    fn monitor_waited(&self, tid: u32, timed_out: bool, _stack: JavaStack) {
        self.push(Ev::Waited(tid, timed_out));
    }
    fn marker(&self, vp: u32, tid: u32, kind: u32, run: u32, text: &str, _stack: JavaStack) {
        self.push(Ev::Marker(vp, tid, kind, run, text.to_string()));
    }
}

fn conformance() -> PathBuf {
    java_tests::compile("conformance").expect("compile conformance")
}

/// The agent test programs, compiled against the workloads' `hpmagent.Trace` (once per test
/// process: tests run in parallel, and javac rewriting class files another test reads is a race).
fn rvmagent() -> PathBuf {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let workloads = java_tests::compile("workloads").expect("compile workloads");
        java_tests::compile_with("rvmagent", &["-cp", workloads.to_str().unwrap()]).expect("compile rvmagent")
    })
    .clone()
}

fn run(dir: &std::path::Path, args: &[&str]) -> (i32, Arc<Rec>, Arc<Vm>) {
    run_rec(Rec::default(), dir, args)
}

/// Like [`run`], also recording the main thread's method entries and exits.
fn run_main_calls(dir: &std::path::Path, args: &[&str]) -> (i32, Arc<Rec>, Arc<Vm>) {
    run_rec(Rec { main_calls: Mutex::new(Some(Vec::new())), ..Rec::default() }, dir, args)
}

fn run_rec(rec: Rec, dir: &std::path::Path, args: &[&str]) -> (i32, Arc<Rec>, Arc<Vm>) {
    let mut all: Vec<String> = args[..args.len() - 1].iter().map(|s| s.to_string()).collect();
    all.extend(["-cp".to_string(), dir.to_str().unwrap().to_string(), args[args.len() - 1].to_string()]);
    let opts = rvm_backend::parse_args(&all).unwrap();
    let rec = Arc::new(rec);
    let code = rvm_backend::run_with_hooks(opts, Some(Box::new(Shared(rec.clone()))));
    let vm = rec.vm.lock().unwrap().take().expect("vm_init");
    (code, rec, vm)
}

fn method_id(vm: &Vm, class: &str, name: &str) -> u32 {
    let c = vm.reg.loaded(class).unwrap_or_else(|| panic!("{class} not loaded"));
    c.methods.iter().find(|m| m.name == name).unwrap_or_else(|| panic!("{class}.{name}")).id
}

#[test]
fn processors_start_and_end_on_their_threads_between_init_and_death() {
    let (code, rec, _vm) = run(&conformance(), &["-Xvps:3", "Threads"]);
    assert_eq!(code, 0);
    let evs = rec.evs.lock().unwrap().clone();
    let pos = |f: &dyn Fn(&Ev) -> bool| evs.iter().position(f).expect("event");
    let init = pos(&|e| matches!(e, Ev::Init));
    let death = pos(&|e| matches!(e, Ev::Death(0)));
    assert_eq!(death, evs.len() - 1, "vm_death is the last event");
    // Boot registered main (0), then each processor's idle and collector threads, before vm_init.
    let boot: Vec<(u32, String, u32)> =
        evs[..init].iter().filter_map(|e| if let Ev::Start(t, n, k) = e { Some((*t, n.clone(), *k)) } else { None }).collect();
    assert_eq!(boot.len(), 7, "{boot:?}");
    assert_eq!(boot[0], (0, "main".to_string(), thread_kind::APPLICATION));
    assert!(boot[1..].iter().all(|(_, _, k)| *k == thread_kind::IDLE || *k == thread_kind::COLLECTOR));
    let mut os_threads = Vec::new();
    for vp in 0..3u32 {
        let starts: Vec<(usize, ThreadId)> =
            evs.iter().enumerate().filter_map(|(i, e)| if let Ev::VpStart(v, t) = e { (*v == vp).then_some((i, *t)) } else { None }).collect();
        let ends: Vec<(usize, ThreadId)> = evs
            .iter()
            .enumerate()
            .filter_map(|(i, e)| if let Ev::VpEnd(v, 0, t) = e { (*v == vp).then_some((i, *t)) } else { None })
            .collect();
        assert_eq!((starts.len(), ends.len()), (1, 1), "vp {vp}: one start and one end");
        assert!(starts[0].0 > init && ends[0].0 < death);
        assert_eq!(starts[0].1, ends[0].1, "vp {vp} ends on the OS thread it started on");
        assert_ne!(starts[0].1, std::thread::current().id());
        // Its switches all come between its start and its end.
        for (i, e) in evs.iter().enumerate() {
            if let Ev::Switch(s) = e {
                if s.vp == vp {
                    assert!(i > starts[0].0 && i < ends[0].0, "vp {vp}: switch outside its loop");
                }
            }
        }
        os_threads.push(starts[0].1);
    }
    os_threads.sort_by_key(|t| format!("{t:?}"));
    os_threads.dedup();
    assert_eq!(os_threads.len(), 3, "distinct OS threads");
}

#[test]
fn switch_events_come_after_the_scheduler_lock_stamped_in_order() {
    // One processor: only the timer ever holds the lock besides it, for a moment per quantum.
    let (code, rec, _vm) = run(&conformance(), &["-Xvps:1", "Threads"]);
    assert_eq!(code, 0);
    let (free, held) = (rec.switch_lock_free.load(Relaxed), rec.switch_lock_held.load(Relaxed));
    assert!(free > 10 && free > held, "switch callbacks found the scheduler lock free {free} times, held {held} times");

    // Two processors: each processor's switches arrive in time order, and by time a thread is
    // never switched onto one processor before it was switched away from the other, although
    // the callbacks of two processors may arrive in either order.
    let (code, rec, _vm) = run(&conformance(), &["-Xvps:2", "Threads"]);
    assert_eq!(code, 0);
    let evs = rec.evs.lock().unwrap().clone();
    let idle: Vec<u32> = evs.iter().filter_map(|e| if let Ev::Start(t, _, thread_kind::IDLE) = e { Some(*t) } else { None }).collect();
    let switches: Vec<SwitchInfo> = evs.iter().filter_map(|e| if let Ev::Switch(s) = e { Some(*s) } else { None }).collect();
    assert!(switches.len() > 20, "{} switches", switches.len());
    for vp in 0..2 {
        let times: Vec<u64> = switches.iter().filter(|s| s.vp == vp).map(|s| s.time_ns).collect();
        assert!(times.windows(2).all(|w| w[0] <= w[1]), "vp {vp}: switch times out of order: {times:?}");
        assert!(times.iter().all(|&t| t > 0));
    }
    let mut threads: Vec<u32> = switches.iter().flat_map(|s| [s.from, s.to]).filter(|t| !idle.contains(t)).collect();
    threads.sort_unstable();
    threads.dedup();
    let mut migrated = 0;
    for t in threads {
        // (time, +1 onto a processor / -1 away), away first at equal times.
        let mut moves: Vec<(u64, i32, u32)> = Vec::new();
        for s in switches.iter().filter(|s| s.from != s.to) {
            if s.to == t {
                moves.push((s.time_ns, 1, s.vp));
            }
            if s.from == t {
                moves.push((s.time_ns, -1, s.vp));
            }
        }
        moves.sort_unstable();
        let mut on = 0;
        for &(time, d, vp) in &moves {
            on += d;
            assert!((0..=1).contains(&on), "thread {t} on {on} processors at {time} (vp {vp}): {moves:?}");
        }
        let vps: std::collections::HashSet<u32> = moves.iter().map(|m| m.2).collect();
        migrated += (vps.len() > 1) as usize;
    }
    assert!(migrated > 0, "some thread ran on both processors");
}

#[test]
fn switches_name_the_method_where_the_thread_was_preempted() {
    let (code, rec, vm) = run(&rvmagent(), &["-Xvps:1", "SpinCallee"]);
    assert_eq!(code, 0);
    let spin = method_id(&vm, "SpinCallee", "spin");
    let main = method_id(&vm, "SpinCallee", "main");
    let run_m = method_id(&vm, "SpinCallee$1", "run");
    // A started thread's bottom frame, which calls run() and ends the thread after it.
    let run_thread = method_id(&vm, "java/lang/Thread", "runThread");
    let evs = rec.evs.lock().unwrap().clone();
    let app: Vec<u32> = evs
        .iter()
        .filter_map(|e| if let Ev::Start(t, _, k) = e { (*k <= thread_kind::DAEMON).then_some(*t) } else { None })
        .collect();
    let switches: Vec<SwitchInfo> = evs.iter().filter_map(|e| if let Ev::Switch(s) = e { Some(*s) } else { None }).collect();
    let mut preempted_in_spin = 0;
    for s in &switches {
        if !app.contains(&s.from) {
            assert_eq!((s.callee, s.caller), (NO_METHOD, NO_METHOD), "VM thread switch {s:?}");
            continue;
        }
        if s.voluntary == 0 {
            assert_ne!(s.callee, NO_METHOD, "{s:?}");
            assert!(vm.reg.try_method(s.callee).is_some(), "{s:?}");
            // A thread preempted in its bottom method (main, or Thread.runThread before or after
            // run()) has no caller.
            let bottom = s.callee == main || s.callee == run_thread;
            assert!(vm.reg.try_method(s.caller).is_some() || (bottom && s.caller == NO_METHOD), "{s:?}");
            if s.callee == spin {
                assert!(s.caller == main || s.caller == run_m, "spin called from main or run: {s:?}");
                preempted_in_spin += 1;
            }
        }
    }
    // Two threads spin for 300 ms each with 10 ms quanta.
    assert!(preempted_in_spin >= 10, "only {preempted_in_spin} preemptions in spin(): {switches:?}");
}

#[test]
fn allocations_name_the_thread_running_on_the_processor() {
    let (code, rec, _vm) = run(&conformance(), &["-Xvps:2", "-Xmx8m", "ThreadGc"]);
    assert_eq!(code, 0);
    let evs = rec.evs.lock().unwrap();
    let allocs: Vec<(u32, u32)> = evs.iter().filter_map(|e| if let Ev::Alloc { tid, running } = e { Some((*tid, *running)) } else { None }).collect();
    assert!(allocs.len() > 10_000);
    let wrong = allocs.iter().filter(|(t, r)| t != r).count();
    assert_eq!(wrong, 0, "allocations attributed to a thread the processor was not running");
    let mut tids: Vec<u32> = allocs.iter().map(|a| a.0).collect();
    tids.sort();
    tids.dedup();
    assert!(tids.len() >= 3, "{tids:?}");
}

#[test]
fn method_events_carry_the_stack_of_entries_minus_exits() {
    for prog in ["StaticInit", "Exceptions", "Threads"] {
        let (code, rec, _vm) = run(&conformance(), &["-Xvps:2", prog]);
        assert!(code == 0 || prog == "Exceptions", "{prog}: {code}");
        assert!(rec.entries.load(Relaxed) > 300, "{prog}");
        assert_eq!(rec.stack_mismatches.load(Relaxed), 0, "{prog}: stacks differ from entries minus exits");
        if prog == "Exceptions" {
            assert!(rec.exceptional_exits.load(Relaxed) > 0, "frames popped by exceptions");
        }
    }
}

#[test]
fn monitor_contention_and_waits_are_reported() {
    let (code, rec, vm) = run(&rvmagent(), &["-Xvps:2", "Contend"]);
    assert_eq!(code, 0);
    let evs = rec.evs.lock().unwrap().clone();
    let class_name = |id: u32| vm.reg.class(id).name.to_string();
    let mut per_thread: HashMap<u32, (usize, usize)> = HashMap::new();
    let mut open: HashMap<u32, bool> = HashMap::new();
    for e in &evs {
        match e {
            Ev::Enter(t, c) => {
                assert_eq!(class_name(*c), "Contend$LockBox");
                assert!(!open.insert(*t, true).unwrap_or(false), "thread {t}: contended enter twice without entered");
                per_thread.entry(*t).or_default().0 += 1;
            }
            Ev::Entered(t) => {
                assert_eq!(open.insert(*t, false), Some(true), "thread {t}: entered without enter");
                per_thread.entry(*t).or_default().1 += 1;
            }
            _ => {}
        }
    }
    assert!(!per_thread.is_empty(), "no contention seen");
    for (t, (a, b)) in &per_thread {
        assert_eq!(a, b, "thread {t}: enters and entereds pair up");
    }
    // main's waits, paired with their ends.
    let mut waits = Vec::new();
    let mut pending = None;
    for e in &evs {
        match e {
            Ev::Wait(0, c, ms) => pending = Some((class_name(*c), *ms)),
            Ev::Waited(0, to) => waits.push((pending.take().expect("waited without wait"), *to)),
            _ => {}
        }
    }
    assert!(waits.contains(&(("Contend$LockBox".to_string(), 30), true)), "{waits:?}");
    assert!(waits.contains(&(("java/lang/Object".to_string(), 0), false)), "{waits:?}");
}

#[test]
fn markers_arrive_with_kind_run_and_text() {
    let (code, rec, _vm) = run(&rvmagent(), &["-Xvps:1", "Markers"]);
    assert_eq!(code, 0);
    let marks: Vec<(u32, u32, u32, u32, String)> = rec
        .evs
        .lock()
        .unwrap()
        .iter()
        .filter_map(|e| if let Ev::Marker(vp, t, k, r, s) = e { Some((*vp, *t, *k, *r, s.clone())) } else { None })
        .collect();
    use marker_kind::*;
    let expected = vec![
        (APP_START, 0, "markers"),
        (RUN_START, 1, "run 1"),
        (NOTE, 0, "inside run 1 \u{e9}"),
        (RUN_COMPLETE, 1, "run 1"),
        (RUN_START, 2, "run 2"),
        (NOTE, 0, "inside run 2 \u{e9}"),
        (RUN_COMPLETE, 2, "run 2"),
        (APP_COMPLETE, 0, "markers"),
    ];
    let got: Vec<(u32, u32, &str)> = marks.iter().map(|m| (m.2, m.3, m.4.as_str())).collect();
    assert_eq!(got, expected);
    assert!(marks.iter().all(|m| m.0 == 0 && m.1 == 0), "on vp 0 by main: {marks:?}");
}

fn main_calls(rec: &Rec) -> Vec<Call> {
    rec.main_calls.lock().unwrap().clone().expect("recording")
}

fn entry(method: u32, stack: &[u32]) -> Call {
    Call { entry: true, by_exception: false, method, stack: stack.to_vec() }
}

fn exit(method: u32, by_exception: bool, stack: &[u32]) -> Call {
    Call { entry: false, by_exception, method, stack: stack.to_vec() }
}

/// As on HotSpot, whose launcher initialises the main class before calling `main`: the main
/// thread's first events are `<clinit>` (and what it calls), then `main`, siblings at the root;
/// `main` is not on the stack while `<clinit>` runs.
#[test]
fn main_class_is_initialised_before_main_is_entered() {
    for vps in ["-Xvps:1", "-Xvps:2"] {
        let (code, rec, vm) = run_main_calls(&rvmagent(), &[vps, "InitBeforeMain"]);
        assert_eq!(code, 0);
        let clinit = method_id(&vm, "InitBeforeMain", "<clinit>");
        let set_up = method_id(&vm, "InitBeforeMain", "setUp");
        let main = method_id(&vm, "InitBeforeMain", "main");
        let calls = main_calls(&rec);
        assert!(calls.len() > 6, "{calls:?}");
        let expected = [
            entry(clinit, &[clinit]),
            entry(set_up, &[clinit, set_up]),
            exit(set_up, false, &[clinit, set_up]),
            exit(clinit, false, &[clinit]),
            entry(main, &[main]),
        ];
        assert_eq!(calls[..5], expected[..], "{vps}");
        assert_eq!(calls.last(), Some(&exit(main, false, &[main])), "{vps}");
        // Everything in between (println, string building) runs under main.
        assert!(calls[5..].iter().all(|c| c.stack.first() == Some(&main)), "{vps}: {calls:?}");
        let own: Vec<&Call> = calls.iter().filter(|c| [clinit, set_up, main].contains(&c.method)).collect();
        assert_eq!(own.len(), 6, "{vps}: each method entered and left once: {own:?}");
        assert_eq!(rec.stack_mismatches.load(Relaxed), 0);
    }
}

/// The superclass's `<clinit>` runs first, then the main class's (which rvm used to skip when the
/// superclass had one), then `main`; the output is HotSpot's.
#[test]
fn superclass_then_main_class_are_initialised_before_main() {
    let dir = rvmagent();
    let (code, rec, vm) = run_main_calls(&dir, &["-Xvps:1", "InitSuperFirst"]);
    assert_eq!(code, 0);
    let base = method_id(&vm, "InitSuperFirstBase", "<clinit>");
    let clinit = method_id(&vm, "InitSuperFirst", "<clinit>");
    let main = method_id(&vm, "InitSuperFirst", "main");
    let own: Vec<Call> = main_calls(&rec).into_iter().filter(|c| [base, clinit, main].contains(&c.method)).collect();
    assert_eq!(
        own,
        vec![entry(base, &[base]), exit(base, false, &[base]), entry(clinit, &[clinit]), exit(clinit, false, &[clinit]), entry(main, &[main]), exit(main, false, &[main])]
    );
    let hs = Command::new(java_tests::jdk().expect("JDK").java()).arg("-cp").arg(&dir).arg("InitSuperFirst").output().expect("java");
    let rvm = Command::new(env!("CARGO_BIN_EXE_rvm")).arg("-cp").arg(&dir).arg("InitSuperFirst").output().expect("rvm");
    assert_eq!(String::from_utf8_lossy(&rvm.stdout), String::from_utf8_lossy(&hs.stdout));
    assert_eq!(String::from_utf8_lossy(&hs.stdout), "InitSuperFirstBase.<clinit>\nInitSuperFirst.<clinit>\nmain\n");
}

/// A main class whose static initialiser throws: `main` is never entered, and the program prints
/// what HotSpot prints (`Exception in thread "main" java.lang.ExceptionInInitializerError`, the
/// cause, no frame of `main`) and exits with HotSpot's code (1).
#[test]
fn throwing_static_initialiser_of_the_main_class_behaves_as_on_hotspot() {
    let dir = rvmagent();
    let hs = Command::new(java_tests::jdk().expect("JDK").java()).arg("-cp").arg(&dir).arg("InitFailsMain").output().expect("java");
    let hs_err = String::from_utf8_lossy(&hs.stderr).to_string();
    assert_eq!(hs_err.lines().next(), Some("Exception in thread \"main\" java.lang.ExceptionInInitializerError"), "{hs_err}");
    assert_eq!(hs.status.code(), Some(1));
    for vps in ["-Xvps:1", "-Xvps:2"] {
        let rvm = Command::new(env!("CARGO_BIN_EXE_rvm")).arg(vps).arg("-cp").arg(&dir).arg("InitFailsMain").output().expect("rvm");
        let rvm_err = String::from_utf8_lossy(&rvm.stderr).to_string();
        assert_eq!(rvm_err.lines().next(), hs_err.lines().next(), "{vps}: {rvm_err}");
        assert_eq!(rvm.status.code(), hs.status.code(), "{vps}");
        // The whole report too (HotSpot's has no JDK-internal frames here).
        assert_eq!(rvm_err, hs_err, "{vps}");
        assert_eq!((rvm.stdout.len(), hs.stdout.len()), (0, 0));
    }
    // Through the hooks: <clinit> and fail leave by exception, main is never entered.
    let (code, rec, vm) = run_main_calls(&dir, &["-Xvps:1", "InitFailsMain"]);
    assert_eq!(code, 1);
    let clinit = method_id(&vm, "InitFailsMain", "<clinit>");
    let fail = method_id(&vm, "InitFailsMain", "fail");
    let main = method_id(&vm, "InitFailsMain", "main");
    let calls = main_calls(&rec);
    let own: Vec<Call> = calls.iter().filter(|c| [clinit, fail, main].contains(&c.method)).cloned().collect();
    assert_eq!(own, vec![entry(clinit, &[clinit]), entry(fail, &[clinit, fail]), exit(fail, true, &[clinit, fail]), exit(clinit, true, &[clinit])]);
    assert_eq!(calls[0], entry(clinit, &[clinit]));
    assert_eq!(rec.stack_mismatches.load(Relaxed), 0);
}
