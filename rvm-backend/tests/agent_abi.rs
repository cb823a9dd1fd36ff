//! The agent interface through its C ABI: an in-process agent (its entry point a Rust closure, its
//! callbacks `extern "C"` functions) started by `agent::start`, using the queries (`current_stack`,
//! names, kinds) and service threads; the `rvm` binary's one-line errors for bad agent libraries.
//!
//! The callbacks keep their state in statics, so the tests of this file take `SERIAL` in turn.

use rvm_abi::{method_part, thread_kind, RvmCallbacks, RvmVm, SwitchInfo, ABI_VERSION};
use std::collections::HashMap;
use std::ffi::{c_void, CString};
use std::process::Command;
use std::sync::atomic::{AtomicI64, AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;
use std::thread::ThreadId;

static SERIAL: Mutex<()> = Mutex::new(());

/// The VM's handle and queries, kept by the entry point.
#[derive(Clone, Copy)]
struct VmFns {
    handle: usize,
    current_stack: extern "C" fn(*mut c_void, *mut u32, usize) -> isize,
    method_name: extern "C" fn(*mut c_void, u32, u32, *mut u8, usize) -> isize,
    thread_name: extern "C" fn(*mut c_void, u32, *mut u8, usize) -> isize,
    thread_kind: extern "C" fn(*mut c_void, u32) -> u32,
    create_service_thread: extern "C" fn(*mut c_void, u32, *const std::ffi::c_char, extern "C" fn(*mut c_void), *mut c_void) -> i64,
    wake_service_thread: extern "C" fn(*mut c_void, u32),
    method_events_off: extern "C" fn(*mut c_void, u32),
    vps: u32,
    quantum_ns: u64,
}

impl VmFns {
    fn of(vm: &RvmVm) -> VmFns {
        VmFns {
            handle: vm.vm as usize,
            current_stack: vm.current_stack,
            method_name: vm.method_name,
            thread_name: vm.thread_name,
            thread_kind: vm.thread_kind,
            create_service_thread: vm.create_service_thread,
            wake_service_thread: vm.wake_service_thread,
            method_events_off: vm.method_events_off,
            vps: vm.vps,
            quantum_ns: vm.quantum_ns,
        }
    }
    fn h(&self) -> *mut c_void {
        self.handle as *mut c_void
    }
    fn stack(&self) -> Option<Vec<u32>> {
        let mut buf = vec![0u32; 64];
        let n = (self.current_stack)(self.h(), buf.as_mut_ptr(), buf.len());
        if n < 0 {
            return None;
        }
        if n as usize > buf.len() {
            buf = vec![0u32; n as usize];
            assert_eq!((self.current_stack)(self.h(), buf.as_mut_ptr(), buf.len()), n);
        }
        buf.truncate(n as usize);
        Some(buf)
    }
    fn text(&self, f: impl Fn(*mut u8, usize) -> isize) -> Option<String> {
        let n = f(std::ptr::null_mut(), 0);
        if n < 0 {
            return None;
        }
        let mut buf = vec![0u8; n as usize];
        assert_eq!(f(buf.as_mut_ptr(), buf.len()), n);
        Some(String::from_utf8(buf).unwrap())
    }
    fn method(&self, m: u32) -> String {
        let part = |p| self.text(|b, c| (self.method_name)(self.h(), m, p, b, c)).unwrap_or_default();
        format!("{}.{}{}", part(method_part::CLASS), part(method_part::NAME), part(method_part::DESCRIPTOR))
    }
}

static FNS: Mutex<Option<VmFns>> = Mutex::new(None);

fn fns() -> VmFns {
    FNS.lock().unwrap().expect("entry point ran")
}

fn opts(args: &[&str], dir: &std::path::Path) -> rvm_backend::Options {
    let mut all: Vec<String> = args[..args.len() - 1].iter().map(|s| s.to_string()).collect();
    all.extend(["-cp".to_string(), dir.to_str().unwrap().to_string(), args[args.len() - 1].to_string()]);
    rvm_backend::parse_args(&all).unwrap()
}

// ---- current_stack and names ----

#[derive(Default)]
struct StackState {
    shadow: HashMap<u32, Vec<u32>>,
    entries: usize,
    mismatches: Vec<String>,
    exceptional: usize,
    /// The main thread's first method entry.
    first_main: Option<String>,
    /// current_stack's depth at the main thread's entry of `main` (1: `<clinit>` ran before, as
    /// on HotSpot, not under it).
    main_entry_depth: Option<usize>,
    switch_stack: Option<isize>,
}
static STACKS: Mutex<Option<StackState>> = Mutex::new(None);

extern "C" fn st_entry(_ctx: *mut c_void, tid: u32, m: u32) {
    let f = fns();
    let mut g = STACKS.lock().unwrap();
    let s = g.as_mut().unwrap();
    s.entries += 1;
    if tid == 0 && s.first_main.is_none() {
        s.first_main = Some(f.method(m));
    }
    let sh = s.shadow.entry(tid).or_default();
    sh.push(m);
    let got = f.stack();
    if tid == 0 && s.main_entry_depth.is_none() && f.method(m).ends_with(".main([Ljava/lang/String;)V") {
        s.main_entry_depth = got.as_ref().map(|g| g.len());
    }
    if got.as_ref() != Some(sh) && s.mismatches.len() < 5 {
        let msg = format!("entry of {} by {tid}: current_stack {got:?}, entries minus exits {sh:?}", f.method(m));
        s.mismatches.push(msg);
    }
}

extern "C" fn st_exit(_ctx: *mut c_void, tid: u32, m: u32, by_exception: u32) {
    let f = fns();
    let mut g = STACKS.lock().unwrap();
    let s = g.as_mut().unwrap();
    s.exceptional += by_exception as usize;
    let sh = s.shadow.entry(tid).or_default();
    let got = f.stack();
    if (got.as_ref() != Some(sh) || sh.last() != Some(&m)) && s.mismatches.len() < 5 {
        let msg = format!("exit of {} by {tid}: current_stack {got:?}, entries minus exits {sh:?}", f.method(m));
        s.mismatches.push(msg);
    }
    sh.pop();
}

extern "C" fn st_switch(_ctx: *mut c_void, _info: *const SwitchInfo) {
    // Outside method/allocation/monitor callbacks the calling thread has no stack to report.
    let n = (fns().current_stack)(fns().h(), std::ptr::null_mut(), 0);
    STACKS.lock().unwrap().as_mut().unwrap().switch_stack.get_or_insert(n);
}

#[test]
fn current_stack_in_method_events_is_the_entries_minus_exits() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = java_tests::compile("conformance").expect("compile");
    for prog in ["StaticInit", "Exceptions", "Threads"] {
        *STACKS.lock().unwrap() = Some(StackState::default());
        let o = opts(&["-Xvps:2", "-Xquantum:1", prog], &dir);
        let hooks = rvm_backend::agent::start("test-agent", Some("a=b"), &o, |vm, options, cb| {
            assert_eq!((vm.version, vm.size as usize), (ABI_VERSION, std::mem::size_of::<RvmVm>()));
            assert_eq!(options.unwrap().to_str().unwrap(), "a=b");
            *FNS.lock().unwrap() = Some(VmFns::of(vm));
            cb.method_entry = Some(st_entry);
            cb.method_exit = Some(st_exit);
            cb.thread_switch = Some(st_switch);
            0
        })
        .expect("agent starts");
        let f = fns();
        assert_eq!((f.vps, f.quantum_ns), (2, 1_000_000));
        // Before the VM exists, queries know nothing.
        assert_eq!((f.thread_kind)(f.h(), 0), u32::MAX);
        let code = rvm_backend::run_with_hooks(o, Some(Box::new(hooks)));
        assert!(code == 0 || prog == "Exceptions", "{prog}: exit {code}");
        let s = STACKS.lock().unwrap().take().unwrap();
        assert!(s.entries > 300, "{prog}: {} entries", s.entries);
        assert!(s.mismatches.is_empty(), "{prog}: {:#?}", s.mismatches);
        // Each program's main class has a static initialiser, which runs before main (as on HotSpot).
        assert_eq!(s.first_main.as_deref(), Some(format!("{prog}.<clinit>()V").as_str()), "{prog}: main's first entry");
        assert_eq!(s.main_entry_depth, Some(1), "{prog}: main's stack at its entry");
        assert_eq!(s.switch_stack, Some(-1), "{prog}: current_stack in thread_switch");
        if prog == "Exceptions" {
            assert!(s.exceptional > 0, "frames popped by exceptions");
        }
        // The handle stays valid after vm_death.
        assert_eq!(f.text(|b, c| (f.thread_name)(f.h(), 0, b, c)).as_deref(), Some("main"));
        assert_eq!((f.thread_kind)(f.h(), 0), thread_kind::APPLICATION);
        assert_eq!((f.thread_kind)(f.h(), 1), thread_kind::IDLE);
        assert_eq!((f.thread_kind)(f.h(), 1_000_000), u32::MAX);
        assert_eq!((f.thread_name)(f.h(), 1_000_000, std::ptr::null_mut(), 0), -1);
        assert_eq!((f.method_name)(f.h(), u32::MAX - 1, method_part::NAME, std::ptr::null_mut(), 0), -1);
        // Method ids are dense from 0, and each class's methods are one run of consecutive ids
        // (the interface promises it; agents find a method's overloads among its neighbours).
        let class_of = |m: u32| f.text(|b, c| (f.method_name)(f.h(), m, method_part::CLASS, b, c));
        let mut finished = std::collections::HashSet::new();
        let mut prev: Option<String> = None;
        let mut id = 0;
        while let Some(class) = class_of(id) {
            if prev.as_ref() != Some(&class) {
                assert!(finished.insert(class.clone()), "{prog}: {class}'s methods are not consecutive (id {id})");
                prev = Some(class);
            }
            id += 1;
        }
        assert!(id > 100 && finished.contains(prog), "{prog}: {id} methods, classes {finished:?}");
    }
}

// ---- method_events_off ----

#[derive(Default)]
struct OffState {
    /// Whether the agent turns off the events of class-library methods (`java/…`) on first sight.
    turn_off: bool,
    off: std::collections::HashSet<u32>,
    /// Events of methods after their events were turned off.
    after_off: Vec<String>,
    /// Entries and exits of the program's own methods.
    program: (usize, usize),
    /// Entries of class-library methods.
    library: usize,
}
static OFF: Mutex<Option<OffState>> = Mutex::new(None);

fn off_event(m: u32, what: &str) {
    let f = fns();
    let name = f.method(m);
    let mut g = OFF.lock().unwrap();
    let s = g.as_mut().unwrap();
    if s.off.contains(&m) {
        s.after_off.push(format!("{what} of {name}"));
    } else if !name.starts_with("java/") {
        if what == "entry" {
            s.program.0 += 1;
        } else {
            s.program.1 += 1;
        }
    } else if what == "entry" {
        s.library += 1;
        if s.turn_off {
            s.off.insert(m);
            (f.method_events_off)(f.h(), m);
        }
    }
}
extern "C" fn off_entry(_ctx: *mut c_void, _tid: u32, m: u32) {
    off_event(m, "entry");
}
extern "C" fn off_exit(_ctx: *mut c_void, _tid: u32, m: u32, _by_exception: u32) {
    off_event(m, "exit");
}

/// `method_events_off`: once the agent turns a method's events off, the VM reports none of its
/// entries or exits (Java or native), and the program's own methods are reported as before.
#[test]
fn methods_whose_events_are_off_are_not_reported() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = java_tests::compile("conformance").expect("compile");
    let run = |turn_off: bool| -> OffState {
        *OFF.lock().unwrap() = Some(OffState { turn_off, ..OffState::default() });
        let o = opts(&["-Xvps:1", "Exceptions"], &dir);
        let hooks = rvm_backend::agent::start("test-agent", None, &o, |vm, _, cb| {
            *FNS.lock().unwrap() = Some(VmFns::of(vm));
            cb.method_entry = Some(off_entry);
            cb.method_exit = Some(off_exit);
            0
        })
        .expect("agent starts");
        rvm_backend::run_with_hooks(o, Some(Box::new(hooks)));
        // Unknown ids are ignored.
        (fns().method_events_off)(fns().h(), u32::MAX - 1);
        OFF.lock().unwrap().take().unwrap()
    };
    let all = run(false);
    let off = run(true);
    assert!(all.library > 100 && all.program.0 > 10, "library {} program {:?}", all.library, all.program);
    assert!(off.after_off.is_empty(), "{:?}", &off.after_off[..off.after_off.len().min(5)]);
    // Each library method was seen once, at the entry that turned it off.
    assert_eq!(off.library, off.off.len());
    assert!(off.library < all.library, "library entries: {} with events off, {} without", off.library, all.library);
    assert_eq!(off.program, all.program, "the program's own entries and exits");
}

// ---- service threads ----

#[derive(Default)]
struct SvcState {
    vp_threads: HashMap<u32, ThreadId>,
    switches: Vec<SwitchInfo>,
    woken_ran: Vec<ThreadId>,
    idle_ran: usize,
    late_create: Option<i64>,
    bad_vp: Option<i64>,
}
static SVC: Mutex<Option<SvcState>> = Mutex::new(None);
static WOKEN_TID: AtomicI64 = AtomicI64::new(-1);
static IDLE_TID: AtomicI64 = AtomicI64::new(-1);
static SWITCHES: AtomicUsize = AtomicUsize::new(0);

extern "C" fn svc_woken_body(arg: *mut c_void) {
    assert_eq!(arg as usize, 42);
    SVC.lock().unwrap().as_mut().unwrap().woken_ran.push(std::thread::current().id());
}
extern "C" fn svc_idle_body(_arg: *mut c_void) {
    SVC.lock().unwrap().as_mut().unwrap().idle_ran += 1;
}
extern "C" fn svc_init(_ctx: *mut c_void) {
    let f = fns();
    let a = CString::new("svc-woken").unwrap();
    let b = CString::new("svc-never").unwrap();
    let t = (f.create_service_thread)(f.h(), 0, a.as_ptr(), svc_woken_body, 42usize as *mut c_void);
    let u = (f.create_service_thread)(f.h(), 1, b.as_ptr(), svc_idle_body, std::ptr::null_mut());
    let bad = (f.create_service_thread)(f.h(), 7, b.as_ptr(), svc_idle_body, std::ptr::null_mut());
    // (checked by the test: a panic cannot unwind out of a callback)
    WOKEN_TID.store(t, Relaxed);
    IDLE_TID.store(u, Relaxed);
    SVC.lock().unwrap().as_mut().unwrap().bad_vp = Some(bad);
}
extern "C" fn svc_vp_start(_ctx: *mut c_void, vp: u32) {
    let f = fns();
    let late = (f.create_service_thread)(f.h(), vp, c"late".as_ptr(), svc_idle_body, std::ptr::null_mut());
    let mut g = SVC.lock().unwrap();
    let s = g.as_mut().unwrap();
    s.vp_threads.insert(vp, std::thread::current().id());
    s.late_create = Some(late);
}

/// The agent's hooks, with switches observed in Rust (its C callback would get a raw pointer):
/// `.1` runs at every switch, on the switching processor under the scheduler lock.
struct OnSwitch(rvm_backend::agent::AgentHooks, fn(&SwitchInfo));

impl rvm_backend::hooks::Hooks for OnSwitch {
    fn vm_created(&self, vm: &std::sync::Arc<rvm_backend::Vm>) {
        self.0.vm_created(vm)
    }
    fn vm_init(&self, vm: &std::sync::Arc<rvm_backend::Vm>) {
        self.0.vm_init(vm)
    }
    fn vp_start(&self, vp: u32) {
        self.0.vp_start(vp)
    }
    fn thread_switch(&self, s: &SwitchInfo) {
        (self.1)(s)
    }
}

#[test]
fn service_threads_run_on_their_processor_only_when_woken() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    *SVC.lock().unwrap() = Some(SvcState::default());
    SWITCHES.store(0, Relaxed);
    let dir = java_tests::compile("conformance").expect("compile");
    let o = opts(&["-Xvps:2", "-Xquantum:2", "ThreadGc"], &dir);
    let agent = rvm_backend::agent::start("svc-agent", None, &o, |vm, _o, cb| {
        *FNS.lock().unwrap() = Some(VmFns::of(vm));
        cb.vm_init = Some(svc_init);
        cb.vp_start = Some(svc_vp_start);
        0
    })
    .expect("agent starts");

    // Every 10th switch wakes the service thread, under the scheduler lock.
    fn observe(s: &SwitchInfo) {
        SVC.lock().unwrap().as_mut().unwrap().switches.push(*s);
        if SWITCHES.fetch_add(1, Relaxed) % 10 == 9 {
            let f = fns();
            (f.wake_service_thread)(f.h(), WOKEN_TID.load(Relaxed) as u32);
        }
    }
    let code = rvm_backend::run_with_hooks(o, Some(Box::new(OnSwitch(agent, observe))));
    assert_eq!(code, 0);
    let s = SVC.lock().unwrap().take().unwrap();
    let (woken, never) = (WOKEN_TID.load(Relaxed), IDLE_TID.load(Relaxed));
    // Service threads get the ids after main (0) and the 2 × 2 idle and collector threads.
    assert_eq!((woken, never), (5, 6));
    let (woken, never) = (woken as u32, never as u32);
    assert_eq!(s.bad_vp, Some(-1), "no processor 7");
    assert_eq!(s.late_create, Some(-1), "service threads are created in vm_init only");
    assert!(!s.woken_ran.is_empty(), "the woken service thread never ran");
    assert!(s.woken_ran.iter().all(|t| *t == s.vp_threads[&0]), "ran on processor 0's OS thread");
    assert_eq!(s.idle_ran, 0, "a service thread that is never woken never runs");
    let to_woken: Vec<usize> = s.switches.iter().enumerate().filter(|(_, x)| x.to == woken).map(|(i, _)| i).collect();
    assert_eq!(to_woken.len(), s.woken_ran.len(), "one switch to the service thread per run of its body");
    let last = to_woken.last().copied();
    for i in to_woken {
        assert_eq!(s.switches[i].vp, 0);
        // The VM may end while the last wake's run is the processor's last: no switch follows it.
        let Some(next) = s.switches[i + 1..].iter().find(|x| x.vp == 0) else {
            assert_eq!(Some(i), last, "a switch after every run of the service thread but the one at exit");
            continue;
        };
        assert_eq!(next.from, woken, "processor 0 switches away from the service thread");
        assert_eq!(next.voluntary, 1);
        assert_eq!((next.callee, next.caller), (rvm_abi::NO_METHOD, rvm_abi::NO_METHOD));
    }
    assert!(s.switches.iter().all(|x| x.to != never && x.from != never));
}

// ---- entry point answers ----

#[test]
fn refusals_and_other_interface_versions_stop_the_vm() {
    let o = rvm_backend::parse_args(&["Main".to_string()]).unwrap();
    let e = rvm_backend::agent::start("/x/libno.so", None, &o, |_, _, _| 1).err().unwrap();
    assert_eq!(e, "rvm: error: agent /x/libno.so refused to start (see above)");
    let e = rvm_backend::agent::start("/x/libv3.so", None, &o, |_, _, cb: &mut RvmCallbacks| {
        cb.version = ABI_VERSION + 1;
        0
    })
    .err()
    .unwrap();
    let newer = format!("rvm: error: agent /x/libv3.so was built for rvm agent interface version {}", ABI_VERSION + 1);
    assert!(e.starts_with(&newer), "{e}");
}

fn rvm(args: &[&str]) -> (String, i32) {
    let o = Command::new(env!("CARGO_BIN_EXE_rvm")).args(args).output().expect("run rvm");
    assert!(o.stdout.is_empty(), "no Java code runs");
    (String::from_utf8_lossy(&o.stderr).into_owned(), o.status.code().unwrap_or(-1))
}

#[test]
fn bad_agent_libraries_are_one_line_errors() {
    let (err, code) = rvm(&["-agentpath:/nonexistent/libagent.so=x", "Main"]);
    assert_eq!(code, 1);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("rvm: error: cannot load agent library /nonexistent/libagent.so: "), "{err}");
    assert!(err.contains("No such file"), "{err}");
    let (err, code) = rvm(&["-agentpath:libc.so.6", "Main"]);
    assert_eq!(code, 1);
    assert_eq!(err, "rvm: error: libc.so.6 is not an rvm agent: no Agent_OnLoad_rvm symbol\n");
}

// ---- a wake as the processor goes idle ----

static SLEEP_SVC: [AtomicI64; 2] = [AtomicI64::new(-1), AtomicI64::new(-1)];
static WOKEN_AT: Mutex<Option<(u32, std::time::Instant)>> = Mutex::new(None);
static RAN_AT: Mutex<Option<(u32, std::time::Instant)>> = Mutex::new(None);

extern "C" fn sleep_svc_body(arg: *mut c_void) {
    RAN_AT.lock().unwrap().get_or_insert((arg as usize as u32, std::time::Instant::now()));
}
extern "C" fn sleep_svc_init(_ctx: *mut c_void) {
    let f = fns();
    for vp in 0..2u32 {
        let name = CString::new(format!("svc-{vp}")).unwrap();
        let tid = (f.create_service_thread)(f.h(), vp, name.as_ptr(), sleep_svc_body, vp as usize as *mut c_void);
        SLEEP_SVC[vp as usize].store(tid, Relaxed);
    }
}

#[test]
fn a_service_thread_woken_as_its_processor_goes_idle_runs_at_once() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    *WOKEN_AT.lock().unwrap() = None;
    *RAN_AT.lock().unwrap() = None;
    let dir = java_tests::compile("conformance").expect("compile");
    let o = opts(&["-Xvps:2", "Sleep"], &dir);
    let agent = rvm_backend::agent::start("sleep-agent", None, &o, |vm, _o, cb| {
        *FNS.lock().unwrap() = Some(VmFns::of(vm));
        cb.vm_init = Some(sleep_svc_init);
        0
    })
    .expect("agent starts");

    // When main leaves its processor for its 1.5 s sleep (all processors idle, nothing else to
    // wake them), the switch wakes that processor's service thread, under the scheduler lock and
    // on the processor itself, as the agent wakes its trace writer when a buffer fills.
    fn wake_at_sleep(s: &SwitchInfo) {
        let f = fns();
        if s.from == 0 && (f.thread_kind)(f.h(), s.to) == thread_kind::IDLE && WOKEN_AT.lock().unwrap().is_none() {
            *WOKEN_AT.lock().unwrap() = Some((s.vp, std::time::Instant::now()));
            (f.wake_service_thread)(f.h(), SLEEP_SVC[s.vp as usize].load(Relaxed) as u32);
        }
    }
    let code = rvm_backend::run_with_hooks(o, Some(Box::new(OnSwitch(agent, wake_at_sleep))));
    assert_eq!(code, 0);
    let (woken_vp, woken_at) = WOKEN_AT.lock().unwrap().expect("main went to sleep");
    let (ran_vp, ran_at) = RAN_AT.lock().unwrap().expect("the woken service thread ran");
    assert_eq!(ran_vp, woken_vp, "the service thread of the processor main left ran");
    // Had the wake been lost, the processor would have slept until main's deadline, 1.5 s later.
    let late = ran_at.duration_since(woken_at);
    assert!(late < std::time::Duration::from_millis(750), "service thread ran {late:?} after its wake");
}
