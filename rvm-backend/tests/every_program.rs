//! Every program in `java-tests/`: each class with a `main` method, in every group, compiled with
//! plain `javac` (javac's defaults: `invokedynamic` string concatenation, the JDK's own class-file
//! version) by JDK 17 and by the newest JDK found (25 where it is installed), prints on `rvm` (2
//! processors) what it prints on HotSpot and exits with HotSpot's code.
//!
//! The expected output is HotSpot's, run once on the classes of the oldest JDK that compiled the
//! group (rvm's class library prints as JDK 17 does, e.g. floating-point numbers); rvm runs the
//! classes of every JDK, and for a newer javac's classes a line may instead be what that JDK's
//! HotSpot prints (javac folds constants into strings with its own JDK's formatting). Programs are run with the short arguments their own tests use, and with
//! their standard input where they read one. Where a program prints what depends on time or on
//! the threads' interleaving (a count of rounds done in a time, a measured duration, lines printed
//! by racing threads) the spec names the varying words, which are compared as placeholders, and
//! whether lines are compared as a sorted list: the rest of every line, the line count and the exit
//! code must still be equal.
//!
//! A program is left out only if it cannot run on any VM but HotSpot ([`EXCLUDED`], each with its
//! reason, also listed in the README; none is now). [`PENDING`] lists programs that do not run on rvm yet, with
//! what is missing (none now); the test checks that each of them still fails, so that one that
//! starts to pass is moved out of the list.

use java_tests::Jdk;
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Programs that only HotSpot can run, and why.
const EXCLUDED: &[(&str, &str)] = &[];

/// Programs that do not run on rvm yet, and what they need.
const PENDING: &[(&str, &str)] = &[];

/// Whether the run `class args` is [`PENDING`] (an entry names a class, or a class and its first
/// arguments).
fn pending(class: &str, args: &[String]) -> bool {
    let run = std::iter::once(class.to_string()).chain(args.iter().cloned()).collect::<Vec<_>>().join(" ");
    PENDING.iter().any(|(p, _)| run == *p || run.starts_with(&format!("{p} ")))
}

/// A group of programs compiled together: a folder of `java-tests`, which JDKs compile it (`true`:
/// only those newer than 17, for language features JDK 17 does not have), and what it needs on the
/// class path.
struct Unit {
    dir: &'static str,
    newer_only: bool,
    cp: Extra,
}

#[derive(Clone, Copy, PartialEq)]
enum Extra {
    None,
    /// The workloads' classes (`hpmagent.Trace`).
    Workloads,
    /// Debian's H2 jar (the group is skipped without it).
    H2,
}

const UNITS: &[Unit] = &[
    Unit { dir: "calls", newer_only: false, cp: Extra::None },
    Unit { dir: "conformance", newer_only: false, cp: Extra::None },
    Unit { dir: "control", newer_only: false, cp: Extra::None },
    Unit { dir: "explorer", newer_only: false, cp: Extra::None },
    Unit { dir: "instrument/run", newer_only: false, cp: Extra::None },
    Unit { dir: "jdk21", newer_only: true, cp: Extra::None },
    Unit { dir: "micro", newer_only: false, cp: Extra::None },
    Unit { dir: "rvm-concurrent", newer_only: false, cp: Extra::None },
    Unit { dir: "rvm-indy", newer_only: false, cp: Extra::None },
    Unit { dir: "rvm-modern/java17", newer_only: false, cp: Extra::None },
    Unit { dir: "rvm-modern/java21", newer_only: true, cp: Extra::None },
    Unit { dir: "rvmagent", newer_only: false, cp: Extra::Workloads },
    Unit { dir: "rvmsampled", newer_only: false, cp: Extra::None },
    Unit { dir: "thirdparty", newer_only: false, cp: Extra::H2 },
    Unit { dir: "waits", newer_only: false, cp: Extra::None },
    Unit { dir: "waits-instrument/driver", newer_only: false, cp: Extra::None },
    Unit { dir: "windows", newer_only: false, cp: Extra::None },
    Unit { dir: "workloads", newer_only: false, cp: Extra::None },
];

const H2_JAR: &str = "/usr/share/java/h2.jar";

/// What a program reads on standard input.
#[derive(Clone, Copy)]
enum Input {
    None,
    /// Given at once.
    Now(&'static str),
    /// Written once the program printed the line `ready` (and 200 ms later, so that what it
    /// started before runs), as the agent's tests drive it.
    AfterReady(&'static str),
    /// None; once the program printed `ready` (and 200 ms later), the signal is sent to it.
    SignalAfterReady(&'static str),
}

/// One run of a program.
#[derive(Clone)]
struct Spec {
    args: Vec<String>,
    input: Input,
    /// Words (by whitespace-separated position in a line) that depend on time.
    vary: &'static [usize],
    /// Lines compared as a sorted list (printed by racing threads).
    sorted: bool,
    heap: Option<&'static str>,
}

fn spec(args: &[&str]) -> Spec {
    Spec { args: args.iter().map(|s| s.to_string()).collect(), input: Input::None, vary: &[], sorted: false, heap: None }
}

impl Spec {
    fn vary(mut self, v: &'static [usize]) -> Spec {
        self.vary = v;
        self
    }
    fn sorted(mut self) -> Spec {
        self.sorted = true;
        self
    }
    fn input(mut self, i: Input) -> Spec {
        self.input = i;
        self
    }
    fn heap(mut self, h: &'static str) -> Spec {
        self.heap = Some(h);
        self
    }
}

/// The runs of `class` (arguments as its own tests give them, shortened): none listed is one run
/// without arguments, compared exactly.
fn specs(class: &str, tmp: &Path) -> Vec<Spec> {
    match class {
        "AllocLoop" => vec![spec(&["16"]).heap("16m")],
        "GcHeavy" | "Oom" => vec![spec(&[]).heap("16m")],
        "ThreadGc" => vec![spec(&[]).heap("8m")],
        "calls.Bench" => vec![spec(&["20", "2"])],
        "calls.Sleeper" => vec![spec(&[]).input(Input::SignalAfterReady("TERM"))],
        "calls.ChurnLong" => vec![spec(&["300"]).vary(&[1])],
        "calls.Scaling" => vec![spec(&["2", "10"]).vary(&[2])],
        "calls.WalkStress" => vec![spec(&["1", "2"]).vary(&[2])],
        "calls.Work" => vec![spec(&["3", "2"])],
        "calls.counters.Allocs" => vec![spec(&["20"])],
        "calls.counters.Busy" => vec![spec(&["2000"])],
        "calls.counters.Edges" => vec![spec(&["20", "2"])],
        "calls.counters.KernelRead" => vec![spec(&["2"])],
        "calls.counters.NativeSpin" => vec![spec(&["2"])],
        "calls.counters.Shares" => vec![spec(&["2000", "2"])],
        "calls.counters.Spinners" => vec![spec(&["1000"]).input(Input::AfterReady("\n"))],
        "calls.counters.Tiny" => vec![spec(&["1000"]).vary(&[1])],
        "calls.counters.Visits" => vec![spec(&[]).vary(&[1])],
        // "sum true" or "false": whether the cruncher's value is 0 when it stops, which depends on how
        // many rounds it ran
        "Busy" => vec![spec(&[]).input(Input::AfterReady("quit\n")).vary(&[1])],
        "Phases" => vec![spec(&[]).input(Input::Now("A\nB\nC\nnothing\nquit\n"))],
        "explorer.Shift" => vec![spec(&["200", "200"])],
        "driver.Driver" => {
            let specs: Vec<String> = ["Attrs", "Ctors", "Finally", "Handlers", "Lambdas", "Loops", "Shapes", "StaticInit", "Switches", "Sync", "Throws"]
                .iter()
                .map(|c| format!("itest.{c}.scenario:2"))
                .collect();
            vec![Spec { args: specs, ..spec(&[]) }]
        }
        "harness.LinkAll" => {
            let names = tmp.join("linkall-names.txt");
            std::fs::write(&names, "itest.Shapes\nitest.Sync\ndriver.Driver\njava.util.ArrayList\nno.such.Class\n").unwrap();
            vec![spec(&[names.to_str().unwrap()])]
        }
        "CpuRatio" => vec![spec(&["400"])],
        "bench.H2Driver" => vec![spec(&["2", "100"]), spec(&["2", "100", "separate"])],
        "bench.H2Scaling" => vec![spec(&["1", "100"]).vary(&[2])],
        // "phases START END": the wall-clock times around H2Driver's main
        "bench.Phases" => vec![spec(&["bench.H2Driver", "1", "50"]).vary(&[1, 2])],
        "waits.ParkBench" => vec![spec(&["20000", "2"]).vary(&[3, 7])],
        "waits.Parks" => vec![spec(&[]), spec(&["stdin"]).input(Input::AfterReady("\n"))],
        "waits.States" => vec![spec(&["300"])],
        "Windows" => vec![
            spec(&["sleep", "100"]).input(Input::AfterReady("\n\n")),
            spec(&["spin", "200"]).input(Input::AfterReady("\n\n")).vary(&[1]),
            spec(&["deflate", "100"]).input(Input::AfterReady("\n\n")).vary(&[1]),
        ],
        // virtual threads: timings and the order the threads finish in vary
        "vthreads.MountPhases" => vec![spec(&["2", "2", "5", "5"]).vary(&[3, 5, 7, 9, 10, 11, 12, 13, 14]).sorted()],
        "vthreads.YieldLoop" => vec![spec(&["2", "1000"]).vary(&[3])],
        "consult.Bottlenecks" => vec![spec(&["300"]).vary(&[2])],
        "phases.PingPong" => vec![spec(&["3000"])],
        "phases.QuantumPhases" => vec![spec(&["2", "3"]).vary(&[1, 3]).sorted()],
        "phases.SampledPhases" => vec![spec(&["200"]).vary(&[1])],
        "pseudojbb.PseudoJbb" => vec![spec(&["2", "3000"]).heap("24m")],
        _ => vec![spec(&[])],
    }
}

/// The JDKs whose javac compiles the programs: 17, and the newest one found if newer.
fn jdks() -> Vec<Jdk> {
    let mut v: Vec<Jdk> = java_tests::all_jdks().into_iter().filter(|j| j.feature_version() == Some(17)).take(1).collect();
    if v.is_empty() {
        v.push(java_tests::jdk().expect("a JDK"));
    }
    if let Some(n) = java_tests::newer_jdk() {
        v.push(n);
    }
    v
}

/// The programs with a `main` under `dir`: their binary names, from the package line and the file.
fn mains(dir: &Path) -> Vec<String> {
    let mut files = Vec::new();
    java_tests::collect_files(dir, "java", &mut files).unwrap();
    let mut out = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        if !text.contains("static void main(") {
            continue;
        }
        let pkg = text.lines().find_map(|l| l.strip_prefix("package ").map(|p| p.trim_end_matches(';').trim().to_string()));
        let name = f.file_stem().unwrap().to_string_lossy().to_string();
        out.push(match pkg {
            Some(p) => format!("{p}.{name}"),
            None => name,
        });
    }
    out
}

struct Out {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Runs `cmd` with `input`, killing it after `timeout`.
fn run(mut cmd: Command, input: Input, timeout: Duration) -> Out {
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    cmd.stdin(match input {
        Input::None | Input::SignalAfterReady(_) => Stdio::null(),
        _ => Stdio::piped(),
    });
    let mut child = cmd.spawn().expect("spawn");
    let pid = child.id();
    let mut stdin = child.stdin.take();
    if let (Input::Now(text), Some(mut s)) = (input, stdin.take()) {
        let _ = s.write_all(text.as_bytes());
    }
    let so = child.stdout.take().unwrap();
    let mut se = child.stderr.take().unwrap();
    let t1 = std::thread::spawn(move || {
        let mut all = String::new();
        for line in BufReader::new(so).lines() {
            let Ok(line) = line else { break };
            if line == "ready" {
                if let (Input::AfterReady(text), Some(mut s)) = (input, stdin.take()) {
                    std::thread::sleep(Duration::from_millis(200));
                    let _ = s.write_all(text.as_bytes());
                }
                if let Input::SignalAfterReady(sig) = input {
                    std::thread::sleep(Duration::from_millis(200));
                    let _ = Command::new("kill").arg(format!("-{sig}")).arg(pid.to_string()).status();
                }
            }
            all.push_str(&line);
            all.push('\n');
        }
        all
    });
    let t2 = std::thread::spawn(move || {
        let mut s = String::new();
        se.read_to_string(&mut s).ok();
        s
    });
    let start = Instant::now();
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break Some(st);
        }
        if start.elapsed() > timeout {
            child.kill().ok();
            child.wait().ok();
            break None;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let stdout = t1.join().unwrap();
    let mut stderr = t2.join().unwrap();
    if status.is_none() {
        stderr.push_str(&format!("\n(killed after {timeout:?})"));
    }
    Out { code: status.and_then(|s| s.code()), stdout, stderr }
}

/// The lines compared: the varying words replaced by `<v>`, sorted if asked.
fn comparable(out: &str, s: &Spec) -> Vec<String> {
    let mut lines: Vec<String> = out
        .lines()
        .map(|l| {
            if s.vary.is_empty() {
                return l.to_string();
            }
            l.split(' ').enumerate().map(|(k, w)| if s.vary.contains(&k) { "<v>" } else { w }).collect::<Vec<_>>().join(" ")
        })
        .collect();
    if s.sorted {
        lines.sort();
    }
    lines
}

struct Job {
    class: String,
    spec: Spec,
    /// (javac's feature version, class path) per compilation; the first gives the expected output.
    compiled: Vec<(u32, String, Jdk)>,
}

/// None if rvm printed and exited as HotSpot did, else what differed.
fn check(job: &Job) -> Option<String> {
    let (_, cp0, jdk0) = &job.compiled[0];
    let timeout = Duration::from_secs(90);
    let mut java = Command::new(jdk0.java());
    if let Some(h) = job.spec.heap {
        java.arg(format!("-Xmx{h}"));
    }
    java.arg("-cp").arg(cp0).arg(&job.class).args(&job.spec.args);
    let expected = run(java, job.spec.input, timeout);
    if expected.code.is_none() {
        return Some(format!("{} {:?}: HotSpot did not finish: {}", job.class, job.spec.args, expected.stderr));
    }
    let want = comparable(&expected.stdout, &job.spec);
    for (v, cp, _) in &job.compiled {
        let mut rvm = Command::new(env!("CARGO_BIN_EXE_rvm"));
        rvm.arg("-Xvps:2");
        if let Some(h) = job.spec.heap {
            rvm.arg(format!("-Xmx{h}"));
        }
        rvm.arg("-cp").arg(cp).arg(&job.class).args(&job.spec.args);
        let got = run(rvm, job.spec.input, timeout);
        let have = comparable(&got.stdout, &job.spec);
        if (have != want || got.code != expected.code) && !same_as_own_jdk(job, *v, &want, &have, got.code) {
            let first = want.iter().zip(&have).position(|(a, b)| a != b).unwrap_or(want.len().min(have.len()));
            return Some(format!(
                "{} {:?} (javac {v}): exit {:?} on rvm, {:?} on HotSpot; first difference at line {}:\n  HotSpot: {:?}\n  rvm:     {:?}\nrvm stderr (end): {}",
                job.class,
                job.spec.args,
                got.code,
                expected.code,
                first + 1,
                want.get(first),
                have.get(first),
                &got.stderr[got.stderr.len().saturating_sub(1500)..]
            ));
        }
    }
    None
}

/// For classes compiled by a newer javac than the reference's: whether rvm's output is, line by
/// line, either the reference's line or the line HotSpot of that javac's JDK prints for these
/// classes, with the same line count and exit code. A newer javac folds constants into strings with
/// its own JDK's formatting (`"" + Float.MIN_NORMAL` is `1.1754944E-38` from javac 25, while JDK
/// 17, whose library rvm follows, prints `1.17549435E-38`).
fn same_as_own_jdk(job: &Job, version: u32, reference: &[String], have: &[String], code: Option<i32>) -> bool {
    let Some((_, cp, jdk)) = job.compiled.iter().skip(1).find(|(v, _, _)| *v == version) else {
        return false;
    };
    let mut java = Command::new(jdk.java());
    if let Some(h) = job.spec.heap {
        java.arg(format!("-Xmx{h}"));
    }
    java.arg("-cp").arg(cp).arg(&job.class).args(&job.spec.args);
    let own = run(java, job.spec.input, Duration::from_secs(90));
    let own_lines = comparable(&own.stdout, &job.spec);
    own.code == code
        && own_lines.len() == have.len()
        && reference.len() == have.len()
        && have.iter().enumerate().all(|(k, l)| *l == reference[k] || *l == own_lines[k])
}

#[test]
fn every_program_runs_on_rvm_as_on_hotspot() {
    let root = java_tests::source_root();
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("every-program");
    std::fs::create_dir_all(&tmp).unwrap();
    let jdks = jdks();
    let newest = jdks.last().unwrap().feature_version().unwrap_or(0);

    // Every program with a main is in a unit (a new group must be added to UNITS), and every
    // exclusion or pending entry names a program that exists.
    let mut all: Vec<String> = Vec::new();
    let mut files = Vec::new();
    java_tests::collect_files(&root, "java", &mut files).unwrap();
    for f in &files {
        let rel = f.strip_prefix(&root).unwrap().to_string_lossy().to_string();
        if !std::fs::read_to_string(f).unwrap().contains("static void main(") {
            continue;
        }
        assert!(UNITS.iter().any(|u| rel.starts_with(&format!("{}/", u.dir))), "{rel} has a main but is in no unit of this test");
    }
    for u in UNITS {
        all.extend(mains(&root.join(u.dir)));
    }
    for (c, _) in EXCLUDED.iter().chain(PENDING) {
        let class = c.split(' ').next().unwrap();
        assert!(all.iter().any(|a| a == class), "{c} is listed but is no program of java-tests");
    }

    let mut jobs: Vec<(Job, bool)> = Vec::new();
    let mut workloads: BTreeMap<u32, PathBuf> = BTreeMap::new();
    for j in &jdks {
        let v = j.feature_version().unwrap_or(0);
        workloads.insert(v, java_tests::compile_plain_with(j, "workloads", &[]).expect("compile workloads"));
    }
    for u in UNITS {
        if u.cp == Extra::H2 && !Path::new(H2_JAR).is_file() {
            eprintln!("skipping {}: no {H2_JAR}", u.dir);
            continue;
        }
        let mut compiled = Vec::new();
        for j in &jdks {
            let v = j.feature_version().unwrap_or(0);
            if u.newer_only && v <= 17 {
                continue;
            }
            let extra = match u.cp {
                Extra::None => String::new(),
                Extra::Workloads => workloads[&v].display().to_string(),
                Extra::H2 => H2_JAR.to_string(),
            };
            let args: Vec<&str> = if extra.is_empty() { vec![] } else { vec!["-cp", &extra] };
            let dir = java_tests::compile_plain_with(j, u.dir, &args).unwrap_or_else(|e| panic!("{}: {e}", u.dir));
            let cp = if extra.is_empty() { dir.display().to_string() } else { format!("{}:{extra}", dir.display()) };
            compiled.push((v, cp, j.clone()));
        }
        if compiled.is_empty() {
            eprintln!("skipping {}: needs a JDK newer than 17 (newest found: {newest})", u.dir);
            continue;
        }
        for class in mains(&root.join(u.dir)) {
            if EXCLUDED.iter().any(|(c, _)| *c == class) {
                continue;
            }
            for s in specs(&class, &tmp) {
                let pending = pending(&class, &s.args);
                jobs.push((Job { class: class.clone(), spec: s, compiled: compiled.clone() }, pending));
            }
        }
    }

    // Three runs at a time: most programs wait, sleep or start a JVM, more than they compute.
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    let ran = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..3 {
            s.spawn(|| loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                let Some((job, pending)) = jobs.get(k) else {
                    break;
                };
                let t = Instant::now();
                let diff = check(job);
                eprintln!("{} {:?}: {} in {:.1}s", job.class, job.spec.args, if diff.is_none() { "same" } else { "differs" }, t.elapsed().as_secs_f64());
                ran.fetch_add(1, Ordering::Relaxed);
                match (diff, pending) {
                    (Some(d), false) => failures.lock().unwrap().push(d),
                    (None, true) => failures
                        .lock()
                        .unwrap()
                        .push(format!("{} {:?} now runs as on HotSpot: take it out of PENDING (and the README)", job.class, job.spec.args)),
                    _ => {}
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(failures.is_empty(), "{} of {} runs failed:\n\n{}", failures.len(), ran.load(Ordering::Relaxed), failures.join("\n\n"));
}
