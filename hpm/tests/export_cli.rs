//! `hpm export` and `hpm import` on bad input and bad options: one line naming the cause, exit 1
//! (2 for usage errors), never a panic; and the output choices (-o FILE, -o -, the default name).
//! The formats themselves are tested on real profiles by their consumers in `agent/tests/exports.rs`.

mod common;

use std::path::Path;
use std::process::Output;

use common::{hpm, stderr, stdout};

fn s(p: &Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

fn one_error_line(o: &Output, code: i32, wanted: &str) {
    let e = stderr(o);
    assert_eq!(o.status.code(), Some(code), "{e}");
    assert!(!e.contains("panicked"), "{e}");
    assert_eq!(e.trim_end().lines().count(), 1, "{e}");
    assert!(e.contains(wanted), "wanted `{wanted}` in: {e}");
}

/// The paper's Figure 2 trace as a profile directory (threads AC_test_pidtid …, metric cpu-seconds).
fn fig2_profile(dir: &Path) {
    let fig2 = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/figure2.trace");
    let o = hpm(&["report", "--trace", s(&fig2), "--metric-name", "cpu-seconds", "--out", s(dir)]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn export_errors_are_one_line() {
    let tmp = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let prof = tmp.path().join("prof");
    fig2_profile(&prof);
    let p = s(&prof);
    one_error_line(&hpm(&["export", "pprof", p, "--metric", "cpu-secs"]), 1, "unknown metric `cpu-secs`; the profile's metrics are [0: cpu-seconds]");
    one_error_line(&hpm(&["export", "speedscope", p, "--thread", "nosuch"]), 1, "no thread named `nosuch`");
    one_error_line(&hpm(&["export", "callgrind", s(&tmp.path().join("missing"))]), 1, "check the path");
    one_error_line(&hpm(&["export", "firefox", s(tmp.path())]), 1, "no readable arcflow.json in directory");
    std::fs::write(tmp.path().join("bad.json"), "{\"format\":").unwrap();
    one_error_line(&hpm(&["export", "pprof", s(&tmp.path().join("bad.json"))]), 1, "is not a valid arcflow.json");
    one_error_line(&hpm(&["export", "pprof", p, "-o", s(&tmp.path().join("no/such/dir/x.pb.gz"))]), 1, "cannot write");
    one_error_line(&hpm(&["export", "chrome-trace", p]), 1, "quantum trace directory");
    one_error_line(&hpm(&["export", "chrome-trace", p, "--metric", "x"]), 2, "do not apply to chrome-trace");
    let o = hpm(&["export", "svg", p]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn export_writes_the_default_name_a_given_file_or_stdout() {
    let tmp = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let prof = tmp.path().join("prof");
    fig2_profile(&prof);
    for (format, name) in [("pprof", "profile.pb.gz"), ("speedscope", "profile.speedscope.json"), ("firefox", "profile.firefox.json"), ("callgrind", "callgrind.out.hpm")] {
        let o = hpm(&["export", format, s(&prof)]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(stdout(&o).trim(), s(&prof.join(name)));
        let from_file = hpm(&["export", format, s(&prof.join("arcflow.json")), "-o", "-"]);
        assert!(from_file.status.success(), "{}", stderr(&from_file));
        // Gzip has a time field, so compare pprof's after decompressing.
        let written = std::fs::read(prof.join(name)).unwrap();
        if format == "pprof" {
            assert_eq!(&from_file.stdout[..2], [0x1f, 0x8b]);
        } else {
            assert_eq!(from_file.stdout, written, "{format}");
        }
    }
    // Only the thread asked for.
    let o = hpm(&["export", "speedscope", s(&prof), "--thread", "AC_test", "-o", "-"]);
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let names: Vec<&str> = doc["profiles"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["AC_test_pidtid"]);
}

#[test]
fn import_errors_are_one_line() {
    let tmp = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let out = tmp.path().join("out");
    one_error_line(&hpm(&["import", s(&tmp.path().join("none.jfr")), "-o", s(&out)]), 1, "cannot open");
    for (name, bytes) in [("empty.jfr", &b""[..]), ("text.jfr", b"not a recording"), ("header.jfr", b"FLR\0\x00\x02\x00\x01\x00\x00\x00\x00")] {
        let f = tmp.path().join(name);
        std::fs::write(&f, bytes).unwrap();
        one_error_line(&hpm(&["import", s(&f), "-o", s(&out)]), 1, name);
    }
    let o = hpm(&["import", "x.jfr"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(!out.exists());
}

/// A 2,000-deep chain: with the default limit (512 frames) everything below the limit is one
/// sample ending in `(deeper)`; without a limit the deepest sample has every frame.
#[test]
fn deep_contexts_fold_into_one_deeper_sample() {
    let tmp = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let n = 2000;
    let mut trace = String::from("0 pidtid T\n");
    for i in 0..n {
        trace.push_str(&format!("{i} > m{}\n", i % 3));
    }
    for i in 0..n {
        trace.push_str(&format!("{} < m{}\n", n + i, (n - 1 - i) % 3));
    }
    std::fs::write(tmp.path().join("deep.trace"), trace).unwrap();
    let prof = tmp.path().join("prof");
    let o = hpm(&["report", "--trace", s(&tmp.path().join("deep.trace")), "--out", s(&prof), "--format", "json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let export = |extra: &[&str]| -> serde_json::Value {
        let mut args = vec!["export", "speedscope", s(&prof), "-o", "-"];
        args.extend_from_slice(extra);
        let o = hpm(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        serde_json::from_slice(&o.stdout).unwrap()
    };
    let folded = export(&[]);
    let p = &folded["profiles"][0];
    let samples = p["samples"].as_array().unwrap();
    let last = samples.last().unwrap().as_array().unwrap();
    assert_eq!(last.len(), 513);
    assert_eq!(folded["shared"]["frames"][last[512].as_u64().unwrap() as usize]["name"], "(deeper)");
    let full = export(&["--max-stack-depth", "0"]);
    let f = &full["profiles"][0];
    let full_samples = f["samples"].as_array().unwrap();
    assert_eq!(full_samples.last().unwrap().as_array().unwrap().len(), n as usize + 1);
    // The samples at most 512 frames deep are the same; the deeper ones add up in the folded one.
    let weights = |p: &serde_json::Value| -> Vec<u64> { p["weights"].as_array().unwrap().iter().map(|w| w.as_u64().unwrap()).collect() };
    let (fw, pw) = (weights(f), weights(p));
    let shallow = full_samples.iter().filter(|s| s.as_array().unwrap().len() <= 512).count();
    assert_eq!(samples.len(), shallow + 1);
    assert_eq!(pw[..shallow], fw[..shallow]);
    assert_eq!(pw[shallow], fw[shallow..].iter().sum::<u64>());
    assert_eq!(p["endValue"], f["endValue"]);
}

/// `callgrind_annotate` (valgrind) annotates the source files of the costly functions by default.
/// The export has no source files, so it must name none that the tool would then look for: before,
/// each class was a file and came back as one "could not be found" line (some 130 on a real run).
#[test]
fn callgrind_annotate_looks_for_no_source_file() {
    let tmp = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    // Two threads, methods of five classes, one of them overloaded.
    let mut trace = String::new();
    for (t, base) in [("main", 0), ("worker", 100)] {
        trace.push_str(&format!("{base} pidtid {t}\n"));
        trace.push_str(&format!("{base} > app.Main.main\n"));
        let mut time = base;
        for class in ["org.h2.command.Command", "org.h2.value.Value", "org.h2.engine.SessionLocal", "app.Util"] {
            for method in ["run(long,boolean)", "run(org.h2.value.TypeInfo,org.h2.engine.CastDataProvider)"] {
                trace.push_str(&format!("{time} > {class}.{method}\n"));
                time += 3;
                trace.push_str(&format!("{time} < {class}.{method}\n"));
            }
        }
        trace.push_str(&format!("{} < app.Main.main\n", time + 1));
    }
    std::fs::write(tmp.path().join("classes.trace"), trace).unwrap();
    let prof = tmp.path().join("prof");
    let o = hpm(&["report", "--trace", s(&tmp.path().join("classes.trace")), "--metric-name", "cpu-time:ns", "--out", s(&prof), "--format", "json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = tmp.path().join("callgrind.out.hpm");
    let o = hpm(&["export", "callgrind", s(&prof), "-o", s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let annotate = |args: &[&str]| -> String {
        let o = std::process::Command::new("callgrind_annotate")
            .args(args)
            .arg(&out)
            .current_dir(tmp.path())
            .output()
            .expect("callgrind_annotate (Debian package valgrind; scripts/prereqs.sh: hpm_need_export_viewers)");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8(o.stdout).unwrap()
    };
    for args in [&[][..], &["--inclusive=yes"], &["--tree=both"]] {
        let text = annotate(args);
        assert!(!text.contains("could not be found"), "callgrind_annotate {args:?}:\n{text}");
        // The functions are all there, with their class as the object.
        assert!(text.contains("???:org.h2.value.Value.run(org.h2.value.TypeInfo,org.h2.engine.CastDataProvider) [org.h2.value.Value]"), "{text}");
        if args == ["--inclusive=yes"] {
            assert!(text.contains("???:worker_pidtid [(none)]"), "{text}");
        }
    }
}
