//! The `out=` directory on real JVMs: an unusable one stops the JVM at start with one line, and a
//! reused one holds only the last run's reports, which say which run they belong to.

mod common;
use common::*;

use std::path::Path;

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
