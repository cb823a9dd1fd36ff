//! Per-thread perf_event counter groups: opening with refusals, atomic group reads by `read()` or
//! `rdpmc`, multiplexing scale, and the [`MetricSet`] implementation for a [`CounterSetSpec`].

use std::io;
use std::os::fd::AsRawFd;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use perf_event::events::{Raw, Software};
use perf_event::{Builder, Counter, ReadFormat, Sampler};
use hpm_model::metrics::{Metric, MetricSet, ThreadMetrics};

use super::events::{parse_event, EventSpec, PERF_TYPE_SOFTWARE, PERF_TYPE_TRACEPOINT};
use super::refusal::{perf_event_paranoid, Refusal, RefusalReason};

/// Whether kernel-mode execution is counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum KernelMode {
    /// Include the kernel if perf_event_paranoid / capabilities permit it, else count user mode only.
    #[default]
    Auto,
    /// Count kernel and user mode (events fail with EACCES if not permitted).
    Include,
    /// Count user mode only (`exclude_kernel`).
    Exclude,
}

/// How groups are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ReadMode {
    /// `rdpmc` through the mmap page where the kernel allows it for every member, `read()` otherwise.
    #[default]
    Auto,
    /// Always `read()` the group.
    Syscall,
}

/// The path a group is read by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadPath {
    /// One `read()` of the group leader (PERF_FORMAT_GROUP): atomic across members.
    Syscall,
    /// `rdpmc` of each member through its mmap page (no system call). Only hardware counters on
    /// the calling thread, and only where the kernel sets `cap_user_rdpmc`.
    Rdpmc,
    /// The group has no members (every event refused): reads write zeros.
    Empty,
}

impl std::fmt::Display for ReadPath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ReadPath::Syscall => "read()",
            ReadPath::Rdpmc => "rdpmc",
            ReadPath::Empty => "none (no events)",
        })
    }
}

/// Options for opening groups.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CounterOptions {
    pub kernel: KernelMode,
    pub read: ReadMode,
}

/// Which thread a group observes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// The calling thread (pid = 0, cpu = -1).
    CurrentThread,
    /// Another thread by kernel thread id (pid = tid, cpu = -1); read by `read()` only.
    Tid(i32),
}

/// Scales a multiplexed count: `value × enabled / running`. Returns the estimate and whether it
/// was scaled. `running == 0` (never scheduled) gives 0, unscaled: nothing was counted.
pub fn scale_count(value: u64, enabled: u64, running: u64) -> (u64, bool) {
    if running == 0 {
        (0, false)
    } else if running >= enabled {
        (value, false)
    } else {
        let v = (value as u128 * enabled as u128 / running as u128).min(u64::MAX as u128) as u64;
        (v, true)
    }
}

/// Turns raw member counts and per-member (time_enabled, time_running) into one value per requested
/// event: scaled for multiplexing, 0 for events not counted (`slots[i] == None`), and never below
/// the previous value `last[i]` (a scaled estimate can wobble down; the recorder needs monotonic
/// values). Updates `last`; returns (any value scaled, any member never scheduled).
pub(crate) fn scale_into(
    slots: &[Option<usize>],
    raw: &[u64],
    times: &[(u64, u64)],
    last: &mut [u64],
    out: &mut [u64],
) -> (bool, bool) {
    let mut scaled_any = false;
    let mut unscheduled = false;
    for (i, slot) in slots.iter().enumerate() {
        let v = match slot {
            Some(m) => {
                let (en, run) = times[*m];
                if run == 0 && en > 0 {
                    unscheduled = true;
                }
                let (v, s) = scale_count(raw[*m], en, run);
                scaled_any |= s;
                v
            }
            None => 0,
        };
        let v = v.max(last[i]);
        last[i] = v;
        if let Some(o) = out.get_mut(i) {
            *o = v;
        }
    }
    (scaled_any, unscheduled)
}

/// Totals shared by every group opened from one [`CounterSetSpec`] (each group adds its own
/// counts when it is dropped or [`CounterGroup::flush_stats`] is called), so reports can say
/// whether scaling happened.
#[derive(Debug, Default)]
pub struct CounterStats {
    pub groups_opened: AtomicU64,
    /// Threads for which the group could not be opened at all (reads give zeros).
    pub groups_failed: AtomicU64,
    /// Events that opened at probe time but not on some thread (that slot reads zeros there).
    pub member_failures: AtomicU64,
    pub reads: AtomicU64,
    /// Reads in which at least one member was scaled (time_running < time_enabled).
    pub scaled_reads: AtomicU64,
    /// Reads in which the group had not run at all (time_running = 0).
    pub unscheduled_reads: AtomicU64,
    pub rdpmc_reads: AtomicU64,
    /// rdpmc reads that fell back to read() (a member was not on the PMU at that moment).
    pub rdpmc_fallbacks: AtomicU64,
    pub read_errors: AtomicU64,
}

/// A snapshot of [`CounterStats`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CounterStatsSnapshot {
    pub groups_opened: u64,
    pub groups_failed: u64,
    pub member_failures: u64,
    pub reads: u64,
    pub scaled_reads: u64,
    pub unscheduled_reads: u64,
    pub rdpmc_reads: u64,
    pub rdpmc_fallbacks: u64,
    pub read_errors: u64,
}

impl CounterStats {
    pub fn snapshot(&self) -> CounterStatsSnapshot {
        let l = |a: &AtomicU64| a.load(Ordering::Relaxed);
        CounterStatsSnapshot {
            groups_opened: l(&self.groups_opened),
            groups_failed: l(&self.groups_failed),
            member_failures: l(&self.member_failures),
            reads: l(&self.reads),
            scaled_reads: l(&self.scaled_reads),
            unscheduled_reads: l(&self.unscheduled_reads),
            rdpmc_reads: l(&self.rdpmc_reads),
            rdpmc_fallbacks: l(&self.rdpmc_fallbacks),
            read_errors: l(&self.read_errors),
        }
    }
}

/// Per-group local counts (flushed into the shared [`CounterStats`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReadCounts {
    pub reads: u64,
    pub scaled_reads: u64,
    pub unscheduled_reads: u64,
    pub rdpmc_reads: u64,
    pub rdpmc_fallbacks: u64,
    pub read_errors: u64,
}

/// One group read: scaled values (one per requested event, in spec order) and the group times.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GroupReading {
    pub values: Vec<u64>,
    pub raw: Vec<u64>,
    pub time_enabled: u64,
    pub time_running: u64,
    pub scaled: bool,
}

enum Member {
    Plain(Counter),
    Mapped(Sampler),
}

impl Member {
    #[allow(dead_code)]
    fn counter(&self) -> &Counter {
        match self {
            Member::Plain(c) => c,
            Member::Mapped(s) => s.as_counter(),
        }
    }
}

/// Applies an event's privilege settings and target to a builder. As perf does: counting both
/// modes leaves every `exclude_*` bit 0 (the msr PMU rejects any of them); user-only counting sets
/// `exclude_kernel` and `exclude_hv`; a `:u`/`:k` modifier sets `exclude_hv` too.
fn configure(b: &mut Builder<'static>, modifier: Option<super::events::Modifier>, include_kernel: bool, target: Target) {
    let (exclude_user, exclude_kernel, exclude_hv) = match modifier {
        Some(m) => (!m.user, !m.kernel, true),
        None => (false, !include_kernel, !include_kernel),
    };
    b.exclude_user(exclude_user).exclude_kernel(exclude_kernel).exclude_hv(exclude_hv).any_cpu();
    match target {
        Target::CurrentThread => b.observe_self(),
        Target::Tid(t) => b.observe_pid(t),
    };
}

pub(crate) fn builder_for(ev: &EventSpec, include_kernel: bool, target: Target) -> Builder<'static> {
    let mut b = Builder::new(Raw::new(ev.config).config1(ev.config1).config2(ev.config2));
    b.attrs_mut().type_ = ev.type_;
    configure(&mut b, ev.modifier, include_kernel, target);
    // Members are created enabled and start counting when the (disabled) leader is enabled, as
    // perf does. Members created disabled and enabled through the leader's group ioctl were seen
    // not to count on this kernel (6.18).
    b.enabled(true);
    b
}

fn leader_builder(include_kernel: bool, target: Target) -> Builder<'static> {
    let mut b = Builder::new(Software::DUMMY);
    b.read_format(ReadFormat::GROUP | ReadFormat::TOTAL_TIME_ENABLED | ReadFormat::TOTAL_TIME_RUNNING);
    configure(&mut b, None, include_kernel, target);
    b
}

/// Decides whether kernel-mode counting is permitted, by opening a dummy event with the kernel
/// included on the calling thread (EACCES/EPERM means no).
pub fn kernel_counting_permitted() -> bool {
    let mut b = Builder::new(Software::DUMMY);
    b.exclude_kernel(false).exclude_hv(false).observe_self().any_cpu();
    b.build().is_ok()
}

fn resolve_kernel(mode: KernelMode) -> bool {
    match mode {
        KernelMode::Include => true,
        KernelMode::Exclude => false,
        KernelMode::Auto => kernel_counting_permitted(),
    }
}

/// Why a whole group could not be opened.
#[derive(Debug)]
pub struct GroupOpenError {
    pub error: io::Error,
    pub message: String,
}

impl std::fmt::Display for GroupOpenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}
impl std::error::Error for GroupOpenError {}

/// An open counter group on one thread. Read it on the thread it was opened on (the recorder's
/// per-thread contract): the rdpmc path reads the CPU's counters directly and would read another
/// thread's CPU otherwise. A group opened by tid is read by `read()` and may be read anywhere.
pub struct CounterGroup {
    leader: Counter,
    members: Vec<Member>,
    /// For each requested event: index into `members`, or None when refused on this thread.
    slots: Vec<Option<usize>>,
    path: ReadPath,
    include_kernel: bool,
    /// Raw read buffer: nr, enabled, running, (value, id) of the leader and each member.
    buf: Vec<u64>,
    /// Last values written (outputs never decrease, even when scale estimates wobble).
    last: Vec<u64>,
    member_raw: Vec<u64>,
    /// (time_enabled, time_running) of the last successful read (of the first member).
    last_times: (u64, u64),
    counts: ReadCounts,
    flushed: ReadCounts,
    stats: Option<Arc<CounterStats>>,
    refusals: Vec<Refusal>,
    /// Why the group is read by `read()` and not `rdpmc` (None: rdpmc, or no members).
    syscall_because: Option<&'static str>,
}

impl CounterGroup {
    /// Opens `events` as one group on `target`. Events that cannot be opened are left out with a
    /// [`Refusal`] (see [`CounterGroup::refusals`]); only the leader failing is an error.
    pub fn open(events: &[EventSpec], target: Target, opts: CounterOptions) -> Result<CounterGroup, GroupOpenError> {
        let include_kernel = resolve_kernel(opts.kernel);
        Self::open_resolved(events, target, include_kernel, opts.read)
    }

    fn open_resolved(
        events: &[EventSpec],
        target: Target,
        include_kernel: bool,
        read: ReadMode,
    ) -> Result<CounterGroup, GroupOpenError> {
        let mut leader = leader_builder(include_kernel, target).build().map_err(|error| GroupOpenError {
            message: format!(
                "cannot open a perf_event group on {}: {error}{}",
                match target {
                    Target::CurrentThread => "the calling thread".to_string(),
                    Target::Tid(t) => format!("thread {t}"),
                },
                if error.raw_os_error() == Some(libc::EMFILE) {
                    " (each counted thread holds 1 + events descriptors; raise `ulimit -n`)".to_string()
                } else if matches!(error.raw_os_error(), Some(libc::EACCES) | Some(libc::EPERM)) {
                    format!(
                        " (perf_event_paranoid is {:?}; fix: sysctl kernel.perf_event_paranoid=1 or CAP_PERFMON)",
                        perf_event_paranoid()
                    )
                } else {
                    String::new()
                }
            ),
            error,
        })?;
        let mut members = Vec::new();
        let mut slots = Vec::new();
        let mut refusals = Vec::new();
        for ev in events {
            if ev.is_kernel_side() && !include_kernel && !matches!(ev.modifier, Some(m) if m.kernel) {
                refusals.push(Refusal {
                    event: ev.name.clone(),
                    reason: RefusalReason::KernelOnly { paranoid: perf_event_paranoid() },
                });
                slots.push(None);
                continue;
            }
            let b = builder_for(ev, include_kernel, target);
            match b.build_with_group(&mut leader) {
                Ok(c) => {
                    slots.push(Some(members.len()));
                    members.push(Member::Plain(c));
                }
                Err(e) => {
                    let mut r = Refusal::from_open_error(ev, &e);
                    if matches!(e.raw_os_error(), Some(libc::EINVAL) | Some(libc::ENOSPC)) {
                        if b.build().is_ok() {
                            // Opens alone but not in this group: the PMU has no room for it.
                            r.reason = RefusalReason::TooManyInGroup { errno: e.raw_os_error().unwrap_or(0) };
                        } else if !include_kernel || ev.modifier.is_some() {
                            // Some PMUs (msr) cannot filter by privilege level: they reject
                            // exclude_kernel/exclude_user. Does it open counting both modes?
                            let mut k = builder_for(ev, true, target);
                            k.exclude_kernel(false).exclude_user(false).exclude_hv(false);
                            match k.build() {
                                Ok(_) => r.reason = RefusalReason::NoModeFilter,
                                Err(ke) if matches!(ke.raw_os_error(), Some(libc::EACCES) | Some(libc::EPERM)) => {
                                    r.reason = RefusalReason::KernelOnly { paranoid: perf_event_paranoid() };
                                }
                                Err(_) => {}
                            }
                        }
                    }
                    refusals.push(r);
                    slots.push(None);
                }
            }
        }
        let path = if members.is_empty() {
            ReadPath::Empty
        } else {
            ReadPath::Syscall
        };
        let n = members.len();
        let mut g = CounterGroup {
            leader,
            members,
            slots,
            path,
            include_kernel,
            buf: vec![0; 3 + 2 * (n + 1)],
            last: vec![0; events.len()],
            member_raw: vec![0; n],
            last_times: (0, 0),
            counts: ReadCounts::default(),
            flushed: ReadCounts::default(),
            stats: None,
            refusals,
            syscall_because: (n > 0).then_some(if target == Target::CurrentThread {
                "ReadMode::Syscall was asked for"
            } else {
                "a group of another thread (rdpmc reads only the calling thread's counters)"
            }),
        };
        if n > 0 {
            g.leader.enable_group().map_err(|error| GroupOpenError {
                message: format!("cannot enable the perf_event group: {error}"),
                error,
            })?;
            // One read right after enabling: the kernel brings the new events' times up to date
            // here, so the first read the caller makes is already a clean baseline.
            let _ = g.read_syscall();
            if read == ReadMode::Auto && target == Target::CurrentThread {
                g.try_rdpmc(events);
            }
        }
        Ok(g)
    }

    /// Maps every member and switches to rdpmc if the kernel allows user-space reads of all of
    /// them (only hardware counters can be; software events never are).
    fn try_rdpmc(&mut self, events: &[EventSpec]) {
        let all_hw = self
            .slots
            .iter()
            .zip(events)
            .filter(|(s, _)| s.is_some())
            .all(|(_, e)| e.type_ != PERF_TYPE_SOFTWARE && e.type_ != PERF_TYPE_TRACEPOINT);
        if !all_hw {
            self.syscall_because = Some("software events have no hardware counter for rdpmc to read");
            return;
        }
        let mut kept = Vec::with_capacity(self.members.len());
        let mut lost = Vec::new();
        for (i, m) in self.members.drain(..).enumerate() {
            match m {
                // sampled(0): the metadata page (plus one data page, unused).
                Member::Plain(c) => match c.sampled(0) {
                    Ok(s) => kept.push(Member::Mapped(s)),
                    // mmap failed (ENOMEM): the counter was consumed and closed; drop its slot.
                    Err(e) => lost.push((i, e)),
                },
                other => kept.push(other),
            }
        }
        self.members = kept;
        for (i, e) in lost.iter().rev() {
            for (k, slot) in self.slots.iter_mut().enumerate() {
                match *slot {
                    Some(m) if m == *i => {
                        *slot = None;
                        let ev = &events[k];
                        self.refusals.push(Refusal::from_open_error(ev, e));
                    }
                    Some(m) if m > *i => *slot = Some(m - 1),
                    _ => {}
                }
            }
        }
        let n = self.members.len();
        self.buf = vec![0; 3 + 2 * (n + 1)];
        self.member_raw = vec![0; n];
        if n == 0 {
            self.path = ReadPath::Empty;
            self.syscall_because = None;
            return;
        }
        let ok = self.members.iter().all(|m| match m {
            Member::Mapped(s) => s.read_user().count().is_some(),
            Member::Plain(_) => false,
        });
        if ok {
            self.path = ReadPath::Rdpmc;
            self.syscall_because = None;
        } else {
            self.syscall_because = Some("the kernel does not offer rdpmc for these events (cap_user_rdpmc or the counter index is 0 in their mmap page; see /sys/bus/event_source/devices/cpu/rdpmc)");
        }
    }

    /// Why this group is read by `read()` rather than `rdpmc` (None when it uses rdpmc or has no
    /// members), for saying which path was used.
    pub fn syscall_because(&self) -> Option<&'static str> {
        self.syscall_because
    }

    /// Events refused when this group was opened.
    pub fn refusals(&self) -> &[Refusal] {
        &self.refusals
    }

    /// Which read path is in use.
    pub fn read_path(&self) -> ReadPath {
        self.path
    }

    /// Whether kernel-mode execution is counted.
    pub fn counts_kernel(&self) -> bool {
        self.include_kernel
    }

    /// Whether the requested event `i` is counted in this group.
    pub fn is_counted(&self, i: usize) -> bool {
        self.slots.get(i).copied().flatten().is_some()
    }

    /// Local read counts (reads, scaled reads, rdpmc reads, …).
    pub fn read_counts(&self) -> ReadCounts {
        self.counts
    }

    pub(crate) fn attach_stats(&mut self, stats: Arc<CounterStats>) {
        self.stats = Some(stats);
    }

    /// Adds this group's counts since the last flush to the shared stats.
    pub fn flush_stats(&mut self) {
        if let Some(s) = &self.stats {
            let c = self.counts;
            let f = self.flushed;
            s.reads.fetch_add(c.reads - f.reads, Ordering::Relaxed);
            s.scaled_reads.fetch_add(c.scaled_reads - f.scaled_reads, Ordering::Relaxed);
            s.unscheduled_reads.fetch_add(c.unscheduled_reads - f.unscheduled_reads, Ordering::Relaxed);
            s.rdpmc_reads.fetch_add(c.rdpmc_reads - f.rdpmc_reads, Ordering::Relaxed);
            s.rdpmc_fallbacks.fetch_add(c.rdpmc_fallbacks - f.rdpmc_fallbacks, Ordering::Relaxed);
            s.read_errors.fetch_add(c.read_errors - f.read_errors, Ordering::Relaxed);
            self.flushed = c;
        }
    }

    /// Reads the group by `read()`: fills `member_raw` and returns (enabled, running).
    fn read_syscall(&mut self) -> io::Result<(u64, u64)> {
        let fd = self.leader.as_raw_fd();
        let bytes = self.buf.len() * 8;
        // SAFETY: `buf` is an owned, initialized Vec<u64> of exactly `bytes` bytes; read(2) writes
        // at most `bytes` bytes into it. `fd` is the open group leader owned by `self.leader`.
        let n = unsafe { libc::read(fd, self.buf.as_mut_ptr().cast(), bytes) };
        if n < 0 {
            return Err(io::Error::last_os_error());
        }
        let n = n as usize / 8;
        // Layout (PERF_FORMAT_GROUP | TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING | ID; perf-event2
        // always adds ID to group reads): nr, time_enabled, time_running, then (value, id) for
        // the leader and each member in the order they were added.
        let m = self.members.len();
        if n < 3 + 2 * (m + 1) || self.buf[0] as usize != m + 1 {
            return Err(io::Error::new(io::ErrorKind::InvalidData, "short perf_event group read"));
        }
        for (i, v) in self.member_raw.iter_mut().enumerate() {
            *v = self.buf[3 + 2 * (i + 1)];
        }
        Ok((self.buf[1], self.buf[2]))
    }

    /// Reads every member by rdpmc. Returns None if one of them is not on the PMU right now.
    fn read_rdpmc(&mut self, scaled_out: &mut [(u64, u64)]) -> Option<()> {
        for (i, m) in self.members.iter().enumerate() {
            let Member::Mapped(s) = m else { return None };
            let d = s.read_user();
            self.member_raw[i] = d.count()?;
            scaled_out[i] = (d.time_enabled().as_nanos() as u64, d.time_running().as_nanos() as u64);
        }
        Some(())
    }

    /// Reads the group: one (scaled, monotonic) value per requested event into `out`; refused
    /// events read 0. Returns whether any value was scaled in this read.
    pub fn read_into(&mut self, out: &mut [u64]) -> bool {
        let n = self.members.len();
        if n == 0 {
            out.iter_mut().for_each(|o| *o = 0);
            return false;
        }
        self.counts.reads += 1;
        // (enabled, running) per member.
        let mut times = [(0u64, 0u64); 16];
        let mut times_vec;
        let times: &mut [(u64, u64)] = if n <= 16 {
            &mut times[..n]
        } else {
            times_vec = vec![(0u64, 0u64); n];
            &mut times_vec
        };
        let mut ok = false;
        if self.path == ReadPath::Rdpmc {
            if self.read_rdpmc(times).is_some() {
                self.counts.rdpmc_reads += 1;
                ok = true;
            } else {
                self.counts.rdpmc_fallbacks += 1;
            }
        }
        if !ok {
            match self.read_syscall() {
                Ok((en, run)) => times.iter_mut().for_each(|t| *t = (en, run)),
                Err(_) => {
                    self.counts.read_errors += 1;
                    // Keep the last values: nothing new was learned.
                    for (o, l) in out.iter_mut().zip(&self.last) {
                        *o = *l;
                    }
                    return false;
                }
            }
        }
        self.last_times = times[0];
        let (scaled_any, unscheduled) = scale_into(&self.slots, &self.member_raw, times, &mut self.last, out);
        if scaled_any {
            self.counts.scaled_reads += 1;
        }
        if unscheduled {
            self.counts.unscheduled_reads += 1;
        }
        scaled_any
    }

    /// Reads the group and returns the values with raw counts and times (for tests and probes).
    pub fn read_full(&mut self) -> GroupReading {
        let mut values = vec![0; self.slots.len()];
        let scaled = self.read_into(&mut values);
        let (en, run) = self.last_times;
        let raw = self.slots.iter().map(|s| s.map_or(0, |m| self.member_raw[m])).collect();
        GroupReading { values, raw, time_enabled: en, time_running: run, scaled }
    }

    /// Reads the group with one `read()` (bypassing rdpmc), for benchmarks and comparison.
    pub fn read_by_syscall(&mut self, out: &mut [u64]) -> bool {
        let p = self.path;
        if p == ReadPath::Rdpmc {
            self.path = ReadPath::Syscall;
        }
        let r = self.read_into(out);
        self.path = p;
        r
    }
}

impl Drop for CounterGroup {
    fn drop(&mut self) {
        self.flush_stats();
    }
}

impl ThreadMetrics for CounterGroup {
    #[inline]
    fn read(&mut self, out: &mut [u64]) {
        self.read_into(out);
    }
    fn scaled_reads(&self) -> u64 {
        self.counts.scaled_reads
    }
}

/// A list of events to open as one group on every thread: the [`MetricSet`] for perf counters.
/// Build it with [`probe`] (which drops the events this machine refuses) or
/// [`CounterSetSpec::new`] (no probing: every thread then refuses the same events again).
pub struct CounterSetSpec {
    events: Vec<EventSpec>,
    options: CounterOptions,
    include_kernel: bool,
    stats: Arc<CounterStats>,
}

impl CounterSetSpec {
    /// A spec for these parsed events; resolves the kernel mode once (on the calling thread).
    pub fn new(events: Vec<EventSpec>, options: CounterOptions) -> CounterSetSpec {
        let include_kernel = resolve_kernel(options.kernel);
        CounterSetSpec { events, options, include_kernel, stats: Arc::new(CounterStats::default()) }
    }

    pub fn events(&self) -> &[EventSpec] {
        &self.events
    }

    pub fn options(&self) -> CounterOptions {
        self.options
    }

    /// Whether groups count kernel-mode execution too (false: user mode only).
    pub fn counts_kernel(&self) -> bool {
        self.include_kernel
    }

    /// Totals of every group opened from this spec (reads, scaled reads, failures, …).
    pub fn stats(&self) -> &Arc<CounterStats> {
        &self.stats
    }

    /// Opens the group on the calling thread; `Err` only if even the group leader cannot be opened.
    pub fn try_open_current_thread(&self) -> Result<CounterGroup, GroupOpenError> {
        self.open_target(Target::CurrentThread)
    }

    /// Opens the group for another thread of this process by kernel thread id (read by `read()`).
    pub fn open_thread(&self, tid: i32) -> Result<CounterGroup, GroupOpenError> {
        self.open_target(Target::Tid(tid))
    }

    fn open_target(&self, target: Target) -> Result<CounterGroup, GroupOpenError> {
        match CounterGroup::open_resolved(&self.events, target, self.include_kernel, self.options.read) {
            Ok(mut g) => {
                self.stats.groups_opened.fetch_add(1, Ordering::Relaxed);
                self.stats.member_failures.fetch_add(g.refusals.len() as u64, Ordering::Relaxed);
                g.attach_stats(self.stats.clone());
                Ok(g)
            }
            Err(e) => {
                self.stats.groups_failed.fetch_add(1, Ordering::Relaxed);
                Err(e)
            }
        }
    }
}

/// What a thread reads when its group could not be opened: zeros (nothing counted), recorded in
/// [`CounterStats::groups_failed`].
struct NotCounted;
impl ThreadMetrics for NotCounted {
    fn read(&mut self, out: &mut [u64]) {
        out.iter_mut().for_each(|o| *o = 0);
    }
}

impl MetricSet for CounterSetSpec {
    fn metrics(&self) -> Vec<Metric> {
        self.events.iter().map(|e| Metric::new(e.name.clone(), e.unit)).collect()
    }

    /// Never panics: a thread whose group cannot be opened reads zeros and is counted in
    /// `stats().groups_failed` (use [`CounterSetSpec::try_open_current_thread`] to see the error).
    fn open_current_thread(&self) -> Box<dyn ThreadMetrics> {
        match self.try_open_current_thread() {
            Ok(g) => Box::new(g),
            Err(_) => Box::new(NotCounted),
        }
    }

    /// The group read by `read()` from any thread (see `counters::remote`); `None` for more than
    /// 16 events (a read would allocate).
    fn open_current_thread_remote(&self) -> Option<Box<dyn ThreadMetrics>> {
        super::remote::open_group_remote(self, Target::CurrentThread)
    }
    fn open_thread_remote(&self, tid: i32) -> Option<Box<dyn ThreadMetrics>> {
        super::remote::open_group_remote(self, Target::Tid(tid))
    }
}

/// The result of [`probe`]: the spec of the events that open here, and one refusal per event that
/// does not.
pub struct Probe {
    pub spec: CounterSetSpec,
    pub refusals: Vec<Refusal>,
    /// The read path the probe group got on the calling thread.
    pub read_path: ReadPath,
    /// Why `read_path` is `read()` and not `rdpmc`, if it is.
    pub syscall_because: Option<&'static str>,
}

/// Parses `names`, opens them once as a group on the calling thread, and returns the usable
/// events (as a [`CounterSetSpec`]) and the refusals (unknown names included), to print once at
/// start-up. A group that never gets scheduled (time_running stays 0 while enabled) loses its
/// last hardware event, with a "too many hardware events" refusal, until it runs.
pub fn probe<S: AsRef<str>>(names: &[S], options: CounterOptions) -> Probe {
    let mut refusals = Vec::new();
    let mut events = Vec::new();
    for n in names {
        match parse_event(n.as_ref()) {
            Ok(e) => events.push(e),
            Err(e) => refusals.push(Refusal::unknown(&e)),
        }
    }
    let include_kernel = resolve_kernel(options.kernel);
    let mut read_path = ReadPath::Empty;
    let mut syscall_because = None;
    loop {
        let g = match CounterGroup::open_resolved(&events, Target::CurrentThread, include_kernel, options.read) {
            Ok(g) => g,
            Err(e) => {
                // Not even the leader opens: every event is refused with that reason.
                for ev in &events {
                    refusals.push(Refusal::from_open_error(ev, &e.error));
                }
                events.clear();
                break;
            }
        };
        let mut g = g;
        let refused: Vec<String> = g.refusals.iter().map(|r| r.event.clone()).collect();
        refusals.append(&mut g.refusals);
        events.retain(|e| !refused.contains(&e.name));
        read_path = g.read_path();
        syscall_because = g.syscall_because();
        if events.is_empty() {
            break;
        }
        // Run a little, then check the group was scheduled.
        let t = std::time::Instant::now();
        while t.elapsed() < std::time::Duration::from_millis(2) {
            std::hint::black_box(0u64);
        }
        let r = g.read_full();
        if r.time_enabled > 0 && r.time_running == 0 {
            if let Some(pos) = events.iter().rposition(|e| e.kind.needs_hardware_pmu() || e.kind == super::events::EventKind::Pmu) {
                let ev = events.remove(pos);
                refusals.push(Refusal { event: ev.name, reason: RefusalReason::TooManyInGroup { errno: 0 } });
                continue;
            }
        }
        break;
    }
    let spec = CounterSetSpec { events, options, include_kernel, stats: Arc::new(CounterStats::default()) };
    Probe { spec, refusals, read_path, syscall_because }
}

/// One line of [`available_events`].
#[derive(Debug, Clone)]
pub struct EventAvailability {
    pub name: String,
    /// Opened alone on the calling thread.
    pub opens: bool,
    /// The refusal when it does not open.
    pub refusal: Option<Refusal>,
    /// Whether the counter advanced in a short busy loop (kernel-side events may legitimately not).
    pub counted: bool,
}

impl std::fmt::Display for EventAvailability {
    /// One line for `hpm events`: the name, then `opens` (and whether it moved in a short busy
    /// loop) or the refusal.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.refusal {
            None if self.counted => write!(f, "{:<28} opens, counted", self.name),
            None => write!(f, "{:<28} opens (did not move in a short busy loop)", self.name),
            Some(r) => write!(f, "{:<28} not available: {r}", self.name),
        }
    }
}

/// Tries every known generic hardware, hardware cache and software event and every named sysfs
/// PMU event, each alone on the calling thread, and says which open and which do not (with why).
pub fn available_events(options: CounterOptions) -> Vec<EventAvailability> {
    let include_kernel = resolve_kernel(options.kernel);
    let mut names = super::events::known_event_names();
    names.extend(super::events::sysfs_named_events(std::path::Path::new(super::events::SYSFS_PMU_ROOT)));
    let mut out = Vec::new();
    for name in names {
        let ev = match parse_event(&name) {
            Ok(e) => e,
            Err(e) => {
                out.push(EventAvailability { name, opens: false, refusal: Some(Refusal::unknown(&e)), counted: false });
                continue;
            }
        };
        match CounterGroup::open_resolved(std::slice::from_ref(&ev), Target::CurrentThread, include_kernel, ReadMode::Syscall) {
            Ok(mut g) => {
                if let Some(r) = g.refusals.first().cloned() {
                    out.push(EventAvailability { name, opens: false, refusal: Some(r), counted: false });
                } else {
                    let a = g.read_full();
                    let t = std::time::Instant::now();
                    let mut v = Vec::with_capacity(1);
                    while t.elapsed() < std::time::Duration::from_micros(500) {
                        v.push(std::hint::black_box(0u8));
                    }
                    let b = g.read_full();
                    out.push(EventAvailability { name, opens: true, refusal: None, counted: b.values[0] > a.values[0] });
                }
            }
            Err(e) => {
                let r = Refusal::from_open_error(&ev, &e.error);
                out.push(EventAvailability { name, opens: false, refusal: Some(r), counted: false });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scaling_math() {
        assert_eq!(scale_count(100, 1000, 1000), (100, false));
        assert_eq!(scale_count(100, 1000, 500), (200, true));
        assert_eq!(scale_count(100, 1000, 0), (0, false));
        assert_eq!(scale_count(0, 0, 0), (0, false));
        assert_eq!(scale_count(3, 10, 4), (7, true)); // 7.5 truncated
        // No overflow with large values.
        assert_eq!(scale_count(u64::MAX / 2, 4, 2), (u64::MAX - 1, true));
        assert_eq!(scale_count(u64::MAX, 4, 2), (u64::MAX, true));
    }

    #[test]
    fn multiplexed_reads_are_scaled_clamped_and_flagged() {
        // Three requested events: member 0, refused, member 1.
        let slots = [Some(0), None, Some(1)];
        let mut last = [0u64; 3];
        let mut out = [0u64; 3];
        // Member 0 ran half the time it was enabled, member 1 all the time.
        let (s, u) = scale_into(&slots, &[1000, 50], &[(2000, 1000), (2000, 2000)], &mut last, &mut out);
        assert_eq!((out, s, u), ([2000, 0, 50], true, false));
        // The estimate for member 0 drops (it ran a larger share and counted less per unit):
        // the value stays at the previous one, so differences are never negative.
        let (s, _) = scale_into(&slots, &[1500, 60], &[(3000, 2500), (3000, 3000)], &mut last, &mut out);
        assert_eq!((out, s), ([2000, 0, 60], true));
        // Later it grows past it again.
        let (s, _) = scale_into(&slots, &[3000, 70], &[(4000, 3000), (4000, 4000)], &mut last, &mut out);
        assert_eq!((out, s), ([4000, 0, 70], true));
        // Not multiplexed: no scaling flagged.
        let (s, _) = scale_into(&slots, &[5000, 80], &[(5000, 5000), (5000, 5000)], &mut last, &mut out);
        assert_eq!((out, s), ([5000, 0, 80], false));
        // Never scheduled (too many hardware events for the PMU): flagged, value kept.
        let (s, u) = scale_into(&slots, &[0, 90], &[(6000, 0), (6000, 6000)], &mut last, &mut out);
        assert_eq!((out, s, u), ([5000, 0, 90], false, true));
    }
}
