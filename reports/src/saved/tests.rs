//! arcflow.json version 2: round trips (the file, the trees node by node, every report written
//! from it), version dispatch, and malformed files (one-line errors, never a panic).

use super::*;
use crate::write_all;
use hpm_model::arcflow::{Bindings, Metric, MetricMode, NodeId, Profile, Tree};
use hpm_model::sampling::Tier;
use hpm_model::saved::{Mark, RunIdentity, VmCostData};
use hpm_model::snapshot::{
    ClassFilter, CodeEntry, CompileRow, Compensation, Form, FormRow, GcRecord, Glob, ProbeRequest, ProbeWindow, RecorderConfig, SampleTimeline, Snapshot,
    ThreadSummary,
};
use hpm_model::vmcost::{CostRow, PerKind};
use proptest::prelude::*;

#[path = "../../tests/support/files.rs"]
mod files_under;
use files_under::files;

/// A tree over `names` (interned in `p`), from paths with their calls and base values.
fn add_thread(p: &mut Profile, name: &str, kind: Option<&str>, os_tid: Option<u64>, paths: &[(&[&str], u64, &[u64])]) {
    let i = p.add_thread(name);
    p.threads[i].kind = kind.map(String::from);
    p.threads[i].os_tid = os_tid;
    for (path, calls, base) in paths {
        let ids: Vec<u32> = path.iter().map(|n| p.consumers.intern(n)).collect();
        let t = &mut p.threads[i].tree;
        let n = t.descend(Tree::ROOT, &ids);
        t.add_calls(n, *calls);
        t.add_base(n, base);
    }
}

/// A run with every part filled in: trees with recursion and sibling order that is not sorted,
/// locks, waits, stack and allocation samples, forms, compiles, GC, code, a compensation whose
/// floats have no short decimal form, the run's identity, VM cost with counters and markers.
pub(crate) fn sample_run() -> SavedRun {
    let metrics = vec![Metric::new("cpu-time", "ns").with_mode(MetricMode::Sampled), Metric::new("wall-time", "ns"), Metric::new("page-faults", "")];
    let mut calls = Profile::new(Bindings::methods(metrics.clone()));
    add_thread(
        &mut calls,
        "main",
        Some("application"),
        Some(4711),
        &[
            (&[], 1, &[5, 9, 0]),
            (&["Z.main"], 1, &[100, 200, 3]),
            (&["Z.main", "B.b"], 7, &[3_000_000, 3_100_000, 1]),
            (&["Z.main", "A.a"], 2, &[40, 50, 0]),
            (&["Z.main", "A.a", "A.a", "A.a"], 1, &[7, 8, 9]),
            (&["Z.main", "B.b", "weird \"name\";\n\t\u{e9}"], 3, &[1, 1, 1]),
        ],
    );
    add_thread(&mut calls, "worker-1", None, None, &[(&["W.run"], 1, &[u64::MAX / 4, 1, 2]), (&["W.run", "A.a"], 12, &[10, 11, 12])]);
    let mut locks = Profile::new(Bindings { consumer_label: "methods and monitor classes".into(), count_label: "contended entries".into(), metrics: vec![Metric::new("contended-time", "ns")] });
    locks.consumers = calls.consumers.clone();
    add_thread(&mut locks, "main", Some("application"), Some(4711), &[(&["Z.main", "java.lang.Object"], 2, &[1_500_000])]);
    add_thread(&mut locks, "worker-1", None, None, &[]);
    let mut waits = Profile::new(Bindings { consumer_label: "methods and monitor classes".into(), count_label: "waits".into(), metrics: vec![Metric::new("wait-time", "ns"), Metric::new("timed-out", "waits")] });
    waits.consumers = calls.consumers.clone();
    add_thread(&mut waits, "main", Some("application"), Some(4711), &[]);
    add_thread(&mut waits, "worker-1", None, None, &[(&["W.run", "Q"], 4, &[9_000_000, 1])]);
    let mut samples = Profile::new(Bindings { consumer_label: "methods".into(), count_label: "samples".into(), metrics: metrics.iter().map(|m| m.clone().with_mode(MetricMode::Sampled)).collect() });
    samples.consumers = calls.consumers.clone();
    add_thread(&mut samples, "main", Some("application"), Some(4711), &[(&["Z.main", "B.b"], 30, &[30_000_000, 31_000_000, 2])]);
    add_thread(&mut samples, "worker-1", None, None, &[(&["W.run"], 2, &[2_000_000, 2_000_000, 0])]);
    // A table of its own (not the calls' ids): written through the file's one table.
    let mut alloc = Profile::new(Bindings {
        consumer_label: "methods and allocated classes".into(),
        count_label: "samples".into(),
        metrics: vec![Metric::new("alloc-bytes", "bytes").with_mode(MetricMode::Sampled), Metric::new("alloc-objects", "objects").with_mode(MetricMode::Sampled)],
    });
    add_thread(&mut alloc, "main", Some("application"), Some(4711), &[(&["Z.main", "byte[]"], 5, &[2_621_440, 5])]);
    let weights = vec![1_000_000, 1_100_000, 0];
    let snapshot = Snapshot {
        calls,
        locks,
        waits,
        samples: Some(samples),
        // Times out of order (written as wrapping differences) and samples over the limit.
        sample_states: None,
        sample_timelines: Some(vec![
            SampleTimeline { times: vec![5_000_000, 6_000_000, 4_000_000, u64::MAX], nodes: vec![2, 1, 2, 0], dropped: 0 },
            SampleTimeline { times: vec![], nodes: vec![], dropped: 7 },
        ]),
        alloc_samples: Some(alloc),
        sample_forms: vec![
            FormRow { method: "B.b".into(), form: Form::C2, samples: 20, weights: weights.clone() },
            FormRow { method: "B.b".into(), form: Form::Interpreted, samples: 10, weights: weights.clone() },
        ],
        stack_forms: vec![FormRow { method: "Z.main".into(), form: Form::Inlined, samples: 30, weights }],
        compiles: vec![
            CompileRow { method: "B.b".into(), tier: Tier::C2, cpu_ns: 5_000_000, looks: 3, compilations: 1, osr_compilations: 0 },
            CompileRow { method: "(idle)".into(), tier: Tier::Unknown, cpu_ns: 1, looks: 1, compilations: 0, osr_compilations: 0 },
        ],
        threads: vec![
            ThreadSummary { name: "main".into(), kind: Some("application".into()), os_tid: Some(4711), alive: false, method_events: 42, exception_exits: 1, unmatched_exits: 0, vm_alloc_bytes: 0, vm_alloc_objects: 0, start_ns: 10, end_ns: Some(9_000_000_000), scaled_reads: 0, in_probes: vec![5, 0, 0] },
            ThreadSummary { name: "worker-1".into(), alive: true, method_events: 26, scaled_reads: 3, ..ThreadSummary::default() },
        ],
        gc: vec![GcRecord { start_ns: 1_000_000, duration_ns: 2_345_678, threads_stopped: 2 }],
        gc_dropped: 0,
        gc_count: 1,
        gc_total_ns: 2_345_678,
        code: vec![
            CodeEntry { start: 0x7f00_0000_1000, size: 0x100, name: "B.b".into(), kind: "compiled", method: 9, inlined: vec!["A.a".into()], inlined_methods: vec![] },
            CodeEntry { start: 0x7f00_0000_2000, size: 0x40, name: "Interpreter".into(), kind: "generated", method: 0, inlined: vec![], inlined_methods: vec![] },
        ],
        code_loads: 5,
        code_unloads: 3,
        classes_loaded: 500,
        classes_prepared: 499,
        uptime_ns: 9_500_000_000,
        config: RecorderConfig {
            filter: ClassFilter { include: vec![Glob::new("com.acme.*")], exclude: vec![Glob::new("com.acme.gen.*")] },
            metrics_from_sampler: Some(MetricMode::Sampled),
            stack_samples: Some(metrics.clone()),
            alloc_samples: Some(524_288),
            ..RecorderConfig::default()
        },
        compensation: Some(Compensation {
            metrics: metrics.iter().map(|m| m.name.clone()).collect(),
            callee: vec![0.1 + 0.2, 1.0 / 3.0, 0.0],
            caller: vec![2.0f64.sqrt(), std::f64::consts::PI, 0.0],
            applied: vec![true, true, false],
            calls_measured: 10_000,
            how: "measured on a dummy thread".into(),
            measured: vec![123_456, 7, 0],
        }),
        phase_calls: Vec::new(),
        probe_requests: vec![
            ProbeRequest { add: true, pattern: "com.acme.*::run*".into(), at_ns: 2_000_000_000, classes: 3 },
            ProbeRequest { add: false, pattern: "com.acme.*::run*".into(), at_ns: 5_000_000_000, classes: 3 },
        ],
        probe_windows: vec![ProbeWindow { method: "com.acme.Main.run".into(), from_ns: 2_000_000_001, to_ns: Some(4_999_999_999) }],
    };
    // The calls split in two at the marker: the first phase main's, the second worker-1's.
    let mut snapshot = snapshot;
    snapshot.phase_calls = (0..2).map(|i| Profile { threads: vec![snapshot.calls.threads[i].clone()], ..snapshot.calls.clone() }).collect();
    SavedRun {
        snapshot,
        run: Some(RunIdentity { pid: 4242, main: "com.acme.Main".into(), started_unix_ms: Some(1_778_311_773_123), dumped_unix_ms: 1_778_311_783_456 }),
        vm_cost: Some(VmCostData {
            counters: vec!["task-clock".into(), "page-faults".into()],
            rows: vec![
                CostRow { at_ns: 1_000_000_000, cpu: PerKind([900, 50, 30, 10, 5, 5]), counters: vec![PerKind([1, 2, 3, 4, 5, 6]), PerKind([6, 5, 4, 3, 2, 1])], marker: None },
                CostRow { at_ns: 1_500_000_000, cpu: PerKind([400, 0, 0, 0, 1, 0]), counters: vec![PerKind::default(), PerKind::default()], marker: Some("run-start 1: warm".into()) },
            ],
            lost_threads: 1,
        }),
        marks: Some(vec![Mark { at_ns: 1_500_000_000, method_events: 30, text: "run-start 1: warm".into() }]),
    }
}

/// Per thread (name, kind and id), its rows: by node id, or in pre-order.
type Rows<K> = Vec<(String, Vec<(K, String, u64, Vec<u64>)>)>;

/// Every node of every tree, by node id: (parent, consumer name, calls, base).
fn nodes(p: &Profile) -> Rows<Option<NodeId>> {
    p.threads
        .iter()
        .map(|t| {
            let rows = (0..t.tree.len() as NodeId).map(|n| (t.tree.parent(n), p.consumers.name(t.tree.consumer(n)).to_string(), t.tree.calls(n), t.tree.base(n).to_vec())).collect();
            (format!("{}/{:?}/{:?}", t.name, t.kind, t.os_tid), rows)
        })
        .collect()
}

/// Every context in pre-order, children in order: (depth, consumer name, calls, base); what a
/// version 1 file keeps (it renumbers the nodes).
fn preorder(p: &Profile) -> Rows<usize> {
    p.threads
        .iter()
        .map(|t| (t.name.clone(), t.tree.preorder().into_iter().map(|n| (t.tree.depth(n), p.consumers.name(t.tree.consumer(n)).to_string(), t.tree.calls(n), t.tree.base(n).to_vec())).collect()))
        .collect()
}


fn read_run(bytes: &[u8]) -> SavedRun {
    match read(std::str::from_utf8(bytes).unwrap()).unwrap() {
        Saved::Run(r) => *r,
        Saved::Trees(_) => panic!("read as version 1"),
    }
}

#[test]
fn a_run_round_trips_node_by_node() {
    let run = sample_run();
    let bytes = v2::to_vec(&run);
    let back = read_run(&bytes);
    assert_eq!(v2::to_vec(&back), bytes, "writing what was read gives the same file");
    let s = (&run.snapshot, &back.snapshot);
    for (a, b) in [(&s.0.calls, &s.1.calls), (&s.0.locks, &s.1.locks), (&s.0.waits, &s.1.waits)]
        .into_iter()
        .chain([(s.0.samples.as_ref().unwrap(), s.1.samples.as_ref().unwrap()), (s.0.alloc_samples.as_ref().unwrap(), s.1.alloc_samples.as_ref().unwrap())])
        .chain(s.0.phase_calls.iter().zip(&s.1.phase_calls))
    {
        assert_eq!(a.bindings, b.bindings);
        assert_eq!(nodes(a), nodes(b), "the same nodes with the same ids");
        for t in &b.threads {
            t.tree.check().unwrap();
        }
    }
    assert_eq!(s.1.compensation, s.0.compensation, "floats read back exactly");
    assert_eq!((&s.1.sample_forms, &s.1.stack_forms, &s.1.compiles, &s.1.threads), (&s.0.sample_forms, &s.0.stack_forms, &s.0.compiles, &s.0.threads));
    assert_eq!((&s.1.gc, s.1.gc_count, s.1.gc_total_ns, s.1.gc_dropped), (&s.0.gc, s.0.gc_count, s.0.gc_total_ns, s.0.gc_dropped));
    assert_eq!((&s.1.code, s.1.code_loads, s.1.code_unloads, s.1.classes_loaded, s.1.classes_prepared, s.1.uptime_ns), (&s.0.code, 5, 3, 500, 499, 9_500_000_000));
    let (ca, cb) = (&s.0.config, &s.1.config);
    assert_eq!((cb.calls, cb.gc, cb.locks, cb.waits, cb.alloc, cb.code), (ca.calls, ca.gc, ca.locks, ca.waits, ca.alloc, ca.code));
    assert_eq!((&cb.filter.include, &cb.filter.exclude, cb.metrics_from_sampler, &cb.stack_samples, cb.alloc_samples), (&ca.filter.include, &ca.filter.exclude, ca.metrics_from_sampler, &ca.stack_samples, ca.alloc_samples));
    assert_eq!((&back.run, &back.vm_cost, &back.marks), (&run.run, &run.vm_cost, &run.marks));
    assert_eq!(s.1.sample_timelines, s.0.sample_timelines);
    assert_eq!(s.1.phase_calls.len(), 2);
    assert_eq!((&s.1.probe_requests, &s.1.probe_windows), (&s.0.probe_requests, &s.0.probe_windows));
}

/// A file without timelines (written before they existed) reads as none; timelines that do not
/// fit the sampled trees are refused with one line.
#[test]
fn sample_timelines_are_optional_and_checked() {
    let mut run = sample_run();
    run.snapshot.sample_timelines = None;
    let text = String::from_utf8(v2::to_vec(&run)).unwrap();
    assert!(!text.contains("sample_timelines"));
    assert_eq!(read_run(text.as_bytes()).snapshot.sample_timelines, None);
    let with = |timelines: &str| text.trim_end().strip_suffix('}').unwrap().to_string() + ",\"sample_timelines\":" + timelines + "}";
    let err = |timelines: &str| match read(&with(timelines)) {
        Err(e) => e.to_string(),
        Ok(_) => panic!("read {timelines}"),
    };
    assert!(err(r#"[{"times":[1],"nodes":[0],"dropped":0}]"#).contains("has 1 threads but `samples` has 2"));
    assert!(err(r#"[{"times":[1,2],"nodes":[0],"dropped":0},{"times":[],"nodes":[],"dropped":0}]"#).contains("2 times but 1 nodes"));
    assert!(err(r#"[{"times":[1],"nodes":[3],"dropped":0},{"times":[],"nodes":[],"dropped":0}]"#).contains("node 3 is not in its sampled tree of 3 nodes"));
    let back = read_run(with(r#"[{"times":[10,5],"nodes":[2,1],"dropped":1},{"times":[],"nodes":[],"dropped":0}]"#).as_bytes());
    assert_eq!(back.snapshot.sample_timelines.unwrap()[0], SampleTimeline { times: vec![10, 15], nodes: vec![2, 1], dropped: 1 });
}

#[test]
fn every_report_regenerated_from_the_file_is_the_same_bytes() {
    let run = sample_run();
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let opts = run_options(&run);
    assert!(opts.per_thread);
    let written = write_all(&run, a.path(), &opts).unwrap();
    let back = match load(a.path()).unwrap() {
        Saved::Run(r) => r,
        Saved::Trees(_) => panic!("version 1"),
    };
    write_all(&back, b.path(), &run_options(&back)).unwrap();
    let (fa, fb) = (files(a.path()), files(b.path()));
    assert_eq!(fa.len(), written.len(), "every file written is listed once");
    let names: Vec<String> = fa.keys().map(|p| p.display().to_string()).collect();
    for want in [
        "arcflow.json",
        "arcflow-raw.json",
        "xtree.txt",
        "flame.svg",
        "threads/000-main/xarc.txt",
        "threads.txt",
        "threads.json",
        "gc.txt",
        "locks.txt",
        "waits.txt",
        "code.txt",
        "compensation.txt",
        "marks.txt",
        "vm-cost.txt",
        "locks/xtree.txt",
        "waits/arcflow.json",
        "sampled/xprof.txt",
        "sampled/forms.txt",
        "sampled/jit.txt",
        "sampled/threads/001-worker-1/xtree.txt",
        "sampled-alloc/collapsed.txt",
    ] {
        assert!(names.iter().any(|n| n == want), "{want} not written: {names:?}");
    }
    assert_eq!(fa.keys().collect::<Vec<_>>(), fb.keys().collect::<Vec<_>>());
    for (p, bytes) in &fa {
        assert!(fb[p] == *bytes, "{} differs when regenerated", p.display());
    }
    // The saved times, not the clock's.
    let threads = String::from_utf8(fa[Path::new("threads.txt")].clone()).unwrap();
    assert!(threads.starts_with("Run: pid 4242 (com.acme.Main), started 2026-05-09T07:29:33Z, dumped 2026-05-09T07:29:43Z\n"), "{threads}");
    // The reports show the compensated trees, arcflow-raw.json the raw ones.
    let raw = hpm_model::saved::v1::read(std::str::from_utf8(&fa[Path::new("arcflow-raw.json")]).unwrap()).unwrap();
    assert_eq!(preorder(&raw), preorder(&run.snapshot.calls));
    assert_eq!(nodes(&Saved::Run(back).calls()), nodes(&run.snapshot.compensated_calls()));
}

#[test]
fn thread_selection_applies_to_every_tree_and_the_summaries() {
    let run = sample_run().select_threads(&["worker-1".into()]);
    let s = &run.snapshot;
    for p in [&s.calls, &s.locks, &s.waits, s.samples.as_ref().unwrap()] {
        assert_eq!(p.threads.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), ["worker-1"]);
    }
    assert!(s.alloc_samples.as_ref().unwrap().threads.is_empty());
    assert_eq!(s.threads.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), ["worker-1"]);
    let d = tempfile::tempdir().unwrap();
    let opts = ReportOptions { threads: vec!["nobody".into()], ..ReportOptions::default() };
    let e = write_all(&sample_run(), d.path(), &opts).unwrap_err();
    assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
    assert!(e.to_string().contains("no thread named `nobody`"), "{e}");
}

#[test]
fn version_1_files_give_the_call_trees() {
    let run = sample_run();
    let v1 = hpm_model::saved::v1::to_vec(&run.snapshot.calls);
    let saved = read(std::str::from_utf8(&v1).unwrap()).unwrap();
    assert_eq!(saved.version(), 1);
    assert_eq!(preorder(&saved.calls()), preorder(&run.snapshot.calls));
}

/// The error for `text`, checked to be one line.
fn error_of(text: &str) -> String {
    let e = match read(text) {
        Ok(_) => panic!("accepted: {text}"),
        Err(e) => e.to_string(),
    };
    assert!(!e.contains('\n') && !e.is_empty(), "not one line: {e:?}");
    e
}

/// A small valid version 2 file, for editing.
fn small() -> String {
    let mut run = sample_run();
    run.snapshot.samples = None;
    run.snapshot.sample_timelines = None;
    run.snapshot.alloc_samples = None;
    String::from_utf8(v2::to_vec(&run)).unwrap()
}

#[test]
fn malformed_files_are_one_line_errors() {
    let text = small();
    // The root row and the first rows of main's call tree, as written.
    let main_rows = r#""nodes":[
[null,0,1,5,9,0],
[0,1,1,100,200,3],"#;
    assert!(text.contains(main_rows), "{text}");
    let edit = |from: &str, to: &str| text.replacen(from, to, 1);
    let cases = [
        (edit("\"version\":2", "\"version\":3"), "unsupported arcflow.json version 3: this hpm reads versions 1 and 2"),
        (edit("\"version\":2", "\"version\":\"x\""), "`version` must be a version number"),
        (edit("\"version\":2,", ""), "no `version` field"),
        (edit("\"format\":\"hpm-arcflow\"", "\"format\":\"other\""), "not an arcflow.json file"),
        (edit("[0,1,1,100,200,3]", "[5,1,1,100,200,3]"), "node row 1 names parent 5, which does not come before it"),
        (edit("[0,1,1,100,200,3]", "[1,1,1,100,200,3]"), "node row 1 names parent 1, which does not come before it"),
        (edit("[0,1,1,100,200,3]", "[null,1,1,100,200,3]"), "node row 1 has no parent"),
        (edit("[null,0,1,5,9,0]", "[0,0,1,5,9,0]"), "node row 0 is the root: its parent must be null"),
        (edit("[0,1,1,100,200,3]", "[0,99,1,100,200,3]"), "node row 1 names consumer 99, but there are"),
        (edit("[0,1,1,100,200,3]", "[0,1,1,100,200]"), "node row 1 has 2 base values, row 0 has 3"),
        (edit("[0,1,1,100,200,3]", "[0,1]"), "node row 1 ends before its calls"),
        (edit("[0,1,1,100,200,3]", "[0,1,-1,100,200,3]"), "invalid value: integer `-1`"),
        (edit(",\n{\"name\":\"page-faults\",\"unit\":\"\",\"mode\":\"exact\"}]", "]"), "`calls`, thread 0 (\"main\"): the rows have 3 base values but there are 2 metrics"),
        (edit("\"nodes\":[\n[null,0,1,5,9,0],", "\"nodes\":["), "node row 0 is the root: its parent must be null, not 0 at line"),
        (edit("\"nodes\":[\n[null,0,1,5,9,0],", "\"nodes\":[],\"x\":["), "`calls`, thread 0 (\"main\"): no nodes"),
        (edit("\"form\":\"c2\"", "\"form\":\"c9\""), "`sample_forms`: unknown form \"c9\""),
        (edit("\"kind\":\"generated\"", "\"kind\":\"odd\""), "`code`: unknown kind \"odd\""),
        (edit("\"applied\":[true,true,false]", "\"applied\":[true]"), "`compensation` has 3 metrics but 3 callee, 3 caller and 1 applied values"),
        (edit("\"calls\":{", "\"callz\":{"), "missing field `calls`"),
        (edit("\"contended-time\",\"unit\":\"ns\",\"mode\":\"exact\"}", "\"contended-time\",\"unit\":\"ns\",\"mode\":\"exact\"},{\"name\":\"x\"}"), "`locks`, thread 0 (\"main\"): the rows have 1 base values but there are 2 metrics"),
    ];
    for (bad, want) in &cases {
        assert_ne!(bad, &text, "the edit for {want:?} changed nothing");
        let e = error_of(bad);
        assert!(e.contains(want), "expected {want:?} in: {e}");
    }
    // Truncated anywhere: an error, never a panic.
    // (Without its final line break the file is still whole.)
    for cut in (0..text.len() - 1).step_by(7).chain([text.len() - 2]) {
        if text.is_char_boundary(cut) {
            error_of(&text[..cut]);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]
    /// Bytes changed anywhere: the reader answers with a one-line error or a run, and every report
    /// of a run it accepts can be written.
    #[test]
    fn mutated_files_never_panic(edits in proptest::collection::vec((any::<prop::sample::Index>(), prop::sample::select(b"0123456789,[]{}\":-n ".to_vec())), 1..4)) {
        let mut bytes = small().into_bytes();
        for (at, b) in edits {
            let i = at.index(bytes.len());
            bytes[i] = b;
        }
        let Ok(text) = String::from_utf8(bytes) else { return Ok(()) };
        match read(&text) {
            Err(e) => prop_assert!(!e.to_string().contains('\n'), "{e}"),
            Ok(Saved::Run(run)) => {
                let d = tempfile::tempdir().unwrap();
                let _ = write_all(&run, d.path(), &run_options(&run));
            }
            Ok(Saved::Trees(_)) => {}
        }
    }
}

#[test]
fn the_file_has_one_row_per_line_and_no_indentation() {
    let text = small();
    assert!(text.starts_with("{\"format\":\"hpm-arcflow\",\n\"version\":2,\n\"consumers\":[\n\"main\",\n\"Z.main\","), "{}", &text[..200]);
    assert!(text.ends_with("}\n"));
    assert!(!text.lines().any(|l| l.starts_with(' ')));
    assert!(text.contains("\n[4,3,1,7,8,9],\n"), "a row alone on its line");
}

/// A run that recorded no exact call (`calls=none` with `sample=cpu`) shows its sampled trees at
/// the top level and on the page, not thread roots alone; `sampled/` has them too. A run with
/// exact calls keeps them at the top level.
#[test]
fn a_run_without_exact_calls_shows_its_samples_at_the_top_level() {
    let mut run = sample_run();
    run.snapshot.compensation = None;
    let roots_only = |p: &Profile| {
        let mut q = Profile::new(p.bindings.clone());
        q.consumers = p.consumers.clone();
        for t in &p.threads {
            q.add_thread(&t.name);
        }
        q
    };
    // A method only the samples name (the tables are shared until here).
    add_thread(run.snapshot.samples.as_mut().unwrap(), "sampler-only", None, None, &[(&["S.onlySampled"], 3, &[3_000_000, 3_000_000, 0])]);
    let exact = run.snapshot.calls.clone();
    assert!(std::ptr::eq(&*run.calls_shown(), &run.snapshot.calls), "exact calls win");
    run.snapshot.calls = roots_only(&exact);
    assert!(std::ptr::eq(&*run.calls_shown(), run.snapshot.samples.as_ref().unwrap()), "samples shown without exact calls");

    let dir = tempfile::tempdir().unwrap();
    write_all(&run, dir.path(), &ReportOptions::default()).unwrap();
    let top = std::fs::read_to_string(dir.path().join("xprof.txt")).unwrap();
    assert!(top.contains("Count :: samples") && top.contains("S.onlySampled"), "{top}");
    let sampled = std::fs::read_to_string(dir.path().join("sampled/xprof.txt")).unwrap();
    assert_eq!(top, sampled);
    let page = std::fs::read_to_string(dir.path().join("explore.html")).unwrap();
    assert!(page.contains("S.onlySampled"), "the page's trees are the samples");

    // Neither exact calls nor samples: the (empty) exact trees, as before.
    run.snapshot.samples = Some(roots_only(&exact));
    assert!(std::ptr::eq(&*run.calls_shown(), &run.snapshot.calls));
}
