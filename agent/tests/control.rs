//! The control socket against real JVMs: start/stop/reset/dump windows with exact call counts,
//! status/events/mark, 100,000 malformed requests, another user refused, the socket's life cycle.

mod common;

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command as Process, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use hpm_model::arcflow::{Profile, Tree};
use hpm_control::{Client, Command};
use java_tests::Jdk;

fn phases_classes() -> &'static Path {
    static C: OnceLock<PathBuf> = OnceLock::new();
    C.get_or_init(|| java_tests::compile("control").expect("compiling java-tests/control"))
}

/// A JVM running `Phases` with the agent, driven through stdin/stdout.
struct Jvm {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    socket: PathBuf,
    _tmp: tempfile::TempDir,
    /// The agent's out= directory (the exit dump).
    out: PathBuf,
}

/// A test that fails leaves no JVM behind (it would wait on its stdin forever).
impl Drop for Jvm {
    fn drop(&mut self) {
        common::kill_if_running(&mut self.child);
    }
}

impl Jvm {
    fn start(jdk: &Jdk, extra: &str) -> Jvm {
        Jvm::start_to(jdk, extra, Stdio::inherit())
    }

    /// As [`Jvm::start`], with the JVM's standard error (the agent's log) going to `stderr`.
    fn start_to(jdk: &Jdk, extra: &str, stderr: Stdio) -> Jvm {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("out");
        let socket = tmp.path().join("agent.sock");
        let mut opts = format!("out={},socket={},perf-map=off", out.display(), socket.display());
        if !extra.is_empty() {
            opts = format!("{opts},{extra}");
        }
        Jvm::spawn_to(jdk, &opts, socket, out, tmp, stderr)
    }

    fn spawn(jdk: &Jdk, opts: &str, socket: PathBuf, out: PathBuf, tmp: tempfile::TempDir) -> Jvm {
        Jvm::spawn_to(jdk, opts, socket, out, tmp, Stdio::inherit())
    }

    fn spawn_to(jdk: &Jdk, opts: &str, socket: PathBuf, out: PathBuf, tmp: tempfile::TempDir, stderr: Stdio) -> Jvm {
        let mut child = Process::new(jdk.java())
            .arg(format!("-agentpath:{}={opts}", common::agent_lib().display()))
            .arg("-cp")
            .arg(phases_classes())
            .arg("Phases")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut jvm = Jvm { child, stdin, stdout, socket, _tmp: tmp, out };
        jvm.expect("ready");
        jvm
    }

    fn expect(&mut self, what: &str) {
        let mut line = String::new();
        self.stdout.read_line(&mut line).unwrap();
        assert_eq!(line.trim(), what, "the program's output");
    }

    /// Runs a phase of the program and waits until it is done.
    fn phase(&mut self, p: &str) {
        writeln!(self.stdin, "{p}").unwrap();
        self.stdin.flush().unwrap();
        self.expect(&format!("done {p}"));
    }

    fn client(&self) -> Client {
        common::control_client(&self.socket)
    }

    fn ctl(&self, cmd: Command) -> serde_json::Value {
        let r = self.client().send(&cmd).unwrap();
        assert!(r.ok, "{cmd:?}: {r:?}");
        r.result
    }

    fn dump(&self, dir: &Path) -> Profile {
        let r = self.ctl(Command::Dump { dir: Some(dir.to_string_lossy().into_owned()) });
        assert!(r["files"].as_array().unwrap().iter().any(|f| f.as_str().unwrap().ends_with("arcflow.json")), "{r}");
        common::read_profile(&dir.join("arcflow.json"))
    }

    fn quit(mut self) -> std::process::ExitStatus {
        writeln!(self.stdin, "quit").unwrap();
        self.stdin.flush().unwrap();
        self.child.wait().unwrap()
    }
}

/// Calls of `Phases.<method>` under `Phases.main` on the main thread (0 when absent).
fn calls(p: &Profile, method: &str) -> u64 {
    let main_thread = p.threads.iter().find(|t| t.name == "main").expect("main thread");
    let t = &main_thread.tree;
    let Some(main) = p.consumers.get("Phases.main").and_then(|c| t.find_child(Tree::ROOT, c)) else { return 0 };
    let Some(m) = p.consumers.get(&format!("Phases.{method}")) else { return 0 };
    t.find_child(main, m).map_or(0, |n| t.calls(n))
}

fn leaf_calls_under(p: &Profile, method: &str) -> u64 {
    let t = &p.threads.iter().find(|t| t.name == "main").unwrap().tree;
    let path: Vec<u32> = ["Phases.main", &format!("Phases.{method}"), "Phases.leaf"]
        .iter()
        .map(|n| p.consumers.get(n).unwrap_or(u32::MAX))
        .collect();
    let mut n = Tree::ROOT;
    for c in path {
        match t.find_child(n, c) {
            Some(k) => n = k,
            None => return 0,
        }
    }
    t.calls(n)
}

#[test]
fn dumped_counts_match_the_collection_window_exactly() {
    for jdk in common::jdks() {
        let mut jvm = Jvm::start(&jdk, "start=paused");
        let tmp = tempfile::tempdir().unwrap();
        // While stopped the code carries no probes: classes load, and are put back, without them.
        let probed = |jvm: &Jvm| jvm.ctl(Command::Status)["probed_classes"].as_u64().expect("probed_classes in status");
        jvm.phase("A"); // paused: not recorded
        assert_eq!(probed(&jvm), 0, "{}", jdk.home.display());
        assert_eq!(jvm.ctl(Command::Start)["changed"], true);
        assert!(probed(&jvm) >= 1, "Phases has probes once recording");
        jvm.phase("B"); // recorded
        assert_eq!(jvm.ctl(Command::Stop)["changed"], true);
        assert_eq!(probed(&jvm), 0, "the probes leave the code at stop");
        assert_eq!(jvm.ctl(Command::Stop)["changed"], false, "stop twice is harmless");
        jvm.phase("C"); // paused again
        let d1 = jvm.dump(&tmp.path().join("d1"));
        assert_eq!((calls(&d1, "workA"), calls(&d1, "workB"), calls(&d1, "workC")), (0, 20, 0), "{}", jdk.home.display());
        assert_eq!(leaf_calls_under(&d1, "workB"), 20);

        jvm.ctl(Command::Start);
        jvm.phase("A");
        let d2 = jvm.dump(&tmp.path().join("d2"));
        assert_eq!((calls(&d2, "workA"), calls(&d2, "workB"), calls(&d2, "workC")), (10, 20, 0));

        jvm.ctl(Command::Reset);
        jvm.phase("C");
        let d3 = jvm.dump(&tmp.path().join("d3"));
        assert_eq!((calls(&d3, "workA"), calls(&d3, "workB"), calls(&d3, "workC")), (0, 0, 30));
        assert_eq!(leaf_calls_under(&d3, "workC"), 30);

        let status = jvm.quit();
        assert!(status.success());
    }
}

/// Calls of `method` in every context of the main thread.
fn all_calls(p: &Profile, method: &str) -> u64 {
    let t = &p.threads.iter().find(|t| t.name == "main").expect("main thread").tree;
    let Some(c) = p.consumers.get(method) else { return 0 };
    (1..t.len() as u32).filter(|&n| t.consumer(n) == c).map(|n| t.calls(n)).sum()
}

/// Calls of `Phases.leaf` directly below `parent`, anywhere on the main thread.
fn leaf_below(p: &Profile, parent: &str) -> u64 {
    let t = &p.threads.iter().find(|t| t.name == "main").unwrap().tree;
    let (Some(pc), Some(lc)) = (p.consumers.get(parent), p.consumers.get("Phases.leaf")) else { return 0 };
    (1..t.len() as u32).filter(|&n| t.consumer(n) == pc).filter_map(|n| t.find_child(n, lc)).map(|n| t.calls(n)).sum()
}

/// `calls=requested`: no method has probes until `probe add` asks; from then on the matching
/// methods' calls are counted exactly, and `probe remove` stops them, while the rest of the program
/// stays unprobed. `probes.txt` says from when to when, per method.
#[test]
fn probes_requested_while_running_count_exactly_from_their_request() {
    for jdk in common::jdks() {
        let mut jvm = Jvm::start(&jdk, "calls=requested");
        let tmp = tempfile::tempdir().unwrap();
        let probed = |jvm: &Jvm| jvm.ctl(Command::Status)["probed_classes"].as_u64().expect("probed_classes in status");
        let home = jdk.home.display().to_string();
        jvm.phase("A");
        assert_eq!(probed(&jvm), 0, "{home}: nothing probed before a request");
        let request = |jvm: &Jvm, add: bool, pattern: &str| jvm.ctl(Command::Probe { add, patterns: vec![pattern.into()] });
        let r = request(&jvm, true, "Phases::workA");
        assert_eq!((r["classes_retransformed"].as_u64(), r["requested_methods"].as_u64()), (Some(1), Some(1)), "{home}: {r}");
        let s = jvm.ctl(Command::Status);
        assert_eq!((s["probed_classes"].as_u64(), s["probe_requests"].clone()), (Some(1), serde_json::json!(["+Phases::workA"])), "{s}");
        jvm.phase("A");
        jvm.phase("B");
        let d1 = jvm.dump(&tmp.path().join("d1"));
        let counts = |p: &Profile| ["workA", "workB", "leaf", "main"].map(|m| all_calls(p, &format!("Phases.{m}")));
        assert_eq!(counts(&d1), [10, 0, 0, 0], "{home}: only workA, from its request on");

        request(&jvm, true, "Phases::leaf");
        jvm.phase("A");
        let d2 = jvm.dump(&tmp.path().join("d2"));
        assert_eq!(counts(&d2), [20, 0, 10, 0], "{home}");
        assert_eq!(leaf_below(&d2, "Phases.workA"), 10, "{home}: leaf's calls sit below workA's");

        let r = request(&jvm, false, "Phases::workA");
        assert_eq!(r["requested_methods"].as_u64(), Some(1), "{home}: leaf keeps its probes: {r}");
        jvm.phase("A");
        jvm.phase("B");
        let d3 = jvm.dump(&tmp.path().join("d3"));
        assert_eq!(counts(&d3), [20, 0, 40, 0], "{home}: workA stops growing, leaf goes on");

        request(&jvm, false, "Phases::leaf");
        assert_eq!(probed(&jvm), 0, "{home}: no probes left");
        jvm.phase("C");
        let d4 = jvm.dump(&tmp.path().join("d4"));
        assert_eq!(counts(&d4), [20, 0, 40, 0], "{home}");
        let text = std::fs::read_to_string(tmp.path().join("d4/probes.txt")).unwrap();
        let rows: Vec<&str> = text.lines().filter(|l| l.ends_with("Phases.workA") || l.ends_with("Phases.leaf")).collect();
        assert_eq!(rows.len(), 2, "{text}");
        assert!(rows.iter().all(|r| !r.contains("(end)")), "every window closed: {text}");
        assert!(text.contains(" add ") && text.contains(" remove ") && text.contains("Phases::leaf"), "{text}");
        // `save`: the saved run alone, the same counts.
        let d5 = tmp.path().join("d5");
        let r = jvm.ctl(Command::Save { dir: Some(d5.to_string_lossy().into_owned()) });
        assert_eq!(r["file"].as_str(), Some(d5.join("arcflow.json").to_str().unwrap()), "{r}");
        let names: Vec<String> = std::fs::read_dir(&d5).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        assert_eq!(names, ["arcflow.json"], "save writes arcflow.json alone");
        assert_eq!(counts(&common::read_profile(&d5.join("arcflow.json"))), [20, 0, 40, 0], "{home}");
        // The saved run gives the same report.
        let again = tmp.path().join("again");
        let o = Process::new(common::hpm_binary()).arg("report").arg(tmp.path().join("d4")).arg("--out").arg(&again).output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(std::fs::read_to_string(again.join("probes.txt")).unwrap(), text);

        // A pattern that would probe every class is refused in one line.
        let r = jvm.client().send(&Command::Probe { add: true, patterns: vec!["a.B".into(), "*".into()] }).unwrap();
        assert!(!r.ok && r.error.as_deref().unwrap_or("").contains("every class"), "{r:?}");
        assert!(jvm.quit().success());
    }
}

/// `trivial=skip` leaves out only what the start-up filter selects: a trivial method asked for by
/// name (`Phases.leaf`, one static field update) gets its probes and its calls counted.
#[test]
fn a_requested_trivial_method_is_probed_with_trivial_skip() {
    let jdk = java_tests::jdk().unwrap();
    let mut jvm = Jvm::start(&jdk, "calls=requested,trivial=skip");
    let tmp = tempfile::tempdir().unwrap();
    let r = jvm.ctl(Command::Probe { add: true, patterns: vec!["Phases::leaf".into()] });
    assert_eq!(r["requested_methods"].as_u64(), Some(1), "{r}");
    jvm.phase("A");
    let d = jvm.dump(&tmp.path().join("d"));
    assert_eq!(all_calls(&d, "Phases.leaf"), 10, "leaf's calls from phase A");
    assert!(jvm.quit().success());
}

/// Stopping retransforms only the classes whose code carries probes then, starting only those that
/// get probes, and the VM's exit none: a class whose requested probes were taken out is not
/// retransformed again (that would only send the compiled code of its callers back to the
/// interpreter), and at VMDeath every probe is already a load and a branch, so the exit does not
/// wait for the classes to be rewritten. And the probed contexts' time is sampled at the stack
/// samples' signal, not with a signal of its own every 1 ms.
#[test]
fn requested_probes_cost_only_where_and_while_asked() {
    let jdk = java_tests::jdk().unwrap();
    let log = tempfile::NamedTempFile::new().unwrap();
    let mut jvm = Jvm::start_to(&jdk, "calls=requested,sample=cpu,log=debug", Stdio::from(log.reopen().unwrap()));
    let request = |jvm: &Jvm, add: bool, pattern: &str| jvm.ctl(Command::Probe { add, patterns: vec![pattern.into()] });
    request(&jvm, true, "Phases::workA");
    jvm.phase("A");
    request(&jvm, false, "Phases::workA");
    assert_eq!(jvm.ctl(Command::Stop)["changed"], true);
    assert_eq!(jvm.ctl(Command::Start)["changed"], true);
    request(&jvm, true, "Phases::leaf");
    jvm.phase("A");
    assert_eq!(jvm.ctl(Command::Stop)["changed"], true);
    assert_eq!(jvm.ctl(Command::Start)["changed"], true);
    jvm.phase("A");
    assert!(jvm.quit().success());
    let text = std::fs::read_to_string(log.path()).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| l.contains(": retransformed ")).collect();
    let said = |what: &str| lines.iter().filter(|l| l.contains(what)).count();
    // Taking workA's probes out retransformed its class; the stop and the start after it had no
    // class to retransform. The stop with leaf's probes in took them out, the start put them
    // back, and the exit left them.
    let counts = ["probe add: retransformed 1 ", "probe remove: retransformed 1 ", "stop: ", "stop: retransformed 1 ", "start: ", "start: retransformed 1 "].map(said);
    assert_eq!(counts, [2, 1, 1, 1, 1, 1], "{lines:#?}");
    let signals = text.lines().find(|l| l.contains("(SIGPROF) every")).unwrap_or("no signal line");
    assert!(signals.contains("every 10 ms of each thread's CPU time"), "{signals}");
}

#[test]
fn status_events_and_marks() {
    let jdk = java_tests::jdk().unwrap();
    let mut jvm = Jvm::start(&jdk, "event=page-faults,event=cycles");
    jvm.phase("B");
    let s = jvm.ctl(Command::Status);
    assert_eq!(s["state"], "collecting");
    assert_eq!(s["pid"], jvm.child.id());
    assert_eq!(s["main"], "Phases");
    assert!(s["threads"].as_u64().unwrap() >= 1, "{s}");
    assert!(s["nodes"].as_u64().unwrap() >= 3, "{s}");
    assert!(s["memory_bytes"].as_u64().unwrap() > 0, "{s}");
    assert!(s["method_events"].as_u64().unwrap() >= 80, "{s}");
    let e = jvm.ctl(Command::Events);
    let names: Vec<&str> = e["metrics"].as_array().unwrap().iter().map(|m| m["name"].as_str().unwrap()).collect();
    assert!(names.contains(&"cpu-time") && names.contains(&"wall-time") && names.contains(&"page-faults"), "{e}");
    let cycles_counted = names.contains(&"cycles");
    let refused = e["refused"].as_array().unwrap();
    assert!(cycles_counted || refused.iter().any(|r| r.as_str().unwrap().contains("`cycles`")), "cycles is counted or refused: {e}");
    let m = jvm.ctl(Command::Mark { text: "after phase B".into() });
    assert_eq!(m["mark"], 1);
    let tmp = tempfile::tempdir().unwrap();
    jvm.dump(tmp.path());
    let marks = std::fs::read_to_string(tmp.path().join("marks.txt")).unwrap();
    assert!(marks.lines().any(|l| l.ends_with("\tafter phase B")), "{marks}");
    assert!(jvm.quit().success());
}

#[test]
fn a_hundred_thousand_malformed_requests_do_not_disturb_the_jvm() {
    let jdk = java_tests::jdk().unwrap();
    let mut jvm = Jvm::start(&jdk, "");
    let mut c = jvm.client();
    let mut rng = 0x9E3779B97F4A7C15u64;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let pieces: [&[u8]; 12] =
        [b"{", b"}", b"\"cmd\"", b":", b"\"status\"", b"\"events\"", b"\"help\"", b"[", b"]", b",", b"null", b"\"v\""];
    for i in 0..100_000u32 {
        let mut line: Vec<u8> = vec![b'#'];
        match next() % 3 {
            0 => (0..next() % 80).for_each(|_| line.push((next() % 256) as u8)),
            1 => (0..next() % 10).for_each(|_| line.extend_from_slice(pieces[(next() % 12) as usize])),
            // Well-formed but wrong: unknown commands, wrong types, bad versions.
            _ => line = format!("{{\"cmd\":{},\"v\":{}}}", ["1", "\"x\"", "null", "[\"status\"]"][(next() % 4) as usize], next() % 4).into_bytes(),
        }
        line.retain(|&b| b != b'\n');
        line.push(b'\n');
        c.write_raw(&line).unwrap();
        let r = c.read_reply().unwrap_or_else(|e| panic!("request {i}: {e}"));
        assert!(!r.ok || line.starts_with(b"{"), "request {i} was accepted: {:?}", String::from_utf8_lossy(&line));
    }
    // The JVM still runs its program and the agent still answers.
    jvm.phase("A");
    assert_eq!(jvm.ctl(Command::Status)["state"], "collecting");
    assert!(jvm.quit().success());
}

const CHILD_ENV: &str = "HPM_AGENT_TEST_SOCKET";

/// Run as `nobody` by `another_user_cannot_control_the_agent`.
#[test]
fn child_client_as_other_user() {
    let Some(path) = std::env::var_os(CHILD_ENV) else { return };
    match Client::connect(Path::new(&path), Duration::from_secs(10)) {
        Err(e) => println!("CONNECT-ERROR {:?}", e.kind()),
        Ok(mut c) => match c.send(&Command::Stop) {
            Ok(r) => println!("REPLY ok={} code={:?}", r.ok, r.code),
            Err(e) => println!("SEND-ERROR {e}"),
        },
    }
}

#[test]
fn another_user_cannot_control_the_agent() {
    if !nix_is_root() {
        eprintln!("skipping: needs root to run a client as another user");
        return;
    }
    let jdk = java_tests::jdk().unwrap();
    let mut jvm = Jvm::start(&jdk, "");
    // Let `nobody` reach the directory, so only the socket's own protection is tested.
    std::fs::set_permissions(jvm.socket.parent().unwrap(), std::fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(std::fs::metadata(&jvm.socket).unwrap().permissions().mode() & 0o777, 0o600);
    let exe_dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(exe_dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let exe = exe_dir.path().join("client");
    std::fs::copy(std::env::current_exe().unwrap(), &exe).unwrap();
    let out = Process::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
        .arg(&exe)
        .args(["--exact", "child_client_as_other_user", "--nocapture", "--test-threads=1"])
        .env(CHILD_ENV, &jvm.socket)
        .output()
        .expect("setpriv (util-linux)");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("CONNECT-ERROR PermissionDenied"), "{stdout}");
    // Nothing changed: still collecting, the program runs on.
    assert_eq!(jvm.ctl(Command::Status)["state"], "collecting");
    jvm.phase("B");
    assert!(jvm.quit().success());
}

fn nix_is_root() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("Uid:")).map(|l| l.split_whitespace().nth(2) == Some("0")))
        .unwrap_or(false)
}

#[test]
fn socket_lives_with_the_vm_and_can_be_turned_off() {
    let jdk = java_tests::jdk().unwrap();
    let jvm = Jvm::start(&jdk, "");
    let socket = jvm.socket.clone();
    assert!(socket.exists());
    assert!(jvm.quit().success());
    assert!(!socket.exists(), "the socket is removed at exit");

    // socket=off: no socket; the agent records and reports as usual.
    let keep = tempfile::tempdir().unwrap(); // outlives the Jvm, which removes its own temp dir
    let out = keep.path().join("out");
    let sock = keep.path().join("never.sock");
    let jvm = Jvm::spawn(&jdk, &format!("out={},socket=off,perf-map=off", out.display()), sock.clone(), out.clone(), tempfile::tempdir().unwrap());
    assert!(!sock.exists());
    assert_eq!(jvm.out, out);
    assert!(jvm.quit().success());
    assert!(out.join("arcflow.json").exists());
}

#[test]
fn default_socket_is_private_and_listed() {
    let jdk = java_tests::jdk().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    // The default directory below $XDG_RUNTIME_DIR (else /tmp/hpmagent-<uid>): a private one here.
    let xdg = tmp.path().join("xdg");
    std::fs::create_dir(&xdg).unwrap();
    let dir = xdg.join("hpmagent");
    let mut child = Process::new(jdk.java())
        .env("XDG_RUNTIME_DIR", &xdg)
        .arg(format!("-agentpath:{}=out={},perf-map=off", common::agent_lib().display(), out.display()))
        .arg("-cp")
        .arg(phases_classes())
        .arg("Phases")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    let sock = hpm_control::paths::socket_path(&dir, child.id());
    let deadline = Instant::now() + Duration::from_secs(20);
    while !sock.exists() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    use std::os::unix::fs::MetadataExt;
    assert_eq!(std::fs::metadata(&dir).unwrap().mode() & 0o777, 0o700);
    assert_eq!(std::fs::metadata(&sock).unwrap().mode() & 0o777, 0o600);
    assert!(hpm_control::paths::list_sockets(&dir).iter().any(|(pid, _)| *pid == child.id()));
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "quit").unwrap();
    drop(stdin);
    assert!(child.wait().unwrap().success());
    assert!(!sock.exists());
    assert!(!dir.exists(), "the socket directory, empty again, is removed at exit");
}

/// `Phases` on `jdk` without the agent (its default control socket directory, were one loaded,
/// that of its user: no XDG_RUNTIME_DIR), once it has said "ready".
fn phases_without_agent(jdk: &Jdk) -> (Child, ChildStdin, BufReader<ChildStdout>) {
    control_program_without_agent(jdk, "Phases")
}

/// `class` of java-tests/control on `jdk` without the agent, as [`phases_without_agent`].
fn control_program_without_agent(jdk: &Jdk, class: &str) -> (Child, ChildStdin, BufReader<ChildStdout>) {
    let mut child = Process::new(jdk.java())
        .env_remove("XDG_RUNTIME_DIR")
        .args(["-cp"])
        .arg(phases_classes())
        .arg(class)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    assert_eq!(line.trim(), "ready");
    (child, stdin, stdout)
}

#[test]
fn attach_to_a_jvm_started_without_the_agent() {
    for (jdk, mode) in common::jdks().into_iter().flat_map(|j| [(j.clone(), "calls=probes"), (j, "calls=jvmti")]) {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("out");
        let (child, mut stdin, mut stdout) = phases_without_agent(&jdk);
        let mut line = String::new();
        let pid = child.id().to_string();
        let sock = tmp.path().join("attached.sock");
        let attach = Process::new(common::hpm_binary())
            .args(["attach", &pid, &format!("out={}", out.display()), &format!("socket={}", sock.display()), "perf-map=off", mode, "--agent-lib"])
            .arg(common::agent_lib())
            .output()
            .unwrap();
        assert!(attach.status.success(), "hpm attach: {}", String::from_utf8_lossy(&attach.stderr));
        assert!(String::from_utf8_lossy(&attach.stdout).contains("agent loaded"));
        let mut c = Client::connect(&sock, Duration::from_secs(30)).unwrap();
        // Threads of the VM are listed even before they produce an event.
        let s = c.send(&Command::Status).unwrap();
        assert!(s.ok, "{s:?}");
        let names: Vec<&str> = s.result["vm_threads"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
        assert!(names.contains(&"main"), "{names:?}");
        assert_eq!(s.result["main"], "Phases");
        // What cannot be had after attach is said, not faked: either call trees are recorded or the
        // status names them as not available.
        let not_available = s.result["not_available"].as_array().unwrap();
        let calls_missing = not_available.iter().any(|m| m.as_str().unwrap().starts_with("call trees"));
        // Probes retransform the loaded classes: call trees are recorded after attach too.
        assert_eq!(calls_missing, mode == "calls=jvmti", "{mode}: {s:?}");
        // stop and start work after attach in both modes, and the state follows them (start was
        // refused with a bare JVMTI error number, yet the state became collecting).
        for (cmd, state) in [(Command::Stop, "paused"), (Command::Start, "collecting")] {
            let r = c.send(&cmd).unwrap();
            assert!(r.ok, "{mode}: {cmd:?}: {r:?}");
            assert_eq!(c.send(&Command::Status).unwrap().result["state"], state, "{mode} after {cmd:?}");
        }
        writeln!(stdin, "B").unwrap();
        stdin.flush().unwrap();
        line.clear();
        stdout.read_line(&mut line).unwrap();
        assert_eq!(line.trim(), "done B");
        let d = tmp.path().join("dump");
        let r = c.send(&Command::Dump { dir: Some(d.to_string_lossy().into_owned()) }).unwrap();
        assert!(r.ok, "{r:?}");
        let p = common::read_profile(&d.join("arcflow.json"));
        if calls_missing {
            assert_eq!(p.threads.iter().map(|t| t.tree.len() - 1).sum::<usize>(), 0, "no call tree was invented");
        } else {
            assert_eq!(calls(&p, "workB"), 20);
            // main was running when the agent came: its frame is found on the stack, not counted.
            let main = common::contexts(&p, "main");
            assert_eq!(main.get("Phases.main;Phases.workB"), Some(&20), "{main:?}");
            assert_eq!(main.get("Phases.main"), Some(&0), "{main:?}");
        }
        assert!(d.join("threads.txt").exists() && d.join("code.txt").exists());
        writeln!(stdin, "quit").unwrap();
        drop(stdin);
        let done = child.wait_with_output().unwrap();
        assert!(done.status.success());
        let stderr = String::from_utf8_lossy(&done.stderr);
        assert!(stderr.contains("hpmagent: attached"), "{stderr}");
        if calls_missing {
            assert!(stderr.contains("not available: call trees"), "{stderr}");
        }
        assert!(out.join("arcflow.json").exists(), "reports at exit after attach");
        assert!(!sock.exists());
    }
}

/// CPU time (ns) of every context of every thread of `p`.
fn cpu_ns(p: &Profile) -> u64 {
    let i = p.bindings.metric_index("cpu-time").expect("a cpu-time metric");
    p.threads.iter().map(|t| t.tree.preorder().into_iter().map(|n| t.tree.base(n)[i]).sum::<u64>()).sum()
}

/// Ends the JVM as a service manager would (SIGTERM); returns its exit reports' profile.
fn terminate(mut jvm: Jvm) -> Profile {
    let st = Process::new("kill").args(["-TERM", &jvm.child.id().to_string()]).status().unwrap();
    assert!(st.success());
    let _ = jvm.child.wait().unwrap();
    common::read_profile(&jvm.out.join("arcflow.json"))
}

/// What threads do while recording is stopped is not charged to the exit reports: a JVM that
/// never started recording (`start=paused`), or that was stopped, and is then ended by SIGTERM
/// after a phase of busy work, has in its exit reports what a dump at the stop had. (Before,
/// the exit's own stop settled every thread once more and charged all the time since the stop
/// to the contexts they were in.)
#[test]
fn time_used_after_a_stop_is_not_charged_at_exit() {
    let jdk = java_tests::jdk().unwrap();
    let mut never = Jvm::start(&jdk, "start=paused");
    never.phase("spin");
    let exit = terminate(never);
    assert!(cpu_ns(&exit) < 1_000_000, "never started, yet the exit reports hold {} ns of cpu-time", cpu_ns(&exit));

    let mut stopped = Jvm::start(&jdk, "");
    stopped.phase("A");
    stopped.ctl(Command::Stop);
    let tmp = tempfile::tempdir().unwrap();
    let at_stop = cpu_ns(&stopped.dump(&tmp.path().join("at-stop")));
    stopped.phase("spin");
    let at_exit = cpu_ns(&terminate(stopped));
    assert!(at_exit <= at_stop + 50_000_000, "a dump at the stop held {at_stop} ns of cpu-time, the exit reports {at_exit} ns");
}

/// A second `hpm attach` to a JVM whose agent is already loaded says so and names the control
/// socket, instead of Agent_OnAttach's bare return code; `hpm ctl PID` finds the socket in the
/// directory of the JVM's user.
#[test]
fn a_second_attach_says_the_agent_is_already_loaded() {
    let jdk = java_tests::jdk().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let (mut child, mut stdin, _stdout) = phases_without_agent(&jdk);
    let pid = child.id().to_string();
    let attach = |out: &str| {
        Process::new(common::hpm_binary())
            .env_remove("XDG_RUNTIME_DIR")
            .args(["attach", &pid, &format!("out={}", tmp.path().join(out).display()), "perf-map=off", "--agent-lib"])
            .arg(common::agent_lib())
            .output()
            .unwrap()
    };
    let first = attach("a");
    assert!(first.status.success(), "{}", String::from_utf8_lossy(&first.stderr));
    let second = attach("b");
    let err = String::from_utf8_lossy(&second.stderr).into_owned();
    assert_eq!(second.status.code(), Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains(&format!("the agent is already loaded in JVM {pid} (its control socket is ")) && err.contains(&format!("hpm ctl {pid} status")), "{err}");
    let status = Process::new(common::hpm_binary()).env_remove("XDG_RUNTIME_DIR").args(["ctl", &pid, "status"]).output().unwrap();
    assert!(status.status.success(), "{}", String::from_utf8_lossy(&status.stderr));
    writeln!(stdin, "quit").unwrap();
    stdin.flush().unwrap();
    child.wait().unwrap();
}

/// Stack sampling after a late attach takes in the threads that were running already: they get no
/// ThreadStart and run no code of the agent's, so their samplers are opened from the attaching
/// thread (`hpm attach PID calls=none sample=cpu` once stored no sample at all, and with probes
/// `sampled/` stayed empty). `Busy`'s "cruncher" thread computes from before the attach to the
/// dump.
#[test]
fn sampling_after_attach_samples_the_threads_that_were_running() {
    for jdk in common::jdks() {
        for mode in ["calls=none", "calls=probes"] {
            let tmp = tempfile::tempdir().unwrap();
            let (child, mut stdin, _stdout) = control_program_without_agent(&jdk, "Busy");
            let pid = child.id().to_string();
            let sock = tmp.path().join("attached.sock");
            let out = tmp.path().join("out");
            attach_sampling(&pid, &out, &sock, mode);
            let mut c = Client::connect(&sock, Duration::from_secs(30)).unwrap();
            std::thread::sleep(Duration::from_millis(1500));
            let d = tmp.path().join("dump");
            let r = c.send(&Command::Dump { dir: Some(d.to_string_lossy().into_owned()) }).unwrap();
            assert!(r.ok, "{r:?}");
            let sampled = common::read_profile(&d.join("sampled/arcflow.json"));
            let crunch: u64 = common::contexts(&sampled, "cruncher").iter().filter(|(k, _)| k.ends_with("Busy.crunch")).map(|(_, n)| n).sum();
            // 1.5 s of the cruncher's CPU time at one sample per ms.
            assert!(crunch > 300, "{mode} on {:?}: {crunch} samples in Busy.crunch: {:?}", jdk.home, common::contexts(&sampled, "cruncher"));
            assert!(std::fs::read_to_string(d.join("sampled/xprof.txt")).unwrap().contains("Busy.crunch"));
            if mode == "calls=probes" {
                // The cruncher's frame was found on its stack at its first probe; its calls counted.
                let exact = common::read_profile(&d.join("arcflow.json"));
                let calls: u64 = common::contexts(&exact, "cruncher").iter().filter(|(k, _)| k.ends_with("Busy.crunch")).map(|(_, n)| n).sum();
                assert!(calls > 0, "{:?}", common::contexts(&exact, "cruncher"));
            }
            writeln!(stdin, "quit").unwrap();
            drop(stdin);
            let done = child.wait_with_output().unwrap();
            assert!(done.status.success());
            let stderr = String::from_utf8_lossy(&done.stderr);
            if mode == "calls=none" {
                assert!(stderr.contains("hpmagent: info: attached: sampling the "), "{stderr}");
            }
            assert!(!stderr.contains("not sampled"), "{stderr}");
        }
    }
}

/// `hpm attach PID` with stack sampling at 1 kHz beside `mode` (`calls=none`, `calls=probes`),
/// reports to `out`, the control socket at `sock`.
fn attach_sampling(pid: &str, out: &Path, sock: &Path, mode: &str) {
    let attach = Process::new(common::hpm_binary())
        .args(["attach", pid, &format!("out={}", out.display()), &format!("socket={}", sock.display())])
        .args(["perf-map=off", "log=info", mode, "sample=cpu", "sample-interval=1ms", "--agent-lib"])
        .arg(common::agent_lib())
        .output()
        .unwrap();
    assert!(attach.status.success(), "hpm attach: {}", String::from_utf8_lossy(&attach.stderr));
}

/// Debian's H2 driver running its transactions without an agent, its workers busy (libjvm mapped,
/// then 2 s): a server to attach to.
fn busy_h2(jdk: &Jdk) -> Child {
    let h2 = Path::new("/usr/share/java/h2.jar");
    assert!(h2.is_file(), "{} missing: install libh2-java (scripts/test.sh does)", h2.display());
    static DRIVER: OnceLock<PathBuf> = OnceLock::new();
    let driver = DRIVER.get_or_init(|| java_tests::compile_with("thirdparty", &["-cp", h2.to_str().unwrap()]).expect("compiling java-tests/thirdparty"));
    let child = Process::new(jdk.java())
        .arg("-cp")
        .arg(format!("{}:{}", driver.display(), h2.display()))
        .args(["bench.H2Driver", "2", "10000000"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    common::wait_for_libjvm(child.id(), Duration::from_secs(30));
    std::thread::sleep(Duration::from_secs(2));
    child
}

/// async-profiler's main use, on a real server: `hpm attach PID calls=none sample=cpu` to Debian's
/// H2 running its transactions (and with probes beside the sampling), then a dump. The sampled
/// trees hold H2's methods with nearly every sample placed, and the reports and the page show them.
#[test]
fn attaching_to_a_running_h2_samples_its_methods() {
    for jdk in common::jdks() {
        for mode in ["calls=none", "calls=probes"] {
            let tmp = tempfile::tempdir().unwrap();
            let mut child = busy_h2(&jdk);
            let sock = tmp.path().join("h2.sock");
            attach_sampling(&child.id().to_string(), &tmp.path().join("out"), &sock, mode);
            let mut c = Client::connect(&sock, Duration::from_secs(30)).unwrap();
            std::thread::sleep(Duration::from_secs(2));
            let d = tmp.path().join("dump");
            let r = c.send(&Command::Dump { dir: Some(d.to_string_lossy().into_owned()) }).unwrap();
            assert!(r.ok, "{r:?}");
            child.kill().unwrap();
            let stderr = child.wait_with_output().map(|o| String::from_utf8_lossy(&o.stderr).into_owned()).unwrap_or_default();

            let sampled = common::read_profile(&d.join("sampled/arcflow.json"));
            // One recorder per thread: a worker whose first event (a park) came while the attach
            // was adopting the running threads once got a second, empty one.
            for w in ["h2-worker-0", "h2-worker-1"] {
                assert_eq!(sampled.threads.iter().filter(|t| t.name == w).count(), 1, "{mode}: {w} listed more than once");
            }
            let (mut total, mut in_h2, mut unplaced) = (0u64, 0u64, 0u64);
            for w in ["h2-worker-0", "h2-worker-1"] {
                for (path, n) in common::contexts(&sampled, w) {
                    total += n;
                    let leaf = path.rsplit(';').next().unwrap_or("");
                    if path.contains("org.h2.") {
                        in_h2 += n;
                    } else if ["(unknown Java)", "(not walkable Java)", "(unknown, not Java)", "(not walkable, not Java)"].contains(&leaf) {
                        unplaced += n;
                    }
                }
            }
            eprintln!("{mode} on {:?}: {total} samples of the workers, {in_h2} in H2, {unplaced} unplaced", jdk.home);
            // Two busy workers for 2 s at one sample per ms of CPU (the machine may be shared).
            assert!(total > 500 && in_h2 * 10 > total * 9, "{mode}: {in_h2} of {total} samples in H2's methods; threads {:?}; JVM: {stderr}", sampled.threads.iter().map(|t| (&t.name, t.tree.len())).collect::<Vec<_>>());
            assert!(unplaced * 50 < total, "{mode}: {unplaced} of {total} samples unplaced");
            let xprof = std::fs::read_to_string(d.join("sampled/xprof.txt")).unwrap();
            assert!(xprof.contains("org.h2.command."), "{xprof}");
            // The page of a sampling-only run opens on the samples; with probes, both trees are there.
            let page = std::fs::read_to_string(d.join("explore.html")).unwrap();
            assert!(page.contains("org.h2.command."), "the page holds no H2 method");
            if mode == "calls=probes" {
                let exact = common::read_profile(&d.join("arcflow.json"));
                let calls: u64 = exact.threads.iter().filter(|t| t.name.starts_with("h2-worker")).map(|t| (1..t.tree.len() as u32).map(|n| t.tree.calls(n)).sum::<u64>()).sum();
                assert!(calls > 1000, "{calls} calls counted in the workers' exact trees");
            } else {
                assert!(std::fs::read_to_string(d.join("xprof.txt")).unwrap().contains("org.h2.command."), "the top-level xprof.txt of a sampling-only run");
            }
        }
    }
}

/// Per method, calls over the exact trees of H2's workers.
fn worker_calls(p: &Profile) -> BTreeMap<String, u64> {
    let mut by = BTreeMap::new();
    for t in p.threads.iter().filter(|t| t.name.starts_with("h2-worker")) {
        for n in 1..t.tree.len() as u32 {
            *by.entry(p.consumers.name(t.tree.consumer(n)).to_string()).or_default() += t.tree.calls(n);
        }
    }
    by.retain(|_, c| *c > 0);
    by
}

/// `hpm ctl PID probe add|remove` on Debian's H2, attached while it runs its transactions with
/// sampling only (`calls=requested`): exact counts of just the matching methods appear in the next
/// dump, `remove` makes them stop growing, and the rest of the program has no probes (`status`,
/// the reports).
#[test]
fn probes_requested_on_a_running_h2_count_just_the_matching_methods() {
    for jdk in common::jdks() {
        let tmp = tempfile::tempdir().unwrap();
        let mut child = busy_h2(&jdk);
        let pid = child.id().to_string();
        let sockets = tmp.path().join("sockets");
        std::fs::create_dir(&sockets).unwrap();
        std::fs::set_permissions(&sockets, std::fs::Permissions::from_mode(0o700)).unwrap();
        attach_sampling(&pid, &tmp.path().join("out"), &sockets.join(format!("{pid}.sock")), "calls=requested");
        let hpm = |args: &[&str]| {
            let o = Process::new(common::hpm_binary()).args(["ctl", "--socket-dir"]).arg(&sockets).arg(&pid).args(args).output().unwrap();
            (o.status.success(), String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr))
        };
        let dump = |name: &str| {
            let d = tmp.path().join(name);
            let (ok, out) = hpm(&["dump", d.to_str().unwrap()]);
            assert!(ok, "{out}");
            (common::read_profile(&d.join("arcflow.json")), d)
        };
        let home = jdk.home.display().to_string();
        let (before, _) = dump("before");
        assert_eq!(worker_calls(&before), BTreeMap::new(), "{home}: no calls counted before a request");

        const PATTERN: &str = "org.h2.command.*::execute*";
        let (ok, out) = hpm(&["probe", "add", PATTERN]);
        assert!(ok && out.contains("requested_methods:") && !out.contains("requested_methods: 0"), "{home}: {out}");
        let (_, status) = hpm(&["status"]);
        assert!(status.contains(&format!("probe_requests: +{PATTERN}")) && !status.contains("probed_classes: 0"), "{status}");
        std::thread::sleep(Duration::from_millis(1500));
        let (d1, _) = dump("d1");
        std::thread::sleep(Duration::from_millis(1000));
        let (d2, _) = dump("d2");
        let (c1, c2) = (worker_calls(&d1), worker_calls(&d2));
        let matching = |m: &str| m.starts_with("org.h2.command.") && m.rsplit('.').next().is_some_and(|n| n.starts_with("execute"));
        assert!(c1.keys().all(|m| matching(m)), "{home}: methods counted outside the pattern: {:?}", c1.keys().filter(|m| !matching(m)).collect::<Vec<_>>());
        assert!(c1.keys().any(|m| m.ends_with(".executeUpdate")) && c1.keys().any(|m| m.ends_with(".executeQuery")), "{home}: {c1:?}");
        let grew = c1.iter().filter(|(m, c)| c2.get(*m).is_some_and(|c2| c2 > c)).count();
        assert!(grew > 0, "{home}: counts grow while the probes are in: {c1:?} then {c2:?}");

        let (ok, out) = hpm(&["probe", "remove", PATTERN]);
        assert!(ok && out.contains("requested_methods: 0"), "{home}: {out}");
        let (_, status) = hpm(&["status"]);
        assert!(status.contains("probed_classes: 0") && status.contains("requested_methods: 0"), "{status}");
        let (d3, _) = dump("d3");
        std::thread::sleep(Duration::from_millis(1500));
        let (d4, d4_dir) = dump("d4");
        assert_eq!(worker_calls(&d3), worker_calls(&d4), "{home}: counts stop growing once the probes are out");
        let probes = std::fs::read_to_string(d4_dir.join("probes.txt")).unwrap();
        assert!(probes.contains(PATTERN) && probes.lines().any(|l| l.ends_with(".executeUpdate")), "{probes}");
        child.kill().unwrap();
        let _ = child.wait();
    }
}
