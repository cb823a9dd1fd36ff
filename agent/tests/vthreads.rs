//! Virtual threads (JDK 21+) on HotSpot: each one gets its own call tree, whichever carriers run
//! it, and with `quantum` one record per mount on a carrier. `java-tests/jdk21/vthreads/MountPhases`
//! prints, per virtual thread, the calls it made and the time it spent in its busy phases.

mod common;

use std::collections::BTreeMap;
use std::path::PathBuf;

use common::*;
use hpm_model::quantum::read_dir;

/// The newest JDK 21 or later: virtual threads need one (Temurin 25 is expected on these machines).
fn jdk21() -> java_tests::Jdk {
    java_tests::all_jdks()
        .into_iter()
        .rfind(|j| j.feature_version().unwrap_or(0) >= 21)
        .expect("no JDK 21 or newer under /usr/lib/jvm: virtual threads need one (Temurin 25 is expected on these machines)")
}

/// Compiles `java-tests/jdk21/vthreads` with `jdk` (once per test binary).
fn classes(jdk: &java_tests::Jdk) -> PathBuf {
    static DONE: std::sync::Mutex<Option<PathBuf>> = std::sync::Mutex::new(None);
    let mut done = DONE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(p) = done.as_ref() {
        return p.clone();
    }
    let out = java_tests::class_root().join("jdk21-vthreads");
    let dir = java_tests::source_root().join("jdk21/vthreads");
    let sources: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "java")).collect();
    let ok = std::process::Command::new(jdk.javac()).arg("-d").arg(&out).args(&sources).status().expect("javac");
    assert!(ok.success(), "compiling {}", dir.display());
    *done = Some(out.clone());
    out
}

/// What one virtual thread printed.
struct Line {
    work: u64,
    leaf: u64,
    busy: u64,
    /// Its first statement, the call to and return from each sleep, its last statement (ns of
    /// CLOCK_MONOTONIC, as `System.nanoTime` reads it on Linux).
    times: Vec<u64>,
}

type Printed = BTreeMap<String, Line>;

/// Runs `MountPhases THREADS ROUNDS 20 10` with `options`; returns the output directory, what
/// each virtual thread printed, and stderr.
fn mount_phases(test: &str, options: &str, threads: u32, rounds: u32) -> (PathBuf, Printed, String) {
    let jdk = jdk21();
    let out = out_dir(test, &jdk);
    let o = std::process::Command::new(jdk.java())
        .arg(format!("-agentpath:{}=out={},socket=off,perf-map=off,{options}", agent_lib().display(), out.display()))
        .arg("-cp")
        .arg(classes(&jdk))
        .args(["vthreads.MountPhases", &threads.to_string(), &rounds.to_string(), "20", "10"])
        .output()
        .expect("running java");
    let (stdout, stderr) = (String::from_utf8_lossy(&o.stdout).into_owned(), String::from_utf8_lossy(&o.stderr).into_owned());
    assert!(o.status.success() && stdout.contains("mount phases done"), "{}\n{stdout}\n{stderr}", o.status);
    let printed: Printed = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("vthread "))
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let times = f[8..].iter().map(|t| t.parse().unwrap()).collect();
            (f[0].to_string(), Line { work: f[2].parse().unwrap(), leaf: f[4].parse().unwrap(), busy: f[6].parse().unwrap(), times })
        })
        .collect();
    assert_eq!(printed.len(), threads as usize, "{stdout}");
    (out, printed, stderr)
}

const LAMBDA: &str = "vthreads.MountPhases.lambda$main$";
const PHASES: &str = "vthreads.MountPhases.phases";
const WORK: &str = "vthreads.MountPhases.work";
const LEAF: &str = "vthreads.MountPhases.leaf";

/// Each virtual thread has a tree of its own with exactly the calls it made (with bytecode probes,
/// sampled or exact, and with JVMTI method events), the carriers have none of them, and the CPU
/// time of its work goes to it, not to its carriers (which only run the scheduler around it).
#[test]
fn each_virtual_thread_has_its_own_exact_call_tree() {
    // Probes with sampled metrics (`auto` here, where a read is a system call), with metrics read
    // at every change of context (the carrier's sampler settles at every mount), and JVMTI.
    // Uncompensated: in exact mode most of a tiny method's measured time is the probes' own reads,
    // which compensation takes off the virtual threads' contexts but not off the carriers'.
    let configs = [("probes", "calls=probes,compensate=off"), ("exact", "calls=probes,metric-mode=exact,compensate=off"), ("jvmti", "calls=jvmti,compensate=off")];
    for (test, calls) in configs {
        let (out, printed, stderr) = mount_phases(&format!("vthreads-trees-{test}"), calls, 4, 5);
        assert!(!stderr.contains("not recorded apart"), "calls={calls}: {stderr}");
        let p = read_profile(&out.join("arcflow.json"));
        let mut virtual_cpu = 0;
        for (name, &Line { work, leaf, .. }) in &printed {
            let th = p.threads.iter().find(|t| &t.name == name).unwrap_or_else(|| panic!("calls={calls}: no tree for {name}"));
            assert_eq!(th.kind.as_deref(), Some("virtual"), "calls={calls}: {name}");
            let got = contexts(&p, name);
            // The thread's body is a lambda of `main` (its number is javac's choice).
            let lambda = got.keys().find(|k| !k.contains(';')).cloned().unwrap_or_default();
            assert!(lambda.starts_with(LAMBDA), "calls={calls}: {name}'s tree: {got:?}");
            let path = |rest: &str| format!("{lambda};{PHASES}{rest}");
            let want: BTreeMap<String, u64> =
                [(lambda.clone(), 1), (path(""), 1), (path(&format!(";{WORK}")), work), (path(&format!(";{WORK};{LEAF}")), leaf)].into();
            assert_eq!(got, want, "calls={calls}: {name}'s tree");
            let cpu = th.tree.total()[0];
            assert!(cpu > 0, "calls={calls}: {name} was credited no cpu-time");
            virtual_cpu += cpu;
        }
        let mut carrier_cpu = 0;
        for t in p.threads.iter().filter(|t| t.name.starts_with("ForkJoinPool")) {
            let c = contexts(&p, &t.name);
            assert!(!c.keys().any(|k| k.contains(WORK)), "calls={calls}: carrier {} has the virtual threads' calls: {c:?}", t.name);
            carrier_cpu += t.tree.total()[0];
        }
        // However loaded the machine, the work is the virtual threads': a carrier credited with
        // what it ran for them would hold most of it.
        assert!(virtual_cpu > 2 * carrier_cpu, "calls={calls}: virtual threads {virtual_cpu} ns of cpu-time, their carriers {carrier_cpu} ns");
    }
}

/// With `quantum`, `DIR/vthreads` holds one record per mount, the carrier as the processor: a
/// valid trace whose records of each virtual thread add up to the time it ran. On the clock the
/// program and the trace share, each virtual thread's records cover everything it ran (from its
/// first statement to its first sleep, from each return to the next sleep, to its last
/// statement), and each gap between two of them lies inside one of its sleeps: their sum is its
/// run time, give or take the parts of the sleep calls it spent mounted.
#[test]
fn mount_records_add_up_to_each_virtual_threads_run_time() {
    let rounds = 5;
    let (out, printed, stderr) = mount_phases("vthreads-quantum", "quantum", 4, rounds);
    assert!(stderr.contains(&format!("quantum traces written to {}", out.join("vthreads").display())), "{stderr}");
    let trace = read_dir(&out.join("vthreads")).unwrap();
    assert!(trace.is_valid() && trace.issues.is_empty(), "{:?}", trace.issues);
    assert_eq!(trace.meta.processor_kind, "carrier");
    assert!(!trace.meta.processors.is_empty() && trace.meta.processors.iter().all(|(_, n)| n.starts_with("ForkJoinPool-")), "{:?}", trace.meta.processors);
    let cpu = trace.meta.counters.iter().position(|c| c == "cpu-time").expect("cpu-time is counted") - 1;
    for (name, line) in &printed {
        let busy = line.busy;
        let id = trace.meta.threads.iter().find(|t| &t.name == name).unwrap_or_else(|| panic!("{name} is not in the trace")).id;
        let mut records: Vec<_> = trace.quanta().filter(|q| q.thread == id).collect();
        records.sort_by_key(|q| q.start);
        // A mount from the start to the first sleep, one after each sleep.
        assert_eq!(records.len(), rounds as usize + 1, "{name}: {} records", records.len());
        let t = &line.times;
        assert_eq!(t.len(), 2 * rounds as usize + 2, "{name}'s times");
        assert!(records[0].start <= t[0], "{name}: its first record starts at {}, after its first statement at {}", records[0].start, t[0]);
        assert!(records[rounds as usize].end >= t[t.len() - 1], "{name}: its last record ends before its last statement");
        let mut outside_sleeps = t[t.len() - 1] - t[0];
        for r in 0..rounds as usize {
            let (call, back) = (t[1 + 2 * r], t[2 + 2 * r]);
            outside_sleeps -= back - call;
            let (left, next) = (records[r].end, records[r + 1].start);
            assert!(call <= left && left <= next && next <= back, "{name}: the gap between mounts {r} and {} ({left}..{next}) is not inside sleep {r} ({call}..{back})", r + 1);
        }
        assert!(records.iter().all(|q| q.yielded), "{name}: a virtual thread leaves its carrier by itself");
        let span: u64 = records.iter().map(|q| q.end - q.start).sum();
        assert!(span >= outside_sleeps && outside_sleeps >= busy, "{name}: mounted {span} ns, ran {outside_sleeps} ns outside its sleeps, busy {busy} ns");
        eprintln!("{name}: mounted {span} ns; ran {outside_sleeps} ns outside its sleeps ({:+.2}%), busy {busy} ns", (span as f64 / outside_sleeps as f64 - 1.0) * 100.0);
        let used: u64 = records.iter().map(|q| q.deltas[cpu]).sum();
        assert!(used > 0 && used <= span + 1_000_000, "{name}: {used} ns of CPU in {span} ns mounted");
    }
    let hpm = std::process::Command::new(hpm_binary()).arg("trace").arg(&out).output().unwrap();
    let text = String::from_utf8_lossy(&hpm.stdout);
    if trace_of_os_threads_written(&out) {
        assert!(text.contains("Virtual threads: their mounts on carrier threads are traced in"), "{text}");
    }
    let hpm = std::process::Command::new(hpm_binary()).arg("trace").arg(out.join("vthreads")).output().unwrap();
    let text = String::from_utf8_lossy(&hpm.stdout);
    assert!(hpm.status.success(), "{text}");
    assert!(text.contains("Processors: carrier threads") && text.contains("carrier 0 (ForkJoinPool-"), "{text}");
}

/// The OS threads' trace is written where the kernel grants switch records (root in CI).
fn trace_of_os_threads_written(out: &std::path::Path) -> bool {
    out.join(hpm_model::quantum::META_FILE).exists()
}

/// Many short virtual threads: output unchanged, one tree each with its exact calls, no warning.
#[test]
fn a_thousand_virtual_threads_run_unchanged_with_a_tree_each() {
    let jdk = jdk21();
    let run_one = |agent: Option<(&str, &std::path::Path)>| {
        let mut c = std::process::Command::new(jdk.java());
        if let Some((calls, out)) = agent {
            c.arg(format!("-agentpath:{}=out={},calls={calls},perf-map=off,socket=off", agent_lib().display(), out.display()));
        }
        let o = c.arg("-cp").arg(classes(&jdk)).arg("vthreads.VirtualThreads").output().expect("running java");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        (String::from_utf8_lossy(&o.stdout).into_owned(), String::from_utf8_lossy(&o.stderr).into_owned())
    };
    let (plain, _) = run_one(None);
    for calls in ["probes", "jvmti"] {
        let out = out_dir(&format!("vthreads-1000-{calls}"), &jdk);
        let (recorded, err) = run_one(Some((calls, &out)));
        assert_eq!(plain, recorded, "calls={calls}");
        assert!(!err.contains("not recorded apart"), "calls={calls}: {err}");
        let p = read_profile(&out.join("arcflow.json"));
        let virtual_threads: Vec<_> = p.threads.iter().filter(|t| t.kind.as_deref() == Some("virtual")).collect();
        assert_eq!(virtual_threads.len(), 1000, "calls={calls}");
        for t in virtual_threads {
            let c = contexts(&p, &t.name);
            let want = map(&[
                ("vthreads.VirtualThreads.lambda$main$0", 1),
                ("vthreads.VirtualThreads.lambda$main$0;vthreads.VirtualThreads.work", 1),
                ("vthreads.VirtualThreads.lambda$main$0;vthreads.VirtualThreads.work;vthreads.VirtualThreads.leaf", 1000),
            ]);
            assert_eq!(c, want, "calls={calls}: {}", t.name);
        }
    }
}

/// Two virtual threads mounted at once on two carriers store their contexts on two lines of the
/// carriers' own (each carrier's mount cell), not into neighbouring 4-byte parking cells:
/// `vthreads.MountCells` prints the cell each one's probes store into while both run.
#[test]
fn mounted_virtual_threads_store_into_their_carriers_own_lines() {
    let jdk = jdk21();
    let out = out_dir("mount-cells", &jdk);
    let o = std::process::Command::new(jdk.java())
        .arg(format!("-agentpath:{}=out={},socket=off,perf-map=off", agent_lib().display(), out.display()))
        .args(["-Djdk.virtualThreadScheduler.parallelism=2", "-Djdk.virtualThreadScheduler.maxPoolSize=2", "-cp"])
        .arg(classes(&jdk))
        .arg("vthreads.MountCells")
        .output()
        .expect("running java");
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{stdout}{}", String::from_utf8_lossy(&o.stderr));
    let cells: Vec<u64> = stdout.lines().filter_map(|l| l.strip_prefix("cell ")).map(|l| l.split_whitespace().nth(1).unwrap().parse().unwrap()).collect();
    assert_eq!(cells.len(), 2, "{stdout}");
    for c in &cells {
        assert_eq!(c % 128, 0, "a mounted virtual thread stores into {c:#x}, not a carrier's line: {stdout}");
    }
    assert_ne!(cells[0] / 128, cells[1] / 128, "two carriers' mount cells share a line: {stdout}");
    let _ = std::fs::remove_dir_all(&out);
}
