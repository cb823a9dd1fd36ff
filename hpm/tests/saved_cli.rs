//! `hpm report DIR` on a directory written by `write_all` from a real recorder's snapshot (the
//! agent's path without a VM): every file comes back byte for byte, options shape the call-tree
//! reports, `--format` renders only those, and a damaged arcflow.json is a one-line error.

mod common;
#[path = "../../reports/tests/support/files.rs"]
mod files_under;

use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use common::{hpm, stderr};
use files_under::files;
use hpm_model::metrics::{Metric, MetricSet, ThreadMetrics};
use hpm_model::snapshot::{ClassFilter, CodeEntry, RecorderConfig};
use hpm_collectors::recorder::{MethodResolver, Recorder, ThreadInfo};
use hpm_model::saved::{Saved, SavedRun};
use hpm_reports::saved;
use hpm_model::saved::Mark;
use hpm_model::saved::run::RunIdentity;

/// CPU time and wall time that the test advances by hand.
struct Clock(Arc<AtomicU64>);
struct ClockReader(Arc<AtomicU64>);
impl ThreadMetrics for ClockReader {
    fn read(&mut self, out: &mut [u64]) {
        let t = self.0.load(Ordering::Relaxed);
        out[0] = t;
        out[1] = t + t / 3;
    }
}
impl MetricSet for Clock {
    fn metrics(&self) -> Vec<Metric> {
        vec![Metric::new("cpu-time", "ns"), Metric::new("wall-time", "ns")]
    }
    fn open_current_thread(&self) -> Box<dyn ThreadMetrics> {
        Box::new(ClockReader(self.0.clone()))
    }
}
struct Names;
impl MethodResolver for Names {
    fn resolve(&mut self, m: u64, _: &ClassFilter, out: &mut Vec<(u64, Option<String>)>) {
        out.push((m, Some(format!("com.acme.C.m{m}"))));
    }
    fn stack(&mut self, _: &mut Vec<u64>) {}
}

/// A run recorded by a recorder: two threads with calls, a contended lock and a wait, a
/// collection, code, a calibrated probe cost; the agent's additions.
fn recorded_run() -> SavedRun {
    let clock = Arc::new(AtomicU64::new(0));
    let r = Recorder::new(RecorderConfig::default(), Box::new(Clock(clock.clone())));
    r.calibrate(3, 200);
    let tick = |ns: u64| clock.fetch_add(ns, Ordering::Relaxed);
    for (name, tid) in [("main", 100), ("worker-1", 101)] {
        let t = r.register_current_thread(ThreadInfo { name: name.into(), kind: Some("application".into()), os_tid: Some(tid) });
        for rep in 0..3u64 {
            r.method_entry(&t, 1, &mut Names);
            tick(1_000 + rep);
            r.method_entry(&t, 2 + rep % 2, &mut Names);
            tick(123_457);
            r.method_exit(&t, 2 + rep % 2, false, &mut Names);
            r.method_exit(&t, 1, false, &mut Names);
        }
        r.monitor_contended_enter(&t, "com.acme.Lock");
        r.monitor_contended_entered(&t);
        r.monitor_wait(&t, "java.lang.Object");
        r.monitor_waited(&t, true);
        r.end_thread(&t);
    }
    r.gc_start();
    r.gc_finish();
    r.code_load(CodeEntry { start: 0x7f00_1000, size: 0x80, name: "com.acme.C.m2".into(), kind: "compiled", method: 2, inlined: vec![], inlined_methods: vec![] });
    SavedRun {
        snapshot: r.snapshot(),
        run: Some(RunIdentity { pid: 77, main: "com.acme.Main".into(), started_unix_ms: Some(1_700_000_000_000), dumped_unix_ms: 1_700_000_060_500 }),
        vm_cost: None,
        marks: Some(vec![Mark { at_ns: 5_000_000, method_events: 7, text: "phase 2".into() }]),
    }
}


fn report(args: &[&str]) -> Vec<String> {
    let mut all = vec!["report"];
    all.extend(args);
    let o = hpm(&all);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    String::from_utf8(o.stdout).unwrap().lines().map(String::from).collect()
}

#[test]
fn hpm_report_regenerates_every_file_of_a_saved_run() {
    let tmp = tempfile::tempdir().unwrap();
    let (agent, again) = (tmp.path().join("agent"), tmp.path().join("again"));
    let run = recorded_run();
    assert!(run.snapshot.compensation.is_some());
    hpm_reports::write_all(&run, &agent, &saved::run_options(&run)).unwrap();
    let listed = report(&[agent.to_str().unwrap(), "--out", again.to_str().unwrap()]);
    let (a, b) = (files(&agent), files(&again));
    assert_eq!(listed.len(), a.len(), "{listed:?}");
    for want in ["arcflow.json", "arcflow-raw.json", "threads.txt", "threads.json", "compensation.txt", "marks.txt", "locks/xarc.txt", "waits/xprof.txt", "threads/001-worker-1/xtree.txt"] {
        assert!(a.contains_key(Path::new(want)), "{want} not written: {:?}", a.keys());
    }
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
    for (p, bytes) in &a {
        assert!(b[p] == *bytes, "{} differs", p.display());
    }
    let threads = String::from_utf8(b[Path::new("threads.txt")].clone()).unwrap();
    assert!(threads.starts_with("Run: pid 77 (com.acme.Main), started 2023-11-14T22:13:20Z, dumped 2023-11-14T22:14:20Z\n"), "{threads}");

    // The loader gives the compensated trees the reports show.
    let loaded = saved::load(&again).unwrap();
    assert_eq!(loaded.version(), 2);
    let Saved::Run(back) = &loaded else { panic!("version 1") };
    assert_eq!(common::named_contexts(&loaded.calls()), common::named_contexts(&run.snapshot.compensated_calls()));
    assert_eq!(common::named_contexts(&back.snapshot.locks), common::named_contexts(&run.snapshot.locks));

    // Options shape the call-tree reports; the other files stay the agent's.
    let shaped = tmp.path().join("shaped");
    report(&[agent.to_str().unwrap(), "--out", shaped.to_str().unwrap(), "--metric", "wall-time", "--absolute", "--thread", "worker-1"]);
    let c = files(&shaped);
    let xprof = String::from_utf8(c[Path::new("xprof.txt")].clone()).unwrap();
    assert!(xprof.starts_with("Units :: wall-time (ns)") && xprof.contains("Threads :: 1  Values :: absolute"), "{xprof}");
    assert!(!String::from_utf8(c[Path::new("threads.txt")].clone()).unwrap().contains(" main\n"), "only worker-1 in threads.txt");
    assert!(c[Path::new("locks/xtree.txt")].len() < a[Path::new("locks/xtree.txt")].len(), "locks of worker-1 only");
    assert_eq!(c[Path::new("code.txt")], a[Path::new("code.txt")]);

    // --format: only those files of the call trees.
    let only = tmp.path().join("only");
    let listed = report(&[agent.to_str().unwrap(), "--out", only.to_str().unwrap(), "--format", "xprof,json"]);
    assert_eq!(listed.len(), 2, "{listed:?}");
    assert_eq!(saved::load(&only).unwrap().version(), 1, "arcflow.json of the call trees only");
}

#[test]
fn damaged_saved_runs_are_one_line_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("agent");
    let run = recorded_run();
    hpm_reports::write_all(&run, &dir, &saved::run_options(&run)).unwrap();
    let text = std::fs::read_to_string(dir.join("arcflow.json")).unwrap();
    let bad = tmp.path().join("bad.json");
    let out = tmp.path().join("o");
    for (damaged, want) in [
        (text[..text.len() / 2].to_string(), "EOF while parsing"),
        (text.replacen("[null,", "[3,", 1), "node row 0 is the root"),
        (text.replacen("\"version\":2", "\"version\":9", 1), "unsupported arcflow.json version 9"),
    ] {
        std::fs::write(&bad, damaged).unwrap();
        let o = hpm(&["report", bad.to_str().unwrap(), "--out", out.to_str().unwrap()]);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{e}");
        assert_eq!(e.lines().count(), 1, "{e}");
        assert!(e.starts_with("hpm: error: ") && e.contains("is not a valid arcflow.json") && e.contains(want), "{e}");
    }
}
