//! The `out=` directory: checked at load, owned by each dump, and marked with the run it belongs to.
//!
//! A dump owns the report files in its directory: report files an earlier run left there that this
//! dump did not write (a per-thread view of a thread this run never had, `alloc.txt` from a run with
//! `collect=alloc`) are removed after the new files are in place. Only names the agent itself writes
//! are ever removed; any other file in the directory is left alone.

use std::collections::HashSet;
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use hpm_reports::Format;

/// Checks at load that reports can be written into `dir`: creates it and writes and removes a probe
/// file, so that an unusable `out=` stops the JVM at once instead of losing the run at exit.
pub fn check_writable(dir: &Path) -> Result<(), String> {
    let refuse = |e: io::Error| format!("cannot write reports to {}: {e} (option out=)", dir.display());
    std::fs::create_dir_all(dir).map_err(refuse)?;
    let probe = dir.join(format!(".hpmagent-probe-{}", std::process::id()));
    std::fs::write(&probe, b"").map_err(refuse)?;
    std::fs::remove_file(&probe).map_err(refuse)
}

/// Files the agent writes into a report directory besides the arcflow reports.
const OTHER_REPORTS: &[&str] = &[
    "arcflow-raw.json",
    "threads.txt",
    "threads.json",
    "gc.txt",
    "locks.txt",
    "waits.txt",
    "alloc.txt",
    "code.txt",
    "compensation.txt",
    "marks.txt",
    "vm-cost.txt",
    "forms.txt",
];

fn is_report_name(name: &str) -> bool {
    Format::ALL.iter().any(|f| f.file_name() == name) || OTHER_REPORTS.contains(&name)
}

/// Removes the report files in `dir` (and in its `sampled/`, `locks/`, `waits/` and per-thread `threads/NNN-name/`
/// directories) that are not among `written`; per-thread directories left empty go too.
pub fn remove_stale_reports(dir: &Path, written: &[PathBuf]) {
    let written: HashSet<&Path> = written.iter().map(PathBuf::as_path).collect();
    for d in [dir.to_path_buf(), dir.join("sampled"), dir.join("locks"), dir.join("waits")] {
        remove_stale_in(&d, &written);
        let threads = d.join("threads");
        for entry in std::fs::read_dir(&threads).into_iter().flatten().flatten() {
            // Per-thread views are named `NNN-name`.
            let name = entry.file_name();
            let per_thread = name.to_str().is_some_and(|n| n.len() > 4 && n.as_bytes()[..3].iter().all(u8::is_ascii_digit) && n.as_bytes()[3] == b'-');
            if per_thread && entry.path().is_dir() {
                remove_stale_in(&entry.path(), &written);
                let _ = std::fs::remove_dir(entry.path()); // only if empty
            }
        }
        let _ = std::fs::remove_dir(&threads); // only if empty
    }
}

fn remove_stale_in(dir: &Path, written: &HashSet<&Path>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        let known = entry.file_name().to_str().is_some_and(is_report_name);
        if known && path.is_file() && !written.contains(path.as_path()) {
            let _ = std::fs::remove_file(&path);
        }
    }
}

/// Which run a dump belongs to: this process's id, main class and start time.
pub struct RunIdentity {
    pub pid: u32,
    pub main: String,
    pub started: Option<SystemTime>,
}

impl RunIdentity {
    pub fn current() -> RunIdentity {
        RunIdentity { pid: std::process::id(), main: crate::control::main_class(), started: process_start_time() }
    }

    /// One line for the top of `threads.txt`.
    pub fn line(&self, dumped: SystemTime) -> String {
        let started = self.started.map_or_else(|| "unknown".to_string(), utc);
        let main = if self.main.is_empty() { String::new() } else { format!(" ({})", self.main) };
        format!("Run: pid {}{main}, started {started}, dumped {}", self.pid, utc(dumped))
    }

    /// The `run` object of `threads.json`.
    pub fn json(&self, dumped: SystemTime) -> serde_json::Value {
        serde_json::json!({
            "pid": self.pid,
            "main": self.main,
            "started": self.started.map(utc),
            "dumped": utc(dumped),
        })
    }
}

/// The process's start time, from `/proc/self/stat` (clock ticks after boot) and `/proc/stat`'s
/// boot time.
fn process_start_time() -> Option<SystemTime> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name (field 2) may contain spaces and parentheses: fields count from the last ')'.
    let after_name = &stat[stat.rfind(')')? + 1..];
    let start_ticks: u64 = after_name.split_whitespace().nth(19)?.parse().ok()?;
    let boot: u64 = std::fs::read_to_string("/proc/stat").ok()?.lines().find_map(|l| l.strip_prefix("btime ")?.trim().parse().ok())?;
    // /proc reports in USER_HZ, which the kernel ABI fixes at 100 per second.
    Some(UNIX_EPOCH + Duration::from_secs(boot) + Duration::from_millis(start_ticks * 10))
}

/// `2026-05-09T07:29:33Z`.
pub fn utc(t: SystemTime) -> String {
    let secs = t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, rem) = (secs / 86_400, secs % 86_400);
    // Days since 1970-01-01 to a civil date (Howard Hinnant's days_from_civil, inverted).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z", rem / 3600, rem % 3600 / 60, rem % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utc_dates() {
        assert_eq!(utc(UNIX_EPOCH), "1970-01-01T00:00:00Z");
        assert_eq!(utc(UNIX_EPOCH + Duration::from_secs(951_782_400)), "2000-02-29T00:00:00Z");
        assert_eq!(utc(UNIX_EPOCH + Duration::from_secs(1_778_311_773)), "2026-05-09T07:29:33Z");
    }

    #[test]
    fn this_process_has_a_start_time_in_the_past() {
        let t = process_start_time().unwrap();
        assert!(t <= SystemTime::now() && SystemTime::now().duration_since(t).unwrap() < Duration::from_secs(3600));
    }
}
