//! Shared helpers for the agent's integration tests: find the built agent, compile the Java programs,
//! run a JVM with the agent, read the reports back.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use hpm_model::arcflow::Profile;
use java_tests::Jdk;

/// The agent built by cargo with this test: the lib target is built with all its crate types,
/// cdylib included, into `target/<profile>/deps/` next to the test executable (`cargo test` does not
/// copy it up to `target/<profile>/`, so that copy may be stale and is only a fallback).
pub fn agent_lib() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let deps = exe.parent().unwrap();
    for lib in [deps.join("libhpmagent.so"), deps.parent().unwrap().join("libhpmagent.so")] {
        if lib.is_file() {
            return lib;
        }
    }
    panic!("libhpmagent.so not found next to {}: build the hpmagent package first", exe.display());
}

/// The compiled `java-tests/calls` programs (compiled once per test binary).
pub fn classes() -> &'static Path {
    static CLASSES: OnceLock<PathBuf> = OnceLock::new();
    CLASSES.get_or_init(|| java_tests::compile("calls").expect("compiling java-tests/calls"))
}

/// JDK 17 and, when present, a newer JDK.
/// Whether the tests run with an effective uid of 0 (perf's kernel events are then allowed).
#[allow(dead_code)]
pub fn is_root() -> bool {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status.lines().find_map(|l| l.strip_prefix("Uid:")).and_then(|l| l.split_whitespace().nth(1)) == Some("0")
}

pub fn jdks() -> Vec<Jdk> {
    let mut v = vec![java_tests::jdk().expect("a JDK")];
    if let Some(n) = java_tests::newer_jdk() {
        if n.home != v[0].home {
            v.push(n);
        }
    }
    v
}

pub struct Run {
    pub out: PathBuf,
    pub output: Output,
}

/// A run's reports are removed with it, unless the test failed (then they are kept to look at).
impl Drop for Run {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.out);
        }
    }
}

impl Run {
    pub fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.output.stderr).into_owned()
    }
    pub fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.output.stdout).into_owned()
    }
    pub fn assert_ok(&self) {
        assert!(
            self.output.status.success(),
            "JVM failed ({}):\nstdout:\n{}\nstderr:\n{}",
            self.output.status,
            self.stdout(),
            self.stderr()
        );
        assert!(self.stderr().contains(&format!("hpmagent: reports written to {}", self.out.display())), "stderr: {}", self.stderr());
    }
    /// The call-tree model from `arcflow.json`.
    pub fn calls(&self) -> Profile {
        read_profile(&self.out.join("arcflow.json"))
    }
    pub fn locks(&self) -> Profile {
        read_profile(&self.out.join("locks/arcflow.json"))
    }
    pub fn waits(&self) -> Profile {
        read_profile(&self.out.join("waits/arcflow.json"))
    }
    pub fn file(&self, name: &str) -> String {
        std::fs::read_to_string(self.out.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
    }
}

/// The call trees of an arcflow.json (version 2 at the top of a report directory: the trees the
/// reports show, compensated; version 1 in its subdirectories).
pub fn read_profile(p: &Path) -> Profile {
    hpm_reports::saved::load(p).unwrap_or_else(|e| panic!("{e}")).calls().into_owned()
}

/// What the sampler found running in the probes' own code, all threads together, for `metric`
/// (compensation.txt's in-probes): 0 where it was not measured.
pub fn in_probes(dir: &Path, metric: &str) -> u64 {
    let hpm_model::saved::Saved::Run(run) = hpm_reports::saved::load(dir).unwrap_or_else(|e| panic!("{e}")) else { panic!("a version 1 file") };
    let Some(c) = run.snapshot.compensation else { return 0 };
    c.metrics.iter().position(|m| m == metric).and_then(|k| c.measured.get(k).copied()).unwrap_or(0)
}

/// A fresh output directory for a test, under cargo's temporary directory for integration tests
/// (`target/tmp`), never in `/tmp`.
pub fn out_dir(test: &str, jdk: &Jdk) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("agent-it/{test}-jdk{}", jdk.feature_version().unwrap_or(0)));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(d.parent().unwrap()).unwrap();
    d
}

/// Runs `calls.<class>` with the agent (`out=` added to `options`) and returns the run.
pub fn run(test: &str, jdk: &Jdk, class: &str, options: &str, jvm_args: &[&str], args: &[&str]) -> Run {
    let out = out_dir(test, jdk);
    let mut opts = if options.is_empty() { format!("out={}", out.display()) } else { format!("out={},{options}", out.display()) };
    // Tests do not leave /tmp/perf-<pid>.map files behind (the code-map test checks that one).
    if !options.contains("perf-map=") {
        opts.push_str(",perf-map=off");
    }
    let output = command(jdk, class, &opts, jvm_args, args).output().expect("running java");
    Run { out, output }
}

pub fn command(jdk: &Jdk, class: &str, agent_options: &str, jvm_args: &[&str], args: &[&str]) -> Command {
    let mut c = Command::new(jdk.java());
    c.arg(format!("-agentpath:{}={agent_options}", agent_lib().display()))
        .args(["-Xshare:auto", "-XX:+UseG1GC"])
        .args(jvm_args)
        .arg("-cp")
        .arg(classes())
        .arg(format!("calls.{class}"))
        .args(args);
    c
}

/// Every context of thread `thread` below its root: "a;b;c" → calls.
pub fn contexts(p: &Profile, thread: &str) -> BTreeMap<String, u64> {
    let th = p.threads.iter().find(|t| t.name == thread).unwrap_or_else(|| {
        panic!("no thread {thread}; threads: {:?}", p.threads.iter().map(|t| &t.name).collect::<Vec<_>>())
    });
    let t = &th.tree;
    t.preorder()
        .into_iter()
        .skip(1)
        .map(|n| {
            let path: Vec<&str> = t.path(n)[1..].iter().map(|&c| p.consumers.name(c)).collect();
            (path.join(";"), t.calls(n))
        })
        .collect()
}

/// Base values of the context `path` ("a;b;c") of `thread`, or None.
pub fn base_at(p: &Profile, thread: &str, path: &str) -> Option<(u64, Vec<u64>)> {
    let th = p.threads.iter().find(|t| t.name == thread)?;
    let t = &th.tree;
    t.preorder().into_iter().skip(1).find_map(|n| {
        let s: Vec<&str> = t.path(n)[1..].iter().map(|&c| p.consumers.name(c)).collect();
        (s.join(";") == path).then(|| (t.calls(n), t.base(n).to_vec()))
    })
}

/// The exact tree of `calls.Straight`'s main thread (main -> run -> a x3 -> b x2 each, c x1), on
/// every VM.
pub fn straight_tree() -> BTreeMap<String, u64> {
    map(&[
        ("calls.Straight.main", 1),
        ("calls.Straight.main;calls.Straight.run", 1),
        ("calls.Straight.main;calls.Straight.run;calls.Straight.a", 3),
        ("calls.Straight.main;calls.Straight.run;calls.Straight.a;calls.Straight.b", 6),
        ("calls.Straight.main;calls.Straight.run;calls.Straight.c", 1),
    ])
}

/// The exact tree of `calls.Exceptions`'s main thread: catcher -> upper -> middle -> thrower four
/// times (each throw unwinds the last three), then after, on every VM.
pub fn exceptions_tree() -> BTreeMap<String, u64> {
    let m = "calls.Exceptions.main";
    let cat = format!("{m};calls.Exceptions.catcher");
    let up = format!("{cat};calls.Exceptions.upper");
    let mid = format!("{up};calls.Exceptions.middle");
    let thr = format!("{mid};calls.Exceptions.thrower");
    let after = format!("{m};calls.Exceptions.after");
    map(&[(m, 1), (&cat, 4), (&up, 4), (&mid, 4), (&thr, 4), (&after, 1)])
}

pub fn map(entries: &[(&str, u64)]) -> BTreeMap<String, u64> {
    entries.iter().map(|(k, v)| (k.to_string(), *v)).collect()
}

/// What `counters.Tiny` prints as the cost of tiny()'s body without calls, ns per call.
pub fn tiny_true_ns_per_call(r: &Run) -> f64 {
    r.stdout()
        .lines()
        .find_map(|l| l.strip_prefix("inline-ns-per-call ").map(|v| v.trim().parse().unwrap()))
        .expect("inline-ns-per-call")
}

/// A row of threads.txt.
#[derive(Debug, Clone)]
pub struct ThreadRow {
    pub kind: String,
    pub cpu_ms: f64,
    pub calls: u64,
    pub exception_exits: u64,
    pub state: String,
    pub name: String,
}

pub fn thread_rows(text: &str) -> Vec<ThreadRow> {
    // Columns by their header (probes-ms is there only where the probes' code is measured); the
    // name, last, may hold spaces.
    let header: Vec<&str> = text.lines().find(|l| l.trim_start().starts_with('#')).map_or(Vec::new(), |l| l.split_whitespace().collect());
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap_or_else(|| panic!("no column {name} in threads.txt: {text}"));
    let (kind, cpu, calls, exc, state, name) = (col("kind"), col("cpu-ms"), col("calls"), col("exc-exits"), col("state"), col("name"));
    text.lines()
        .skip_while(|l| !l.trim_start().starts_with('#'))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            ThreadRow {
                kind: f[kind].into(),
                cpu_ms: f[cpu].parse().unwrap(),
                calls: f[calls].parse().unwrap(),
                exception_exits: f[exc].parse().unwrap(),
                state: f[state].into(),
                name: f[name..].join(" "),
            }
        })
        .collect()
}

/// The research VM `rvm`, built in the same target directory and profile as this test (by
/// `cargo test --workspace`, or by `cargo build -p rvm-backend --bin rvm`). When it is missing it
/// is built once with the cargo that runs this test.
pub fn rvm() -> PathBuf {
    static RVM: OnceLock<PathBuf> = OnceLock::new();
    RVM.get_or_init(|| {
        let exe = std::env::current_exe().unwrap();
        let profile_dir = exe.parent().unwrap().parent().unwrap().to_path_buf();
        let bin = profile_dir.join("rvm");
        if !bin.is_file() {
            let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
            let release = profile_dir.file_name().is_some_and(|n| n == "release");
            let mut c = Command::new(cargo);
            c.args(["build", "-p", "rvm-backend", "--bin", "rvm"]);
            if release {
                c.arg("--release");
            }
            if let Some(target) = profile_dir.parent() {
                c.env("CARGO_TARGET_DIR", target);
            }
            let status = c.status().expect("running cargo to build rvm");
            assert!(status.success() && bin.is_file(), "rvm not found at {}: build it with `cargo build --release -p rvm-backend`", bin.display());
        }
        bin
    })
    .clone()
}

/// Runs `calls.<class>` on rvm with the agent (`out=` and `socket=off` added to `options` unless it
/// names a socket) on `vps` processors.
pub fn run_rvm(test: &str, class: &str, options: &str, vps: usize) -> Run {
    let jdk = java_tests::jdk().expect("a JDK (to compile the test programs)");
    let out = out_dir(&format!("{test}-rvm"), &jdk);
    let mut opts = format!("out={}", out.display());
    if !options.contains("socket=") {
        opts.push_str(",socket=off");
    }
    if !options.is_empty() {
        opts = format!("{opts},{options}");
    }
    let output = Command::new(rvm())
        .arg(format!("-Xvps:{vps}"))
        .arg(format!("-agentpath:{}={opts}", agent_lib().display()))
        .arg("-cp")
        .arg(classes())
        .arg(format!("calls.{class}"))
        .output()
        .expect("running rvm");
    Run { out, output }
}

/// Kills `child` if it still runs: what a test's JVM guard does when dropped, so that a test that
/// fails leaves no JVM behind (it would wait on its stdin forever).
pub fn kill_if_running(child: &mut std::process::Child) {
    if matches!(child.try_wait(), Ok(None)) {
        let _ = child.kill();
        let _ = child.wait();
    }
}

/// A client of the agent's control socket at `socket`, retried for 20 s while the JVM starts.
pub fn control_client(socket: &Path) -> hpm_control::Client {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        match hpm_control::Client::connect(socket, std::time::Duration::from_secs(60)) {
            Ok(c) => return c,
            Err(e) if std::time::Instant::now() > deadline => panic!("no control socket at {}: {e}", socket.display()),
            Err(_) => std::thread::sleep(std::time::Duration::from_millis(20)),
        }
    }
}

/// The threads of process `pid` now: (kernel thread id, name), by thread id.
pub fn tasks(pid: u32) -> Vec<(u32, String)> {
    let mut v: Vec<(u32, String)> = std::fs::read_dir(format!("/proc/{pid}/task"))
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
        .map(|t: u32| (t, std::fs::read_to_string(format!("/proc/{pid}/task/{t}/comm")).unwrap_or_default().trim_end().to_string()))
        .collect();
    v.sort();
    v
}

/// A thread's CPU time so far (ns), by the kernel (`/proc/PID/task/TID/schedstat`).
pub fn task_cpu_ns(pid: u32, tid: u32) -> u64 {
    let s = std::fs::read_to_string(format!("/proc/{pid}/task/{tid}/schedstat")).unwrap();
    s.split_whitespace().next().unwrap().parse().unwrap()
}

/// `hpm` from the same build (cargo builds the workspace's binaries into `target/<profile>/`),
/// brought up to date once per test binary (a no-op when it is), so that a test never runs an
/// `hpm` older than the agent it tests.
pub fn hpm_binary() -> PathBuf {
    static HPM: OnceLock<PathBuf> = OnceLock::new();
    HPM.get_or_init(|| {
        let exe = std::env::current_exe().unwrap();
        let profile_dir = exe.parent().unwrap().parent().unwrap();
        let status = Command::new(env!("CARGO"))
            .args(["build", "--release", "-p", "hpm", "--bin", "hpm"])
            .env("CARGO_TARGET_DIR", profile_dir.parent().unwrap())
            .status()
            .unwrap();
        assert!(status.success(), "building hpm");
        profile_dir.join("hpm")
    })
    .clone()
}

/// The data embedded in an explorer page (`explore.html`): the JSON of its `hpm-data` script.
#[allow(dead_code)]
pub fn explorer_data(page: &Path) -> serde_json::Value {
    let html = std::fs::read_to_string(page).unwrap_or_else(|e| panic!("{}: {e}", page.display()));
    let start = html.find(r#"<script type="application/json" id="hpm-data">"#).map(|i| i + 46).expect("the page's data");
    let end = start + html[start..].find("</script>").expect("the end of the page's data");
    serde_json::from_str(&html[start..end]).expect("the page's data is JSON")
}

/// Waits until process `pid` has mapped HotSpot's library (so `hpm attach` can find it), at most
/// `limit`: on a loaded machine that takes longer than any fixed pause.
pub fn wait_for_libjvm(pid: u32, limit: std::time::Duration) {
    let maps = format!("/proc/{pid}/maps");
    let t0 = std::time::Instant::now();
    while !std::fs::read_to_string(&maps).is_ok_and(|m| m.contains("libjvm.so")) && t0.elapsed() < limit {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}
