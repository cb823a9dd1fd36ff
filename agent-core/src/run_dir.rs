//! The `out=` directory: checked at load, owned by each dump, and marked with the run it belongs to
//! (rendered by `hpm_model::saved::run`).
//!
//! A dump owns the report files in its directory: report files an earlier run left there that this
//! dump did not write (a per-thread view of a thread this run never had, `alloc.txt` from a run with
//! `collect=alloc`) are removed after the new files are in place. Only names the agent itself writes
//! are ever removed; any other file in the directory is left alone.

use std::collections::HashSet;
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use hpm_model::saved::run::{unix_ms, RunIdentity};
use hpm_reports::Format;
use hpm_support::{files, log};

/// Readies `dir` at load: checks that reports can be written into it ([`check_writable`]) and
/// removes the quantum trace an earlier run left there
/// ([`hpm_collectors::quantum::remove_old_trace`]), which this run's reports and explorer page
/// would otherwise be read with.
pub fn prepare(dir: &Path) -> Result<(), String> {
    check_writable(dir)?;
    hpm_collectors::quantum::remove_old_trace(dir);
    Ok(())
}

/// Checks at load that reports can be written into `dir`: creates it, checks that no other user
/// can change what is written there (the agent may run as root in a shared directory), and writes
/// and removes a probe file (`.hpmagent-probe.<pid>.<n>.tmp`, created new under a name nothing
/// else has), so that an unusable `out=` stops the JVM at once instead of losing the run at exit.
/// An empty file fits on a full filesystem too: one warning line says when less than
/// [`FREE_SPACE_MARGIN`] is free there, and the run goes on.
fn check_writable(dir: &Path) -> Result<(), String> {
    let refuse = |e: io::Error| format!("cannot write reports to {}: {e} (option out=)", dir.display());
    files::ensure_dir(dir).map_err(refuse)?;
    let (probe, _) = files::create_temp(&dir.join("hpmagent-probe")).map_err(refuse)?;
    files::remove(&probe).map_err(refuse)?;
    if let Some(free) = free_bytes(dir).filter(|&b| b < FREE_SPACE_MARGIN) {
        log::warn(&low_space(dir, free));
    }
    Ok(())
}

/// Below this much free space in `out=` at load, a warning says the reports may not fit at exit
/// (a run of a few thousand contexts writes a few MiB; a large one, tens).
pub const FREE_SPACE_MARGIN: u64 = 64 << 20;

/// The warning of [`check_writable`] for `free` bytes free in `dir`.
fn low_space(dir: &Path, free: u64) -> String {
    let free = if free < 1 << 20 { format!("{} KiB", free >> 10) } else { format!("{} MiB", free >> 20) };
    format!(
        "only {free} free in {} (under {} MiB): the reports may not fit at exit; arcflow.json is written first, and `hpm report` writes the rest from it; free some space or choose another out=",
        dir.display(),
        FREE_SPACE_MARGIN >> 20
    )
}

/// The bytes an unprivileged user may still write in the filesystem of `dir`, or `None` when it
/// cannot be asked.
fn free_bytes(dir: &Path) -> Option<u64> {
    hpm_support::files::free_bytes(dir)
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
    "phases.txt",
    "probes.txt",
    "vm-cost.txt",
    "forms.txt",
    "jit.txt",
    "states.txt",
    "explore.html",
];

fn is_report_name(name: &str) -> bool {
    Format::ALL.iter().any(|f| f.file_name() == name) || OTHER_REPORTS.contains(&name)
}

/// Removes the report files in `dir` (and in its `sampled/`, `sampled-alloc/`, `sampled-states/`, `locks/`, `waits/` and per-thread `threads/NNN-name/`
/// directories) that are not among `written`, and the temporary files of reports that a run
/// killed while writing left (`.xtree.txt.<pid>.<n>.tmp` of a process no longer running);
/// per-thread directories left empty go too. Nothing is followed: a link under a report's name is
/// removed itself, and a directory that is a link or that another user could change
/// ([`files::check_dir`]) is left, with a warning.
pub fn remove_stale_reports(dir: &Path, written: &[PathBuf]) {
    let written: HashSet<&Path> = written.iter().map(PathBuf::as_path).collect();
    for d in [dir.to_path_buf(), dir.join("sampled"), dir.join("sampled-alloc"), dir.join("sampled-states"), dir.join("locks"), dir.join("waits")] {
        if !walkable(&d) {
            continue;
        }
        remove_stale_in(&d, &written);
        let threads = d.join("threads");
        if !walkable(&threads) {
            continue;
        }
        for entry in std::fs::read_dir(&threads).into_iter().flatten().flatten() {
            // Per-thread views are named `NNN-name`.
            let name = entry.file_name();
            let per_thread = name.to_str().is_some_and(|n| n.len() > 4 && n.as_bytes()[..3].iter().all(u8::is_ascii_digit) && n.as_bytes()[3] == b'-');
            // file_type does not follow a link: a link is checked by walkable.
            if per_thread && entry.file_type().is_ok_and(|t| t.is_dir() || t.is_symlink()) && walkable(&entry.path()) {
                remove_stale_in(&entry.path(), &written);
                let _ = std::fs::remove_dir(entry.path()); // only if empty (and never a link)
            }
        }
        let _ = std::fs::remove_dir(&threads); // only if empty
    }
}

/// Whether stale reports may be removed from `dir`: it exists and passes [`files::check_dir`];
/// otherwise (not a missing one) a warning says why its files are left.
fn walkable(dir: &Path) -> bool {
    match files::check_dir(dir) {
        Ok(()) => true,
        Err(e) if e.kind() == io::ErrorKind::NotFound => false,
        Err(e) => {
            log::warn(&format!("stale reports in {} are left: {e}", dir.display()));
            false
        }
    }
}

fn remove_stale_in(dir: &Path, written: &HashSet<&Path>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        let (Some(name), Ok(kind)) = (entry.file_name().to_str().map(str::to_owned), entry.file_type()) else { continue };
        let old_report = is_report_name(&name) && !written.contains(path.as_path());
        let old_temp = files::parse_temp(&name).is_some_and(|(report, _)| is_report_name(report)) && files::is_stale_temp(&name);
        if !kind.is_dir() && (old_report || old_temp) {
            let _ = files::remove(&path);
        }
    }
}

/// Which run a dump taken at `dumped` belongs to: this process's id, main class and start time.
pub fn run_identity(dumped: SystemTime) -> RunIdentity {
    RunIdentity { pid: std::process::id(), main: crate::control::main_class(), started_unix_ms: process_start_time().map(unix_ms), dumped_unix_ms: unix_ms(dumped) }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn free_space_is_that_of_the_directory() {
        let free = free_bytes(Path::new(env!("CARGO_MANIFEST_DIR"))).unwrap();
        assert!(free > 0);
        assert_eq!(free_bytes(Path::new("/nonexistent-hpm-dir")), None);
        assert!(low_space(Path::new("/o"), 300 << 10).starts_with("only 300 KiB free in /o (under 64 MiB): "));
    }

    #[test]
    fn this_process_has_a_start_time_in_the_past() {
        let t = process_start_time().unwrap();
        assert!(t <= SystemTime::now() && SystemTime::now().duration_since(t).unwrap() < Duration::from_secs(3600));
    }
}
