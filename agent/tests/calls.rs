//! Exact call trees on real JVMs: straight calls, recursion, exceptions, threads.

mod common;
use common::*;

#[test]
fn straight_calls_exact_tree() {
    for jdk in jdks() {
        let r = run("straight", &jdk, "Straight", "", &[], &[]);
        r.assert_ok();
        let p = r.calls();
        assert_eq!(
            contexts(&p, "main"),
            straight_tree(),
            "JDK {:?}",
            jdk.home
        );
        assert_eq!(p.bindings.metrics.iter().map(|m| m.name.as_str()).collect::<Vec<_>>(), ["cpu-time", "wall-time"]);
        // Every foundation report and the VM reports are there.
        for f in ["xtree.txt", "xarc.txt", "xprof.txt", "arcflow.json", "collapsed.txt", "flame.svg", "threads.txt", "gc.txt", "locks.txt", "waits.txt", "code.txt"] {
            assert!(r.out.join(f).is_file(), "{f} missing");
        }
        assert!(r.out.join("threads").read_dir().unwrap().count() >= 1, "per-thread views");
        let rows = thread_rows(&r.file("threads.txt"));
        let main = rows.iter().find(|t| t.name == "main").unwrap();
        assert_eq!((main.kind.as_str(), main.calls, main.state.as_str()), ("application", 12, "ended"));
    }
}

#[test]
fn recursion_direct_and_mutual() {
    for jdk in jdks() {
        let r = run("recursion", &jdk, "Recursion", "", &[], &[]);
        r.assert_ok();
        let c = contexts(&r.calls(), "main");
        let mut want = vec![("calls.Recursion.main".to_string(), 1)];
        let mut path = "calls.Recursion.main".to_string();
        for _ in 0..10 {
            path.push_str(";calls.Recursion.fact");
            want.push((path.clone(), 1));
        }
        let mut path = "calls.Recursion.main".to_string();
        for i in 0..7 {
            path.push_str(if i % 2 == 0 { ";calls.Recursion.isEven" } else { ";calls.Recursion.isOdd" });
            want.push((path.clone(), 1));
        }
        assert_eq!(c, want.into_iter().collect(), "JDK {:?}", jdk.home);
    }
}

#[test]
fn exceptions_unwind_through_frames() {
    for jdk in jdks() {
        let r = run("exceptions", &jdk, "Exceptions", "", &[], &[]);
        r.assert_ok();
        assert_eq!(contexts(&r.calls(), "main"), exceptions_tree(), "JDK {:?}", jdk.home);
        // thrower, middle and upper are each popped by the exception 4 times.
        let rows = thread_rows(&r.file("threads.txt"));
        assert_eq!(rows.iter().find(|t| t.name == "main").unwrap().exception_exits, 12);
    }
}

#[test]
fn threads_have_their_own_trees() {
    for jdk in jdks() {
        let r = run("threads", &jdk, "Threads", "", &[], &[]);
        r.assert_ok();
        let p = r.calls();
        for n in 1..=3u64 {
            let name = format!("worker-{n}");
            assert_eq!(
                contexts(&p, &name),
                map(&[
                    ("calls.Threads$Worker.run", 1),
                    ("calls.Threads$Worker.run;calls.Threads.work", 1),
                    ("calls.Threads$Worker.run;calls.Threads.work;calls.Threads.step", n * 10),
                ]),
                "{name} on JDK {:?}",
                jdk.home
            );
            assert_eq!(p.threads.iter().filter(|t| t.name == name).count(), 1, "{name} once");
        }
        assert_eq!(
            contexts(&p, "main"),
            map(&[("calls.Threads.main", 1), ("calls.Threads.main;calls.Threads$Worker.<init>", 3)])
        );
        let rows = thread_rows(&r.file("threads.txt"));
        for row in &rows {
            if row.name.starts_with("worker-") {
                assert_eq!((row.kind.as_str(), row.state.as_str()), ("application", "ended"));
            }
            if row.name == "Reference Handler" || row.name == "Signal Dispatcher" {
                assert_eq!(row.kind, "system");
            }
        }
    }
}
