//! `hpm trace DIR`, run as a user would, on traces written by the collectors' `QuantumWriter`.

mod common;

use std::path::Path;

use common::{hpm, stderr, stdout, write_vp};
use hpm_collectors::quantum::files::MetaFile;
use hpm_model::quantum::{Meta, ThreadInfo, ThreadKind};

fn meta(dir: &Path) {
    meta_of(dir, "");
}

fn meta_of(dir: &Path, processor_kind: &str) {
    Meta {
        counters: vec!["real-time".into(), "cycles".into(), "instructions".into()],
        time_unit: "ns".into(),
        processor_kind: processor_kind.into(),
        processors: Vec::new(),
        threads: vec![
            ThreadInfo { id: 1, kind: ThreadKind::App, name: "main".into() },
            ThreadInfo { id: 2, kind: ThreadKind::Collector, name: "GC".into() },
            ThreadInfo { id: 3, kind: ThreadKind::Writer, name: "TraceWriter".into() },
            ThreadInfo { id: 4, kind: ThreadKind::Idle, name: "Idle".into() },
            ThreadInfo { id: 5, kind: ThreadKind::Collector, name: "GC1".into() },
        ],
        methods: vec![],
        missed: vec![(0, 0), (1, 0)],
    }
    .write(dir)
    .unwrap();
}

fn good_trace() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    write_vp(d, 0, &[(1, 0, 100, false, 200, 100), (2, 100, 150, false, 100, 80), (1, 150, 250, true, 200, 150), (3, 250, 260, false, 20, 5)], Some((150, "steady")), 300);
    write_vp(d, 1, &[(4, 0, 100, false, 10, 1), (5, 100, 150, false, 100, 90), (4, 150, 260, false, 20, 2)], None, 300);
    meta(d);
    tmp
}

#[test]
fn trace_prints_validation_thread_and_processor_tables() {
    let tmp = good_trace();
    let o = hpm(&["trace", tmp.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(o.stderr.is_empty(), "{}", stderr(&o));
    let s = stdout(&o);
    assert!(s.starts_with("Validation: valid (0 error(s), 0 warning(s)); 7 records on 2 processor(s), 0 missed\n"), "{s}");
    let lines: Vec<&str> = s.lines().collect();
    let head = lines.iter().position(|l| l.starts_with("Thread ")).expect(&s);
    let cols: Vec<&str> = lines[head].split_whitespace().collect();
    assert_eq!(cols, ["Thread", "Kind", "Cycles", "Records", "Yields", "IPC", "Instr/record", "real-time", "cycles", "instructions"]);
    // main: 400 of 650 cycles, 2 records, 1 yield, IPC 250/400, 125 instructions per record.
    let main: Vec<&str> = lines[head + 1].split_whitespace().collect();
    assert_eq!(main, ["main", "app", "61.54%", "2", "1", "0.625", "125", "200", "400", "250"]);
    let gc: Vec<&str> = lines[head + 2].split_whitespace().collect();
    assert_eq!(gc, ["GC", "collector", "15.38%", "1", "0", "0.800", "80", "50", "100", "80"]);
    let gc1: Vec<&str> = lines[head + 3].split_whitespace().collect();
    assert_eq!(gc1, ["GC1", "collector", "15.38%", "1", "0", "0.900", "90", "50", "100", "90"]);
    let words = |prefix: &str| -> Vec<String> {
        let l = lines.iter().find(|l| l.starts_with(prefix)).unwrap_or_else(|| panic!("{prefix}: {s}"));
        l.split_whitespace().map(str::to_string).collect()
    };
    assert_eq!(words("vp 0 "), ["vp", "0", "4", "0", "260", "100.00%", "260", "520", "335"]);
    assert_eq!(words("vp 1 "), ["vp", "1", "3", "0", "260", "100.00%", "260", "130", "93"]);
    // The application record after the GC (vp 1's idle thread is not listed) and after the marker.
    let gc_at = s.find("Records after each GC:\n  GC 1 (100 to 150) at 150:\n    vp 0 main 150..250 (100) yielded cycles=200 instructions=150\n");
    assert!(gc_at.is_some(), "{s}");
    assert!(s.contains("Records after each marker:\n  app-start \"steady\" (vp 0) at 150:\n    vp 0 main 150..250 (100) yielded"), "{s}");
}

#[test]
fn trace_csv_and_json() {
    let tmp = good_trace();
    let o = hpm(&["trace", "--csv", tmp.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let s = stdout(&o);
    let lines: Vec<&str> = s.lines().collect();
    assert_eq!(lines[0], "scope,id,name,kind,share,records,yields,ipc,instructions_per_record,missed,coverage,real-time,cycles,instructions");
    assert_eq!(lines[1], "thread,1,main,app,0.615385,2,1,0.625000,125.000000,,,200,400,250");
    assert_eq!(lines.len(), 1 + 5 + 2);
    assert_eq!(lines[7], "vp,1,,,,3,,,,0,1.000000,260,130,93");

    let o = hpm(&["trace", "--json", tmp.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["valid"], true);
    assert_eq!(v["records"], 7);
    assert_eq!(v["share_basis"], "cycles");
    assert_eq!(v["threads"][0]["name"], "main");
    assert_eq!(v["threads"][0]["yields"], 1);
    assert_eq!(v["threads"][0]["totals"], serde_json::json!([200, 400, 250]));
    assert_eq!(v["processors"].as_array().unwrap().len(), 2);
    assert_eq!(v["after_gc"][0]["records"][0]["thread"], 1);
    assert_eq!(v["after_gc"][0]["records"][0]["start"], 150);
    assert_eq!(v["after_markers"][0]["label"], "app-start \"steady\" (vp 0)");
}

#[test]
fn trace_errors_exit_1_with_one_line() {
    let tmp = tempfile::tempdir().unwrap();
    let missing = tmp.path().join("nope");
    let o = hpm(&["trace", missing.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(e.starts_with("hpm: error: cannot read ") && e.contains("quantum.meta"), "{e}");
    assert!(o.stdout.is_empty());

    // A thread on two processors at once: the report is printed, then one error line, exit 1.
    let d = tmp.path();
    write_vp(d, 0, &[(1, 0, 100, false, 200, 100)], None, 300);
    write_vp(d, 1, &[(1, 50, 120, false, 10, 1)], None, 300);
    meta(d);
    let o = hpm(&["trace", d.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(
        e.contains("is not a valid quantum trace: 1 error(s), the first: error: quantum.vp1.trace at byte 32: thread 1 on processor 1 from 50 while it runs on processor 0 until 100"),
        "{e}"
    );
    assert!(stdout(&o).starts_with("Validation: INVALID (1 error(s), 0 warning(s))"), "{}", stdout(&o));

    // A truncated file.
    let f = d.join("quantum.vp1.trace");
    let bytes = std::fs::read(&f).unwrap();
    std::fs::write(&f, &bytes[..bytes.len() - 20]).unwrap();
    let o = hpm(&["trace", "--json", d.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("quantum.vp1.trace at byte 32: truncated quantum record: 44 of 48 bytes"), "{}", stderr(&o));
}

/// A trace of OS threads (meta `processor-kind cpu`) names its processors as CPUs, in the tables and
/// in the JSON; other traces keep `vp`.
#[test]
fn processors_of_os_thread_traces_are_cpus() {
    let tmp = good_trace();
    let d = tmp.path();
    let vp = stdout(&hpm(&["trace", d.to_str().unwrap()]));
    assert!(vp.contains("\nvp 0 ") && !vp.contains("cpu 0"), "{vp}");
    meta_of(d, "cpu");
    let cpu = stdout(&hpm(&["trace", d.to_str().unwrap()]));
    assert!(cpu.contains("Processors: CPUs") && cpu.contains("\ncpu 0 ") && cpu.contains("\ncpu 1 ") && !cpu.contains("\nvp 0"), "{cpu}");
    let json = stdout(&hpm(&["trace", "--json", d.to_str().unwrap()]));
    assert!(json.contains("\"processor_kind\":\"cpu\""), "{json}");
}

/// A record whose cpu-time is above its real time (its counters and its switch times are read at
/// slightly different moments) is marked where it is listed, and a note says how many and by how
/// much; the JSON says it too.
#[test]
fn records_with_more_cpu_time_than_real_time_get_a_caveat() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    write_vp(d, 0, &[(1, 0, 100, false, 130, 5), (1, 100, 200, false, 90, 5)], Some((0, "go")), 300);
    Meta {
        counters: vec!["real-time".into(), "cpu-time".into(), "instructions".into()],
        time_unit: "ns".into(),
        processor_kind: "cpu".into(),
        processors: Vec::new(),
        threads: vec![ThreadInfo { id: 1, kind: ThreadKind::App, name: "main".into() }],
        methods: vec![],
        missed: vec![(0, 0)],
    }
    .write(d)
    .unwrap();
    let o = hpm(&["trace", d.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let s = stdout(&o);
    assert!(s.contains("Note: 1 record(s) show more cpu-time than real time (by at most 30 ns)"), "{s}");
    assert!(s.contains("cpu 0 main 0..100 (100) cpu-time=130 (cpu-time above real time: see the note) instructions=5"), "{s}");
    assert!(s.contains("cpu 0 main 100..200 (100) cpu-time=90 instructions=5\n"), "{s}");
    let o = hpm(&["trace", "--json", d.to_str().unwrap()]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["cpu_above_real"], serde_json::json!({"records": 1, "max_excess_ns": 30}));
}
