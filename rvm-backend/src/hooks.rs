//! The hook interface through which the VM reports events to a profiling agent (wired up by the
//! quantum-trace work; the `-agentpath` option is only parsed so far).
//!
//! Each event has exactly one call site: method entry/exit in `interp::push_frame`/`pop_frame`
//! (and around native calls), thread switches in `sched::switch_hook`, allocation in
//! `Vm::alloc_object`/`alloc_array`, collections in `gc::collect`, monitor contention in
//! `sched::monitor_enter`, thread start/end in `sched`. With no agent loaded `Vm::hooks` is `None`
//! and each site costs one predictable branch.

pub trait Hooks: Send + Sync {
    fn thread_start(&self, _tid: u32) {}
    fn thread_end(&self, _tid: u32) {}
    /// Processor `vp` now runs thread `to` (an application thread or its idle/collector thread).
    fn thread_switch(&self, _vp: usize, _to: u32) {}
    fn method_entry(&self, _tid: u32, _method: u32) {}
    fn method_exit(&self, _tid: u32, _method: u32) {}
    fn allocation(&self, _class: u32, _bytes: usize) {}
    fn gc_start(&self) {}
    fn gc_end(&self) {}
    fn monitor_contended(&self, _tid: u32, _obj: u32) {}
}
