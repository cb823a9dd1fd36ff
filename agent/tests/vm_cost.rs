//! `vm-cost.txt`: the process's CPU time by kind of thread, per phase between markers, against
//! the kernel's account of the whole process.

mod common;

use common::*;

/// The columns of the phase line named `phase` in `vm-cost.txt`: from-s, to-s, cpu-ms, then the
/// shares of application, gc, jit, vm, agent, other.
fn phase(text: &str, phase: &str) -> Vec<f64> {
    let line = text.lines().find(|l| l.contains(phase)).unwrap_or_else(|| panic!("no phase {phase:?} in:\n{text}"));
    line.split_whitespace().take(9).map(|x| x.parse().unwrap()).collect()
}

/// PseudoJbb (2 warehouse threads, its run between `hpmagent.Trace` markers, steady allocation
/// in a small heap) on every JDK, with the default options and two counters: the run's phase is
/// mostly the program's threads, the JIT compilers and the collector have their share, the whole
/// run's CPU time is the process's by the kernel (user + system time of the JVM, measured by the
/// test), and the counters opened on every thread split by kind too.
#[test]
fn vm_cost_splits_each_phase_by_kind_of_thread() {
    let classes = java_tests::compile("workloads").expect("compiling java-tests/workloads");
    for jdk in jdks() {
        let out = out_dir("vm-cost-pseudojbb", &jdk);
        let times = out.with_extension("time");
        let o = std::process::Command::new("/usr/bin/time")
            .args(["-f", "%U %S", "-o"])
            .arg(&times)
            .arg(jdk.java())
            .arg(format!("-agentpath:{}=out={},perf-map=off,socket=off,event=task-clock,event=page-faults", agent_lib().display(), out.display()))
            .args(["-XX:+UseG1GC", "-Xmx64m", "-cp"])
            .arg(&classes)
            .args(["pseudojbb.PseudoJbb", "2", "1500000"])
            .output()
            .expect("running java under /usr/bin/time");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let text = std::fs::read_to_string(out.join("vm-cost.txt")).unwrap();
        let process_ms: f64 = std::fs::read_to_string(&times).unwrap().split_whitespace().map(|x| x.parse::<f64>().unwrap() * 1000.0).sum();
        eprintln!("{:?}:\n{text}\nprocess cpu {process_ms:.0} ms", jdk.home);
        let run = phase(&text, "run-start 1:");
        let (app, gc, jit) = (run[3], run[4], run[5]);
        assert!(app > 40.0, "application share of the run {app}%");
        assert!(gc > 0.0 && jit > 0.0, "gc {gc}%, jit {jit}%");
        assert!((run[3..9].iter().sum::<f64>() - 100.0).abs() < 0.5, "shares add up: {run:?}");
        let whole = phase(&text, "(whole run)");
        // The timeline misses what the JVM uses after the exit dump's last row (its shutdown)
        // and the last interval of threads that ended unseen.
        assert!(whole[2] <= process_ms * 1.02 && whole[2] >= process_ms * 0.8, "timeline {} ms, process {process_ms:.0} ms", whole[2]);
        // The counters of each kind: the program's threads are counted from their start, so
        // their task-clock (the kernel's count of their CPU time) is their CPU time.
        let counter = |name: &str| -> Vec<f64> {
            let line = text.lines().find(|l| l.starts_with(name) && l.ends_with("(whole run)")).unwrap_or_else(|| panic!("no {name} in:\n{text}"));
            line.split_whitespace().skip(1).take(6).map(|x| x.parse().unwrap()).collect()
        };
        let app_cpu_ms = whole[2] * whole[3] / 100.0;
        let app_task_ms = counter("task-clock")[0] / 1e6;
        assert!((app_task_ms / app_cpu_ms - 1.0).abs() < 0.1, "application task-clock {app_task_ms:.0} ms, cpu {app_cpu_ms:.0} ms");
        assert!(counter("page-faults").iter().sum::<f64>() > 0.0);
        let _ = std::fs::remove_dir_all(&out);
        let _ = std::fs::remove_file(&times);
    }
}
