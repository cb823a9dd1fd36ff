//! The arcflow model and everything a saved run consists of, with no capture code: what reports,
//! exports and the explorer read, and what the live recorders (`hpm_collectors`) fill.
//!
//! - [`arcflow`]: the arcflow model (per-thread calling-context trees with calls and one base value per
//!   metric) and the builders that fill it from start/end events, stack samples or a serialized tree.
//! - [`text_trace`]: the raw start/end trace format of the arcflow paper (Figure 2).
//! - [`metrics`]: the small interface through which a recorder reads the current value of its metrics.
//! - [`snapshot`]: what a recording holds when copied out ([`snapshot::Snapshot`]), and the pure
//!   functions that read it (names, state nodes, compensation).
//! - [`sampling`]: what a stack sample says about its frames and thread (forms, tiers, states).
//! - [`quantum`]: the quantum trace's record format, its writer into buffers and its reader.
//! - [`vmcost`]: the VM-cost timeline's tables (CPU time per kind of thread and interval).
//! - [`saved`]: a saved run (`arcflow.json`, versions 1 and 2): what it holds, writing and reading it.
//!
//! Nothing in this crate opens a counter, installs a signal handler or talks to a VM.

pub mod arcflow;
pub mod metrics;
pub mod quantum;
pub mod sampling;
pub mod saved;
pub mod snapshot;
pub mod text_trace;
pub mod vmcost;
