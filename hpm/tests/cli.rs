//! The `hpm` binary, run as a user would.

mod common;

use std::path::Path;
use std::process::Output;

use common::{hpm, stderr};

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn golden(name: &str) -> String {
    read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../reports/tests/golden/paper").join(name))
}

const FILES: [&str; 6] = ["xtree.txt", "xarc.txt", "xprof.txt", "arcflow.json", "collapsed.txt", "flame.svg"];

fn paper_trace(dir: &Path) -> std::path::PathBuf {
    let trace = dir.join("fig2.trace");
    std::fs::write(&trace, common::FIGURE_2).unwrap();
    trace
}

#[test]
fn paper_trace_renders_the_paper_reports() {
    let tmp = tempfile::tempdir().unwrap();
    let trace = paper_trace(tmp.path());
    let out = tmp.path().join("out");
    let o = hpm(&["report", "--trace", trace.to_str().unwrap(), "--out", out.to_str().unwrap(), "--metric-name", common::PAPER_METRIC]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(o.stderr.is_empty(), "{}", stderr(&o));
    let listed: Vec<String> = String::from_utf8(o.stdout).unwrap().lines().map(str::to_string).collect();
    assert_eq!(listed.len(), 6, "{listed:?}");
    for f in FILES {
        let p = out.join(f);
        assert!(listed.contains(&p.display().to_string()), "{f} not listed in {listed:?}");
        assert!(p.metadata().unwrap().len() > 0, "{f} is empty");
    }
    for f in ["xtree.txt", "xarc.txt", "xprof.txt"] {
        assert_eq!(read(&out.join(f)), golden(f), "{f}");
    }
    assert!(read(&out.join("collapsed.txt")).contains("AC_test_pidtid;Main;A;B 2\n"));
    let svg = read(&out.join("flame.svg"));
    assert!(svg.contains("<svg") && svg.contains("CPU time (s)"), "flame.svg has no title");
    // No temporary files are left behind.
    let names: Vec<String> = std::fs::read_dir(&out).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert_eq!(names.len(), 6, "{names:?}");
}

#[test]
fn rerendering_arcflow_json_gives_identical_reports() {
    let tmp = tempfile::tempdir().unwrap();
    let trace = paper_trace(tmp.path());
    let a = tmp.path().join("a");
    let o = hpm(&["report", "--trace", trace.to_str().unwrap(), "--out", a.to_str().unwrap(), "--metric-name", common::PAPER_METRIC]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // From the directory and from the file itself.
    for (i, input) in [a.clone(), a.join("arcflow.json")].iter().enumerate() {
        let b = tmp.path().join(format!("b{i}"));
        let o = hpm(&["report", input.to_str().unwrap(), "--out", b.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        for f in ["xtree.txt", "xarc.txt", "xprof.txt", "arcflow.json", "collapsed.txt"] {
            assert_eq!(read(&a.join(f)), read(&b.join(f)), "{f} differs after re-rendering");
        }
    }
    // Options: absolute values, one format, pruning, thread selection by its short name.
    let c = tmp.path().join("c");
    let o = hpm(&["report", a.to_str().unwrap(), "--out", c.to_str().unwrap(), "--absolute", "--format", "xprof,xtree", "--prune", "0.15", "--thread", "AC_test", "--metric", "CPU time"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!c.join("xarc.txt").exists());
    let xprof = read(&c.join("xprof.txt"));
    assert!(xprof.contains("Calls  Base  Cum  Ind  Name"), "{xprof}");
    assert!(xprof.contains("(pruned)"), "{xprof}");
}

#[test]
fn malformed_lines_warn_with_line_numbers_and_exit_0() {
    let tmp = tempfile::tempdir().unwrap();
    let trace = tmp.path().join("bad.trace");
    std::fs::write(&trace, "0 pidtid T\n0 > A\nxyz > B\n1 ? C\n2 < Q\n3 < A\n").unwrap();
    let out = tmp.path().join("out");
    let o = hpm(&["report", "--trace", trace.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(e.lines().all(|l| l.starts_with("hpm: warning: ")), "{e}");
    assert!(e.contains("line 3:"), "{e}");
    assert!(e.contains("line 4:"), "{e}");
    assert!(e.contains("line 5: end of `Q` without a matching start"), "{e}");
    assert!(read(&out.join("collapsed.txt")).contains("T_pidtid;A 3"));
}

fn assert_one_line_error(o: &Output, code: i32, needle: &str) {
    assert_eq!(o.status.code(), Some(code), "{}", stderr(o));
    let e = stderr(o);
    assert_eq!(e.lines().count(), 1, "not one line: {e}");
    assert!(e.starts_with("hpm: error: "), "{e}");
    assert!(e.contains(needle), "{e}");
    assert!(!e.contains("panicked"), "{e}");
}

#[test]
fn missing_trace_is_a_one_line_error_with_exit_1() {
    let tmp = tempfile::tempdir().unwrap();
    let missing = tmp.path().join("nope.trace");
    let o = hpm(&["report", "--trace", missing.to_str().unwrap(), "--out", tmp.path().join("o").to_str().unwrap()]);
    assert_one_line_error(&o, 1, "nope.trace");
    let o = hpm(&["report", missing.to_str().unwrap(), "--out", tmp.path().join("o").to_str().unwrap()]);
    assert_one_line_error(&o, 1, "nope.trace");
    let o = hpm(&["report", tmp.path().to_str().unwrap(), "--out", tmp.path().join("o").to_str().unwrap()]);
    assert_one_line_error(&o, 1, "no readable arcflow.json");
}

#[test]
fn bad_json_unknown_version_and_unknown_metric_are_input_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("o");
    let j = tmp.path().join("v2.json");
    std::fs::write(&j, r#"{"format":"hpm-arcflow","version":3,"metrics":[],"threads":[]}"#).unwrap();
    let o = hpm(&["report", j.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_one_line_error(&o, 1, "unsupported arcflow.json version 3: this hpm reads versions 1 and 2");
    // Version 2 is a whole run: a version 1 body is not one.
    std::fs::write(&j, r#"{"format":"hpm-arcflow","version":2,"metrics":[],"threads":[]}"#).unwrap();
    let o = hpm(&["report", j.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_one_line_error(&o, 1, "missing field `consumers`");
    std::fs::write(&j, r#"{"format":"hpm-arcflow","version":1,"metrics":[{"name":"t"}],"threads":[{"name":"x","root":{"name":"x","calls":1}"#).unwrap();
    let o = hpm(&["report", j.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_one_line_error(&o, 1, "line 1, column");
    std::fs::write(&j, [0xffu8, 0xfe, 0x00]).unwrap();
    let o = hpm(&["report", j.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_one_line_error(&o, 1, "not UTF-8");

    let trace = paper_trace(tmp.path());
    let o = hpm(&["report", "--trace", trace.to_str().unwrap(), "--out", out.to_str().unwrap(), "--metric", "instructions"]);
    assert_one_line_error(&o, 1, "unknown metric `instructions`");
    let o = hpm(&["report", "--trace", trace.to_str().unwrap(), "--out", out.to_str().unwrap(), "--thread", "nobody"]);
    assert_one_line_error(&o, 1, "no thread named `nobody`");
    // The output cannot be a file.
    let o = hpm(&["report", "--trace", trace.to_str().unwrap(), "--out", trace.to_str().unwrap()]);
    assert_one_line_error(&o, 1, "cannot write the reports");
}

#[test]
fn usage_errors_exit_2_and_help_documents_exit_codes() {
    let o = hpm(&["report", "--out", "x"]);
    assert_eq!(o.status.code(), Some(2));
    let o = hpm(&["report", "x", "--out", "y", "--format", "pdf"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unknown format `pdf`"));
    let o = hpm(&["report", "x", "--out", "y", "--prune", "2"]);
    assert_eq!(o.status.code(), Some(2));
    let o = hpm(&["report", "--help"]);
    assert_eq!(o.status.code(), Some(0));
    let help = String::from_utf8(o.stdout).unwrap();
    assert!(help.contains("Exit codes:") && help.contains("usage error"), "{help}");
}
