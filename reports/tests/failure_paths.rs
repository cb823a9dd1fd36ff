//! The failure paths of `hpm` found by trying it (issue 12): broken pipes, overflowing sums, invalid
//! and half-written quantum traces, deep chains, and what the messages say. Every test runs the
//! built `hpm` on files written by the code under test.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use hpm_collectors::quantum::{MarkerKind, Meta, Quantum, QuantumWriter, ThreadInfo, ThreadKind};

fn hpm(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hpm")).args(args).output().expect("running hpm")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A temporary directory under the target directory (removed when dropped).
fn scratch() -> tempfile::TempDir {
    tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("temporary directory")
}

fn s(p: &Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

/// Runs hpm with its stdout on a pipe whose reader is already closed, as `hpm … | head -0` does.
fn hpm_into_closed_pipe(args: &[&str]) -> Output {
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    let child = Command::new(env!("CARGO_BIN_EXE_hpm")).args(args).stdout(writer).stderr(Stdio::piped()).spawn().expect("running hpm");
    child.wait_with_output().expect("waiting for hpm")
}

/// (thread, start, end, yielded, cycles, instructions)
type Q = (u32, u64, u64, bool, u64, u64);

/// Writes `quantum.vp<vp>.trace` with the collectors' writer, as the agent does.
fn write_vp(dir: &Path, vp: u32, quanta: &[Q]) {
    let (mut w, sink) = QuantumWriter::new(vp, 2);
    let d = dir.to_path_buf();
    let writer = std::thread::spawn(move || sink.run_to_dir(&d).unwrap());
    for &(thread, start, end, yielded, cyc, ins) in quanta {
        let q = Quantum { thread, local_tid: thread as u16, yielded, thread_switch: true, start, end, callee: 0, caller: 0 };
        assert!(w.record(&q, &[cyc, ins]));
    }
    w.finish(quanta.last().map_or(0, |q| q.2), 0);
    writer.join().unwrap();
}

fn write_meta(dir: &Path, missed: Vec<(u32, u64)>) {
    Meta {
        counters: vec!["real-time".into(), "cycles".into(), "instructions".into()],
        time_unit: "ns".into(),
        threads: vec![ThreadInfo { id: 1, kind: ThreadKind::App, name: "main".into() }, ThreadInfo { id: 2, kind: ThreadKind::App, name: "worker".into() }],
        methods: vec![],
        missed,
    }
    .write(dir)
    .unwrap();
}

/// A valid two-processor trace.
fn good_trace(dir: &Path) {
    write_vp(dir, 0, &[(1, 0, 100, false, 200, 100), (1, 100, 250, true, 300, 150)]);
    write_vp(dir, 1, &[(2, 0, 100, false, 10, 1)]);
    write_meta(dir, vec![(0, 0), (1, 0)]);
}

fn assert_no_panic(o: &Output) {
    let e = stderr(o);
    assert_ne!(o.status.code(), Some(101), "{e}");
    assert!(o.status.code().is_some(), "killed by a signal: {:?} {e}", o.status);
    assert!(!e.contains("panicked"), "{e}");
}

// ---- 11: a closed stdout ends hpm quietly ----

#[test]
fn a_closed_stdout_ends_every_subcommand_quietly() {
    let tmp = scratch();
    let trace = tmp.path().join("trace");
    std::fs::create_dir(&trace).unwrap();
    good_trace(&trace);
    let sockets = tmp.path().join("sockets");
    std::fs::create_dir(&sockets).unwrap();
    let fig2 = tmp.path().join("fig2.trace");
    std::fs::write(&fig2, include_str!("../../examples/figure2.trace")).unwrap();
    let out = tmp.path().join("out");
    let runs: [&[&str]; 7] = [
        &["trace", s(&trace)],
        &["trace", "--csv", s(&trace)],
        &["trace", "--json", s(&trace)],
        &["events", "--all"],
        &["list", "--socket-dir", s(&sockets)],
        &["report", "--trace", s(&fig2), "--out", s(&out)],
        &["--help"],
    ];
    for args in runs {
        let o = hpm_into_closed_pipe(args);
        assert_no_panic(&o);
        assert_eq!(o.status.code(), Some(0), "hpm {args:?}: {}", stderr(&o));
        assert!(o.stderr.is_empty(), "hpm {args:?} said: {}", stderr(&o));
    }
}
