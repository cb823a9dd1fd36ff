//! M-to-N green threads in the Jikes RVM style.
//!
//! `N` virtual processors (OS threads) each run a loop that picks a Java thread from its own ready
//! queue (or steals one from another processor's queue when its own is empty), runs it in the
//! interpreter until the thread yields, blocks or ends, and picks again. A timer thread sets every
//! processor's yield flag each quantum; the interpreter tests the flag at yieldpoints.
//! When a processor has nothing to run it runs its idle thread; when a collection is requested
//! every processor switches to its collector thread. Idle and collector threads are VM threads of
//! this scheduler (they have thread ids and appear in thread-switch events), with Rust bodies.
//! Service threads (created by the agent during `vm_init`, bound to one processor) are VM threads
//! too: when woken (an atomic flag, no lock) their processor runs their body at its next switch,
//! before its ready queue.
//!
//! All scheduling state (queues, monitors, sleepers, thread states) is under one mutex; the Java
//! threads' own state (frames, value stack) is in a per-thread mutex held by the processor running it.

use crate::heap::Ref;
use crate::hooks::{hook, is_marker, JavaStack, SwitchInfo};
use crate::interp::Outcome;
use crate::vm::{JThread, Reacquire, Vm};
use rvm_abi::{switch_reason, NO_METHOD};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering::*};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock, RwLock};
use std::time::{Duration, Instant};

/// The current thread does not own the monitor (IllegalMonitorStateException).
#[derive(Debug)]
pub struct NotOwner;

pub struct VpShared {
    /// Set by the timer every quantum (and to request a collection); tested at yieldpoints.
    pub flag: AtomicBool,
    /// Some service thread of this processor has been woken (its own flag says which).
    pub service_pending: AtomicBool,
    /// What this processor waits on (with the scheduler lock) when it is idle or waits for a
    /// collection. One per processor, so that readying a thread wakes the one processor that
    /// should run it rather than all of them: every notify is a system call, and every needless
    /// wake-up a sleep, a wake and a turn at the scheduler lock.
    pub cv: Condvar,
}

/// A service thread: a VM thread bound to one processor, running `body` each time it is woken.
pub struct Service {
    pub tid: u32,
    pub vp: usize,
    pub pending: AtomicBool,
    pub body: Box<dyn Fn() + Send + Sync>,
}

/// What the scheduler knows of a thread without locking it (names for the agent's queries).
pub struct ThreadInfo {
    pub name: Arc<str>,
    /// An [`rvm_abi::thread_kind`].
    pub kind: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TState {
    New,
    Ready,
    Running(usize),
    /// Waiting to enter a monitor.
    Blocked,
    Sleeping(u64),
    Waiting(u32, u64),
    /// In `LockSupport.park` (token: a `parkNanos` deadline in `sleepers` wakes it only if still
    /// current).
    Parked(u64),
    Done,
}

#[derive(Default, Debug)]
pub struct Monitor {
    pub owner: u32,
    pub count: u32,
    pub entry: VecDeque<u32>,
    pub waiters: VecDeque<u32>,
}

pub struct SchedState {
    pub ready: Vec<VecDeque<u32>>,
    pub monitors: Vec<Monitor>,
    /// Monitors whose objects died (found by the collector), reused before the table grows.
    pub free_monitors: Vec<u32>,
    pub sleepers: BinaryHeap<Reverse<(Instant, u32, u64)>>,
    pub tstate: Vec<TState>,
    /// The thread is on a processor: from the switch to it until the switch away from it. A thread
    /// made ready in between (it blocked and was woken before its processor switched away) waits in
    /// `deferred` and is queued by that switch, so it never runs on two processors at once, not even
    /// in the switch events (quantum traces check it).
    pub on_vp: Vec<bool>,
    pub deferred: Vec<Option<Requeue>>,
    pub interrupted: Vec<bool>,
    /// The thread's last `Object.wait` ended by its timeout (read when it resumes).
    pub timed_out: Vec<bool>,
    /// `LockSupport`'s permit, one per thread: `unpark` of a thread that is not parked sets it,
    /// `park` consumes it instead of blocking.
    pub permit: Vec<bool>,
    pub live_nondaemon: usize,
    pub exit_code: Option<i32>,
    pub main_failed: bool,
    pub gc_requested: bool,
    pub gc_arrived: usize,
    pub gc_epoch: u64,
    pub token: u64,
    pub idle: Vec<bool>,
    pub next_vp: usize,
    pub switches: u64,
}

pub struct Sched {
    pub state: Mutex<SchedState>,
    pub vps: Vec<VpShared>,
    pub threads: RwLock<Vec<Arc<Mutex<JThread>>>>,
    /// Name and kind of every thread, by id (readable while threads' own mutexes are held).
    pub info: RwLock<Vec<ThreadInfo>>,
    /// Service threads being created (during `vm_init`), then frozen into `services`.
    pub new_services: Mutex<Vec<Arc<Service>>>,
    /// Every service thread; set before the processors start, never changed after.
    pub services: OnceLock<Vec<Arc<Service>>>,
    /// Thread ids of each processor's idle and collector threads.
    pub idle_tids: Mutex<Vec<u32>>,
    pub collector_tids: Mutex<Vec<u32>>,
    pub done: AtomicBool,
}

impl Sched {
    pub fn new(n: usize) -> Sched {
        Sched {
            state: Mutex::new(SchedState {
                ready: (0..n).map(|_| VecDeque::new()).collect(),
                monitors: vec![Monitor::default()],
                free_monitors: Vec::new(),
                sleepers: BinaryHeap::new(),
                tstate: Vec::new(),
                on_vp: Vec::new(),
                deferred: Vec::new(),
                interrupted: Vec::new(),
                timed_out: Vec::new(),
                permit: Vec::new(),
                live_nondaemon: 0,
                exit_code: None,
                main_failed: false,
                gc_requested: false,
                gc_arrived: 0,
                gc_epoch: 0,
                token: 1,
                idle: vec![false; n],
                next_vp: 0,
                switches: 0,
            }),
            vps: (0..n)
                .map(|_| VpShared { flag: AtomicBool::new(false), service_pending: AtomicBool::new(false), cv: Condvar::new() })
                .collect(),
            threads: RwLock::new(Vec::new()),
            info: RwLock::new(Vec::new()),
            new_services: Mutex::new(Vec::new()),
            services: OnceLock::new(),
            idle_tids: Mutex::new(Vec::new()),
            collector_tids: Mutex::new(Vec::new()),
            done: AtomicBool::new(false),
        }
    }
    pub fn lock(&self) -> MutexGuard<'_, SchedState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
    /// Wakes every processor (an exit, a collection requested or finished).
    pub fn wake_all(&self) {
        for v in &self.vps {
            v.cv.notify_all();
        }
    }
    /// Wakes the idle processors (to look at a new sleeper's deadline).
    fn wake_idle(&self, st: &SchedState) {
        for (v, idle) in st.idle.iter().enumerate() {
            if *idle {
                self.vps[v].cv.notify_all();
            }
        }
    }
    pub fn thread(&self, tid: u32) -> Arc<Mutex<JThread>> {
        self.threads.read().unwrap()[tid as usize].clone()
    }
    /// A thread's name, without locking the thread (`None`: no such thread).
    pub fn thread_name(&self, tid: u32) -> Option<Arc<str>> {
        self.info.read().unwrap_or_else(|e| e.into_inner()).get(tid as usize).map(|i| i.name.clone())
    }
    /// A thread's [`rvm_abi::thread_kind`], without locking the thread.
    pub fn thread_kind(&self, tid: u32) -> Option<u32> {
        self.info.read().unwrap_or_else(|e| e.into_inner()).get(tid as usize).map(|i| i.kind)
    }
}

/// Registers a new thread (not yet runnable) of kind `kind` ([`rvm_abi::thread_kind`]). Returns
/// its id.
pub fn register_thread(vm: &Vm, kind: u32, make: impl FnOnce(u32) -> JThread) -> u32 {
    let mut threads = vm.sched.threads.write().unwrap();
    let tid = threads.len() as u32;
    let th = make(tid);
    let daemon = th.daemon || th.vm_thread;
    let name: Arc<str> = th.name.as_str().into();
    threads.push(Arc::new(Mutex::new(th)));
    vm.sched.info.write().unwrap_or_else(|e| e.into_inner()).push(ThreadInfo { name: name.clone(), kind });
    drop(threads);
    let mut st = vm.sched.lock();
    st.tstate.push(TState::New);
    st.on_vp.push(false);
    st.deferred.push(None);
    st.interrupted.push(false);
    st.timed_out.push(false);
    st.permit.push(false);
    if !daemon {
        st.live_nondaemon += 1;
    }
    hook!(vm, thread_start(tid, &name, kind));
    drop(st);
    tid
}

/// Creates a service thread bound to processor `vp` that runs `body` on that processor each time
/// it has been woken ([`wake_service_thread`]). Only before the processors start (from
/// `Hooks::vm_init`); returns the thread id.
pub fn create_service_thread(vm: &Vm, vp: usize, name: &str, body: Box<dyn Fn() + Send + Sync>) -> Result<u32, String> {
    if vp >= vm.sched.vps.len() {
        return Err(format!("no virtual processor {vp} (there are {})", vm.sched.vps.len()));
    }
    if vm.sched.services.get().is_some() {
        return Err("service threads can only be created during vm_init".into());
    }
    let tid = register_thread(vm, rvm_abi::thread_kind::SERVICE, |tid| JThread::new(tid, name.to_string(), 0, true, true));
    let s = Arc::new(Service { tid, vp, pending: AtomicBool::new(false), body });
    vm.sched.new_services.lock().unwrap_or_else(|e| e.into_inner()).push(s);
    Ok(tid)
}

/// Fixes the set of service threads (before the processors start).
pub fn freeze_services(vm: &Vm) {
    let list = std::mem::take(&mut *vm.sched.new_services.lock().unwrap_or_else(|e| e.into_inner()));
    let _ = vm.sched.services.set(list);
}

/// Asks for service thread `tid` to run at its processor's next switch: sets its flag and wakes an
/// idle processor. Takes no lock (safe under the scheduler lock) and never blocks; `false` when `tid` is not a service thread (or the set is not frozen yet).
pub fn wake_service_thread(vm: &Vm, tid: u32) -> bool {
    let Some(s) = vm.sched.services.get().and_then(|l| l.iter().find(|s| s.tid == tid)) else { return false };
    s.pending.store(true, Release);
    vm.sched.vps[s.vp].service_pending.store(true, Release);
    // An idle processor checks its flag under the scheduler lock, then waits on the condvar.
    // Taking the lock for a moment, if it is free, keeps a wake from falling between the two; if
    // it is held by another thread, a processor between its check and its wait sees the wake only
    // at its next timeout (the next sleeper's deadline, or 50 ms). A wake from the processor's own
    // `thread_switch` (where agents wake their writers) comes before its check: a processor
    // delivers its switch events before it waits (`vp_loop`). Never blocks.
    if let Ok(g) = vm.sched.state.try_lock() {
        drop(g);
    }
    vm.sched.vps[s.vp].cv.notify_all();
    true
}

/// A woken service thread of processor `vp`, its flag cleared.
fn take_pending_service(vm: &Vm, vp: usize) -> Option<&Arc<Service>> {
    if !vm.sched.vps[vp].service_pending.load(Acquire) {
        return None;
    }
    let services = vm.sched.services.get()?;
    // Clear the summary flag first: a wake after this point sets it again.
    vm.sched.vps[vp].service_pending.store(false, Release);
    let mut found = None;
    for s in services.iter().filter(|s| s.vp == vp) {
        if found.is_none() && s.pending.swap(false, AcqRel) {
            found = Some(s);
        } else if s.pending.load(Acquire) {
            // more to run after this one
            vm.sched.vps[vp].service_pending.store(true, Release);
        }
    }
    found
}

/// Where a ready thread goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Requeue {
    /// An idle processor's queue, else the shortest (a thread woken by another).
    Any,
    /// The back of this processor's queue (a thread that yielded).
    Back(usize),
    /// The front of this processor's queue (a thread that waits for a collection).
    Front(usize),
}

/// Makes `tid` runnable: onto an idle processor's queue if there is one, else round robin.
pub fn make_ready(vm: &Vm, st: &mut SchedState, tid: u32) {
    requeue(vm, st, tid, Requeue::Any);
}

/// Makes `tid` runnable at `to`, or as soon as its processor has switched away from it.
pub fn requeue(vm: &Vm, st: &mut SchedState, tid: u32, to: Requeue) {
    st.tstate[tid as usize] = TState::Ready;
    if st.on_vp[tid as usize] {
        st.deferred[tid as usize] = Some(to);
        return;
    }
    let vp = match to {
        Requeue::Back(vp) => {
            st.ready[vp].push_back(tid);
            vp
        }
        Requeue::Front(vp) => {
            st.ready[vp].push_front(tid);
            vp
        }
        Requeue::Any => enqueue_anywhere(st, tid),
    };
    // Wake the processor whose queue it is if it is idle; else one idle processor, which will take
    // it from the busy one's queue. No idle processor: whoever is busy looks at the queues at its
    // next switch.
    if let Some(v) = Some(vp).filter(|v| st.idle[*v]).or_else(|| st.idle.iter().position(|i| *i)) {
        vm.sched.vps[v].cv.notify_one();
    }
}

/// Queues `tid` on an idle processor, else on the shortest queue; returns the processor.
fn enqueue_anywhere(st: &mut SchedState, tid: u32) -> usize {
    let n = st.ready.len();
    // An idle processor that has not been given work yet (an idle processor stays marked idle until
    // it wakes up, so without the empty-queue test a burst of new threads would all pile onto it).
    let vp = match (0..n).find(|v| st.idle[*v] && st.ready[*v].is_empty()) {
        Some(v) => v,
        None => {
            // the shortest queue, starting from a rotating position
            let start = st.next_vp;
            st.next_vp = (start + 1) % n;
            (0..n).map(|i| (start + i) % n).min_by_key(|v| st.ready[*v].len()).unwrap()
        }
    };
    st.ready[vp].push_back(tid);
    vp
}

fn monitor_index(vm: &Vm, st: &mut SchedState, obj: Ref) -> usize {
    let sp = vm.heap.current();
    let m = sp.get(obj as usize + 2);
    if m != 0 {
        return m as usize;
    }
    let i = match st.free_monitors.pop() {
        Some(i) => i as usize,
        None => {
            st.monitors.push(Monitor::default());
            st.monitors.len() - 1
        }
    };
    sp.set(obj as usize + 2, i as u32);
    i
}

/// Enters the monitor of `obj`; `false` means the thread was queued and must block (and retry).
/// The first block reports the contention; the acquisition that ends it reports it too.
pub fn monitor_enter(vm: &Vm, th: &mut JThread, obj: Ref) -> bool {
    let tid = th.id;
    let mut st = vm.sched.lock();
    let mi = monitor_index(vm, &mut st, obj);
    let m = &mut st.monitors[mi];
    if m.owner == 0 || m.owner == tid + 1 {
        if m.owner == 0 {
            m.owner = tid + 1;
            m.count = 1;
        } else {
            m.count += 1;
        }
        drop(st);
        if th.contending {
            th.contending = false;
            hook!(vm, monitor_contended_entered(tid, JavaStack::of(&th.frames)));
        }
        true
    } else {
        m.entry.push_back(tid);
        st.tstate[tid as usize] = TState::Blocked;
        drop(st);
        if !th.contending {
            th.contending = true;
            hook!(vm, monitor_contended_enter(tid, vm.heap.current().class_id(obj), JavaStack::of(&th.frames)));
        }
        false
    }
}

pub fn monitor_exit(vm: &Vm, tid: u32, obj: Ref) -> Result<(), NotOwner> {
    let mut st = vm.sched.lock();
    let mi = monitor_index(vm, &mut st, obj);
    release(vm, &mut st, mi, tid, false).map(|_| ())
}

/// Releases one recursion (or all when `all`) of monitor `mi`; returns the count released.
fn release(vm: &Vm, st: &mut SchedState, mi: usize, tid: u32, all: bool) -> Result<u32, NotOwner> {
    let m = &mut st.monitors[mi];
    if m.owner != tid + 1 {
        return Err(NotOwner);
    }
    let released = if all { m.count } else { 1 };
    m.count -= released;
    if m.count == 0 {
        m.owner = 0;
        if let Some(next) = m.entry.pop_front() {
            make_ready(vm, st, next);
        }
    }
    Ok(released)
}

pub fn holds_lock(vm: &Vm, tid: u32, obj: Ref) -> bool {
    let mut st = vm.sched.lock();
    let mi = monitor_index(vm, &mut st, obj);
    st.monitors[mi].owner == tid + 1
}

/// Re-enters a monitor after `wait`; `false` = queued again.
pub fn reacquire(vm: &Vm, tid: u32, mi: u32, count: u32) -> bool {
    let mut st = vm.sched.lock();
    let m = &mut st.monitors[mi as usize];
    if m.owner == 0 || m.owner == tid + 1 {
        m.owner = tid + 1;
        m.count = count;
        true
    } else {
        m.entry.push_back(tid);
        st.tstate[tid as usize] = TState::Blocked;
        false
    }
}

pub enum WaitResult {
    Blocked,
    NotOwner,
    Interrupted,
}

/// `Object.wait(ms)`: releases the monitor fully and parks the thread in its wait set.
pub fn wait(vm: &Vm, th: &mut JThread, obj: Ref, ms: i64) -> WaitResult {
    let mut st = vm.sched.lock();
    let tid = th.id;
    if std::mem::take(&mut st.interrupted[tid as usize]) {
        let mi = monitor_index(vm, &mut st, obj);
        if st.monitors[mi].owner != tid + 1 {
            return WaitResult::NotOwner;
        }
        return WaitResult::Interrupted;
    }
    let mi = monitor_index(vm, &mut st, obj);
    let Ok(count) = release(vm, &mut st, mi, tid, true) else {
        return WaitResult::NotOwner;
    };
    st.monitors[mi].waiters.push_back(tid);
    st.token += 1;
    let token = st.token;
    st.tstate[tid as usize] = TState::Waiting(mi as u32, token);
    st.timed_out[tid as usize] = false;
    if ms > 0 {
        st.sleepers.push(Reverse((Instant::now() + Duration::from_millis(ms as u64), tid, token)));
        vm.sched.wake_idle(&st);
    }
    th.reacquire = Reacquire::Monitor { monitor: mi as u32, count };
    WaitResult::Blocked
}

/// Whether thread `tid`'s last `Object.wait` ended by its timeout.
pub fn wait_timed_out(vm: &Vm, tid: u32) -> bool {
    vm.sched.lock().timed_out[tid as usize]
}

pub fn notify(vm: &Vm, tid: u32, obj: Ref, all: bool) -> Result<(), NotOwner> {
    let mut st = vm.sched.lock();
    let mi = monitor_index(vm, &mut st, obj);
    if st.monitors[mi].owner != tid + 1 {
        return Err(NotOwner);
    }
    while let Some(w) = st.monitors[mi].waiters.pop_front() {
        make_ready(vm, &mut st, w);
        if !all {
            break;
        }
    }
    Ok(())
}

/// `Thread.sleep(ms)`. `false` if the thread was already interrupted.
pub fn sleep(vm: &Vm, tid: u32, ms: i64) -> bool {
    let mut st = vm.sched.lock();
    if std::mem::take(&mut st.interrupted[tid as usize]) {
        return false;
    }
    st.token += 1;
    let token = st.token;
    st.tstate[tid as usize] = TState::Sleeping(token);
    st.sleepers.push(Reverse((Instant::now() + Duration::from_millis(ms.max(0) as u64), tid, token)));
    vm.sched.wake_idle(&st);
    true
}

/// `LockSupport.park`/`parkNanos` (`nanos` > 0: at most that long; 0: until unparked). Consumes
/// the permit if there is one, and returns at once (`false`) then or when the thread is
/// interrupted, as the JDK specifies; otherwise the thread is parked (`true`: the caller blocks,
/// freeing its processor) until [`unpark`], [`interrupt`] or the deadline makes it ready.
pub fn park(vm: &Vm, tid: u32, nanos: i64) -> bool {
    let mut st = vm.sched.lock();
    let t = tid as usize;
    if std::mem::take(&mut st.permit[t]) || st.interrupted[t] {
        return false;
    }
    st.token += 1;
    let token = st.token;
    st.tstate[t] = TState::Parked(token);
    if nanos > 0 {
        st.sleepers.push(Reverse((Instant::now() + Duration::from_nanos(nanos as u64), tid, token)));
        vm.sched.wake_idle(&st);
    }
    true
}

/// `Thread.getState` of thread `tid`: 0 runnable (new, ready or running), 1 blocked on a monitor,
/// 2 waiting (`wait`, `join`, `park` without a deadline), 3 timed waiting (`sleep`, `wait(ms)`,
/// `parkNanos`: its token is among the sleepers' deadlines), 4 ended.
pub fn thread_state(vm: &Vm, tid: u32) -> i32 {
    let st = vm.sched.lock();
    let timed = |token: u64| st.sleepers.iter().any(|Reverse((_, t, k))| *t == tid && *k == token);
    match st.tstate.get(tid as usize) {
        Some(TState::Blocked) => 1,
        Some(TState::Sleeping(_)) => 3,
        Some(TState::Waiting(_, k)) | Some(TState::Parked(k)) => {
            if timed(*k) {
                3
            } else {
                2
            }
        }
        Some(TState::Done) => 4,
        _ => 0,
    }
}

/// `LockSupport.unpark`: makes a parked thread ready, else gives it the permit (a thread not
/// parked yet, or not blocked in `park`, returns from its next `park` at once).
pub fn unpark(vm: &Vm, tid: u32) {
    let mut st = vm.sched.lock();
    match st.tstate.get(tid as usize) {
        Some(TState::Parked(_)) => make_ready(vm, &mut st, tid),
        Some(TState::Done) | None => {}
        Some(_) => st.permit[tid as usize] = true,
    }
}

/// `Thread.interrupt()`: wakes a sleeping or waiting thread with an InterruptedException, and a
/// parked one without (it sees its interrupt status, as in the JDK).
pub fn interrupt(vm: &Vm, tid: u32) {
    let mut st = vm.sched.lock();
    if let TState::Parked(_) = st.tstate[tid as usize] {
        st.interrupted[tid as usize] = true;
        make_ready(vm, &mut st, tid);
        return;
    }
    match st.tstate[tid as usize] {
        TState::Sleeping(_) | TState::Waiting(..) => {
            if let TState::Waiting(mi, _) = st.tstate[tid as usize] {
                st.monitors[mi as usize].waiters.retain(|t| *t != tid);
            }
            drop(st);
            // The thread is parked, so its mutex is free (or about to be released by its processor).
            let t = vm.sched.thread(tid);
            let mut th = t.lock().unwrap();
            let sp = vm.heap.current();
            th.pending = crate::interp::make_exception(vm, &sp, &th, "java/lang/InterruptedException", Some("sleep interrupted"))
                .unwrap_or(0);
            drop(th);
            let mut st = vm.sched.lock();
            if matches!(st.tstate[tid as usize], TState::Sleeping(_) | TState::Waiting(..)) {
                make_ready(vm, &mut st, tid);
            }
        }
        _ => st.interrupted[tid as usize] = true,
    }
}

fn wake_sleepers(vm: &Vm, st: &mut SchedState) -> Option<Instant> {
    let now = Instant::now();
    while let Some(Reverse((t, tid, token))) = st.sleepers.peek().copied() {
        if t > now {
            return Some(t);
        }
        st.sleepers.pop();
        match st.tstate[tid as usize] {
            TState::Sleeping(k) | TState::Parked(k) if k == token => make_ready(vm, st, tid),
            TState::Waiting(mi, k) if k == token => {
                st.monitors[mi as usize].waiters.retain(|x| *x != tid);
                st.timed_out[tid as usize] = true;
                make_ready(vm, st, tid);
            }
            _ => {}
        }
    }
    None
}

/// Asks every processor to stop its mutator at the next yieldpoint and run its collector thread.
pub fn request_gc(vm: &Vm, st: &mut SchedState) {
    if !st.gc_requested {
        st.gc_requested = true;
        for v in &vm.sched.vps {
            v.flag.store(true, Relaxed);
        }
        vm.sched.wake_all();
    }
}

/// The thread a processor runs now, for switch events: its id and, for a Java thread, the method
/// in which it took its last yieldpoint and that method's caller.
struct Current {
    tid: u32,
    callee: u32,
    caller: u32,
}

/// The top two method ids of a thread's stack (marker frames skipped), [`NO_METHOD`] for none.
#[inline]
fn top_two(th: &JThread) -> (u32, u32) {
    let mut it = th.frames.iter().rev().filter(|f| !is_marker(f)).map(|f| f.method.id);
    (it.next().unwrap_or(NO_METHOD), it.next().unwrap_or(NO_METHOD))
}

/// The collector thread of processor `vp`: rendezvous with all other processors; the last to
/// arrive runs the collection while the others wait.
fn collector<'a>(vm: &'a Vm, vp: usize, mut st: MutexGuard<'a, SchedState>, current: &mut Current, reason: u32, switches: &mut Switches) -> MutexGuard<'a, SchedState> {
    let ctid = vm.sched.collector_tids.lock().unwrap()[vp];
    // (a switch to the collector is voluntary: a thread stopped by the collection's request is
    // reported as leaving for the collection)
    let reason = if reason == switch_reason::PREEMPTED { switch_reason::GC } else { reason };
    switch_hook(vm, vp, current, ctid, reason, &mut st, switches);
    if !switches.is_empty() {
        // Deliver the switch to the collector thread before the collection (its events follow
        // it). This processor has not arrived yet, so no collection starts meanwhile.
        drop(st);
        switches.deliver(vm);
        st = vm.sched.lock();
    }
    let epoch = st.gc_epoch;
    st.gc_arrived += 1;
    if st.gc_arrived == vm.sched.vps.len() {
        crate::gc::collect(vm, &mut st);
        st.gc_requested = false;
        st.gc_arrived = 0;
        st.gc_epoch += 1;
        vm.sched.wake_all();
    } else {
        // (a processor that saw the VM exit will never arrive)
        while st.gc_epoch == epoch && st.exit_code.is_none() {
            st = vm.sched.vps[vp].cv.wait(st).unwrap_or_else(|e| e.into_inner());
        }
    }
    st
}

/// Switch events a processor made under the scheduler lock, delivered by [`Switches::deliver`]
/// once it released the lock: the agent's switch work (metric reads, trace records) never holds
/// the other processors up. Per processor, in the order made; room for a few, never reallocated in
/// steady state (a processor makes at most three before it releases the lock).
pub(crate) struct Switches {
    events: Vec<SwitchInfo>,
}

impl Switches {
    fn new() -> Switches {
        Switches { events: Vec::with_capacity(8) }
    }

    fn is_empty(&self) -> bool {
        self.events.is_empty()
    }

    /// Delivers the events made so far, in order, without the scheduler lock.
    fn deliver(&mut self, vm: &Vm) {
        for s in self.events.drain(..) {
            hook!(vm, thread_switch(&s));
        }
    }
}

/// Why a Java thread left its processor after `interp::run` returned `o` (an
/// [`rvm_abi::switch_reason`]): what the native that blocked or yielded said, else the outcome's.
fn leave_reason(o: Outcome, th: &mut JThread) -> u32 {
    let said = std::mem::take(&mut th.switch_reason);
    match o {
        Outcome::Yield => switch_reason::PREEMPTED,
        Outcome::Yielded if said != 0 => said,
        Outcome::Yielded => switch_reason::YIELD,
        Outcome::Blocked if said != 0 => said,
        // (a contended monitor, also when re-entering one after `wait`)
        Outcome::Blocked => switch_reason::MONITOR,
        Outcome::NeedGc => switch_reason::GC,
        Outcome::Finished | Outcome::Exit(_) => switch_reason::END,
    }
}

/// The one place where a processor changes threads (application, idle, collector or service
/// thread). `reason`: why the previous thread gave up the processor (an [`rvm_abi::switch_reason`];
/// `PREEMPTED` when its quantum expired).
/// Under the scheduler lock: the event is stamped with the time now and delivered after the lock
/// is released ([`Switches`]).
fn switch_hook(vm: &Vm, vp: usize, current: &mut Current, to: u32, reason: u32, st: &mut SchedState, switches: &mut Switches) {
    st.switches += 1;
    let from = current.tid;
    if vm.events.thread_switch && vm.hooks.is_some() {
        switches.events.push(SwitchInfo {
            vp: vp as u32,
            from: current.tid,
            to,
            voluntary: (reason != switch_reason::PREEMPTED) as u32,
            callee: current.callee,
            caller: current.caller,
            time_ns: crate::agent::monotonic_ns(),
            reason,
            reserved: 0,
        });
    }
    *current = Current { tid: to, callee: NO_METHOD, caller: NO_METHOD };
    if from != to {
        st.on_vp[from as usize] = false;
        st.on_vp[to as usize] = true;
        if let Some(r) = st.deferred[from as usize].take() {
            requeue(vm, st, from, r);
        }
    }
}

/// The loop of one virtual processor.
pub fn vp_loop(vm: Arc<Vm>, vp: usize) {
    hook!(vm, vp_start(vp as u32));
    let idle_tid = vm.sched.idle_tids.lock().unwrap()[vp];
    // The thread this processor runs now (for switch events), and whether it left voluntarily.
    let mut current = Current { tid: idle_tid, callee: NO_METHOD, caller: NO_METHOD };
    let mut switches = Switches::new();
    let mut reason = switch_reason::VM;
    loop {
        let tid = {
            let mut st = vm.sched.lock();
            loop {
                if let Some(code) = st.exit_code {
                    vm.sched.wake_all();
                    drop(st);
                    switches.deliver(&vm);
                    hook!(vm, vp_end(vp as u32, code));
                    return;
                }
                if st.gc_requested {
                    st = collector(&vm, vp, st, &mut current, reason, &mut switches);
                    reason = switch_reason::VM;
                    continue;
                }
                if let Some(s) = take_pending_service(&vm, vp) {
                    switch_hook(&vm, vp, &mut current, s.tid, reason, &mut st, &mut switches);
                    drop(st);
                    switches.deliver(&vm);
                    (s.body)();
                    st = vm.sched.lock();
                    // the service thread gives the processor back when its body returns
                    reason = switch_reason::VM;
                    continue;
                }
                let next = wake_sleepers(&vm, &mut st);
                let mine = st.ready[vp].pop_front();
                let got = mine.or_else(|| {
                    // Move work from the busiest processor to this idle one.
                    let busiest = (0..st.ready.len()).filter(|v| *v != vp).max_by_key(|v| st.ready[*v].len())?;
                    st.ready[busiest].pop_back()
                });
                if let Some(t) = got {
                    st.idle[vp] = false;
                    st.tstate[t as usize] = TState::Running(vp);
                    switch_hook(&vm, vp, &mut current, t, reason, &mut st, &mut switches);
                    break t;
                }
                // (also after a collection that began while this processor was idle: the collector
                // thread hands the processor back to the idle thread, not to nobody)
                if current.tid != idle_tid {
                    switch_hook(&vm, vp, &mut current, idle_tid, reason, &mut st, &mut switches);
                    // the idle thread leaves the processor as a VM thread does
                    reason = switch_reason::VM;
                    if st.ready.iter().any(|q| !q.is_empty()) {
                        // the thread this processor just left became ready (deferred, see `on_vp`)
                        // and was queued by that switch: run or steal it rather than wait
                        continue;
                    }
                }
                if !switches.is_empty() {
                    // Deliver the switch to idle before waiting (an agent may wake a service
                    // thread of this processor in it), then look again.
                    drop(st);
                    switches.deliver(&vm);
                    st = vm.sched.lock();
                    continue;
                }
                if vm.sched.vps[vp].service_pending.load(Acquire) {
                    // woken during the switch to idle above (an agent's buffer filled on it): the
                    // wake's notify came from this thread, so no wait would see it
                    continue;
                }
                reason = switch_reason::VM;
                st.idle[vp] = true;
                let timeout = next.map_or(Duration::from_millis(50), |t| t.saturating_duration_since(Instant::now()));
                st = vm.sched.vps[vp].cv.wait_timeout(st, timeout).unwrap_or_else(|e| e.into_inner()).0;
            }
        };
        switches.deliver(&vm);
        let t = vm.sched.thread(tid);
        let mut th = t.lock().unwrap_or_else(|e| e.into_inner());
        th.cpu_start = crate::agent::thread_cpu_ns();
        // Run this thread until it yields and nobody else wants the processor.
        let outcome = loop {
            vm.sched.vps[vp].flag.store(false, Relaxed);
            let o = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| crate::interp::run(&vm, vp, &mut th))) {
                Ok(o) => o,
                Err(payload) => match payload.downcast::<crate::interp::VerifyFailure>() {
                    // The class is invalid: the VM ends as by System.exit(1), with its exit path
                    // (the agent's reports) and one line naming the method.
                    Ok(v) => {
                        vm.flush_out();
                        let at = th.frames.iter().rev().find(|f| !is_marker(f)).map_or("?".to_string(), |f| format!("{}.{}{}", f.method.class_name.replace('/', "."), f.method.name, f.method.desc));
                        eprintln!("rvm: error: java.lang.VerifyError: {at}: {}: the class failed verification; the VM stops", v.0);
                        Outcome::Exit(1)
                    }
                    Err(other) => std::panic::resume_unwind(other),
                },
            };
            // Where the thread stopped, for the switch event (it is still held here).
            (current.callee, current.caller) = top_two(&th);
            reason = leave_reason(o, &mut th);
            if o == Outcome::Yield || o == Outcome::Yielded {
                let mut st = vm.sched.lock();
                if !st.gc_requested
                    && st.ready[vp].is_empty()
                    && st.exit_code.is_none()
                    && !vm.sched.vps[vp].service_pending.load(Acquire)
                {
                    // Nobody else wants this processor: a new quantum for the same thread.
                    switch_hook(&vm, vp, &mut current, tid, reason, &mut st, &mut switches);
                    drop(st);
                    switches.deliver(&vm);
                    continue;
                }
            }
            break o;
        };
        th.cpu_ns += crate::agent::thread_cpu_ns().saturating_sub(th.cpu_start);
        match outcome {
            Outcome::Yield | Outcome::Yielded => {
                drop(th);
                let mut st = vm.sched.lock();
                requeue(&vm, &mut st, tid, Requeue::Back(vp));
            }
            Outcome::NeedGc => {
                drop(th);
                let mut st = vm.sched.lock();
                requeue(&vm, &mut st, tid, Requeue::Front(vp));
                request_gc(&vm, &mut st);
            }
            Outcome::Blocked => drop(th),
            Outcome::Finished => {
                let daemon = th.daemon;
                let main_failed = th.id == 0 && th.uncaught;
                th.finished = true;
                // Nothing of a finished thread is needed any more: free its stacks and let its
                // java.lang.Thread object (and whatever it references) be collected.
                th.stack = Vec::new();
                th.frames = Vec::new();
                th.obj = 0;
                th.pending = 0;
                drop(th);
                hook!(vm, thread_end(tid));
                let mut st = vm.sched.lock();
                st.tstate[tid as usize] = TState::Done;
                if main_failed {
                    st.main_failed = true;
                }
                if !daemon {
                    st.live_nondaemon -= 1;
                    if st.live_nondaemon == 0 {
                        st.exit_code = Some(if st.main_failed { 1 } else { 0 });
                        vm.sched.wake_all();
                    }
                }
            }
            Outcome::Exit(code) => {
                drop(th);
                request_exit(&vm, &mut vm.sched.lock(), code);
            }
        }
    }
}

/// Ends the VM with exit code `code` (`System.exit`, or a termination signal), unless an exit is
/// already under way: processors stop at their next switch or yieldpoint, then the launcher reports
/// `vm_death`.
pub fn request_exit(vm: &Vm, st: &mut SchedState, code: i32) {
    if st.exit_code.is_none() {
        st.exit_code = Some(code);
    }
    vm.sched.wake_all();
}

/// The quantum timer: sets every processor's yield flag each quantum, and turns a termination
/// signal into an exit (see `signals.rs`).
pub fn timer_loop(vm: Arc<Vm>) {
    let q = Duration::from_millis(vm.opts.quantum_ms.max(1));
    while !vm.sched.done.load(Relaxed) {
        std::thread::sleep(q);
        for v in &vm.sched.vps {
            v.flag.store(true, Relaxed);
        }
        let mut st = vm.sched.lock();
        if let Some(signal) = crate::signals::received() {
            // 128 + signal, the status a shell shows for a process killed by it (HotSpot's too).
            request_exit(&vm, &mut st, 128 + signal);
        }
        wake_sleepers(&vm, &mut st);
    }
}
