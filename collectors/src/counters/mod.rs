//! Counter sources: per-thread perf_event groups, thread CPU and wall clocks.
//!
//! - [`clock`]: `cpu-time` ([`ThreadCpuClock`]) and `wall-time` ([`WallClock`]), the [`Metrics`]
//!   combinator, and CPU time of another thread by tid.
//! - [`events`]: event names as `perf` accepts them, parsed without opening anything.
//! - [`group`]: per-thread counter groups ([`CounterGroup`]), the [`CounterSetSpec`] metric set,
//!   [`probe`] and [`available_events`].
//! - [`calibrate`]: the cost of one read in each metric's units, for overhead compensation.
//! - [`refusal`]: one line per event that is not counted: event, reason, fix.
//! - [`switch_clock`]: `cpu-time` of the calling thread from its own context-switch records (no system call per read).
//! - [`switches`]: quanta of OS threads from the kernel's context switches ([`switches::SwitchSource`]).
//! - [`remote`], [`sampler`], [`credits`]: for the context sampler ([`crate::sampling`]): metric
//!   readers valid from any thread, the SIGPROF handler and signal sources, per-context sums.
//!
//! See `docs/counters.md`.

pub mod calibrate;
pub mod clock;
pub mod credits;
pub mod events;
pub mod group;
pub mod refusal;
pub mod remote;
pub mod sampler;
pub mod stacks;
pub mod switch_clock;
pub mod switches;

pub use calibrate::{measure_read_cost, read_cost, ReadCost};
pub use clock::{
    clock_ns, current_tid, monotonic_ns, pthread_cpu_clock, thread_cpu_ns, thread_cpu_ns_by_tid, thread_cpu_ns_of,
    thread_cpu_ns_of_stat, tid_cpu_clock, steal_ns, steal_since, STEAL_TICK_NS,
    Metrics, ThreadCpuClock, WallClock,
};
pub use events::{known_event_names, parse_event, EventKind, EventParseError, EventSpec};
pub use group::{
    available_events, kernel_counting_permitted, probe, scale_count, CounterGroup, CounterOptions, CounterSetSpec,
    CounterStats, CounterStatsSnapshot, EventAvailability, GroupOpenError, GroupReading, KernelMode, Probe,
    ReadCounts, ReadMode, ReadPath, Target,
};
pub use refusal::{perf_event_paranoid, Refusal, RefusalReason};
