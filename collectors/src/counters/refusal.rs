//! Refusals: one line per event that is not counted, naming the event, the reason and the fix.

use std::fmt;
use std::io;

use super::events::{EventKind, EventParseError, EventSpec, VALID_KINDS};

/// Why an event is not counted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RefusalReason {
    /// The name does not parse (message lists the valid kinds).
    UnknownName(String),
    /// ENOENT / EOPNOTSUPP / ENODEV for an event that needs a hardware PMU.
    NoHardwarePmu { errno: i32 },
    /// ENOENT / EOPNOTSUPP / ENODEV for any other event: the kernel does not support it (per thread).
    Unsupported { errno: i32 },
    /// EACCES / EPERM: perf_event_paranoid (value given when readable) forbids it.
    Permission { errno: i32, paranoid: Option<i32> },
    /// A kernel-side software event (context-switches, cpu-migrations) when only user-mode counting
    /// is permitted: it would always read 0, so it is refused rather than reported as 0.
    KernelOnly { paranoid: Option<i32> },
    /// The PMU cannot restrict counting to user or kernel mode (msr): it opens only counting both,
    /// and user-only counting (KernelMode::Exclude, or a `:u`/`:k` modifier) was asked for.
    NoModeFilter,
    /// EINVAL for an event of a PMU that has a `cpumask` (RAPL `power`, uncore): such PMUs count
    /// per CPU, system-wide, never per thread.
    SystemWide { pmu: String },
    /// The event opens alone but not in the group (EINVAL/ENOSPC), or the group never got scheduled.
    TooManyInGroup { errno: i32 },
    /// EINVAL even when opened alone: the kernel rejects this configuration.
    Invalid { errno: i32 },
    /// Anything else.
    Other { errno: i32 },
}

/// An event that is not counted, with the reason and the fix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub event: String,
    pub reason: RefusalReason,
}

/// `/proc/sys/kernel/perf_event_paranoid`, if readable.
pub fn perf_event_paranoid() -> Option<i32> {
    std::fs::read_to_string("/proc/sys/kernel/perf_event_paranoid").ok()?.trim().parse().ok()
}

fn errno_name(e: i32) -> String {
    match e {
        libc::ENOENT => "ENOENT".into(),
        libc::EOPNOTSUPP => "EOPNOTSUPP".into(),
        libc::ENODEV => "ENODEV".into(),
        libc::EACCES => "EACCES".into(),
        libc::EPERM => "EPERM".into(),
        libc::EINVAL => "EINVAL".into(),
        libc::ENOSPC => "ENOSPC".into(),
        libc::EBUSY => "EBUSY".into(),
        libc::EMFILE => "EMFILE".into(),
        libc::E2BIG => "E2BIG".into(),
        0 => "no errno".into(),
        other => format!("errno {other}"),
    }
}

fn paranoid_text(p: Option<i32>) -> String {
    match p {
        Some(v) => format!("/proc/sys/kernel/perf_event_paranoid is {v}"),
        None => "/proc/sys/kernel/perf_event_paranoid is unreadable".into(),
    }
}

impl Refusal {
    pub fn unknown(e: &EventParseError) -> Refusal {
        Refusal { event: e.name.clone(), reason: RefusalReason::UnknownName(e.reason.clone()) }
    }

    /// Classifies a perf_event_open error for `ev` (without the "opens alone" retry, see group.rs).
    pub fn from_open_error(ev: &EventSpec, err: &io::Error) -> Refusal {
        let errno = err.raw_os_error().unwrap_or(0);
        let reason = match errno {
            libc::ENOENT | libc::EOPNOTSUPP | libc::ENODEV if ev.kind.needs_hardware_pmu() => {
                RefusalReason::NoHardwarePmu { errno }
            }
            libc::ENOENT | libc::EOPNOTSUPP | libc::ENODEV => RefusalReason::Unsupported { errno },
            libc::EACCES | libc::EPERM => RefusalReason::Permission { errno, paranoid: perf_event_paranoid() },
            libc::ENOSPC => RefusalReason::TooManyInGroup { errno },
            libc::EINVAL if ev.kind == EventKind::Pmu && system_wide_pmu(&ev.name).is_some() => {
                RefusalReason::SystemWide { pmu: system_wide_pmu(&ev.name).unwrap_or_default() }
            }
            libc::EINVAL => RefusalReason::Invalid { errno },
            _ => RefusalReason::Other { errno },
        };
        Refusal { event: ev.name.clone(), reason }
    }

    /// The errno behind the refusal, if any.
    pub fn errno(&self) -> Option<i32> {
        match &self.reason {
            RefusalReason::UnknownName(_)
            | RefusalReason::KernelOnly { .. }
            | RefusalReason::NoModeFilter
            | RefusalReason::SystemWide { .. } => None,
            RefusalReason::NoHardwarePmu { errno }
            | RefusalReason::Unsupported { errno }
            | RefusalReason::Permission { errno, .. }
            | RefusalReason::TooManyInGroup { errno }
            | RefusalReason::Invalid { errno }
            | RefusalReason::Other { errno } => Some(*errno),
        }
    }
}

impl fmt::Display for Refusal {
    /// One line: event, reason, fix.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ev = &self.event;
        match &self.reason {
            RefusalReason::UnknownName(why) => {
                write!(f, "unknown event `{ev}` ({why}): event not counted; {VALID_KINDS}")
            }
            RefusalReason::NoHardwarePmu { errno } => write!(
                f,
                "no hardware PMU for `{ev}` on this machine (virtual machine?): event not counted ({}); \
                 run on bare metal or a VM with a virtual PMU, or use software events such as task-clock",
                errno_name(*errno)
            ),
            RefusalReason::Unsupported { errno } => write!(
                f,
                "the kernel cannot count `{ev}` for a thread here ({}): event not counted; \
                 check `hpm events` for what this machine opens",
                errno_name(*errno)
            ),
            RefusalReason::Permission { errno, paranoid } => write!(
                f,
                "not permitted to count `{ev}` ({}; {}): event not counted; \
                 fix: `sysctl kernel.perf_event_paranoid=1` (or lower), or give the process CAP_PERFMON \
                 (in a container, its seccomp profile may also block perf_event_open)",
                errno_name(*errno),
                paranoid_text(*paranoid)
            ),
            RefusalReason::KernelOnly { paranoid } => write!(
                f,
                "`{ev}` counts only with kernel events included (user-mode-only counting would read 0 or is \
                 rejected), and only user-mode counting is permitted ({}): event not counted; \
                 fix: `sysctl kernel.perf_event_paranoid=1` (or lower), or give the process CAP_PERFMON",
                paranoid_text(*paranoid)
            ),
            RefusalReason::NoModeFilter => write!(
                f,
                "`{ev}` cannot be restricted to user or kernel mode (its PMU counts both), and a \
                 single mode was asked for: event not counted; count it with kernel included \
                 (the default where perf_event_paranoid or CAP_PERFMON permit) and without a :u/:k modifier"
            ),
            RefusalReason::SystemWide { pmu } => write!(
                f,
                "`{ev}` belongs to the system-wide PMU `{pmu}` (it counts per CPU, not per thread): \
                 event not counted; measure it with `perf stat -a` instead"
            ),
            RefusalReason::TooManyInGroup { errno } => write!(
                f,
                "too many hardware events in one group: drop some (`{ev}` not counted, {})",
                errno_name(*errno)
            ),
            RefusalReason::Invalid { errno } => write!(
                f,
                "the kernel rejects the configuration of `{ev}` ({}): event not counted; \
                 check the event's terms against /sys/bus/event_source/devices/<pmu>/format",
                errno_name(*errno)
            ),
            RefusalReason::Other { errno } => {
                write!(f, "cannot open `{ev}` ({}): event not counted", errno_name(*errno))
            }
        }
    }
}

/// The PMU of a `pmu/…/` event name if that PMU is system-wide (has a `cpumask` file).
fn system_wide_pmu(name: &str) -> Option<String> {
    let pmu = name.split('/').next()?;
    std::path::Path::new(super::events::SYSFS_PMU_ROOT)
        .join(pmu)
        .join("cpumask")
        .exists()
        .then(|| pmu.to_string())
}

/// Whether a refusal is the expected result of a hardware event on a machine without a PMU.
pub fn is_no_pmu(r: &Refusal) -> bool {
    matches!(r.reason, RefusalReason::NoHardwarePmu { .. })
}

#[allow(dead_code)]
pub(crate) fn kind_label(k: EventKind) -> &'static str {
    match k {
        EventKind::Hardware => "hardware",
        EventKind::HwCache => "hardware cache",
        EventKind::Software => "software",
        EventKind::Raw => "raw",
        EventKind::Pmu => "sysfs PMU",
    }
}

#[cfg(test)]
mod tests {
    use super::super::events::parse_event;
    use super::*;

    #[test]
    fn messages_name_event_reason_and_fix() {
        let cycles = parse_event("cycles").unwrap();
        let r = Refusal::from_open_error(&cycles, &io::Error::from_raw_os_error(libc::ENOENT));
        let s = r.to_string();
        assert!(s.starts_with("no hardware PMU for `cycles` on this machine (virtual machine?): event not counted"), "{s}");
        let r = Refusal::from_open_error(&cycles, &io::Error::from_raw_os_error(libc::EACCES));
        let s = r.to_string();
        assert!(s.contains("perf_event_paranoid") && s.contains("sysctl kernel.perf_event_paranoid=1") && s.contains("CAP_PERFMON"), "{s}");
        let r = Refusal { event: "cycles".into(), reason: RefusalReason::TooManyInGroup { errno: libc::EINVAL } };
        assert!(r.to_string().starts_with("too many hardware events in one group: drop some"));
        let e = parse_event("nope").unwrap_err();
        let s = Refusal::unknown(&e).to_string();
        assert!(s.contains("`nope`") && s.contains("valid kinds"), "{s}");
        let cs = parse_event("context-switches").unwrap();
        let r = Refusal { event: cs.name, reason: RefusalReason::KernelOnly { paranoid: Some(2) } };
        let s = r.to_string();
        assert!(s.contains("kernel events included") && s.contains("perf_event_paranoid is 2"), "{s}");
        let tp = parse_event("task-clock").unwrap();
        let r = Refusal::from_open_error(&tp, &io::Error::from_raw_os_error(libc::EOPNOTSUPP));
        assert!(matches!(r.reason, RefusalReason::Unsupported { .. }));
    }
}
