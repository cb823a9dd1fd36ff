//! What hpmagent measures and records.
//!
//! - [`arcflow`]: the arcflow model (per-thread calling-context trees with calls and one base value per
//!   metric) and the builders that fill it from start/end events, stack samples or a serialized tree.
//! - [`text_trace`]: the raw start/end trace format of the arcflow paper (Figure 2).
//! - [`metrics`]: the small interface through which a recorder reads the current value of its metrics.
//! - [`counters`]: metric sources: perf_event counter groups, thread CPU and wall clocks.
//! - [`recorder`]: live recording, per-thread state fed by a VM backend.
//! - [`green`]: per-Java-thread metrics on green threads (M-to-N schedulers such as rvm).
//! - [`sampling`]: CPU time and counters sampled per calling context (signals every period of a
//!   thread's CPU time), for probes that keep exact calls but cannot read metrics at every call.
//!
//! Nothing in this crate talks to a VM: backends translate VM events into calls on these types.

pub mod arcflow;
pub mod counters;
pub mod green;
pub mod lines;
pub mod metrics;
pub mod quantum;
pub mod recorder;
pub mod sampling;
pub mod text_trace;
pub mod vmcost;
