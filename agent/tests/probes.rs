//! Bytecode probes (the default way of recording calls on HotSpot) against the JVMTI reference
//! mode (`calls=jvmti`): the same contexts with the same call counts, while the JIT keeps compiling.

mod common;

use std::collections::BTreeMap;

use common::*;
use hpm_model::arcflow::MetricMode;

/// thread name → (context → calls), threads with an empty tree left out.
fn all_contexts(p: &hpm_model::arcflow::Profile) -> BTreeMap<String, BTreeMap<String, u64>> {
    p.threads.iter().map(|t| (t.name.clone(), contexts(p, &t.name))).filter(|(_, c)| !c.is_empty()).collect()
}

/// Every call-structure program of `java-tests/calls`, and `Exits` (every kind of method exit), on
/// every JDK found: the probes' trees equal the JVMTI method events' trees, context by context.
#[test]
fn probes_and_jvmti_events_give_the_same_trees() {
    let programs = ["Exits", "PauseResume", "Alloc", "Straight", "Recursion", "Exceptions", "Threads", "ManyThreads", "Gc", "WaitNotify", "Contention"];
    for jdk in jdks() {
        for class in programs {
            let probes = run(&format!("probes-{class}"), &jdk, class, "calls=probes", &[], &[]);
            probes.assert_ok();
            let jvmti = run(&format!("jvmti-{class}"), &jdk, class, "calls=jvmti", &[], &[]);
            jvmti.assert_ok();
            // (PauseResume prints the agent's status, which differs by design.)
            if class != "PauseResume" {
                assert_eq!(probes.stdout(), jvmti.stdout(), "{class}: the program's output differs between the two modes");
            }
            let (p, j) = (all_contexts(&probes.calls()), all_contexts(&jvmti.calls()));
            assert!(!p.is_empty(), "{class}: no call tree with probes");
            // Exits by exception are counted alike (the caught probe counts frames that left
            // without an exit probe, e.g. a constructor whose super(...) threw).
            let exc = |r: &Run| thread_rows(&r.file("threads.txt")).into_iter().map(|t| (t.name, t.exception_exits)).filter(|t| t.1 > 0).collect::<Vec<_>>();
            assert_eq!(exc(&probes), exc(&jvmti), "{class}: exits by exception");
            let modes = |r: &Run| r.calls().bindings.metrics.iter().map(|m| m.mode).collect::<Vec<_>>();
            assert!(modes(&probes).iter().all(|&m| m == MetricMode::Sampled), "{class}: probes' metrics are sampled");
            assert!(modes(&jvmti).iter().all(|&m| m == MetricMode::Exact), "{class}: JVMTI events' metrics are exact");
            assert_eq!(p, j, "{class} on {:?}: probes (left, {}) and JVMTI events (right, {}) differ", jdk.home, probes.out.display(), jvmti.out.display());
        }
    }
}

/// The research VM's conformance programs (`java-tests/conformance`: arithmetic, collections,
/// lambdas, inheritance, static initialisers, strings, threads, ...) on HotSpot: the same trees and
/// output with probes as with JVMTI events. Left out: Exceptions (its stack overflow happens at a
/// depth that depends on frame sizes, so on the mode), Oom (heap-dependent), and the programs that
/// exit with an error on purpose.
#[test]
fn conformance_programs_give_the_same_trees() {
    let classes = java_tests::compile("conformance").expect("compiling java-tests/conformance");
    let programs = [
        "Arith", "Collect", "FloatPrint", "Functional", "GcHeavy", "Inherit", "Lambda", "Linked", "ManyThreads", "Misc", "Queues",
        "Rounding", "Sleep", "Spin", "StaticInit", "Strings", "ThreadGc", "Threads", "Trees", "WaitNotify",
    ];
    for jdk in jdks() {
        for class in programs {
            let run_mode = |mode: &str| {
                let out = out_dir(&format!("conformance-{class}-{mode}"), &jdk);
                let o = std::process::Command::new(jdk.java())
                    .arg(format!("-agentpath:{}=out={},perf-map=off,socket=off,calls={mode}", agent_lib().display(), out.display()))
                    .arg("-cp")
                    .arg(&classes)
                    .arg(class)
                    .output()
                    .expect("running java");
                assert!(o.status.success(), "{class} ({mode}): {}", String::from_utf8_lossy(&o.stderr));
                (String::from_utf8_lossy(&o.stdout).into_owned(), all_contexts(&read_profile(&out.join("arcflow.json"))), out)
            };
            let (p_out, p_trees, p_dir) = run_mode("probes");
            let (j_out, j_trees, j_dir) = run_mode("jvmti");
            // Thread ids (`Thread[#33,…]` on JDK 21+) depend on class data sharing, which the
            // probes' Thread field turns off (-Xshare:off alone moves them by one): not compared.
            assert_eq!(without_thread_ids(&p_out), without_thread_ids(&j_out), "{class}: output differs between the modes");
            assert!(!p_trees.is_empty(), "{class}: no call tree with probes");
            assert_eq!(p_trees, j_trees, "{class} on {:?}: probes ({}) and JVMTI events ({}) differ", jdk.home, p_dir.display(), j_dir.display());
        }
    }
}

/// `text` with the numbers of `Thread[#N,` replaced by `#?`.
fn without_thread_ids(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("Thread[#") {
        let (head, tail) = rest.split_at(at + "Thread[#".len());
        out.push_str(head);
        out.push('?');
        rest = tail.trim_start_matches(|c: char| c.is_ascii_digit());
    }
    out.push_str(rest);
    out
}

#[test]
fn thread_ids_are_masked_and_nothing_else() {
    assert_eq!(without_thread_ids("a Thread[#33,named,5,] done\nThread[#7,x]"), "a Thread[#?,named,5,] done\nThread[#?,x]");
    assert_eq!(without_thread_ids("Thread[main,5] #12"), "Thread[main,5] #12");
}

/// With probes the JIT compiles the probed methods (JVMTI method events would keep every thread
/// interpreted): fib is compiled with add() (probed too) inlined into it, the probes stay calls
/// (`@DontInline`: inlined, they made compiled methods larger and the JIT compile more), and the
/// calls are exact.
#[test]
fn probed_methods_are_compiled_and_counted_exactly() {
    for jdk in jdks() {
        let r = run("probes-compiled", &jdk, "Bench", "calls=probes", &[], &["25", "20"]);
        r.assert_ok();
        let code = r.file("code.txt");
        let fib: Vec<&str> = code.lines().filter(|l| l.contains(" compiled ") && l.contains("calls.Bench.fib(int)")).collect();
        assert!(!fib.is_empty(), "fib was not compiled: {code}");
        assert!(fib.iter().any(|l| l.contains("[inlined: ") && l.contains("calls.Bench.add(int,int)")), "add() is not inlined into fib: {fib:?}");
        assert!(!fib.iter().any(|l| l.contains("hpmagent.probe.Probe.")), "a probe was inlined into fib: {fib:?}");
        // fib(25) makes 2*fib(26)-1 = 242785 calls, 20 times; each call that recurses calls add().
        let calls = contexts(&r.calls(), "main");
        let fib_calls: u64 = calls.iter().filter(|(k, _)| k.ends_with("calls.Bench.fib")).map(|(_, v)| v).sum();
        let add_calls: u64 = calls.iter().filter(|(k, _)| k.ends_with("calls.Bench.add")).map(|(_, v)| v).sum();
        assert_eq!(fib_calls, 20 * 242_785, "{calls:?}");
        assert_eq!(add_calls, 20 * (242_785 - 1) / 2, "{calls:?}");
    }
}

/// With probes, time is sampled into the exact contexts: a busy program's CPU time lands in its
/// methods, except what samples found in the probes' own code, which is no context's and most of
/// fib's time (a probed call every few ns).
#[test]
fn sampled_cpu_time_lands_in_the_probed_contexts() {
    for jdk in jdks() {
        let r = run("probes-sampled", &jdk, "Bench", "calls=probes", &[], &["32", "10"]);
        r.assert_ok();
        // Raw values: this is about where samples land, not about compensation.
        let p = read_profile(&r.out.join("arcflow-raw.json"));
        let th = p.threads.iter().find(|t| t.name == "main").expect("main");
        let cpu = th.tree.total()[0];
        // fib and add(), its callee: what is left of main's time is the VM's start-up (at its root).
        let fib: u64 = th
            .tree
            .preorder()
            .into_iter()
            .filter(|&n| matches!(p.consumers.name(th.tree.consumer(n)), "calls.Bench.fib" | "calls.Bench.add"))
            .map(|n| th.tree.base(n)[0])
            .sum();
        let probes = in_probes(&r.out, "cpu-time");
        assert!(cpu + probes > 300_000_000, "main's sampled cpu-time is {cpu} ns, and {probes} ns in the probes, for a run of fib(32) x10");
        assert!(probes > cpu, "the probes' code has most of the time: {probes} ns against the contexts' {cpu} ns");
        assert!(fib as f64 > 0.7 * cpu as f64, "fib and add() should have most of main's CPU time: {fib} of {cpu}");
    }
}

/// Probes that run interpreted (here all of them: -Xint) are told apart too: the interpreter's
/// frame names the probe method. Their time is in no context, and fib's contexts keep some.
#[test]
fn interpreted_probes_code_is_measured_too() {
    let jdk = java_tests::jdk().unwrap();
    let r = run("probes-interpreted", &jdk, "Bench", "", &["-Xint"], &["22", "3"]);
    r.assert_ok();
    let probes = in_probes(&r.out, "cpu-time");
    let p = read_profile(&r.out.join("arcflow-raw.json"));
    let cpu = p.threads.iter().find(|t| t.name == "main").expect("main").tree.total()[0];
    assert!(probes > 0 && cpu > 0, "interpreted: {probes} ns in the probes' code, {cpu} ns in main's contexts");
}

/// `metric-mode=exact`: the probes read the metrics at every entry and exit, so a context whose
/// every visit is far shorter than the sampling period still gets exactly what it used.
/// `calls.counters.Visits` measures each of its calls from the caller (300 µs of CPU in spin(), a
/// 2 ms sleep in nap()); the contexts' raw bases agree within 3%. A measurement from the caller also
/// takes in its own clock reads and half of each probe (2-3% of spin's time, more on a loaded
/// machine): the program times 100 empty calls the same way, and that is taken off both sides of
/// spin's comparison. The reports say "exact".
#[test]
fn exact_mode_credits_short_visits_what_they_used() {
    for jdk in jdks() {
        let r = run("probes-exact", &jdk, "counters.Visits", "calls=probes,metric-mode=exact,log=info,socket=off", &[], &[]);
        r.assert_ok();
        let said = |key: &str| -> f64 {
            let line = r.stdout().lines().find(|l| l.starts_with(key)).map(str::to_string);
            line.and_then(|l| l.split(' ').nth(1).and_then(|v| v.parse().ok())).unwrap_or_else(|| panic!("no {key} in {}", r.stdout()))
        };
        let stderr = String::from_utf8_lossy(&r.output.stderr).into_owned();
        assert!(stderr.contains("time and counters read at every entry and exit (exact)") && stderr.contains("(metric-mode=exact)"), "{stderr}");
        let p = read_profile(&r.out.join("arcflow-raw.json"));
        assert!(p.bindings.metrics.iter().all(|m| m.mode == MetricMode::Exact), "{:?}", p.bindings.metrics);
        let (cpu, wall) = (p.bindings.metrics.iter().position(|m| m.name == "cpu-time").unwrap(), p.bindings.metrics.iter().position(|m| m.name == "wall-time").unwrap());
        let (calls, spin) = base_at(&p, "main", "calls.counters.Visits.main;calls.counters.Visits.spin").expect("spin's context");
        assert_eq!(calls, 100);
        let (calls, nap) = base_at(&p, "main", "calls.counters.Visits.main;calls.counters.Visits.nap").expect("nap's context");
        assert_eq!(calls, 20);
        let (calls, empty) = base_at(&p, "main", "calls.counters.Visits.main;calls.counters.Visits.empty").expect("empty's context");
        assert_eq!(calls, 100);
        // Both sides less what measuring an empty call adds: the program's clock reads around it, the
        // probes' halves inside it.
        let (spin_got, spin_want) = (spin[cpu] as f64 - empty[cpu] as f64, said("spin-cpu-ns") - said("empty-cpu-ns"));
        eprintln!("empty cpu-time: profile {} ns, program {} ns (100 calls)", empty[cpu], said("empty-cpu-ns"));
        for (what, got, want) in [("spin cpu-time", spin_got, spin_want), ("nap wall-time", nap[wall] as f64, said("nap-wall-ns"))] {
            let err = (got - want).abs() / want;
            eprintln!("{what}: profile {got} ns, program {want} ns ({:+.2}%)", (got - want) / want * 100.0);
            assert!(err < 0.03, "{what} on {:?}: {got} ns in the profile, {want} ns measured by the program ({:.1}% off)", jdk.home, err * 100.0);
        }
        let xtree = r.file("xtree.txt");
        assert!(xtree.starts_with("Units :: cpu-time (ns)  Total"), "exact metrics are not marked sampled: {}", &xtree[..80]);
        assert!(r.file("compensation.txt").contains("each reading the metrics twice"), "{}", r.file("compensation.txt"));
    }
}

/// A JVM started paused has sampled threads that get no signal and no wall round: its two busy
/// workers (hundreds of ms of CPU each, a signal per ms while recording) end with none, and with
/// only the settles of their own end. Recording from the start, the same workers are sampled.
#[test]
fn a_paused_jvm_gets_no_sampling_signals() {
    let jdk = java_tests::jdk().unwrap();
    let sampler_lines = |r: &Run| -> Vec<(u64, u64)> {
        let stderr = String::from_utf8_lossy(&r.output.stderr).into_owned();
        let field = |l: &str, k: &str| -> u64 { l.split(k).nth(1).and_then(|t| t.split([',', ' ']).next()).and_then(|v| v.parse().ok()).unwrap_or_else(|| panic!("{l}")) };
        stderr.lines().filter(|l| l.contains(" sampler: ThreadStats")).map(|l| (field(l, "signals: "), field(l, "settles: "))).collect()
    };
    let paused = run("paused-no-signals", &jdk, "Work", "start=paused,log=debug,socket=off", &[], &["36", "2"]);
    paused.assert_ok();
    let threads = sampler_lines(&paused);
    assert!(threads.len() >= 2, "the workers' sampler lines: {threads:?}");
    assert!(threads.iter().all(|&(signals, settles)| signals == 0 && settles <= 2), "paused: {threads:?}");
    let recording = run("recording-signals", &jdk, "Work", "log=debug,socket=off", &[], &["36", "2"]);
    recording.assert_ok();
    let busy = sampler_lines(&recording).into_iter().filter(|&(signals, _)| signals >= 50).count();
    assert!(busy >= 2, "recording, the two workers are sampled: {:?}", sampler_lines(&recording));
}

/// `metric-mode=auto` (the default) measures what one read of the metrics costs and reads them at
/// every probe only if that is at most 50 ns: the log line gives the cost and which reads are
/// system calls, and the profile's mode follows it (here cpu-time's thread CPU clock is a system
/// call, so sampled).
#[test]
fn auto_metric_mode_follows_the_measured_read_cost() {
    let jdk = java_tests::jdk().unwrap();
    let r = run("probes-auto", &jdk, "Straight", "calls=probes,log=info,socket=off", &[], &[]);
    r.assert_ok();
    let stderr = String::from_utf8_lossy(&r.output.stderr).into_owned();
    let line = stderr.lines().find(|l| l.contains("one read of [cpu-time, wall-time] costs")).unwrap_or_else(|| panic!("{stderr}"));
    let cost: f64 = line.split("costs ").nth(1).and_then(|t| t.split(' ').next()).and_then(|v| v.parse().ok()).unwrap_or_else(|| panic!("{line}"));
    let mode = r.calls().bindings.metrics[0].mode;
    assert_eq!(mode, if cost <= 50.0 { MetricMode::Exact } else { MetricMode::Sampled }, "{line}");
    assert!(line.contains(if mode == MetricMode::Exact { "(exact)" } else { "metric-mode=exact forces it" }), "{line}");
    assert!(line.contains("read: cpu-time by clock_gettime of the thread's CPU clock (a system call), wall-time by CLOCK_MONOTONIC (vDSO)"), "{line}");
    // With a perf counter, the line says how it is read: here a software event, by read().
    let r = run("probes-auto-events", &jdk, "Straight", "calls=probes,log=info,socket=off,event=task-clock", &[], &[]);
    r.assert_ok();
    let stderr = String::from_utf8_lossy(&r.output.stderr).into_owned();
    let line = stderr.lines().find(|l| l.contains("one read of [cpu-time, wall-time, task-clock] costs")).unwrap_or_else(|| panic!("{stderr}"));
    assert!(line.contains("events by read() of their group (a system call: software events have no hardware counter for rdpmc to read)"), "{line}");
}

/// The probes' cost with sampled metrics: samples in the probes' own code go to no context and
/// nothing is subtracted per call, and a small method of known work (`counters.Tiny`: tiny() runs 100 multiply-adds, about 80–100 ns) keeps its cost
/// without probes within 10%, with enough samples (20 M calls, about 2 s of CPU) for the estimate.
/// The program interleaves five rounds of timing the body inline with five rounds of calls, so a
/// loaded machine slows both alike (one CI run compared one round of calls against the fastest of
/// five inline rounds and was 10.06% off).
#[test]
fn small_methods_keep_their_true_cost_within_ten_percent() {
    let jdk = java_tests::jdk().unwrap();
    let r = run("probes-tiny", &jdk, "counters.Tiny", "calls=probes,socket=off", &[], &["4000000", "5"]);
    r.assert_ok();
    let truth = tiny_true_ns_per_call(&r);
    let comp = r.calls();
    let raw = read_profile(&r.out.join("arcflow-raw.json"));
    let path = "calls.counters.Tiny.main;calls.counters.Tiny.calls;calls.counters.Tiny.tiny";
    let (calls, tiny) = base_at(&comp, "main", path).expect("tiny's context");
    let (_, tiny_raw) = base_at(&raw, "main", path).unwrap();
    assert_eq!(calls, 20_000_000);
    let per_call = tiny[0] as f64 / calls as f64;
    let text = r.file("compensation.txt");
    eprintln!("tiny(): true {truth:.1} ns/call, with probes {per_call:.1} ns/call\n{text}");
    assert!((per_call - truth).abs() < 0.1 * truth, "tiny() {per_call:.1} ns/call, truly {truth:.1}");
    assert!(text.contains("bytecode probes"), "{text}");
    // The probes' cost is measured in their code, which no context gets, and nothing is
    // subtracted per call.
    assert_eq!(tiny[0], tiny_raw[0]);
    let (_, caller) = base_at(&comp, "main", "calls.counters.Tiny.main;calls.counters.Tiny.calls").unwrap();
    let (_, caller_raw) = base_at(&raw, "main", "calls.counters.Tiny.main;calls.counters.Tiny.calls").unwrap();
    assert_eq!(caller[0], caller_raw[0]);
    let probes = in_probes(&r.out, "cpu-time");
    assert!(probes > 0 && text.contains("in-probes"), "{text}");
}

/// Third-party programs with every class instrumented, the JDK's included (`include=*`), and
/// HotSpot verifying every class (`BytecodeVerificationLocal/Remote`): Debian's H2 (through a small
/// JDBC transaction driver) and Lucene's own indexing demo print exactly what they print without
/// the agent, on every JDK, and the call trees reach into the JDK.
#[test]
fn third_party_programs_run_unchanged_with_everything_instrumented() {
    let jars = std::path::Path::new("/usr/share/java");
    let need = ["h2.jar", "lucene-core-8.7.0.jar", "lucene-analyzers-common-8.7.0.jar", "lucene-demo-8.7.0.jar"];
    for j in need {
        assert!(jars.join(j).is_file(), "{}/{j} missing: install libh2-java and liblucene8-java (scripts/test.sh does)", jars.display());
    }
    let h2 = jars.join("h2.jar");
    let driver = java_tests::compile_with("thirdparty", &["-cp", h2.to_str().unwrap()]).expect("compiling java-tests/thirdparty");
    let lucene = need[1..].iter().map(|j| jars.join(j).display().to_string()).collect::<Vec<_>>().join(":");
    let docs = java_tests::source_root().parent().unwrap().join("docs");
    let verify = ["-XX:+UnlockDiagnosticVMOptions", "-XX:+BytecodeVerificationLocal", "-XX:+BytecodeVerificationRemote"];
    for jdk in jdks() {
        let programs: [(&str, String, Vec<String>); 2] = [
            ("h2", format!("{}:{}", driver.display(), h2.display()), vec!["bench.H2Driver".into(), "2".into(), "100".into()]),
            ("lucene", lucene.clone(), vec!["org.apache.lucene.demo.IndexFiles".into(), "-docs".into(), docs.display().to_string()]),
        ];
        for (name, cp, args) in programs {
            let out = out_dir(&format!("probes-all-{name}"), &jdk);
            let run_one = |agent: Option<String>, index: &str| {
                let mut c = std::process::Command::new(jdk.java());
                if let Some(a) = &agent {
                    c.arg(a).args(verify);
                }
                c.arg("-cp").arg(&cp).args(&args);
                if name == "lucene" {
                    c.arg("-index").arg(out.with_extension(index));
                }
                let o = c.output().expect("running java");
                assert!(o.status.success(), "{name} ({agent:?}): {}", String::from_utf8_lossy(&o.stderr));
                // Lucene prints its index directory and its run time.
                let text = String::from_utf8_lossy(&o.stdout).into_owned();
                text.lines().filter(|l| !l.contains("total milliseconds") && !l.starts_with("Indexing to")).map(|l| format!("{l}\n")).collect::<String>()
            };
            let plain = run_one(None, "plain");
            let probed = run_one(Some(format!("-agentpath:{}=out={},perf-map=off,socket=off,calls=probes,include=*", agent_lib().display(), out.display())), "probed");
            assert_eq!(plain, probed, "{name} on {:?}: output differs with everything instrumented", jdk.home);
            let _ = std::fs::remove_dir_all(out.with_extension("plain"));
            let _ = std::fs::remove_dir_all(out.with_extension("probed"));
            let p = read_profile(&out.join("arcflow.json"));
            let names: Vec<&str> = (0..p.consumers.len() as u32).map(|c| p.consumers.name(c)).collect();
            let jdk_method = if name == "h2" { "java.util.HashMap.get" } else { "java.lang.String.charAt" };
            assert!(names.iter().any(|n| n.starts_with(jdk_method)), "{name}: no {jdk_method} context with include=*");
        }
    }
}

/// Two busy threads' probe state never shares a 128-byte cache line (false sharing: every call
/// of one would move the line away from the other's core), checked by address rather than by
/// timing: `calls.Layout` runs two threads of probed code at once and prints their native
/// context cells and the lengths of their Shadow arrays, before and after a full GC (which copies
/// the Shadows next to each other), and the offsets of Shadow's fields.
#[test]
fn two_threads_hot_probe_state_shares_no_cache_line() {
    const LINE: u64 = 128;
    for jdk in jdks() {
        let r = run("layout", &jdk, "Layout", "", &[], &[]);
        r.assert_ok();
        let out = r.stdout();
        let value = |line: &str, key: &str| -> u64 {
            let f = line.split_whitespace().find_map(|w| w.strip_prefix(&format!("{key}="))).unwrap_or_else(|| panic!("no {key}= in {line}"));
            f.parse().unwrap()
        };
        let mut cells: BTreeMap<String, Vec<u64>> = BTreeMap::new();
        for line in out.lines().filter(|l| l.starts_with("shadow ")) {
            let round = line.split_whitespace().nth(2).unwrap().to_string();
            let cell = value(line, "cell");
            assert_eq!(cell % LINE, 0, "{line}: the context cell is not on a line of its own");
            // The written arrays keep 128 bytes unused at each end: 16 longs, 32 ints.
            let parent = value(line, "parent");
            assert_eq!(value(line, "calls"), parent + 2 * 16, "{line}: calls has no guard bands");
            assert_eq!(value(line, "hints"), 8 * parent + 2 * 32, "{line}: hints has no guard bands");
            cells.entry(round).or_default().push(cell);
        }
        assert_eq!(cells.len(), 2, "two rounds expected: {out}");
        for (round, c) in &cells {
            assert_eq!(c.len(), 2, "round {round}: {out}");
            assert_ne!(c[0] / LINE, c[1] / LINE, "round {round}: two threads' cells share a line: {out}");
        }
        // @Contended: 128 bytes of padding before Shadow's fields (and after, where no offset shows).
        let fields = out.lines().find(|l| l.starts_with("fields ")).expect("fields line");
        assert!(value(fields, "first") >= LINE, "{fields}: Shadow's fields are not padded");
    }
}

/// A StackOverflowError caught by the program does not end the recording of its thread: every
/// call after it is counted (`calls.StackOverflow`: 3 × 1000 calls of `leaf` and 3 of `after`
/// after three caught overflows), in both modes, and under `main` where the program makes them.
#[test]
fn calls_after_a_caught_stack_overflow_are_recorded() {
    for jdk in jdks() {
        for mode in ["calls=probes", "calls=jvmti"] {
            let r = run(&format!("soe-{}", &mode[6..]), &jdk, "StackOverflow", mode, &[], &[]);
            r.assert_ok();
            let c = contexts(&r.calls(), "main");
            assert_eq!(c.get("calls.StackOverflow.main;calls.StackOverflow.leaf"), Some(&3000), "{mode} on {:?}: {c:?}", jdk.home);
            assert_eq!(c.get("calls.StackOverflow.main;calls.StackOverflow.after"), Some(&3), "{mode} on {:?}", jdk.home);
            assert_eq!(c.get("calls.StackOverflow.main;calls.StackOverflow.depth"), Some(&3), "{mode}: one outermost depth() per round");
        }
    }
}

/// `trivial=skip`: a trivial method (`Bench.add`: two loads, an add, a return) gets no probes. It
/// has no context, its caller's calls are counted as before, and compensation.txt says how many
/// methods were left out. By default (`trivial=probe`) every call is counted, add's included.
/// fib(n) makes 2·F(n+1) − 1 calls of fib and F(n+1) − 1 of add: for n = 20, 21891 and 10945.
#[test]
fn trivial_methods_get_no_probes_with_trivial_skip() {
    for jdk in jdks() {
        let home = jdk.home.display().to_string();
        for (option, add_calls) in [("trivial=skip", 0), ("trivial=probe", 3 * 10945)] {
            let r = run(&format!("trivial-{}", &option[8..]), &jdk, "Bench", option, &[], &["20", "3"]);
            r.assert_ok();
            let c = contexts(&r.calls(), "main");
            let calls_of = |m: &str| -> u64 { c.iter().filter(|(k, _)| k.ends_with(m)).map(|(_, v)| v).sum() };
            assert_eq!(calls_of(";calls.Bench.fib"), 3 * 21891, "{option} on {home}");
            assert_eq!(calls_of(";calls.Bench.add"), add_calls, "{option} on {home}");
            let text = r.file("compensation.txt");
            let said = text.contains("trivial=skip: 1 trivial method(s) had no probes by this dump: their calls are not counted and their time is their callers'");
            assert_eq!(said, option == "trivial=skip", "{option} on {home}: {text}");
        }
    }
}

/// On call-dense code the probes' own code takes most of the time: the exit says so in one line
/// (and compensation.txt ends with it), naming how much and what measures without probes. fib
/// through add() is a probed call every few ns.
#[test]
fn the_exit_says_when_the_probes_cost_is_most_of_the_measured_time() {
    let jdk = java_tests::jdk().unwrap();
    let r = run("compensation-note", &jdk, "Bench", "", &[], &["30", "5"]);
    r.assert_ok();
    let line = r.stderr().lines().find(|l| l.starts_with("hpmagent: note: the probes' own code took")).map(str::to_string);
    let line = line.unwrap_or_else(|| panic!("no note at exit: {}", r.stderr()));
    assert!(line.contains("% of the recorded cpu-time") && line.contains("calls=none,sample=cpu") && line.ends_with("(compensation.txt)"), "{line}");
    assert!(r.file("compensation.txt").contains("note: the probes' own code took"));
    // Per thread too: fib's thread spent more in the probes' code than in all its contexts.
    assert!(r.file("threads.txt").contains("probes-ms is the CPU time the probes' own code took"), "{}", r.file("threads.txt"));
    let v: serde_json::Value = serde_json::from_str(&r.file("threads.json")).unwrap();
    let main = v["threads"].as_array().unwrap().iter().find(|t| t["name"] == "main").expect("main in threads.json");
    let (probes, cpu) = (main["in_probes"]["cpu-time"].as_u64().unwrap_or(0), main["totals"]["cpu-time"].as_u64().unwrap_or(0));
    assert!(probes > cpu && cpu > 0, "main: {probes} ns in the probes' code, {cpu} ns in its contexts");
}

/// A thread whose thread locals the JDK erases between tasks (a Cleaner's InnocuousThread) goes on
/// in its one tree: `calls.Cleaned` has 100 objects cleaned by actions that call `clean()`, each
/// counted, as with JVMTI method events. (The probes once started a second, unrecorded tree after
/// the first erase, and warned about virtual threads in a program that has none.)
#[test]
fn a_thread_whose_thread_locals_are_erased_keeps_its_tree() {
    for jdk in jdks() {
        for mode in ["calls=probes", "calls=jvmti"] {
            let r = run(&format!("cleaned-{}", &mode[6..]), &jdk, "Cleaned", mode, &[], &[]);
            r.assert_ok();
            assert_eq!(r.stdout().trim(), "cleaned 100");
            assert!(!r.stderr().contains("virtual threads"), "{}", r.stderr());
            let c = contexts(&r.calls(), "Cleaner-0");
            assert_eq!(c.get("calls.Cleaned$Action.run"), Some(&100), "{mode} on {:?}: {c:?}", jdk.home);
            assert_eq!(c.get("calls.Cleaned$Action.run;calls.Cleaned.clean"), Some(&100), "{mode}: {c:?}");
        }
    }
}

/// thread-field=on (the default, with the agent loaded at start-up): java.lang.Thread gets the
/// field `hpmagent$shadow` at its load, and each thread's first probe puts its Shadow there, where
/// later probes find it; the counts are those of the ThreadLocal path (thread-field=off), which
/// leaves Thread as it is. The start-up log says which one runs, and what it costs.
#[test]
fn each_thread_keeps_its_call_tree_in_a_field_of_its_thread() {
    let opens = ["--add-opens", "java.base/java.lang=ALL-UNNAMED"];
    for jdk in jdks() {
        let on = run("thread-field-on", &jdk, "ThreadField", "log=info", &opens, &[]);
        on.assert_ok();
        assert_eq!(on.stdout().lines().collect::<Vec<_>>(), ["field yes", "main same calls=500500", "worker same calls=500500"], "{:?}", jdk.home);
        assert!(on.stderr().contains("hpmagent: info: the probes find each thread's call tree in a field added to java.lang.Thread"), "{}", on.stderr());

        let off = run("thread-field-off", &jdk, "ThreadField", "log=info,thread-field=off", &opens, &[]);
        off.assert_ok();
        assert_eq!(off.stdout().lines().collect::<Vec<_>>(), ["field no", "main calls=500500", "worker calls=500500"], "{:?}", jdk.home);
        assert!(!off.stderr().contains("java.lang.Thread"), "{}", off.stderr());

        // A JVM that must map its class data sharing archive would not start with the early hook
        // the field needs: the probes use the ThreadLocal there, and say so.
        let required = run("thread-field-cds", &jdk, "ThreadField", "log=info", &[&opens[..], &["-Xshare:on"]].concat(), &[]);
        required.assert_ok();
        assert_eq!(required.stdout().lines().collect::<Vec<_>>(), ["field no", "main calls=500500", "worker calls=500500"], "{:?}", jdk.home);
        assert!(required.stderr().contains("this JVM requires class data sharing (-Xshare:on or -XX:AOTMode=on)"), "{}", required.stderr());

        for (label, r) in [("on", &on), ("off", &off), ("off (CDS required)", &required)] {
            let p = r.calls();
            for thread in ["main", "worker"] {
                let c = contexts(&p, thread);
                let work = if thread == "main" { "calls.ThreadField.main;calls.ThreadField.report;calls.ThreadField.work" } else { "calls.ThreadField.lambda$main$0;calls.ThreadField.report;calls.ThreadField.work" };
                assert_eq!(c.get(&format!("{work};calls.ThreadField.leaf")), Some(&1000), "thread-field={label}, {thread} on {:?}: {c:?}", jdk.home);
            }
        }
    }
}
