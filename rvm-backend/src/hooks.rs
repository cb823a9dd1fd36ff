//! The hook interface through which the VM reports events to a profiling agent (wired up by the
//! quantum-trace work; the `-agentpath` option is only parsed so far).
//!
//! Each event has exactly one call site: method entry/exit in `interp::push_frame`/`pop_frame`
//! (and around native calls), thread switches in `sched::switch_hook`, allocation in
//! `Vm::alloc_object`/`alloc_array`, collections in `gc::collect`, monitor contention in
//! `sched::monitor_enter`, thread start/end in `sched`. With no agent loaded `Vm::hooks` is `None`
//! and each site costs one predictable branch.

pub trait Hooks: Send + Sync {
    /// The VM is booted (classes can be looked up, no Java code has run); keep a `Weak` to resolve
    /// method and thread names later (`vm.reg.method(id)`, `vm.sched.thread(tid)`).
    fn vm_init(&self, _vm: &std::sync::Arc<crate::Vm>) {}
    /// The VM is about to exit with this code (buffered output already flushed).
    fn vm_death(&self, _exit_code: i32) {}
    /// A thread was created: an application thread (`vm_thread` false) or a processor's idle or
    /// collector thread.
    fn thread_start(&self, _tid: u32, _name: &str, _vm_thread: bool) {}
    fn thread_end(&self, _tid: u32) {}
    /// Processor `vp` stops running thread `from` and runs `to` (application threads or the
    /// processor's idle/collector thread; `from == to` when a thread starts a new quantum because
    /// nothing else is ready). `voluntary`: `from` gave up the processor before its quantum
    /// expired (blocked, slept, waited, yielded, ended) rather than being preempted.
    fn thread_switch(&self, _vp: usize, _from: u32, _to: u32, _voluntary: bool) {}
    fn method_entry(&self, _tid: u32, _method: u32) {}
    fn method_exit(&self, _tid: u32, _method: u32) {}
    fn allocation(&self, _class: u32, _bytes: usize) {}
    fn gc_start(&self) {}
    fn gc_end(&self) {}
    fn monitor_contended(&self, _tid: u32, _obj: u32) {}
}
