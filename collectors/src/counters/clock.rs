//! Thread CPU clock and wall clock as [`MetricSet`]s, and reading another thread's CPU time.

use std::io;

use hpm_model::metrics::{Metric, MetricSet, ThreadMetrics};

/// Reads a POSIX clock in nanoseconds. Returns `None` if the clock cannot be read.
pub fn clock_ns(clock: libc::clockid_t) -> Option<u64> {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid, writable timespec owned by this frame; clock_gettime only writes it.
    let rc = unsafe { libc::clock_gettime(clock, &mut ts) };
    if rc != 0 {
        return None;
    }
    Some(ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64)
}

/// CPU time consumed so far by the calling thread (CLOCK_THREAD_CPUTIME_ID), in ns.
#[inline]
pub fn thread_cpu_ns() -> u64 {
    clock_ns(libc::CLOCK_THREAD_CPUTIME_ID).unwrap_or(0)
}

/// CLOCK_MONOTONIC in ns.
#[inline]
pub fn monotonic_ns() -> u64 {
    clock_ns(libc::CLOCK_MONOTONIC).unwrap_or(0)
}

/// Hypervisor steal time so far, summed over all CPUs, in ns: the 8th number of the `cpu` line of
/// `/proc/stat` (in USER_HZ = 100 ticks a second). perf's task-clock includes the time the host stole
/// from a virtual CPU while the thread ran on it; CPU-time clocks exclude it. `None` if unreadable.
pub fn steal_ns() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    // cpu user nice system idle iowait irq softirq steal …
    let ticks: u64 = stat.lines().next()?.split_whitespace().nth(8)?.parse().ok()?;
    Some(ticks * STEAL_TICK_NS)
}

/// The unit of [`steal_ns`]: `/proc/stat` gives whole ticks of USER_HZ (100 a second), so the
/// difference of two readings can be short of the steal between them by up to one tick.
pub const STEAL_TICK_NS: u64 = 10_000_000;

/// Steal of all CPUs since `before`, an earlier [`steal_ns`]; 0 when either reading failed.
pub fn steal_since(before: Option<u64>) -> u64 {
    match (before, steal_ns()) {
        (Some(a), Some(b)) => b.saturating_sub(a),
        _ => 0,
    }
}

/// The kernel thread id of the calling thread (gettid).
pub fn current_tid() -> i32 {
    // SAFETY: gettid has no arguments and cannot fail.
    unsafe { libc::syscall(libc::SYS_gettid) as i32 }
}

/// The CPU time (user + system) of thread `tid` of this process, in ns, read from
/// `/proc/self/task/<tid>/schedstat` (ns resolution) or, if schedstat is missing,
/// `/proc/self/task/<tid>/stat` (clock-tick resolution).
pub fn thread_cpu_ns_of(tid: i32) -> io::Result<u64> {
    if let Ok(s) = std::fs::read_to_string(format!("/proc/self/task/{tid}/schedstat")) {
        if let Some(v) = s.split_whitespace().next().and_then(|f| f.parse::<u64>().ok()) {
            return Ok(v);
        }
    }
    let stat = std::fs::read_to_string(format!("/proc/self/task/{tid}/stat"))?;
    parse_stat_cpu_ns(&stat, clock_ticks_per_sec())
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidData, "unparsable /proc stat line"))
}

/// The CPU time of thread `tid` of this process, in ns, read from
/// `/proc/self/task/<tid>/stat` only (utime + stime, clock-tick resolution, usually 10 ms).
pub fn thread_cpu_ns_of_stat(tid: i32) -> io::Result<u64> {
    let stat = std::fs::read_to_string(format!("/proc/self/task/{tid}/stat"))?;
    parse_stat_cpu_ns(&stat, clock_ticks_per_sec())
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidData, "unparsable /proc stat line"))
}

/// The system's page size in bytes.
pub fn page_size() -> usize {
    // SAFETY: sysconf has no memory effects.
    let p = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    if p > 0 { p as usize } else { 4096 }
}

fn clock_ticks_per_sec() -> u64 {
    // SAFETY: sysconf has no memory effects.
    let t = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    if t > 0 { t as u64 } else { 100 }
}

/// Parses utime + stime (fields 14 and 15) of a `/proc/.../stat` line into ns.
pub fn parse_stat_cpu_ns(stat: &str, ticks_per_sec: u64) -> Option<u64> {
    // The comm field (2) is in parentheses and may contain spaces: split after the last ')'.
    let rest = &stat[stat.rfind(')')? + 1..];
    let mut f = rest.split_whitespace();
    // rest starts at field 3 (state); utime is field 14 => index 11 here.
    let utime: u64 = f.nth(11)?.parse().ok()?;
    let stime: u64 = f.next()?.parse().ok()?;
    Some((utime + stime) * (1_000_000_000 / ticks_per_sec))
}

/// The CPU-time clock id of a thread of this process, via `pthread_getcpuclockid`.
/// Read it with [`clock_ns`].
///
/// # Safety
/// `thread` must be a live (not yet joined or detached-and-exited) thread of this process:
/// glibc dereferences it.
pub unsafe fn pthread_cpu_clock(thread: libc::pthread_t) -> io::Result<libc::clockid_t> {
    let mut id: libc::clockid_t = 0;
    // SAFETY: `id` is a valid out-pointer; the caller guarantees `thread` is live.
    let rc = unsafe { libc::pthread_getcpuclockid(thread, &mut id) };
    if rc != 0 {
        return Err(io::Error::from_raw_os_error(rc));
    }
    Ok(id)
}

/// The kernel's per-thread CPU clock id for thread `tid` (what glibc's `pthread_getcpuclockid`
/// builds: `(!tid << 3) | CPUCLOCK_PERTHREAD | CPUCLOCK_SCHED`). Valid only for threads of this
/// process; a dead tid makes `clock_gettime` fail (EINVAL), nothing worse.
pub fn tid_cpu_clock(tid: i32) -> libc::clockid_t {
    ((!tid) << 3) | 4 | 2
}

/// CPU time of thread `tid` of this process in ns, through its kernel CPU clock (ns resolution,
/// no file I/O). Errors if `tid` is not a live thread of this process.
pub fn thread_cpu_ns_by_tid(tid: i32) -> io::Result<u64> {
    clock_ns(tid_cpu_clock(tid)).ok_or_else(io::Error::last_os_error)
}

/// `cpu-time`: CPU time of the thread, CLOCK_THREAD_CPUTIME_ID, ns.
#[derive(Debug, Clone, Copy, Default)]
pub struct ThreadCpuClock;

/// `wall-time`: CLOCK_MONOTONIC, ns.
#[derive(Debug, Clone, Copy, Default)]
pub struct WallClock;

struct CpuReader;
impl ThreadMetrics for CpuReader {
    #[inline]
    fn read(&mut self, out: &mut [u64]) {
        if let Some(o) = out.first_mut() {
            *o = thread_cpu_ns();
        }
    }
}

struct WallReader;
impl ThreadMetrics for WallReader {
    #[inline]
    fn read(&mut self, out: &mut [u64]) {
        if let Some(o) = out.first_mut() {
            *o = monotonic_ns();
        }
    }
    #[inline]
    fn read_at(&mut self, now_ns: u64, out: &mut [u64]) {
        if let Some(o) = out.first_mut() {
            *o = now_ns;
        }
    }
}

impl MetricSet for ThreadCpuClock {
    fn metrics(&self) -> Vec<Metric> {
        vec![Metric::new("cpu-time", "ns")]
    }
    fn open_current_thread(&self) -> Box<dyn ThreadMetrics> {
        Box::new(CpuReader)
    }
    fn open_current_thread_remote(&self) -> Option<Box<dyn ThreadMetrics>> {
        Some(Box::new(super::remote::TidCpuReader::current()))
    }
    fn open_thread_remote(&self, tid: i32) -> Option<Box<dyn ThreadMetrics>> {
        Some(Box::new(super::remote::TidCpuReader::of(tid)))
    }
}

impl MetricSet for WallClock {
    fn metrics(&self) -> Vec<Metric> {
        vec![Metric::new("wall-time", "ns")]
    }
    fn open_current_thread(&self) -> Box<dyn ThreadMetrics> {
        Box::new(WallReader)
    }
    fn open_current_thread_remote(&self) -> Option<Box<dyn ThreadMetrics>> {
        Some(Box::new(WallReader))
    }
    fn open_thread_remote(&self, _tid: i32) -> Option<Box<dyn ThreadMetrics>> {
        Some(Box::new(WallReader))
    }
}

/// Several [`MetricSet`]s read as one: metrics are concatenated in order.
#[derive(Default)]
pub struct Metrics {
    sets: Vec<Box<dyn MetricSet>>,
}

impl Metrics {
    pub fn new() -> Metrics {
        Metrics { sets: Vec::new() }
    }
    /// Appends a set (builder style).
    pub fn with(mut self, set: impl MetricSet + 'static) -> Metrics {
        self.sets.push(Box::new(set));
        self
    }
    /// Appends a boxed set.
    pub fn push(&mut self, set: Box<dyn MetricSet>) {
        self.sets.push(set);
    }
    pub fn len(&self) -> usize {
        self.sets.len()
    }
    /// Opens the calling thread's reader with the set that is exactly metric `name` read by
    /// `reader` instead (its own reader is not opened). The research VM's processors read
    /// `cpu-time` from their switch records this way ([`super::switch_clock`]).
    pub fn open_current_thread_with(&self, name: &str, reader: Box<dyn ThreadMetrics>) -> Box<dyn ThreadMetrics> {
        let mut reader = Some(reader);
        let parts = self
            .sets
            .iter()
            .map(|s| {
                let m = s.metrics();
                let r = match reader.take_if(|_| m.len() == 1 && m[0].name == name) {
                    Some(r) => r,
                    None => s.open_current_thread(),
                };
                (m.len(), r)
            })
            .collect();
        Box::new(MultiReader { parts })
    }
    pub fn is_empty(&self) -> bool {
        self.sets.is_empty()
    }
}

struct MultiReader {
    parts: Vec<(usize, Box<dyn ThreadMetrics>)>,
}

impl MultiReader {
    /// Calls `read` with each part and its slice of `out`.
    #[inline]
    fn each_part(&mut self, out: &mut [u64], mut read: impl FnMut(&mut dyn ThreadMetrics, &mut [u64])) {
        let mut at = 0;
        for (n, r) in &mut self.parts {
            let end = (at + *n).min(out.len());
            read(r.as_mut(), &mut out[at..end]);
            at = end;
        }
    }
}

impl ThreadMetrics for MultiReader {
    #[inline]
    fn read(&mut self, out: &mut [u64]) {
        self.each_part(out, |r, o| r.read(o));
    }
    #[inline]
    fn read_at(&mut self, now_ns: u64, out: &mut [u64]) {
        self.each_part(out, |r, o| r.read_at(now_ns, o));
    }
    fn scaled_reads(&self) -> u64 {
        self.parts.iter().map(|(_, r)| r.scaled_reads()).sum()
    }
}

impl MetricSet for Metrics {
    fn metrics(&self) -> Vec<Metric> {
        self.sets.iter().flat_map(|s| s.metrics()).collect()
    }
    fn open_current_thread(&self) -> Box<dyn ThreadMetrics> {
        Box::new(MultiReader {
            parts: self.sets.iter().map(|s| (s.metrics().len(), s.open_current_thread())).collect(),
        })
    }
    fn open_current_thread_remote(&self) -> Option<Box<dyn ThreadMetrics>> {
        let parts = self.sets.iter().map(|s| Some((s.metrics().len(), s.open_current_thread_remote()?)));
        Some(Box::new(MultiReader { parts: parts.collect::<Option<_>>()? }))
    }
    fn open_thread_remote(&self, tid: i32) -> Option<Box<dyn ThreadMetrics>> {
        let parts = self.sets.iter().map(|s| Some((s.metrics().len(), s.open_thread_remote(tid)?)));
        Some(Box::new(MultiReader { parts: parts.collect::<Option<_>>()? }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_parsing_handles_spaces_in_comm() {
        let line = "1234 (my (weird) thread) R 1 2 3 4 5 6 7 8 9 10 250 50 0 0 20 0 1 0 100 0 0";
        assert_eq!(parse_stat_cpu_ns(line, 100), Some(300 * 10_000_000));
    }

    #[test]
    fn clocks_grow_and_combine() {
        let m = Metrics::new().with(ThreadCpuClock).with(WallClock);
        let names: Vec<_> = m.metrics().into_iter().map(|m| m.name).collect();
        assert_eq!(names, ["cpu-time", "wall-time"]);
        let mut r = m.open_current_thread();
        let mut a = [0u64; 2];
        let mut b = [0u64; 2];
        r.read(&mut a);
        let t = std::time::Instant::now();
        let mut x = 0u64;
        while t.elapsed().as_millis() < 20 {
            x = x.wrapping_add(std::hint::black_box(1));
        }
        std::hint::black_box(x);
        r.read(&mut b);
        assert!(b[0] > a[0] && b[1] > a[1], "{a:?} {b:?}");
        assert!(b[1] - a[1] >= 20_000_000);
    }

    /// A reading at a time the caller gives (a switch's time): `wall-time` is that time, and the
    /// CPU clock is still read.
    #[test]
    fn a_reading_at_a_given_time_takes_it_for_wall_time() {
        let m = Metrics::new().with(ThreadCpuClock).with(WallClock);
        let mut r = m.open_current_thread();
        let mut a = [0u64; 2];
        let now = monotonic_ns();
        r.read_at(now, &mut a);
        assert_eq!(a[1], now);
        let mut b = [0u64; 2];
        r.read_at(now + 5, &mut b);
        assert_eq!(b[1], now + 5);
        assert!(a[0] > 0 && b[0] >= a[0], "{a:?} {b:?}");
    }

    #[test]
    fn cpu_time_of_self_by_tid() {
        let t = std::time::Instant::now();
        while t.elapsed().as_millis() < 30 {}
        let own = thread_cpu_ns();
        let by_tid = thread_cpu_ns_of(current_tid()).unwrap();
        assert!(by_tid > 0 && by_tid <= own + 20_000_000, "own {own} proc {by_tid}");
        // SAFETY: pthread_self() is the calling thread, which is alive.
        let id = unsafe { pthread_cpu_clock(libc::pthread_self()) }.unwrap();
        assert!(clock_ns(id).unwrap() >= own);
        assert_eq!(id, tid_cpu_clock(current_tid()));
        let t = thread_cpu_ns_by_tid(current_tid()).unwrap();
        assert!(t >= own && t < own + 10_000_000);
        assert!(thread_cpu_ns_by_tid(i32::MAX - 7).is_err());
    }
}
