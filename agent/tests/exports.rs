//! `hpm export` of real profiles, read back by the real consumers: `go tool pprof` (golang-go),
//! `callgrind_annotate` (valgrind), speedscope in headless Chromium (speedscope files and Chrome
//! trace events). Each consumer is a prerequisite installed by `scripts/prereqs.sh`
//! (`hpm_need_go`, …); a test whose consumer is missing fails and names the package.

mod common;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

use common::*;
use hpm_model::arcflow::Profile;

/// One real profile shared by the tests: `calls.Work` (recursion, HashMap, sorting with a
/// comparator) on two threads, on JDK 17, with a counter so that there are several metrics.
fn work_run() -> &'static (PathBuf, Profile) {
    static RUN: OnceLock<(PathBuf, Profile)> = OnceLock::new();
    RUN.get_or_init(|| {
        let jdk = java_tests::jdk().expect("a JDK");
        let r = run("exports-work", &jdk, "Work", "event=task-clock", &[], &["3", "2"]);
        r.assert_ok();
        let profile = r.calls();
        // Kept for the process's lifetime: the tests write their exports next to it.
        let out = r.out.clone();
        std::mem::forget(r);
        (out, profile)
    })
}

fn hpm(args: &[&str]) -> std::process::Output {
    let out = Command::new(hpm_binary()).args(args).output().expect("running hpm");
    assert!(out.status.success(), "hpm {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    out
}

/// Runs a consumer tool, failing with the package to install when it is missing.
fn tool(program: &str, package: &str, args: &[&str]) -> String {
    let out = Command::new(program)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{program}: {e}; install the Debian package {package} (scripts/prereqs.sh does, as root)"));
    assert!(out.status.success(), "{program} {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// Base of `metric` per consumer name over all threads (what a flat profile shows), and the name
/// with the largest.
fn flat_top(p: &Profile, metric: usize) -> (String, u64) {
    let mut flat: BTreeMap<&str, u64> = BTreeMap::new();
    for th in &p.threads {
        for n in 0..th.tree.len() as u32 {
            *flat.entry(p.consumers.name(th.tree.consumer(n))).or_default() += th.tree.base(n)[metric];
        }
    }
    let (name, v) = flat.into_iter().max_by_key(|&(_, v)| v).unwrap();
    (name.to_string(), v)
}

fn total_calls(p: &Profile) -> u64 {
    p.threads.iter().map(|t| (0..t.tree.len() as u32).map(|n| t.tree.calls(n)).sum::<u64>()).sum()
}

fn export(format: &str, file: &str, extra: &[&str]) -> PathBuf {
    let (dir, _) = work_run();
    let path = dir.join(file);
    let mut args = vec!["export", format, dir.to_str().unwrap(), "-o", path.to_str().unwrap()];
    args.extend_from_slice(extra);
    let out = hpm(&args);
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), path.to_str().unwrap());
    path
}

#[test]
fn pprof_reads_the_totals_and_the_top_function() {
    let (_, profile) = work_run();
    let file = export("pprof", "profile.pb.gz", &[]);
    let file = file.to_str().unwrap();
    for (m, metric) in profile.bindings.metrics.iter().enumerate() {
        let top = tool("go", "golang-go", &["tool", "pprof", "-top", "-unit=ns", &format!("-sample_index={}", metric.name), file]);
        let total = profile.total()[m];
        // "Showing nodes accounting for …, 99.81% of 478240340ns total"
        let line = top.lines().find(|l| l.starts_with("Showing nodes")).unwrap_or_else(|| panic!("no totals line:\n{top}"));
        let shown: u64 = line.rsplit(" of ").next().unwrap().trim_end_matches(" total").trim_end_matches("ns").parse().unwrap();
        assert_eq!(shown, total, "{}: pprof's total against the profile's\n{top}", metric.name);
        // The first row after the header is the largest flat value.
        let (want, flat) = flat_top(profile, m);
        let row = top.lines().skip_while(|l| !l.trim_start().starts_with("flat")).nth(1).unwrap();
        let fields: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(fields[0].trim_end_matches("ns").parse::<u64>().unwrap(), flat, "{row}");
        assert_eq!(fields[5..].join(" "), want, "{}: top function\n{top}", metric.name);
    }

    // The calls, and every context as one trace with its thread and its calls.
    let top = tool("go", "golang-go", &["tool", "pprof", "-top", "-sample_index=calls", file]);
    assert!(top.contains(&format!(" of {} total", total_calls(profile))), "{top}");
    let traces = tool("go", "golang-go", &["tool", "pprof", "-traces", "-sample_index=calls", file]);
    let mut got: BTreeMap<(String, String), u64> = BTreeMap::new();
    for block in traces.split("-----------+-------------------------------------------------------").skip(1) {
        let mut thread = String::new();
        let mut value = 0;
        let mut frames = Vec::new();
        for line in block.lines().filter(|l| !l.trim().is_empty()) {
            if let Some(t) = line.trim_start().strip_prefix("thread:") {
                thread = t.trim().to_string();
            } else if frames.is_empty() {
                let (v, f) = line.trim_start().split_once(char::is_whitespace).unwrap();
                value = v.parse().unwrap();
                frames.push(f.trim().to_string());
            } else {
                frames.push(line.trim().to_string());
            }
        }
        frames.reverse();
        *got.entry((thread, frames.join(";"))).or_default() += value;
    }
    let mut want: BTreeMap<(String, String), u64> = BTreeMap::new();
    for th in &profile.threads {
        for n in 0..th.tree.len() as u32 {
            if th.tree.calls(n) > 0 {
                let path: Vec<&str> = th.tree.path(n).into_iter().map(|c| profile.consumers.name(c)).collect();
                *want.entry((th.name.clone(), path.join(";"))).or_default() += th.tree.calls(n);
            }
        }
    }
    got.retain(|_, v| *v > 0);
    assert_eq!(got, want);
    assert!(want.keys().any(|(_, s)| s.ends_with("calls.Work$Key.compareTo(java.lang.Object);calls.Work$Key.compareTo(calls.Work$Key)")));
}

/// `reports/tests/exports`, where `hpm_need_export_viewers` installs the npm consumers.
fn viewers_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../reports/tests/exports");
    assert!(
        dir.join("node_modules/speedscope").is_dir() && dir.join("node_modules/playwright-core").is_dir(),
        "the npm consumers are not installed in {}: run `. scripts/prereqs.sh; hpm_need_export_viewers` (npm ci there, Debian chromium)",
        dir.display()
    );
    dir
}

fn node(script: &str, args: &[&str]) -> String {
    let dir = viewers_dir();
    let mut all = vec![dir.join(script).to_str().unwrap().to_string()];
    all.extend(args.iter().map(|a| a.to_string()));
    let all: Vec<&str> = all.iter().map(|s| s.as_str()).collect();
    tool("node", "nodejs", &all)
}

/// A speedscope weight as text ("67.03ms", "624.19µs", "1.20s") in nanoseconds.
fn speedscope_ns(text: &str) -> f64 {
    let text = text.split_whitespace().next().unwrap();
    for (suffix, scale) in [("ns", 1.0), ("µs", 1e3), ("ms", 1e6), ("s", 1e9)] {
        if let Some(v) = text.strip_suffix(suffix) {
            return v.parse::<f64>().unwrap() * scale;
        }
    }
    panic!("not a time: {text}")
}

#[test]
fn speedscope_shows_every_thread_and_its_frames() {
    let (_, profile) = work_run();
    let file = export("speedscope", "profile.speedscope.json", &["--metric", "cpu-time"]);
    let file = file.to_str().unwrap();
    assert_eq!(node("validate-speedscope.mjs", &[file]).trim(), "valid");

    // The busiest worker thread, shown in speedscope's sandwich view (rows sorted by self weight).
    let (index, th) = profile.threads.iter().enumerate().filter(|(_, t)| t.name.starts_with("work-")).max_by_key(|(_, t)| t.tree.total()[0]).unwrap();
    let page: serde_json::Value = serde_json::from_str(&node("speedscope.mjs", &[file, &index.to_string()])).unwrap();
    assert_eq!(page["errors"], serde_json::json!([]), "{page}");
    assert_eq!(page["title"], "cpu-time (methods) - speedscope");
    let body = page["body"].as_str().unwrap();
    assert!(body.contains(&format!("{} ({}/{})", th.name, index + 1, profile.threads.len())), "{body}");
    let lines: Vec<&str> = body.split("Symbol Name").nth(1).unwrap_or_else(|| panic!("no sandwich table:\n{body}")).lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    let rows: Vec<(&str, &str, &str)> = lines.chunks_exact(3).map(|r| (r[0], r[1], r[2])).collect();

    // Every frame with cpu-time in the thread is a row, and only those.
    let mut self_ns: BTreeMap<&str, u64> = BTreeMap::new();
    let cum = th.tree.cum();
    for n in 0..th.tree.len() as u32 {
        if cum[n as usize * profile.metric_count()] > 0 {
            let name = profile.consumers.name(th.tree.consumer(n));
            *self_ns.entry(name).or_default() += th.tree.base(n)[0];
        }
    }
    let shown: std::collections::BTreeSet<&str> = rows.iter().map(|r| r.2).collect();
    assert_eq!(shown, self_ns.keys().copied().collect(), "{body}");
    let (top, top_self) = self_ns.iter().max_by_key(|(_, &v)| v).unwrap();
    assert_eq!(rows[0].2, *top, "{body}");
    assert!((speedscope_ns(rows[0].1) - *top_self as f64).abs() <= 0.01 * *top_self as f64, "self of {top}: {} against {top_self} ns", rows[0].1);
    let root = rows.iter().find(|r| r.2 == th.name).unwrap();
    assert!(root.0.ends_with("(100%)"), "{root:?}");
    let want_total = th.tree.total()[0] as f64;
    assert!((speedscope_ns(root.0) - want_total).abs() <= 0.01 * want_total, "{root:?} against {want_total} ns");
}

/// No consumer of the Firefox Profiler's format installs here (profiler.firefox.com is a web app
/// not published to npm), so the file is read as the Profiler reads it: threads, samples with
/// weights, stacks through the stack, frame and function tables into the string array.
#[test]
fn firefox_profile_has_a_thread_per_thread_and_a_sample_per_context() {
    let (_, profile) = work_run();
    let file = export("firefox", "profile.firefox.json", &["--metric", "cpu-time"]);
    let doc: serde_json::Value = serde_json::from_slice(&std::fs::read(file).unwrap()).unwrap();
    let threads = doc["threads"].as_array().unwrap();
    assert_eq!(threads.len(), profile.threads.len());
    let categories: Vec<&str> = doc["meta"]["categories"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap()).collect();
    for th in &profile.threads {
        let fx = threads.iter().find(|t| t["name"] == th.name.as_str()).unwrap_or_else(|| panic!("no thread {}", th.name));
        // A thread id seen twice (HotSpot's main thread becomes DestroyJavaVM) is made unique as "TID.1".
        let tid = fx["tid"].as_str().map(str::to_string).unwrap_or_else(|| fx["tid"].to_string());
        assert_eq!(tid.split('.').next().unwrap(), th.os_tid.unwrap().to_string());
        let t = &th.tree;
        // (path, cpu-time) of every context with cpu-time, in pre-order.
        let contexts: Vec<(Vec<&str>, u64)> = t
            .preorder()
            .into_iter()
            .filter(|&n| t.base(n)[0] > 0)
            .map(|n| (t.path(n).into_iter().map(|c| profile.consumers.name(c)).collect(), t.base(n)[0]))
            .collect();
        let s = &fx["samples"];
        let weights: Vec<u64> = s["weight"].as_array().unwrap().iter().map(|w| w.as_u64().unwrap()).collect();
        assert_eq!(s["length"].as_u64().unwrap() as usize, contexts.len(), "{}", th.name);
        assert_eq!(weights.iter().sum::<u64>(), t.total()[0], "{}", th.name);
        // Every sample's stack, read back through the tables, is its context's path.
        let strings = fx["stringArray"].as_array().unwrap();
        let stack_of = |mut stack: Option<u64>| {
            let mut names = Vec::new();
            while let Some(i) = stack {
                let i = i as usize;
                let frame = fx["stackTable"]["frame"][i].as_u64().unwrap() as usize;
                let func = fx["frameTable"]["func"][frame].as_u64().unwrap() as usize;
                let category = fx["frameTable"]["category"][frame].as_u64().unwrap() as usize;
                let name = strings[fx["funcTable"]["name"][func].as_u64().unwrap() as usize].as_str().unwrap();
                names.push((name, categories[category]));
                stack = fx["stackTable"]["prefix"][i].as_u64();
            }
            names.reverse();
            names
        };
        for (k, (path, w)) in contexts.iter().enumerate() {
            let got = stack_of(s["stack"][k].as_u64());
            assert_eq!(got.iter().map(|f| f.0).collect::<Vec<_>>(), *path, "{}", th.name);
            assert_eq!(weights[k], *w);
            assert_eq!(got[0].1, "Thread");
            assert!(got[1..].iter().all(|f| f.1 == if f.0.starts_with("java.") { "JDK" } else { "Java" }), "{got:?}");
        }
    }
}

/// A quantum trace from the research VM (pseudojbb on two processors, with its run markers) as
/// Chrome trace events: read back event by event against the trace's own reader, then opened in
/// speedscope, which imports the Trace Event Format too. Perfetto's trace processor (PyPI
/// `perfetto`) downloads its binary at run time and Chromium 156 has no chrome://tracing any
/// more, so speedscope is the one viewer of this format that runs here (docs/exports.md).
#[test]
fn chrome_trace_has_a_complete_event_per_quantum_on_its_processor() {
    let classes = java_tests::compile("workloads").expect("compiling java-tests/workloads");
    let jdk = java_tests::jdk().unwrap();
    let out = out_dir("exports-quantum", &jdk);
    let o = Command::new(rvm())
        .arg("-Xvps:2")
        // 1 ms quanta: many records however short the run is.
        .arg("-Xquantum:1")
        .arg(format!("-agentpath:{}=out={},socket=off,quantum,event=task-clock", agent_lib().display(), out.display()))
        .arg("-cp")
        .arg(&classes)
        .args(["pseudojbb.PseudoJbb", "3", "300"])
        .output()
        .unwrap();
    assert!(o.status.success(), "rvm failed: {}", String::from_utf8_lossy(&o.stderr));
    let trace = hpm_model::quantum::read_dir(&out).unwrap();
    assert!(trace.is_valid());

    let file = out.join("trace.json");
    hpm(&["export", "chrome-trace", out.to_str().unwrap(), "-o", file.to_str().unwrap()]);
    let doc: serde_json::Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    let events = doc["traceEvents"].as_array().unwrap();
    let of = |ph: &'static str| events.iter().filter(move |e| e["ph"] == ph);

    // One complete event per quantum, in the trace's order, on its processor's track.
    let quanta: Vec<_> = trace.quanta().collect();
    let complete: Vec<_> = of("X").collect();
    assert_eq!(complete.len(), quanta.len());
    assert!(quanta.len() > 10, "{} quanta", quanta.len());
    let origin = trace.merged().next().unwrap().time();
    let counter = &trace.meta.counters[1];
    for (q, e) in quanta.iter().zip(&complete) {
        assert_eq!((e["pid"].as_u64(), e["tid"].as_u64()), (Some(1), Some(q.vp as u64)));
        assert_eq!(e["name"], trace.meta.thread(q.thread).unwrap().name.as_str());
        assert_eq!(e["args"]["thread"], q.thread);
        assert_eq!(e["args"][counter.as_str()], q.deltas[0], "{e}");
        assert!((e["ts"].as_f64().unwrap() - (q.start - origin) as f64 / 1000.0).abs() < 1e-3);
        assert!((e["dur"].as_f64().unwrap() - q.duration() as f64 / 1000.0).abs() < 1e-3);
    }
    // The run markers are instants, every processor a named track.
    let markers: Vec<_> = of("i").filter(|e| e["cat"] == "marker").collect();
    assert!(markers.iter().any(|m| m["name"].as_str().unwrap().starts_with("run-start: pseudojbb")), "{markers:?}");
    let tracks: Vec<_> = of("M").filter(|e| e["name"] == "thread_name").map(|e| e["tid"].as_u64().unwrap()).collect();
    assert_eq!(tracks, [0, 1]);
    // Threads on one track never overlap (one thread per processor at a time).
    for vp in [0, 1] {
        let mut spans: Vec<(f64, f64)> = complete.iter().filter(|e| e["tid"] == vp).map(|e| (e["ts"].as_f64().unwrap(), e["dur"].as_f64().unwrap())).collect();
        spans.sort_by(|a, b| a.0.total_cmp(&b.0));
        assert!(spans.windows(2).all(|w| w[0].0 + w[0].1 <= w[1].0 + 1e-3), "overlapping quanta on vp {vp}");
    }

    // Speedscope makes a profile of each named track and a frame of each complete event, named
    // by the event's name and its arguments as JSON. Its sandwich view of processor 1 (the
    // second profile, named by the process and the track) puts the longest quantum first, with
    // its duration as self time.
    let page: serde_json::Value = serde_json::from_str(&node("speedscope.mjs", &[file.to_str().unwrap(), "1"])).unwrap();
    assert_eq!(page["errors"], serde_json::json!([]), "{page}");
    let body = page["body"].as_str().unwrap();
    assert!(body.contains(", vp 1 (tid 1) (2/2)"), "{body}");
    let rows: Vec<&str> = body.split("Symbol Name").nth(1).unwrap_or_else(|| panic!("no sandwich table:\n{body}")).lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    let longest = quanta.iter().filter(|q| q.vp == 1).max_by_key(|q| q.duration()).unwrap();
    let name = trace.meta.thread(longest.thread).unwrap().name.as_str();
    assert!(rows[2].starts_with(&format!("{name} {{")), "{rows:?}");
    assert!(rows[2].contains(&format!("\"thread\":{}", longest.thread)) && rows[2].contains(&format!("\"{counter}\":{}", longest.deltas[0])), "{rows:?} against {longest:?}");
    let shown = speedscope_ns(rows[1]);
    assert!((shown - longest.duration() as f64).abs() <= 0.01 * longest.duration() as f64, "{rows:?} against {} ns", longest.duration());
    let _ = std::fs::remove_dir_all(&out);
}

/// callgrind_annotate's table: `file:function` → one value per event (commas removed).
fn callgrind_rows(text: &str, events: usize) -> BTreeMap<String, Vec<u64>> {
    let mut rows = BTreeMap::new();
    for line in text.lines() {
        // "144,144,810 (30.14%)   667,953,156 (10.16%) … 1,172 (27.79%)  calls.Work:calls.Work.sorts"; a zero has no "(…%)".
        let mut rest = line.trim_start();
        let mut values = Vec::new();
        while values.len() < events {
            let Some((num, tail)) = rest.split_once(' ') else { break };
            let Ok(v) = num.replace(',', "").parse::<u64>() else { break };
            values.push(v);
            rest = tail.trim_start();
            if rest.starts_with('(') {
                rest = rest.split_once(')').map_or("", |(_, t)| t).trim_start();
            }
        }
        if values.len() == events && !rest.is_empty() {
            rows.insert(rest.to_string(), values);
        }
    }
    rows
}

#[test]
fn callgrind_annotate_reads_every_metric_with_the_profiles_totals() {
    let (_, profile) = work_run();
    let file = export("callgrind", "callgrind.out.hpm", &[]);
    let file = file.to_str().unwrap();
    let m = profile.metric_count();
    let text = tool("callgrind_annotate", "valgrind", &["--auto=no", "--threshold=100", file]);
    let events: Vec<String> = profile.bindings.metrics.iter().map(|x| x.name.replace('-', "_")).collect();
    assert!(text.contains(&format!("Events recorded:  {}", events.join(" "))), "{text}");
    let rows = callgrind_rows(&text, m);
    assert_eq!(rows["PROGRAM TOTALS"], profile.total(), "{text}");
    // Every function's self cost is its consumer's base summed over all contexts and threads.
    let mut flat: BTreeMap<String, Vec<u64>> = BTreeMap::new();
    for th in &profile.threads {
        for n in 0..th.tree.len() as u32 {
            let name = profile.consumers.name(th.tree.consumer(n));
            let class = name[..name.find('(').unwrap_or(name.len())].rfind('.').map_or("(none)", |d| &name[..d]);
            let v = flat.entry(format!("???:{name} [{class}]")).or_insert_with(|| vec![0; m]);
            for (a, b) in v.iter_mut().zip(th.tree.base(n)) {
                *a += b;
            }
        }
    }
    flat.retain(|_, v| v.iter().any(|&x| x > 0));
    let shown: BTreeMap<String, Vec<u64>> = rows.into_iter().filter(|(k, v)| k != "PROGRAM TOTALS" && v.iter().any(|&x| x > 0)).collect();
    assert_eq!(shown, flat, "{text}");

    // Inclusive costs come from the calls' lines: a worker thread's root includes its whole tree.
    let inclusive = callgrind_rows(&tool("callgrind_annotate", "valgrind", &["--auto=no", "--threshold=100", "--inclusive=yes", file]), m);
    for th in profile.threads.iter().filter(|t| t.name.starts_with("work-")) {
        assert_eq!(inclusive[&format!("???:{} [(none)]", th.name)], th.tree.total(), "{}", th.name);
    }
}

/// A program whose time goes to one method (`Hot.hot`, a square-root loop) and whose allocations
/// come from another (`Hot.alloc`, byte arrays), for JFR recordings.
const HOT_JAVA: &str = r#"
public class Hot {
    static double hot(int n) {
        double s = 0;
        for (int i = 1; i < n; i++) s += Math.sqrt(i) / (i % 7 + 1);
        return s;
    }
    static Object keep;
    static void alloc() {
        for (int i = 0; i < 200; i++) keep = new byte[4096 + i];
    }
    public static void main(String[] args) {
        long end = System.nanoTime() + 2_000_000_000L;
        double s = 0;
        while (System.nanoTime() < end) { s += hot(2_000_000); alloc(); }
        System.out.println(s > 0);
    }
}
"#;

/// `hpm import` of JFR recordings made by JDK 17 and the newer JDK (Temurin 25) with their
/// `profile` settings: the hot method dominates the imported execution samples, the estimated time
/// is samples × the recorded period, the allocations come from the allocating method, and the
/// directory is a profile `hpm report` and `hpm export` read.
#[test]
fn import_of_jfr_recordings_from_jdk_17_and_25() {
    let jdks = jdks();
    let versions: Vec<u32> = jdks.iter().map(|j| j.feature_version().unwrap_or(0)).collect();
    assert!(versions.len() >= 2, "JDKs {versions:?}: this test records with JDK 17 and a newer JDK (Temurin 25 in /usr/lib/jvm)");
    for jdk in jdks {
        let v = jdk.feature_version().unwrap_or(0);
        let dir = out_dir("exports-jfr", &jdk);
        std::fs::create_dir_all(dir.join("src")).unwrap();
        std::fs::write(dir.join("src/Hot.java"), HOT_JAVA).unwrap();
        let javac = Command::new(jdk.javac()).arg("-d").arg(dir.join("classes")).arg(dir.join("src/Hot.java")).output().unwrap();
        assert!(javac.status.success(), "{}", String::from_utf8_lossy(&javac.stderr));
        let jfr = dir.join("hot.jfr");
        let run = Command::new(jdk.java())
            .arg(format!("-XX:StartFlightRecording=filename={},settings=profile", jfr.display()))
            .arg("-cp")
            .arg(dir.join("classes"))
            .arg("Hot")
            .output()
            .unwrap();
        assert!(run.status.success(), "JDK {v}: {}", String::from_utf8_lossy(&run.stderr));

        let out = dir.join("imported");
        let o = hpm(&["import", jfr.to_str().unwrap(), "-o", out.to_str().unwrap()]);
        let note = String::from_utf8_lossy(&o.stderr);
        let p = read_profile(&out.join("arcflow.json"));
        let metrics: Vec<&str> = p.bindings.metrics.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(metrics[..3], ["execution-samples", "native-samples", "execution-time"], "JDK {v}");
        let main = p.threads.iter().find(|t| t.name == "main").unwrap_or_else(|| panic!("JDK {v}: no main thread"));
        let total = main.tree.total();
        assert!(total[0] >= 50, "JDK {v}: only {} execution samples in 2 s", total[0]);
        assert!(note.contains(&format!("{} execution sample(s) every 10 ms", p.total()[0])), "JDK {v}: {note}");
        assert_eq!(total[2], total[0] * 10_000_000, "JDK {v}: execution-time = samples × 10 ms");
        let (top, flat) = flat_top(&p, 0);
        assert_eq!(top, "Hot.hot", "JDK {v}");
        assert!(flat * 10 >= p.total()[0] * 8, "JDK {v}: Hot.hot has {flat} of {} samples", p.total()[0]);
        // Its context is main → Hot.main → Hot.hot.
        let path: Vec<&str> = main.tree.preorder().into_iter().filter(|&n| main.tree.base(n)[0] == flat).flat_map(|n| main.tree.path(n)).map(|c| p.consumers.name(c)).collect();
        assert_eq!(path, ["main", "Hot.main", "Hot.hot"], "JDK {v}");

        // Allocation samples: byte[] allocated by Hot.alloc.
        let a = read_profile(&out.join("sampled-alloc/arcflow.json"));
        let (class, bytes) = flat_top(&a, 0);
        assert_eq!(class, "byte[]", "JDK {v}");
        assert!(bytes > 0);
        let allocating: Vec<&str> = a.threads.iter().flat_map(|t| (0..t.tree.len() as u32).filter(|&n| a.consumers.name(t.tree.consumer(n)) == "byte[]" && t.tree.base(n)[0] > 0).map(|n| a.consumers.name(t.tree.consumer(t.tree.parent(n).unwrap())))).collect();
        assert!(allocating.contains(&"Hot.alloc"), "JDK {v}: {allocating:?}");

        // The directory is a profile the other commands read.
        hpm(&["report", out.to_str().unwrap(), "--out", dir.join("report").to_str().unwrap(), "--metric", "execution-time"]);
        hpm(&["export", "pprof", out.to_str().unwrap()]);
        assert!(out.join("profile.pb.gz").is_file());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
