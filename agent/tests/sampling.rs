//! Stack sampling on HotSpot (`sample=cpu`): sampled trees from AsyncGetCallTrace walks in the
//! SIGPROF handler, against the exact trees of the bytecode probes, and under the JDK's own heavy
//! paths.

mod common;

use std::collections::BTreeMap;

use common::*;
use hpm_collectors::arcflow::{MetricMode, Profile, Tree};

/// Per method (consumer name), its share of all threads' self `cpu-time`, in percent.
fn self_shares(p: &Profile) -> BTreeMap<String, f64> {
    let cpu = p.bindings.metric_index("cpu-time").expect("cpu-time");
    let mut by_method: BTreeMap<String, u64> = BTreeMap::new();
    let mut total = 0u64;
    for t in &p.threads {
        for n in 0..t.tree.len() as u32 {
            let v = t.tree.base(n)[cpu];
            total += v;
            if n != Tree::ROOT {
                *by_method.entry(p.consumers.name(t.tree.consumer(n)).to_string()).or_default() += v;
            }
        }
    }
    by_method.into_iter().map(|(k, v)| (k, 100.0 * v as f64 / total.max(1) as f64)).collect()
}

/// Samples stored, from the `log=info` summary line.
fn stored_samples(r: &Run) -> u64 {
    let err = r.stderr();
    let line = err.lines().find(|l| l.contains("stack samples: ")).unwrap_or_else(|| panic!("no summary line in:\n{err}"));
    line.split("stack samples: ").nth(1).and_then(|s| s.split(' ').next()).and_then(|n| n.parse().ok()).expect("a count")
}

/// `Shares` (microseconds of work per call, so the probes barely disturb its times) and `Busy`
/// on every JDK: for every method with more than 5% of the CPU time in either profile, its
/// share of self time in the sampled tree (`calls=none,sample=cpu`, 1 kHz) is within 10
/// percentage points of its share in the exact tree (bytecode probes) of another run.
#[test]
fn sampled_self_time_agrees_with_the_exact_profile() {
    for jdk in jdks() {
        for (class, args) in [("counters.Shares", ["40000", "2"]), ("counters.Busy", ["6000000", ""])] {
            let args: Vec<&str> = args.into_iter().filter(|a| !a.is_empty()).collect();
            let exact = run(&format!("agree-exact-{class}"), &jdk, class, "", &[], &args);
            exact.assert_ok();
            let sampled = run(&format!("agree-sampled-{class}"), &jdk, class, "calls=none,sample=cpu,sample-interval=1ms,log=info", &[], &args);
            sampled.assert_ok();
            assert_eq!(exact.stdout(), sampled.stdout(), "{class}: output differs");
            let s = read_profile(&sampled.out.join("sampled/arcflow.json"));
            assert_eq!(s.bindings.count_label, "samples");
            assert!(s.bindings.metrics.iter().all(|m| m.mode == MetricMode::Sampled));
            assert!(sampled.file("sampled/xprof.txt").contains("Samples"), "the count column says samples");
            assert!(stored_samples(&sampled) > 300, "{class}: {} samples", stored_samples(&sampled));
            let (e, s) = (self_shares(&exact.calls()), self_shares(&s));
            eprintln!("{class} on {:?}:\n exact {e:?}\n sampled {s:?}", jdk.home);
            let mut compared = 0;
            for m in e.keys().chain(s.keys()) {
                let (a, b) = (e.get(m).copied().unwrap_or(0.0), s.get(m).copied().unwrap_or(0.0));
                if a > 5.0 || b > 5.0 {
                    compared += 1;
                    assert!((a - b).abs() <= 10.0, "{class} on {:?}: {m} has {a:.1}% of self time exact, {b:.1}% sampled", jdk.home);
                }
            }
            assert!(compared >= 2, "{class}: only {compared} methods over 5%");
        }
    }
}

/// A minute at 1 kHz per JDK over class loading, deoptimisation, exceptions through deep stacks
/// and steady GC (`WalkStress`): the JVM finishes its work and exits normally, every thread was
/// sampled throughout, and the samples name the program's methods.
#[test]
fn stack_walks_at_1khz_survive_the_jdks_heavy_paths() {
    for jdk in jdks() {
        let r = run("walk-stress", &jdk, "WalkStress", "calls=none,sample=cpu,sample-interval=1ms,log=info", &[], &["60", "2"]);
        r.assert_ok();
        assert!(r.stdout().contains(" ok"), "{}", r.stdout());
        let n = stored_samples(&r);
        eprintln!("{:?}: {}", jdk.home, r.stderr().lines().find(|l| l.contains("stack samples: ")).unwrap());
        // Two busy threads for 60 s of CPU each at 1 kHz: most signals give a stored sample.
        assert!(n > 60_000, "{n} samples");
        let s = self_shares(&read_profile(&r.out.join("sampled/arcflow.json")));
        for m in ["calls.WalkStress.throwDeep", "calls.WalkStress.allocate", "calls.WalkStress.classLoading"] {
            assert!(s.get(m).is_some_and(|v| *v > 0.5), "{m}: {:?}", s.get(m));
        }
    }
}

/// Sampling beside the bytecode probes: one run gives the exact tree (calls counted exactly) and
/// the sampled tree; `start=paused` with sampling alone gives no samples until started.
#[test]
fn sampling_beside_exact_trees_and_held_off_while_paused() {
    let jdk = &jdks()[0];
    let both = run("sample-with-probes", jdk, "counters.Shares", "sample=cpu,log=info", &[], &["20000", "2"]);
    both.assert_ok();
    let calls = both.calls();
    let leaf_a: u64 = calls
        .threads
        .iter()
        .flat_map(|t| contexts(&calls, &t.name))
        .filter(|(k, _)| k.ends_with("calls.counters.Shares.work;calls.counters.Shares.leafA"))
        .map(|(_, v)| v)
        .sum();
    assert_eq!(leaf_a, 40_000, "exact calls of work→leafA");
    let s = read_profile(&both.out.join("sampled/arcflow.json"));
    let shares = self_shares(&s);
    assert!(shares.get("calls.counters.Shares.leafA").is_some_and(|v| *v > 20.0), "{shares:?}");
    assert!(stored_samples(&both) > 30);

    let paused = run("sample-paused", jdk, "counters.Shares", "calls=none,sample=cpu,start=paused,log=info", &[], &["20000", "2"]);
    paused.assert_ok();
    assert_eq!(stored_samples(&paused), 0, "{}", paused.stderr());
    let s = read_profile(&paused.out.join("sampled/arcflow.json"));
    assert!(s.threads.iter().all(|t| t.tree.len() == 1), "no sampled context while paused");
}
