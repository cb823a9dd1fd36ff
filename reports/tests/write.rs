//! `write_reports` and its options on multi-thread, multi-metric profiles.

mod common;

use hpm_model::text_trace::read_text_trace;
use hpm_reports::{write_reports, xarc, xprof, xtree, Format, ReportOptions};

/// Two threads with two metrics; thread T2 calls B, which T1 also calls from A.
const TWO_THREADS: &str = "0 0 pidtid T1
0 0 > Main
1 10 > A
3 11 > B
6 20 < B
8 20 < A
8 20 < Main
100 0 pidtid T2
100 0 > B
104 1 < B
";

fn profile() -> hpm_model::arcflow::Profile {
    let t = read_text_trace(TWO_THREADS.as_bytes(), &["cpu-time:ns".into(), "misses".into()]).unwrap();
    assert!(t.warnings.is_empty(), "{:?}", t.warnings);
    t.profile
}

#[test]
fn percentages_are_of_the_total_over_all_threads_and_threads_are_consumers() {
    let p = profile();
    assert_eq!(p.total(), vec![12, 21]);
    let opts = ReportOptions { absolute: true, ..ReportOptions::default() };
    let xp = xprof::render(&p, &opts);
    // B is called on both threads: 3 + 4 = 7 base, 2 calls.
    let b = xp.lines().find(|l| l.ends_with(" B")).unwrap();
    assert_eq!(b.split_whitespace().collect::<Vec<_>>()[..3], ["2", "7", "7"], "{xp}");
    // Both threads have a stanza with no parent rows.
    let xa = xarc::render(&p, &opts);
    for t in ["T1_pidtid", "T2_pidtid"] {
        let self_line = xa.lines().position(|l| l.starts_with("Self") && l.ends_with(&format!("] {t}"))).unwrap();
        assert!(xa.lines().nth(self_line - 1).unwrap().starts_with("====="), "{t} has parents:\n{xa}");
    }
    // Percentages: B's base is 7 of 12.
    let pct = xprof::render(&p, &ReportOptions::default());
    assert!(pct.lines().any(|l| l.split_whitespace().collect::<Vec<_>>() == ["2", "58.33", "58.33", "58.33", "0", "B"]
        || l.ends_with(" B") && l.contains("58.33")), "{pct}");
    // xtree shows each thread's tree in turn.
    let xt = xtree::render(&p, &opts);
    let names: Vec<&str> = xt.lines().skip(5).map(|l| l.split_whitespace().last().unwrap()).collect();
    assert_eq!(names, ["T1_pidtid", "Main", "A", "B", "T2_pidtid", "B"], "{xt}");
}

#[test]
fn extra_metric_columns_and_metric_choice() {
    let p = profile();
    let opts = ReportOptions { absolute: true, metric: 1, ..ReportOptions::default() };
    let xp = xprof::render(&p, &opts);
    assert!(xp.starts_with("Units :: misses  Total :: 21\n"), "{xp}");
    assert!(xp.contains("Base:cpu-time"), "{xp}");
    // A: misses base 1 (10→11), cum 10 (with B's 9); cpu-time base 4 (1→3 and 6→8).
    // Order by misses cum: Main 20 (base 10), T1 20 (base 0), B 10 (base 10), A 10 (base 1).
    let a = xp.lines().find(|l| l.ends_with(" A")).unwrap();
    let f: Vec<&str> = a.split_whitespace().collect();
    assert_eq!(f, ["1", "1", "10", "4", "3", "A"], "{xp}");
    let no_extra = xprof::render(&p, &ReportOptions { extra_metrics: false, ..opts });
    assert!(!no_extra.contains("Base:cpu-time"));
}

#[test]
fn thread_selection_per_thread_views_and_formats() {
    let p = profile();
    let dir = tempfile::tempdir().unwrap();
    let opts = ReportOptions {
        threads: vec!["T2".into()],
        per_thread: true,
        formats: vec![Format::Xprof, Format::Xtree, Format::Json],
        ..ReportOptions::default()
    };
    let files = write_reports(&p, dir.path(), &opts).unwrap();
    let rel: Vec<String> =
        files.iter().map(|f| f.strip_prefix(dir.path()).unwrap().display().to_string()).collect();
    assert_eq!(rel, ["xtree.txt", "xprof.txt", "arcflow.json", "threads/000-T2_pidtid/xtree.txt", "threads/000-T2_pidtid/xprof.txt"]);
    let xt = std::fs::read_to_string(dir.path().join("xtree.txt")).unwrap();
    assert!(!xt.contains("T1_pidtid") && xt.contains("T2_pidtid"), "{xt}");
    let j = hpm_model::saved::v1::read(&std::fs::read_to_string(dir.path().join("arcflow.json")).unwrap()).unwrap();
    assert_eq!(j.threads.len(), 1);

    let bad = ReportOptions { threads: vec!["T3".into()], ..ReportOptions::default() };
    let e = write_reports(&p, dir.path(), &bad).unwrap_err();
    assert_eq!(e.kind(), std::io::ErrorKind::InvalidInput);
    assert!(e.to_string().contains("no thread named `T3`"), "{e}");
    let bad = ReportOptions { metric: 2, ..ReportOptions::default() };
    assert!(write_reports(&p, dir.path(), &bad).unwrap_err().to_string().contains("out of range"));
    let bad = ReportOptions { prune: f64::NAN, ..ReportOptions::default() };
    assert!(write_reports(&p, dir.path(), &bad).is_err());
}

#[test]
fn pruned_reports_show_the_pruned_consumer_and_json_stays_complete() {
    let p = common::paper_profile();
    let dir = tempfile::tempdir().unwrap();
    let opts = ReportOptions { prune: 0.25, absolute: true, ..ReportOptions::default() };
    write_reports(&p, dir.path(), &opts).unwrap();
    let xt = std::fs::read_to_string(dir.path().join("xtree.txt")).unwrap();
    assert!(xt.contains("(pruned)"), "{xt}");
    assert!(!xt.contains(" E\n"), "{xt}");
    let j = hpm_model::saved::v1::read(&std::fs::read_to_string(dir.path().join("arcflow.json")).unwrap()).unwrap();
    assert_eq!(common::named_contexts(&j), common::named_contexts(&p));
}

#[test]
fn an_empty_profile_still_gives_every_file() {
    let t = read_text_trace("".as_bytes(), &[]).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let files = write_reports(&t.profile, dir.path(), &ReportOptions::default()).unwrap();
    assert_eq!(files.len(), 6);
    let svg = std::fs::read_to_string(dir.path().join("flame.svg")).unwrap();
    assert!(svg.contains("No samples"));
}

#[test]
fn flame_graph_folds_invisible_contexts_without_losing_their_total() {
    use hpm_model::arcflow::{Bindings, Metric, Profile, Tree};
    let mut p = Profile::new(Bindings::methods(vec![Metric::new("cpu-time", "ns")]));
    let big = p.consumers.intern("big");
    let small: Vec<u32> = (0..50_000).map(|i| p.consumers.intern(&format!("tiny{i}"))).collect();
    p.add_thread("main");
    let t = &mut p.threads[0].tree;
    let b = t.child(Tree::ROOT, big);
    t.add_base(b, &[1_000_000_000]);
    for &c in &small {
        let n = t.child(b, c);
        t.add_base(n, &[1_000]); // 0.0001% each: far below the 0.01% inferno draws
    }
    let svg = String::from_utf8(hpm_reports::flame::render(&p, &ReportOptions::default()).unwrap()).unwrap();
    assert!(!svg.contains("tiny1"), "invisible frames were drawn");
    // Together the tiny contexts are 5% of the total: one visible `(pruned)` frame.
    assert!(svg.contains("<title>(pruned) (50,000,000 ns, 4.76%)</title>"), "{}", &svg[svg.len().saturating_sub(2000)..]);
    assert!(svg.contains("all (1,050,000,000 ns, 100%)"));
    // collapsed.txt keeps every context.
    let folded = hpm_reports::collapsed::render(&p, &ReportOptions::default());
    assert_eq!(folded.lines().count(), 50_001);
}

/// A tree of `n` + 2 nodes on one thread: Main calling `n` different methods once each.
fn wide(n: usize) -> hpm_model::arcflow::Profile {
    let mut text = String::from("0 0 pidtid T1\n0 0 > Main\n");
    for i in 0..n {
        text.push_str(&format!("{} {} > M{i}\n{} {} < M{i}\n", 2 * i + 1, i, 2 * i + 2, i + 1));
    }
    text.push_str(&format!("{} {n} < Main\n", 2 * n + 3));
    read_text_trace(text.as_bytes(), &["cpu-time:ns".into(), "misses".into()]).unwrap().profile
}

/// Small trees are rendered on the calling thread, large ones (10,000 nodes and more) by a thread
/// per group of formats: either way every file holds exactly what its format renders.
#[test]
fn every_file_is_its_format_rendered_whether_written_in_parallel_or_not() {
    let opts = ReportOptions { prune: 0.0, ..ReportOptions::default() };
    for p in [profile(), wide(50), wide(12_000)] {
        let nodes: usize = p.threads.iter().map(|t| t.tree.len()).sum();
        let dir = tempfile::tempdir().unwrap();
        let files = write_reports(&p, dir.path(), &opts).unwrap();
        assert_eq!(files.len(), opts.formats.len(), "{nodes} nodes: {files:?}");
        for f in &opts.formats {
            let written = std::fs::read(dir.path().join(f.file_name())).unwrap();
            assert!(written == hpm_reports::render(&p, *f, &opts).unwrap(), "{nodes} nodes: {} differs from its rendering", f.file_name());
        }
    }
}
