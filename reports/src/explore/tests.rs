use super::*;
use crate::saved::tests::sample_run;
use hpm_model::arcflow::{Bindings, Metric};
use hpm_model::snapshot::{ClassFilter, SampleTimeline};
use hpm_model::quantum::{Meta, QuantumRecord, ThreadInfo, ThreadKind, VpTrace};

/// Reads the embedded format back into a profile: the inverse of `encode_profile`, written from
/// its documentation (parent deltas, thread roots, columns per metric).
fn decode_profile(v: &Value) -> Profile {
    let metrics = v["metrics"].as_array().unwrap().iter().map(|m| Metric::new(m["name"].as_str().unwrap(), m["unit"].as_str().unwrap())).collect();
    let mut p = Profile::new(Bindings::methods(metrics));
    let names: Vec<&str> = v["names"].as_array().unwrap().iter().map(|n| n.as_str().unwrap()).collect();
    let ids: Vec<u32> = names.iter().map(|n| p.consumers.intern(n)).collect();
    let col = |k: &str| -> Vec<u64> { unpack(v[k].as_str().unwrap()).unwrap() };
    let (parent, consumer, calls) = (col("parent"), col("consumer"), col("calls"));
    let base: Vec<Vec<u64>> = v["base"].as_array().unwrap().iter().map(|a| unpack(a.as_str().unwrap()).unwrap()).collect();
    // Global index → (thread, node in its tree).
    let mut at: Vec<(usize, u32)> = Vec::new();
    for i in 0..parent.len() {
        let values: Vec<u64> = base.iter().map(|b| b[i]).collect();
        let (th, node) = if parent[i] == 0 {
            let th = p.threads.len();
            let root = v["threads"][th]["root"].as_u64().unwrap() as usize;
            assert_eq!(root, i, "thread {th}'s root");
            p.add_thread(names[consumer[i] as usize]);
            (th, Tree::ROOT)
        } else {
            let (th, pnode) = at[i - parent[i] as usize];
            (th, p.threads[th].tree.child(pnode, ids[consumer[i] as usize]))
        };
        p.threads[th].tree.add_calls(node, calls[i]);
        p.threads[th].tree.add_base(node, &values);
        at.push((th, node));
    }
    p
}

fn sample_profile() -> Profile {
    let mut p = Profile::new(Bindings::methods(vec![Metric::new("cpu-time", "ns"), Metric::new("instructions", "")]));
    for (t, name) in ["main", "worker </script> 1"].iter().enumerate() {
        let th = p.add_thread(name);
        let [a, b, c] = ["A.run", "B.<init>", "C.x"].map(|n| p.consumers.intern(n));
        let tree = &mut p.threads[th].tree;
        tree.add_calls(Tree::ROOT, 1);
        let na = tree.child(Tree::ROOT, a);
        tree.add_calls(na, 2 + t as u64);
        tree.add_base(na, &[100, u64::MAX >> 12]);
        let nb = tree.child(na, b);
        let nc = tree.child(na, c);
        let nb2 = tree.child(nb, b);
        let nc2 = tree.child(nc, a);
        for (n, k) in [(nb, 3), (nc, 4), (nb2, 5), (nc2, 6)] {
            tree.add_calls(n, k);
            tree.add_base(n, &[k * 10, k * 1000]);
        }
    }
    p
}

#[test]
fn the_embedded_tree_reads_back_as_the_same_profile() {
    let p = sample_profile();
    let text = encode(&Run::of_profile("run", p.clone()), None);
    assert!(!text.contains('<'), "no `<` may close the script element: {text}");
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!((v["format"].as_str(), v["version"].as_u64()), (Some("hpm-explore"), Some(DATA_VERSION as u64)));
    assert!(v["trace"].is_null());
    let back = decode_profile(&v["profiles"][0]);
    assert_eq!(back.threads.len(), p.threads.len());
    for (a, b) in p.threads.iter().zip(&back.threads) {
        assert_eq!(a.name, b.name);
        let names = |prof: &Profile, t: &Tree| -> Vec<(Vec<String>, u64, Vec<u64>)> {
            t.contexts().into_iter().map(|(path, (calls, base))| (path.iter().map(|&c| prof.consumers.name(c).to_string()).collect(), calls, base)).collect()
        };
        assert_eq!(names(&p, &a.tree), names(&back, &b.tree));
    }
}

#[test]
fn a_diff_embeds_both_profiles_and_the_page_holds_everything() {
    let a = Run::of_profile("before", sample_profile());
    let b = Run::of_profile("after", sample_profile());
    let html = render_html(&a, Some(&b));
    assert!(html.starts_with("<!DOCTYPE html>"));
    for absent in ["{{TITLE}}", "{{CSS}}", "{{DATA}}", "{{JS}}", "http://", "https://", "src=\""] {
        assert!(!html.contains(absent), "the page holds `{absent}`");
    }
    let start = html.find("id=\"hpm-data\">").unwrap() + "id=\"hpm-data\">".len();
    let end = start + html[start..].find("</script>").unwrap();
    let v: Value = serde_json::from_str(&html[start..end]).unwrap();
    assert_eq!(v["profiles"].as_array().unwrap().len(), 2);
    assert_eq!(v["profiles"][1]["label"], "after");
}

fn record(vp: u32, thread: u32, start: u64, end: u64, deltas: Vec<u64>) -> Entry {
    Entry::Quantum(QuantumRecord {
        vp,
        offset: 0,
        local_tid: thread as u16,
        buffer_code: 0,
        thread_switch: true,
        thread,
        yielded: false,
        start,
        end,
        callee: 0,
        caller: 0,
        deltas: deltas.into(),
    })
}

#[test]
fn trace_records_become_columns_relative_to_the_first_time_with_gcs_merged() {
    let meta = Meta {
        counters: vec!["real-time".into(), "cpu-time".into()],
        threads: vec![
            ThreadInfo { id: 1, kind: ThreadKind::App, name: "main".into() },
            ThreadInfo { id: 2, kind: ThreadKind::Collector, name: "gc-0".into() },
            ThreadInfo { id: 3, kind: ThreadKind::Collector, name: "gc-1".into() },
        ],
        ..Meta::default()
    };
    let vp0 = vec![record(0, 1, 1000, 1500, vec![400]), record(0, 2, 1500, 1700, vec![200]), record(0, 1, 1700, 2000, vec![300])];
    let vp1 = vec![record(1, 3, 1600, 1800, vec![150]), record(1, 3, 1900, 1950, vec![50])];
    let vp = |n: u32, entries: Vec<Entry>| VpTrace { vp: n, path: PathBuf::new(), file: format!("quantum.vp{n}.trace"), counters: 1, entries };
    let trace = Trace::new(meta, vec![vp(0, vp0), vp(1, vp1)], Vec::new());
    assert_eq!(crate::quantum::gc_intervals(&trace), [(1500, 1800), (1900, 1950)]);
    let run = Run::of_trace("t", Some(PageTrace::of("t", &trace)));
    let v: Value = serde_json::from_str(&encode(&run, None)).unwrap();
    let t = &v["trace"];
    assert_eq!(t["t0"], 1000);
    let col = |v: &Value| unpack(v.as_str().unwrap()).unwrap();
    // In time order across processors, as `Trace::merged` gives them.
    assert_eq!(col(&t["start"]), [0, 500, 600, 700, 900]);
    assert_eq!(col(&t["duration"]), [500, 200, 200, 300, 50]);
    assert_eq!(col(&t["thread"]), [1, 2, 3, 1, 3]);
    assert_eq!(col(&t["deltas"][0]), [400, 200, 150, 300, 50]);
    assert_eq!(t["gcs"], json!([[500, 800], [900, 950]]));
    assert!(v["profiles"].as_array().unwrap().is_empty());
    assert!(v.get("compareTrace").is_none(), "one run: no second trace");

    // Two runs with traces: the second's is embedded as `compareTrace`, the same columns.
    let other = Run::of_trace("u", Some(PageTrace::of("u", &trace)));
    let v: Value = serde_json::from_str(&encode(&run, Some(&other))).unwrap();
    assert_eq!(v["compareTrace"]["label"], "u");
    assert_eq!(col(&v["compareTrace"]["start"]), [0, 500, 600, 700, 900]);
    // Not when the first run has none: the page's trace is the first run's.
    let v: Value = serde_json::from_str(&encode(&Run::of_trace("x", None), Some(&other))).unwrap();
    assert!(v["trace"].is_null() && v.get("compareTrace").is_none());
}

#[test]
fn packed_numbers_round_trip_over_the_whole_u64_range() {
    let values = [0, 1, 31, 32, 33, 1023, 1024, 5_000_000, (1 << 40) - 1, 1 << 40, (1 << 53) + 1, u64::MAX - 1, u64::MAX];
    let mut bytes = Vec::new();
    push_packed_string(&mut bytes, values);
    let s = String::from_utf8(bytes).unwrap();
    assert!(s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'"'), "{s}");
    assert_eq!(unpack(&s[1..s.len() - 1]).unwrap(), values);
    assert_eq!(&s[1..4], "ab_", "one character below 32");
    assert!(unpack("AB").is_err() && unpack("a!").is_err());
    assert!(unpack("5555555555555a").is_err(), "past 64 bits");
}

#[test]
fn a_frame_names_its_class() {
    assert_eq!(class_of_frame("java.util.ArrayList.add(java.lang.Object)"), Some("java.util.ArrayList"));
    assert_eq!(class_of_frame("a.b.C.m:12"), Some("a.b.C"));
    assert_eq!(class_of_frame("a.b.C$$Lambda#1.run"), Some("a.b.C$$Lambda#1"));
    assert_eq!(class_of_frame("(unknown Java)"), None);
    assert_eq!(class_of_frame("main"), None);
}

/// A diff leaves out, on each side, the frames of classes the other run does not record: a JFR
/// import (every frame) against an agent run with the default filter (no JDK classes) hides the
/// import's JDK frames, and nothing of the agent's run.
#[test]
fn a_diff_hides_on_each_side_the_frames_the_other_run_does_not_record() {
    let mut p = Profile::new(Bindings { consumer_label: "methods".into(), count_label: "samples".into(), metrics: vec![Metric::new("execution-time", "ns")] });
    let th = p.add_thread("main");
    let names = ["java.lang.Thread.run", "app.Main.main", "jdk.internal.Foo.bar:12", "(unknown Java)", "app.Main.work(java.lang.String)"];
    let ids: Vec<u32> = names.iter().map(|n| p.consumers.intern(n)).collect();
    let tree = &mut p.threads[th].tree;
    let leaf = tree.descend(Tree::ROOT, &ids);
    tree.add_calls(leaf, 1);
    tree.add_base(leaf, &[10]);
    let jfr = Run::of_profile("jfr", p.clone());
    assert_eq!(jfr.trees[0].kind, TreeKind::Sampled);
    let agent = Run { filter: Some(ClassFilter::default()), ..Run::of_profile("agent", p) };
    let v: Value = serde_json::from_str(&encode(&jfr, Some(&agent))).unwrap();
    let hidden = |k: usize| -> Vec<&str> {
        let prof = &v["profiles"][k];
        prof["hidden"].as_array().unwrap().iter().map(|i| prof["names"][i.as_u64().unwrap() as usize].as_str().unwrap()).collect()
    };
    assert_eq!(hidden(0), ["java.lang.Thread.run", "jdk.internal.Foo.bar:12"]);
    assert!(hidden(1).is_empty(), "the import records every class");
    assert_eq!((v["profiles"][0]["run"].as_u64(), v["profiles"][1]["run"].as_u64()), (Some(0), Some(1)));
    assert_eq!(v["profiles"][0]["tree"], "sampled");
    assert_eq!(v["diffValues"], "auto");
    assert_eq!(serde_json::from_str::<Value>(&encode_with(&jfr, Some(&agent), DiffValues::Share)).unwrap()["diffValues"], "share");
}

/// A sampled tree's timeline is embedded per thread: times as packed differences, nodes as
/// indexes into the thread's nodes; the run's markers go with it.
#[test]
fn sample_timelines_and_markers_are_embedded() {
    let p = sample_profile();
    let timelines = vec![SampleTimeline { times: vec![100, 250, 250], nodes: vec![1, 3, 1], dropped: 0 }, SampleTimeline { times: vec![], nodes: vec![], dropped: 4 }];
    let run = Run {
        trees: vec![PageTree::new(TreeKind::Sampled, p, Some(timelines))],
        marks: vec![(200, "note: two".into())],
        ..Run::of_profile("run", Profile::new(Bindings::methods(Vec::new())))
    };
    let v: Value = serde_json::from_str(&encode(&run, None)).unwrap();
    let t = &v["profiles"][0]["timeline"];
    let col = |v: &Value| unpack(v.as_str().unwrap()).unwrap();
    assert_eq!(col(&t["times"][0]), [100, 150, 0]);
    assert_eq!(col(&t["nodes"][0]), [1, 3, 1]);
    assert!(col(&t["times"][1]).is_empty());
    assert_eq!(t["dropped"], json!([0, 4]));
    assert_eq!(v["runs"], json!([{"label": "run", "marks": [{"time": 200, "text": "note: two"}], "reports": []}]));
}

/// A version 1 directory (what `hpm import` writes) brings its allocation samples too, from
/// `sampled-alloc/arcflow.json`; an `arcflow.json` given alone, the same.
#[test]
fn a_version_1_directory_brings_its_other_trees() {
    let d = tempfile::tempdir().unwrap();
    let mut samples = Profile::new(Bindings { consumer_label: "methods".into(), count_label: "samples".into(), metrics: vec![Metric::new("execution-time", "ns")] });
    let mut alloc = Profile::new(Bindings { consumer_label: "methods and allocated classes".into(), count_label: "samples".into(), metrics: vec![Metric::new("alloc-bytes", "bytes")] });
    for (p, leaf) in [(&mut samples, "A.run"), (&mut alloc, "byte[]")] {
        let th = p.add_thread("main");
        let c = p.consumers.intern(leaf);
        let n = p.threads[th].tree.child(Tree::ROOT, c);
        p.threads[th].tree.add_calls(n, 1);
        p.threads[th].tree.add_base(n, &[5]);
    }
    std::fs::create_dir(d.path().join("sampled-alloc")).unwrap();
    hpm_model::saved::v1::write(&samples, &mut std::fs::File::create(d.path().join("arcflow.json")).unwrap()).unwrap();
    hpm_model::saved::v1::write(&alloc, &mut std::fs::File::create(d.path().join("sampled-alloc/arcflow.json")).unwrap()).unwrap();
    for input in [d.path().to_path_buf(), d.path().join("arcflow.json")] {
        let run = load_run(&input).unwrap();
        assert_eq!(run.trees.iter().map(|t| t.kind).collect::<Vec<_>>(), [TreeKind::Sampled, TreeKind::SampledAlloc]);
    }
    std::fs::write(d.path().join("sampled-alloc/arcflow.json"), "{").unwrap();
    assert!(load_run(d.path()).unwrap_err().contains("sampled-alloc/arcflow.json"), "a broken tree beside it is an error naming it");
}

/// The page written with the reports shows the run's quantum trace up to the size limit, and
/// leaves a larger one out (without reading it) rather than load it into the process at exit.
#[test]
fn the_page_leaves_out_a_trace_over_the_limit() {
    use hpm_collectors::quantum::files::{MetaFile, RunToDir};
    use hpm_model::quantum::{Meta, Quantum, QuantumWriter};
    let d = tempfile::tempdir().unwrap();
    let (mut w, sink) = QuantumWriter::new(0, 1);
    let dir = d.path().to_path_buf();
    let writer = std::thread::spawn(move || sink.run_to_dir(&dir).unwrap());
    // (fewer than two buffers hold: the writer here is not woken as the agent's is)
    for i in 0..50u64 {
        let q = Quantum { thread: 1, local_tid: 1, yielded: false, thread_switch: true, start: i * 10, end: i * 10 + 10, callee: 0, caller: 0 };
        assert!(w.record(&q, &[7]));
    }
    w.finish(10_000, 0);
    writer.join().unwrap();
    Meta { counters: vec!["real-time".into(), "cpu-time".into()], ..Meta::default() }.write(d.path()).unwrap();
    let size = std::fs::metadata(d.path().join("quantum.vp0.trace")).unwrap().len();
    let run = sample_run();
    let trace_of_page = |limit: u64| {
        let page = write_explorer_up_to(&run, d.path(), d.path(), limit).unwrap();
        let html = std::fs::read_to_string(page).unwrap();
        let start = html.find(r#"<script type="application/json" id="hpm-data">"#).unwrap() + 46;
        let data: serde_json::Value = serde_json::from_str(&html[start..start + html[start..].find("</script>").unwrap()]).unwrap();
        data["trace"].clone()
    };
    assert_eq!(trace_of_page(size).get("start").map(|s| s.is_string()), Some(true), "a trace at the limit is shown");
    assert!(trace_of_page(size - 1).is_null(), "a trace over the limit is left out");
    assert_eq!((trace_over(d.path(), size - 1), trace_over(d.path(), size)), (Some(size), None));
    assert_eq!(trace_left_out_of_page(d.path()), None);
}

/// The page written at the VM's exit never opens a FIFO or a device under a trace file's name:
/// it leaves that trace out instead of blocking (or filling memory) there.
#[test]
fn the_page_leaves_out_a_trace_of_special_files_without_blocking() {
    use hpm_collectors::quantum::files::MetaFile;
    use hpm_model::quantum::Meta;
    let d = tempfile::tempdir().unwrap();
    Meta { counters: vec!["real-time".into()], ..Meta::default() }.write(d.path()).unwrap();
    assert!(std::process::Command::new("mkfifo").arg(d.path().join("quantum.vp0.trace")).status().expect("mkfifo").success());
    std::os::unix::fs::symlink("/dev/zero", d.path().join("quantum.vp1.trace")).unwrap();
    let run = sample_run();
    let dir = d.path().to_path_buf();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || tx.send(write_explorer(&run, &dir, &dir).map(|p| std::fs::read_to_string(p).unwrap())));
    let html = rx.recv_timeout(std::time::Duration::from_secs(10)).expect("writing the page blocked on a FIFO").unwrap();
    assert!(html.contains(r#""trace":null"#), "the trace is left out");
}
