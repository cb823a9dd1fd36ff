//! What hpmagent measures and records: the capture side of the arcflow model (`hpm_model`).
//!
//! - [`counters`]: metric sources: perf_event counter groups, thread CPU and wall clocks.
//! - [`recorder`]: live recording, per-thread state fed by a VM backend.
//! - [`green`]: per-Java-thread metrics on green threads (M-to-N schedulers such as rvm).
//! - [`sampling`]: CPU time and counters sampled per calling context (signals every period of a
//!   thread's CPU time), for probes that keep exact calls but cannot read metrics at every call.
//!
//! - [`quantum`]: quantum tracers and the files they write.
//! - [`vmcost`]: the VM-cost timeline, read from the kernel's per-thread accounts.
//!
//! What they fill (the arcflow model, snapshots, quantum trace records) is `hpm_model`'s.
//! Nothing in this crate talks to a VM: backends translate VM events into calls on these types.

pub mod counters;
pub mod green;
pub mod lines;
pub mod quantum;
pub mod recorder;
pub mod sampling;
pub mod vmcost;
