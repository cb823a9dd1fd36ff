//! Metric sources: where the values charged to arcflow contexts come from.
//!
//! A recorder keeps one [`ThreadMetrics`] per thread, opened *on* that thread, and reads it at every
//! event. Values must grow monotonically per thread (CPU time, counter totals); the builder charges
//! the difference between two reads to the context that was current in between.

pub use crate::arcflow::Metric;

/// The current values of a thread's metrics.
pub trait ThreadMetrics: Send {
    /// Writes one value per metric into `out` (same order as [`MetricSet::metrics`]).
    fn read(&mut self, out: &mut [u64]);
    /// [`read`](Self::read) for a caller that has just read `CLOCK_MONOTONIC` (`now_ns`): sources
    /// built on that clock take `now_ns` instead of reading it again (each read is a vDSO call of
    /// tens of ns under a hypervisor). The research VM's processors read at every thread switch,
    /// whose time the scheduler has already stamped.
    fn read_at(&mut self, now_ns: u64, out: &mut [u64]) {
        let _ = now_ns;
        self.read(out);
    }
    /// Reads so far in which some value was scaled for multiplexing (perf counter groups whose
    /// events were not on the PMU all the time); 0 for sources that never scale.
    fn scaled_reads(&self) -> u64 {
        0
    }
}

/// A set of metrics that can be opened for the calling thread.
pub trait MetricSet: Send + Sync {
    /// Names and units, in the order `read` writes them.
    fn metrics(&self) -> Vec<Metric>;
    /// Opens per-thread state for the calling thread (e.g. a perf_event group, a CPU clock id).
    fn open_current_thread(&self) -> Box<dyn ThreadMetrics>;
    /// Opens per-thread state for the calling thread that may be read from *any* thread of the
    /// process and from a signal handler: reads go through the thread's kernel CPU clock id, a
    /// perf fd by `read()` or the monotonic clock, and neither allocate nor lock. For the context
    /// sampler (`crate::sampling`), which reads a thread from its signal handler and from others.
    /// `None` (the default) if some metric of the set can only be read on its own thread.
    fn open_current_thread_remote(&self) -> Option<Box<dyn ThreadMetrics>> {
        None
    }
    /// As [`MetricSet::open_current_thread_remote`], for thread `tid` of this process, opened from
    /// another thread: a thread that ran before the agent came (a late attach) is sampled without
    /// running any code of ours. Reads always go through the kernel (never rdpmc). `None` (the
    /// default) where a metric can only be opened on its own thread.
    fn open_thread_remote(&self, _tid: i32) -> Option<Box<dyn ThreadMetrics>> {
        None
    }
}

/// A shared set is a set too (so a counter set can sit in a combination of sets, such as
/// `hpm_collectors::counters::Metrics`, and stay reachable for its stats).
impl<T: MetricSet + ?Sized> MetricSet for std::sync::Arc<T> {
    fn metrics(&self) -> Vec<Metric> {
        (**self).metrics()
    }
    fn open_current_thread(&self) -> Box<dyn ThreadMetrics> {
        (**self).open_current_thread()
    }
    fn open_current_thread_remote(&self) -> Option<Box<dyn ThreadMetrics>> {
        (**self).open_current_thread_remote()
    }
    fn open_thread_remote(&self, tid: i32) -> Option<Box<dyn ThreadMetrics>> {
        (**self).open_thread_remote(tid)
    }
}
