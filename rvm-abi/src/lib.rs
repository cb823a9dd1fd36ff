//! The C ABI through which the research VM (`rvm`) drives an agent library, the way `java` drives a
//! JVMTI agent. Types only: both sides (the VM in `rvm-backend`, the agent in `hpmagent`) depend on
//! this crate, so the VM is never linked into the agent.
//!
//! `rvm -agentpath:LIB=OPTIONS` opens `LIB` with `libloading`, looks up [`ENTRY_POINT`] (an
//! [`EntryPoint`]) and calls it once, before any Java code runs, with
//! - a [`RvmVm`]: the VM's queries and services (function pointers taking [`RvmVm::vm`] first),
//! - the option string (NUL-terminated, or null), and
//! - a zeroed [`RvmCallbacks`] that the agent fills in (`None` = not interested).
//!
//! Versioning: each struct starts with `version` and `size`. The VM sets [`ABI_VERSION`] and its
//! `size_of`; an agent refuses a VM whose major version differs and must not read fields beyond
//! `size`. Later versions only append fields.
//!
//! Ids: thread ids are the VM's (0 = `main`, dense, never reused); method and class ids are the VM's
//! registry indices. Strings are UTF-8 (pointer + length, not NUL-terminated) unless noted.
//!
//! Threads of the callbacks: every callback runs on the OS thread that caused it: a virtual
//! processor for Java events and switches, the launcher's main thread for `vm_init`/`vm_death`.
//! `thread_start` runs while the VM holds its scheduler lock: it must not call back into the VM
//! except for the queries documented as safe there, and must not block. `thread_switch` runs on
//! the switching processor right after the VM released that lock (since version 2), in the
//! processor's order of switches, before the processor runs the thread switched to; switches of
//! different processors may arrive in any order (their [`SwitchInfo::time_ns`] do not).

#![forbid(unsafe_code)]

use std::ffi::{c_char, c_void};

/// Major version of this interface. Bumped only for incompatible changes.
pub const ABI_VERSION: u32 = 3;

/// Name of the agent's entry point (NUL-terminated, for `libloading`).
pub const ENTRY_POINT: &[u8] = b"Agent_OnLoad_rvm\0";

/// The entry point: returns 0 on success; anything else means "do not start the VM" (bad options,
/// version mismatch), after the agent printed one line saying why.
pub type EntryPoint = unsafe extern "C" fn(vm: *const RvmVm, options: *const c_char, callbacks: *mut RvmCallbacks) -> i32;

/// Kinds of thread, as reported by `thread_start` and [`RvmVm::thread_kind`].
pub mod thread_kind {
    /// An application thread (non-daemon `java.lang.Thread`, including `main`).
    pub const APPLICATION: u32 = 0;
    /// An application daemon thread.
    pub const DAEMON: u32 = 1;
    /// A virtual processor's idle thread.
    pub const IDLE: u32 = 2;
    /// A virtual processor's collector thread.
    pub const COLLECTOR: u32 = 3;
    /// A service thread created by the agent ([`super::RvmVm::create_service_thread`]).
    pub const SERVICE: u32 = 4;
}

/// Why a thread left its processor ([`SwitchInfo::reason`], since version 3).
pub mod switch_reason {
    /// Its quantum expired (the timer's yield flag), or a collection was requested: not voluntary.
    pub const PREEMPTED: u32 = 0;
    /// `Thread.yield`, or it waits for another thread to finish initialising a class.
    pub const YIELD: u32 = 1;
    /// `Thread.sleep`.
    pub const SLEEP: u32 = 2;
    /// `Object.wait` (also `Thread.join`, which waits on the thread object).
    pub const WAIT: u32 = 3;
    /// Blocked entering a contended monitor (`synchronized`).
    pub const MONITOR: u32 = 4;
    /// `LockSupport.park`/`parkNanos` without a permit: every `java.util.concurrent` lock,
    /// condition, latch, semaphore and blocking queue blocks here.
    pub const PARK: u32 = 5;
    /// It unparked another thread (`LockSupport.unpark`: a lock or condition handing over to the
    /// next waiter) and gave up its processor so the woken thread can run.
    pub const UNPARK: u32 = 6;
    /// The thread ended (or the VM exits).
    pub const END: u32 = 7;
    /// A VM thread (idle, collector, service) gave the processor back.
    pub const VM: u32 = 8;
    /// Its allocation did not fit: it waits for the collection it requested.
    pub const GC: u32 = 9;
    /// Names for traces and reports, by code.
    pub const NAMES: [&str; 10] = ["preempted", "yield", "sleep", "wait", "monitor", "park", "unpark", "end", "vm", "gc"];
}

/// Which part of a method's name [`RvmVm::method_name`] copies.
pub mod method_part {
    /// The class, internal form (`java/lang/String`).
    pub const CLASS: u32 = 0;
    /// The method name (`<init>`, `main`).
    pub const NAME: u32 = 1;
    /// The descriptor (`([Ljava/lang/String;)V`).
    pub const DESCRIPTOR: u32 = 2;
    /// `"1"` if the method's class is hidden (a class the VM made for an `invokedynamic` call
    /// site: a lambda, a string concatenation), `"0"` otherwise. An older VM answers -1 (unknown
    /// part): not hidden.
    pub const HIDDEN: u32 = 3;
}

/// Marker kinds passed to [`RvmCallbacks::marker`] (the quantum-trace record formats).
pub mod marker_kind {
    pub const APP_START: u32 = 2;
    pub const APP_COMPLETE: u32 = 3;
    pub const RUN_START: u32 = 4;
    pub const RUN_COMPLETE: u32 = 5;
    /// Free text.
    pub const NOTE: u32 = 7;
}

/// Opaque VM handle.
pub type VmHandle = *mut c_void;
/// Opaque agent context (whatever the agent put in [`RvmCallbacks::ctx`]).
pub type AgentCtx = *mut c_void;

/// What the VM offers the agent. Valid from the entry point until `vm_death` returns.
#[repr(C)]
pub struct RvmVm {
    pub version: u32,
    /// `size_of::<RvmVm>()` as the VM built it.
    pub size: u32,
    /// First argument of every function below.
    pub vm: VmHandle,
    /// Number of virtual processors (`-Xvps`).
    pub vps: u32,
    /// The scheduling quantum in nanoseconds (`-Xquantum`).
    pub quantum_ns: u64,
    /// Copies up to `cap` bytes of thread `tid`'s name into `buf`; returns the name's full length,
    /// or -1 for an unknown thread. Safe in every callback.
    pub thread_name: extern "C" fn(vm: VmHandle, tid: u32, buf: *mut u8, cap: usize) -> isize,
    /// The thread's kind ([`thread_kind`]), or `u32::MAX` for an unknown thread. Safe everywhere.
    pub thread_kind: extern "C" fn(vm: VmHandle, tid: u32) -> u32,
    /// Copies part `part` ([`method_part`]) of method `method`'s name; full length or -1.
    /// Safe in every callback. Method ids are dense from 0, and a class's methods get consecutive
    /// ids, in class-file order, when the class is loaded: an agent finds a method's overloads
    /// among its neighbours.
    pub method_name: extern "C" fn(vm: VmHandle, method: u32, part: u32, buf: *mut u8, cap: usize) -> isize,
    /// Copies class `class`'s name (internal form); full length or -1. Safe in every callback.
    pub class_name: extern "C" fn(vm: VmHandle, class: u32, buf: *mut u8, cap: usize) -> isize,
    /// The calling thread's Java stack as method ids, outermost first (the method of the current
    /// event last); copies up to `cap` ids and returns the full depth, or -1 when the calling OS
    /// thread is not running a Java thread. Only from `method_entry`/`method_exit`/`allocation`/
    /// monitor callbacks.
    pub current_stack: extern "C" fn(vm: VmHandle, out: *mut u32, cap: usize) -> isize,
    /// Creates a VM thread bound to processor `vp` that runs `body(arg)` on that processor each time
    /// it has been woken ([`RvmVm::wake_service_thread`]); the VM schedules it before application
    /// threads at the processor's next switch and reports its switches like any thread's. `name` is
    /// NUL-terminated. Returns the thread id, or -1 (bad `vp`). Only from `vm_init`.
    pub create_service_thread: extern "C" fn(vm: VmHandle, vp: u32, name: *const c_char, body: extern "C" fn(arg: *mut c_void), arg: *mut c_void) -> i64,
    /// Asks for a service thread to run at its processor's next switch. Never blocks or allocates;
    /// safe in every callback, `thread_switch` included.
    pub wake_service_thread: extern "C" fn(vm: VmHandle, tid: u32),
    /// Tells the VM that the agent ignores method `method`'s entries and exits (e.g. its class is
    /// outside the agent's filter): the VM stops reporting them, which saves both sides a call per
    /// event. For good; unknown ids are ignored. Never blocks; safe in every callback.
    pub method_events_off: extern "C" fn(vm: VmHandle, method: u32),
}

/// Why a processor switched threads: the outgoing thread's state.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SwitchInfo {
    /// Virtual processor.
    pub vp: u32,
    /// Thread leaving the processor (or continuing, when `from == to`).
    pub from: u32,
    /// Thread that runs next.
    pub to: u32,
    /// 1: `from` gave up the processor before its quantum expired (blocked, slept, waited,
    /// yielded, ended); 0: preempted by the timer or a collection request.
    pub voluntary: u32,
    /// Method in which `from` took the yieldpoint, and its caller ([`NO_METHOD`] = none: a VM thread,
    /// or a thread that has not started or has ended).
    pub callee: u32,
    pub caller: u32,
    /// When the switch happened (CLOCK_MONOTONIC, ns), read by the VM under its scheduler lock:
    /// a thread's switch away from one processor is never later than its switch onto another,
    /// although the callbacks run after the lock is released. (Since version 2.)
    pub time_ns: u64,
    /// Why `from` left: a [`switch_reason`] (`PREEMPTED` exactly when `voluntary` is 0). When
    /// `from == to` (a new quantum for the same thread) the reason the quantum ended (`PREEMPTED`,
    /// or `YIELD`/`UNPARK` with nothing else ready). (Since version 3.)
    pub reason: u32,
    /// Zero (keeps the size a multiple of 8 in C).
    pub reserved: u32,
}

/// The agent's callbacks, filled in by the entry point. Unset entries cost the VM one branch.
#[repr(C)]
pub struct RvmCallbacks {
    /// Set by the agent to [`ABI_VERSION`] and `size_of::<RvmCallbacks>()`.
    pub version: u32,
    pub size: u32,
    /// Passed back as the first argument of every callback.
    pub ctx: AgentCtx,
    /// The VM is booted: `main`, idle and collector threads exist (their `thread_start` came
    /// first), no Java code has run, processors have not started. Service threads are created here.
    pub vm_init: Option<extern "C" fn(ctx: AgentCtx)>,
    /// The program has ended with `exit_code`; processors have stopped (their `vp_end` came first).
    /// The last callback.
    pub vm_death: Option<extern "C" fn(ctx: AgentCtx, exit_code: i32)>,
    /// On processor `vp`'s own OS thread, before it runs anything: open per-processor state here.
    pub vp_start: Option<extern "C" fn(ctx: AgentCtx, vp: u32)>,
    /// On processor `vp`'s own OS thread, after its last switch; `exit_code` as for `vm_death`.
    pub vp_end: Option<extern "C" fn(ctx: AgentCtx, vp: u32, exit_code: i32)>,
    /// A thread was created (not yet running); `name` is UTF-8, `kind` a [`thread_kind`].
    pub thread_start: Option<extern "C" fn(ctx: AgentCtx, tid: u32, name: *const u8, name_len: usize, kind: u32)>,
    /// A thread has ended (on the processor that ran it last).
    pub thread_end: Option<extern "C" fn(ctx: AgentCtx, tid: u32)>,
    /// A processor switched threads: on that processor, after the scheduler lock was released,
    /// before it runs the thread switched to (see the module documentation).
    pub thread_switch: Option<extern "C" fn(ctx: AgentCtx, info: *const SwitchInfo)>,
    /// Thread `tid` (running on the calling processor) enters `method`.
    pub method_entry: Option<extern "C" fn(ctx: AgentCtx, tid: u32, method: u32)>,
    /// Thread `tid` leaves `method`; `by_exception` 1 when an exception pops the frame.
    pub method_exit: Option<extern "C" fn(ctx: AgentCtx, tid: u32, method: u32, by_exception: u32)>,
    /// A stop-the-world collection starts / has finished (on the collecting processor).
    pub gc_start: Option<extern "C" fn(ctx: AgentCtx)>,
    pub gc_finish: Option<extern "C" fn(ctx: AgentCtx)>,
    /// Thread `tid` blocks entering a monitor owned by another thread; `class` is the class id of
    /// the monitor's object.
    pub monitor_contended_enter: Option<extern "C" fn(ctx: AgentCtx, tid: u32, class: u32)>,
    /// Thread `tid` acquired the monitor it blocked on.
    pub monitor_contended_entered: Option<extern "C" fn(ctx: AgentCtx, tid: u32)>,
    /// Thread `tid` starts `Object.wait` on an object of class `class` (`timeout_ms` 0 = none).
    pub monitor_wait: Option<extern "C" fn(ctx: AgentCtx, tid: u32, class: u32, timeout_ms: i64)>,
    /// The wait ended; `timed_out` 1 when the timeout elapsed.
    pub monitor_waited: Option<extern "C" fn(ctx: AgentCtx, tid: u32, timed_out: u32)>,
    /// Thread `tid` allocated an object or array of class `class`, `bytes` long.
    pub allocation: Option<extern "C" fn(ctx: AgentCtx, tid: u32, class: u32, bytes: u64)>,
    /// Java code asked for a trace marker (`hpmagent.Trace`), on processor `vp` running `tid`:
    /// `kind` a [`marker_kind`], `run` the run number (run markers), `text` UTF-8.
    pub marker: Option<extern "C" fn(ctx: AgentCtx, vp: u32, tid: u32, kind: u32, run: u32, text: *const u8, text_len: usize)>,
}

impl RvmCallbacks {
    /// All callbacks unset, versioned for this build.
    pub fn empty() -> RvmCallbacks {
        RvmCallbacks {
            version: ABI_VERSION,
            size: std::mem::size_of::<RvmCallbacks>() as u32,
            ctx: std::ptr::null_mut(),
            vm_init: None,
            vm_death: None,
            vp_start: None,
            vp_end: None,
            thread_start: None,
            thread_end: None,
            thread_switch: None,
            method_entry: None,
            method_exit: None,
            gc_start: None,
            gc_finish: None,
            monitor_contended_enter: None,
            monitor_contended_entered: None,
            monitor_wait: None,
            monitor_waited: None,
            allocation: None,
            marker: None,
        }
    }
}

/// "No method" in [`SwitchInfo::callee`]/[`SwitchInfo::caller`].
pub const NO_METHOD: u32 = u32::MAX;
