//! The exact call trees split by the run's markers (`phases.txt`, `phases/phase-N/`): a program
//! with known phases between `hpmagent.Trace` notes (`java-tests/workloads/phases/SampledPhases`:
//! `alpha()` after the note "alpha", `beta()` after "beta", then sorting and allocating after
//! "done") has each method's calls in its own phase only, and `hpm report` renders the same
//! phases from arcflow.json.

mod common;

use std::collections::BTreeMap;
use std::process::Command;

use common::*;
use hpm_model::arcflow::Profile;
use hpm_model::saved::Saved;

/// Calls per method (all threads) of a phase.
fn calls_by_method(p: &Profile) -> BTreeMap<String, u64> {
    let mut m = BTreeMap::new();
    for t in &p.threads {
        for n in 1..t.tree.len() as u32 {
            *m.entry(p.consumers.name(t.tree.consumer(n)).to_string()).or_default() += t.tree.calls(n);
        }
    }
    m
}

#[test]
fn markers_split_the_call_trees_into_phases() {
    let classes = java_tests::compile("workloads").expect("compiling java-tests/workloads");
    for jdk in jdks() {
        let out = out_dir("phases", &jdk);
        let o = Command::new(jdk.java())
            .arg(format!("-agentpath:{}=out={},socket=off,perf-map=off", agent_lib().display(), out.display()))
            .arg("-cp")
            .arg(&classes)
            .args(["phases.SampledPhases", "200"])
            .output()
            .expect("running java");
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success() && stderr.contains("reports written to"), "{stderr}");
        let Saved::Run(run) = hpm_reports::saved::load(&out.join("arcflow.json")).unwrap() else { panic!("a version 1 file") };
        let phases = &run.snapshot.phase_calls;
        assert_eq!(phases.len(), 4, "three notes, four phases");
        let calls: Vec<BTreeMap<String, u64>> = phases.iter().map(calls_by_method).collect();
        let c = |phase: usize, method: &str| calls[phase].get(&format!("phases.SampledPhases.{method}")).copied().unwrap_or(0);
        eprintln!("{:?}: {calls:?}", jdk.home);
        assert_eq!((c(0, "alpha"), c(1, "alpha"), c(2, "alpha"), c(3, "alpha")), (0, 1, 0, 0));
        assert_eq!((c(0, "beta"), c(1, "beta"), c(2, "beta"), c(3, "beta")), (0, 0, 1, 0));
        assert_eq!((c(1, "spin"), c(2, "spin"), c(3, "sortAll"), c(3, "allocate")), (1, 1, 1, 1));
        // The phases add up to the run's calls, method by method.
        let mut sum: BTreeMap<String, u64> = BTreeMap::new();
        for phase in &calls {
            for (k, v) in phase {
                *sum.entry(k.clone()).or_default() += v;
            }
        }
        let whole: BTreeMap<String, u64> = calls_by_method(&run.snapshot.calls).into_iter().filter(|(_, v)| *v > 0).collect();
        sum.retain(|_, v| *v > 0);
        assert_eq!(sum, whole);
        let text = std::fs::read_to_string(out.join("phases.txt")).unwrap();
        assert!(text.contains("Phase 2: 'note: alpha'") && text.contains("to 'note: beta'") && text.contains("Phase 4: 'note: done'"), "{text}");
        let phase2 = &text[text.find("Phase 2").unwrap()..text.find("Phase 3").unwrap()];
        assert!(phase2.lines().nth(2).is_some_and(|l| l.ends_with("phases.SampledPhases.spin")), "spin first in phase 2: {phase2}");
        for n in 1..=4 {
            assert!(out.join(format!("phases/phase-{n}/xprof.txt")).is_file());
        }
        // The page offers each phase's trees in its tree selector, named by their markers.
        let html = std::fs::read_to_string(out.join("explore.html")).unwrap();
        let start = html.find("id=\"hpm-data\">").unwrap() + "id=\"hpm-data\">".len();
        let data: serde_json::Value = serde_json::from_str(&html[start..start + html[start..].find("</script>").unwrap()]).unwrap();
        let trees: Vec<(String, String)> = data["profiles"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["tree"].as_str().is_some_and(|t| t.starts_with("phase-")))
            .map(|p| (p["tree"].as_str().unwrap().to_string(), p["treeLabel"].as_str().unwrap_or_default().to_string()))
            .collect();
        assert_eq!(trees.len(), 4, "{trees:?}");
        assert_eq!(trees[1], ("phase-2".to_string(), "calls in phase 2: 'note: alpha' to 'note: beta'".to_string()));
        // Rendered again from arcflow.json: the same phases, byte for byte; with --format, only
        // on request (--phases), in the formats asked for.
        let again = out.join("again");
        let r = Command::new(hpm_binary()).arg("report").arg(&out).arg("--out").arg(&again).output().unwrap();
        assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
        assert_eq!(std::fs::read_to_string(again.join("phases.txt")).unwrap(), text);
        assert_eq!(std::fs::read(again.join("phases/phase-3/xtree.txt")).unwrap(), std::fs::read(out.join("phases/phase-3/xtree.txt")).unwrap());
        let only = out.join("only");
        let r = Command::new(hpm_binary()).arg("report").arg(&out).args(["--format", "xprof", "--phases", "--out"]).arg(&only).output().unwrap();
        assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
        assert!(only.join("phases/phase-2/xprof.txt").is_file() && !only.join("phases/phase-2/xtree.txt").exists() && only.join("phases.txt").is_file());
        let none = out.join("none");
        let r = Command::new(hpm_binary()).arg("report").arg(&out).args(["--format", "xprof", "--out"]).arg(&none).output().unwrap();
        assert!(r.status.success() && !none.join("phases.txt").exists());
    }
}
