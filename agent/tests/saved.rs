//! The saved run: `hpm report OUT --out AGAIN` on the agent's own report directory writes every
//! file the agent wrote, byte for byte, from `arcflow.json` (version 2) alone: on HotSpot with
//! every collector, two software events and markers; with stack and allocation sampling and
//! overhead compensation; and on the research VM.

mod common;
#[path = "../../reports/tests/support/files.rs"]
mod files_under;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;
use files_under::files;

/// Runs `hpm report` on the agent's directory into a fresh one and checks that every file the
/// agent wrote is there with the same bytes, and nothing else; `expected` must be among them.
/// Returns the agent's files.
fn regenerates_every_file(r: &Run, expected: &[&str]) -> BTreeMap<PathBuf, Vec<u8>> {
    let again = r.out.with_extension("again");
    let _ = std::fs::remove_dir_all(&again);
    let o = Command::new(hpm_binary()).arg("report").arg(&r.out).arg("--out").arg(&again).output().unwrap();
    assert!(o.status.success(), "hpm report: {}", String::from_utf8_lossy(&o.stderr));
    let (agent, hpm) = (files(&r.out), files(&again));
    let names: Vec<String> = agent.keys().map(|p| p.display().to_string()).collect();
    for want in expected {
        assert!(names.iter().any(|n| n == want), "the agent wrote no {want}: {names:?}");
    }
    let missing: Vec<&PathBuf> = agent.keys().filter(|p| !hpm.contains_key(*p)).collect();
    let extra: Vec<&PathBuf> = hpm.keys().filter(|p| !agent.contains_key(*p)).collect();
    assert!(missing.is_empty() && extra.is_empty(), "not regenerated: {missing:?}; not the agent's: {extra:?}");
    let differ: Vec<&PathBuf> = agent.iter().filter(|(p, bytes)| hpm[*p] != **bytes).map(|(p, _)| p).collect();
    assert!(differ.is_empty(), "regenerated with other bytes: {differ:?} (kept in {} and {})", r.out.display(), again.display());
    eprintln!("{}: {} files compared, all identical: {}", r.out.display(), names.len(), names.join(" "));
    let _ = std::fs::remove_dir_all(&again);
    agent
}

/// PseudoJbb (two warehouse threads between `hpmagent.Trace` markers, allocation, collections)
/// with `options`.
fn pseudojbb(test: &str, options: &str) -> Run {
    let classes = java_tests::compile("workloads").expect("compiling java-tests/workloads");
    let jdk = java_tests::jdk().expect("a JDK");
    let out = out_dir(test, &jdk);
    let output = Command::new(jdk.java())
        .arg(format!("-agentpath:{}=out={},perf-map=off,socket=off,{options}", agent_lib().display(), out.display()))
        .args(["-XX:+UseG1GC", "-Xmx64m", "-cp"])
        .arg(&classes)
        .args(["pseudojbb.PseudoJbb", "2", "200000"])
        .output()
        .expect("running java");
    Run { out, output }
}

#[test]
fn every_collector_and_two_events_regenerate_byte_for_byte() {
    let r = pseudojbb("saved-all", "collect=all,event=task-clock,event=page-faults,compensate=off");
    r.assert_ok();
    let files = regenerates_every_file(
        &r,
        &[
            "arcflow.json", "xtree.txt", "xarc.txt", "xprof.txt", "collapsed.txt", "flame.svg", "threads.txt", "threads.json", "gc.txt", "locks.txt",
            "waits.txt", "alloc.txt", "code.txt", "marks.txt", "vm-cost.txt", "locks/arcflow.json", "waits/xtree.txt",
        ],
    );
    assert!(files.keys().any(|p| p.starts_with("threads/")), "per-thread views");
    assert!(!files.contains_key(Path::new("compensation.txt")), "compensate=off");
    // What differs by nature between two writings comes from the file: the run's times, the
    // markers, the VM-cost rows.
    let text = |name: &str| String::from_utf8(files[Path::new(name)].clone()).unwrap();
    assert!(text("threads.txt").starts_with("Run: pid "), "{}", text("threads.txt"));
    assert!(text("marks.txt").contains("run-start 1: pseudojbb 2 warehouses"), "{}", text("marks.txt"));
    assert!(text("vm-cost.txt").contains("page-faults"), "{}", text("vm-cost.txt"));
    let p = r.calls();
    assert_eq!(p.bindings.metrics.iter().map(|m| m.name.as_str()).collect::<Vec<_>>(), ["cpu-time", "wall-time", "task-clock", "page-faults", "alloc-bytes", "alloc-objects"]);
}

#[test]
fn sampled_trees_and_compensation_regenerate_byte_for_byte() {
    let r = pseudojbb("saved-sampled", "sample=cpu,sample-alloc=256k");
    r.assert_ok();
    let files = regenerates_every_file(
        &r,
        &[
            "arcflow.json", "arcflow-raw.json", "compensation.txt", "sampled/arcflow.json", "sampled/xprof.txt", "sampled/forms.txt", "sampled/jit.txt",
            "sampled-alloc/xtree.txt", "threads.txt", "vm-cost.txt",
        ],
    );
    // arcflow.json keeps the trees and the probes' cost, measured in their own code: nothing is
    // subtracted per call, so the reports' trees are the raw ones.
    let hpm_model::saved::Saved::Run(run) = hpm_reports::saved::load(&r.out).unwrap() else { panic!("version 1") };
    assert!(run.snapshot.compensation.is_some());
    assert!(run.snapshot.samples.is_some() && run.snapshot.alloc_samples.is_some());
    let raw = read_profile(&r.out.join("arcflow-raw.json"));
    let total = |p: &hpm_model::arcflow::Profile| p.total()[p.bindings.metric_index("cpu-time").unwrap()];
    assert_eq!(total(&raw), total(&run.snapshot.calls));
    assert_eq!(total(&r.calls()), total(&raw));
    let c = run.snapshot.compensation.as_ref().unwrap();
    let k = c.metrics.iter().position(|m| m == "cpu-time").unwrap();
    assert!(c.measured[k] > 0 && !c.applied[k], "the probes' cost is measured, not subtracted: {:?} {:?}", c.measured, c.applied);
    assert!(files.keys().any(|p| p.starts_with("sampled/threads/")));
}

#[test]
fn a_research_vm_run_regenerates_byte_for_byte() {
    let r = run_rvm("saved-rvm", "Threads", "", 2);
    r.assert_ok();
    regenerates_every_file(&r, &["arcflow.json", "xtree.txt", "threads.txt", "threads.json", "gc.txt", "locks/arcflow.json", "code.txt", "marks.txt"]);
}
