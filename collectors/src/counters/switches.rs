//! Quanta from the kernel's context switches, for VMs whose threads are OS threads (HotSpot): a
//! thread's quantum begins when the kernel switches it in and ends when it switches it out.
//!
//! Per thread, one perf_event group whose leader is the software `context-switches` event with
//! sample period 1: it takes a sample at every switch out of the thread, carrying the values of
//! the whole group (`PERF_SAMPLE_READ`, `PERF_FORMAT_GROUP | PERF_FORMAT_ID`), so consecutive samples give each
//! quantum's counter deltas. The same leader records the switches themselves (`context_switch`):
//! a record when the thread is switched in, and one when it is switched out, flagged when it was
//! preempted rather than blocked. Times are `CLOCK_MONOTONIC` ns (`use_clockid`), the trace's
//! time base. Everything lands in the leader's ring buffer, which [`SwitchSource::drain`] reads
//! from any thread; no signal, no work on the observed thread.
//!
//! The switch records need the kernel side of the event: as root, with `CAP_PERFMON`, or with
//! `perf_event_paranoid` ≤ 1. Otherwise [`SwitchSource::open`] fails with one line saying so.

use std::io;

use perf_event::events::Software;
use perf_event::{Builder, Clock, Counter, ReadFormat, SampleFlag, Sampler};

use super::events::EventSpec;
use super::group::GroupOpenError;
use super::refusal::{perf_event_paranoid, Refusal};

/// One quantum of one thread.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OsQuantum {
    /// The thread (kernel thread id).
    pub tid: i32,
    /// The CPU it ran on (when switched out).
    pub cpu: u32,
    /// Switched in, switched out (CLOCK_MONOTONIC ns).
    pub start: u64,
    pub end: u64,
    /// Switched out because another thread was to run; false: it blocked, slept, yielded or ended.
    pub preempted: bool,
    /// Per counter of the source (see [`SwitchSource::counters`]): the delta over the quantum.
    pub deltas: Vec<u64>,
}

/// `perf_event_header.type` of the records read here (`linux/perf_event.h`).
const RECORD_LOST: u32 = 2;
const RECORD_SAMPLE: u32 = 9;
const RECORD_SWITCH: u32 = 14;
/// `perf_event_header.misc` bits of a switch record.
const MISC_SWITCH_OUT: u16 = 1 << 13;
const MISC_SWITCH_OUT_PREEMPT: u16 = 1 << 14;

/// One thread's switch-sampling group and its ring buffer.
pub struct SwitchSource {
    tid: i32,
    leader: Sampler,
    /// Kept open: closing a member would drop it from the group.
    members: Vec<Counter>,
    counters: Vec<String>,
    refusals: Vec<Refusal>,
    /// The group's member values at the last switch out.
    last: Vec<u64>,
    /// When the thread was last switched in (the open time for the quantum under way then).
    switched_in: Option<u64>,
    /// When counting started.
    opened_at: u64,
    /// The members' values sampled at the switch out being recorded.
    out_sample: Option<Vec<u64>>,
    lost: u64,
    /// Switch-out records without their sample (the ring lost it): quanta without deltas.
    unread: u64,
    /// The record being read.
    record: Vec<u8>,
}

impl SwitchSource {
    /// Opens the group on thread `tid` (any thread of this process), with `cpu-time` (the
    /// software `task-clock`) as its first counter and then each of `events` that opens (the
    /// others are refused, see [`SwitchSource::refusals`]), and a ring of `pages` data pages (a
    /// power of two; each switch takes about 60 + 16 × counters bytes). Opened on the thread
    /// itself (`tid` the caller's), its current quantum starts when counting does.
    pub fn open(tid: i32, events: &[EventSpec], pages: usize) -> Result<SwitchSource, GroupOpenError> {
        let mut b = Builder::new(Software::CONTEXT_SWITCHES);
        b.observe_pid(tid)
            .any_cpu()
            .exclude_kernel(false)
            .exclude_hv(false)
            .sample_period(1)
            .sample(SampleFlag::TID | SampleFlag::TIME | SampleFlag::CPU | SampleFlag::READ)
            .read_format(ReadFormat::GROUP)
            .context_switch(true)
            .sample_id_all(true)
            .clockid(Clock::MONOTONIC)
            .enabled(false);
        let leader = b.build().map_err(|error| GroupOpenError {
            message: format!("cannot trace the context switches of thread {tid}: {error}{}", fix_for(&error)),
            error,
        })?;
        let mut leader = leader;
        let mut members = Vec::new();
        let mut counters = Vec::new();
        let mut refusals = Vec::new();
        let mut task_clock = Builder::new(Software::TASK_CLOCK);
        // Every member must use the leader's clock, or the kernel refuses it (EINVAL).
        task_clock.observe_pid(tid).any_cpu().exclude_kernel(false).exclude_hv(false).clockid(Clock::MONOTONIC).enabled(true);
        let c = task_clock.build_with_group(&mut leader).map_err(|error| GroupOpenError {
            message: format!("cannot count the CPU time of thread {tid} beside its switches: {error}"),
            error,
        })?;
        members.push(c);
        counters.push("cpu-time".to_string());
        for ev in events {
            let mut m = super::group::builder_for(ev, true, super::group::Target::Tid(tid));
            m.clockid(Clock::MONOTONIC).enabled(true);
            match m.build_with_group(&mut leader) {
                Ok(c) => {
                    members.push(c);
                    counters.push(ev.name.clone());
                }
                Err(e) => refusals.push(Refusal::from_open_error(ev, &e)),
            }
        }
        // `sampled` takes the data area's length in bytes.
        let page = super::clock::page_size();
        let mut leader = leader.sampled(pages.max(1).next_power_of_two() * page).map_err(|error| GroupOpenError {
            message: format!(
                "cannot map the ring buffer of thread {tid}'s switches: {error}{}",
                if matches!(error.raw_os_error(), Some(libc::EPERM) | Some(libc::ENOMEM)) {
                    " (perf rings are locked memory: raise kernel.perf_event_mlock_kb or `ulimit -l`, or run as root)"
                } else {
                    ""
                }
            ),
            error,
        })?;
        // Read before counting starts: a switch out right after enabling (before a clock read
        // after it could run) must not end before its quantum starts.
        let opened_at = super::clock::monotonic_ns();
        leader.enable_group().map_err(|error| GroupOpenError { message: format!("cannot enable thread {tid}'s switch group: {error}"), error })?;
        // A thread opened from another one is not running now: its first quantum starts at its
        // first switch in.
        let switched_in = (tid == super::clock::current_tid()).then_some(opened_at);
        let n = members.len();
        Ok(SwitchSource {
            tid,
            leader,
            members,
            counters,
            refusals,
            last: vec![0; n],
            switched_in,
            opened_at,
            out_sample: None,
            lost: 0,
            unread: 0,
            record: Vec::with_capacity(256),
        })
    }

    /// The counters of each quantum's `deltas`, in order: `cpu-time`, then the events opened.
    pub fn counters(&self) -> &[String] {
        &self.counters
    }

    /// The events that could not be opened, one line each.
    pub fn refusals(&self) -> &[Refusal] {
        &self.refusals
    }

    pub fn tid(&self) -> i32 {
        self.tid
    }

    /// Records the kernel dropped because the ring was full (their quanta are missing), and
    /// switches whose counter sample was dropped (their quanta have no deltas).
    pub fn lost(&self) -> (u64, u64) {
        (self.lost, self.unread)
    }

    /// Appends every quantum that ended since the last drain to `out`, oldest first.
    pub fn drain(&mut self, out: &mut Vec<OsQuantum>) {
        loop {
            let Some(r) = self.leader.next_record() else { break };
            let (ty, misc) = (r.ty(), r.misc());
            // The record's body (after its header), copied out of the ring (it may wrap there)
            // into a buffer kept between drains.
            let mut bytes = std::mem::take(&mut self.record);
            bytes.clear();
            for part in r.data() {
                bytes.extend_from_slice(part);
            }
            drop(r);
            self.handle(ty, misc, &bytes, out);
            self.record = bytes;
        }
    }

    /// One record of the ring: `body` after its header.
    fn handle(&mut self, ty: u32, misc: u16, body: &[u8], out: &mut Vec<OsQuantum>) {
        match ty {
            RECORD_SWITCH => {
                // sample_id: pid, tid (u32 each), time (u64), cpu, reserved (u32 each).
                let (Some(time), Some(cpu)) = (u64_at(body, 8), u32_at(body, 16)) else { return };
                if misc & MISC_SWITCH_OUT == 0 {
                    self.switched_in = Some(time);
                    return;
                }
                let deltas = match self.out_sample.take() {
                    Some(values) => self.advance(&values),
                    None => {
                        self.unread += 1;
                        vec![0; self.last.len()]
                    }
                };
                // Without its switch in (a thread opened from another thread while it ran, or a
                // record the ring dropped), the quantum ran for its CPU time up to the switch out,
                // and not before counting started.
                let start = self.switched_in.take().unwrap_or_else(|| time.saturating_sub(deltas[0]).max(self.opened_at).min(time));
                out.push(OsQuantum { tid: self.tid, cpu, start, end: time.max(start), preempted: misc & MISC_SWITCH_OUT_PREEMPT != 0, deltas });
            }
            RECORD_SAMPLE => {
                // pid, tid, time, cpu + reserved, then the group: nr, and a (value, id) pair
                // per event, the leader's first.
                let Some(nr) = u64_at(body, 24) else { return };
                let values: Vec<u64> = (1..nr as usize).map_while(|i| u64_at(body, 32 + 16 * i)).collect();
                if values.len() == self.last.len() {
                    self.out_sample = Some(values);
                }
            }
            RECORD_LOST => self.lost += u64_at(body, 8).unwrap_or(1),
            _ => {}
        }
    }

    /// The quantum under way when the thread ends, read on the thread itself before its events
    /// close (they close before the kernel's last switch out of it): from its last switch in to
    /// `now`, with the group's values read now. Drain first.
    pub fn finish_on_thread(&mut self, now: u64) -> Option<OsQuantum> {
        let start = self.switched_in.take()?;
        let data = self.leader.as_counter_mut().read_group().ok()?;
        let values: Vec<u64> = self.members.iter().map(|m| data.get(m).map_or(0, |e| e.value())).collect();
        let deltas = self.advance(&values);
        Some(OsQuantum { tid: self.tid, cpu: current_cpu(), start, end: now.max(start), preempted: false, deltas })
    }

    fn advance(&mut self, values: &[u64]) -> Vec<u64> {
        let deltas = values.iter().zip(&self.last).map(|(v, l)| v.saturating_sub(*l)).collect();
        self.last.copy_from_slice(values);
        deltas
    }
}

/// The CPU the calling thread runs on.
pub fn current_cpu() -> u32 {
    // SAFETY: sched_getcpu takes no arguments; -1 on error.
    let c = unsafe { libc::sched_getcpu() };
    c.max(0) as u32
}

fn u64_at(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_ne_bytes(b.get(at..at + 8)?.try_into().ok()?))
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_ne_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

/// What to do when opening is refused.
pub(super) fn fix_for(e: &io::Error) -> String {
    match e.raw_os_error() {
        Some(libc::EACCES) | Some(libc::EPERM) => format!(
            " (context switches are kernel events: perf_event_paranoid is {}; run as root, give CAP_PERFMON, or sysctl kernel.perf_event_paranoid=1)",
            perf_event_paranoid().map_or("unknown".to_string(), |p| p.to_string())
        ),
        Some(libc::EMFILE) => " (each traced thread holds 2 + events descriptors; raise `ulimit -n`)".into(),
        _ => String::new(),
    }
}
