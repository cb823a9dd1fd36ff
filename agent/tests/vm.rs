//! VM activity on real JVMs: monitors, waits, allocation, GC, many threads, a dump racing thread
//! ends, options, paused start, SIGTERM.

mod common;
use common::*;

use std::io::{BufRead, BufReader};
use std::process::Stdio;

#[test]
fn contended_monitor_count_and_class() {
    for jdk in jdks() {
        let r = run("contention", &jdk, "Contention", "", &[], &[]);
        r.assert_ok();
        let p = r.locks();
        assert_eq!(p.bindings.metrics[0].name, "contended-time");
        let mut total = 0;
        for i in 1..=3 {
            let name = format!("blocked-{i}");
            let path = "calls.Contention$Blocked.run;calls.Contention.blocked;calls.Contention$Lock";
            let (calls, base) = base_at(&p, &name, path).unwrap_or_else(|| panic!("{name}: {:?}", contexts(&p, &name)));
            assert_eq!(calls, 1, "{name} contends exactly once");
            // The holder sleeps 1.5 s after starting the threads: each waits most of it.
            assert!(base[0] >= 1_000_000_000, "{name} contended only {} ns", base[0]);
            total += calls;
        }
        // No other contention on the Lock anywhere.
        let mut lock_entries = 0;
        for t in &p.threads {
            for n in t.tree.preorder() {
                if p.consumers.name(t.tree.consumer(n)) == "calls.Contention$Lock" {
                    lock_entries += t.tree.calls(n);
                }
            }
        }
        assert_eq!((total, lock_entries), (3, 3));
        assert!(r.file("locks.txt").contains("         3 "), "{}", r.file("locks.txt"));
    }
}

#[test]
fn wait_time_and_timeouts() {
    for jdk in jdks() {
        let r = run("waits", &jdk, "WaitNotify", "", &[], &[]);
        r.assert_ok();
        let p = r.waits();
        let names: Vec<&str> = p.bindings.metrics.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["wait-time", "timed-out"]);
        let (calls, base) =
            base_at(&p, "timed", "calls.WaitNotify$Waiter.run;calls.WaitNotify.timedWait;calls.WaitNotify$Monitor").expect("timed wait");
        assert_eq!(calls, 1);
        assert!(base[0] >= 300_000_000, "wait(300) lasted {} ns", base[0]);
        assert_eq!(base[1], 1, "timed out");
        let (calls, base) = base_at(&p, "notified", "calls.WaitNotify$Waiter.run;calls.WaitNotify.waitForSignal;calls.WaitNotify$Monitor")
            .expect("notified wait");
        assert_eq!(calls, 1);
        // main sleeps 500 ms after starting the thread, which starts waiting at once.
        assert!(base[0] >= 400_000_000, "notified wait lasted {} ns", base[0]);
        assert_eq!(base[1], 0, "not timed out");
    }
}

#[test]
fn allocation_charged_to_allocating_method() {
    for jdk in jdks() {
        let r = run("alloc", &jdk, "Alloc", "collect=calls+alloc", &[], &[]);
        r.assert_ok();
        let p = r.calls();
        let bi = p.bindings.metric_index("alloc-bytes").expect("alloc-bytes metric");
        let oi = p.bindings.metric_index("alloc-objects").expect("alloc-objects metric");
        let (calls, base) = base_at(&p, "main", "calls.Alloc.main;calls.Alloc.allocate").expect("allocate context");
        assert_eq!(calls, 1);
        // Exactly the 1000 long[16] arrays, 144 bytes each (16-byte header + 128).
        assert_eq!((base[oi], base[bi]), (1000, 144_000), "JDK {:?}", jdk.home);
        let (_, base) = base_at(&p, "main", "calls.Alloc.main;calls.Alloc.noAlloc").expect("noAlloc context");
        assert_eq!((base[oi], base[bi]), (0, 0));
        assert!(r.file("alloc.txt").contains("calls.Alloc.allocate"));
    }
}

#[test]
fn gc_count_matches_forced_collections() {
    for jdk in jdks() {
        // A 256 MB heap: the program allocates next to nothing, so the 5 System.gc() calls (each a
        // full collection with G1) are the only collections.
        let r = run("gc", &jdk, "Gc", "", &["-Xms256m", "-Xmx256m"], &[]);
        r.assert_ok();
        let gc = r.file("gc.txt");
        assert!(gc.lines().any(|l| l == "count 5"), "JDK {:?}:\n{gc}", jdk.home);
        assert_eq!(contexts(&r.calls(), "main").get("calls.Gc.main;calls.Gc.collect"), Some(&5));
    }
}

#[test]
fn two_hundred_short_lived_threads() {
    for jdk in jdks() {
        let r = run("many", &jdk, "ManyThreads", "", &[], &[]);
        r.assert_ok();
        let p = r.calls();
        for i in 0..200 {
            let name = format!("short-{i:03}");
            assert_eq!(p.threads.iter().filter(|t| t.name == name).count(), 1, "{name}");
            assert_eq!(
                contexts(&p, &name),
                map(&[("calls.ManyThreads$Short.run", 1), ("calls.ManyThreads$Short.run;calls.ManyThreads.task", 1)]),
                "{name}"
            );
        }
        let rows = thread_rows(&r.file("threads.txt"));
        assert_eq!(rows.iter().filter(|t| t.name.starts_with("short-") && t.state == "ended").count(), 200);
        assert_eq!(contexts(&p, "main").get("calls.ManyThreads.main;calls.ManyThreads$Short.<init>"), Some(&200));
    }
}

#[test]
fn threads_ending_during_the_dump() {
    for jdk in jdks() {
        // Daemon threads keep starting and ending while the VM dies and the agent dumps.
        let r = run("churn", &jdk, "Churn", "", &[], &[]);
        r.assert_ok();
        let p = r.calls();
        let rows = thread_rows(&r.file("threads.txt"));
        assert_eq!(rows.len(), p.threads.len());
        let mut ended = 0;
        for (row, t) in rows.iter().zip(&p.threads) {
            assert_eq!(row.name, t.name);
            if !t.name.starts_with("churn-") {
                continue;
            }
            let c = contexts(&p, &t.name);
            if row.state == "ended" {
                ended += 1;
                assert_eq!(
                    c,
                    map(&[("calls.Churn$ChurnThread.run", 1), ("calls.Churn$ChurnThread.run;calls.Churn.spin", 1)]),
                    "{}",
                    t.name
                );
            }
        }
        assert!(ended >= 5, "only {ended} churn threads ended");
        // Thread numbers are consecutive from 0: none lost.
        let mut nums: Vec<u64> = p.threads.iter().filter_map(|t| t.name.strip_prefix("churn-")?.parse().ok()).collect();
        nums.sort();
        assert_eq!(nums, (0..nums.len() as u64).collect::<Vec<_>>());
    }
}

#[test]
fn bad_options_stop_the_jvm_with_one_line() {
    let jdk = java_tests::jdk().unwrap();
    for (opts, want) in [
        ("bogus=1", "hpmagent: error: unknown option 'bogus' (valid: out, collect, calls, sample, sample-alloc, sample-native, sample-kernel, sample-lines, sample-interval, include, exclude, event, metric-mode, compensate, trivial, thread-field, start, alloc-interval, perf-map, quantum, socket, log, help)"),
        ("collect=calls+cpu", "hpmagent: error: bad value 'cpu' for option 'collect' (valid: calls, gc, locks, waits, alloc, code, all, none; join with '+')"),
        ("start=later", "hpmagent: error: bad value 'later' for option 'start' (valid: running, paused)"),
        ("trivial=off", "hpmagent: error: bad value 'off' for option 'trivial' (valid: probe, skip)"),
        ("log=loud", "hpmagent: error: bad value 'loud' for option 'log' (valid: error, warn, info, debug)"),
        ("sample-alloc=lots", "hpmagent: error: bad value 'lots' for option 'sample-alloc' (valid: a size of 1 byte to 2g - 1, e.g. 512k, 1m, 65536)"),
        ("collect=alloc,sample-alloc=1m", "hpmagent: error: options 'sample-alloc' and 'collect=alloc' both need HotSpot's one heap sampler: use one of them"),
    ] {
        let out = command(&jdk, "Straight", opts, &[], &[]).output().unwrap();
        assert!(!out.status.success(), "{opts}: the JVM started");
        let err = String::from_utf8_lossy(&out.stderr);
        let ours: Vec<&str> = err.lines().filter(|l| l.starts_with("hpmagent:")).collect();
        assert_eq!(ours, [want], "{opts}: {err}");
        assert!(!String::from_utf8_lossy(&out.stdout).contains("straight"), "main ran");
    }
}

#[test]
fn help_prints_options_and_does_not_start() {
    let jdk = java_tests::jdk().unwrap();
    let out = command(&jdk, "Straight", "help", &[], &[]).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    for o in ["out=DIR", "collect=LIST", "include=PATTERN", "exclude=PATTERN", "start=running|paused", "log=LEVEL", "help"] {
        assert!(err.contains(o), "help lacks {o}: {err}");
    }
    assert!(!String::from_utf8_lossy(&out.stdout).contains("straight"));
}

#[test]
fn start_paused_records_no_calls_but_writes_reports() {
    for jdk in jdks() {
        let r = run("paused", &jdk, "Straight", "start=paused", &[], &[]);
        r.assert_ok();
        let p = r.calls();
        assert!(contexts(&p, "main").is_empty(), "{:?}", contexts(&p, "main"));
        assert!(r.out.join("xprof.txt").is_file());
    }
}

#[test]
fn collecting_nothing_still_writes_valid_reports() {
    let jdk = java_tests::jdk().unwrap();
    let r = run("nothing", &jdk, "Straight", "collect=none", &[], &[]);
    r.assert_ok();
    let p = r.calls();
    assert!(p.threads.iter().all(|t| t.tree.len() == 1));
    for f in ["xtree.txt", "xarc.txt", "xprof.txt", "collapsed.txt", "flame.svg", "threads.txt", "gc.txt", "locks/arcflow.json"] {
        assert!(r.out.join(f).is_file(), "{f}");
    }
}

#[test]
fn sigterm_still_writes_reports() {
    for jdk in jdks() {
        let out = out_dir("sigterm", &jdk);
        let mut child = command(&jdk, "Sleeper", &format!("out={},perf-map=off", out.display()), &[], &[])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        assert_eq!(lines.next().unwrap().unwrap(), "ready");
        // Let the main thread get into nap().
        std::thread::sleep(std::time::Duration::from_millis(300));
        let st = std::process::Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
        assert!(st.success());
        let output = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&output.stderr);
        assert!(err.contains(&format!("hpmagent: reports written to {}", out.display())), "{err}");
        let p = read_profile(&out.join("arcflow.json"));
        let c = contexts(&p, "main");
        assert_eq!(c.get("calls.Sleeper.main;calls.Sleeper.before"), Some(&1), "{c:?}");
        assert_eq!(c.get("calls.Sleeper.main;calls.Sleeper.nap"), Some(&1), "{c:?}");
        std::fs::remove_dir_all(&out).unwrap();
    }
}

#[test]
fn perf_events_become_metrics_and_refusals_are_reported() {
    let jdk = java_tests::jdk().unwrap();
    // Software events open everywhere perf_event_open is allowed; cycles needs a hardware PMU.
    let r = run("events", &jdk, "Straight", "event=task-clock,event=page-faults,event=cycles", &[], &[]);
    r.assert_ok();
    let p = r.calls();
    let names: Vec<String> = p.bindings.metrics.iter().map(|m| m.name.clone()).collect();
    assert_eq!(&names[..2], ["cpu-time", "wall-time"]);
    let err = r.stderr();
    for ev in ["task-clock", "page-faults", "cycles"] {
        // Each event is either a metric or refused with one warning line naming it.
        let counted = names.iter().any(|n| n == ev);
        let refused = err.lines().any(|l| l.starts_with("hpmagent: warning:") && l.contains(&format!("`{ev}`")));
        assert!(counted != refused, "{ev}: counted {counted}, refused {refused}\n{err}");
    }
    assert_eq!(contexts(&p, "main").get("calls.Straight.main;calls.Straight.run;calls.Straight.a"), Some(&3));

    let out = command(&jdk, "Straight", "event=no-such-event", &[], &[]).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    let ours: Vec<&str> = err.lines().filter(|l| l.starts_with("hpmagent:")).collect();
    assert_eq!(ours.len(), 1, "{err}");
    assert!(ours[0].starts_with("hpmagent: error: bad value 'no-such-event' for option 'event'"), "{err}");
}

#[test]
fn dump_on_request_while_threads_start_and_end() {
    for jdk in jdks() {
        let out = out_dir("dumpreq", &jdk);
        let mut child = command(&jdk, "ChurnLong", &format!("out={},perf-map=off", out.display()), &[], &["2000"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap()).lines();
        assert_eq!(stdout.next().unwrap().unwrap(), "ready");
        let mut stderr = BufReader::new(child.stderr.take().unwrap()).lines();
        std::thread::sleep(std::time::Duration::from_millis(500));
        // SIGQUIT: HotSpot prints a thread dump and posts DataDumpRequest; the agent dumps at once.
        assert!(std::process::Command::new("kill").args(["-QUIT", &child.id().to_string()]).status().unwrap().success());
        let line = stderr.next().unwrap().unwrap();
        assert_eq!(line, format!("hpmagent: reports written to {} (dump on request)", out.display()));
        // Read the mid-run dump while the program still runs.
        let p = read_profile(&out.join("arcflow.json"));
        let rows = thread_rows(&std::fs::read_to_string(out.join("threads.txt")).unwrap());
        let mid: Vec<&str> = p.threads.iter().filter(|t| t.name.starts_with("longchurn-")).map(|t| t.name.as_str()).collect();
        assert!(mid.len() >= 2, "threads in the mid-run dump: {mid:?}");
        for (row, t) in rows.iter().zip(&p.threads) {
            if t.name.starts_with("longchurn-") && row.state == "ended" {
                assert_eq!(
                    contexts(&p, &t.name),
                    map(&[("calls.ChurnLong$Worker.run", 1), ("calls.ChurnLong$Worker.run;calls.ChurnLong.spin", 1)])
                );
            }
        }
        // Drain stdout (the thread dump) so the JVM never blocks on a full pipe.
        let drain = std::thread::spawn(move || stdout.count());
        let status = child.wait().unwrap();
        drain.join().unwrap();
        let rest: Vec<String> = stderr.map_while(Result::ok).collect();
        assert!(status.success(), "{rest:?}");
        assert!(rest.iter().any(|l| l == &format!("hpmagent: reports written to {}", out.display())), "{rest:?}");
        // The final dump has every thread of the mid-run one, and all of them ended with their calls.
        let p = read_profile(&out.join("arcflow.json"));
        for name in &mid {
            assert_eq!(
                contexts(&p, name),
                map(&[("calls.ChurnLong$Worker.run", 1), ("calls.ChurnLong$Worker.run;calls.ChurnLong.spin", 1)]),
                "{name}"
            );
        }
        let mut nums: Vec<u64> = p.threads.iter().filter_map(|t| t.name.strip_prefix("longchurn-")?.parse().ok()).collect();
        nums.sort();
        assert_eq!(nums, (0..nums.len() as u64).collect::<Vec<_>>(), "no thread lost");
        std::fs::remove_dir_all(&out).unwrap();
    }
}

#[test]
fn pause_and_resume_from_java_resynchronise_the_context() {
    for jdk in jdks() {
        let r = run("pauseresume", &jdk, "PauseResume", "", &[], &[]);
        r.assert_ok();
        let m = "calls.PauseResume.main";
        let outer = format!("{m};calls.PauseResume.outer");
        let middle = format!("{outer};calls.PauseResume.middle");
        assert_eq!(
            contexts(&r.calls(), "main"),
            map(&[
                (m, 1),
                (&format!("{m};calls.PauseResume.before"), 1),
                (&outer, 1),
                (&format!("{outer};hpmagent.Agent.pause"), 1),
                // Entered while paused: re-synchronised from the stack at resume, not counted.
                (&middle, 0),
                (&format!("{middle};hpmagent.Agent.resume"), 0),
                (&format!("{middle};calls.PauseResume.inner"), 2),
                (&format!("{m};calls.PauseResume.after"), 1),
                (&format!("{m};hpmagent.Agent.status"), 1),
            ]),
            "JDK {:?}",
            jdk.home
        );
        assert!(r.stdout().starts_with("paused=false live_threads="), "{}", r.stdout());
    }
}

#[test]
fn different_lambdas_stay_different_monitor_classes() {
    for jdk in jdks() {
        let r = run("lambdas", &jdk, "Lambdas", "", &[], &[]);
        r.assert_ok();
        let waits = contexts(&r.waits(), "main");
        let lambdas: Vec<(&String, &u64)> = waits.iter().filter(|(k, _)| k.starts_with("calls.Lambdas.main;calls.Lambdas$$Lambda")).collect();
        // One monitor class per lambda: `first` waited once, `second` twice.
        let mut calls: Vec<u64> = lambdas.iter().map(|(_, &c)| c).collect();
        calls.sort();
        assert_eq!(calls, vec![1, 2], "JDK {:?}: {waits:?}", jdk.feature_version());
    }
}

/// Agent options that are not UTF-8 (a path in out= with a stray byte) stop the JVM at load with
/// one line, as rvm refuses them, instead of U+FFFD in a directory name the user never gave.
#[test]
fn options_that_are_not_utf8_are_refused_at_load() {
    use std::os::unix::ffi::OsStringExt;
    let jdk = java_tests::jdk().unwrap();
    let out = out_dir("not-utf8", &jdk);
    let mut opt = format!("-agentpath:{}=socket=off,out=", agent_lib().display()).into_bytes();
    opt.extend_from_slice(out.as_os_str().as_encoded_bytes());
    opt.extend_from_slice(b"\xff");
    let o = std::process::Command::new(jdk.java())
        .arg(std::ffi::OsString::from_vec(opt))
        .arg("-cp")
        .arg(classes())
        .arg("calls.Straight")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{err}");
    assert!(err.contains("hpmagent: error: the agent's options are not UTF-8 (byte 0xff at offset "), "{err}");
    assert!(!out.exists() && !out.with_file_name(format!("{}\u{fffd}", out.file_name().unwrap().to_string_lossy())).exists());
}
