//! `hpm explore` end to end: pages made from real runs (the agent on the research VM with a
//! quantum trace, two HotSpot runs to compare, and the page a sampling-only run wrote), and one of a
//! text trace with overloaded methods (long parameter lists, narrow frames), are opened from disk in headless Chromium by
//! `tests/explorer/explorer.test.mjs`, which checks that they load with no console error and no
//! network request, and that every control changes what is drawn (DOM and pixels; screenshots
//! are kept in `target/tmp/explorer-it/`).
//!
//! Needs Debian's chromium and npm's playwright-core (`. scripts/prereqs.sh; hpm_need_chromium`),
//! a JDK, and builds the agent and rvm (`cargo build --release -p hpmagent -p rvm-backend`).

use std::path::{Path, PathBuf};
use std::process::Command;

fn target_dir() -> PathBuf {
    // target/<profile>/deps/explore-… → target/<profile>
    std::env::current_exe().unwrap().parent().unwrap().parent().unwrap().to_path_buf()
}

/// The agent library and rvm of this build, brought up to date by cargo (a no-op when they are).
fn agent_and_rvm() -> (PathBuf, PathBuf) {
    let profile_dir = target_dir();
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut c = Command::new(cargo);
    c.args(["build", "-p", "hpmagent", "-p", "rvm-backend", "--lib", "--bin", "rvm"]).current_dir(env!("CARGO_MANIFEST_DIR"));
    if profile_dir.file_name().is_some_and(|n| n == "release") {
        c.arg("--release");
    }
    if let Some(target) = profile_dir.parent() {
        c.env("CARGO_TARGET_DIR", target);
    }
    let status = c.status().expect("running cargo to build the agent and rvm");
    assert!(status.success(), "building the agent and rvm failed");
    (profile_dir.join("libhpmagent.so"), profile_dir.join("rvm"))
}

fn explorer_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/explorer")
}

fn out_root() -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("explorer-it");
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn check(o: &std::process::Output, what: &str) {
    assert!(o.status.success(), "{what} failed ({}):\nstdout:\n{}\nstderr:\n{}", o.status, String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
}

fn hpm(args: &[&Path]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_hpm")).arg("explore").args(args).output().unwrap()
}

#[test]
fn explorer_pages_of_real_runs_work_in_headless_chromium() {
    assert!(
        Path::new("/usr/bin/chromium").is_file() && explorer_dir().join("node_modules/playwright-core/package.json").is_file(),
        "the explorer tests need /usr/bin/chromium and playwright-core: run `. scripts/prereqs.sh && hpm_need_chromium`"
    );
    let root = out_root();
    let (agent, rvm) = agent_and_rvm();
    let jdk = java_tests::jdk().expect("a JDK");
    let workloads = java_tests::compile("workloads").expect("compiling java-tests/workloads");
    let explorer = java_tests::compile("explorer").expect("compiling java-tests/explorer");

    // The research VM: pseudojbb's call trees and its quantum trace in one run directory.
    let rvm_dir = root.join("rvm-run");
    let o = Command::new(&rvm)
        .args(["-Xvps:2", "-Xquantum:2", "-Xmx24m"])
        .arg(format!("-agentpath:{}=out={},socket=off,quantum,event=task-clock", agent.display(), rvm_dir.display()))
        .arg("-cp")
        .arg(&workloads)
        .args(["pseudojbb.PseudoJbb", "3", "3000"])
        .output()
        .unwrap();
    check(&o, "rvm with the agent");
    assert!(rvm_dir.join("arcflow.json").is_file() && rvm_dir.join("quantum.meta").is_file());

    // A trace directory alone (what `hpm trace` reads).
    let trace_only = root.join("trace-only");
    std::fs::create_dir_all(&trace_only).unwrap();
    for e in std::fs::read_dir(&rvm_dir).unwrap().flatten() {
        if e.file_name().to_string_lossy().starts_with("quantum.") {
            std::fs::copy(e.path(), trace_only.join(e.file_name())).unwrap();
        }
    }

    // Two HotSpot runs of the same program that differ in one context (main → grows).
    let shift = |name: &str, grows: &str| {
        let dir = root.join(name);
        let o = Command::new(jdk.java())
            .arg(format!("-agentpath:{}=out={},perf-map=off,socket=off", agent.display(), dir.display()))
            .arg("-cp")
            .arg(&explorer)
            .args(["explorer.Shift", "200", grows])
            .output()
            .unwrap();
        check(&o, "java with the agent");
        dir
    };
    let before = shift("shift-before", "100");
    let after = shift("shift-after", "400");

    // Sampling alone: the page the agent writes at exit opens on the sampled tree.
    let sampled_run = root.join("sampled-run");
    let o = Command::new(jdk.java())
        .arg(format!("-agentpath:{}=out={},perf-map=off,socket=off,calls=none,sample=cpu,sample-interval=1ms", agent.display(), sampled_run.display()))
        .arg("-cp")
        .arg(&explorer)
        .args(["explorer.Shift", "20000", "20000"])
        .output()
        .unwrap();
    check(&o, "java with calls=none,sample=cpu");
    let top = std::fs::read_to_string(sampled_run.join("xprof.txt")).unwrap();
    assert!(top.contains("Count :: samples") && top.contains("explorer.Shift.work"), "top-level xprof.txt of a sampling-only run:\n{top}");

    // Every tree a run can hold, and two phases between markers: alpha() then beta(), then a
    // contended monitor, a wait and allocations; its page is the one the agent wrote at exit.
    let phases = root.join("phases-run");
    let o = Command::new(jdk.java())
        .arg(format!("-agentpath:{}=out={},perf-map=off,socket=off,sample=cpu,sample-interval=1ms,sample-alloc=256k", agent.display(), phases.display()))
        .arg("-cp")
        .arg(&workloads)
        .args(["phases.SampledPhases", "400"])
        .output()
        .unwrap();
    check(&o, "java with sample=cpu,sample-alloc=256k on SampledPhases");
    // The same program sampled with every frame recorded, the JDK's too (`include=*`).
    let phases_all = root.join("phases-all");
    let o = Command::new(jdk.java())
        .arg(format!("-agentpath:{}=out={},perf-map=off,socket=off,calls=none,sample=cpu,sample-interval=1ms,include=*", agent.display(), phases_all.display()))
        .arg("-cp")
        .arg(&workloads)
        .args(["phases.SampledPhases", "400"])
        .output()
        .unwrap();
    check(&o, "java with calls=none,sample=cpu,include=* on SampledPhases");

    // A JFR recording of the program of the diff, imported, against the agent's run (both orders).
    let jfr = root.join("shift.jfr");
    let o = Command::new(jdk.java())
        .arg(format!("-XX:StartFlightRecording=filename={},settings=profile", jfr.display()))
        .arg("-cp")
        .arg(&explorer)
        .args(["explorer.Shift", "3000", "3000"])
        .output()
        .unwrap();
    check(&o, "java with a JFR recording");
    let imported = root.join("jfr-import");
    check(&Command::new(env!("CARGO_BIN_EXE_hpm")).arg("import").arg(&jfr).arg("-o").arg(&imported).output().unwrap(), "hpm import");

    // Noise and one planted change: every method of B has 0.7 of its time in A, but for one
    // whose share of the total really grew.
    let noise = [("noise-a", noise_trace(1.0)), ("noise-b", noise_trace(0.7))].map(|(name, text)| {
        let (trace, dir) = (root.join(format!("{name}.trace")), root.join(name));
        std::fs::write(&trace, text).unwrap();
        let o = Command::new(env!("CARGO_BIN_EXE_hpm")).args(["report", "--trace"]).arg(&trace).args(["--metric-name", "cpu-time:ns", "--format", "json", "--out"]).arg(&dir).output().unwrap();
        check(&o, "hpm report --trace");
        dir
    });

    // Overloaded methods with long parameter lists (as H2's), some of them in narrow frames.
    let labels_dir = root.join("labels");
    let labels_trace = root.join("labels.trace");
    std::fs::write(&labels_trace, overloaded_trace()).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_hpm"))
        .args(["report", "--trace"])
        .arg(&labels_trace)
        .args(["--metric-name", "cpu-time:ns", "--format", "json", "--out"])
        .arg(&labels_dir)
        .output()
        .unwrap();
    check(&o, "hpm report --trace labels.trace");
    let labels = root.join("labels.html");
    check(&hpm(&[&labels_dir, Path::new("-o"), &labels]), "hpm explore LABELS");

    let single = root.join("rvm.html");
    let trace_page = root.join("trace.html");
    let diff = root.join("diff.html");
    check(&hpm(&[&rvm_dir, Path::new("-o"), &single]), "hpm explore DIR");
    check(&hpm(&[&trace_only, Path::new("-o"), &trace_page]), "hpm explore TRACE_DIR");
    check(&hpm(&[&before, &after, Path::new("-o"), &diff]), "hpm explore DIR DIR2");
    let (jfr_run, run_jfr, noise_page, noise_absolute) = (root.join("jfr-run.html"), root.join("run-jfr.html"), root.join("noise.html"), root.join("noise-absolute.html"));
    check(&hpm(&[&imported, &before, Path::new("-o"), &jfr_run]), "hpm explore JFR RUN");
    check(&hpm(&[&before, &imported, Path::new("-o"), &run_jfr]), "hpm explore RUN JFR");
    check(&hpm(&[&noise[0], &noise[1], Path::new("-o"), &noise_page]), "hpm explore NOISE-A NOISE-B");
    // A run directory holding the bottleneck search's report (as `hpm consult PID` keeps it).
    let consulted = root.join("consulted");
    std::fs::create_dir_all(&consulted).unwrap();
    std::fs::copy(before.join("arcflow.json"), consulted.join("arcflow.json")).unwrap();
    std::fs::write(consulted.join("consult.txt"), "Bottleneck search (hypotheses along why, refined along where and when)\n\nRefinement: exact probes in the hot subtrees' methods\n      12  explorer.Shift.grows\n").unwrap();
    let report = root.join("report.html");
    check(&hpm(&[&consulted, Path::new("-o"), &report]), "hpm explore CONSULTED");
    let jdk_frames = root.join("jdk-frames.html");
    check(&hpm(&[&phases_all, &phases, Path::new("-o"), &jdk_frames]), "hpm explore INCLUDE-ALL DEFAULT");
    check(&hpm(&[&noise[0], &noise[1], Path::new("--diff"), Path::new("absolute"), Path::new("-o"), &noise_absolute]), "hpm explore --diff absolute");
    let o = hpm(&[&noise[0], &noise[1], Path::new("--diff"), Path::new("relative")]);
    assert_eq!(o.status.code(), Some(2), "an unknown --diff mode is a usage error");
    // Without -o the page goes into the run directory.
    let o = hpm(&[&before]);
    check(&o, "hpm explore DIR");
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), before.join("explore.html").display().to_string());

    // Bad input: one line naming the cause, exit 1.
    let o = hpm(&[&root.join("no-such-run")]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!((o.status.code(), err.lines().count()), (Some(1), 1), "{err}");
    assert!(err.starts_with("hpm: error: ") && err.contains("no-such-run"), "{err}");
    let o = hpm(&[&trace_only, &before]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("has no call trees"), "{}", String::from_utf8_lossy(&o.stderr));

    let config = serde_json::json!({
        "single": single, "trace": trace_page, "diff": diff, "sampled": sampled_run.join("explore.html"), "labels": labels, "out": root,
        "phases": phases.join("explore.html"), "report": report, "jfrRun": jfr_run, "runJfr": run_jfr, "noise": noise_page, "noiseAbsolute": noise_absolute, "jdkFrames": jdk_frames,
    });
    let o = Command::new("node")
        .arg(explorer_dir().join("explorer.test.mjs"))
        .arg(config.to_string())
        .current_dir(explorer_dir())
        .output()
        .expect("running node (install nodejs)");
    let stdout = String::from_utf8_lossy(&o.stdout);
    println!("{stdout}");
    check(&o, "the explorer's browser test");
    assert!(stdout.contains("explorer: all checks passed"), "{stdout}");
}

/// A start/end trace of one thread: `main` calls twenty methods `app.Noise.mNN`, each taking 500
/// time units × `scale` but `app.Noise.m19`, which takes 1000 × `scale` when `scale` is below 1
/// (its share of the total grows from 5% to 9.5%, while every other method's falls by a quarter
/// of a point).
fn noise_trace(scale: f64) -> String {
    let mut t = 0u64;
    let mut out = String::from("0 pidtid main\n0 > app.Noise.main\n");
    for k in 0..20 {
        let w = if k == 19 && scale < 1.0 { 1000.0 * scale } else { 500.0 * scale } as u64;
        out.push_str(&format!("{t} > app.Noise.m{k:02}\n"));
        t += w;
        out.push_str(&format!("{t} < app.Noise.m{k:02}\n"));
    }
    out.push_str(&format!("{t} < app.Noise.main\n"));
    out
}

/// A start/end trace (the paper's Figure 2 format) of one thread whose methods are overloaded with
/// long parameter lists, as H2's are: eight methods under `app.Main.main` with totals from 400 down
/// to 6, each calling another of them, so that some frames are wide and some narrow.
fn overloaded_trace() -> String {
    let names = [
        "org.h2.command.Command.executeQuery(long,boolean)",
        "org.h2.command.Command.executeQuery(long,org.h2.result.ResultTarget)",
        "org.h2.value.Value.convertTo(org.h2.value.TypeInfo,org.h2.engine.CastDataProvider)",
        "org.h2.value.Value.convertTo(int)",
        "org.h2.engine.SessionLocal.prepareLocal(java.lang.String)",
        "org.h2.engine.SessionLocal.prepareLocal(java.lang.String,boolean,org.h2.engine.SessionLocal)",
        "org.h2.index.Index.find(org.h2.engine.SessionLocal,org.h2.result.SearchRow,org.h2.result.SearchRow)",
        "org.h2.table.Table.getColumn(int)",
    ];
    let mut t = 0u64;
    let mut out = String::from("0 pidtid main\n0 > app.Main.main\n");
    for (k, w) in [400u64, 250, 120, 70, 40, 22, 12, 6].into_iter().enumerate() {
        let (outer, inner) = (names[k], names[(k + 2) % names.len()]);
        out.push_str(&format!("{t} > {outer}\n{t} > {inner}\n"));
        t += w * 2 / 3;
        out.push_str(&format!("{t} < {inner}\n"));
        t += w - w * 2 / 3;
        out.push_str(&format!("{t} < {outer}\n"));
    }
    out.push_str(&format!("{} < app.Main.main\n", t + 1));
    out
}

#[path = "support/record_sets.rs"]
mod record_sets;

/// The record sets of the Trace tab (filters on duration, metrics and the top method, set
/// operations kept in the address, statistics, the records table linked to the timeline) and the
/// ranking of two runs' traces, in headless Chromium (`tests/explorer/sets.test.mjs`), against
/// sets and values computed here from the records written. Needs only chromium and node.
#[test]
fn record_sets_work_in_headless_chromium() {
    use record_sets::*;
    assert!(
        Path::new("/usr/bin/chromium").is_file() && explorer_dir().join("node_modules/playwright-core/package.json").is_file(),
        "the explorer tests need /usr/bin/chromium and playwright-core: run `. scripts/prereqs.sh && hpm_need_chromium`"
    );
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("explorer-sets");
    let _ = std::fs::remove_dir_all(&root);
    let (a, b) = (records(7, 0.15), records(11, 0.6));
    let (da, db) = (root.join("a"), root.join("b"));
    write_trace(&da, &a);
    write_trace(&db, &b);
    let (single, two) = (root.join("single.html"), root.join("two.html"));
    check(&hpm(&[&da, Path::new("-o"), &single]), "hpm explore TRACE");
    // Two runs with traces and no call trees: the page compares their records.
    check(&hpm(&[&da, &db, Path::new("-o"), &two]), "hpm explore TRACE_A TRACE_B");

    let keys = |pass: &dyn Fn(&Rec) -> bool| -> Vec<String> { a.iter().filter(|q| pass(q)).map(key).collect() };
    let dur = |q: &Rec| q.end - q.start;
    let cases: Vec<(serde_json::Value, Vec<String>)> = vec![
        (serde_json::json!({"rs-dmin": "500us", "rs-dmax": "1.5ms"}), keys(&|q| (500_000..=1_500_000).contains(&dur(q)))),
        (serde_json::json!({"rs-dmin": "1ms"}), keys(&|q| dur(q) >= 1_000_000)),
        (serde_json::json!({"rs-where": "IPC < 0.5"}), keys(&|q| values(q)[4] < 0.5)),
        (serde_json::json!({"rs-where": "cycles > 1e6, cache-misses/Kinstr >= 10"}), keys(&|q| q.cycles as f64 > 1e6 && values(q)[5] >= 10.0)),
        (serde_json::json!({"rs-where": "instructions / duration > 2"}), keys(&|q| q.instructions as f64 / dur(q) as f64 > 2.0)),
        (serde_json::json!({"rs-method": "Mem|Io\\.read"}), keys(&|q| matches!(q.callee, 2 | 3))),
        (serde_json::json!({"rs-thread": "1"}), keys(&|q| q.thread == 1)),
        (serde_json::json!({"rs-vp": "1", "rs-where": "ipc >= 1"}), keys(&|q| q.vp == 1 && values(q)[4] >= 1.0)),
        (serde_json::json!({"rs-kind": "gc"}), keys(&|q| q.thread == 3 || q.thread == 5)),
    ];
    for (inputs, k) in &cases {
        assert!(!k.is_empty() && k.len() < a.len(), "{inputs}: {} of {} records is not a test", k.len(), a.len());
    }
    let filters: Vec<serde_json::Value> = cases.iter().map(|(inputs, keys)| serde_json::json!({"inputs": inputs, "keys": keys})).collect();
    let stats_json = |set: &[&Rec]| -> Vec<serde_json::Value> {
        stats(set).iter().zip(METRICS).map(|(s, m)| serde_json::json!({"metric": m, "n": s.n, "mean": s.mean, "sd": s.sd, "min": s.min, "max": s.max, "p": s.p})).collect()
    };
    let in_a = |q: &Rec| (500_000..=1_500_000).contains(&dur(q));
    let in_b = |q: &Rec| matches!(q.callee, 2 | 3);
    let stats_set: Vec<&Rec> = a.iter().filter(|q| q.thread == 1).collect();
    let union: Vec<&Rec> = a.iter().filter(|q| in_a(q) || in_b(q)).collect();
    let app = |r: &[Rec]| r.iter().filter(|q| q.callee != 0).count();
    let (all_a, all_b): (Vec<&Rec>, Vec<&Rec>) = (a.iter().collect(), b.iter().collect());
    let (top_metric, top_method, smd) = most_different(&all_a, &all_b);
    assert_eq!(top_method, "app.Mem.scan", "the planted difference");
    // Within one trace: app.Mem.scan's records against the rest.
    let (mem, rest): (Vec<&Rec>, Vec<&Rec>) = a.iter().partition(|q| q.callee == 2);
    let (rest_metric, rest_method, rest_smd) = most_different(&mem, &rest);
    let config = serde_json::json!({
        "single": single, "two": two, "out": root,
        "filters": filters,
        "stats": {"inputs": {"rs-thread": "1"}, "metrics": stats_json(&stats_set)},
        "ops": {
            "a": {"inputs": cases[0].0, "keys": cases[0].1},
            "b": {"inputs": cases[5].0, "keys": cases[5].1},
            "union": keys(&|q| in_a(q) || in_b(q)),
            "inter": keys(&|q| in_a(q) && in_b(q)),
            "diff": keys(&|q| in_a(q) && !in_b(q)),
            "unionStats": stats_json(&union),
        },
        "rank": {"metric": top_metric, "method": top_method, "smd": smd.into_iter().map(|(k, v)| (k, serde_json::json!(v))).collect::<serde_json::Map<_, _>>(),
            "nx": a.len(), "ny": b.len(), "appX": app(&a), "appY": app(&b)},
        "rest": {"inputs": {"rs-method": "Mem"}, "metric": rest_metric, "method": rest_method, "nx": mem.len(), "ny": rest.len(),
            "smd": rest_smd.into_iter().map(|(k, v)| (k, serde_json::json!(v))).collect::<serde_json::Map<_, _>>()},
    });
    let o = Command::new("node")
        .arg(explorer_dir().join("sets.test.mjs"))
        .arg(config.to_string())
        .current_dir(explorer_dir())
        .output()
        .expect("running node (install nodejs)");
    let stdout = String::from_utf8_lossy(&o.stdout);
    println!("{stdout}");
    check(&o, "the record sets' browser test");
    assert!(stdout.contains("record sets: all checks passed"), "{stdout}");
}
