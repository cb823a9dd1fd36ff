//! The hook interface reports real events: thread starts with names, balanced method entry/exit
//! per thread, thread switches that include the idle and collector threads, collections and
//! allocations.

use rvm_backend::hooks::{Hooks, JavaStack, SwitchInfo};
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Mutex};

#[derive(Default)]
struct Recorder {
    threads: Mutex<HashMap<u32, (String, bool)>>,
    depth: Mutex<HashMap<u32, i64>>,
    entries: AtomicUsize,
    switches: Mutex<Vec<(usize, u32, u32, bool)>>,
    gc_start: AtomicUsize,
    gc_end: AtomicUsize,
    alloc_bytes: AtomicUsize,
    ended: Mutex<Vec<u32>>,
    death: Mutex<Option<i32>>,
    first_method: Mutex<Option<String>>,
    vm: Mutex<Option<std::sync::Weak<rvm_backend::Vm>>>,
}

struct Shared(Arc<Recorder>);

impl Hooks for Shared {
    fn vm_init(&self, vm: &Arc<rvm_backend::Vm>) {
        *self.0.vm.lock().unwrap() = Some(Arc::downgrade(vm));
    }
    fn vm_death(&self, code: i32) {
        *self.0.death.lock().unwrap() = Some(code);
    }
    fn thread_start(&self, tid: u32, name: &str, kind: u32) {
        let vm_thread = kind >= rvm_abi::thread_kind::IDLE;
        self.0.threads.lock().unwrap().insert(tid, (name.to_string(), vm_thread));
    }
    fn thread_end(&self, tid: u32) {
        self.0.ended.lock().unwrap().push(tid);
    }
    fn thread_switch(&self, s: &SwitchInfo) {
        self.0.switches.lock().unwrap().push((s.vp as usize, s.from, s.to, s.voluntary != 0));
    }
    fn method_entry(&self, tid: u32, m: u32, _stack: JavaStack) {
        if self.0.entries.fetch_add(1, Relaxed) == 0 {
            let vm = self.0.vm.lock().unwrap().as_ref().and_then(|w| w.upgrade()).expect("vm_init before methods");
            *self.0.first_method.lock().unwrap() = Some(vm.reg.method(m).full_name());
        }
        *self.0.depth.lock().unwrap().entry(tid).or_default() += 1;
    }
    fn method_exit(&self, tid: u32, _m: u32, _by_exception: bool, _stack: JavaStack) {
        *self.0.depth.lock().unwrap().entry(tid).or_default() -= 1;
    }
    fn allocation(&self, _tid: u32, _class: u32, bytes: usize, _stack: JavaStack) {
        self.0.alloc_bytes.fetch_add(bytes, Relaxed);
    }
    fn gc_start(&self) {
        self.0.gc_start.fetch_add(1, Relaxed);
    }
    fn gc_finish(&self) {
        self.0.gc_end.fetch_add(1, Relaxed);
    }
}

#[test]
fn hooks_see_threads_methods_switches_and_collections() {
    let dir = java_tests::compile("conformance").expect("compile");
    let args: Vec<String> =
        ["-Xvps:2", "-Xmx8m", "-Xquantum:1", "-cp", dir.to_str().unwrap(), "ThreadGc"].iter().map(|s| s.to_string()).collect();
    let opts = rvm_backend::parse_args(&args).unwrap();
    let rec = Arc::new(Recorder::default());
    let code = rvm_backend::run_with_hooks(opts, Some(Box::new(Shared(rec.clone()))));
    assert_eq!(code, 0);
    assert_eq!(*rec.death.lock().unwrap(), Some(0));
    // The first method entered: the main class's static initialiser, which runs before main (as on
    // HotSpot).
    assert_eq!(rec.first_method.lock().unwrap().as_deref(), Some("ThreadGc.<clinit>()V"));

    let threads = rec.threads.lock().unwrap().clone();
    let names: Vec<&str> = threads.values().map(|(n, _)| n.as_str()).collect();
    for n in ["main", "producer-0", "producer-3", "VM.Idle-0", "VM.Idle-1", "VM.Collector-0", "VM.Collector-1"] {
        assert!(names.contains(&n), "no thread {n} in {names:?}");
    }
    let vm_tids: Vec<u32> = threads.iter().filter(|(_, (_, vm))| *vm).map(|(t, _)| *t).collect();
    assert_eq!(vm_tids.len(), 4);

    // Every application thread ended with as many exits as entries.
    let ended = rec.ended.lock().unwrap().clone();
    assert_eq!(ended.len(), threads.len() - 4, "all application threads end");
    for (tid, d) in rec.depth.lock().unwrap().iter() {
        assert_eq!(*d, 0, "thread {tid}: entries and exits do not balance");
    }
    assert!(rec.entries.load(Relaxed) > 100_000);

    // Collections happened, each bracketed, and the collector threads were switched to.
    let gcs = rec.gc_start.load(Relaxed);
    assert!(gcs >= 1);
    assert_eq!(gcs, rec.gc_end.load(Relaxed));
    let switches = rec.switches.lock().unwrap().clone();
    let collector_tids: Vec<u32> =
        threads.iter().filter(|(_, (n, _))| n.starts_with("VM.Collector")).map(|(t, _)| *t).collect();
    let to_collector = switches.iter().filter(|s| collector_tids.contains(&s.2)).count();
    assert!(to_collector >= gcs * 2, "each collection switches both processors to their collector threads");
    // Both processors ran threads, switches chain (each starts from the previous `to` on that vp).
    for vp in 0..2 {
        let mine: Vec<_> = switches.iter().filter(|s| s.0 == vp).collect();
        assert!(mine.len() > 10, "vp {vp} switched {} times", mine.len());
        for w in mine.windows(2) {
            assert_eq!(w[0].2, w[1].1, "vp {vp}: switch from a thread it was not running");
        }
    }
    // Work moved to both processors: each ran application threads, not only its VM threads.
    for vp in 0..2 {
        assert!(
            switches.iter().any(|s| s.0 == vp && !vm_tids.contains(&s.2)),
            "vp {vp} never ran an application thread"
        );
    }
    // Preemptions (involuntary) and voluntary switches (waits on the queue's monitor) both occur.
    assert!(switches.iter().any(|s| !s.3) && switches.iter().any(|s| s.3));
    assert!(rec.alloc_bytes.load(Relaxed) > 8 << 20, "allocated more than the heap");
}
