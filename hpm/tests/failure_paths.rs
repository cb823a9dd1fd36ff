//! The failure paths of `hpm` found by trying it: broken pipes, overflowing sums, invalid
//! and half-written quantum traces, deep chains, and what the messages say. Every test runs the
//! built `hpm` on files written by the code under test.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use common::{hpm, stderr, stdout, Q};
use hpm_collectors::quantum::files::{MetaFile, RunToDir};
use hpm_model::quantum::{MarkerKind, Meta, Quantum, QuantumWriter, ThreadInfo, ThreadKind};

/// Writes `quantum.vp<vp>.trace` with the collectors' writer, as the agent does; it exits at the
/// end of the last quantum.
fn write_vp(dir: &Path, vp: u32, quanta: &[Q]) {
    common::write_vp(dir, vp, quanta, None, quanta.last().map_or(0, |q| q.2));
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

fn write_meta(dir: &Path, missed: Vec<(u32, u64)>) {
    Meta {
        counters: vec!["real-time".into(), "cycles".into(), "instructions".into()],
        time_unit: "ns".into(),
        processor_kind: String::new(),
        processors: Vec::new(),
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

// ---- 7: invalid trace files are reported, never called valid ----

/// A quantum record's bytes with 2 deltas (the layout of docs/quantum-trace.md).
fn quantum_bytes(vp: u32, thread: u32, start: u64, end: u64) -> Vec<u8> {
    let mut b = hpm_model::quantum::encode(thread as u16, 0, true, vp, 1).to_le_bytes().to_vec();
    b.extend_from_slice(&(thread as i32).to_le_bytes());
    b.extend_from_slice(&start.to_le_bytes());
    b.extend_from_slice(&end.to_le_bytes());
    b.extend_from_slice(&[0; 8]);
    b.extend_from_slice(&1u64.to_le_bytes());
    b.extend_from_slice(&2u64.to_le_bytes());
    b
}

fn assert_invalid(dir: &Path, needle: &str) {
    let o = hpm(&["trace", s(dir)]);
    assert_no_panic(&o);
    assert_eq!(o.status.code(), Some(1), "{}\n{}", stdout(&o), stderr(&o));
    let e = stderr(&o);
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(stdout(&o).starts_with("Validation: INVALID") || e.contains(needle), "{}", stdout(&o));
    assert!(stdout(&o).contains(needle) || e.contains(needle), "`{needle}` not said:\n{}\n{e}", stdout(&o));
}

#[test]
fn a_header_with_another_record_format_is_an_error() {
    let tmp = scratch();
    good_trace(tmp.path());
    let f = tmp.path().join("quantum.vp0.trace");
    let mut bytes = std::fs::read(&f).unwrap();
    bytes[20] = 2;
    std::fs::write(&f, &bytes).unwrap();
    assert_invalid(tmp.path(), "record format 2 at byte 20");
}

#[test]
fn records_after_the_exit_record_are_an_error() {
    let tmp = scratch();
    good_trace(tmp.path());
    let f = tmp.path().join("quantum.vp1.trace");
    let mut bytes = std::fs::read(&f).unwrap();
    let exit_end = bytes.len() as u64;
    for i in 0..100_000u64 {
        bytes.extend(quantum_bytes(1, 2, 1000 + 10 * i, 1005 + 10 * i));
    }
    std::fs::write(&f, &bytes).unwrap();
    assert_invalid(tmp.path(), &format!("quantum.vp1.trace at byte {exit_end}: 4800000 byte(s) after the exit record"));
}

#[test]
fn trace_files_whose_name_is_not_a_processor_number_are_errors() {
    for name in ["quantum.vp99999999999999999999.trace", "quantum.vp01.trace", "quantum.vp-1.trace", "quantum.vp.trace"] {
        let tmp = scratch();
        good_trace(tmp.path());
        std::fs::copy(tmp.path().join("quantum.vp1.trace"), tmp.path().join(name)).unwrap();
        assert_invalid(tmp.path(), &format!("{name}: the file name does not give a processor number"));
    }
}

// ---- 2: a run killed with SIGKILL leaves temporary files; hpm trace recovers their complete buffers ----

/// Writes what a processor's trace looks like after SIGKILL: `.quantum.vp<vp>.trace.<pid>.tmp`
/// holding the `full` buffers the trace writer wrote, then the first `cut` bytes of the next
/// buffer (a write cut short), no exit record. Returns the records in the complete buffers.
fn killed_vp(dir: &Path, vp: u32, pid: u32, full: u64, cut: usize) -> u64 {
    let mut file = std::fs::File::create(dir.join(format!(".quantum.vp{vp}.trace.{pid}.tmp"))).unwrap();
    let (mut w, mut sink) = QuantumWriter::new(vp, 2);
    let mut next_buffer = Vec::new();
    for t in (0u64..).step_by(10) {
        let q = Quantum { thread: 1 + vp, local_tid: 1, yielded: false, thread_switch: true, start: t, end: t + 10, callee: 0, caller: 0 };
        assert!(w.record(&q, &[5, 7]));
        if w.handoffs() > full {
            sink.write_pending(&mut next_buffer).unwrap();
            break;
        }
        sink.write_pending(&mut file).unwrap();
    }
    std::io::Write::write_all(&mut file, &next_buffer[..cut]).unwrap();
    if full == 0 { 0 } else { IN_FIRST_BUFFER + (full - 1) * IN_OTHER_BUFFERS }
}

/// Buffer 0 holds the 32-byte header and then records of 48 bytes (2 counters), the others records only.
const IN_FIRST_BUFFER: u64 = ((hpm_model::quantum::BUFFER_LEN - 32) / 48) as u64;
const IN_OTHER_BUFFERS: u64 = (hpm_model::quantum::BUFFER_LEN / 48) as u64;

#[test]
fn temporary_files_of_a_killed_run_are_recovered_and_what_is_missing_is_said() {
    let tmp = scratch();
    let records = killed_vp(tmp.path(), 0, 4242, 3, 100) + killed_vp(tmp.path(), 1, 4242, 1, 0);
    let o = hpm(&["trace", s(tmp.path())]);
    assert_no_panic(&o);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}\n{}", stderr(&o));
    assert!(out.starts_with("Validation: valid (0 error(s), "), "{out}");
    assert!(out.contains(&format!("; {records} records on 2 processor(s)")), "{out}");
    assert!(out.contains("warning: quantum.meta: missing (the run did not finish): counters are named by position, threads by id, and missed records are not known"), "{out}");
    let vp0 = IN_FIRST_BUFFER + 2 * IN_OTHER_BUFFERS;
    let cut_at = 32 + 48 * vp0;
    assert!(
        out.contains(&format!("warning: .quantum.vp0.trace.4242.tmp: recovered from the temporary file of a run that did not finish: 3 complete buffer(s), {vp0} record(s); the buffer cut off at byte {cut_at} (100 bytes) is dropped")),
        "{out}"
    );
    assert!(out.contains(&format!("warning: .quantum.vp1.trace.4242.tmp: recovered from the temporary file of a run that did not finish: 1 complete buffer(s), {IN_FIRST_BUFFER} record(s)")), "{out}");
    assert!(out.contains(&format!("warning: .quantum.vp0.trace.4242.tmp at byte {cut_at}: no exit record")), "{out}");
    // The counters are named by position; the records' deltas are all there.
    let o = hpm(&["trace", "--json", s(tmp.path())]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["counters"], serde_json::json!(["real-time", "counter-1", "counter-2"]));
    assert_eq!(v["processors"][0]["totals"], serde_json::json!([10 * vp0, 5 * vp0, 7 * vp0]));
}

// ---- 6: sums past 2^64 − 1 are said, never printed wrapped or saturated ----

const MAX: u64 = u64::MAX;

#[test]
fn trace_sums_past_u64_are_said_and_not_printed() {
    let tmp = scratch();
    let half = 1u64 << 63;
    write_vp(tmp.path(), 0, &[(1, 0, 100, false, half, 1), (1, 100, 200, false, half, 1), (2, 200, 300, false, 5, 1)]);
    write_vp(tmp.path(), 1, &[(2, 0, 100, false, 10, 1)]);
    write_meta(tmp.path(), vec![(0, MAX), (1, MAX - 1)]);
    for mode in ["--text", "--csv", "--json"] {
        let args: Vec<&str> = if mode == "--text" { vec!["trace", s(tmp.path())] } else { vec!["trace", mode, s(tmp.path())] };
        let o = hpm(&args);
        assert_no_panic(&o);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let (out, err) = (stdout(&o), stderr(&o));
        // The wrapped sum of the missed records is not printed (each processor's own count is real).
        for wrong in ["18446744073709551613", "18,446,744,073,709,551,613"] {
            assert!(!out.contains(wrong), "{mode}: {wrong} printed:\n{out}");
        }
        assert!(err.contains("hpm: warning: records missed on all processors: the sum overflows 64 bits"), "{mode}: {err}");
        assert!(err.contains("hpm: warning: counter `cycles` of thread main: the sum overflows 64 bits"), "{mode}: {err}");
        assert!(err.contains("hpm: warning: counter `cycles` of processor 0: the sum overflows 64 bits"), "{mode}: {err}");
        if mode == "--json" {
            let v: serde_json::Value = serde_json::from_str(&out).unwrap();
            assert_eq!(v["missed"], serde_json::Value::Null);
            assert_eq!(v["threads"][0]["totals"][1], serde_json::Value::Null);
            assert_eq!(v["threads"][0]["totals"][0], 200);
        } else {
            let main = out.lines().find(|l| l.starts_with("main") || l.starts_with("thread,1,main")).expect(&out);
            assert!(main.contains("overflow"), "{mode}: {main}");
        }
    }
}

/// A text trace of two threads, each consuming `a` of the first metric and `b` of the second.
fn two_thread_trace(dir: &Path, a: u64, b: u64) -> PathBuf {
    let trace = dir.join("big.trace");
    std::fs::write(&trace, format!("0 0 pidtid A\n0 0 > f\n{a} {b} < f\n0 0 pidtid B\n0 0 > g\n{a} {b} < g\n")).unwrap();
    trace
}

#[test]
fn report_sums_past_u64_are_an_error_for_the_shown_metric_and_a_warning_for_others() {
    let tmp = scratch();
    let out = tmp.path().join("out");
    let trace = two_thread_trace(tmp.path(), MAX - 1, 3);
    let o = hpm(&["report", "--trace", s(&trace), "--out", s(&out), "--metric-name", "big", "--metric-name", "small"]);
    assert_no_panic(&o);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let e = stderr(&o);
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(e.contains("metric `big`: its values add up past 2^64 − 1 over the selected threads"), "{e}");
    assert!(!out.join("xarc.txt").exists());

    // Shown: `small`; `big` only had an xprof column, which is left out with a warning.
    let o = hpm(&["report", "--trace", s(&trace), "--out", s(&out), "--metric-name", "big", "--metric-name", "small", "--metric", "small", "--absolute"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(e.contains("hpm: warning: metric `big`: its values add up past 2^64 − 1; xprof leaves out its column"), "{e}");
    let xprof = std::fs::read_to_string(out.join("xprof.txt")).unwrap();
    assert!(!xprof.contains("big"), "{xprof}");
    let xarc = std::fs::read_to_string(out.join("xarc.txt")).unwrap();
    assert!(xarc.starts_with("Units :: small  Total :: 6\n") && xarc.contains("Self        1     3    3  [0] f\n"), "{xarc}");
    // One thread alone fits: no warning, no error.
    let o = hpm(&["report", "--trace", s(&trace), "--out", s(&out), "--metric-name", "big", "--thread", "A"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(o.stderr.is_empty(), "{}", stderr(&o));
}

// ---- 13: collapsed stacks of deep chains stream; the flame graph stays bounded ----

const DEEP: usize = 200_000;
/// Every this many levels a context has a base value (a line of collapsed.txt).
const EVERY: usize = 400;

/// arcflow.json of one thread whose calls form a chain `DEEP` levels deep.
fn deep_chain_json(dir: &Path) -> PathBuf {
    use hpm_model::arcflow::{Bindings, Metric, Profile, Tree};
    let mut p = Profile::new(Bindings::methods(vec![Metric::new("cpu-time", "ns")]));
    let names: Vec<u32> = (0..7).map(|i| p.consumers.intern(&format!("f{i}"))).collect();
    p.add_thread("main");
    let t = &mut p.threads[0].tree;
    t.add_calls(Tree::ROOT, 1);
    let mut n = Tree::ROOT;
    for d in 1..=DEEP {
        n = t.child(n, names[d % names.len()]);
        t.add_calls(n, 1);
        t.add_base(n, &[(d % EVERY == 0) as u64]);
    }
    let path = dir.join("deep.json");
    std::fs::write(&path, hpm_model::saved::v1::to_vec(&p)).unwrap();
    path
}

#[test]
fn reports_of_a_200k_deep_chain_without_a_depth_limit_fit_in_bounded_memory() {
    let tmp = scratch();
    let json = deep_chain_json(tmp.path());
    let out = tmp.path().join("out");
    // collapsed.txt is about 150 MB (500 lines, 100,000 frames each on average) and xtree.txt about
    // 50 MB (200 characters of indent a line): building xtree in memory, as it once was, needs
    // 128 to 192 MiB of data; streamed, hpm needs 32 to 48 MiB. The limit is on data (writable
    // private memory), not on address space: each rendering thread may get a malloc arena that
    // reserves 64 MiB of address space, and how many it gets depends on how the threads interleave
    // (a 256 MiB address-space limit failed on a loaded machine and passed on an idle one).
    let o = Command::new("sh")
        .args(["-c", "ulimit -d 98304 && exec \"$@\"", "sh", env!("CARGO_BIN_EXE_hpm"), "report", s(&json), "--out", s(&out), "--max-stack-depth", "0"])
        .output()
        .unwrap();
    assert_no_panic(&o);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let folded = std::fs::File::open(out.join("collapsed.txt")).unwrap();
    let mut lines = 0;
    let mut deepest = 0;
    for l in std::io::BufRead::lines(std::io::BufReader::new(folded)) {
        let l = l.unwrap();
        lines += 1;
        deepest = deepest.max(l.split(';').count());
        assert!(l.ends_with(" 1"), "{}", &l[l.len() - 20..]);
    }
    assert_eq!(lines, DEEP / EVERY);
    assert_eq!(deepest, DEEP + 1, "the thread and every level");
    let svg = std::fs::read_to_string(out.join("flame.svg")).unwrap();
    assert!(svg.contains("(deeper)"), "the flame graph folds what it cannot draw");
}

// ---- 15: say what is wrong in words ----

fn fig2(dir: &Path) -> PathBuf {
    let f = dir.join("fig2.trace");
    std::fs::write(&f, include_str!("../../examples/figure2.trace")).unwrap();
    f
}

fn assert_one_line(o: &Output, code: i32) -> String {
    assert_no_panic(o);
    assert_eq!(o.status.code(), Some(code), "{}", stderr(o));
    let e = stderr(o);
    assert_eq!(e.lines().count(), 1, "not one line: {e}");
    e
}

#[test]
fn an_unknown_thread_is_said_to_be_unknown_with_the_threads_there_are() {
    let tmp = scratch();
    let trace = fig2(tmp.path());
    let out = tmp.path().join("out");
    let o = hpm(&["report", "--trace", s(&trace), "--out", s(&out), "--thread", "nosuch"]);
    let e = assert_one_line(&o, 1);
    assert!(e.starts_with("hpm: error: no thread named `nosuch`; the profile's threads are: AC_test_pidtid"), "{e}");
    assert!(!e.contains("cannot write"), "{e}");
    let o = hpm(&["report", "--trace", s(&trace), "--out", s(&out), "--thread", "AC_tset"]);
    let e = assert_one_line(&o, 1);
    assert!(e.contains("no thread named `AC_tset` (did you mean `AC_test`?)"), "{e}");
}

#[test]
fn hpm_run_without_the_separator_shows_where_it_goes() {
    let o = hpm(&["run", "java", "-version"]);
    let e = assert_one_line(&o, 2);
    assert!(e.contains("`hpm run -- java -version`"), "{e}");
    assert!(!e.contains("'-- -v'"), "{e}");
    let o = hpm(&["run", "out=prof", "event=task-clock", "java", "-cp", "app.jar", "Main"]);
    let e = assert_one_line(&o, 2);
    assert!(e.contains("`hpm run out=prof event=task-clock -- java -cp app.jar Main`"), "{e}");
}

#[test]
fn a_huge_bad_line_is_quoted_short() {
    let tmp = scratch();
    let trace = tmp.path().join("huge.trace");
    let huge = "x".repeat(3 << 20);
    std::fs::write(&trace, format!("0 pidtid T\n0 > A\n1 ? {huge}\n1{huge} > B\n2 < A\n")).unwrap();
    let o = hpm(&["report", "--trace", s(&trace), "--out", s(&tmp.path().join("out"))]);
    assert_no_panic(&o);
    assert_eq!(o.status.code(), Some(0), "{}", &stderr(&o)[..1000.min(o.stderr.len())]);
    let e = stderr(&o);
    assert_eq!(e.lines().count(), 2, "{}", &e[..1000.min(e.len())]);
    assert!(e.len() < 800, "{} bytes of warnings: {}…", e.len(), &e[..800]);
    assert!(e.contains("line 3:") && e.contains("xxx…"), "{e}");
}

#[test]
fn run_numbers_are_the_signed_numbers_the_java_api_took() {
    let tmp = scratch();
    let (mut w, sink) = QuantumWriter::new(0, 2);
    let d = tmp.path().to_path_buf();
    let writer = std::thread::spawn(move || sink.run_to_dir(&d).unwrap());
    // The agent stores Trace.runStart(-1, "warmup")'s int as its 32 bits.
    assert!(w.marker(MarkerKind::RunStart, 1, 50, -1i32 as u32, "warmup"));
    let q = Quantum { thread: 1, local_tid: 1, yielded: false, thread_switch: true, start: 0, end: 100, callee: 0, caller: 0 };
    assert!(w.record(&q, &[1, 1]));
    w.finish(100, 0);
    writer.join().unwrap();
    write_meta(tmp.path(), vec![(0, 0)]);
    let o = hpm(&["trace", s(tmp.path())]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("run-start -1 \"warmup\" (vp 0) at 50:"), "{}", stdout(&o));
    assert!(!stdout(&o).contains("4294967295"), "{}", stdout(&o));
}

// ---- 16: readable output ----

/// A control-socket handler that answers every agent alike.
struct Agent {
    status: serde_json::Value,
    events: serde_json::Value,
}

impl hpm_control::Handler for Agent {
    fn handle(&self, c: hpm_control::Command) -> Result<serde_json::Value, String> {
        match c {
            hpm_control::Command::Status => Ok(self.status.clone()),
            hpm_control::Command::Events => Ok(self.events.clone()),
            other => Err(format!("{} not served here", other.name())),
        }
    }
}

fn serve(dir: &Path, pid: u32, status: serde_json::Value) -> hpm_control::Server {
    let events = serde_json::json!({
        "metrics": [{"name": "cpu-time", "unit": "ns"}, {"name": "task-clock", "unit": "ns"}],
        "refused": ["`cycles`: no hardware PMU"],
    });
    let handler = std::sync::Arc::new(Agent { status, events });
    hpm_control::Server::start(hpm_control::ServerConfig::new(hpm_control::paths::socket_path(dir, pid)), handler).unwrap()
}

#[test]
fn ctl_prints_one_line_per_object_and_list_lines_up() {
    let tmp = scratch();
    let dir = tmp.path().join("sockets");
    hpm_control::paths::prepare_socket_dir(&dir).unwrap();
    let me = std::process::id();
    let status = serde_json::json!({"state": "collecting", "threads": 12, "main": "com.acme.Main",
        "thread_list": [{"kind": "application", "name": "main"}, {"kind": "system", "name": "Signal Dispatcher"}]});
    let _a = serve(&dir, me, status);
    // pid 1 is alive on every Linux system, so `hpm list` keeps its socket.
    let _b = serve(&dir, 1, serde_json::json!({"state": "paused", "threads": 3, "main": "Short"}));

    let o = hpm(&["ctl", &me.to_string(), "status", "--socket-dir", s(&dir)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("thread_list:\n  - kind=application name=main\n  - kind=system name=\"Signal Dispatcher\"\n"), "{out}");
    let o = hpm(&["ctl", &me.to_string(), "events", "--socket-dir", s(&dir)]);
    let out = stdout(&o);
    assert!(out.contains("metrics:\n  - name=cpu-time unit=ns\n  - name=task-clock unit=ns\n"), "{out}");

    let o = hpm(&["list", "--socket-dir", s(&dir)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    // Every column starts (left-aligned) or ends (right-aligned) where its title does.
    let end_of = |l: &str, word: &str| l.find(word).map(|i| i + word.len());
    let (pid_end, state_at, threads_end, main_at) =
        (end_of(lines[0], "PID").unwrap(), lines[0].find("STATE").unwrap(), end_of(lines[0], "THREADS").unwrap(), lines[0].find("MAIN").unwrap());
    for (l, pid, state, threads, main) in [(lines[1], "1", "paused", "3", "Short"), (lines[2], &*me.to_string(), "collecting", "12", "com.acme.Main")] {
        assert_eq!(end_of(l, pid), Some(pid_end), "{out}");
        assert_eq!(l.find(state), Some(state_at), "{out}");
        assert_eq!(end_of(&l[state_at + state.len()..], threads).map(|e| e + state_at + state.len()), Some(threads_end), "{out}");
        assert_eq!(l.find(main), Some(main_at), "{out}");
    }
}

#[test]
fn events_says_each_refusal_once() {
    let o = hpm(&["events", "--all"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let rows: Vec<serde_json::Value> = serde_json::from_slice(&hpm(&["events", "--json"]).stdout).unwrap();
    let out = stdout(&o);
    // No sentence is printed twice, not even with another event's name in it.
    let mut seen = std::collections::HashSet::new();
    for line in out.lines().filter(|l| !l.trim().is_empty()) {
        let mut sentence = line.to_string();
        for r in &rows {
            sentence = sentence.replace(&format!("`{}`", r["name"].as_str().unwrap()), "`EVENT`");
        }
        assert!(seen.insert(sentence.clone()) || !sentence.contains("`EVENT`"), "said twice: {sentence}\n{out}");
    }
    // Every refused event is still named.
    for r in rows.iter().filter(|r| r["opens"] == false) {
        assert!(out.contains(r["name"].as_str().unwrap()), "{} not named:\n{out}", r["name"]);
    }
}

#[test]
fn hpm_run_passes_a_repeated_event_once_with_a_note() {
    // `echo` stands in for java: it prints the -agentpath option hpm hands over.
    let lib = env!("CARGO_BIN_EXE_hpm");
    let o = hpm(&["run", "--agent-lib", lib, "event=task-clock", "out=prof", "event=task-clock,event=page-faults,event=task-clock", "--", "echo"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), format!("-agentpath:{lib}=event=task-clock,out=prof,event=page-faults\n"));
    assert_eq!(stderr(&o), "hpm: note: event=task-clock given 3 times; counted once\n");
}

#[test]
fn misspelt_names_get_a_suggestion() {
    let tmp = scratch();
    let trace = fig2(tmp.path());
    let out = tmp.path().join("out");
    let o = hpm(&["report", "--trace", s(&trace), "--out", s(&out), "--metric-name", "cpu-time:s", "--metric", "cpu-tme"]);
    let e = assert_one_line(&o, 1);
    assert!(e.contains("unknown metric `cpu-tme` (did you mean `cpu-time`?)"), "{e}");
    let o = hpm(&["report", "--trace", s(&trace), "--out", s(&out), "--format", "xtre"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unknown format `xtre` (did you mean `xtree`?)"), "{}", stderr(&o));
    // An event name for the agent, checked before the program runs (`echo` stands in for java):
    // the agent refuses a name that does not parse and the JVM would not start, so nothing runs.
    let o = hpm(&["run", "--agent-lib", env!("CARGO_BIN_EXE_hpm"), "out=x,event=task-clok", "--", "echo"]);
    let e = assert_one_line(&o, 1);
    assert_eq!(e.trim_end(), "hpm: error: event=task-clok: not a known event name (did you mean `task-clock`?); the agent would refuse it and the JVM not start");
    assert_eq!(stdout(&o), "", "the command did not run");
    // The same for attach, before it looks for the JVM.
    let o = hpm(&["attach", "999999999", "event=cylces", "--agent-lib", env!("CARGO_BIN_EXE_hpm")]);
    let e = assert_one_line(&o, 1);
    assert!(e.contains("event=cylces: not a known event name (did you mean `cycles`?)"), "{e}");
}

#[test]
fn a_repeated_metric_gets_one_xprof_column_and_a_note() {
    let tmp = scratch();
    let trace = tmp.path().join("t.trace");
    std::fs::write(&trace, "0 0 0 1 pidtid T\n0 0 0 1 > f\n5 5 5 2 < f\n").unwrap();
    let out = tmp.path().join("out");
    let mut args = vec!["report", "--trace", s(&trace), "--out", s(&out), "--format", "xprof"];
    for name in ["task-clock:ns", "task-clock:ns", "task-clock:ns", "page-faults"] {
        args.extend(["--metric-name", name]);
    }
    let o = hpm(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stderr(&o), "hpm: note: 2 metric(s) repeat the name and unit of another (e.g. `task-clock`); xprof shows each once\n");
    let xprof = std::fs::read_to_string(out.join("xprof.txt")).unwrap();
    let header = xprof.lines().find(|l| l.contains("Calls")).unwrap();
    assert_eq!(header.matches("task-clock").count(), 0, "{header}");
    assert_eq!(header.matches("page-faults").count(), 1, "{header}");
}

/// A tmpfs of `kib` KiB mounted on a fresh directory, unmounted when dropped; `None`, with a
/// message, where this process may not mount one (not root: CI runs the tests as root).
struct Tmpfs(tempfile::TempDir);

impl Tmpfs {
    fn mount(kib: u64) -> Option<Tmpfs> {
        let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
        let euid = status.lines().find_map(|l| l.strip_prefix("Uid:")).and_then(|l| l.split_whitespace().nth(1).map(str::to_owned));
        if euid.as_deref() != Some("0") {
            eprintln!("skipped: mounting a small tmpfs needs root (CI runs the tests as root)");
            return None;
        }
        let dir = scratch();
        let mounted = Command::new("mount").args(["-t", "tmpfs", "-o", &format!("size={kib}k"), "tmpfs"]).arg(dir.path()).status();
        if !mounted.is_ok_and(|s| s.success()) {
            eprintln!("skipped: root cannot mount a tmpfs here (no CAP_SYS_ADMIN?)");
            return None;
        }
        Some(Tmpfs(dir))
    }

    fn path(&self) -> &Path {
        self.0.path()
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(self.0.path()).status();
    }
}

#[test]
fn a_full_disk_keeps_arcflow_json_which_is_written_first() {
    let tmp = scratch();
    let trace = fig2(tmp.path());
    // Room for one page: arcflow.json of Figure 2 (2 KB), nothing after it.
    let Some(disk) = Tmpfs::mount(4) else { return };
    let out = disk.path().join("out");
    let o = hpm(&["report", "--trace", s(&trace), "--out", s(&out)]);
    let err = assert_one_line(&o, 1);
    assert!(err.contains("No space left on device"), "{err}");
    let json = std::fs::read_to_string(out.join("arcflow.json")).unwrap_or_else(|e| panic!("no arcflow.json ({e}); files: {:?}", std::fs::read_dir(&out).map(|d| d.flatten().map(|e| e.file_name()).collect::<Vec<_>>())));
    // Whole, so that `hpm report` renders the rest from it elsewhere.
    assert!(json.trim_end().ends_with('}'), "{json}");
    let again = tmp.path().join("again");
    let o = hpm(&["report", s(&out.join("arcflow.json")), "--out", s(&again)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(again.join("xprof.txt").is_file());
}
