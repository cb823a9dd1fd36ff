//! Bytecode probes (the default way of recording calls on HotSpot) against the JVMTI reference
//! mode (`calls=jvmti`): the same contexts with the same call counts, while the JIT keeps compiling.

mod common;

use std::collections::BTreeMap;

use common::*;
use hpm_collectors::arcflow::MetricMode;

/// thread name → (context → calls), threads with an empty tree left out.
fn all_contexts(p: &hpm_collectors::arcflow::Profile) -> BTreeMap<String, BTreeMap<String, u64>> {
    p.threads.iter().map(|t| (t.name.clone(), contexts(p, &t.name))).filter(|(_, c)| !c.is_empty()).collect()
}

/// Every call-structure program of `java-tests/calls`, and `Exits` (every kind of method exit), on
/// every JDK found: the probes' trees equal the JVMTI method events' trees, context by context.
#[test]
fn probes_and_jvmti_events_give_the_same_trees() {
    let programs = ["Straight", "Recursion", "Exceptions", "Threads", "ManyThreads", "Gc", "WaitNotify", "Contention"];
    for jdk in jdks() {
        for class in programs {
            let probes = run(&format!("probes-{class}"), &jdk, class, "calls=probes", &[], &[]);
            probes.assert_ok();
            let jvmti = run(&format!("jvmti-{class}"), &jdk, class, "calls=jvmti", &[], &[]);
            jvmti.assert_ok();
            assert_eq!(probes.stdout(), jvmti.stdout(), "{class}: the program's output differs between the two modes");
            let (p, j) = (all_contexts(&probes.calls()), all_contexts(&jvmti.calls()));
            assert!(!p.is_empty(), "{class}: no call tree with probes");
            let modes = |r: &Run| r.calls().bindings.metrics.iter().map(|m| m.mode).collect::<Vec<_>>();
            assert!(modes(&probes).iter().all(|&m| m == MetricMode::Sampled), "{class}: probes' metrics are sampled");
            assert!(modes(&jvmti).iter().all(|&m| m == MetricMode::Exact), "{class}: JVMTI events' metrics are exact");
            assert_eq!(p, j, "{class} on {:?}: probes (left, {}) and JVMTI events (right, {}) differ", jdk.home, probes.out.display(), jvmti.out.display());
        }
    }
}

/// With probes the JIT compiles the probed methods (JVMTI method events would keep every thread
/// interpreted): fib is compiled, with the probes and add() inlined into it, and its calls are exact.
#[test]
fn probed_methods_are_compiled_and_counted_exactly() {
    for jdk in jdks() {
        let r = run("probes-compiled", &jdk, "Bench", "calls=probes", &[], &["25", "20"]);
        r.assert_ok();
        let code = r.file("code.txt");
        assert!(code.lines().any(|l| l.contains(" compiled ") && l.contains("calls.Bench.fib(int)")), "fib was not compiled: {code}");
        assert!(
            code.lines().any(|l| l.contains("calls.Bench.fib(int) [inlined: ") && l.contains("hpmagent.probe.Probe.enter(int)")),
            "the entry probe is not inlined into fib: {code}"
        );
        // fib(25) makes 2*fib(26)-1 = 242785 calls, 20 times; each call that recurses calls add().
        let calls = contexts(&r.calls(), "main");
        let fib_calls: u64 = calls.iter().filter(|(k, _)| k.ends_with("calls.Bench.fib")).map(|(_, v)| v).sum();
        let add_calls: u64 = calls.iter().filter(|(k, _)| k.ends_with("calls.Bench.add")).map(|(_, v)| v).sum();
        assert_eq!(fib_calls, 20 * 242_785, "{calls:?}");
        assert_eq!(add_calls, 20 * (242_785 - 1) / 2, "{calls:?}");
    }
}

/// With probes, time is sampled into the exact contexts: a busy program's CPU time lands in its
/// methods, and the total is the threads' CPU time (within what one sample period can leave out).
#[test]
fn sampled_cpu_time_lands_in_the_probed_contexts() {
    for jdk in jdks() {
        let r = run("probes-sampled", &jdk, "Bench", "calls=probes", &[], &["32", "10"]);
        r.assert_ok();
        // Raw values: this is about where samples land, not about compensation.
        let p = read_profile(&r.out.join("arcflow-raw.json"));
        let th = p.threads.iter().find(|t| t.name == "main").expect("main");
        let cpu = th.tree.total()[0];
        let fib: u64 = th
            .tree
            .preorder()
            .into_iter()
            .filter(|&n| p.consumers.name(th.tree.consumer(n)) == "calls.Bench.fib")
            .map(|n| th.tree.base(n)[0])
            .sum();
        assert!(cpu > 100_000_000, "main's sampled cpu-time is {cpu} ns for a run of fib(32) x10");
        assert!(fib as f64 > 0.8 * cpu as f64, "fib should have most of main's CPU time: {fib} of {cpu}");
    }
}

/// Compensation with probes: the calibrated probe cost is removed from callers, and a small method
/// of known work (`counters.Tiny`: tiny() runs 100 multiply-adds, about 80 ns) keeps its cost without
/// probes within 10%, with enough samples (22 M calls, about 2 s of CPU) for the estimate.
#[test]
fn small_methods_keep_their_true_cost_within_ten_percent() {
    let jdk = java_tests::jdk().unwrap();
    let r = run("probes-tiny", &jdk, "counters.Tiny", "calls=probes,socket=off", &[], &["20000000"]);
    r.assert_ok();
    let truth: f64 = r
        .stdout()
        .lines()
        .find_map(|l| l.strip_prefix("inline-ns-per-call ").map(|v| v.trim().parse().unwrap()))
        .expect("inline-ns-per-call");
    let comp = r.calls();
    let raw = read_profile(&r.out.join("arcflow-raw.json"));
    let path = "calls.counters.Tiny.main;calls.counters.Tiny.calls;calls.counters.Tiny.tiny";
    let (calls, tiny) = base_at(&comp, "main", path).expect("tiny's context");
    let (_, tiny_raw) = base_at(&raw, "main", path).unwrap();
    assert_eq!(calls, 22_000_000);
    let per_call = tiny[0] as f64 / calls as f64;
    let text = r.file("compensation.txt");
    eprintln!("tiny(): true {truth:.1} ns/call, with probes {per_call:.1} ns/call\n{text}");
    assert!((per_call - truth).abs() < 0.1 * truth, "tiny() {per_call:.1} ns/call, truly {truth:.1}");
    assert!(text.contains("bytecode probes"), "{text}");
    // The probe cost comes off the caller only.
    assert_eq!(tiny[0], tiny_raw[0]);
    let (_, caller) = base_at(&comp, "main", "calls.counters.Tiny.main;calls.counters.Tiny.calls").unwrap();
    let (_, caller_raw) = base_at(&raw, "main", "calls.counters.Tiny.main;calls.counters.Tiny.calls").unwrap();
    assert!(caller[0] < caller_raw[0], "the callers' probe cost is removed: {} vs raw {}", caller[0], caller_raw[0]);
}
