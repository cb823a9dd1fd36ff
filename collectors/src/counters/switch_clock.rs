//! `cpu-time` of the calling thread without a system call per read: its CPU time kept from the
//! kernel's records of its own context switches and the vDSO's monotonic clock.
//!
//! A thread's CPU clock (`CLOCK_THREAD_CPUTIME_ID`) has no vDSO path: every read is a system call
//! (0.4–1.5 µs on the virtual machines this was measured on). A thread that reads its clock at
//! every switch of the green threads it runs (the research VM's processors) pays that at every
//! switch. The kernel already knows when the thread runs: a perf `dummy` event on the thread
//! with `context_switch` set writes a record into a ring buffer each time the thread is switched
//! out or in, stamped on `CLOCK_MONOTONIC` (`use_clockid`). While the thread runs, its CPU time is
//! what it was at its last switch in plus the time since, so a read is one vDSO clock read and a
//! look at the ring's head (a load from the mapped page); records are only there to consume after
//! the OS switched the thread. The clock is anchored once on the real CPU clock when opened, and
//! again after the kernel dropped records (a full ring).
//!
//! What it counts is the time between the kernel's switch in and switch out of the thread, which
//! is what the kernel's CPU clock adds up too (both include time in the kernel on the thread's
//! behalf); they differ by the few hundred ns between a switch and its record, per switch, and in a
//! virtual machine by the time the hypervisor took the CPU away while the thread was switched in
//! (steal), which the kernel's CPU clock leaves out and this clock, like perf's `task-clock`, keeps.
//! Readable only on the thread itself (the ring is consumed by its reader). Needs the kernel side
//! of perf, as the context-switch records of [`super::switches`]: root, `CAP_PERFMON`, or
//! `perf_event_paranoid` ≤ 1; [`SwitchClock::open`] says otherwise and the caller keeps the
//! system-call clock.

use std::io;

use perf_event::events::Software;
use perf_event::{Builder, Clock, SampleFlag, Sampler};
use hpm_model::metrics::ThreadMetrics;

use super::clock::{monotonic_ns, thread_cpu_ns};

/// `perf_event_header.type` of the records read here (`linux/perf_event.h`).
const RECORD_LOST: u32 = 2;
const RECORD_SWITCH: u32 = 14;
/// `perf_event_header.misc` bit of a switch out.
const MISC_SWITCH_OUT: u16 = 1 << 13;

/// Data pages of the ring: a switch record takes 24 bytes here (header and `sample_id` with tid
/// and time), so 4 pages hold about 680 switches between two reads.
const RING_PAGES: usize = 4;

/// The calling thread's CPU time, from its switch records (see the module docs).
pub struct SwitchClock {
    ring: Sampler,
    /// CPU time up to `since`.
    base: u64,
    /// When the thread was last switched in (or the clock anchored).
    since: u64,
    /// The last value read: reads never go back (see [`SwitchClock::anchor`]).
    last: u64,
    /// Records the kernel dropped (full ring); each loss re-anchors the clock.
    lost: u64,
    /// Switch records consumed.
    switches: u64,
}

/// The reader of `set` on the calling thread that a research-VM processor reads its metrics with:
/// `cpu-time` from the thread's context-switch records where perf gives them (no system call per
/// read), else `set`'s own reader, with why not. The recorder's overhead compensation calibrates
/// with the same reader, so that it removes what the processors' reads cost.
pub fn processor_reader(set: &super::clock::Metrics) -> (Box<dyn ThreadMetrics>, Option<io::Error>) {
    match SwitchClock::open() {
        Ok(clock) => (set.open_current_thread_with("cpu-time", Box::new(clock)), None),
        Err(e) => (hpm_model::metrics::MetricSet::open_current_thread(set), Some(e)),
    }
}

impl SwitchClock {
    /// Opens the clock of the calling thread.
    pub fn open() -> io::Result<SwitchClock> {
        let mut b = Builder::new(Software::DUMMY);
        b.observe_self()
            .any_cpu()
            .exclude_kernel(false)
            .exclude_hv(false)
            .context_switch(true)
            .sample_id_all(true)
            .sample(SampleFlag::TID | SampleFlag::TIME)
            .clockid(Clock::MONOTONIC)
            .enabled(false);
        let event = b.build().map_err(|e| explain(e, "open"))?;
        let page = super::clock::page_size();
        let mut ring = event.sampled(RING_PAGES * page).map_err(|e| explain(e, "map the ring buffer of"))?;
        ring.enable().map_err(|e| explain(e, "enable"))?;
        let mut c = SwitchClock { ring, base: 0, since: 0, last: 0, lost: 0, switches: 0 };
        c.anchor();
        Ok(c)
    }

    /// Sets the clock to the thread's CPU clock now (a system call), after anything the ring
    /// holds: at open, and after the kernel dropped records.
    fn anchor(&mut self) {
        while self.ring.next_record().is_some() {}
        self.base = thread_cpu_ns().max(self.last);
        self.since = monotonic_ns();
    }

    /// Consumes the switch records written since the last read.
    fn drain(&mut self) {
        let mut lost = false;
        while let Some(r) = self.ring.next_record() {
            match r.ty() {
                RECORD_SWITCH => {
                    // sample_id: pid, tid (u32 each), then time (u64).
                    let mut body = [0u8; 16];
                    let mut at = 0;
                    for part in r.data() {
                        let n = part.len().min(body.len() - at);
                        body[at..at + n].copy_from_slice(&part[..n]);
                        at += n;
                    }
                    if at < 16 {
                        continue;
                    }
                    let time = u64::from_ne_bytes(body[8..16].try_into().unwrap_or_default());
                    self.switches += 1;
                    if r.misc() & MISC_SWITCH_OUT != 0 {
                        // Ran from `since` to `time` (nothing if the switch came before an anchor).
                        self.base += time.saturating_sub(self.since);
                        self.since = self.since.max(time);
                    } else {
                        // Off the CPU from the switch out to now: not counted.
                        self.since = self.since.max(time);
                    }
                }
                RECORD_LOST => {
                    self.lost += 1;
                    lost = true;
                }
                _ => {}
            }
        }
        if lost {
            self.anchor();
        }
    }

    /// The thread's CPU time now, in ns. On the thread that opened the clock only.
    #[inline]
    pub fn read(&mut self) -> u64 {
        self.drain();
        self.value_at(monotonic_ns())
    }

    /// [`SwitchClock::read`] at `now`, a `CLOCK_MONOTONIC` time the caller read just before. A
    /// switch record the kernel wrote since then moves the clock to that record's time (it
    /// cannot go back).
    #[inline]
    pub fn read_at(&mut self, now: u64) -> u64 {
        self.drain();
        self.value_at(now)
    }

    #[inline]
    fn value_at(&mut self, now: u64) -> u64 {
        let v = (self.base + now.saturating_sub(self.since)).max(self.last);
        self.last = v;
        v
    }

    /// Switch records consumed, and losses of records (each re-anchored the clock).
    pub fn stats(&self) -> (u64, u64) {
        (self.switches, self.lost)
    }
}

impl ThreadMetrics for SwitchClock {
    #[inline]
    fn read(&mut self, out: &mut [u64]) {
        if let Some(o) = out.first_mut() {
            *o = SwitchClock::read(self);
        }
    }
    #[inline]
    fn read_at(&mut self, now_ns: u64, out: &mut [u64]) {
        if let Some(o) = out.first_mut() {
            *o = SwitchClock::read_at(self, now_ns);
        }
    }
}

fn explain(e: io::Error, what: &str) -> io::Error {
    let fix = match e.raw_os_error() {
        // The same refusal as for the switch records of `super::switches`.
        Some(libc::EACCES) | Some(libc::EPERM) => super::switches::fix_for(&e),
        Some(libc::ENOMEM) => " (perf rings are locked memory: raise kernel.perf_event_mlock_kb or `ulimit -l`)".into(),
        _ => String::new(),
    };
    io::Error::new(e.kind(), format!("cannot {what} the context-switch records of this thread: {e}{fix}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    fn spin(d: Duration) {
        let t = Instant::now();
        let mut x = 0u64;
        while t.elapsed() < d {
            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
        }
    }

    /// Busy phases, sleeps (switches out that must not count) and, on one CPU with a second busy
    /// thread, preemptions: the clock moves with the kernel's CPU clock of the thread.
    #[test]
    fn follows_the_kernels_cpu_clock_through_sleeps_and_preemption() {
        let mut c = match SwitchClock::open() {
            Ok(c) => c,
            Err(e) => {
                // Only where perf refuses the records (not as root, as CI runs): the refusal must
                // say what to do.
                assert!(e.to_string().contains("perf_event_paranoid"), "{e}");
                eprintln!("skipped: {e}");
                return;
            }
        };
        // SAFETY: a zeroed cpu_set_t is a valid empty set; CPU_SET and sched_setaffinity get
        // pointers to it, for the calling thread (0).
        let pin = || unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            libc::CPU_SET(0, &mut set);
            libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set);
        };
        pin();
        let steal0 = super::super::clock::steal_ns();
        let (k0, c0) = (thread_cpu_ns(), c.read());
        for _ in 0..5 {
            spin(Duration::from_millis(20));
            std::thread::sleep(Duration::from_millis(10));
        }
        // A competitor on the same CPU: this thread is preempted while it spins.
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let s = stop.clone();
        let hog = std::thread::spawn(move || {
            pin();
            while !s.load(std::sync::atomic::Ordering::Relaxed) {
                std::hint::spin_loop();
            }
        });
        spin(Duration::from_millis(200));
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        hog.join().unwrap();
        let (k1, c1) = (thread_cpu_ns(), c.read());
        let steal = super::super::clock::steal_since(steal0);
        let (kernel, clock) = (k1 - k0, c1 - c0);
        let (switches, lost) = c.stats();
        eprintln!("kernel CPU clock {kernel} ns, switch clock {clock} ns, {switches} switch records, {lost} losses, steal {steal} ns");
        assert!(switches >= 10, "the sleeps alone switch the thread out and in: {switches}");
        // Sleeps and preemption are left out, as by the kernel's clock; time the hypervisor took
        // while the thread was switched in is not (as with task-clock): at most the steal of all
        // CPUs over the test.
        let diff = clock as f64 - kernel as f64;
        assert!(diff > -0.02 * kernel as f64 - 1e6 && diff < 0.02 * kernel as f64 + steal as f64 + 1e6, "kernel {kernel} ns, switch clock {clock} ns, steal {steal} ns");
    }

    /// A read at a given time counts up to that time; one at an earlier time than a read before
    /// it does not go back.
    #[test]
    fn a_read_at_a_time_counts_to_that_time() {
        let Ok(mut c) = SwitchClock::open() else { return };
        let t = monotonic_ns();
        let a = c.read_at(t);
        let (switches, _) = c.stats();
        let b = c.read_at(t + 2_000_000);
        // 2 ms later by the given times: 2 ms more, exactly unless the OS switched the thread out
        // in between (then less: the time off the CPU does not count).
        if c.stats().0 == switches {
            assert_eq!(b - a, 2_000_000);
        } else {
            assert!(b >= a && b - a <= 2_000_000, "{a} {b}");
        }
        assert_eq!(c.read_at(t), b);
    }

    #[test]
    fn reads_never_go_back() {
        let Ok(mut c) = SwitchClock::open() else { return };
        let mut prev = c.read();
        for _ in 0..100_000 {
            let v = c.read();
            assert!(v >= prev);
            prev = v;
        }
    }
}
