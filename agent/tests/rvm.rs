//! The agent on the research VM: `rvm -agentpath:libhpmagent.so=…` with the real VM, the real agent
//! library and real sockets: call trees, thread kinds, the control socket, quantum traces, refusals.

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Duration;

use common::*;
use hpm_control::Command as Ctl;

#[test]
fn straight_calls_give_the_exact_tree_on_two_processors() {
    let r = run_rvm("rvm-straight", "Straight", "", 2);
    r.assert_ok();
    let p = r.calls();
    assert_eq!(
        contexts(&p, "main"),
        straight_tree()
    );
    assert_eq!(p.bindings.metrics.iter().map(|m| m.name.as_str()).collect::<Vec<_>>(), ["cpu-time", "wall-time"]);
    for f in ["xtree.txt", "xarc.txt", "xprof.txt", "arcflow.json", "collapsed.txt", "flame.svg", "threads.txt", "gc.txt", "locks.txt", "waits.txt", "code.txt", "marks.txt"] {
        assert!(r.out.join(f).is_file(), "{f} missing");
    }
    // The VM's own threads are listed as system threads, with what they cost.
    let rows = thread_rows(&r.file("threads.txt"));
    let main = rows.iter().find(|t| t.name == "main").unwrap();
    assert_eq!((main.kind.as_str(), main.calls, main.state.as_str()), ("application", 12, "ended"));
    assert!(main.cpu_ms > 0.0, "{rows:?}");
    for name in ["VM.Idle-0", "VM.Idle-1", "VM.Collector-0", "VM.Collector-1"] {
        let t = rows.iter().find(|t| t.name == name).unwrap_or_else(|| panic!("no {name}: {rows:?}"));
        assert_eq!(t.kind, "system", "{name}");
    }
    // No quantum trace without the option.
    assert!(!r.out.join("quantum.meta").exists());
}

/// In exact mode the threads' reads go through their processors' reader (`cpu-time` from the
/// switch records where perf gives them), so the overhead compensation is calibrated with that
/// reader, and `metric-mode=auto` decides by that reader's cost. Calibrated with the metric set's
/// own (a CPU-clock system call, about 1 µs here), it removed some ten times what a call's reads
/// cost.
#[test]
fn exact_mode_compensation_and_the_mode_choice_use_the_processors_reader() {
    let r = run_rvm("rvm-exact-compensation", "Straight", "metric-mode=exact,log=info", 1);
    r.assert_ok();
    let stderr = String::from_utf8_lossy(&r.output.stderr);
    let text = r.file("compensation.txt");
    let measured = text.lines().find(|l| l.starts_with("measured:")).unwrap_or_else(|| panic!("{text}"));
    let source = if stderr.contains("processors read cpu-time from their context-switch records") { "context-switch records" } else { "CPU clock" };
    assert!(measured.contains(&format!("counter read by the processors' reader: cpu-time from the thread's {source}")), "{measured}\n{stderr}");
    // The read cost that `metric-mode=auto` decides by is that reader's too.
    let mode = stderr.lines().find(|l| l.contains("one read of [cpu-time, wall-time] costs")).unwrap_or_else(|| panic!("{stderr}"));
    let read = if source == "CPU clock" { "cpu-time by clock_gettime of the thread's CPU clock (a system call)" } else { "cpu-time from the processor's context-switch records (no system call)" };
    assert!(mode.contains(&format!("read: {read}, wall-time by CLOCK_MONOTONIC (vDSO)")), "{mode}");
    assert_eq!(contexts(&r.calls(), "main"), straight_tree());
}

#[test]
fn recursion_exceptions_and_threads_on_rvm() {
    let r = run_rvm("rvm-recursion", "Recursion", "", 1);
    r.assert_ok();
    let c = contexts(&r.calls(), "main");
    assert_eq!(c.len(), 1 + 10 + 7, "{c:?}");
    assert!(c.keys().any(|k| k.matches("calls.Recursion.fact").count() == 10), "{c:?}");

    let r = run_rvm("rvm-exceptions", "Exceptions", "", 2);
    r.assert_ok();
    assert_eq!(contexts(&r.calls(), "main"), exceptions_tree());
    let rows = thread_rows(&r.file("threads.txt"));
    assert_eq!(rows.iter().find(|t| t.name == "main").unwrap().exception_exits, 12);

    // Three workers on two processors: each thread's CPU time is its own (they migrate).
    let r = run_rvm("rvm-threads", "Threads", "", 2);
    r.assert_ok();
    let p = r.calls();
    let workers: Vec<_> = p.threads.iter().filter(|t| t.name.starts_with("worker-") || t.name.starts_with("Thread-")).collect();
    assert!(!workers.is_empty(), "threads: {:?}", p.threads.iter().map(|t| &t.name).collect::<Vec<_>>());
}

#[test]
fn include_filter_and_no_calls_collect_on_rvm() {
    // collect=gc: no method events at all (the callbacks are not installed), threads still listed.
    let r = run_rvm("rvm-nocalls", "Straight", "collect=gc", 2);
    r.assert_ok();
    assert!(contexts(&r.calls(), "main").is_empty());
    assert!(thread_rows(&r.file("threads.txt")).iter().any(|t| t.name == "main"));
    // include=* records the class library too.
    let r = run_rvm("rvm-include", "Straight", "include=*", 1);
    r.assert_ok();
    let c = contexts(&r.calls(), "main");
    assert!(c.keys().any(|k| k.contains("java.")), "{c:?}");
    assert!(c.contains_key("calls.Straight.main"), "{c:?}");
}

#[test]
fn control_socket_on_rvm() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let socket = tmp.path().join("agent.sock");
    let mut child = Command::new(rvm())
        .arg("-Xvps:2")
        .arg(format!("-agentpath:{}=out={},socket={}", agent_lib().display(), out.display(), socket.display()))
        .arg("-cp")
        .arg(classes())
        .args(["calls.ChurnLong", "3000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    assert_eq!(line.trim(), "ready");
    let client = || control_client(&socket);
    let ctl = |cmd: Ctl| {
        let r = client().send(&cmd).unwrap();
        assert!(r.ok, "{cmd:?}: {r:?}");
        r.result
    };
    let s = ctl(Ctl::Status);
    assert_eq!(s["vm"], "rvm", "{s}");
    assert_eq!(s["state"], "collecting");
    assert_eq!(s["pid"], child.id());
    let vm_threads: Vec<(String, String)> =
        s["vm_threads"].as_array().unwrap().iter().map(|t| (t["name"].as_str().unwrap().to_string(), t["kind"].as_str().unwrap().to_string())).collect();
    assert!(vm_threads.contains(&("main".into(), "application".into())), "{s}");
    assert!(vm_threads.contains(&("VM.Idle-1".into(), "system".into())), "{s}");
    assert!(s["not_available"].as_array().unwrap().is_empty(), "{s}");

    assert_eq!(ctl(Ctl::Stop)["changed"], true);
    assert_eq!(ctl(Ctl::Stop)["changed"], false);
    let before = ctl(Ctl::Status)["method_events"].as_u64().unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let s = ctl(Ctl::Status);
    assert_eq!(s["state"], "paused");
    assert_eq!(s["method_events"].as_u64().unwrap(), before, "no events are recorded while stopped");
    assert_eq!(ctl(Ctl::Start)["changed"], true);
    std::thread::sleep(Duration::from_millis(300));
    assert!(ctl(Ctl::Status)["method_events"].as_u64().unwrap() > before, "recording again after start");

    let m = ctl(Ctl::Mark { text: "while churning".into() });
    assert_eq!(m["mark"], 1);
    let e = ctl(Ctl::Events);
    assert!(e["metrics"].as_array().unwrap().iter().any(|m| m["name"] == "cpu-time"), "{e}");
    let d = tmp.path().join("dump");
    let r = ctl(Ctl::Dump { dir: Some(d.to_string_lossy().into_owned()) });
    assert!(r["files"].as_array().unwrap().iter().any(|f| f.as_str().unwrap().ends_with("arcflow.json")), "{r}");
    let p = read_profile(&d.join("arcflow.json"));
    let churned = p.threads.iter().filter(|t| t.name.starts_with("longchurn-")).count();
    assert!(churned >= 2, "{:?}", p.threads.iter().map(|t| &t.name).collect::<Vec<_>>());
    assert!(std::fs::read_to_string(d.join("marks.txt")).unwrap().lines().any(|l| l.ends_with("\twhile churning")));

    let status = child.wait().unwrap();
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    assert!(status.success(), "{status}: {err}");
    assert!(err.contains(&format!("hpmagent: reports written to {}", out.display())), "{err}");
    assert!(!socket.exists(), "the socket is removed at exit");
}

#[test]
fn quantum_traces_on_two_processors_validate() {
    let r = run_rvm("rvm-quantum", "Threads", "quantum", 2);
    r.assert_ok();
    for f in ["quantum.vp0.trace", "quantum.vp1.trace", "quantum.meta"] {
        assert!(r.out.join(f).is_file(), "{f} missing: {}", r.stderr());
    }
    assert!(r.stderr().contains("quantum traces written to"), "{}", r.stderr());
    let trace = hpm_model::quantum::read_dir(&r.out).unwrap();
    let errors: Vec<String> = trace.errors().map(|i| i.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?}");
    assert!(trace.issues.is_empty(), "{:?}", trace.issues);
    assert_eq!(trace.meta.counters, ["real-time", "cpu-time"]);
    assert_eq!(trace.meta.time_unit, "ns");
    // Every record's thread is named, main is an application thread.
    let main = trace.meta.threads.iter().find(|t| t.name == "main").expect("main in the meta file");
    assert_eq!(main.kind, hpm_model::quantum::ThreadKind::App);
    assert_eq!(main.id, 1, "trace thread id = rvm id + 1");
    assert!(trace.quanta().any(|q| q.thread == 1));
    // Methods named where the yieldpoints were taken.
    for q in trace.quanta() {
        for m in [q.callee, q.caller] {
            assert!(m == 0 || trace.meta.method(m).is_some(), "method {m} not in the meta file");
        }
    }
    // No tmp files left behind.
    for e in std::fs::read_dir(&r.out).unwrap() {
        let n = e.unwrap().file_name().to_string_lossy().into_owned();
        assert!(!n.ends_with(".tmp"), "{n}");
    }

    // Sample mode writes at least as many records.
    let t = run_rvm("rvm-quantum-tick", "Threads", "quantum=tick,collect=none", 2);
    t.assert_ok();
    let tick = hpm_model::quantum::read_dir(&t.out).unwrap();
    assert!(tick.is_valid(), "{:?}", tick.issues);
}

#[test]
fn bad_options_are_refused_with_one_line() {
    let jdk = java_tests::jdk().unwrap();
    let out = out_dir("rvm-badopt", &jdk);
    // calls.Straight on rvm with the agent and `options`: it must not start; its stderr.
    let refused = |options: &str| {
        let o = Command::new(rvm())
            .arg(format!("-agentpath:{}={options}", agent_lib().display()))
            .arg("-cp")
            .arg(classes())
            .arg("calls.Straight")
            .output()
            .unwrap();
        assert!(!o.status.success());
        assert!(o.stdout.is_empty(), "the program does not run");
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    let err = refused(&format!("out={},bogus=1", out.display()));
    let ours: Vec<&str> = err.lines().filter(|l| l.starts_with("hpmagent:")).collect();
    assert_eq!(ours.len(), 1, "{err}");
    assert!(ours[0].starts_with("hpmagent: error: unknown option 'bogus' (valid: "), "{err}");
    let err = refused("quantum=often");
    assert_eq!(err.lines().filter(|l| l.starts_with("hpmagent:")).collect::<Vec<_>>(), ["hpmagent: error: bad value 'often' for option 'quantum' (valid: switch, all, tick, off)"], "{err}");
}

/// On the research VM a wait is timed by the thread's own switches (rvm's times, read under its
/// scheduler lock): from the switch that takes it off its processor after `Object.wait` to the
/// switch that puts it back, with no clock read of the agent's. The known waits of `WaitNotify`
/// last what they should: `wait(300)` times out after 300 ms (less the microseconds between rvm
/// setting its deadline and the switch out), the notified wait lasts until main's notify 500 ms
/// after the thread started.
#[test]
fn waits_are_timed_by_the_threads_switches() {
    for vps in [1, 2] {
        let r = run_rvm(&format!("rvm-waits-{vps}"), "WaitNotify", "", vps);
        r.assert_ok();
        let p = r.waits();
        let (calls, base) =
            base_at(&p, "timed", "calls.WaitNotify$Waiter.run;calls.WaitNotify.timedWait;calls.WaitNotify$Monitor").expect("timed wait");
        assert_eq!((calls, base[1]), (1, 1), "one wait, timed out ({vps} processors)");
        assert!((299_000_000..1_000_000_000).contains(&base[0]), "wait(300) lasted {} ns ({vps} processors)", base[0]);
        let (calls, base) = base_at(&p, "notified", "calls.WaitNotify$Waiter.run;calls.WaitNotify.waitForSignal;calls.WaitNotify$Monitor")
            .expect("notified wait");
        assert_eq!((calls, base[1]), (1, 0), "one wait, notified ({vps} processors)");
        assert!((400_000_000..1_500_000_000).contains(&base[0]), "the notified wait lasted {} ns ({vps} processors)", base[0]);
    }
}

/// The classes rvm makes for lambdas (hidden, one per call site) are transparent in the call trees,
/// as on HotSpot: the lambda's body is the context under its caller, and the call tree of
/// `calls.Lambdas` is HotSpot's (bytecode probes) call for call.
#[test]
fn lambda_classes_are_transparent_as_on_hotspot() {
    let r = run_rvm("rvm-lambdas", "Lambdas", "", 1);
    r.assert_ok();
    let on_rvm = contexts(&r.calls(), "main");
    assert!(!on_rvm.keys().any(|k| k.contains("$$")), "a hidden class in the tree: {on_rvm:?}");
    assert_eq!(on_rvm.get("calls.Lambdas.main;calls.Lambdas.lambda$main$0"), Some(&1), "{on_rvm:?}");
    assert_eq!(on_rvm.get("calls.Lambdas.main;calls.Lambdas.lambda$main$1"), Some(&1), "{on_rvm:?}");
    let jdk = java_tests::jdk().unwrap();
    let hotspot = run("lambdas-hotspot", &jdk, "Lambdas", "", &[], &[]);
    hotspot.assert_ok();
    assert_eq!(on_rvm, contexts(&hotspot.calls(), "main"));
}
