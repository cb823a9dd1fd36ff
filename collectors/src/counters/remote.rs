//! Readers of a thread's metrics that are valid from any thread of the process and from a signal
//! handler (no allocation, no lock): what [`MetricSet::open_current_thread_remote`] returns.
//!
//! - `cpu-time`: the thread's kernel CPU clock id (`tid_cpu_clock`), not CLOCK_THREAD_CPUTIME_ID,
//!   which would read the *calling* thread.
//! - `wall-time`: CLOCK_MONOTONIC is the same clock everywhere.
//! - perf_event groups: the group opened on the thread. Read from another thread by `read()` of
//!   its leader fd (the kernel reads another task's counters for us); read on the thread itself
//!   (its signal handler, exact mode's switches) by `rdpmc` where the kernel offers it for every
//!   member (hardware counters only), since rdpmc reads the counters of the calling CPU's task.
//!
//! [`MetricSet::open_current_thread_remote`]: hpm_model::metrics::MetricSet::open_current_thread_remote

use std::sync::atomic::Ordering;
use hpm_model::metrics::ThreadMetrics;

use super::clock::{clock_ns, current_tid, tid_cpu_clock};
use super::group::{CounterGroup, CounterOptions, CounterSetSpec, KernelMode, ReadMode, Target};

/// `cpu-time` of one thread, read through its kernel CPU clock id from any thread. A failed read
/// (the thread has ended) repeats the last value, so differences are never negative.
#[derive(Debug, Clone, Copy)]
pub struct TidCpuReader {
    clock: libc::clockid_t,
    last: u64,
}

impl TidCpuReader {
    /// For the calling thread.
    pub fn current() -> TidCpuReader {
        TidCpuReader::of(current_tid())
    }

    /// For thread `tid` of this process.
    pub fn of(tid: i32) -> TidCpuReader {
        TidCpuReader { clock: tid_cpu_clock(tid), last: 0 }
    }
}

impl ThreadMetrics for TidCpuReader {
    #[inline]
    fn read(&mut self, out: &mut [u64]) {
        if let Some(v) = clock_ns(self.clock) {
            self.last = self.last.max(v);
        }
        if let Some(o) = out.first_mut() {
            *o = self.last;
        }
    }
}

/// The largest group [`open_group_remote`] accepts: `CounterGroup::read_into` keeps the times of
/// up to 16 members on the stack and would allocate for more.
pub const MAX_REMOTE_GROUP_EVENTS: usize = 16;

/// Opens `spec`'s group on the calling thread for reading by `read()` from anywhere. `None` if the
/// spec has more events than a read can hold without allocating. A group whose leader does not
/// open reads zeros and counts in `groups_failed`, as `open_current_thread` does.
pub(crate) fn open_group_remote(spec: &CounterSetSpec, target: Target) -> Option<Box<dyn ThreadMetrics>> {
    if spec.events().len() > MAX_REMOTE_GROUP_EVENTS {
        return None;
    }
    // The spec's kernel mode was resolved once; Include/Exclude reuse it without probing again.
    let kernel = if spec.counts_kernel() { KernelMode::Include } else { KernelMode::Exclude };
    let opts = CounterOptions { kernel, read: ReadMode::Auto };
    let stats = spec.stats();
    let own_thread = matches!(target, Target::CurrentThread);
    match CounterGroup::open(spec.events(), target, opts) {
        Ok(mut g) => {
            stats.groups_opened.fetch_add(1, Ordering::Relaxed);
            stats.member_failures.fetch_add(g.refusals().len() as u64, Ordering::Relaxed);
            g.attach_stats(stats.clone());
            // SAFETY: pthread_self has no preconditions.
            let owner = own_thread.then(|| unsafe { libc::pthread_self() });
            Some(Box::new(RemoteGroup { group: g, owner }))
        }
        Err(_) => {
            stats.groups_failed.fetch_add(1, Ordering::Relaxed);
            Some(Box::new(Zeros))
        }
    }
}

/// A thread's group as read from anywhere: by rdpmc on the thread itself when the group has that
/// path, by `read()` otherwise.
struct RemoteGroup {
    group: CounterGroup,
    /// The thread the group counts (`pthread_self` there: a register read, safe in a signal handler);
    /// `None` for a group opened from another thread, always read by `read()`.
    owner: Option<libc::pthread_t>,
}

impl ThreadMetrics for RemoteGroup {
    fn read(&mut self, out: &mut [u64]) {
        // SAFETY: pthread_self has no preconditions and is async-signal-safe (it reads the thread pointer).
        let own = self.owner.is_some_and(|o| unsafe { libc::pthread_equal(libc::pthread_self(), o) } != 0);
        if own {
            self.group.read_into(out);
        } else {
            self.group.read_by_syscall(out);
        }
    }
    fn scaled_reads(&self) -> u64 {
        self.group.scaled_reads()
    }
}

/// What a thread reads when its group could not be opened: zeros (nothing counted).
struct Zeros;
impl ThreadMetrics for Zeros {
    fn read(&mut self, out: &mut [u64]) {
        out.iter_mut().for_each(|o| *o = 0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::counters::{probe, thread_cpu_ns, Metrics, ThreadCpuClock, WallClock};
    use hpm_model::metrics::MetricSet;

    fn spin_ms(ms: u64) {
        let t = thread_cpu_ns();
        while thread_cpu_ns() - t < ms * 1_000_000 {
            std::hint::black_box(0u64);
        }
    }

    #[test]
    fn another_thread_reads_this_threads_metrics() {
        let p = probe(&["task-clock"], CounterOptions::default());
        let set = Metrics::new().with(ThreadCpuClock).with(WallClock).with(p.spec);
        let n = set.metrics().len();
        let (tx, rx) = std::sync::mpsc::channel();
        let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
        let worker = std::thread::spawn(move || {
            let r = set.open_current_thread_remote().expect("clocks and groups read remotely");
            spin_ms(30);
            tx.send((r, thread_cpu_ns())).unwrap();
            done_rx.recv().unwrap();
        });
        let (mut r, own) = rx.recv().unwrap();
        let mut v = vec![0u64; n];
        r.read(&mut v);
        // The worker is blocked now: its CPU clock stands still, read here it is its own.
        assert!(v[0] >= own && v[0] < own + 5_000_000, "cpu-time {} vs the worker's own {own}", v[0]);
        assert!(v[2] >= 25_000_000, "task-clock of the worker read here: {}", v[2]);
        done_tx.send(()).unwrap();
        worker.join().unwrap();
        // Ended (or ending: join returns as the kernel clears the thread id, a few µs before the
        // task is gone): never less than before, the worker having run a little to wake up and end.
        let before = v.clone();
        r.read(&mut v);
        assert!(v[0] >= before[0] && v[0] < before[0] + 5_000_000 && v[2] >= before[2], "{before:?} then {v:?}");
        let ended = v.clone();
        r.read(&mut v);
        assert!(v[0] >= ended[0] && v[0] < ended[0] + 1_000_000 && v[2] >= ended[2], "{ended:?} then {v:?}");
    }

    /// A thread's metrics opened by its tid from another thread (a late attach) count that
    /// thread, not the opener: the worker spins 30 ms after the open, the opener not at all.
    #[test]
    fn a_thread_opened_by_its_tid_from_another_counts_that_thread() {
        let p = probe(&["task-clock"], CounterOptions::default());
        let set = Metrics::new().with(ThreadCpuClock).with(WallClock).with(p.spec);
        let n = set.metrics().len();
        let (tid_tx, tid_rx) = std::sync::mpsc::channel();
        let (go_tx, go_rx) = std::sync::mpsc::channel::<()>();
        let (spun_tx, spun_rx) = std::sync::mpsc::channel();
        let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
        let worker = std::thread::spawn(move || {
            tid_tx.send(current_tid()).unwrap();
            go_rx.recv().unwrap();
            let before = thread_cpu_ns();
            spin_ms(30);
            spun_tx.send(thread_cpu_ns() - before).unwrap();
            done_rx.recv().unwrap();
        });
        let tid = tid_rx.recv().unwrap();
        let mut r = set.open_thread_remote(tid).expect("clocks and groups open by tid");
        let mut v0 = vec![0u64; n];
        r.read(&mut v0);
        go_tx.send(()).unwrap();
        let spun = spun_rx.recv().unwrap();
        let mut v1 = vec![0u64; n];
        r.read(&mut v1);
        assert!(v1[0] - v0[0] >= spun - 1_000_000, "cpu-time moved {} while the worker spun {spun}", v1[0] - v0[0]);
        // task-clock counts from the open on: at least the spin, and not the opener's time.
        assert!(v1[2] - v0[2] >= 25_000_000 && v1[2] - v0[2] < spun + 20_000_000, "task-clock moved {}", v1[2] - v0[2]);
        done_tx.send(()).unwrap();
        worker.join().unwrap();
    }
}
