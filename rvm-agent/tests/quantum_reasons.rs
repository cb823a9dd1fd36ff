//! Why quanta end, end to end: `rvm` with `libhpmagent.so`'s `quantum` option on a program whose
//! threads hand work over through `java.util.concurrent` locks and conditions (built on
//! `LockSupport.park`/`unpark`, which rvm's scheduler implements). The trace (file format
//! version 2) says of each voluntary quantum why it ended, and `hpm trace` tabulates it.

use std::path::{Path, PathBuf};
use std::process::Command;

use hpm_model::quantum::{read_dir, reason};

#[path = "support/build.rs"]
mod build;
use build::built;

fn classes() -> PathBuf {
    java_tests::compile_plain("rvm-concurrent").expect("compile java-tests/rvm-concurrent")
}

fn out_dir(test: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("rvm-quantum-reasons/{test}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(d.parent().unwrap()).unwrap();
    d
}

/// JucLocks's producers and consumers wait for each other on Conditions thousands of times, so
/// quanta end with park (a waiter blocks in LockSupport.park) and unpark (a signal or unlock hands
/// over to a parked thread); its sleeps, joins and thread ends give the other reasons.
#[test]
fn a_parking_program_has_quanta_ending_with_park_and_unpark() {
    let (rvm, lib) = built();
    let out = out_dir("juclocks");
    let run = Command::new(rvm)
        .arg("-Xvps:2")
        .arg(format!("-agentpath:{}=out={},quantum", lib.display(), out.display()))
        .arg("-cp")
        .arg(classes())
        .arg("JucLocks")
        .output()
        .expect("run rvm");
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "rvm: {stderr}");
    assert!(String::from_utf8_lossy(&run.stdout).contains("buffer: 20000 items"), "{}", String::from_utf8_lossy(&run.stdout));
    let head = std::fs::read(out.join("quantum.vp0.trace")).unwrap();
    assert_eq!(u16::from_le_bytes([head[8], head[9]]), 2, "rvm's traces are of format version 2 (reason records)");

    let trace = read_dir(&out).unwrap();
    assert!(trace.is_valid(), "{:?}", trace.issues);
    let mut count = [0u64; reason::NAMES.len()];
    let mut park_callees = std::collections::BTreeSet::new();
    for q in trace.quanta() {
        let why = trace.reason(q);
        count[why as usize] += 1;
        // A reason is given exactly for the quanta that ended voluntarily (the last record of a
        // processor, cut at the end of the run, has neither).
        if why != reason::NONE {
            assert!(q.yielded, "a quantum with reason {} is not marked yielded: {q:?}", reason::name(why));
        }
        if why == reason::PARK {
            let m = trace.meta.methods.iter().find(|m| m.id == q.callee).map(|m| format!("{}.{}", m.class, m.name));
            park_callees.insert(m.unwrap_or_else(|| format!("method {}", q.callee)));
        }
    }
    let named: Vec<String> = count.iter().enumerate().filter(|(_, n)| **n > 0).map(|(c, n)| format!("{} {n}", reason::name(c as u8))).collect();
    for must in [reason::PARK, reason::UNPARK, reason::SLEEP, reason::WAIT, reason::END] {
        assert!(count[must as usize] > 0, "no quantum ended with {}: {named:?}", reason::name(must));
    }
    // A thread parks in LockSupport.park (its Java frame calls the native park0).
    assert!(!park_callees.is_empty() && park_callees.iter().all(|m| m.starts_with("java/util/concurrent/locks/LockSupport.park")), "{park_callees:?} {named:?}");

    // `hpm trace`'s tables show them.
    let summary = hpm_reports::quantum::summarize(&trace, 5);
    let text = hpm_reports::quantum::render_text(&summary);
    let table = text.split("Why quanta ended").nth(1).unwrap_or_else(|| panic!("no reason table:\n{text}"));
    let header = table.lines().nth(1).unwrap_or_default();
    for col in ["park", "unpark", "sleep", "wait", "end"] {
        assert!(header.split_whitespace().any(|c| c == col), "column {col} missing: {header}");
    }
    let json = hpm_reports::quantum::to_json(&summary);
    let parks: u64 = json["ends"].as_array().unwrap().iter().filter_map(|t| t["reasons"]["park"].as_u64()).sum();
    assert_eq!(parks, count[reason::PARK as usize]);
}
