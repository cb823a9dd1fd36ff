//! The hook interface through which the VM reports events to a profiling agent: a Rust trait,
//! implemented by the C-ABI agent wrapper (`agent::AgentHooks`, for `-agentpath` libraries) and by
//! Rust tests (`run_with_hooks`).
//!
//! Each event has exactly one call site (through [`hook!`]):
//! - method entry in `interp::push_frame`, around native calls, and in `interp::run` when a thread
//!   first runs (the bottom frame pushed for it before it started), so every entry is reported on
//!   the thread's own processor;
//! - method exit in `interp::pop_frame` (before the frame is popped) and around native calls;
//! - thread switches in `sched::switch_hook` (made under the scheduler lock, delivered right after it
//!   is released by `sched::Switches::deliver`); thread start in `sched::register_thread`, thread end
//!   in `sched::vp_loop`; processor start/end in `sched::vp_loop`;
//! - allocation in `Vm::on_alloc` (object, array and clone allocations made for a Java thread;
//!   allocations the VM makes for itself are not reported, see [`crate::vm::Alloc`]);
//! - collections in `gc::collect`;
//! - monitor contention in `sched::monitor_enter`; `Object.wait` in the `wait0` native and when the
//!   waiting thread resumes (`interp::run`);
//! - markers in the `hpmagent.Trace.mark0` native;
//! - `vm_created`, `vm_init`, `vm_death` in `run_with_hooks`.
//!
//! With no agent loaded, or with an agent that does not want an event ([`Hooks::events`]), each
//! site costs one predictable branch on a plain `bool` in `Vm::events`.

use crate::vm::Frame;
pub use rvm_abi::SwitchInfo;

/// The Java stack of the thread an event is about, valid for the duration of the event: its frames
/// (the VM's own frames, see [`is_marker`], are skipped when reading) plus, during a native call, the
/// native method (natives have no frame).
#[derive(Clone, Copy)]
pub struct JavaStack<'a> {
    pub frames: &'a [Frame],
    /// A native method being called on top of `frames` ([`rvm_abi::NO_METHOD`] = none).
    pub native: u32,
}

impl<'a> JavaStack<'a> {
    pub fn of(frames: &'a [Frame]) -> JavaStack<'a> {
        JavaStack { frames, native: rvm_abi::NO_METHOD }
    }
    pub fn with_native(frames: &'a [Frame], native: u32) -> JavaStack<'a> {
        JavaStack { frames, native }
    }
    /// Method ids, outermost first (the method of the current event last).
    pub fn methods(&self) -> impl Iterator<Item = u32> + 'a {
        let native = (self.native != rvm_abi::NO_METHOD).then_some(self.native);
        self.frames.iter().filter(|f| !is_marker(f)).map(|f| f.method.id).chain(native)
    }
}

/// Frames the VM pushes for itself — class-initialisation markers (`Insn::InitDone`) and `main`'s
/// launcher frame (`interp::launch_main`) — are not method activations: they have no entry or exit
/// events, are not part of stacks or backtraces and take no yieldpoints.
#[inline]
pub fn is_marker(f: &Frame) -> bool {
    f.code.synthetic
}

/// Which events a [`Hooks`] implementation wants; the VM skips the others with one branch.
/// `vm_created`, `vm_init` and `vm_death` are always called.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Events {
    pub vp_start: bool,
    pub vp_end: bool,
    pub thread_start: bool,
    pub thread_end: bool,
    pub thread_switch: bool,
    pub method_entry: bool,
    pub method_exit: bool,
    pub allocation: bool,
    pub gc_start: bool,
    pub gc_finish: bool,
    pub monitor_contended_enter: bool,
    pub monitor_contended_entered: bool,
    pub monitor_wait: bool,
    pub monitor_waited: bool,
    pub marker: bool,
}

impl Events {
    pub const ALL: Events = Events {
        vp_start: true,
        vp_end: true,
        thread_start: true,
        thread_end: true,
        thread_switch: true,
        method_entry: true,
        method_exit: true,
        allocation: true,
        gc_start: true,
        gc_finish: true,
        monitor_contended_enter: true,
        monitor_contended_entered: true,
        monitor_wait: true,
        monitor_waited: true,
        marker: true,
    };
    pub const NONE: Events = Events {
        vp_start: false,
        vp_end: false,
        thread_start: false,
        thread_end: false,
        thread_switch: false,
        method_entry: false,
        method_exit: false,
        allocation: false,
        gc_start: false,
        gc_finish: false,
        monitor_contended_enter: false,
        monitor_contended_entered: false,
        monitor_wait: false,
        monitor_waited: false,
        marker: false,
    };
}

/// Calls `$vm.hooks.$event(args)` when the loaded hooks want `$event` (and `if $cond` holds);
/// otherwise one branch on `$vm.events.$event`, and neither the condition nor the arguments are
/// evaluated.
macro_rules! hook {
    ($vm:expr, $event:ident ( $($arg:expr),* $(,)? )) => {
        $crate::hooks::hook!($vm, $event($($arg),*) if true)
    };
    ($vm:expr, $event:ident ( $($arg:expr),* $(,)? ) if $cond:expr) => {
        if $vm.events.$event && $cond {
            if let Some(h) = &$vm.hooks {
                h.$event($($arg),*);
            }
        }
    };
}
pub(crate) use hook;

/// VM events. Thread ids are the scheduler's (0 = `main`); method and class ids the registry's
/// (`vm.reg.method(id)`, `vm.reg.class(id)`). Events run on the OS thread that caused them: a
/// virtual processor for Java events and switches, the launcher thread for `vm_created`, `vm_init`
/// and `vm_death` (and the `thread_start` of the threads created during boot).
pub trait Hooks: Send + Sync {
    /// Which events to deliver (read once, when the VM is created).
    fn events(&self) -> Events {
        Events::ALL
    }
    /// The VM object exists (nothing is booted, no thread registered): the earliest moment a
    /// reference to it can be kept. Called before any other event.
    fn vm_created(&self, _vm: &std::sync::Arc<crate::Vm>) {}
    /// The VM is booted: `main` (tid 0) and every processor's idle and collector threads are
    /// registered (their `thread_start` came first), no Java code has run, the main class is not
    /// loaded yet and processors have not started. Service threads are created here
    /// ([`crate::sched::create_service_thread`]). Keep a `Weak` to resolve names later
    /// (`vm.reg.method(id)`, `vm.sched.thread_name(tid)`).
    fn vm_init(&self, _vm: &std::sync::Arc<crate::Vm>) {}
    /// The program has ended with this code: every processor has stopped (their `vp_end` came
    /// first) and buffered output is flushed. The last event.
    fn vm_death(&self, _exit_code: i32) {}
    /// On processor `vp`'s own OS thread, before it runs anything.
    fn vp_start(&self, _vp: u32) {}
    /// On processor `vp`'s own OS thread, after its last switch (the VM exits with `exit_code`).
    fn vp_end(&self, _vp: u32, _exit_code: i32) {}
    /// A thread was registered (not yet running); `kind` is an [`rvm_abi::thread_kind`]
    /// (application, daemon, idle, collector, service). Called under the scheduler lock.
    fn thread_start(&self, _tid: u32, _name: &str, _kind: u32) {}
    /// A Java thread has ended, on the processor that ran it last.
    fn thread_end(&self, _tid: u32) {}
    /// A processor stops running `from` and runs `to` (application threads or the processor's
    /// idle, collector or service threads; `from == to` when a thread starts a new quantum because
    /// nothing else is ready). `voluntary`: `from` gave up the processor before its quantum
    /// expired (blocked, slept, waited, yielded, ended) rather than being preempted. `callee` and
    /// `caller`: the method in which `from` took its yieldpoint and its caller
    /// ([`rvm_abi::NO_METHOD`] for VM threads and ended threads). Called under the scheduler lock.
    fn thread_switch(&self, _s: &SwitchInfo) {}
    /// Thread `tid` (running on the calling processor) enters `method`; `stack` ends with it.
    fn method_entry(&self, _tid: u32, _method: u32, _stack: JavaStack<'_>) {}
    /// Thread `tid` leaves `method` (`by_exception`: an exception pops the frame); `stack` still
    /// ends with it.
    fn method_exit(&self, _tid: u32, _method: u32, _by_exception: bool, _stack: JavaStack<'_>) {}
    /// Thread `tid` allocated an object or array of class `class`, `bytes` long.
    fn allocation(&self, _tid: u32, _class: u32, _bytes: usize, _stack: JavaStack<'_>) {}
    /// A stop-the-world collection starts / has finished, on the collecting processor.
    fn gc_start(&self) {}
    fn gc_finish(&self) {}
    /// Thread `tid` blocks entering the monitor of an object of class `class` owned by another
    /// thread (reported once per contended acquisition, however often the thread retries).
    fn monitor_contended_enter(&self, _tid: u32, _class: u32, _stack: JavaStack<'_>) {}
    /// Thread `tid` acquired the monitor it had blocked on.
    fn monitor_contended_entered(&self, _tid: u32, _stack: JavaStack<'_>) {}
    /// Thread `tid` starts `Object.wait` on an object of class `class` (`timeout_ms` 0 = none).
    fn monitor_wait(&self, _tid: u32, _class: u32, _timeout_ms: i64, _stack: JavaStack<'_>) {}
    /// Thread `tid`'s wait ended (it runs again, before re-entering the monitor); `timed_out` when
    /// the timeout elapsed rather than a notify or interrupt.
    fn monitor_waited(&self, _tid: u32, _timed_out: bool, _stack: JavaStack<'_>) {}
    /// Java code asked for a trace marker (`hpmagent.Trace`) on processor `vp` running `tid`;
    /// `kind` is an [`rvm_abi::marker_kind`], `run` the run number of run markers.
    fn marker(&self, _vp: u32, _tid: u32, _kind: u32, _run: u32, _text: &str, _stack: JavaStack<'_>) {}
}
