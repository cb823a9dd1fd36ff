//! How `rvm` with the agent ends when things go wrong, on the real VM binary and the real agent
//! library: stopped by SIGTERM, SIGINT or SIGHUP (everything is written, as on HotSpot, and the exit
//! status is 128 + the signal); quantum-trace files that cannot be written (said, never claimed as
//! written); command-line arguments that are not UTF-8 (no panic).

mod common;

use std::ffi::OsString;
use std::io::{BufRead, BufReader, Read};
use std::os::unix::ffi::OsStringExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use common::*;
use hpm_model::quantum::{read_dir, Entry};

/// A fresh (absent) directory for test `name` under the target directory.
fn test_dir(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("rvm-exit").join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(d.parent().unwrap()).unwrap();
    d
}

struct Stopped {
    status: ExitStatus,
    stdout: String,
    stderr: String,
}

/// Whether a trace writer has written a buffer into one of the quantum-trace files being written.
fn trace_buffer_written(out: &Path) -> bool {
    std::fs::read_dir(out).is_ok_and(|d| {
        d.flatten().any(|e| e.file_name().to_string_lossy().ends_with(".tmp") && e.metadata().is_ok_and(|m| m.len() > 0))
    })
}

/// Runs `calls.<class> args` on rvm with the agent (`out=DIR,socket=off,options`), waits until the
/// program has printed its first line (and, with `busy`, until a trace buffer has been written:
/// the program has run for a while), sends `signal` (a name for `kill -s`) and waits for rvm to end.
fn run_until_signal(out: &Path, class: &str, args: &[&str], options: &str, vps: usize, busy: bool, signal: &str) -> Stopped {
    let mut child = Command::new(rvm())
        .arg(format!("-Xvps:{vps}"))
        .arg("-Xquantum:1")
        .arg(format!("-agentpath:{}=out={},socket=off,{options}", agent_lib().display(), out.display()))
        .arg("-cp")
        .arg(classes())
        .arg(format!("calls.{class}"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start rvm");
    let (lines_tx, lines) = mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    let stdout_reader = std::thread::spawn(move || {
        let mut all = String::new();
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            all.push_str(&line);
            all.push('\n');
            let _ = lines_tx.send(line);
        }
        all
    });
    let mut stderr = child.stderr.take().unwrap();
    let stderr_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    // The program is running Java code once it has printed its line.
    if lines.recv_timeout(Duration::from_secs(120)).is_err() {
        let _ = child.kill();
        panic!("{class} printed nothing: {}", stderr_reader.join().unwrap());
    }
    let deadline = Instant::now() + Duration::from_secs(120);
    while busy && !trace_buffer_written(out) {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("no quantum-trace buffer written in 120 s: {}", stderr_reader.join().unwrap());
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let kill = Command::new("kill").args(["-s", signal, &child.id().to_string()]).status().expect("run kill");
    assert!(kill.success());
    let deadline = Instant::now() + Duration::from_secs(120);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("rvm did not end within 120 s of SIG{signal}: {}", stderr_reader.join().unwrap());
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Stopped { status, stdout: stdout_reader.join().unwrap(), stderr: stderr_reader.join().unwrap() }
}

fn file_names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    v.sort();
    v
}

#[test]
fn sigterm_writes_the_reports_and_complete_quantum_traces() {
    let out = test_dir("rvm-sigterm");
    // Busy threads on two processors (threads start and end one after the other for two minutes).
    let r = run_until_signal(&out, "ChurnLong", &["120000"], "quantum", 2, true, "TERM");
    assert_eq!(r.status.code(), Some(143), "128 + SIGTERM\n{}", r.stderr);
    assert!(r.stdout.starts_with("ready\n") && !r.stdout.contains("done"), "{}", r.stdout);
    assert!(r.stderr.contains(&format!("hpmagent: reports written to {}", out.display())), "{}", r.stderr);
    assert!(r.stderr.contains("hpmagent: quantum traces written to"), "{}", r.stderr);
    // The call trees of the program up to the signal.
    let p = read_profile(&out.join("arcflow.json"));
    assert!(contexts(&p, "main").contains_key("calls.ChurnLong.main"), "{:?}", contexts(&p, "main"));
    assert!(p.threads.iter().any(|t| t.name.starts_with("longchurn-")), "{:?}", p.threads.iter().map(|t| &t.name).collect::<Vec<_>>());
    // Every processor's file under its final name, each ending with the exit record of status 143.
    let names = file_names(&out);
    assert!(!names.iter().any(|n| n.ends_with(".tmp")), "{names:?}");
    for f in ["quantum.vp0.trace", "quantum.vp1.trace", "quantum.meta", "threads.txt", "xprof.txt"] {
        assert!(names.iter().any(|n| n == f), "{f} missing: {names:?}");
    }
    let trace = read_dir(&out).unwrap();
    assert!(trace.is_valid(), "{:?}", trace.issues);
    assert_eq!(trace.vps.len(), 2);
    for vp in &trace.vps {
        assert!(matches!(vp.entries.last(), Some(Entry::Exit { value: 143, .. })), "{}: {:?}", vp.file, vp.entries.last());
        assert!(vp.entries.iter().any(|e| matches!(e, Entry::Quantum(_))), "{}", vp.file);
    }
}

#[test]
fn sigint_and_sighup_stop_a_sleeping_program_with_its_reports() {
    for (signal, status) in [("INT", 130), ("HUP", 129)] {
        let out = test_dir(&format!("rvm-sig{}", signal.to_lowercase()));
        // Every processor idle: main sleeps in nap() for a minute.
        let r = run_until_signal(&out, "Sleeper", &[], "quantum", 2, false, signal);
        assert_eq!(r.status.code(), Some(status), "128 + SIG{signal}\n{}", r.stderr);
        assert!(r.stderr.contains(&format!("hpmagent: reports written to {}", out.display())), "{}", r.stderr);
        let c = contexts(&read_profile(&out.join("arcflow.json")), "main");
        assert_eq!(c.get("calls.Sleeper.main;calls.Sleeper.nap"), Some(&1), "{c:?}");
        let trace = read_dir(&out).unwrap();
        assert!(trace.is_valid(), "{:?}", trace.issues);
        for vp in &trace.vps {
            assert!(matches!(vp.entries.last(), Some(Entry::Exit { value, .. }) if *value == status), "{}: {:?}", vp.file, vp.entries.last());
        }
    }
}

/// Runs rvm with `args`; its exit status and stderr. The program must not run.
fn rvm_refuses(args: &[OsString]) -> (i32, String) {
    let o = Command::new(rvm()).args(args).output().expect("run rvm");
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.stdout.is_empty(), "the program does not run: {}", String::from_utf8_lossy(&o.stdout));
    (o.status.code().unwrap_or(-1), stderr)
}

fn os(s: &str) -> OsString {
    s.into()
}

/// `prefix` followed by a byte that is not UTF-8.
fn not_utf8(prefix: &str) -> OsString {
    let mut b = prefix.as_bytes().to_vec();
    b.push(0xe9);
    OsString::from_vec(b)
}

#[test]
fn arguments_that_are_not_utf8_are_one_line_errors_or_used_as_they_are() {
    let out = test_dir("rvm-not-utf8");
    let agent = os(&format!("-agentpath:{}=out={},socket=off", agent_lib().display(), out.display()));
    let cp = [os("-cp"), classes().into()];
    // A main class, a program argument and the agent's options must be text: one line each.
    let cases: [(Vec<OsString>, &str); 3] = [
        ([agent.clone()].into_iter().chain(cp.clone()).chain([not_utf8("calls.Straight")]).collect(), "main class"),
        ([agent.clone()].into_iter().chain(cp.clone()).chain([os("calls.Straight"), os("ok"), not_utf8("caf")]).collect(), "program argument 2"),
        ([not_utf8(&format!("-agentpath:{}=out={}", agent_lib().display(), out.display()))].into_iter().chain(cp.clone()).chain([os("calls.Straight")]).collect(), "-agentpath"),
    ];
    for (args, what) in cases {
        let (code, err) = rvm_refuses(&args);
        assert!(code != 0 && code != 101, "{what}: exit {code}: {err}");
        assert_eq!(err.lines().count(), 1, "{what}: {err}");
        assert!(err.starts_with("rvm: error: ") && err.contains(what) && err.contains("not valid UTF-8"), "{what}: {err}");
    }
    assert!(!out.exists(), "the agent did not start");

    // A class path and an agent library are paths: used byte for byte.
    let base = test_dir("rvm-not-utf8-paths");
    let mut dir = base.clone().into_os_string().into_vec();
    dir.extend_from_slice(b"/classes-\xe9");
    let dir = PathBuf::from(OsString::from_vec(dir));
    std::fs::create_dir_all(dir.join("calls")).unwrap();
    std::fs::copy(classes().join("calls/Straight.class"), dir.join("calls/Straight.class")).unwrap();
    let mut lib = base.clone().into_os_string().into_vec();
    lib.extend_from_slice(b"/libhpmagent-\xe9.so");
    let lib = PathBuf::from(OsString::from_vec(lib));
    std::os::unix::fs::symlink(agent_lib(), &lib).unwrap();
    let mut agent = OsString::from("-agentpath:");
    agent.push(&lib);
    agent.push(format!("=out={},socket=off", out.display()));
    let o = Command::new(rvm()).arg(agent).arg("-cp").arg(&dir).arg("calls.Straight").output().unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{}: {stderr}", o.status);
    assert!(stderr.contains(&format!("hpmagent: reports written to {}", out.display())), "{stderr}");
    assert_eq!(contexts(&read_profile(&out.join("arcflow.json")), "main"), straight_tree());
}

#[test]
fn a_trace_file_that_cannot_be_written_is_said_incomplete_never_written() {
    let out = test_dir("rvm-trace-efbig");
    let workloads = java_tests::compile("workloads").expect("compiling java-tests/workloads");
    // Files may grow to 32 KiB (RLIMIT_FSIZE, SIGXFSZ ignored so that writes fail with EFBIG): the
    // reports and the meta file fit, the one processor's trace (about 30 KiB a second of run: this
    // run takes about 2 s here) does not.
    let o = Command::new("sh")
        .args(["-c", "trap '' XFSZ; exec prlimit --fsize=32768 -- \"$@\"", "sh"])
        .arg(rvm())
        .args(["-Xvps:1", "-Xquantum:1", "-Xmx24m"])
        .arg(format!("-agentpath:{}=out={},socket=off,quantum=tick,collect=none", agent_lib().display(), out.display()))
        .arg("-cp")
        .arg(&workloads)
        .args(["pseudojbb.PseudoJbb", "3", "40000"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "the program is not stopped by the trace: {}: {stderr}", o.status);
    assert!(String::from_utf8_lossy(&o.stdout).contains("transactions 120000"));
    let trace_file = out.join("quantum.vp0.trace");
    assert!(stderr.contains(&format!("hpmagent: error: cannot write {}: File too large", trace_file.display())), "{stderr}");
    assert!(!stderr.contains("quantum traces written"), "no success claimed: {stderr}");
    // What was lost, in numbers: "… holds N of processor 0's T records, the other M are lost".
    let line = stderr
        .lines()
        .find(|l| l.starts_with(&format!("hpmagent: error: {} is incomplete: ", trace_file.display())))
        .unwrap_or_else(|| panic!("no line for the incomplete file: {stderr}"));
    let numbers: Vec<u64> = line.split(|c: char| !c.is_ascii_digit()).filter_map(|w| w.parse().ok()).collect();
    let [.., in_file, 0, total, lost] = numbers[..] else { panic!("{line}") };
    assert_eq!(in_file + lost, total, "{line}");
    assert!(in_file > 0 && lost > 0, "{line}");
    assert!(stderr.contains(&format!("hpmagent: error: quantum traces in {} are incomplete", out.display())), "{stderr}");
    // The file keeps the complete records written before the failure, and says so when read.
    assert!(!file_names(&out).iter().any(|n| n.ends_with(".tmp")), "{:?}", file_names(&out));
    let trace = read_dir(&out).unwrap();
    assert!(trace.is_valid(), "a clean prefix of records: {:?}", trace.issues);
    assert_eq!(trace.vps[0].entries.len() as u64, in_file, "{line}");
    assert!(trace.vps[0].entries.iter().all(|e| !matches!(e, Entry::Exit { .. })));
    assert_eq!(trace.meta.missed.iter().find(|m| m.0 == 0).map(|m| m.1), Some(lost), "the meta file counts them: {line}");
    // The reports are written as usual. The explorer page holds the trace, so it is the largest
    // file: where it does not fit, it is one line of its own.
    assert!(stderr.contains(&format!("hpmagent: reports written to {}", out.display())), "{stderr}");
    let page = out.join("explore.html");
    assert!(page.exists() || stderr.contains(&format!("hpmagent: error: cannot write {}: File too large", page.display())), "{stderr}");
}

/// An unusable `out=` stops rvm before the program runs, with the agent's one line, as on HotSpot.
#[test]
fn an_unusable_out_dir_stops_rvm_at_start() {
    let base = test_dir("rvm-unusable-out");
    std::fs::create_dir_all(&base).unwrap();
    let file = base.join("a-file");
    std::fs::write(&file, "not a directory").unwrap();
    for out in [file.join("below"), PathBuf::from("/proc/hpm-cannot-be-created")] {
        let args = [os(&format!("-agentpath:{}=out={},socket=off", agent_lib().display(), out.display())), os("-cp"), classes().into(), os("calls.Straight")];
        let (code, err) = rvm_refuses(&args);
        assert!(code != 0 && code != 101, "{}: exit {code}: {err}", out.display());
        let line = format!("hpmagent: error: cannot write reports to {}: ", out.display());
        assert!(err.lines().any(|l| l.starts_with(&line) && l.ends_with("(option out=)")), "{err}");
    }
    std::fs::remove_dir_all(&base).unwrap();
}

/// A class file changed by one byte (an `iadd` made `fadd`, so ints reach a float instruction):
/// rvm stops with one line naming the bad instruction's class, as a VerifyError, instead of a Rust
/// panic, and the agent's exit runs all the same: reports written, the control socket removed.
#[test]
fn a_class_that_fails_verification_ends_the_vm_with_its_reports() {
    let dir = test_dir("bad-class");
    let classes = dir.join("classes");
    std::fs::create_dir_all(&classes).unwrap();
    let src = dir.join("Bad.java");
    std::fs::write(&src, "public class Bad {\n    static int inc(int x) { return x + 1; }\n    public static void main(String[] a) {\n        System.out.println(\"start\");\n        System.out.println(inc(41));\n    }\n}\n").unwrap();
    let jdk = java_tests::jdk().expect("a JDK");
    assert!(Command::new(jdk.javac()).args(["--release", "11", "-d"]).arg(&classes).arg(&src).status().unwrap().success());
    let class = classes.join("Bad.class");
    let mut bytes = std::fs::read(&class).unwrap();
    // iload_0 iconst_1 iadd ireturn -> iload_0 iconst_1 fadd ireturn
    let at = bytes.windows(4).position(|w| w == [0x1a, 0x04, 0x60, 0xac]).expect("inc's code");
    bytes[at + 2] = 0x62;
    std::fs::write(&class, bytes).unwrap();
    let out = dir.join("out");
    let socket = dir.join("agent.sock");
    let o = Command::new(rvm())
        .arg(format!("-agentpath:{}=out={},socket={}", agent_lib().display(), out.display(), socket.display()))
        .arg("-cp")
        .arg(&classes)
        .arg("Bad")
        .output()
        .expect("running rvm");
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("start\n"));
    assert!(!stderr.contains("panicked") && !stderr.contains("RUST_BACKTRACE"), "a Rust panic on stderr: {stderr}");
    let line = stderr.lines().find(|l| l.contains("VerifyError")).unwrap_or_else(|| panic!("no VerifyError line: {stderr}"));
    assert!(line.contains("Bad.inc"), "{line}");
    assert!(out.join("arcflow.json").is_file(), "no reports: {stderr}");
    assert!(!socket.exists(), "the control socket was left behind");
}
