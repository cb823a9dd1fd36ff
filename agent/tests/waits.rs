//! Park waits (`LockSupport.park*` with their blocker's class, in the wait tree and `waits.txt`
//! beside `Object.wait`) on HotSpot 17 and 25: with the probes, without call trees, and after a
//! late attach. The program is `java-tests/waits/waits/Parks.java`.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use common::{agent_lib, jdks, out_dir, read_profile};
use hpm_model::arcflow::Profile;
use hpm_model::snapshot::{PARK_NODE, PARK_TIMED_NODE};
use java_tests::Jdk;

fn classes() -> &'static Path {
    static CLASSES: OnceLock<PathBuf> = OnceLock::new();
    CLASSES.get_or_init(|| java_tests::compile("waits").expect("compiling java-tests/waits"))
}

fn java(jdk: &Jdk, agent: Option<&str>, class: &str) -> Command {
    let mut c = Command::new(jdk.java());
    if let Some(options) = agent {
        c.arg(format!("-agentpath:{}={options}", agent_lib().display()));
    }
    c.args(["-Xshare:auto", "-cp"]).arg(classes()).arg(class);
    c
}

/// One wait of a thread's wait tree: kind (`wait`, or the park node's name), context (method
/// names), class, count, wait-time ns, timed-out.
#[derive(Debug)]
struct Wait {
    kind: String,
    path: Vec<String>,
    class: String,
    count: u64,
    ns: u64,
    timed_out: u64,
}

fn waits_of(p: &Profile, thread_prefix: &str) -> Vec<Wait> {
    let mut v = Vec::new();
    for th in p.threads.iter().filter(|t| t.name.starts_with(thread_prefix)) {
        let t = &th.tree;
        for n in t.preorder().into_iter().skip(1).filter(|&n| t.calls(n) > 0) {
            let mut path: Vec<String> = t.path(n)[1..t.depth(n)].iter().map(|&c| p.consumers.name(c).to_string()).collect();
            let kind = match path.last().map(String::as_str) {
                Some(k @ (PARK_NODE | PARK_TIMED_NODE)) => k.to_string(),
                _ => "wait".to_string(),
            };
            if kind != "wait" {
                path.pop();
            }
            let b = t.base(n);
            v.push(Wait { kind, path, class: p.consumers.name(t.consumer(n)).to_string(), count: t.calls(n), ns: b[0], timed_out: b[1] });
        }
    }
    v
}

/// The one wait of `thread` on `class`.
fn one<'a>(waits: &'a [Wait], thread: &str, class: &str) -> &'a Wait {
    let found: Vec<&Wait> = waits.iter().filter(|w| w.class == class).collect();
    assert_eq!(found.len(), 1, "{thread}: one wait on {class} expected: {waits:?}");
    assert_eq!(found[0].count, 1, "{thread}: {waits:?}");
    found[0]
}

const MS: u64 = 1_000_000;

/// The parks `Parks` plants, each on its thread, with its blocker class, kind and time.
fn check_parks(p: &Profile, text: &str, jdk: &Jdk, label: &str) {
    let label = format!("{label}, JDK {}", jdk.feature_version().unwrap_or(0));
    let lock = waits_of(p, "lock-waiter");
    let w = one(&lock, "lock-waiter", "java.util.concurrent.locks.ReentrantLock$NonfairSync");
    assert_eq!(w.kind, PARK_NODE, "{label}");
    // The holder keeps the lock 300 ms from before lock-waiter starts.
    assert!((150 * MS..5_000 * MS).contains(&w.ns), "{label}: lock-waiter parked {} ns", w.ns);
    let latch = waits_of(p, "latch-waiter");
    let w = one(&latch, "latch-waiter", "java.util.concurrent.CountDownLatch$Sync");
    assert_eq!(w.kind, PARK_NODE, "{label}");
    assert!((150 * MS..5_000 * MS).contains(&w.ns), "{label}: latch-waiter parked {} ns", w.ns);
    let future = waits_of(p, "future-waiter");
    let w = one(&future, "future-waiter", "java.util.concurrent.FutureTask");
    assert!((150 * MS..5_000 * MS).contains(&w.ns), "{label}: future-waiter parked {} ns", w.ns);
    let planted = waits_of(p, "nanos-parker");
    let w = one(&planted, "nanos-parker", "waits.Parks$Marker");
    assert_eq!((w.kind.as_str(), w.timed_out), (PARK_TIMED_NODE, 1), "{label}: {w:?}");
    assert!((180 * MS..2_000 * MS).contains(&w.ns), "{label}: the planted 200 ms park lasted {} ns", w.ns);
    assert_eq!(w.path.last().map(String::as_str), Some("waits.Parks.parkPlanted"), "{label}: the park's calling context: {w:?}");
    let plain = waits_of(p, "plain-parker");
    let w = one(&plain, "plain-parker", "(no blocker)");
    assert_eq!((w.kind.as_str(), w.timed_out), (PARK_TIMED_NODE, 1), "{label}: {w:?}");
    assert!(w.ns >= 45 * MS, "{label}: {w:?}");
    // JDK 25's parkUntil(Object, long) nests a wrapped parkUntil(long): still one park.
    let until = waits_of(p, "until-parker");
    let w = one(&until, "until-parker", "waits.Parks$UntilMarker");
    assert_eq!((w.kind.as_str(), w.timed_out), (PARK_TIMED_NODE, 1), "{label}: {w:?}");
    assert!((100 * MS..2_000 * MS).contains(&w.ns), "{label}: {w:?}");
    assert_eq!(until.len(), 1, "{label}: {until:?}");
    let waiter = waits_of(p, "waiter");
    let w = one(&waiter, "waiter", "java.lang.Object");
    assert_eq!(w.kind, "wait", "{label}: Object.wait stays a wait: {w:?}");
    assert_eq!(w.path.last().map(String::as_str), Some("waits.Parks.waitPlanted"), "{label}: the wait's calling context: {w:?}");
    if jdk.feature_version().unwrap_or(0) >= 21 {
        let v = waits_of(p, "virtual-");
        let w = one(&v, "virtual", "waits.Parks$VMarker");
        assert_eq!((w.kind.as_str(), w.timed_out), (PARK_TIMED_NODE, 1), "{label}: the virtual thread's park: {w:?}");
        assert!((130 * MS..2_000 * MS).contains(&w.ns), "{label}: {w:?}");
    }
    for line in [
        "park        java.util.concurrent.locks.ReentrantLock$NonfairSync",
        "park        java.util.concurrent.CountDownLatch$Sync",
        "park        java.util.concurrent.FutureTask",
        "park-timed  waits.Parks$Marker",
        "wait        java.lang.Object",
        "park-timed  nanos-parker: waits.Parks.parkPlanted -> waits.Parks$Marker",
    ] {
        assert!(text.contains(line), "{label}: waits.txt lacks {line:?}:\n{text}");
    }
}

/// [`check_parks`] on the reports in `out`, which are removed after.
fn check_parks_in(out: PathBuf, jdk: &Jdk, label: &str) {
    let waits = std::fs::read_to_string(out.join("waits.txt")).unwrap();
    check_parks(&read_profile(&out.join("waits/arcflow.json")), &waits, jdk, label);
    let _ = std::fs::remove_dir_all(out);
}

fn run_parks(test: &str, jdk: &Jdk, options: &str) -> PathBuf {
    let out = out_dir(test, jdk);
    let o = java(jdk, Some(&format!("out={},perf-map=off,{options}", out.display())), "waits.Parks").output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("parks done"));
    out
}

#[test]
fn parks_are_waits_with_their_blocker_class() {
    for jdk in jdks() {
        check_parks_in(run_parks("parks", &jdk, ""), &jdk, "probes");
    }
}

/// Without call trees the park's context comes from the thread's stack.
#[test]
fn parks_are_recorded_in_sampling_only_runs() {
    for jdk in jdks() {
        check_parks_in(run_parks("parks-none", &jdk, "calls=none,sample=cpu"), &jdk, "calls=none");
    }
}

/// LockSupport is loaded long before an agent attaches: it is wrapped by retransformation.
#[test]
fn parks_are_recorded_after_a_late_attach() {
    for jdk in jdks() {
        let out = out_dir("parks-attach", &jdk);
        let mut child = java(&jdk, None, "waits.Parks").arg("stdin").stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        assert_eq!(line.trim(), "ready");
        let jcmd = jdk.home.join("bin/jcmd");
        // Quoted: jcmd would take `out=…` for an argument of its own.
        let options = format!("\"out={},perf-map=off\"", out.display());
        let a = Command::new(jcmd).args([&child.id().to_string(), "JVMTI.agent_load"]).arg(agent_lib()).arg(&options).output().unwrap();
        let said = String::from_utf8_lossy(&a.stdout);
        assert!(a.status.success() && said.contains("return code: 0"), "jcmd: {said}");
        let mut stdin = child.stdin.take().unwrap();
        writeln!(stdin, "go").unwrap();
        stdin.flush().unwrap();
        drop(stdin);
        let o = child.wait_with_output().unwrap();
        let mut rest = String::new();
        std::io::Read::read_to_string(&mut stdout, &mut rest).unwrap();
        assert!(o.status.success() && rest.contains("parks done"), "{}", String::from_utf8_lossy(&o.stderr));
        check_parks_in(out, &jdk, "attached");
    }
}

/// Per thread of a state-split sampled profile: wall-time ns per state node name, and in all.
fn wall_by_state(p: &Profile) -> std::collections::BTreeMap<String, (std::collections::BTreeMap<String, u64>, u64)> {
    let wi = p.bindings.metric_index("wall-time").expect("wall-time");
    let mut out = std::collections::BTreeMap::new();
    for th in &p.threads {
        let t = &th.tree;
        let (per, total): &mut (std::collections::BTreeMap<String, u64>, u64) = out.entry(th.name.clone()).or_default();
        for n in t.preorder() {
            let w = t.base(n)[wi];
            *total += w;
            let name = p.consumers.name(t.consumer(n));
            if hpm_model::snapshot::state_of_node(name).is_some() {
                *per.entry(name.to_string()).or_default() += w;
            }
        }
    }
    out
}

/// `sample=wall`: a sleeping, a blocked, a parked, a waiting and a busy thread; each one's wall
/// samples are dominated by its state, and the states split the sampled trees' wall time exactly.
#[test]
fn wall_samples_carry_the_thread_state() {
    for jdk in jdks() {
        let v = jdk.feature_version().unwrap_or(0);
        let out = out_dir("states", &jdk);
        let o = java(&jdk, Some(&format!("out={},perf-map=off,calls=none,sample=wall", out.display())), "waits.States").output().unwrap();
        assert!(o.status.success() && String::from_utf8_lossy(&o.stdout).contains("states done"), "{}", String::from_utf8_lossy(&o.stderr));
        let states = wall_by_state(&read_profile(&out.join("sampled-states/arcflow.json")));
        let sampled = wall_by_state(&read_profile(&out.join("sampled/arcflow.json")));
        for (thread, state) in [("sleeper", "[sleeping]"), ("blocked", "[blocked]"), ("parker", "[parked]"), ("holder", "[waiting]"), ("busy", "[running]")] {
            let (per, total) = states.get(thread).unwrap_or_else(|| panic!("JDK {v}: no samples of {thread}: {states:?}"));
            let mine = per.get(state).copied().unwrap_or(0);
            assert!(*total >= 1_000_000_000, "JDK {v}: {thread} has {total} ns of wall samples in a 1.5 s run");
            assert!(mine * 10 >= total * 9, "JDK {v}: {thread}: {mine} of {total} ns {state}: {per:?}");
            assert_eq!(*total, sampled[thread].1, "JDK {v}: {thread}: the states split the sampled tree's wall time");
        }
        let text = std::fs::read_to_string(out.join("sampled/states.txt")).unwrap();
        let row = text.lines().find(|l| l.ends_with("  waits.States.parkLoop")).unwrap_or_else(|| panic!("JDK {v}: states.txt has no parkLoop row:\n{text}"));
        let cols: Vec<&str> = row.split_whitespace().collect();
        // samples, wall-ms, then running native blocked waiting parked sleeping unknown.
        let ms = |i: usize| cols[i].parse::<f64>().unwrap();
        assert!(ms(6) >= 0.9 * ms(1) && ms(1) >= 1000.0, "JDK {v}: parkLoop's wall time is nearly all parked: {row}");
        let _ = std::fs::remove_dir_all(out);
    }
}
