//! Stack sampling on HotSpot (`sample=cpu`): sampled trees from AsyncGetCallTrace walks in the
//! SIGPROF handler, against the exact trees of the bytecode probes, and under the JDK's own heavy
//! paths.

mod common;

use std::collections::BTreeMap;

use common::*;
use hpm_model::arcflow::{MetricMode, Profile, Tree};

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
        // Two threads busy for 60 s at 1 kHz of CPU time: most signals give a stored sample, one
        // per ms of the CPU time the samples carry (which a loaded machine makes less than 120 s).
        let profile = read_profile(&r.out.join("sampled/arcflow.json"));
        let cpu = profile.bindings.metric_index("cpu-time").expect("cpu-time sampled");
        let cpu_ms: u64 = profile.threads.iter().map(|t| t.tree.total()[cpu]).sum::<u64>() / 1_000_000;
        assert!(cpu_ms > 20_000 && n * 10 > cpu_ms * 8, "{n} samples in {cpu_ms} ms of sampled CPU time");
        let s = self_shares(&profile);
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
    assert!(paused.file("sampled/jit.txt").contains("No compiler thread was seen"), "no compile looks while paused:\n{}", paused.file("sampled/jit.txt"));
}

/// Sum of metric `name` over all of `thread`'s contexts whose path ends in `method`, and their
/// sample count.
fn at_method(p: &Profile, thread: &str, method: &str, name: &str) -> (u64, u64) {
    let m = p.bindings.metric_index(name).unwrap_or_else(|| panic!("metric {name}"));
    let t = &p.threads.iter().find(|t| t.name == thread).unwrap_or_else(|| panic!("thread {thread}")).tree;
    let (mut samples, mut sum) = (0, 0);
    for n in 0..t.len() as u32 {
        if p.consumers.name(t.consumer(n)) == method {
            samples += t.calls(n);
            sum += t.base(n)[m];
        }
    }
    (samples, sum)
}

/// `Naps`: a thread sleeps 40 × 5 ms. Wall-clock samples (`sample=wall`) find it in `nap` about
/// every interval, with the wall time between samples and almost no CPU time; CPU-time samples
/// (`sample=cpu`) hardly ever find it there, since it uses almost no CPU.
#[test]
fn wall_samples_find_threads_where_they_wait_and_cpu_samples_do_not() {
    for jdk in jdks() {
        let wall = run("sample-wall-naps", &jdk, "counters.Naps", "calls=none,sample=wall,sample-interval=5ms,log=info", &[], &[]);
        wall.assert_ok();
        let p = read_profile(&wall.out.join("sampled/arcflow.json"));
        let (n, wall_ns) = at_method(&p, "napper", "calls.counters.Naps.nap", "wall-time");
        let (_, cpu_ns) = at_method(&p, "napper", "calls.counters.Naps.nap", "cpu-time");
        eprintln!("{:?}: wall samples in nap: {n}, wall {} ms, cpu {} ms", jdk.home, wall_ns / 1_000_000, cpu_ns / 1_000_000);
        // 200 ms of sleeping at one sample per 5 ms.
        assert!((25..=50).contains(&n), "{n} wall samples in nap");
        assert!((150_000_000..=260_000_000).contains(&wall_ns), "wall-time in nap: {wall_ns} ns");
        assert!(cpu_ns * 10 < wall_ns, "cpu-time {cpu_ns} ns of wall-time {wall_ns} ns");

        let cpu = run("sample-cpu-naps", &jdk, "counters.Naps", "calls=none,sample=cpu,sample-interval=5ms", &[], &[]);
        cpu.assert_ok();
        let p = read_profile(&cpu.out.join("sampled/arcflow.json"));
        let (n, _) = at_method(&p, "napper", "calls.counters.Naps.nap", "cpu-time");
        assert!(n <= 2, "{n} CPU-time samples in a sleeping method");
    }
}

/// Every sample carries every metric: with `event=task-clock` (the kernel's count of the
/// thread's CPU time) the sampled tree's task-clock agrees with its cpu-time, context by
/// context in sum, and `page-faults` is counted too.
#[test]
fn samples_carry_every_metric() {
    let jdk = &jdks()[0];
    let r = run("sample-metrics", jdk, "counters.Shares", "calls=none,sample=cpu,sample-interval=1ms,event=task-clock,event=page-faults", &[], &["20000", "2"]);
    r.assert_ok();
    let p = read_profile(&r.out.join("sampled/arcflow.json"));
    let names: Vec<&str> = p.bindings.metrics.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["cpu-time", "wall-time", "task-clock", "page-faults"]);
    let total = p.total();
    let (cpu, task) = (total[0] as f64, total[2] as f64);
    assert!(cpu > 0.0 && (task / cpu - 1.0).abs() < 0.1, "task-clock {task} vs cpu-time {cpu}");
    assert!(total[3] > 0, "page faults {}", total[3]);
    for t in ["shares-0", "shares-1"] {
        let (n, c) = at_method(&p, t, "calls.counters.Shares.leafA", "cpu-time");
        let (_, k) = at_method(&p, t, "calls.counters.Shares.leafA", "task-clock");
        assert!(n > 50 && (k as f64 / c as f64 - 1.0).abs() < 0.15, "{t}: leafA {n} samples, task-clock {k} vs cpu-time {c}");
    }
}

/// Windows with sampling alone (`calls=none,sample=cpu`, `start=paused`) through the control
/// socket: what the sampled tree holds after each `stop` is what the busy threads used inside
/// the windows by the kernel's account (`/proc/PID/task/TID/schedstat`): the samples taken just
/// before a `stop` are kept, and the time while stopped is not charged to the next window.
#[test]
fn sampled_windows_hold_what_threads_used_inside_them() {
    use hpm_control::Command;
    use std::time::Duration;
    let jdk = &jdks()[0];
    let base = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    std::fs::create_dir_all(&base).unwrap();
    let tmp = tempfile::tempdir_in(base).unwrap();
    let socket = tmp.path().join("agent.sock");
    let opts = format!(
        "out={},socket={},perf-map=off,calls=none,sample=cpu,sample-interval=1ms,start=paused",
        tmp.path().join("out").display(),
        socket.display()
    );
    let mut child = command(jdk, "counters.Shares", &opts, &[], &["2000000", "2"]).stdout(std::process::Stdio::null()).spawn().unwrap();
    let pid = child.id();
    let ctl = |cmd: Command| {
        let r = control_client(&socket).send(&cmd).unwrap();
        assert!(r.ok, "{cmd:?}: {r:?}");
    };
    // The workers' kernel CPU time, once both run.
    let tids = || -> Vec<u32> { tasks(pid).into_iter().filter(|(_, comm)| comm.starts_with("shares-")).map(|(t, _)| t).collect() };
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while tids().len() < 2 {
        assert!(std::time::Instant::now() < deadline, "no worker threads");
        std::thread::sleep(Duration::from_millis(10));
    }
    let workers = tids();
    let cpu = || -> u64 { workers.iter().map(|&t| task_cpu_ns(pid, t)).sum() };
    let sampled_cpu = |dir: &std::path::Path| -> u64 {
        let p = read_profile(&dir.join("sampled/arcflow.json"));
        p.threads.iter().filter(|t| t.name.starts_with("shares-")).map(|t| (0..t.tree.len() as u32).map(|n| t.tree.base(n)[0]).sum::<u64>()).sum()
    };
    std::thread::sleep(Duration::from_millis(300));
    let c0 = cpu();
    ctl(Command::Start);
    std::thread::sleep(Duration::from_millis(600));
    ctl(Command::Stop);
    let c1 = cpu();
    let d1 = tmp.path().join("d1");
    ctl(Command::Dump { dir: Some(d1.display().to_string()) });
    std::thread::sleep(Duration::from_millis(400));
    let c2 = cpu();
    ctl(Command::Start);
    std::thread::sleep(Duration::from_millis(300));
    ctl(Command::Stop);
    let c3 = cpu();
    let d2 = tmp.path().join("d2");
    ctl(Command::Dump { dir: Some(d2.display().to_string()) });
    kill_if_running(&mut child);

    let (w1, w2) = (c1 - c0, c3 - c2);
    let (s1, s2) = (sampled_cpu(&d1), sampled_cpu(&d2));
    eprintln!("window 1: kernel {} ms, sampled {} ms; both: kernel {} ms, sampled {} ms; stopped between: {} ms", w1 / 1_000_000, s1 / 1_000_000, (w1 + w2) / 1_000_000, s2 / 1_000_000, (c2 - c1) / 1_000_000);
    // 6%, and 2 ms per thread and window for the partial sample intervals at their edges.
    let close = |got: u64, want: u64| (got as f64 - want as f64).abs() < 0.06 * want as f64 + 8_000_000.0;
    assert!(w1 > 100_000_000, "the workers were busy: {w1} ns");
    assert!(close(s1, w1), "first window: sampled {s1} ns, kernel {w1} ns");
    assert!(close(s2, w1 + w2), "both windows: sampled {s2} ns, kernel {} ns (stopped: {} ns)", w1 + w2, c2 - c1);
}

/// One method's row of `sampled/forms.txt`, by column name (`samples`, `cpu-ms`, `c2%`, …; a
/// form that does not occur in the run has no column and reads 0).
fn form_columns(text: &str, method: &str) -> std::collections::HashMap<String, f64> {
    let header: Vec<&str> = text.lines().find(|l| l.trim_start().starts_with("samples")).unwrap_or_else(|| panic!("no table in\n{text}")).split_whitespace().collect();
    let line = text.lines().find(|l| l.ends_with(method)).unwrap_or_else(|| panic!("no {method} in\n{text}"));
    header.iter().zip(line.split_whitespace()).filter(|(h, _)| **h != "method").map(|(h, v)| (h.to_string(), v.parse().unwrap())).collect()
}

/// The second table of `sampled/forms.txt`: the forms of every frame on the sampled stacks.
fn on_stack_table(text: &str) -> &str {
    &text[text.find("On the stack").unwrap_or_else(|| panic!("no on-stack table in\n{text}"))..]
}

/// `sampled/forms.txt`: in `Shares`, whose methods C2 compiles (and inlines leafA into its
/// callers) after a short interpreted start and C1 code, most samples of the busy methods are in
/// C2 or inlined code, some in C1 code or the interpreter. The forms come from HotSpot's code
/// cache at each sample, so they are there without the code map of JVMTI events too.
#[test]
fn sampled_forms_tell_interpreted_c1_c2_and_inlined_code_apart() {
    for jdk in jdks() {
        for (name, options) in [("sample-forms", "calls=none,sample=cpu,sample-interval=1ms"), ("sample-forms-no-code-map", "calls=none,collect=gc,sample=cpu,sample-interval=1ms")] {
            let r = run(name, &jdk, "counters.Shares", options, &[], &["40000", "2"]);
            r.assert_ok();
            let text = r.file("sampled/forms.txt");
            eprintln!("{:?} {options}:\n{text}", jdk.home);
            let get = |row: &std::collections::HashMap<String, f64>, c: &str| row.get(c).copied().unwrap_or(0.0);
            let leaf_a = form_columns(&text, "calls.counters.Shares.leafA");
            assert!(get(&leaf_a, "samples") > 100.0, "{leaf_a:?}");
            assert!(get(&leaf_a, "c2%") + get(&leaf_a, "inlined%") > 80.0, "leafA: {leaf_a:?}");
            let all = form_columns(&text, "(all methods)");
            let shares: f64 = all.iter().filter(|(k, _)| k.ends_with('%')).map(|(_, v)| v).sum();
            assert!((shares - 100.0).abs() < 0.5, "{all:?}");
            // The tiers are told apart: C1's code runs before C2's replaces it.
            assert!(get(&all, "c2%") > 20.0 && get(&all, "c1%") > 0.0, "{all:?}");
            assert_eq!(get(&all, "compiled%"), 0.0, "the compiler is known for every sample: {all:?}");
            // Every frame has a form, not only the innermost: `lambda$main$0` runs once and is
            // never compiled, `work` is interpreted until its loop is compiled on stack
            // replacement; leafA is inlined into its callers in part.
            let stack = on_stack_table(&text);
            let frames = form_columns(stack, "(all frames)");
            assert!(get(&frames, "unknown%") < 1.0, "frames not placed: {frames:?}");
            let lambda = form_columns(stack, "calls.counters.Shares.lambda$main$0");
            assert!(get(&lambda, "interpreted%") > 99.0 && get(&lambda, "samples") > 100.0, "{lambda:?}");
            let work = form_columns(stack, "calls.counters.Shares.work");
            assert!(get(&work, "interpreted%") + get(&work, "c1%") + get(&work, "c2%") > 99.0 && get(&work, "interpreted%") > 10.0, "{work:?}");
            let leaf_a = form_columns(stack, "calls.counters.Shares.leafA");
            assert!(get(&leaf_a, "inlined%") > 20.0, "{leaf_a:?}");
        }
    }
}

/// Stack sampling turns HotSpot's `DebugNonSafepoints` on (so compiled frames are named at any
/// instruction), unless the user set it off.
#[test]
fn sampling_turns_debug_non_safepoints_on_unless_the_user_set_it() {
    for jdk in jdks() {
        let flag = |r: &Run| r.stdout().lines().find(|l| l.contains(" DebugNonSafepoints ")).map(|l| l.split_whitespace().collect::<Vec<_>>()[3].to_string());
        let print = ["-XX:+UnlockDiagnosticVMOptions", "-XX:+PrintFlagsFinal"];
        let r = run("dns-on", &jdk, "counters.Shares", "calls=none,sample=cpu", &print, &["100", "1"]);
        r.assert_ok();
        assert_eq!(flag(&r).as_deref(), Some("true"), "{}", r.stdout());
        let r = run("dns-off", &jdk, "counters.Shares", "calls=none,sample=cpu", &[print[0], "-XX:-DebugNonSafepoints", print[1]], &["100", "1"]);
        r.assert_ok();
        assert_eq!(flag(&r).as_deref(), Some("false"));
        assert!(r.stderr().contains("-XX:-DebugNonSafepoints is given"), "{}", r.stderr());
        let r = run("dns-unsampled", &jdk, "counters.Shares", "calls=none,collect=gc", &print, &["100", "1"]);
        r.assert_ok();
        assert_eq!(flag(&r).as_deref(), Some("false"), "left alone without sampling");
    }
}

/// A number in `jit.txt`'s summary line, after `label` and before " ms".
fn jit_summary_ms(jit: &str, label: &str) -> f64 {
    jit.lines()
        .find(|l| l.starts_with("compiler threads: "))
        .and_then(|l| l.split(label).nth(1))
        .and_then(|l| l.split(" ms").next())
        .unwrap_or_else(|| panic!("no {label:?} in\n{jit}"))
        .parse()
        .unwrap()
}

/// `sampled/jit.txt` on Debian's H2 (through the JDBC driver of `java-tests/thirdparty`), where C1
/// compiles hundreds of methods in a few ms each, mostly between two looks: C1's time is still
/// charged to the methods compiled, not left to no method (charging each look the CPU used since
/// the previous one left half of it there).
#[test]
fn jit_times_charge_short_c1_compilations_to_their_methods() {
    let h2 = std::path::Path::new("/usr/share/java/h2.jar");
    assert!(h2.is_file(), "{} missing: install libh2-java (scripts/test.sh does)", h2.display());
    let driver = java_tests::compile_with("thirdparty", &["-cp", h2.to_str().unwrap()]).expect("compiling java-tests/thirdparty");
    for jdk in jdks() {
        let out = out_dir("sample-jit-h2", &jdk);
        let o = std::process::Command::new(jdk.java())
            .arg(format!("-agentpath:{}=out={},calls=none,sample=cpu,socket=off", agent_lib().display(), out.display()))
            .arg("-cp")
            .arg(format!("{}:{}", driver.display(), h2.display()))
            .args(["bench.H2Driver", "2", "3000"])
            .output()
            .expect("running java");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let jit = std::fs::read_to_string(out.join("sampled/jit.txt")).unwrap();
        eprintln!("{:?}:\n{}", jdk.home, jit.lines().take(20).collect::<Vec<_>>().join("\n"));
        let (total, c1, unclaimed) = (jit_summary_ms(&jit, "compiler threads: "), jit_summary_ms(&jit, "C1's "), jit_summary_ms(&jit, "never found busy: "));
        assert!(c1 > 50.0, "C1 used {c1} ms: too little to tell");
        assert!(unclaimed < 0.05 * total + 5.0, "{unclaimed} ms of {total} ms charged to no method");
        let _ = std::fs::remove_dir_all(&out);
    }
}

/// `sampled/jit.txt`: with stack sampling, the JIT compiler threads' CPU time by the method they
/// compile. On `Compiles` (three large methods whose C2 compilations take 10 ms and more, so a
/// look every 10 ms sees them; `Shares`' leaf methods compile in a few ms and were missed about
/// one run in eight) the table adds up to the compiler threads' CPU time that `vm-cost.txt`
/// measures from the kernel, charges all of C2's threads' time to methods (C1's short compilations
/// can all fall between looks), and names the program's own methods among those C2 compiled.
#[test]
fn jit_times_add_up_to_the_compiler_threads_cpu_and_name_the_methods_compiled() {
    for jdk in jdks() {
        let r = run("sample-jit", &jdk, "counters.Compiles", "calls=none,sample=cpu", &[], &["20000"]);
        r.assert_ok();
        let jit = r.file("sampled/jit.txt");
        eprintln!("{:?}:\n{jit}", jdk.home);
        let total: f64 = jit
            .lines()
            .find_map(|l| l.strip_prefix("compiler threads: "))
            .and_then(|l| l.split(" ms").next())
            .unwrap_or_else(|| panic!("no total in\n{jit}"))
            .parse()
            .unwrap();
        let cost = r.file("vm-cost.txt");
        let whole = cost.lines().find(|l| l.ends_with("(whole run)")).unwrap_or_else(|| panic!("{cost}"));
        let cols: Vec<f64> = whole.split_whitespace().take(9).map(|x| x.parse().unwrap()).collect();
        let kernel_jit_ms = cols[2] * cols[5] / 100.0;
        // The looks start at VMInit and end before the last tick of vm-cost.
        assert!((total - kernel_jit_ms).abs() < 0.15 * kernel_jit_ms + 20.0, "jit.txt {total} ms, vm-cost.txt's jit {kernel_jit_ms} ms");
        // Every compiler thread found busy at least once has all its time charged to methods:
        // what no method gets is the time of threads never seen compiling. C2's compilations
        // here take 10 ms and more, so a look always finds its threads; C1's take a few ms, and
        // on a loaded machine a C1 thread can do all its work between looks (CI saw 9.5 ms of
        // 79 ms), which the report then shows as C1's `(no compile task)` row.
        let c2_unclaimed: f64 = jit
            .lines()
            .map(|l| l.split_whitespace().collect::<Vec<_>>())
            .filter(|c| c.len() >= 6 && c[5] == "c2" && c[6..].join(" ") == "(no compile task)")
            .map(|c| c[0].parse::<f64>().unwrap())
            .sum();
        assert!(c2_unclaimed < 0.05 * total + 5.0, "{c2_unclaimed} ms of C2's time charged to no method in\n{jit}");
        let rows: Vec<Vec<&str>> = jit.lines().filter(|l| l.ends_with(".big1") || l.ends_with(".big2") || l.ends_with(".big3")).map(|l| l.split_whitespace().collect()).collect();
        assert!(rows.iter().any(|c| c[5] == "c2" && c[3].parse::<u64>().unwrap() >= 1 && c[6].starts_with("calls.counters.Compiles.")), "no C2 compilation of Compiles' methods in\n{jit}");
    }
}

/// `sample-alloc=`: allocation samples from HotSpot's heap sampler. `Allocs` allocates known
/// volumes in two methods (long[16] in small(), byte[8192] in big(): 26% and 74% of the bytes):
/// the estimated bytes and objects under each method and class come within 4% of the truth,
/// counts are samples, and nothing else is recorded.
#[test]
fn allocation_samples_estimate_the_bytes_and_objects_each_stack_allocates() {
    let rounds: u64 = 3000;
    for jdk in jdks() {
        let r = run("sample-alloc", &jdk, "counters.Allocs", "calls=none,sample-alloc=64k", &["-Xmx256m"], &[&rounds.to_string()]);
        r.assert_ok();
        let p = read_profile(&r.out.join("sampled-alloc/arcflow.json"));
        assert_eq!(p.bindings.count_label, "samples");
        let names: Vec<&str> = p.bindings.metrics.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["alloc-bytes", "alloc-objects"]);
        assert!(p.bindings.metrics.iter().all(|m| m.mode == MetricMode::Sampled));
        // (method, class) → (samples, bytes, objects), from the innermost recorded method and the
        // allocated class at the leaf.
        let mut by: BTreeMap<(String, String), (u64, u64, u64)> = BTreeMap::new();
        for t in &p.threads {
            for n in 0..t.tree.len() as u32 {
                if t.tree.calls(n) == 0 || n == Tree::ROOT {
                    continue;
                }
                let path: Vec<String> = t.tree.path(n).into_iter().map(|c| p.consumers.name(c).to_string()).collect();
                let [.., method, class] = path.as_slice() else { continue };
                let e = by.entry((method.clone(), class.clone())).or_default();
                e.0 += t.tree.calls(n);
                e.1 += t.tree.base(n)[0];
                e.2 += t.tree.base(n)[1];
            }
        }
        eprintln!("{:?}: {by:?}", jdk.home);
        let get = |m: &str, c: &str| by.get(&(format!("calls.counters.Allocs.{m}"), c.to_string())).copied().unwrap_or_default();
        let (small, big) = (get("small", "long[]"), get("big", "byte[]"));
        // HotSpot's samples are not independent (they are taken on allocation slow paths, per
        // TLAB), so the estimates vary more than independent sampling at these counts would (1.2%
        // and 0.8%): one CI run estimated small()'s bytes 5.3% high. 8% still fails an estimator
        // that is off by any factor.
        let within = |got: u64, want: u64| (got as f64 - want as f64).abs() <= 0.08 * want as f64;
        assert!(small.0 > 1000 && big.0 > 1000, "samples: small {small:?}, big {big:?}");
        assert!(within(small.1, rounds * 1000 * 144), "small(): {} bytes estimated, {} allocated", small.1, rounds * 1000 * 144);
        assert!(within(big.1, rounds * 50 * 8208), "big(): {} bytes estimated, {} allocated", big.1, rounds * 50 * 8208);
        assert!(within(small.2, rounds * 1000), "small(): {} objects estimated, {} allocated", small.2, rounds * 1000);
        assert!(within(big.2, rounds * 50), "big(): {} objects estimated, {} allocated", big.2, rounds * 50);
        assert!(!r.out.join("sampled/arcflow.json").exists(), "no stack samples were asked for");
    }
}

/// The forms follow the JVM's compiler configuration, on every JDK: with `-Xint` no sample is in
/// compiled code, and every frame on the stack is interpreted; with C1 alone
/// (`-XX:TieredStopAtLevel=1`) there is no C2 code, and with C2 alone (`-XX:-TieredCompilation`)
/// no C1 code, at the top or anywhere on the stack; with one unsegmented code cache the lookup
/// still finds C2's code. What `jit.txt` says about the compilers agrees.
#[test]
fn forms_follow_the_jvms_compiler_configuration() {
    for jdk in jdks() {
        let forms = |name: &str, flag: &str, rounds: &str| {
            let r = run(name, &jdk, "counters.Shares", "calls=none,collect=gc,sample=cpu,sample-interval=1ms", &[flag], &[rounds, "2"]);
            r.assert_ok();
            let text = r.file("sampled/forms.txt");
            let all = form_columns(&text, "(all methods)");
            let frames = form_columns(on_stack_table(&text), "(all frames)");
            eprintln!("{:?} {flag}: {all:?}, on the stack {frames:?}", jdk.home);
            (all, frames, r.file("sampled/jit.txt"))
        };
        let get = |row: &std::collections::HashMap<String, f64>, c: &str| row.get(c).copied().unwrap_or(0.0);
        let (all, frames, jit) = forms("forms-xint", "-Xint", "2000");
        // The rest is the VM's own code on the interpreter's behalf (runtime calls).
        assert!(get(&all, "interpreted%") > 95.0, "{all:?}");
        assert!(["c1%", "c2%", "inlined%", "compiled%"].iter().all(|c| !all.contains_key(*c)), "no compiled code with -Xint: {all:?}");
        assert!(get(&frames, "interpreted%") > 99.0, "every frame interpreted: {frames:?}");
        assert!(jit.contains("No compiler thread was seen"), "{jit}");
        let (all, frames, jit) = forms("forms-c1-only", "-XX:TieredStopAtLevel=1", "20000");
        assert!(get(&all, "c1%") > 50.0 && !all.contains_key("c2%"), "{all:?}");
        assert!(get(&frames, "c1%") > 20.0 && !frames.contains_key("c2%"), "{frames:?}");
        assert!(jit.contains("C2's 0.0 ms"), "{jit}");
        let (all, frames, jit) = forms("forms-c2-only", "-XX:-TieredCompilation", "20000");
        assert!(get(&all, "c2%") + get(&all, "inlined%") > 30.0 && !all.contains_key("c1%"), "{all:?}");
        assert!(get(&frames, "c2%") > 20.0 && !frames.contains_key("c1%"), "{frames:?}");
        assert!(jit.contains("C1's 0.0 ms"), "{jit}");
        let (all, frames, _) = forms("forms-one-code-heap", "-XX:-SegmentedCodeCache", "20000");
        assert!(get(&all, "c2%") > 20.0, "{all:?}");
        assert!(get(&frames, "c2%") > 20.0 && get(&frames, "unknown%") < 1.0, "{frames:?}");
    }
}

/// Wall-clock stack samples every 100 µs on one busy thread beside the probes (the default),
/// named at the exit dump: a sampled frame whose method id the VM never gave (AGCT writes null
/// for a method without one) must never reach JVMTI, which dereferences it unchecked. Such ids
/// once crashed JDK 17 in `Method::checked_resolve_jmethod_id` at VM death, every run.
#[test]
fn wall_samples_at_100us_never_hand_jvmti_an_unknown_method_id() {
    for jdk in jdks() {
        for round in 0..3 {
            let r = run(&format!("wall-100us-{round}"), &jdk, "Bench", "sample=wall,sample-interval=100us", &[], &["30", "10"]);
            r.assert_ok();
            let sampled = r.file("sampled/xprof.txt");
            assert!(sampled.contains("calls.Bench.fib"), "{sampled}");
        }
    }
}

/// `sample-lines=on`: sampled Java frames are `Class.method:LINE`, the line from the method's line
/// table at the frame's bytecode index. `calls.Lines.heavy` spends nearly all its time on the line
/// marked HEAVY in its source, so most of its samples carry that line; without the option there
/// is one node for the method.
#[test]
fn sampled_frames_carry_their_source_lines() {
    let source = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../java-tests/calls/calls/Lines.java")).unwrap();
    let line_of = |mark: &str| source.lines().position(|l| l.contains(mark)).unwrap() as u32 + 1;
    let (heavy, main_loop) = (line_of("// HEAVY"), line_of("s += heavy(s, 1_000_000);"));
    for jdk in jdks() {
        let r = run("sample-lines", &jdk, "Lines", "calls=none,sample=cpu,sample-interval=1ms,sample-lines=on", &[], &[]);
        r.assert_ok();
        let p = read_profile(&r.out.join("sampled/arcflow.json"));
        let c = contexts(&p, "main");
        let at = |path: &str| c.iter().filter(|(k, _)| k.ends_with(path)).map(|(_, n)| *n).sum::<u64>();
        let on_heavy = at(&format!("calls.Lines.main:{main_loop};calls.Lines.heavy:{heavy}"));
        let in_heavy: u64 = c.iter().filter(|(k, _)| k.contains("calls.Lines.heavy")).map(|(_, n)| *n).sum();
        assert!(on_heavy > 300 && on_heavy * 10 >= in_heavy * 9, "{:?}: {on_heavy} of {in_heavy} samples on line {heavy}: {c:?}", jdk.home);
        // The top-level reports of this sampling-only run show the same lines.
        assert!(r.file("xprof.txt").contains(&format!("calls.Lines.heavy:{heavy}")), "{}", r.file("xprof.txt"));

        let plain = run("sample-no-lines", &jdk, "Lines", "calls=none,sample=cpu,sample-interval=1ms", &[], &[]);
        plain.assert_ok();
        let c = contexts(&read_profile(&plain.out.join("sampled/arcflow.json")), "main");
        assert!(c.contains_key("calls.Lines.main;calls.Lines.heavy") && !c.keys().any(|k| k.contains(':')), "{c:?}");
    }
}

/// Where AsyncGetCallTrace cannot start a walk (a compiled method's prologue or epilogue, an
/// itable stub, an array-copy stub, a runtime stub into the VM's allocation path), the walker
/// starts again from the caller. On `Edges`, whose hot code is all there, under 2% of each
/// worker's samples stay without a Java stack (AGCT alone leaves 10-15%), and every method is
/// found under the one method that calls it (AGCT itself misplaces the odd sample: under 1%).
#[test]
fn samples_where_agct_cannot_start_a_walk_get_their_callers() {
    /// The one caller of each of `Edges`' methods.
    fn caller_of(method: &str) -> Option<&'static str> {
        let m = method.strip_prefix("calls.counters.Edges")?;
        Some(match m.split('(').next()? {
            ".tiny" => "calls.counters.Edges.calls",
            ".calls" | ".virtuals" | ".copies" | ".allocs" => "calls.counters.Edges.run",
            a if a.starts_with('$') && a.ends_with(".area") => "calls.counters.Edges.virtuals",
            _ => return None,
        })
    }
    for jdk in jdks() {
        let jvm = ["-XX:CompileCommand=quiet", "-XX:CompileCommand=dontinline,calls.counters.Edges*::*"];
        let r = run("sample-edges", &jdk, "counters.Edges", "calls=none,sample=cpu,sample-interval=1ms", &jvm, &["20", "2"]);
        r.assert_ok();
        let p = read_profile(&r.out.join("sampled/arcflow.json"));
        let (mut samples, mut unplaced, mut checked, mut wrong) = (0, 0, 0, 0);
        for t in p.threads.iter().filter(|t| p.consumers.name(t.tree.consumer(Tree::ROOT)).starts_with("edges-")) {
            for n in 1..t.tree.len() as u32 {
                let here = t.tree.calls(n);
                samples += here;
                let path: Vec<&str> = t.tree.path(n).into_iter().map(|c| p.consumers.name(c)).collect();
                let [.., parent, leaf] = path.as_slice() else { continue };
                if ["(unknown Java)", "(not walkable Java)", "(unknown, not Java)", "(not walkable, not Java)", "(walk faulted)"].contains(leaf) {
                    unplaced += here;
                } else if let Some(caller) = caller_of(leaf) {
                    checked += here;
                    if !parent.starts_with(caller) {
                        wrong += here;
                        eprintln!("{:?}: {here} sample(s) of {leaf} under {parent}", jdk.home);
                    }
                }
            }
        }
        eprintln!("{:?}: {samples} samples of the workers, {unplaced} without a Java stack, {checked} checked, {wrong} misplaced", jdk.home);
        assert!(samples > 300 && checked > samples * 9 / 10, "{samples} samples, {checked} of known methods");
        assert!(unplaced * 50 < samples, "{unplaced} of {samples} samples without a Java stack");
        assert!(wrong * 100 < samples, "{wrong} of {samples} samples under a wrong caller");
    }
}

/// `sample-native=on` keeps the native code frames above a sample's Java frames: a JNI
/// library's C functions (java-tests/native/spin.c, built here with frame pointers) under the
/// native method that called them, named by their exported symbols. Without it the native
/// method is the leaf.
#[test]
fn native_frames_of_a_jni_library_sit_above_its_native_method() {
    let src = concat!(env!("CARGO_MANIFEST_DIR"), "/../java-tests/native/spin.c");
    for jdk in jdks() {
        let lib = out_dir("native-spin-lib", &jdk).join("libhpmspin.so");
        std::fs::create_dir_all(lib.parent().unwrap()).unwrap();
        let include = jdk.home.join("include");
        let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
        let built = std::process::Command::new(&cc)
            .args(["-O1", "-fno-omit-frame-pointer", "-shared", "-fPIC", "-o"])
            .arg(&lib)
            .arg(format!("-I{}", include.display()))
            .arg(format!("-I{}", include.join("linux").display()))
            .arg(src)
            .status()
            .unwrap_or_else(|e| panic!("{cc}: {e} (a C compiler builds the test's JNI library)"));
        assert!(built.success(), "{cc} failed on {src}");
        let property = format!("-Dhpm.native.lib={}", lib.display());
        let spin = "calls.counters.NativeSpin.spin";
        let java = format!("calls.counters.NativeSpin.work;{spin}");
        for native in [true, false] {
            let options = format!("calls=none,sample=cpu,sample-interval=1ms,sample-native={}", if native { "on" } else { "off" });
            let r = run(&format!("native-spin-{native}"), &jdk, "counters.NativeSpin", &options, &[&property], &["20"]);
            r.assert_ok();
            let c = contexts(&read_profile(&r.out.join("sampled/arcflow.json")), "main");
            let total: u64 = c.values().sum();
            let under = |suffix: &str| c.iter().filter(|(k, _)| k.ends_with(suffix)).map(|(_, n)| *n).sum::<u64>();
            let in_c = under(&format!("{java};Java_calls_counters_NativeSpin_spin [libhpmspin.so];hpm_spin_inner [libhpmspin.so]"));
            let at_spin = under(&java);
            eprintln!("{:?} sample-native={native}: {total} samples, {in_c} in the C function, {at_spin} at the native method", jdk.home);
            if native {
                assert!(total > 300 && in_c * 10 > total * 8, "{in_c} of {total} samples in hpm_spin_inner: {c:?}");
            } else {
                assert!(in_c == 0 && at_spin * 10 > total * 8, "{at_spin} of {total} samples at {spin}: {c:?}");
            }
        }
    }
}

/// `sample-kernel=on` puts the kernel's frames above a sample's own: a thread reading /dev/zero
/// spends its time in the kernel's `read` path, which the samples show above the JDK's native
/// `readBytes`, named `function [kernel]`. Where the kernel refuses kernel samples (not root,
/// `perf_event_paranoid` above 1), one warning says why and the samples have no kernel frames;
/// as root that warning must not come.
#[test]
fn kernel_frames_sit_above_the_system_call_that_entered_the_kernel() {
    let root = is_root();
    for jdk in jdks() {
        let r = run("kernel-read", &jdk, "counters.KernelRead", "calls=none,sample=cpu,sample-interval=1ms,sample-kernel=on,include=*", &[], &["15"]);
        r.assert_ok();
        let c = contexts(&read_profile(&r.out.join("sampled/arcflow.json")), "main");
        let total: u64 = c.values().sum();
        let is_kernel = |f: &str| f.ends_with(" [kernel]") || f.starts_with("[kernel ");
        let mut in_kernel = 0;
        for (path, n) in &c {
            let frames: Vec<&str> = path.split(';').collect();
            let Some(first) = frames.iter().position(|f| is_kernel(f)) else { continue };
            assert!(frames[first..].iter().all(|f| is_kernel(f)), "a frame below a kernel frame: {path}");
            if path.starts_with("calls.counters.KernelRead.main;calls.counters.KernelRead.read;") && frames[first - 1] == "java.io.FileInputStream.readBytes" {
                in_kernel += n;
            }
        }
        let warned = r.stderr().contains("sample-kernel=on: samples will have no kernel frames:");
        eprintln!("{:?}: {total} samples, {in_kernel} with kernel frames above readBytes; refused: {warned}", jdk.home);
        if warned {
            assert!(!root, "kernel frames refused as root: {}", r.stderr());
            assert!(r.stderr().contains("perf_event_paranoid"), "{}", r.stderr());
            assert!(c.keys().all(|p| !p.split(';').any(is_kernel)), "kernel frames although refused");
        } else {
            // Most of the thread's CPU time is the kernel clearing the buffer.
            assert!(total > 500 && in_kernel * 10 > total * 3, "{in_kernel} of {total} samples with kernel frames above readBytes");
        }
    }
}
