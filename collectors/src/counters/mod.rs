//! Counter sources: per-thread perf_event groups, thread CPU and wall clocks.
//!
//! - [`clock`]: `cpu-time` ([`ThreadCpuClock`]) and `wall-time` ([`WallClock`]), the [`Metrics`]
//!   combinator, and CPU time of another thread by tid.

pub mod clock;

pub use clock::{
    clock_ns, current_tid, monotonic_ns, pthread_cpu_clock, thread_cpu_ns, thread_cpu_ns_of, thread_cpu_ns_of_stat,
    Metrics, ThreadCpuClock, WallClock,
};
