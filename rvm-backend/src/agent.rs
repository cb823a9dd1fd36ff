//! The research VM's native interface: loads an agent library (`-agentpath:LIB=OPTIONS`) and drives
//! it through the C ABI of the `rvm-abi` crate, the way `java` drives a JVMTI agent. The only
//! module of rvm with `unsafe` code.
//!
//! - [`load`] opens the library (never unloaded: agent threads and callbacks may run until the
//!   process exits), finds [`rvm_abi::ENTRY_POINT`], and calls it through [`start`].
//! - [`start`] builds the [`RvmVm`] (handle, processor count, quantum, query functions), calls the
//!   entry point with the options and an empty [`RvmCallbacks`], checks the agent's interface
//!   version and wraps the callbacks in [`AgentHooks`], a [`Hooks`] implementation, so the VM
//!   reports events through `Vm::hooks` as it does to Rust hooks.
//!
//! The `vm` handle points to a leaked `Host` that keeps the `Vm` alive (set by
//! [`Hooks::vm_created`], before the first thread is registered): a query made at any time after
//! the entry point — even by an agent thread after `vm_death` — never touches a freed VM; before the
//! VM exists queries answer "unknown". `current_stack` reads the stack of the event being delivered
//! on the calling OS thread: [`AgentHooks`] publishes it in a thread-local for the duration of the
//! callbacks that carry one (method entry/exit, allocation, monitor events, markers) and the query
//! answers -1 elsewhere. No query takes the scheduler lock or a thread's own mutex, so all are safe
//! in `thread_start`, which runs under the scheduler lock. [`monotonic_ns`] stamps switch events
//! (`SwitchInfo::time_ns`).

use crate::hooks::{Events, Hooks, JavaStack};
use crate::vm::{Frame, Options, Vm};
use rvm_abi::{method_part, AgentCtx, RvmCallbacks, RvmVm, SwitchInfo, VmHandle, ABI_VERSION};
use std::cell::Cell;
use std::ffi::{c_char, c_void, CStr, CString};
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// CLOCK_MONOTONIC in ns (the agent interface's time base: `SwitchInfo::time_ns`). A vDSO call,
/// no system call.
pub fn monotonic_ns() -> u64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid, writable timespec for the call; CLOCK_MONOTONIC always exists.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    if rc != 0 {
        return 0;
    }
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

/// CPU time (ns) of the calling OS thread (CLOCK_THREAD_CPUTIME_ID), 0 if unreadable.
pub fn thread_cpu_ns() -> u64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid, writable timespec for the call; the clock exists on Linux.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return 0;
    }
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

/// What the ABI's `vm` handle points to. Leaked: valid for the rest of the process.
struct Host {
    vm: OnceLock<Arc<Vm>>,
}

/// Opens agent library `lib`, calls its entry point with `options` and returns its callbacks as
/// [`Hooks`]. Errors are one line, ready for stderr (the caller exits with code 1).
pub fn load(lib_path: &Path, options: Option<&str>, opts: &Options) -> Result<AgentHooks, String> {
    let lib = lib_path.display().to_string();
    // SAFETY: opening the library runs its initialisers; running the code of the library named by
    // `-agentpath` is what the option asks for (as with `java -agentpath`).
    let library = unsafe { libloading::Library::new(lib_path) }.map_err(|e| {
        // dlerror() usually starts with the path; say it once.
        let reason = e.to_string();
        let reason = reason.strip_prefix(&format!("{lib}: ")).unwrap_or(&reason);
        format!("rvm: error: cannot load agent library {lib}: {reason}")
    })?;
    // SAFETY: the symbol is declared by the ABI as an `EntryPoint`; a library exporting
    // `Agent_OnLoad_rvm` with another signature breaks the contract it claims to implement. The
    // function pointer is copied out of the `Symbol`, which is sound because the library is never
    // unloaded (forgotten below).
    let entry: rvm_abi::EntryPoint = match unsafe { library.get::<rvm_abi::EntryPoint>(rvm_abi::ENTRY_POINT) } {
        Ok(sym) => *sym,
        Err(_) => return Err(format!("rvm: error: {lib} is not an rvm agent: no Agent_OnLoad_rvm symbol")),
    };
    // Never unloaded: the agent's threads and callbacks may run until the process exits.
    std::mem::forget(library);
    start(&lib, options, opts, |vm, o, cb| {
        // SAFETY: `vm` and `cb` are valid for the call (references), `o` is null or a NUL-terminated
        // string that outlives the call; the ABI lets the agent keep `vm` (leaked, see `start`).
        unsafe { entry(vm, o.map_or(std::ptr::null(), CStr::as_ptr), cb) }
    })
}

/// Starts an agent given its entry point as a Rust closure (the library's `Agent_OnLoad_rvm` for
/// [`load`]; tests pass an in-process agent): builds the [`RvmVm`], calls `entry` with the options
/// and empty callbacks, checks the answer. `label` names the agent in error lines.
pub fn start(
    label: &str,
    options: Option<&str>,
    opts: &Options,
    entry: impl FnOnce(&RvmVm, Option<&CStr>, &mut RvmCallbacks) -> i32,
) -> Result<AgentHooks, String> {
    let options = match options.map(CString::new).transpose() {
        Ok(o) => o,
        Err(_) => return Err(format!("rvm: error: the options of agent {label} contain a NUL character")),
    };
    let host: &'static Host = Box::leak(Box::new(Host { vm: OnceLock::new() }));
    let vm: &'static RvmVm = Box::leak(Box::new(RvmVm {
        version: ABI_VERSION,
        size: std::mem::size_of::<RvmVm>() as u32,
        vm: host as *const Host as VmHandle,
        vps: opts.vps as u32,
        quantum_ns: opts.quantum_ms.saturating_mul(1_000_000),
        thread_name: q_thread_name,
        thread_kind: q_thread_kind,
        method_name: q_method_name,
        class_name: q_class_name,
        current_stack: q_current_stack,
        create_service_thread: q_create_service_thread,
        wake_service_thread: q_wake_service_thread,
        method_events_off: q_method_events_off,
    }));
    let mut cb = RvmCallbacks::empty();
    if entry(vm, options.as_deref(), &mut cb) != 0 {
        return Err(format!("rvm: error: agent {label} refused to start (see above)"));
    }
    if cb.version != ABI_VERSION {
        return Err(format!(
            "rvm: error: agent {label} was built for rvm agent interface version {}, this rvm provides version {ABI_VERSION}",
            cb.version
        ));
    }
    Ok(AgentHooks { cb, host })
}

/// An agent's callbacks as [`Hooks`].
pub struct AgentHooks {
    cb: RvmCallbacks,
    host: &'static Host,
}

// SAFETY: the ABI requires the agent's callbacks to be callable from any thread (they run on every
// processor's OS thread and the launcher's) and `ctx` is the agent's own pointer, which the VM
// only passes back; the function pointers themselves are plain code addresses.
unsafe impl Send for AgentHooks {}
// SAFETY: as for `Send`: the VM never dereferences `ctx`, it only hands it to the agent's
// callbacks, which the ABI requires to be thread-safe.
unsafe impl Sync for AgentHooks {}

impl AgentHooks {
    #[inline]
    fn ctx(&self) -> AgentCtx {
        self.cb.ctx
    }
}

thread_local! {
    /// The Java stack of the event being delivered on this OS thread: (frames, depth, native
    /// method), set by `with_stack` for the duration of one callback.
    static STACK: Cell<Option<(*const Frame, usize, u32)>> = const { Cell::new(None) };
}

/// Runs `f` (a callback) with `stack` readable by `current_stack` on this thread.
#[inline]
fn with_stack<R>(stack: JavaStack<'_>, f: impl FnOnce() -> R) -> R {
    let prev = STACK.replace(Some((stack.frames.as_ptr(), stack.frames.len(), stack.native)));
    let r = f();
    STACK.set(prev);
    r
}

impl Hooks for AgentHooks {
    fn events(&self) -> Events {
        let c = &self.cb;
        Events {
            vp_start: c.vp_start.is_some(),
            vp_end: c.vp_end.is_some(),
            thread_start: c.thread_start.is_some(),
            thread_end: c.thread_end.is_some(),
            thread_switch: c.thread_switch.is_some(),
            method_entry: c.method_entry.is_some(),
            method_exit: c.method_exit.is_some(),
            allocation: c.allocation.is_some(),
            gc_start: c.gc_start.is_some(),
            gc_finish: c.gc_finish.is_some(),
            monitor_contended_enter: c.monitor_contended_enter.is_some(),
            monitor_contended_entered: c.monitor_contended_entered.is_some(),
            monitor_wait: c.monitor_wait.is_some(),
            monitor_waited: c.monitor_waited.is_some(),
            marker: c.marker.is_some(),
        }
    }
    fn vm_created(&self, vm: &Arc<Vm>) {
        let _ = self.host.vm.set(vm.clone());
    }
    fn vm_init(&self, _vm: &Arc<Vm>) {
        if let Some(f) = self.cb.vm_init {
            f(self.ctx());
        }
    }
    fn vm_death(&self, exit_code: i32) {
        if let Some(f) = self.cb.vm_death {
            f(self.ctx(), exit_code);
        }
    }
    fn vp_start(&self, vp: u32) {
        if let Some(f) = self.cb.vp_start {
            f(self.ctx(), vp);
        }
    }
    fn vp_end(&self, vp: u32, exit_code: i32) {
        if let Some(f) = self.cb.vp_end {
            f(self.ctx(), vp, exit_code);
        }
    }
    fn thread_start(&self, tid: u32, name: &str, kind: u32) {
        if let Some(f) = self.cb.thread_start {
            f(self.ctx(), tid, name.as_ptr(), name.len(), kind);
        }
    }
    fn thread_end(&self, tid: u32) {
        if let Some(f) = self.cb.thread_end {
            f(self.ctx(), tid);
        }
    }
    fn thread_switch(&self, s: &SwitchInfo) {
        if let Some(f) = self.cb.thread_switch {
            f(self.ctx(), s);
        }
    }
    fn method_entry(&self, tid: u32, method: u32, stack: JavaStack<'_>) {
        if let Some(f) = self.cb.method_entry {
            with_stack(stack, || f(self.ctx(), tid, method));
        }
    }
    fn method_exit(&self, tid: u32, method: u32, by_exception: bool, stack: JavaStack<'_>) {
        if let Some(f) = self.cb.method_exit {
            with_stack(stack, || f(self.ctx(), tid, method, by_exception as u32));
        }
    }
    fn allocation(&self, tid: u32, class: u32, bytes: usize, stack: JavaStack<'_>) {
        if let Some(f) = self.cb.allocation {
            with_stack(stack, || f(self.ctx(), tid, class, bytes as u64));
        }
    }
    fn gc_start(&self) {
        if let Some(f) = self.cb.gc_start {
            f(self.ctx());
        }
    }
    fn gc_finish(&self) {
        if let Some(f) = self.cb.gc_finish {
            f(self.ctx());
        }
    }
    fn monitor_contended_enter(&self, tid: u32, class: u32, stack: JavaStack<'_>) {
        if let Some(f) = self.cb.monitor_contended_enter {
            with_stack(stack, || f(self.ctx(), tid, class));
        }
    }
    fn monitor_contended_entered(&self, tid: u32, stack: JavaStack<'_>) {
        if let Some(f) = self.cb.monitor_contended_entered {
            with_stack(stack, || f(self.ctx(), tid));
        }
    }
    fn monitor_wait(&self, tid: u32, class: u32, timeout_ms: i64, stack: JavaStack<'_>) {
        if let Some(f) = self.cb.monitor_wait {
            with_stack(stack, || f(self.ctx(), tid, class, timeout_ms));
        }
    }
    fn monitor_waited(&self, tid: u32, timed_out: bool, stack: JavaStack<'_>) {
        if let Some(f) = self.cb.monitor_waited {
            with_stack(stack, || f(self.ctx(), tid, timed_out as u32));
        }
    }
    fn marker(&self, vp: u32, tid: u32, kind: u32, run: u32, text: &str, stack: JavaStack<'_>) {
        if let Some(f) = self.cb.marker {
            with_stack(stack, || f(self.ctx(), vp, tid, kind, run, text.as_ptr(), text.len()));
        }
    }
}

// ---- Queries (the function pointers of `RvmVm`) ----

/// The VM behind a handle, once it exists.
fn vm_of<'a>(handle: VmHandle) -> Option<&'a Arc<Vm>> {
    if handle.is_null() {
        return None;
    }
    // SAFETY: the only handles the VM gives out are `start`'s leaked `Host`s, valid for the rest of
    // the process; a handle that did not come from the VM breaks the ABI's contract.
    let host = unsafe { &*(handle as *const Host) };
    host.vm.get()
}

/// Copies `bytes` into `buf` (up to `cap` bytes); returns the full length.
fn copy_out(bytes: &[u8], buf: *mut u8, cap: usize) -> isize {
    let n = bytes.len().min(cap);
    if n > 0 && !buf.is_null() {
        // SAFETY: the ABI makes the caller provide `cap` writable bytes at `buf`; `n <= cap`, and
        // the source is a Rust slice that cannot overlap the agent's buffer.
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), buf, n) };
    }
    bytes.len() as isize
}

extern "C" fn q_thread_name(vm: VmHandle, tid: u32, buf: *mut u8, cap: usize) -> isize {
    match vm_of(vm).and_then(|vm| vm.sched.thread_name(tid)) {
        Some(name) => copy_out(name.as_bytes(), buf, cap),
        None => -1,
    }
}

extern "C" fn q_thread_kind(vm: VmHandle, tid: u32) -> u32 {
    vm_of(vm).and_then(|vm| vm.sched.thread_kind(tid)).unwrap_or(u32::MAX)
}

extern "C" fn q_method_name(vm: VmHandle, method: u32, part: u32, buf: *mut u8, cap: usize) -> isize {
    let Some(vm) = vm_of(vm) else { return -1 };
    let Some(m) = vm.reg.try_method(method) else { return -1 };
    let s: &str = match part {
        method_part::CLASS => &m.class_name,
        method_part::NAME => &m.name,
        method_part::DESCRIPTOR => &m.desc,
        method_part::HIDDEN if vm.reg.class(m.class_id).hidden => "1",
        method_part::HIDDEN => "0",
        _ => return -1,
    };
    copy_out(s.as_bytes(), buf, cap)
}

extern "C" fn q_method_events_off(vm: VmHandle, method: u32) {
    if let Some(m) = vm_of(vm).and_then(|vm| vm.reg.try_method(method)) {
        m.events_off.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

extern "C" fn q_class_name(vm: VmHandle, class: u32, buf: *mut u8, cap: usize) -> isize {
    match vm_of(vm).and_then(|vm| vm.reg.try_class(class)) {
        Some(c) => copy_out(c.name.as_bytes(), buf, cap),
        None => -1,
    }
}

extern "C" fn q_current_stack(_vm: VmHandle, out: *mut u32, cap: usize) -> isize {
    let Some((frames, len, native)) = STACK.get() else { return -1 };
    // SAFETY: `with_stack` published these parts of a `&[Frame]` that stays borrowed (so neither
    // freed nor mutated) until the callback running on this thread now returns, and withdraws them
    // before that; this query runs inside that callback.
    let frames = unsafe { std::slice::from_raw_parts(frames, len) };
    let mut depth = 0;
    for id in (JavaStack { frames, native }).methods() {
        if depth < cap && !out.is_null() {
            // SAFETY: the ABI makes the caller provide `cap` writable `u32`s at `out`; depth < cap.
            unsafe { out.add(depth).write(id) };
        }
        depth += 1;
    }
    depth as isize
}

/// The agent's `arg` for a service thread's body.
struct BodyArg(*mut c_void);
// SAFETY: the ABI hands `arg` back to the agent's body on the service thread's processor; what it
// points to, and its thread-safety, is the agent's business (as with `pthread_create`'s argument).
unsafe impl Send for BodyArg {}
// SAFETY: as for `Send`; the VM never dereferences the pointer.
unsafe impl Sync for BodyArg {}

extern "C" fn q_create_service_thread(
    vm: VmHandle,
    vp: u32,
    name: *const c_char,
    body: extern "C" fn(arg: *mut c_void),
    arg: *mut c_void,
) -> i64 {
    let Some(vm) = vm_of(vm) else { return -1 };
    let name = if name.is_null() {
        "VM.Service".to_string()
    } else {
        // SAFETY: the ABI makes `name` a NUL-terminated string valid for the call.
        unsafe { CStr::from_ptr(name) }.to_string_lossy().into_owned()
    };
    let arg = BodyArg(arg);
    let run = Box::new(move || {
        let a = &arg;
        body(a.0)
    });
    match crate::sched::create_service_thread(vm, vp as usize, &name, run) {
        Ok(tid) => tid as i64,
        Err(_) => -1,
    }
}

extern "C" fn q_wake_service_thread(vm: VmHandle, tid: u32) {
    if let Some(vm) = vm_of(vm) {
        crate::sched::wake_service_thread(vm, tid);
    }
}
