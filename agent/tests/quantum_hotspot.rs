//! Quantum traces on HotSpot (`quantum`): from the kernel's context switches, one processor per
//! CPU. A program with known busy phases and sleeps (`java-tests/workloads/phases`) prints what
//! the kernel says each worker ran (`/proc/thread-self/schedstat`); the trace must agree.

mod common;

use std::collections::BTreeMap;
use std::process::Command;

use common::*;
use hpm_collectors::counters::{perf_event_paranoid, STEAL_TICK_NS};
use hpm_model::quantum::{read_dir, Entry, MarkerKind, ThreadKind, Trace};

/// Runs `QuantumPhases 2 10 30 20` with `options`; returns the trace directory's reading (None if
/// no trace), stdout and stderr.
fn phases(test: &str, jdk: &java_tests::Jdk, options: &str, user: Option<&str>) -> (std::path::PathBuf, String, String) {
    let classes = java_tests::compile("workloads").expect("compiling java-tests/workloads");
    let out = out_dir(test, jdk);
    std::fs::create_dir_all(&out).unwrap();
    let mut c = match user {
        Some(uid) => {
            // The unprivileged user's own directory (the agent refuses one every user may write).
            let id: u32 = uid.parse().expect("a numeric uid");
            std::os::unix::fs::chown(&out, Some(id), Some(id)).unwrap();
            let mut c = Command::new("setpriv");
            c.args([&format!("--reuid={uid}"), &format!("--regid={uid}"), "--clear-groups"]).arg(jdk.java());
            c
        }
        None => Command::new(jdk.java()),
    };
    let o = c
        .arg(format!("-agentpath:{}=out={},socket=off,{options}", agent_lib().display(), out.display()))
        .arg("-cp")
        .arg(&classes)
        .args(["phases.QuantumPhases", "2", "10", "30", "20"])
        .output()
        .expect("running java");
    let (stdout, stderr) = (String::from_utf8_lossy(&o.stdout).into_owned(), String::from_utf8_lossy(&o.stderr).into_owned());
    assert!(o.status.success() && stdout.contains("phases done"), "{}\n{stdout}\n{stderr}", o.status);
    (out, stdout, stderr)
}

/// `worker TID ran NS` lines.
fn workers(stdout: &str) -> BTreeMap<u32, u64> {
    stdout
        .lines()
        .filter_map(|l| l.strip_prefix("worker "))
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f[0].parse().unwrap(), f[2].parse().unwrap())
        })
        .collect()
}

fn cpu_index(t: &Trace) -> usize {
    // Counter 0 is real time (not stored); deltas start at counter 1.
    t.meta.counters.iter().position(|c| c == "cpu-time").expect("a cpu-time counter") - 1
}

/// On JDK 17 and 25: the trace is valid with no warning; each worker's quanta add up to the run
/// time the kernel gives for it within 2%, in CPU time and in span (above, plus the hypervisor's
/// steal, which the kernel's run time leaves out), and their spans cover at least 99% of it (seen:
/// 100.0–100.3%); its 10 sleeps end quanta with the yield sign; the
/// run markers are in the trace; threads are named and the writer thread is in the trace as the
/// `writer`.
#[test]
fn java_threads_quanta_match_the_kernels_run_time() {
    for jdk in jdks() {
        let steal0 = hpm_collectors::counters::steal_ns();
        let (out, stdout, stderr) = phases("quantum-hotspot", &jdk, "quantum,calls=none,collect=none", None);
        // The kernel's run time (schedstat) leaves out hypervisor steal; the records' spans and
        // task-clock keep it (docs/counters.md): above, they may exceed it by the steal of all
        // CPUs meanwhile.
        let steal = hpm_collectors::counters::steal_since(steal0);
        let trace = read_dir(&out).unwrap_or_else(|e| panic!("{e}\n{stderr}"));
        assert!(trace.is_valid() && trace.issues.is_empty(), "{:?}\n{stderr}", trace.issues);
        let ran = workers(&stdout);
        assert_eq!(ran.len(), 2, "{stdout}");
        let cpu = cpu_index(&trace);
        let nproc = std::thread::available_parallelism().unwrap().get() as u32;
        for (tid, ns) in &ran {
            let mine: Vec<_> = trace.quanta().filter(|q| q.thread == *tid).collect();
            let cpu_sum: u64 = mine.iter().map(|q| q.deltas[cpu]).sum();
            let span: u64 = mine.iter().map(|q| q.end - q.start).sum();
            // Within 2% below, and 2% plus the steal above (which /proc/stat gives in whole ticks,
            // so up to one tick more than it says).
            let near = |x: u64| x as f64 > 0.98 * *ns as f64 && (x as f64) < 1.02 * *ns as f64 + (steal + STEAL_TICK_NS) as f64;
            eprintln!("{:?} worker {tid}: {} quanta, cpu-time {cpu_sum}, span {span}, schedstat {ns}, steal {steal}", jdk.home, mine.len());
            assert!(near(cpu_sum) && near(span), "worker {tid}: cpu-time {cpu_sum} ns, span {span} ns, schedstat {ns} ns, steal {steal} ns");
            // The records cover at least 99% of the thread's running time.
            assert!(span as f64 >= 0.99 * *ns as f64, "worker {tid}: records span {span} ns of {ns} ns run");
            assert!(mine.iter().filter(|q| q.yielded).count() >= 10, "every sleep ends a quantum with the yield sign");
            assert!(mine.iter().all(|q| q.vp < nproc), "processors are CPUs");
            assert_eq!(trace.meta.processor_kind, "cpu");
            let info = trace.meta.thread(*tid).unwrap();
            assert!(info.kind == ThreadKind::App && info.name.starts_with("phases-"), "{info:?}");
        }
        // The thread that ran `main` comes back to the VM as DestroyJavaVM: both names, main first
        // (it was listed as DestroyJavaVM alone).
        let main = trace.meta.threads.iter().find(|t| t.name.starts_with("main")).unwrap_or_else(|| panic!("{:?}", trace.meta.threads));
        assert_eq!((main.kind, main.name.as_str()), (ThreadKind::App, "main, then DestroyJavaVM"), "{:?}", trace.meta.threads);
        let writer: Vec<_> = trace.meta.threads.iter().filter(|t| t.kind == ThreadKind::Writer).collect();
        assert!(writer.len() == 1 && trace.quanta().any(|q| q.thread == writer[0].id), "{writer:?}");
        let marks: Vec<(MarkerKind, i32, String)> = trace
            .merged()
            .filter_map(|e| match e {
                Entry::Marker(m) => Some((m.kind, m.run, m.text.clone())),
                _ => None,
            })
            .collect();
        assert_eq!(marks, [(MarkerKind::RunStart, 1, "phases".to_string()), (MarkerKind::RunComplete, 1, "phases".to_string())]);
    }
}

/// `quantum=all` traces the VM's own threads too: the JIT compilers' quanta are in the trace.
#[test]
fn quantum_all_traces_the_vms_threads() {
    let jdk = java_tests::jdk().unwrap();
    let (out, _, stderr) = phases("quantum-hotspot-all", &jdk, "quantum=all,calls=none,collect=none", None);
    let trace = read_dir(&out).unwrap();
    assert!(trace.is_valid(), "{:?}\n{stderr}", trace.issues);
    let compilers: Vec<u32> = trace.meta.threads.iter().filter(|t| t.name.contains("CompilerThre")).map(|t| t.id).collect();
    assert!(!compilers.is_empty() && trace.quanta().any(|q| compilers.contains(&q.thread)), "{:?}", trace.meta.threads);
    // Kind `jit`, as vm-cost.txt names them (they were `system`).
    assert!(trace.meta.threads.iter().all(|t| !t.name.contains("CompilerThre") || t.kind == ThreadKind::Jit), "{:?}", trace.meta.threads);
    // The JVM's names, not the kernel's 15 bytes of them ("C2 CompilerThre").
    let names: Vec<&str> = trace.meta.threads.iter().map(|t| t.name.as_str()).collect();
    for whole in ["C1 CompilerThread0", "C2 CompilerThread0", "Monitor Deflation Thread", "VM Thread"] {
        assert!(names.contains(&whole), "{whole}: {names:?}");
    }
    assert!(!names.iter().any(|n| ["C2 CompilerThre", "VM Periodic Tas", "Monitor Deflati"].contains(n)), "{names:?}");
    // The agent's explorer page, written once the traces were complete, holds every record.
    let data = explorer_data(&out.join("explore.html"));
    let records = data["trace"]["threads"].as_array().map(|t| t.len());
    assert_eq!(records, Some(trace.meta.threads.len()), "the page's trace threads");
    assert_eq!(data["trace"]["processorKind"], "cpu", "{}", data["trace"]["processorKind"]);
    assert_eq!(data["trace"]["missed"], 0);
}

/// `quantum=tick` needs the research VM's timer: on HotSpot it is one warning, and the trace has a
/// record per context switch as with `quantum`.
#[test]
fn quantum_tick_on_hotspot_is_one_warning_and_a_switch_trace() {
    let jdk = java_tests::jdk().unwrap();
    let (out, _, stderr) = phases("quantum-hotspot-tick", &jdk, "quantum=tick,calls=none,collect=none", None);
    let warnings: Vec<&str> = stderr.lines().filter(|l| l.contains("warning")).collect();
    assert_eq!(warnings, ["hpmagent: warning: quantum=tick needs the research VM's timer ticks; HotSpot's trace has a record per context switch, as with quantum=switch"]);
    let trace = read_dir(&out).unwrap();
    assert!(trace.is_valid() && trace.quanta().all(|q| q.thread_switch), "{:?}", trace.issues);
    assert!(stderr.contains("hpmagent: quantum traces written to"), "{stderr}");
}

/// As an unprivileged user with `perf_event_paranoid` above 1, `quantum` is refused with one line
/// naming the setting and the fixes, and the program and the other reports carry on.
#[test]
fn an_unprivileged_jvm_is_refused_one_line_and_carries_on() {
    if !is_root() {
        eprintln!("not root: cannot drop privileges for this test");
        return;
    }
    let jdk = java_tests::jdk().unwrap();
    let (out, _, stderr) = phases("quantum-hotspot-nobody", &jdk, "quantum,calls=none,collect=gc", Some("65534"));
    let lines: Vec<&str> = stderr.lines().filter(|l| l.contains("quantum:")).collect();
    if perf_event_paranoid().unwrap_or(2) > 1 {
        assert_eq!(lines.len(), 1, "{stderr}");
        assert!(lines[0].contains("perf_event_paranoid is") && lines[0].contains("CAP_PERFMON") && lines[0].contains("no quantum trace"), "{}", lines[0]);
        assert!(!out.join("quantum.meta").exists());
    } else {
        assert!(out.join("quantum.meta").exists(), "{stderr}");
    }
    assert!(out.join("gc.txt").exists(), "the other reports are written: {stderr}");
}

/// Loaded into a running JVM (`hpm attach`): the application's threads already running are traced
/// from their next switch in (the attaching thread and HotSpot's own threads are not), and the
/// trace is valid; each worker's traced CPU is the part of its run after the attach.
#[test]
fn attached_later_traces_the_running_application_threads() {
    let jdk = java_tests::jdk().unwrap();
    let classes = java_tests::compile("workloads").expect("compiling java-tests/workloads");
    let out = out_dir("quantum-hotspot-attach", &jdk);
    let child = Command::new(jdk.java())
        .arg("-cp")
        .arg(&classes)
        .args(["phases.QuantumPhases", "2", "40", "30", "20"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("running java");
    // The JVM's library is mapped before `hpm attach` can find it: on a loaded machine (other tests
    // running) that took more than a fixed half second. Then half a second for the workers to start.
    wait_for_libjvm(child.id(), std::time::Duration::from_secs(20));
    std::thread::sleep(std::time::Duration::from_millis(500));
    let attach = Command::new(hpm_binary())
        .args(["attach", &child.id().to_string(), &format!("out={}", out.display()), "quantum,calls=none,collect=none,socket=off", "--agent-lib"])
        .arg(agent_lib())
        .output()
        .unwrap();
    assert!(attach.status.success(), "hpm attach: {}", String::from_utf8_lossy(&attach.stderr));
    let o = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(o.status.success() && stdout.contains("phases done"), "{stdout}");
    let trace = read_dir(&out).unwrap();
    assert!(trace.is_valid(), "{:?}", trace.issues);
    let cpu = cpu_index(&trace);
    for (tid, ns) in workers(&stdout) {
        let traced: u64 = trace.quanta().filter(|q| q.thread == tid).map(|q| q.deltas[cpu]).sum();
        // Attached after about a quarter of the 2 s run.
        assert!(traced > ns / 3 && traced < ns, "worker {tid}: {traced} ns traced of {ns} ns run");
        assert!(trace.meta.thread(tid).is_some_and(|t| t.name.starts_with("phases-") && t.kind == ThreadKind::App));
    }
    assert!(trace.meta.threads.iter().all(|t| t.name != "Attach Listener" && !t.name.starts_with("C2 Compiler")), "{:?}", trace.meta.threads);
}


/// With stack samples (`sample=cpu`), a quantum that holds samples of its thread gets the Java
/// method most of them were in: the workers' busy quanta are `phases.QuantumPhases.work`, named
/// in `quantum.meta`, and the trace stays valid; quanta shorter than the sampling interval may
/// have none. Root or `perf_event_paranoid` <= 1 (switch records).
#[test]
fn quanta_get_their_top_method_from_the_stack_samples() {
    if !is_root() && perf_event_paranoid().unwrap_or(2) > 1 {
        eprintln!("no switch records for this user: skipped");
        return;
    }
    for jdk in jdks() {
        let (out, stdout, _) = phases("quantum-hotspot-top", &jdk, "quantum,calls=none,collect=none,sample=cpu,sample-interval=1ms", None);
        let trace = read_dir(&out).unwrap();
        assert!(trace.is_valid(), "{:?}", trace.issues);
        let cpu = cpu_index(&trace);
        let workers = workers(&stdout);
        let name = |callee: u32| trace.meta.method(callee).map(|m| format!("{}.{}", m.class.replace('/', "."), m.name));
        let busy: Vec<_> = trace.quanta().filter(|q| workers.contains_key(&q.thread) && q.deltas[cpu] >= 3_000_000).collect();
        let named = busy.iter().filter(|q| name(q.callee).as_deref() == Some("phases.QuantumPhases.work")).count();
        eprintln!("{:?}: {} busy worker quanta, {named} named work(); {} methods in the meta", jdk.home, busy.len(), trace.meta.methods.len());
        // 20 busy periods of 30 ms; a loaded machine cuts some into quanta under 3 ms.
        assert!(busy.len() >= 8 && named * 10 >= busy.len() * 9, "{named} of {} busy quanta named work()", busy.len());
        assert!(trace.quanta().all(|q| q.callee == 0 || name(q.callee).is_some()), "a callee the meta does not name");
    }
}
