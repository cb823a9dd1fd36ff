//! The same program gives the same call trees on both VMs: every call-structure program of
//! `java-tests/calls`, run with the agent on HotSpot (JDK 17, and a newer JDK where found) and on the research VM (`rvm -Xvps:2`),
//! has the same contexts with the same call counts in every thread, and the same lock and wait
//! trees. Metric values differ between VMs (they are different machines); shapes and counts may not.

mod common;

use std::collections::BTreeMap;

use common::*;

/// thread name → (context → calls), threads with an empty tree left out (HotSpot's own threads run
/// only JDK code, which the default filter does not record).
fn all_contexts(p: &hpm_model::arcflow::Profile) -> BTreeMap<String, BTreeMap<String, u64>> {
    p.threads
        .iter()
        .map(|t| (t.name.clone(), contexts(p, &t.name)))
        .filter(|(_, c)| !c.is_empty())
        .collect()
}

/// The program on every JDK found (17 and a newer one where present) and once on rvm; the program's
/// output must be the same everywhere.
fn both(test: &str, class: &str, options: &str) -> (Vec<Run>, Run) {
    let r = run_rvm(test, class, options, 2);
    r.assert_ok();
    let hotspots: Vec<Run> = jdks()
        .iter()
        .map(|jdk| {
            let h = run(&format!("{test}-hotspot"), jdk, class, options, &[], &[]);
            h.assert_ok();
            assert_eq!(h.stdout(), r.stdout(), "{class}: the program's output differs between HotSpot ({:?}) and rvm", jdk.home);
            h
        })
        .collect();
    (hotspots, r)
}

#[test]
fn call_structure_programs_have_the_same_trees_on_both_vms() {
    for class in ["Straight", "Recursion", "Exceptions", "Threads", "ManyThreads", "Gc"] {
        let (hs, r) = both(&format!("same-{class}"), class, "");
        let rc = all_contexts(&r.calls());
        for h in &hs {
            let hc = all_contexts(&h.calls());
            assert!(!hc.is_empty(), "{class}: empty trees on HotSpot");
            assert_eq!(hc, rc, "{class}: HotSpot ({}, left) and rvm (right) trees differ", h.out.display());
        }
    }
}

/// The contexts of a lock or wait tree that lie under the program's own methods (whose first method
/// is the root of a call-tree context of the same thread). Both VMs' class libraries contend on their
/// own when threads end (HotSpot on a ThreadGroup, rvm on the ending Thread object): with no program
/// method on the stack those land at the thread's root and are left out.
fn program_contexts(tree: &hpm_model::arcflow::Profile, calls: &hpm_model::arcflow::Profile) -> BTreeMap<String, BTreeMap<String, u64>> {
    let calls = all_contexts(calls);
    all_contexts(tree)
        .into_iter()
        .map(|(t, c)| {
            let roots: Vec<String> = calls.get(&t).map(|m| m.keys().map(|k| k.split(';').next().unwrap().to_string()).collect()).unwrap_or_default();
            let kept = c.into_iter().filter(|(k, _)| roots.iter().any(|r| k.split(';').next() == Some(r.as_str()) && k.contains(';'))).collect::<BTreeMap<_, _>>();
            (t, kept)
        })
        .filter(|(_, c)| !c.is_empty())
        .collect()
}

#[test]
fn lock_and_wait_trees_are_the_same_on_both_vms() {
    let (hs, r) = both("same-contention", "Contention", "");
    for h in &hs {
        // Thread.join and a thread's exit both hold the Thread object's monitor on both VMs, so main
        // may contend on a Blocked thread it joins while that thread ends: a race of the class
        // library, not the program's contention, and left out.
        let program_locks = |run: &Run| {
            let mut c = program_contexts(&run.locks(), &run.calls());
            c.values_mut().for_each(|m| m.retain(|k, _| !k.ends_with(";calls.Contention$Blocked")));
            c.retain(|_, m| !m.is_empty());
            c
        };
        let (hc, rc) = (program_locks(h), program_locks(&r));
        assert!(hc.values().map(|c| c.len()).sum::<usize>() >= 3, "{hc:?}");
        assert_eq!(hc, rc, "lock trees");
        assert_eq!(all_contexts(&h.calls()), all_contexts(&r.calls()), "Contention call trees");
    }

    let (hs, r) = both("same-waits", "WaitNotify", "");
    for h in &hs {
        // The waiters' own waits; main's come from Thread.join and depend on whether the thread has
        // already ended when join is called (then join does not wait), on either VM.
        let waiters = |run: &Run| {
            let mut c = program_contexts(&run.waits(), &run.calls());
            c.retain(|t, _| t == "timed" || t == "notified");
            c
        };
        let (hw, rw) = (waiters(h), waiters(&r));
        assert!(hw.contains_key("timed") && hw.contains_key("notified"), "{hw:?}");
        assert_eq!(hw, rw, "wait trees");
        assert_eq!(all_contexts(&h.calls()), all_contexts(&r.calls()), "WaitNotify call trees");
    }
}

#[test]
fn allocation_counts_are_the_same_on_both_vms() {
    let (hs, r) = both("same-alloc", "Alloc", "collect=calls+alloc");
    let objects = |run: &Run| -> u64 {
        let p = run.calls();
        let m = p.bindings.metrics.iter().position(|m| m.name == "alloc-objects").expect("alloc-objects metric");
        base_at(&p, "main", "calls.Alloc.main;calls.Alloc.allocate").expect("allocate context").1[m]
    };
    for h in &hs {
        assert_eq!(all_contexts(&h.calls()), all_contexts(&r.calls()), "Alloc call trees");
        assert_eq!(objects(h), 1000);
    }
    assert_eq!(objects(&r), 1000);
}
