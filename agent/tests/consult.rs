//! `hpm consult DIR` on a run with three planted bottlenecks (`java-tests/workloads/consult/
//! Bottlenecks.java`, a phase each between markers): a CPU-hot method four calls deep, a monitor
//! four threads contend for, and an allocation phase that keeps the collector busy. The search
//! must name each: the method and its phase, the monitor's class, and the phase of the GC.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Child, Command};

use common::*;

/// Starts `consult.Bottlenecks MS ROUNDS` in `dir` with `calls=requested,sample=cpu` and the
/// agent's default socket in a runtime directory of the test's own (`dir/run`), and waits for the
/// socket: the VM, its pid, and the socket directory. `out` may be relative to `dir`.
fn start_bottlenecks(jdk: &java_tests::Jdk, classes: &Path, dir: &Path, out: &Path, ms: &str, rounds: &str) -> (Child, String, PathBuf) {
    let runtime = dir.join("run");
    std::fs::create_dir(&runtime).unwrap();
    let sockets = runtime.join("hpmagent");
    let child = Command::new(jdk.java())
        .current_dir(dir)
        .env("XDG_RUNTIME_DIR", &runtime)
        .arg("-Xmx64m")
        .arg(format!("-agentpath:{}=out={},perf-map=off,calls=requested,sample=cpu,sample-interval=1ms", agent_lib().display(), out.display()))
        .arg("-cp")
        .arg(classes)
        .args(["consult.Bottlenecks", ms, rounds])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("running java");
    let pid = child.id().to_string();
    let socket = sockets.join(format!("{pid}.sock"));
    let start = std::time::Instant::now();
    while !socket.exists() && start.elapsed() < std::time::Duration::from_secs(30) {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert!(socket.exists(), "no agent socket {} within 30 s", socket.display());
    (child, pid, sockets)
}

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

/// `hpm consult PID` on a running JVM (the same bottlenecks, round after round, as a server's
/// load would come): it samples, names the three, then puts exact probes into the hot subtree's
/// methods only, counts their calls, and takes the probes out again; its report is in the run
/// directory it keeps, where `hpm explore` shows it.
#[test]
fn consult_on_a_running_jvm_probes_only_the_hot_subtrees_and_removes_them() {
    let classes = java_tests::compile("workloads").expect("compiling java-tests/workloads");
    for jdk in jdks() {
        let tmp = tempfile::tempdir().unwrap();
        let (mut child, pid, sockets) = start_bottlenecks(&jdk, &classes, tmp.path(), &tmp.path().join("out"), "700", "0");
        let keep = tmp.path().join("consult");
        let c = Command::new(hpm_binary())
            .args(["consult", &pid, "--sample-for", "3.5", "--probe-for", "3", "--socket-dir"])
            .arg(&sockets)
            .arg("--keep")
            .arg(&keep)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&c.stdout).into_owned();
        let ctl = |args: &[&str]| Command::new(hpm_binary()).args(["ctl", "--socket-dir"]).arg(&sockets).arg(&pid).args(args).output().unwrap();
        let status = String::from_utf8_lossy(&ctl(&["status"]).stdout).into_owned();
        kill_if_running(&mut child);
        assert!(c.status.success(), "{}\n{text}", String::from_utf8_lossy(&c.stderr));
        eprintln!("{:?}:\n{text}", jdk.home);
        for (why, place) in [("CPU-bound", "consult.Bottlenecks.hot holds"), ("Synchronisation", "monitor class consult.Bottlenecks$Ledger"), ("Allocation and GC", "when: phase 'note: allocate'")] {
            let at = text.find(why).unwrap_or_else(|| panic!("no {why} in:\n{text}"));
            let section = &text[at..at + text[at..].find("\n\n").unwrap_or(text.len() - at)];
            assert!(section.contains("HOLDS") && section.contains(place), "{section}");
        }
        // With calls=requested, a monitor entry's context comes from the thread's stack.
        assert!(text.contains("where: entered from consult.Bottlenecks.lambda$contend$0 > consult.Bottlenecks.book"), "{text}");
        // The probes went into the hot subtree's methods only, counted their calls, and came out.
        let probes = std::fs::read_to_string(keep.join("probes.txt")).expect("probes.txt in the kept dump");
        let probed: Vec<&str> = probes.lines().filter(|l| l.contains(" s ")).filter_map(|l| l.split_whitespace().last()).filter(|m| m.contains('.') && !m.contains("::")).collect();
        // Each subtree refined is one the search named hot, and each method probed is listed under one.
        let pay = &text[text.find("Exact probes would pay").expect("hot subtrees named")..];
        let named: Vec<&str> = pay.lines().skip(1).take_while(|l| l.starts_with("  ")).filter_map(|l| l.split_whitespace().next()).collect();
        let refinement = &text[text.find("Refinement: exact probes").expect("a refinement")..];
        for l in refinement.lines().filter(|l| l.trim_start().starts_with("subtree ")) {
            let root = l.split_whitespace().nth(1).unwrap();
            assert!(named.contains(&root), "refined {root}, not among the hot subtrees {named:?}");
        }
        let rows: Vec<&str> = refinement.lines().filter(|l| l.split_whitespace().count() == 4).filter_map(|l| l.split_whitespace().last()).collect();
        assert!(!probed.is_empty() && probed.iter().all(|m| rows.contains(m) && m.starts_with("consult.Bottlenecks.")), "probed outside the hot subtrees: {probed:?}\n{probes}\n{refinement}");
        assert!(probed.contains(&"consult.Bottlenecks.hot"), "{probes}");
        assert!(!probes.contains("(end)"), "every probe taken out again: {probes}");
        let hot_row = text.lines().find(|l| l.trim_end().ends_with(" consult.Bottlenecks.hot") && !l.contains("holds")).expect("a refinement row for hot");
        let calls: u64 = hot_row.split_whitespace().next().unwrap().parse().unwrap();
        assert!(calls > 1000, "{hot_row}");
        assert!(status.contains("requested_methods: 0") && status.contains("probed_classes: 0"), "{status}");
        // The page of the kept run shows the report.
        let page = tmp.path().join("page.html");
        let e = Command::new(hpm_binary()).arg("explore").arg(&keep).arg("-o").arg(&page).output().unwrap();
        assert!(e.status.success(), "{}", String::from_utf8_lossy(&e.stderr));
        let data = explorer_data(&page);
        let report = data["runs"][0]["reports"][0]["text"].as_str().unwrap_or_default();
        assert!(report.contains("Refinement: exact probes") && report.contains("consult.Bottlenecks.hot"), "{report}");
    }
}

/// `hpm consult PID` on a program that ends before the search is done (a batch job shorter than
/// its --sample-for): the search notices the end instead of sleeping on, and searches the run the
/// agent wrote at the exit (its `out=`, relative to the VM's working directory here), without the
/// refinement, which needs the running VM. No empty --keep directory is left behind.
#[test]
fn consult_on_a_jvm_that_ends_searches_the_run_written_at_its_exit() {
    let classes = java_tests::compile("workloads").expect("compiling java-tests/workloads");
    // Built (if need be) before the program starts: a fresh checkout builds hpm here, for longer
    // than the program runs.
    let hpm = hpm_binary();
    for jdk in jdks() {
        let tmp = tempfile::tempdir().unwrap();
        let (mut child, pid, sockets) = start_bottlenecks(&jdk, &classes, tmp.path(), Path::new("out"), "1000", "1");
        let keep = tmp.path().join("consult");
        let started = std::time::Instant::now();
        let c = Command::new(&hpm)
            .args(["consult", &pid, "--sample-for", "300", "--socket-dir"])
            .arg(&sockets)
            .arg("--keep")
            .arg(&keep)
            .arg("-o")
            .arg(tmp.path().join("consult.txt"))
            .output()
            .unwrap();
        let took = started.elapsed();
        kill_if_running(&mut child);
        let text = String::from_utf8_lossy(&c.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&c.stderr);
        assert!(c.status.success(), "{stderr}\n{text}");
        // The program runs about 3 s: the search saw it end rather than sleep out its 300 s.
        assert!(took < std::time::Duration::from_secs(120), "took {took:?}");
        let exit_dir = tmp.path().join("out");
        assert!(stderr.contains(&format!("pid {pid} ended during the search (while it was sampled)")) && stderr.contains(&exit_dir.display().to_string()), "{stderr}");
        assert!(text.contains(&format!("Searched after pid {pid} ended: the run its agent wrote at the exit ({})", exit_dir.display())), "{text}");
        let at = text.find("CPU-bound").unwrap_or_else(|| panic!("{text}"));
        let cpu = &text[at..at + text[at..].find("\n\n").unwrap_or(text.len() - at)];
        assert!(cpu.contains("HOLDS") && cpu.contains("consult.Bottlenecks.hot holds"), "{cpu}");
        assert!(!text.contains("Refinement: exact probes"), "{text}");
        assert_eq!(std::fs::read_to_string(tmp.path().join("consult.txt")).unwrap().trim_end(), text.trim_end());
        assert!(!keep.exists(), "the empty --keep directory was left behind");
    }
}
