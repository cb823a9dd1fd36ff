//! perf_event counters on real JVMs with real perf_event descriptors: per-thread task-clock against
//! /proc, page faults on the allocating method, context switches of a sleeping thread, refusals,
//! the whole run against `perf stat`, and overhead compensation on many tiny methods.
//!
//! The programs are in `java-tests/calls/counters/` (package `calls.counters`).

mod common;
use common::*;

use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;
use std::time::Duration;

use serde_json::Value;

fn threads_json(r: &Run) -> Value {
    serde_json::from_str(&r.file("threads.json")).expect("threads.json")
}

/// The threads.json row of thread `name`.
fn thread<'a>(v: &'a Value, name: &str) -> &'a Value {
    v["threads"].as_array().unwrap().iter().find(|t| t["name"] == name).unwrap_or_else(|| panic!("no thread {name} in {v:#}"))
}

fn total(t: &Value, metric: &str) -> u64 {
    t["totals"][metric].as_u64().unwrap_or_else(|| panic!("no {metric} in {t}"))
}

/// Base of `metric` at context `path` of `thread`, and its calls.
fn base(p: &hpm_model::arcflow::Profile, thread: &str, path: &str, metric: &str) -> (u64, u64) {
    let k = p.bindings.metric_index(metric).unwrap_or_else(|| panic!("no metric {metric}"));
    let (calls, b) = base_at(p, thread, path).unwrap_or_else(|| panic!("no context {path} in {:?}", contexts(p, thread)));
    (calls, b[k])
}

/// Steal time so far (see [`hpm_collectors::counters::steal_ns`]); the comparison needs it.
fn steal_ns() -> u64 {
    hpm_collectors::counters::steal_ns().expect("/proc/stat readable")
}

/// On-CPU ns of a thread from /proc/<pid>/task/<tid>/schedstat (first field).
fn schedstat_ns(pid: u32, tid: u64) -> u64 {
    let s = std::fs::read_to_string(format!("/proc/{pid}/task/{tid}/schedstat")).unwrap_or_else(|e| panic!("schedstat of {tid}: {e}"));
    s.split_whitespace().next().unwrap().parse().unwrap()
}

/// (a) Per-thread task-clock totals agree with each thread's CPU time from /proc within 5%: four
/// threads burn different amounts of CPU, then park while the test asks for a dump (SIGQUIT) and
/// reads /proc/<pid>/task/<tid>/schedstat for the os_tid each thread has in threads.json.
#[test]
fn task_clock_per_thread_agrees_with_proc() {
    // Read at every event (JVMTI method events) or sampled (bytecode probes, where the compiled
    // spinners need 25 times the work to burn 20 ms): each thread's total is its whole CPU time.
    // With probes, compensate=off keeps what the probes' own code ran in the threads' totals.
    task_clock_agrees_with_proc("calls=jvmti", "6000");
    task_clock_agrees_with_proc("calls=probes,compensate=off", "150000");
}

/// With probes and compensation on (the default), what samples found in the probes' own code is
/// in no context, and threads.json gives it per thread: each spinner's total and its time in the
/// probes' code make up its CPU time from /proc, within 5%.
#[test]
fn the_probes_own_code_and_the_threads_totals_make_up_their_cpu_time() {
    task_clock_agrees_with_proc("calls=probes", "150000");
}

fn task_clock_agrees_with_proc(mode: &str, steps: &str) {
    let jdk = java_tests::jdk().unwrap();
    let out = out_dir(&format!("counters-proc-{}", mode[6..].replace([',', '='], "-")), &jdk);
    let opts = format!("out={},perf-map=off,socket=off,event=task-clock,{mode}", out.display());
    let steal0 = steal_ns();
    let mut child = command(&jdk, "counters.Spinners", &opts, &[], &[steps])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("java");
    let pid = child.id();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    assert_eq!(line.trim(), "ready", "program did not get ready");
    // Keep draining stdout (SIGQUIT makes HotSpot print a thread dump there).
    let drain = std::thread::spawn(move || std::io::copy(&mut stdout, &mut std::io::sink()));
    let stderr = child.stderr.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let errs = std::thread::spawn(move || {
        let mut all = String::new();
        for l in BufReader::new(stderr).lines().map_while(Result::ok) {
            if l.contains("(dump on request)") {
                let _ = tx.send(());
            }
            all.push_str(&l);
            all.push('\n');
        }
        all
    });
    let ok = std::process::Command::new("kill").args(["-QUIT", &pid.to_string()]).status().unwrap();
    assert!(ok.success());
    rx.recv_timeout(Duration::from_secs(60)).expect("no dump on request within 60 s");
    // The spinners are parked: their CPU time no longer moves.
    let v: Value = serde_json::from_str(&std::fs::read_to_string(out.join("threads.json")).unwrap()).unwrap();
    let mut rows = Vec::new();
    for i in 0..4 {
        let t = thread(&v, &format!("spinner-{i}"));
        let tid = t["os_tid"].as_u64().expect("os_tid in threads.json");
        let proc_ns = schedstat_ns(pid, tid);
        // With the probes' code measured, the thread's total leaves it out: it is given apart.
        let tc = total(t, "task-clock") + t["in_probes"]["task-clock"].as_u64().unwrap_or(0);
        rows.push((i, tid, tc, proc_ns));
    }
    child.stdin.take().unwrap().write_all(b"\n").unwrap();
    let status = child.wait().unwrap();
    let err = errs.join().unwrap();
    let _ = drain.join();
    assert!(status.success(), "{status}\n{err}");
    eprintln!("thread tid task-clock-ns proc-schedstat-ns");
    for (i, tid, tc, p) in &rows {
        eprintln!("spinner-{i} {tid} {tc} {p} ({:+.2}%)", (*tc as f64 - *p as f64) * 100.0 / *p as f64);
    }
    // perf's task-clock runs while the thread is on a CPU, including time the hypervisor stole from
    // that virtual CPU; schedstat excludes steal. Within 5%, plus the steal recorded during the run
    // (and one /proc/stat tick per CPU of rounding) when there was any.
    let steal = steal_ns() - steal0;
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get()) as f64;
    let allowance = if steal > 0 { steal as f64 + cpus * 10e6 } else { 0.0 };
    eprintln!("steal during the run: {steal} ns");
    if !mode.contains("compensate=off") && mode.contains("calls=probes") {
        let probes = in_probes(&out, "task-clock");
        let each: u64 = (0..4).map(|i| thread(&v, &format!("spinner-{i}"))["in_probes"]["task-clock"].as_u64().unwrap_or(0)).sum();
        eprintln!("in the probes' code: {probes} ns in all, {each} ns in the spinners");
        assert!(each > 0 && probes >= each, "{mode}: the probes' own code is measured per thread and in all: {each} of {probes} ns");
    }
    for (i, _, tc, p) in &rows {
        assert!(*p > 20_000_000, "{mode}: spinner-{i} burnt at least 20 ms: {p}");
        let (tc, p) = (*tc as f64, *p as f64);
        assert!(tc >= p * 0.95, "spinner-{i}: task-clock {tc} ns below /proc {p} ns by more than 5%");
        assert!(
            tc <= p * 1.05 + allowance,
            "spinner-{i}: task-clock {tc} ns vs /proc {p} ns ({:+.2}%), more than 5% plus the {steal} ns of steal recorded",
            (tc - p) * 100.0 / p
        );
    }
    // More work, more CPU: the spinners ran 1, 2, 3, 4 units. Interpreted (JVMTI events) a unit
    // costs the same throughout; compiled, the first spinners pay for the JIT's warm-up (spinner-0
    // was seen at 63 ms against spinner-3's 111 ms), so only the order is certain.
    let factor = if mode == "calls=jvmti" { 2 } else { 1 };
    assert!(rows[3].2 > rows[0].2 * factor, "{mode}: {rows:?}");
    // The table in threads.txt shows the tid and the share.
    let text = std::fs::read_to_string(out.join("threads.txt")).unwrap();
    assert!(text.contains("share% is of all threads' task-clock"), "{text}");
    assert!(text.lines().any(|l| l.contains(&format!(" {} ", rows[0].1)) && l.ends_with("spinner-0")), "{text}");
    std::fs::remove_dir_all(&out).unwrap();
}

/// (b) Page faults land on the method that touches 64 MiB of fresh memory.
#[test]
fn page_faults_land_on_the_allocating_method() {
    let jdk = java_tests::jdk().unwrap();
    let r = run("counters-faults", &jdk, "counters.Faults", "event=page-faults,socket=off", &["-Xmx512m"], &[]);
    r.assert_ok();
    let p = r.calls();
    let main = "calls.counters.Faults.main";
    let (_, touch) = base(&p, "main", &format!("{main};calls.counters.Faults.touch"), "page-faults");
    let (calls, compute) = base(&p, "main", &format!("{main};calls.counters.Faults.compute"), "page-faults");
    assert_eq!(calls, 2);
    let k = p.bindings.metric_index("page-faults").unwrap();
    let thread_total = p.threads.iter().find(|t| t.name == "main").unwrap().tree.total()[k];
    eprintln!("page-faults: touch {touch}, compute {compute}, main thread {thread_total}");
    // 64 MiB in 4 KiB pages is 16384 faults (fewer with huge pages).
    assert!(touch >= 8_000, "touch: {touch} page faults");
    assert!(touch * 2 > thread_total, "touch has most of main's faults: {touch} of {thread_total}");
    assert!(compute * 10 < touch, "compute {compute} vs touch {touch}");
    // Page faults are counts: no compensation.
    let raw = read_profile(&r.out.join("arcflow-raw.json"));
    assert_eq!(base(&raw, "main", &format!("{main};calls.counters.Faults.touch"), "page-faults").1, touch);
    assert!(r.file("compensation.txt").lines().any(|l| l.starts_with("page-faults") && l.contains(" no ")));
}

/// (c) A thread that sleeps 40 times has at least 40 context switches in nap() when kernel-side
/// counting is permitted; otherwise the refusal says why and how to fix it.
#[test]
fn context_switches_of_a_sleeping_thread() {
    let jdk = java_tests::jdk().unwrap();
    // Exact attribution of each switch to nap() needs counters read at every event (JVMTI method
    // events); with bytecode probes counters are sampled (agent/tests/probes.rs).
    let r = run("counters-cs", &jdk, "counters.Naps", "calls=jvmti,event=context-switches,event=task-clock,socket=off", &[], &[]);
    r.assert_ok();
    let p = r.calls();
    let err = r.stderr();
    if hpm_collectors::counters::kernel_counting_permitted() {
        // The lambda's frames are named differently by each JDK: find the context ending in nap().
        let path = contexts(&p, "napper").into_keys().find(|k| k.ends_with(";calls.counters.Naps.nap")).expect("nap() context");
        let (calls, cs) = base(&p, "napper", &path, "context-switches");
        eprintln!("nap: {calls} call(s), {cs} context switches");
        assert_eq!(calls, 1);
        assert!(cs >= 40, "nap slept 40 times: {cs} context switches\n{err}");
        assert!(cs < 400, "{cs}");
    } else {
        assert!(p.bindings.metric_index("context-switches").is_none());
        let l = err.lines().find(|l| l.contains("`context-switches`")).unwrap_or_else(|| panic!("no refusal line: {err}"));
        assert!(l.contains("perf_event_paranoid") && l.contains("fix"), "{l}");
    }
}

/// (d) `cycles` on a machine without a PMU is refused with one clear line; the run completes with the
/// other events, the counters table has no IPC and says so.
#[test]
fn cycles_refused_without_a_pmu_and_the_others_counted() {
    let jdk = java_tests::jdk().unwrap();
    let r = run("counters-cycles", &jdk, "counters.Busy", "event=cycles,event=instructions,event=task-clock,socket=off", &[], &["2000"]);
    r.assert_ok();
    let p = r.calls();
    let v = threads_json(&r);
    let names: Vec<&str> = p.bindings.metrics.iter().map(|m| m.name.as_str()).collect();
    let err = r.stderr();
    let pmu = !err.lines().any(|l| l.contains("`cycles`"));
    if pmu {
        // A machine with a PMU: both counted, IPC computed.
        assert!(names.contains(&"cycles") && names.contains(&"instructions"));
        assert!(thread(&v, "main")["ipc"].as_f64().unwrap() > 0.0);
        assert!(r.file("xprof.txt").contains("IPC"));
        return;
    }
    let lines: Vec<&str> = err.lines().filter(|l| l.contains("`cycles`")).collect();
    assert_eq!(lines.len(), 1, "{err}");
    assert!(lines[0].starts_with("hpmagent: warning:") && lines[0].contains("no hardware PMU") && lines[0].contains("ENOENT"), "{}", lines[0]);
    assert!(!names.contains(&"cycles"), "{names:?}");
    assert!(names.contains(&"task-clock"), "{names:?}");
    assert!(total(thread(&v, "main"), "task-clock") > 0);
    assert!(thread(&v, "main")["ipc"].is_null());
    assert!(r.file("threads.txt").contains("IPC: not computed"));
    assert!(!r.file("xprof.txt").contains("IPC"));
    assert_eq!(v["share_metric"], "task-clock");
}

/// perf stat's task-clock (ms) from its CSV output (`-x,`).
fn perf_stat_task_clock_ns(csv: &str) -> Option<u64> {
    csv.lines().find(|l| l.contains(",task-clock")).and_then(|l| l.split(',').next()?.trim().parse::<f64>().ok()).map(|ms| (ms * 1e6) as u64)
}

/// (e) The task-clock summed over all threads never exceeds what `perf stat -e task-clock` counts
/// for the whole process, and for a single-threaded program the busiest thread has most of the sum.
#[test]
fn task_clock_sum_within_perf_stat_and_busiest_thread_dominates() {
    let perf = ["/usr/bin/perf", "/usr/local/bin/perf"].into_iter().find(|p| std::path::Path::new(p).is_file());
    let Some(perf) = perf else {
        panic!("`perf` is not installed on this machine: this test needs it (apt-get install linux-perf)");
    };
    let jdk = java_tests::jdk().unwrap();
    let out = out_dir("counters-perfstat", &jdk);
    let stat = out.with_extension("perfstat.csv");
    let opts = format!("out={},perf-map=off,socket=off,event=task-clock", out.display());
    let java = command(&jdk, "counters.Busy", &opts, &[], &["30000"]);
    let mut c = std::process::Command::new(perf);
    c.args(["stat", "-x,", "-e", "task-clock", "-o"]).arg(&stat).arg("--").arg(java.get_program()).args(java.get_args());
    let output = c.output().expect("running perf stat");
    let r = Run { out, output };
    r.assert_ok();
    let csv = std::fs::read_to_string(&stat).unwrap();
    let whole = perf_stat_task_clock_ns(&csv).unwrap_or_else(|| panic!("no task-clock in perf stat output:\n{csv}"));
    let v = threads_json(&r);
    let per: Vec<(String, u64)> =
        v["threads"].as_array().unwrap().iter().map(|t| (t["name"].as_str().unwrap().to_string(), total(t, "task-clock"))).collect();
    let sum: u64 = per.iter().map(|x| x.1).sum();
    let (busiest, most) = per.iter().max_by_key(|x| x.1).cloned().unwrap();
    eprintln!("perf stat task-clock {whole} ns; threads sum {sum} ns; busiest {busiest} {most} ns ({:.1}% of the sum, {:.1}% of perf stat)",
        most as f64 * 100.0 / sum as f64, most as f64 * 100.0 / whole as f64);
    assert!(sum <= whole, "threads' task-clock {sum} ns exceeds perf stat's {whole} ns");
    assert_eq!(busiest, "main");
    assert!(most as f64 >= 0.9 * sum as f64, "main {most} of {sum}");
    // No bound on main's share of the whole process: HotSpot's JIT compiler threads are hidden from
    // JVMTI (not in the sum) and their CPU varies from run to run (one CI run: main 0.84 s of 2.36 s).
}

/// (f) Overhead compensation: the base of a tiny method per call, compensated, is closer to the CPU
/// time of its body measured without calls than the raw base is.
#[test]
fn compensation_brings_tiny_methods_closer_to_their_true_cost() {
    let jdk = java_tests::jdk().unwrap();
    // The JVMTI path's calibration; the probes' is tested in agent/tests/probes.rs.
    // Five rounds interleave the timing of the body with the calls, so a load burst on a shared
    // machine slows both alike (one CI run timed the body in a single round and failed).
    let r = run("counters-tiny", &jdk, "counters.Tiny", "calls=jvmti,socket=off", &[], &["20000", "5"]);
    r.assert_ok();
    let truth = tiny_true_ns_per_call(&r);
    let path = "calls.counters.Tiny.main;calls.counters.Tiny.calls;calls.counters.Tiny.tiny";
    let comp = r.calls();
    let raw = read_profile(&r.out.join("arcflow-raw.json"));
    let (calls, c) = base(&comp, "main", path, "cpu-time");
    let (calls_raw, rw) = base(&raw, "main", path, "cpu-time");
    assert_eq!(calls, calls_raw);
    assert_eq!(calls, 100_000);
    let (c, rw) = (c as f64 / calls as f64, rw as f64 / calls as f64);
    let (err_c, err_r) = ((c - truth).abs(), (rw - truth).abs());
    eprintln!(
        "tiny(): true {truth:.1} ns/call; raw {rw:.1} ns/call (error {err_r:.1}, {:.0}%); compensated {c:.1} ns/call (error {err_c:.1}, {:.0}%)",
        err_r * 100.0 / truth,
        err_c * 100.0 / truth
    );
    eprintln!("{}", r.file("compensation.txt"));
    assert!(c < rw, "compensation removed something");
    assert!(err_c < err_r, "compensated error {err_c:.1} ns >= raw error {err_r:.1} ns");
    // compensate=off: the reports show the raw values and there is no compensation file.
    let off = run("counters-tiny-off", &jdk, "counters.Tiny", "calls=jvmti,socket=off,compensate=off", &[], &["1000"]);
    off.assert_ok();
    assert!(!off.out.join("compensation.txt").exists() && !off.out.join("arcflow-raw.json").exists());
    assert!(threads_json(&off)["compensation"].is_null());
}
