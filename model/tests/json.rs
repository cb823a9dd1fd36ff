//! arcflow.json: the documented examples parse, the reader is strict about what matters and lenient
//! about key order and unknown keys, and errors say where and what.

mod common;

use hpm_model::arcflow::{Bindings, Metric, Profile, Tree};
use hpm_model::saved::v1;

#[test]
fn the_paper_example_round_trips_and_matches_the_documentation() {
    let p = common::paper_profile();
    let text = String::from_utf8(v1::to_vec(&p)).unwrap();
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/arcflow-json.md")).unwrap();
    assert!(doc.contains(text.trim_end()), "docs/arcflow-json.md shows another JSON for the paper example:\n{text}");
    let q = v1::read(&text).unwrap();
    assert_eq!(common::named_contexts(&p), common::named_contexts(&q));
}

#[test]
fn every_json_block_of_the_documentation_is_readable() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/arcflow-json.md")).unwrap();
    let blocks: Vec<&str> = doc.split("```json\n").skip(1).map(|b| b.split("```").next().unwrap()).collect();
    assert_eq!(blocks.len(), 3);
    v1::read(blocks[0]).unwrap();
    let wrapped = format!(
        r#"{{"format":"hpm-arcflow","version":1,"metrics":[{{"name":"a","unit":"ns"}},{{"name":"b","unit":""}}],"threads":[{}]}}"#,
        blocks[1]
    );
    let p = v1::read(&wrapped).unwrap();
    assert_eq!(p.threads[0].kind.as_deref(), Some("application"));
    assert_eq!(p.threads[0].os_tid, Some(4711));
    // The version 2 example is what the writer writes for a small run.
    let written = String::from_utf8(hpm_model::saved::v2::to_vec(&small_run())).unwrap();
    assert_eq!(blocks[2], written, "docs/arcflow-json.md shows another version 2 file than the writer writes");
    let Ok(hpm_model::saved::Saved::Run(back)) = hpm_model::saved::read(blocks[2]) else { panic!("the version 2 example does not read") };
    assert_eq!(common::named_contexts(&back.snapshot.calls), common::named_contexts(&common::paper_profile()));
}

/// The paper's example as a saved run: its call trees, empty lock and wait trees, one collection,
/// the run's identity and a marker.
fn small_run() -> hpm_model::saved::SavedRun {
    use hpm_model::snapshot::{GcRecord, RecorderConfig, Snapshot, ThreadSummary};
    let calls = common::paper_profile();
    let empty = |label: &str, count: &str, metrics: Vec<Metric>| {
        let mut p = Profile::new(Bindings { consumer_label: label.into(), count_label: count.into(), metrics });
        p.consumers = calls.consumers.clone();
        p.add_thread("AC_test_pidtid");
        p
    };
    let locks = empty("methods and monitor classes", "contended entries", vec![Metric::new("contended-time", "ns")]);
    let waits = empty("methods and monitor classes", "waits", vec![Metric::new("wait-time", "ns"), Metric::new("timed-out", "waits")]);
    let summary = ThreadSummary { name: "AC_test_pidtid".into(), method_events: 26, end_ns: Some(10_000_000_000), ..ThreadSummary::default() };
    hpm_model::saved::SavedRun {
        snapshot: Snapshot {
            calls,
            locks,
            waits,
            samples: None,
            sample_states: None,
            sample_timelines: None,
            alloc_samples: None,
            sample_forms: vec![],
            stack_forms: vec![],
            compiles: vec![],
            threads: vec![summary],
            gc: vec![GcRecord { start_ns: 4_000_000_000, duration_ns: 1_500_000, threads_stopped: 1 }],
            gc_dropped: 0,
            gc_count: 1,
            gc_total_ns: 1_500_000,
            code: vec![],
            code_loads: 0,
            code_unloads: 0,
            classes_loaded: 12,
            classes_prepared: 12,
            uptime_ns: 10_000_000_000,
            config: RecorderConfig::default(),
            compensation: None,
            phase_calls: Vec::new(),
            probe_requests: Vec::new(),
            probe_windows: Vec::new(),
        },
        run: Some(hpm_model::saved::run::RunIdentity { pid: 4711, main: "Main".into(), started_unix_ms: Some(1_778_311_763_000), dumped_unix_ms: 1_778_311_773_000 }),
        vm_cost: None,
        marks: Some(vec![hpm_model::saved::Mark { at_ns: 5_000_000_000, method_events: 13, text: "phase 2".into() }]),
    }
}

#[test]
fn names_with_escapes_and_unicode_survive() {
    let mut p = Profile::new(Bindings::methods(vec![Metric::new("t \"q\"", "ns")]));
    let weird = ["a\"b\\c", "tab\there", "line\nbreak", "λ-café ☕", "\u{1F600} emoji", "ctl\u{1}x", "(Ljava/lang/String;)V"];
    let ids: Vec<u32> = weird.iter().map(|w| p.consumers.intern(w)).collect();
    p.add_thread("thr/ø");
    p.threads[0].kind = Some("daemon".into());
    p.threads[0].os_tid = Some(u64::MAX);
    let t = &mut p.threads[0].tree;
    for (i, &c) in ids.iter().enumerate() {
        let n = t.child(Tree::ROOT, c);
        t.add_calls(n, i as u64 + 1);
        t.add_base(n, &[u64::MAX - i as u64]);
    }
    let text = String::from_utf8(v1::to_vec(&p)).unwrap();
    let q = v1::read(&text).unwrap();
    assert_eq!(q.bindings, p.bindings);
    assert_eq!(q.threads[0].name, "thr/ø");
    assert_eq!(q.threads[0].kind.as_deref(), Some("daemon"));
    assert_eq!(q.threads[0].os_tid, Some(u64::MAX));
    assert_eq!(common::named_contexts(&p), common::named_contexts(&q));
}

#[test]
fn key_order_is_free_and_unknown_keys_are_skipped() {
    let text = r#" {"threads":[{"root":{"children":[{"base":[5],"extra":{"deep":[[1,{"x":null}]]},"calls":2,"name":"B"}],
        "calls":1,"name":"T","base":[1]},"future":true,"name":"T"}],
        "version":"1.3","metrics":[{"unit":"ns","name":"t","scale":1.5}],"format":"hpm-arcflow"} "#;
    let p = v1::read(text).unwrap();
    let t = &p.threads[0].tree;
    assert_eq!(t.len(), 2);
    assert_eq!((t.calls(1), t.base(1)), (2, &[5u64][..]));
    assert_eq!(p.bindings.metrics, vec![Metric::new("t", "ns")]);
    assert_eq!(p.bindings.consumer_label, "consumers");
}

#[test]
fn errors_say_where_and_what() {
    let cases = [
        ("", "expected a JSON object"),
        ("[]", "expected a JSON object"),
        (r#"{"format":"other","version":1}"#, "not an arcflow.json file"),
        (r#"{"version":1,"metrics":[],"threads":[]}"#, "no `format` field"),
        (r#"{"format":"hpm-arcflow","metrics":[],"threads":[]}"#, "no `version` field"),
        (r#"{"format":"hpm-arcflow","version":7,"metrics":[],"threads":[]}"#, "unsupported arcflow.json version 7"),
        (r#"{"format":"hpm-arcflow","version":1,"threads":[]}"#, "no `metrics` field"),
        (
            r#"{"format":"hpm-arcflow","version":1,"metrics":[{"name":"t"}],"threads":[{"name":"T","root":{"name":"T","calls":-1,"base":[0]}}]}"#,
            "`calls` must be a non-negative integer, found number -1",
        ),
        (
            r#"{"format":"hpm-arcflow","version":1,"metrics":[{"name":"t"}],"threads":[{"name":"T","root":{"name":"T","calls":1,"base":[0,1]}}]}"#,
            "2 base values but there are 1 metrics",
        ),
        (
            r#"{"format":"hpm-arcflow","version":1,"metrics":[{"name":"t"}],"threads":[{"name":"T","root":{"calls":1,"base":[0]}}]}"#,
            "a node without `name`",
        ),
        (r#"{"format":"hpm-arcflow","version":1,"metrics":[{"name":"t"}],"threads":[{"name":"T"}]}"#, "a thread without `root`"),
        (
            r#"{"format":"hpm-arcflow","version":1,"metrics":[{"name":"t"}],"threads":[{"name":"T","root":{"name":"T","calls":1,"base":[0],"children":[{"name":"A" "calls":1}]}}]}"#,
            "expected `,` or `}`",
        ),
        (r#"{"format":"hpm-arcflow","version":1,"metrics":[],"threads":[]} x"#, "unexpected"),
        ("{\"format\":\"hpm-arcflow\n\"}", "control character"),
        (r#"{"format":"hpm-arcflow","version":1,"metrics":[],"threads":[{"name":"T","root":{"name":"T","calls":1,"base":[],"children":[{"#, "expected an object key"),
    ];
    for (text, want) in cases {
        let e = v1::read(text).expect_err(text).to_string();
        assert!(e.contains(want), "{text}\n  gave: {e}\n  want: {want}");
    }
    // Line and column are counted from 1.
    let e = v1::read("{\n  \"format\": 5}").unwrap_err().to_string();
    assert!(e.starts_with("line 2, column 13:"), "{e}");
}

#[test]
fn truncated_documents_never_panic() {
    let p = common::paper_profile();
    let text = String::from_utf8(v1::to_vec(&p)).unwrap();
    for cut in 0..text.trim_end().len() {
        if text.is_char_boundary(cut) {
            assert!(v1::read(&text[..cut]).is_err(), "a prefix of {cut} bytes was accepted");
        }
    }
}

mod fuzz {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(500))]

        #[test]
        fn arbitrary_text_never_panics(s in "\\PC*") {
            let _ = v1::read(&s);
        }

        #[test]
        fn damaged_documents_never_panic(edits in prop::collection::vec((0usize..800, prop::sample::select(vec!['{', '}', '[', ']', ',', ':', '"', '\\', '1', '-', 'x', ' ', 'é'])), 1..6)) {
            let mut text: Vec<char> = String::from_utf8(v1::to_vec(&common::paper_profile())).unwrap().chars().collect();
            for (at, c) in edits {
                let i = at % text.len();
                text[i] = c;
            }
            let s: String = text.into_iter().collect();
            if let Ok(p) = v1::read(&s) {
                // Whatever was accepted is a consistent model.
                for th in &p.threads {
                    prop_assert!(th.tree.check().is_ok());
                }
            }
        }
    }
}
