//! Collection windows that open or close while a thread is inside one long call: a window charges
//! each thread what it consumed inside the window, and a dump charges running threads up to the
//! dump. The truth is the kernel's account of each thread (`/proc/<pid>/task/<tid>/schedstat`),
//! read by the test when it sends each command. Every recording mode (`calls=probes`, the default,
//! with sampled and with exact metrics, and `calls=jvmti`) unless a case says otherwise.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command as Process, Stdio};
use std::time::{Duration, Instant};

use hpm_model::arcflow::Profile;
use hpm_control::Command;
use java_tests::Jdk;

/// A JVM running `Windows SCENARIO MS` with the agent.
struct Jvm {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    socket: PathBuf,
    out: PathBuf,
    done: bool,
    _tmp: tempfile::TempDir,
}

impl Drop for Jvm {
    fn drop(&mut self) {
        common::kill_if_running(&mut self.child);
    }
}

impl Jvm {
    /// Starts the scenario and returns once it is ready: the long call starts at [`Jvm::go`].
    fn start(jdk: &Jdk, mode: &str, extra: &str, scenario: &str, ms: u64) -> Jvm {
        let classes = java_tests::compile("windows").expect("compiling java-tests/windows");
        let base = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
        std::fs::create_dir_all(&base).unwrap();
        let tmp = tempfile::tempdir_in(base).unwrap();
        let out = tmp.path().join("out");
        let socket = tmp.path().join("agent.sock");
        let mut opts = format!("out={},socket={},perf-map=off,calls={mode}", out.display(), socket.display());
        if !extra.is_empty() {
            opts = format!("{opts},{extra}");
        }
        let mut child = Process::new(jdk.java())
            .arg(format!("-agentpath:{}={opts}", common::agent_lib().display()))
            .arg("-cp")
            .arg(&classes)
            .args(["Windows", scenario, &ms.to_string()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut jvm = Jvm { child, stdin, stdout, socket, out, done: false, _tmp: tmp };
        jvm.expect("ready");
        jvm
    }

    /// Lets the scenario's long call start.
    fn go(&mut self) {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin).unwrap();
        stdin.flush().unwrap();
    }

    fn expect(&mut self, prefix: &str) {
        let mut line = String::new();
        loop {
            line.clear();
            assert!(self.stdout.read_line(&mut line).unwrap() > 0, "JVM ended before printing {prefix:?}");
            if line.starts_with(prefix) {
                return;
            }
        }
    }

    fn ctl(&self, cmd: Command) -> serde_json::Value {
        let r = common::control_client(&self.socket).send(&cmd).unwrap();
        assert!(r.ok, "{cmd:?}: {r:?}");
        r.result
    }

    /// The OS thread id of the Java thread with this name (`main` is the launcher's second thread).
    fn tid(&self, name: &str) -> u32 {
        let pid = self.child.id();
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let tasks = common::tasks(pid);
            let found = if name == "main" {
                tasks.iter().find(|(t, comm)| *t != pid && comm == "java")
            } else {
                tasks.iter().find(|(_, comm)| comm == name)
            }
            .map(|(t, _)| *t);
            if let Some(t) = found {
                return t;
            }
            assert!(Instant::now() < deadline, "no thread {name}");
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// The thread's CPU time so far (ns), by the kernel.
    fn cpu_ns(&self, tid: u32) -> u64 {
        common::task_cpu_ns(self.child.id(), tid)
    }

    /// Waits until the scenario's long call returned.
    fn wait_done(&mut self) {
        if !self.done {
            self.expect("done");
            self.done = true;
        }
    }

    /// Waits for the scenario's end, lets the JVM exit and returns the exit dump.
    fn finish(mut self) -> Profile {
        self.wait_done();
        drop(self.stdin.take()); // the program's last read ends: it exits
        assert!(self.child.wait().unwrap().success());
        common::read_profile(&self.out.join("arcflow.json"))
    }
}

/// The base of `metric` summed over the contexts whose path ends with `path` ("a;b"), on all threads.
/// A path, not a method: `Windows.input` calls `compress` too, to size the scenario's input.
fn base(p: &Profile, path: &str, metric: &str) -> u64 {
    let m = p.bindings.metrics.iter().position(|x| x.name == metric).unwrap_or_else(|| panic!("no metric {metric}"));
    let want: Vec<&str> = path.split(';').collect();
    p.threads
        .iter()
        .map(|th| {
            let t = &th.tree;
            (0..t.len() as u32)
                .filter(|&n| {
                    let names: Vec<&str> = t.path(n)[1..].iter().map(|&c| p.consumers.name(c)).collect();
                    names.ends_with(&want)
                })
                .map(|n| t.base(n)[m])
                .sum::<u64>()
        })
        .sum()
}

/// `got` within 10% (plus 30 ms for the kernel's and the sampler's granularity) of `want`.
fn assert_close(what: &str, got: u64, want: u64) {
    let tolerance = want / 10 + 30_000_000;
    assert!(got.abs_diff(want) <= tolerance, "{what}: recorded {:.1} ms, the kernel says {:.1} ms", got as f64 / 1e6, want as f64 / 1e6);
}

/// A JVM whose main thread has been inside its one long `Deflater.deflate` call (sized for `ms`)
/// for `after_ms`; and the main thread's OS id.
fn inside_deflate(mode: &str, options: &str, ms: u64, after_ms: u64) -> (Jvm, u32) {
    let mut jvm = Jvm::start(&jdk(), mode, options, "deflate", ms);
    let main = jvm.tid("main");
    jvm.go();
    std::thread::sleep(Duration::from_millis(after_ms));
    (jvm, main)
}

/// The CPU time recorded in the scenario's long call (not in the calls that size its input).
fn compress_ns(p: &Profile) -> u64 {
    base(p, "Windows.main;Windows.compress", "cpu-time")
}

/// Each is the value of `calls=`, with more options for probes that read the metrics at every
/// entry and exit.
fn modes() -> [&'static str; 3] {
    ["probes", "probes,metric-mode=exact", "jvmti"]
}

fn jdk() -> Jdk {
    java_tests::jdk().unwrap()
}

#[test]
fn stop_inside_a_long_native_call_keeps_what_it_consumed_until_then() {
    for mode in modes() {
        let mut jvm = Jvm::start(&jdk(), mode, "", "deflate", 2500);
        let main = jvm.tid("main");
        let at_go = jvm.cpu_ns(main); // the thread waits for its long call
        jvm.go();
        std::thread::sleep(Duration::from_millis(1100));
        jvm.ctl(Command::Stop);
        let at_stop = jvm.cpu_ns(main);
        let p = jvm.finish();
        assert_close(&format!("{mode}: Windows.compress until stop"), compress_ns(&p), at_stop - at_go);
    }
}

/// Sends `command` 900 ms into the main thread's long call (of 2500 ms) and checks that the call is
/// charged what the thread consumed from then to the call's end.
fn assert_charged_after(mode: &str, options: &str, command: Command, what: &str) {
    let (mut jvm, main) = inside_deflate(mode, options, 2500, 900);
    let at_command = jvm.cpu_ns(main);
    jvm.ctl(command);
    jvm.wait_done();
    let at_end = jvm.cpu_ns(main);
    let p = jvm.finish();
    assert_close(&format!("{mode}: Windows.compress after {what}"), compress_ns(&p), at_end - at_command);
}

#[test]
fn reset_inside_a_long_native_call_keeps_what_it_consumes_after() {
    for mode in modes() {
        assert_charged_after(mode, "", Command::Reset, "reset");
    }
}

#[test]
fn reset_during_a_sleep_keeps_the_rest_of_its_wall_time() {
    for mode in modes() {
        let mut jvm = Jvm::start(&jdk(), mode, "", "sleep", 2000);
        jvm.go();
        std::thread::sleep(Duration::from_millis(800));
        let at_reset = Instant::now();
        jvm.ctl(Command::Reset);
        jvm.wait_done();
        let rest = at_reset.elapsed().as_nanos() as u64;
        let p = jvm.finish();
        assert_close(&format!("{mode}: Windows.nap wall time after reset"), base(&p, "Windows.main;Windows.nap", "wall-time"), rest);
    }
}

#[test]
fn a_mid_run_dump_charges_busy_threads_up_to_the_dump() {
    for mode in modes() {
        let mut jvm = Jvm::start(&jdk(), mode, "", "spin", 2500);
        jvm.go();
        let spinners = [jvm.tid("spinner-0"), jvm.tid("spinner-1")];
        std::thread::sleep(Duration::from_millis(1300));
        let dir = jvm.out.with_file_name("mid");
        let before: u64 = spinners.iter().map(|&t| jvm.cpu_ns(t)).sum();
        jvm.ctl(Command::Dump { dir: Some(dir.to_string_lossy().into_owned()) });
        let after: u64 = spinners.iter().map(|&t| jvm.cpu_ns(t)).sum();
        let p = common::read_profile(&dir.join("arcflow.json"));
        let spin = base(&p, "Windows.spin", "cpu-time");
        assert!(spin + 60_000_000 >= before * 9 / 10 && spin <= after + after / 10 + 60_000_000, "{mode}: Windows.spin {spin} ns at the dump, the kernel says {before}..{after} ns");
        jvm.finish();
    }
}

/// A thread inside one long native call when `start` comes is charged from the start, not from its
/// next probe or event (with probes the agent reads its stack for its context).
#[test]
fn start_inside_a_long_native_call_charges_what_it_consumes_after() {
    for mode in modes() {
        assert_charged_after(mode, "start=paused", Command::Start, "start");
    }
}

/// A window that opens and closes while the thread stays inside one native call: with
/// `calls=jvmti` the thread has no method event at all, so `stop` reads its stack from outside;
/// with probes `start` does.
#[test]
fn start_and_stop_inside_one_long_native_call_charge_the_window() {
    for mode in modes() {
        let (jvm, main) = inside_deflate(mode, "start=paused", 3500, 500);
        let at_start = jvm.cpu_ns(main);
        jvm.ctl(Command::Start);
        std::thread::sleep(Duration::from_millis(1000));
        jvm.ctl(Command::Stop);
        let at_stop = jvm.cpu_ns(main);
        let p = jvm.finish();
        assert_close(&format!("{mode}: Windows.compress between start and stop"), compress_ns(&p), at_stop - at_start);
    }
}

/// A dump after `start` while the thread is still in the same native call (no method event or
/// probe of the thread yet) charges it up to the dump.
#[test]
fn a_dump_inside_a_long_native_call_after_start_charges_it_up_to_the_dump() {
    for mode in modes() {
        let (jvm, main) = inside_deflate(mode, "start=paused", 3500, 500);
        let at_start = jvm.cpu_ns(main);
        jvm.ctl(Command::Start);
        std::thread::sleep(Duration::from_millis(1000));
        let dir = jvm.out.with_file_name("mid");
        let at_dump = jvm.cpu_ns(main);
        jvm.ctl(Command::Dump { dir: Some(dir.to_string_lossy().into_owned()) });
        let p = common::read_profile(&dir.join("arcflow.json"));
        assert_close(&format!("{mode}: Windows.compress at the dump"), compress_ns(&p), at_dump - at_start);
        jvm.finish();
    }
}
