//! The agent's metric modes on the research VM, end to end: the real `rvm`, the real
//! `libhpmagent.so` (both built by this test with cargo if needed), real signals and clocks. The
//! default (`auto`) samples time into the exact call trees here, where a thread CPU clock read is a
//! system call; `metric-mode=exact` reads at every event and switch.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use hpm_model::arcflow::{MetricMode, Profile};
use hpm_control::Command as Ctl;

#[path = "support/build.rs"]
mod build;
use build::built;

fn classes() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| java_tests::compile("rvmsampled").expect("compile java-tests/rvmsampled"))
}

fn out_dir(test: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("rvm-sampled/{test}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(d.parent().unwrap()).unwrap();
    d
}

fn rvm_command(out: &Path, options: &str, args: &[&str]) -> Command {
    let (rvm, lib) = built();
    let mut c = Command::new(rvm);
    c.arg("-Xvps:2").arg(format!("-agentpath:{}=out={},{options}", lib.display(), out.display())).arg("-cp").arg(classes()).args(args);
    c
}

/// The call trees the reports show, from an arcflow.json of either version.
fn read_profile(p: &Path) -> Profile {
    hpm_reports::saved::load(p).unwrap_or_else(|e| panic!("{e}")).calls().into_owned()
}

/// Per context path below the thread (`Class.m;Class.n`), summed over threads whose name starts
/// with `prefix`: (calls, inclusive values).
fn inclusive(p: &Profile, prefix: &str) -> std::collections::BTreeMap<String, (u64, Vec<u64>)> {
    let mut out: std::collections::BTreeMap<String, (u64, Vec<u64>)> = Default::default();
    for th in p.threads.iter().filter(|t| t.name.starts_with(prefix)) {
        let t = &th.tree;
        for n in t.preorder().into_iter().skip(1) {
            let path: Vec<&str> = t.path(n)[1..].iter().map(|&c| p.consumers.name(c)).collect();
            let mut sum = vec![0u64; t.metric_count()];
            let mut stack = vec![n];
            while let Some(m) = stack.pop() {
                for (s, v) in sum.iter_mut().zip(t.base(m)) {
                    *s += v;
                }
                stack.extend(t.children(m));
            }
            let e = out.entry(path.join(";")).or_insert((0, vec![0; sum.len()]));
            e.0 += t.calls(n);
            for (a, b) in e.1.iter_mut().zip(sum) {
                *a += b;
            }
        }
    }
    out
}

/// The sum of every base value of a thread's tree.
fn thread_total(p: &Profile, name: &str) -> Vec<u64> {
    let th = p.threads.iter().find(|t| t.name == name).unwrap_or_else(|| panic!("no thread {name}"));
    let t = &th.tree;
    let mut sum = vec![0u64; t.metric_count()];
    for n in t.preorder() {
        for (s, v) in sum.iter_mut().zip(t.base(n)) {
            *s += v;
        }
    }
    sum
}

/// CpuRatio with `options`: light() and heavy() (three times the loop) on two threads that
/// share two processors. Returns the profile and stderr.
fn cpu_ratio(test: &str, options: &str) -> (Profile, String) {
    let out = out_dir(test);
    let o = rvm_command(&out, &format!("socket=off,log=info,{options}"), &["CpuRatio", "4000"]).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "{err}");
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), "rounds 4000", "{err}");
    let p = read_profile(&out.join("arcflow.json"));
    (p, err)
}

/// Checks the calls (exact in every mode) and the cpu-time ratio heavy : light within `tolerance`
/// of 3; returns the ratio.
fn check_ratio(p: &Profile, tolerance: f64) -> f64 {
    let c = inclusive(p, "worker-");
    let cpu = p.bindings.metric_index("cpu-time").unwrap();
    let (light, heavy) = (&c["CpuRatio$Worker.run;CpuRatio.light"], &c["CpuRatio$Worker.run;CpuRatio.heavy"]);
    // Calls are counted at every event whatever the metric mode: 4000 rounds on each of 2 threads.
    assert_eq!((light.0, heavy.0), (8000, 8000), "{c:?}");
    assert_eq!(c["CpuRatio$Worker.run;CpuRatio.heavy;CpuRatio.spin"].0, 8000);
    assert!(light.1[cpu] > 0, "{c:?}");
    let ratio = heavy.1[cpu] as f64 / light.1[cpu] as f64;
    assert!((ratio - 3.0).abs() <= 3.0 * tolerance, "heavy/light cpu-time {ratio:.3} (expected 3 ± {:.0}%): {c:?}", tolerance * 100.0);
    ratio
}

#[test]
fn sampled_time_splits_like_the_work_and_calls_stay_exact() {
    // Default options: auto decides; where reading the thread CPU clock is a system call (as on
    // every Linux machine without a vDSO entry for it) that is sampled.
    let (p, err) = cpu_ratio("auto", "");
    let sampled = err.contains("time and counters sampled into the exact contexts");
    assert!(sampled || err.contains("read at every entry and exit (exact)"), "{err}");
    let modes: Vec<MetricMode> = p.bindings.metrics.iter().map(|m| m.mode).collect();
    assert_eq!(modes, vec![if sampled { MetricMode::Sampled } else { MetricMode::Exact }; 2], "{:?}", p.bindings.metrics);
    check_ratio(&p, 0.25);

    // Forced sampled: marked so in the reports; samples were taken on both processors.
    let (p, err) = cpu_ratio("sampled", "metric-mode=sampled");
    assert!(p.bindings.metrics.iter().all(|m| m.mode == MetricMode::Sampled), "{:?}", p.bindings.metrics);
    let ratio = check_ratio(&p, 0.25);
    let samples: u64 = err
        .lines()
        .find_map(|l| l.strip_prefix("hpmagent: info: sampled metrics: ")?.split(' ').next()?.parse().ok())
        .unwrap_or_else(|| panic!("no sample count: {err}"));
    assert!(samples > 50, "{samples} samples: {err}");
    // Each worker's time is its own: both did the same work.
    let (a, b) = (thread_total(&p, "worker-a")[0] as f64, thread_total(&p, "worker-b")[0] as f64);
    assert!(a > 0.0 && b > 0.0 && (a / b - 1.0).abs() < 0.35, "worker-a {a} ns, worker-b {b} ns");
    // wall-time keeps its meaning: each worker's elapsed time, not only while on a processor
    // (they share two processors with nothing else, so it is about their CPU time or more).
    let wall = p.bindings.metric_index("wall-time").unwrap();
    for w in ["worker-a", "worker-b"] {
        let t = thread_total(&p, w);
        assert!(t[wall] as f64 >= 0.8 * t[0] as f64, "{w}: wall {} ns, cpu {} ns", t[wall], t[0]);
    }
    let xprof = std::fs::read_to_string(Path::new(env!("CARGO_TARGET_TMPDIR")).join("rvm-sampled/sampled/xprof.txt")).unwrap();
    assert!(xprof.contains("cpu-time (ns, sampled)"), "{xprof}");
    eprintln!("sampled heavy/light: {ratio:.3}");

    // Exact: read at every event, marked exact, and the same split.
    let (p, err) = cpu_ratio("exact", "metric-mode=exact");
    assert!(err.contains("read at every entry and exit (exact)"), "{err}");
    assert!(p.bindings.metrics.iter().all(|m| m.mode == MetricMode::Exact), "{:?}", p.bindings.metrics);
    let ratio = check_ratio(&p, 0.15);
    eprintln!("exact heavy/light: {ratio:.3}");
}

fn client(socket: &Path) -> hpm_control::Client {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        match hpm_control::Client::connect(socket, Duration::from_secs(60)) {
            Ok(c) => return c,
            Err(e) if Instant::now() > deadline => panic!("no control socket at {}: {e}", socket.display()),
            Err(_) => std::thread::sleep(Duration::from_millis(20)),
        }
    }
}

/// Window: starts paused; while the program is inside(), `start`, then `reset`, then `stop`
/// through the control socket. What the reports hold is what ran between the reset and the stop:
/// inside() only, and no more CPU time than that interval had.
fn windows(test: &str, options: &str) {
    let out = out_dir(test);
    let socket = out.with_extension("sock");
    let _ = std::fs::remove_file(&socket);
    let mut child = rvm_command(&out, &format!("start=paused,socket={},{options}", socket.display()), &["Window"])
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(out.with_extension("err")).unwrap())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    assert_eq!(line.trim(), "inside");
    let ctl = |cmd: Ctl| {
        let r = client(&socket).send(&cmd).unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
        assert!(r.ok, "{cmd:?}: {r:?}");
        r.result
    };
    assert_eq!(ctl(Ctl::Start)["changed"], true);
    std::thread::sleep(Duration::from_millis(300));
    let reset = Instant::now();
    ctl(Ctl::Reset);
    std::thread::sleep(Duration::from_millis(400));
    assert_eq!(ctl(Ctl::Stop)["changed"], true);
    let window = reset.elapsed();
    // A dump while stopped shows the window.
    let d = out.with_extension("dump");
    ctl(Ctl::Dump { dir: Some(d.to_string_lossy().into_owned()) });
    line.clear();
    stdout.read_line(&mut line).unwrap();
    assert_eq!(line.trim(), "outside", "the window closed while the program was inside()");
    let status = child.wait().unwrap();
    let err = std::fs::read_to_string(out.with_extension("err")).unwrap();
    assert!(status.success(), "{status}: {err}");
    for p in [read_profile(&d.join("arcflow.json")), read_profile(&out.join("arcflow.json"))] {
        let c = inclusive(&p, "main");
        assert!(!c.keys().any(|k| k.contains("outside")), "outside() ran only while stopped: {c:?}");
        let inside = &c["Window.main;Window.inside"];
        assert!(inside.0 > 0, "{c:?}");
        let main = thread_total(&p, "main");
        let cpu = p.bindings.metric_index("cpu-time").unwrap();
        // All of main's time in the window is inside(); none of it from before the reset (or
        // from before `start`, while paused).
        let limit = window.as_nanos() as u64 + 30_000_000;
        assert!(main[cpu] <= limit, "main: {} ms of cpu-time in a window of {} ms", main[cpu] / 1_000_000, window.as_millis());
        assert!(main[cpu] > 0 && inside.1[cpu] as f64 >= 0.9 * main[cpu] as f64, "{c:?}, main {main:?}");
    }
}

#[test]
fn windows_through_the_control_socket_sampled() {
    windows("windows-sampled", "metric-mode=sampled");
}

#[test]
fn windows_through_the_control_socket_exact() {
    windows("windows-exact", "metric-mode=exact");
}
