//! `hpm consult DIR` on a run with three planted bottlenecks (`java-tests/workloads/consult/
//! Bottlenecks.java`, a phase each between markers): a CPU-hot method four calls deep, a monitor
//! four threads contend for, and an allocation phase that keeps the collector busy. The search
//! must name each: the method and its phase, the monitor's class, and the phase of the GC.

mod common;

use std::process::Command;

use common::*;

#[test]
fn consult_names_the_planted_bottlenecks() {
    let classes = java_tests::compile("workloads").expect("compiling java-tests/workloads");
    for jdk in jdks() {
        let out = out_dir("consult", &jdk);
        let o = Command::new(jdk.java())
            .arg("-Xmx64m")
            .arg(format!("-agentpath:{}=out={},socket=off,perf-map=off,calls=none,sample=cpu,sample-interval=1ms", agent_lib().display(), out.display()))
            .arg("-cp")
            .arg(&classes)
            .args(["consult.Bottlenecks", "1000"])
            .output()
            .expect("running java");
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success() && stderr.contains("reports written to"), "{stderr}");
        let c = Command::new(hpm_binary()).arg("consult").arg(&out).arg("-o").arg(out.join("consult.txt")).output().unwrap();
        let text = String::from_utf8_lossy(&c.stdout).into_owned();
        assert!(c.status.success(), "{}", String::from_utf8_lossy(&c.stderr));
        eprintln!("{:?}:\n{text}", jdk.home);
        assert_eq!(std::fs::read_to_string(out.join("consult.txt")).unwrap().trim_end(), text.trim_end());
        let section = |why: &str| {
            let at = text.find(why).unwrap_or_else(|| panic!("no {why} in:\n{text}"));
            let rest = &text[at..];
            rest[..rest.find("\n\n").unwrap_or(rest.len())].to_string()
        };
        let cpu = section("CPU-bound");
        assert!(cpu.contains("HOLDS"), "{cpu}");
        let first_where = cpu.lines().find(|l| l.trim_start().starts_with("where:")).unwrap();
        assert!(first_where.contains("thread main > consult.Bottlenecks.main > consult.Bottlenecks.compute") && first_where.contains("consult.Bottlenecks.hot holds"), "{cpu}");
        assert!(cpu.contains("when: phase 'note: compute'"), "{cpu}");
        let sync = section("Synchronisation");
        assert!(sync.contains("HOLDS") && sync.contains("where: monitor class consult.Bottlenecks$Ledger"), "{sync}");
        // Without call trees (calls=none) the entries' contexts come from the threads' stacks.
        assert!(sync.contains("where: entered from consult.Bottlenecks.lambda$contend$0 > consult.Bottlenecks.book:"), "{sync}");
        let locks = std::fs::read_to_string(out.join("locks.txt")).unwrap();
        assert!(locks.contains(": consult.Bottlenecks.lambda$contend$0 > consult.Bottlenecks.book -> consult.Bottlenecks$Ledger"), "{locks}");
        let gc = section("Allocation and GC");
        assert!(gc.contains("HOLDS") && gc.contains("when: phase 'note: allocate'"), "{gc}");
        let jit = section("JIT and interpretation");
        assert!(jit.contains("does not hold"), "{jit}");
        // The subtrees it names for exact probes are the hot ones only.
        let probes = &text[text.find("Exact probes would pay").expect("subtrees for probes")..];
        assert!(probes.lines().nth(1).is_some_and(|l| l.trim_start().starts_with("consult.Bottlenecks.hot (main")), "{probes}");
        assert!(probes.lines().skip(1).all(|l| l.contains("consult.Bottlenecks.") || l.contains("(not walkable") || l.contains("(no Java")), "{probes}");
    }
}
