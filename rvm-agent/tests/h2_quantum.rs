//! A real database under quantum tracing: Debian's H2 (libh2-java) running the benchmarks'
//! transaction driver (`java-tests/thirdparty/bench/H2Driver.java`, two worker threads) on
//! `rvm -Xvps:2` with `libhpmagent.so`'s `quantum` option. The program prints HotSpot's checksum,
//! the trace is valid by the crate's reader, both workers have quanta, and quanta name H2's own
//! methods (`org/h2/...`) as the method, or its caller, in which the thread was switched out.
//! Skipped (with a line) when the jar is not installed.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use hpm_model::quantum::read_dir;

#[path = "support/build.rs"]
mod build;
use build::built;

const H2: &str = "/usr/share/java/h2.jar";

fn out_dir(test: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("rvm-h2-quantum/{test}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(d.parent().unwrap()).unwrap();
    d
}

/// H2Driver compiled with plain javac of the default JDK against the jar.
fn compile(jdk: &java_tests::Jdk) -> PathBuf {
    let src = java_tests::source_root().join("thirdparty/bench/H2Driver.java");
    let out = java_tests::class_root().join("rvm-h2-quantum");
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).unwrap();
    let st = Command::new(jdk.javac()).args(["-nowarn", "-encoding", "UTF-8", "-cp", H2, "-d"]).arg(&out).arg(&src).status().expect("run javac");
    assert!(st.success(), "javac failed on {}", src.display());
    out
}

#[test]
fn h2_transactions_give_a_valid_trace_whose_quanta_name_h2_methods() {
    if !Path::new(H2).is_file() {
        eprintln!("SKIPPED: {H2} is not installed (Debian package libh2-java; scripts/prereqs.sh installs it)");
        return;
    }
    let (rvm, lib) = built();
    let jdk = java_tests::jdk().expect("a JDK");
    let cp = format!("{}:{H2}", compile(&jdk).display());
    let expected = Command::new(jdk.java()).arg("-cp").arg(&cp).args(["bench.H2Driver", "2", "300"]).output().expect("run java");
    assert!(expected.status.success(), "H2Driver on HotSpot: {}", String::from_utf8_lossy(&expected.stderr));

    let out = out_dir("driver");
    let run = Command::new(rvm)
        .arg("-Xvps:2")
        .arg(format!("-agentpath:{}=out={},socket=off,quantum", lib.display(), out.display()))
        .arg("-cp")
        .arg(&cp)
        .args(["bench.H2Driver", "2", "300"])
        .output()
        .expect("run rvm");
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "rvm with the agent ({}): {stderr}", run.status);
    assert_eq!(String::from_utf8_lossy(&run.stdout), String::from_utf8_lossy(&expected.stdout), "the checksum under the agent is HotSpot's\n{stderr}");

    let trace = read_dir(&out).unwrap();
    assert!(trace.is_valid(), "{:?}", trace.errors().collect::<Vec<_>>());
    let worker = |tid: u32| trace.meta.thread(tid).is_some_and(|t| t.name.starts_with("h2-worker-"));
    let h2 = |id: u32| trace.meta.method(id).is_some_and(|m| m.class.starts_with("org/h2/"));

    // Per worker: its quanta, and those switched out in (or right under) an H2 method.
    let mut workers: BTreeMap<u32, (usize, usize)> = BTreeMap::new();
    let mut named: BTreeMap<String, usize> = BTreeMap::new();
    for q in trace.quanta() {
        let in_h2 = h2(q.callee) || h2(q.caller);
        if worker(q.thread) {
            let w = workers.entry(q.thread).or_default();
            w.0 += 1;
            w.1 += in_h2 as usize;
        }
        for id in [q.callee, q.caller] {
            if let Some(m) = trace.meta.method(id).filter(|m| m.class.starts_with("org/h2/")) {
                *named.entry(format!("{}.{}", m.class, m.name)).or_default() += 1;
            }
        }
    }
    assert_eq!(workers.len(), 2, "quanta of both workers: {workers:?}; threads {:?}", trace.meta.threads);
    for (tid, (all, in_h2)) in &workers {
        assert!(*in_h2 > 0, "worker {tid}: none of its {all} quanta names an H2 method");
    }
    // The workers spend their time in H2's engine, so its methods are many and varied.
    assert!(named.len() >= 5, "H2 methods named by quanta: {named:?}");
    let mut top: Vec<(&String, &usize)> = named.iter().collect();
    top.sort_by(|a, b| b.1.cmp(a.1));
    eprintln!("workers (quanta, in H2): {workers:?}; {} H2 methods named, most often: {:?}", named.len(), &top[..top.len().min(5)]);
}
