//! The `out=` directory on real JVMs: an unusable one stops the JVM at start with one line, and a
//! reused one holds only the last run's reports, which say which run they belong to.

mod common;
use common::*;

use std::path::{Path, PathBuf};

/// Runs `calls.<class>` with `out=DIR` as given (not a fresh directory) and returns (pid, output).
fn run_into(jdk: &java_tests::Jdk, out: &Path, class: &str, options: &str) -> (u32, std::process::Output) {
    let child = command(jdk, class, &format!("out={},perf-map=off,socket=off{options}", out.display()), &[], &[])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    (pid, child.wait_with_output().unwrap())
}

fn per_thread_dirs(out: &Path) -> Vec<String> {
    let mut v: Vec<String> =
        std::fs::read_dir(out.join("threads")).unwrap().flatten().filter(|e| e.path().is_dir()).map(|e| e.file_name().into_string().unwrap()).collect();
    v.sort();
    v
}

#[test]
fn a_reused_out_dir_holds_only_the_last_run() {
    for jdk in jdks() {
        let out = out_dir("reused", &jdk);
        let (_, first) = run_into(&jdk, &out, "Threads", ",collect=all");
        assert!(first.status.success(), "{}", String::from_utf8_lossy(&first.stderr));
        assert!(out.join("alloc.txt").exists());
        assert!(per_thread_dirs(&out).iter().any(|d| d.ends_with("-worker-3")));
        // Files of the user's own are never touched.
        std::fs::write(out.join("notes.txt"), "mine").unwrap();
        std::fs::write(out.join("threads/notes.txt"), "mine too").unwrap();

        let (pid, second) = run_into(&jdk, &out, "Straight", "");
        assert!(second.status.success(), "{}", String::from_utf8_lossy(&second.stderr));
        assert!(!out.join("alloc.txt").exists(), "alloc.txt of the first run is left");
        let threads_txt = std::fs::read_to_string(out.join("threads.txt")).unwrap();
        let rows = thread_rows(&threads_txt);
        let dirs = per_thread_dirs(&out);
        // One per thread of this run that made a call (threads with none, as HotSpot's
        // Common-Cleaner here, get none).
        let calling = rows.iter().filter(|r| r.calls > 0).count();
        assert!(calling >= 1 && calling < rows.len(), "{threads_txt}");
        assert_eq!(dirs.len(), calling, "per-thread views of this run only: {dirs:?}, threads {:?}", rows.iter().map(|r| (&r.name, r.calls)).collect::<Vec<_>>());
        assert!(!dirs.iter().any(|d| d.contains("worker")), "{dirs:?}");
        assert_eq!(std::fs::read_to_string(out.join("notes.txt")).unwrap(), "mine");
        assert_eq!(std::fs::read_to_string(out.join("threads/notes.txt")).unwrap(), "mine too");
        // The reports name their run.
        let first_line = threads_txt.lines().next().unwrap();
        assert!(first_line.starts_with(&format!("Run: pid {pid} (calls.Straight), started 20")), "{first_line}");
        let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(out.join("threads.json")).unwrap()).unwrap();
        assert_eq!(json["run"]["pid"], pid);
        assert_eq!(json["run"]["main"], "calls.Straight");
        std::fs::remove_dir_all(&out).unwrap();
    }
}

#[test]
fn an_unusable_out_dir_stops_the_jvm_at_start() {
    let jdk = java_tests::jdk().unwrap();
    let base = out_dir("unusable", &jdk);
    std::fs::create_dir_all(&base).unwrap();
    let file = base.join("a-file");
    std::fs::write(&file, "not a directory").unwrap();
    for out in [file.clone(), file.join("below"), Path::new("/proc/hpm-cannot-be-created").to_path_buf()] {
        let (_, o) = run_into(&jdk, &out, "Straight", "");
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{}: {stderr}", out.display());
        let line = format!("hpmagent: error: cannot write reports to {}: ", out.display());
        assert!(stderr.lines().any(|l| l.starts_with(&line) && l.ends_with("(option out=)")), "{stderr}");
        // The JVM prints its own "agent library failed to init" to stdout; the program never ran.
        assert!(!String::from_utf8_lossy(&o.stdout).contains("straight"), "the program must not run");
        assert!(!stderr.contains("reports written"), "{stderr}");
    }
    std::fs::remove_dir_all(&base).unwrap();
}

/// A JVM killed while writing its reports at exit leaves their temporary files
/// (`.xtree.txt.<pid>.0.tmp`): the next run into the directory removes those of processes no
/// longer running, and leaves a running process's and files of the user's own.
#[test]
fn a_killed_runs_temporary_reports_are_removed_by_the_next_run() {
    let jdk = java_tests::jdk().unwrap();
    let out = out_dir("stale-temp", &jdk);
    std::fs::create_dir_all(out.join("threads/000-main")).unwrap();
    let mut gone = std::process::Command::new("true").spawn().unwrap();
    gone.wait().unwrap();
    let dead = gone.id();
    assert!(!Path::new(&format!("/proc/{dead}")).exists());
    let stale = [format!(".xtree.txt.{dead}.0.tmp"), format!(".arcflow.json.{dead}.3.tmp"), format!("threads/000-main/.xprof.txt.{dead}.0.tmp")];
    // pid 1 runs; notes.txt is not a report.
    let kept = [".xtree.txt.1.0.tmp".to_string(), format!(".notes.txt.{dead}.0.tmp")];
    for name in stale.iter().chain(&kept) {
        std::fs::write(out.join(name), "half a report").unwrap();
    }
    let (_, o) = run_into(&jdk, &out, "Straight", "");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for name in &stale {
        assert!(!out.join(name).exists(), "{name} is left");
    }
    for name in &kept {
        assert!(out.join(name).exists(), "{name} was removed");
    }
    std::fs::remove_dir_all(&out).unwrap();
}

/// A tmpfs of `kib` KiB mounted on a fresh directory, unmounted when dropped; `None`, with a
/// message, where this process may not mount one (not root: CI runs the tests as root).
struct Tmpfs(PathBuf);

impl Tmpfs {
    fn mount(name: &str, kib: u64) -> Option<Tmpfs> {
        let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
        let euid = status.lines().find_map(|l| l.strip_prefix("Uid:")).and_then(|l| l.split_whitespace().nth(1).map(str::to_owned));
        if euid.as_deref() != Some("0") {
            eprintln!("skipped: mounting a small tmpfs needs root (CI runs the tests as root)");
            return None;
        }
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("agent-it").join(name);
        let _ = std::process::Command::new("umount").arg(&dir).stderr(std::process::Stdio::null()).status();
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let mounted = std::process::Command::new("mount").args(["-t", "tmpfs", "-o", &format!("size={kib}k"), "tmpfs"]).arg(&dir).status();
        if !mounted.is_ok_and(|s| s.success()) {
            eprintln!("skipped: root cannot mount a tmpfs here (no CAP_SYS_ADMIN?)");
            return None;
        }
        Some(Tmpfs(dir))
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount").arg(&self.0).status();
        let _ = std::fs::remove_dir(&self.0);
    }
}

#[test]
fn a_nearly_full_out_dir_is_said_at_load_and_a_full_one_keeps_arcflow_json() {
    let jdk = java_tests::jdk().unwrap();
    // The size of the run's arcflow.json, in tmpfs pages.
    let roomy = out_dir("roomy", &jdk);
    let (_, o) = run_into(&jdk, &roomy, "Straight", "");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let json_kib = std::fs::metadata(roomy.join("arcflow.json")).unwrap().len().div_ceil(4096) * 4;
    std::fs::remove_dir_all(&roomy).unwrap();
    // Room for arcflow.json and two pages more: the other reports do not fit.
    let free_kib = json_kib + 8;
    let Some(disk) = Tmpfs::mount("full", free_kib) else { return };
    let out = disk.0.join("out");
    let (_, o) = run_into(&jdk, &out, "Straight", "");
    let stderr = String::from_utf8_lossy(&o.stderr);
    let at_load = format!("hpmagent: warning: only {free_kib} KiB free in {} (under 64 MiB): ", out.display());
    assert!(stderr.lines().any(|l| l.starts_with(&at_load)), "no `{at_load}…`: {stderr}");
    assert!(String::from_utf8_lossy(&o.stdout).contains("straight"), "the program runs on");
    // At exit: arcflow.json is there and whole, and the one error line says so.
    let saved = hpm_reports::saved::load(&out).unwrap_or_else(|e| panic!("{e}: {stderr}"));
    assert!(matches!(saved, hpm_model::saved::Saved::Run(_)));
    let errors: Vec<&str> = stderr.lines().filter(|l| l.starts_with("hpmagent: error: ")).collect();
    assert_eq!(errors.len(), 1, "{stderr}");
    let e = errors[0];
    assert!(e.starts_with(&format!("hpmagent: error: cannot write reports to {}: ", out.display())), "{e}");
    assert!(e.contains("No space left on device") && e.contains("; written: arcflow.json"), "{e}");
    assert!(e.ends_with(&format!("; `hpm report {0} --out {0}` writes the rest from arcflow.json", out.display())), "{e}");
    assert!(!stderr.contains("reports written"), "{stderr}");
}
