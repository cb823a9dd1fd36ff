//! Root beside other users: the agent and `hpm` run as root, and an unprivileged user,
//! `nobody` through `setpriv`, has planted links and listeners beforehand where root will create,
//! remove or connect. Each test checks that a root-owned victim keeps its content, or that nothing
//! was sent, and that the agent or `hpm` refused with one line or wrote elsewhere safely.
//!
//! The shared directories are made here, sticky and open to everyone (mode 1777, as `/tmp`), under
//! cargo's temporary directory. Every test is skipped, with a line saying why, unless it runs as
//! root with `setpriv` (as CI does).

mod common;
use common::*;

use std::io::{BufRead, BufReader, Write};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::OnceLock;

use hpm_model::arcflow::Metric;
use hpm_collectors::quantum::tracer::{RecordAt, Tracer};

const SECRET: &str = "root's own file\n";

/// The attacker's command line: `setpriv` as nobody, no groups.
fn as_nobody(program: &str) -> Command {
    let mut c = Command::new("setpriv");
    c.args(["--reuid", "nobody", "--regid", "nogroup", "--clear-groups", program]);
    c
}

/// Whether both sides can be played here; if not, says why (the test is then skipped).
fn attacker_available() -> bool {
    static WHY_NOT: OnceLock<Option<String>> = OnceLock::new();
    let why_not = WHY_NOT.get_or_init(|| {
        let status = std::fs::read_to_string("/proc/self/status").unwrap();
        let euid = status.lines().find_map(|l| l.strip_prefix("Uid:")).and_then(|u| u.split_whitespace().nth(1)).unwrap();
        if euid != "0" {
            return Some(format!("runs as uid {euid}, not root"));
        }
        match as_nobody("true").status() {
            Ok(s) if s.success() => None,
            Ok(s) => Some(format!("setpriv to nobody failed ({s})")),
            Err(e) => Some(format!("no setpriv: {e}")),
        }
    });
    if let Some(why) = why_not {
        eprintln!("skipped: this test plays root and another user; it {why}");
    }
    why_not.is_none()
}

/// `nobody`'s uid, as the refusals name it.
fn nobody_uid() -> u32 {
    let out = as_nobody("id").arg("-u").output().unwrap();
    String::from_utf8(out.stdout).unwrap().trim().parse().unwrap()
}

/// Runs `script` (Python, from the distribution: root's pyenv is not nobody's) as nobody with
/// `args`; panics if it fails.
fn nobody_python(script: &str, args: &[&str]) {
    let out = as_nobody("/usr/bin/python3").arg("-c").arg(script).args(args).output().unwrap();
    assert!(out.status.success(), "as nobody: {}", String::from_utf8_lossy(&out.stderr));
}

/// What every test here starts from: `base`, a fresh directory of root's for `test`, and `shared`,
/// one inside it every user may create in. `None` (the test skipped) unless both sides can be
/// played here.
fn scene(test: &str) -> Option<(PathBuf, PathBuf)> {
    if !attacker_available() {
        return None;
    }
    let base = private_dir(test);
    let shared = shared_dir(&base);
    Some((base, shared))
}

/// A fresh directory for `test`, owned by root, private.
fn private_dir(test: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("security").join(test);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    // Others pass through to the shared directory inside, and read nothing else.
    std::fs::set_permissions(&d, std::fs::Permissions::from_mode(0o711)).unwrap();
    d
}

/// A directory every user may create in (mode 1777, owned by root), inside `base`.
fn shared_dir(base: &Path) -> PathBuf {
    let d = base.join("shared");
    std::fs::create_dir(&d).unwrap();
    std::fs::set_permissions(&d, std::fs::Permissions::from_mode(0o1777)).unwrap();
    d
}

/// A file of root's in `base/victim/`, which nobody may not write, with known content.
fn victim(base: &Path, name: &str) -> PathBuf {
    let d = base.join("victim");
    std::fs::create_dir_all(&d).unwrap();
    let v = d.join(name);
    std::fs::write(&v, SECRET).unwrap();
    v
}

fn assert_intact(victim: &Path) {
    assert_eq!(std::fs::read_to_string(victim).unwrap(), SECRET, "{} was written through a planted link", victim.display());
}

fn is_link(p: &Path) -> bool {
    std::fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_symlink())
}

/// The last process id handed out: the next processes get the ones after it.
fn last_pid() -> u32 {
    std::fs::read_to_string("/proc/sys/kernel/ns_last_pid").unwrap().trim().parse().unwrap()
}

/// How many coming process ids the attacker plants for: the JVM started next gets one of them.
const COMING: u32 = 2000;

/// As nobody, runs the Python statements `each` (indented by 4 in a loop, with `pid`, `secret`
/// and `shared` set) for each of the next [`COMING`] process ids, in one process (no fork per
/// link, so that the ids planted for stay free). Returns the first.
fn plant_for_coming_pids(shared: &Path, secret: &Path, each: &str) -> u32 {
    let first = last_pid() + 2;
    let script = format!(
        "import os, sys
secret, shared, first, n = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
for pid in range(first, first + n):
    {each}"
    );
    nobody_python(&script, &[secret.to_str().unwrap(), shared.to_str().unwrap(), &first.to_string(), &COMING.to_string()]);
    first
}

/// A JVM running `Phases` (waiting on stdin) without the agent, in `cwd`; killed when dropped.
struct Jvm {
    child: Child,
    stdin: Option<ChildStdin>,
}

impl Jvm {
    fn start(cwd: &Path) -> Jvm {
        Jvm::start_as(cwd, false)
    }

    /// `Phases` in `cwd`, as root or (`nobody`) as the other user.
    fn start_as(cwd: &Path, nobody: bool) -> Jvm {
        static CLASSES: OnceLock<PathBuf> = OnceLock::new();
        let classes = CLASSES.get_or_init(|| java_tests::compile("control").expect("compiling java-tests/control"));
        let jdk = java_tests::jdk().unwrap();
        let java = jdk.java();
        let mut command = if nobody { as_nobody(java.to_str().unwrap()) } else { Command::new(&java) };
        let mut child = command
            .env_remove("XDG_RUNTIME_DIR")
            .arg("-cp")
            .arg(classes)
            .arg("Phases")
            .current_dir(cwd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        assert_eq!(line.trim(), "ready");
        let stdin = child.stdin.take();
        Jvm { child, stdin }
    }

    fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Ends the program and returns its stderr.
    fn quit(mut self) -> String {
        let mut stdin = self.stdin.take().unwrap();
        writeln!(stdin, "quit").unwrap();
        drop(stdin);
        let mut err = String::new();
        std::io::Read::read_to_string(self.child.stderr.as_mut().unwrap(), &mut err).unwrap();
        assert!(self.child.wait().unwrap().success(), "{err}");
        err
    }
}

impl Drop for Jvm {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `hpm attach PID` with this build's agent, reports into `out`.
fn hpm_attach(pid: u32, out: &Path) -> std::process::Output {
    Command::new(hpm_binary())
        .args(["attach", &pid.to_string(), &format!("out={}", out.display()), "socket=off", "perf-map=off", "--timeout", "20", "--agent-lib"])
        .arg(agent_lib())
        .output()
        .unwrap()
}

/// Item 1: the attach trigger file in the JVM's working directory is created new (O_EXCL,
/// O_NOFOLLOW): a link planted under its name is passed over, never written through.
#[test]
fn attach_never_creates_its_trigger_file_through_a_planted_link() {
    let Some((base, shared)) = scene("trigger") else { return };
    let secret = victim(&base, "secret");
    let jvm = Jvm::start(&shared);
    let pid = jvm.pid();
    let planted = shared.join(format!(".attach_pid{pid}"));
    nobody_python("import os, sys; os.symlink(sys.argv[1], sys.argv[2])", &[secret.to_str().unwrap(), planted.to_str().unwrap()]);

    let out = base.join("out");
    let attach = hpm_attach(pid, &out);
    assert_intact(&secret);
    assert!(is_link(&planted), "nobody's link is left as it was");
    // The trigger went to /tmp instead, and the agent loaded.
    assert!(attach.status.success(), "hpm attach: {}", String::from_utf8_lossy(&attach.stderr));
    assert!(String::from_utf8_lossy(&attach.stdout).contains("agent loaded"));
    assert!(!Path::new(&format!("/tmp/.attach_pid{pid}")).exists(), "hpm removes the trigger it made");
    let stderr = jvm.quit();
    assert!(out.join("arcflow.json").exists(), "{stderr}");
    assert_intact(&secret);
    std::fs::remove_dir_all(&base).unwrap();
}

/// Item 5: a listener of another user at `/tmp/.java_pid<pid>` is refused, as the JDK's attach
/// refuses a socket not owned by the JVM's user, before anything is sent to it.
#[test]
fn attach_refuses_a_listener_socket_of_another_user() {
    let Some((base, _)) = scene("listener") else { return };
    let jvm = Jvm::start(&base);
    let pid = jvm.pid();
    let socket = PathBuf::from(format!("/tmp/.java_pid{pid}"));
    let _ = std::fs::remove_file(&socket);
    // Mode 0600 as HotSpot's own: only the owner differs. It answers as HotSpot does to `load`.
    let listener = "import os, socket, sys
s = socket.socket(socket.AF_UNIX)
s.bind(sys.argv[1]); os.chmod(sys.argv[1], 0o600); s.listen(1)
print('listening', flush=True)
c, _ = s.accept()
print('received', c.recv(65536), flush=True)
c.sendall(b'0\\nreturn code: 0\\n'); c.close()";
    let mut fake = as_nobody("/usr/bin/python3").arg("-c").arg(listener).arg(&socket).stdout(Stdio::piped()).spawn().unwrap();
    let mut fake_out = BufReader::new(fake.stdout.take().unwrap());
    let mut line = String::new();
    fake_out.read_line(&mut line).unwrap();
    assert_eq!(line.trim(), "listening");

    let attach = hpm_attach(pid, &base.join("out"));
    let _ = fake.kill();
    let _ = fake.wait();
    let mut heard = String::new();
    std::io::Read::read_to_string(&mut fake_out, &mut heard).unwrap();
    let _ = std::fs::remove_file(&socket);
    assert!(heard.is_empty(), "the other user's listener got: {heard}");
    let err = String::from_utf8_lossy(&attach.stderr);
    assert_eq!(attach.status.code(), Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let nobody = nobody_uid();
    assert!(
        err.contains(&format!("refusing {}: it is owned by uid {nobody}, but JVM {pid} runs as uid 0", socket.display())),
        "{err}"
    );
    assert!(!String::from_utf8_lossy(&attach.stdout).contains("agent loaded"));
    drop(jvm);
    std::fs::remove_dir_all(&base).unwrap();
}

/// Item 2, without `out=`: in a shared working directory, another user made `hpm-<pid>` for the
/// coming process ids, with a link where the agent checks that it can write. The agent refuses
/// that directory at load with one line, and the JVM does not start.
#[test]
fn the_default_out_dir_of_another_user_is_refused() {
    let Some((base, shared)) = scene("default-out") else { return };
    let jdk = java_tests::jdk().unwrap();
    let secret = victim(&base, "secret");
    plant_for_coming_pids(
        &shared,
        &secret,
        "d = os.path.join(shared, 'hpm-%d' % pid)
    os.mkdir(d)
    os.symlink(secret, os.path.join(d, '.hpmagent-probe-%d' % pid))",
    );
    let o = command(&jdk, "Straight", "perf-map=off,socket=off", &[], &[]).current_dir(&shared).output().unwrap();
    assert_intact(&secret);
    let stderr = String::from_utf8_lossy(&o.stderr);
    let out = shared.join(format!("hpm-{}", last_pid_of(&stderr)));
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    let nobody = nobody_uid();
    let line = stderr.lines().find(|l| l.starts_with("hpmagent: error: ")).unwrap_or_else(|| panic!("{stderr}"));
    assert!(line.contains(&format!(": it is owned by uid {nobody}, not by uid 0 or root")) && line.ends_with("(option out=)"), "{line}");
    assert!(!String::from_utf8_lossy(&o.stdout).contains("straight"), "the program must not run");
    assert!(out.is_dir(), "{}", out.display());
    std::fs::remove_dir_all(&base).unwrap();
}

/// The process id in the agent's refusal `cannot write reports to hpm-<pid>: …`; panics when it
/// names none (the JVM got a process id nobody did not plant for).
fn last_pid_of(stderr: &str) -> u32 {
    let at = stderr.find("cannot write reports to hpm-").unwrap_or_else(|| panic!("no refusal of hpm-<pid> (a pid outside the {COMING} planted?): {stderr}"));
    let rest = &stderr[at + "cannot write reports to hpm-".len()..];
    rest[..rest.find(':').unwrap()].parse().unwrap()
}

/// Item 2, with `out=` a shared directory (root's, sticky): links planted where the agent checks
/// that it can write, under the old name and the new, are never written through; the run writes
/// its reports there.
#[test]
fn the_write_test_of_out_never_follows_a_planted_link() {
    let Some((base, shared)) = scene("probe") else { return };
    let jdk = java_tests::jdk().unwrap();
    let secret = victim(&base, "secret");
    let first = plant_for_coming_pids(
        &shared,
        &secret,
        "for name in ('.hpmagent-probe-%d' % pid, '.hpmagent-probe.%d.0.tmp' % pid):
        os.symlink(secret, os.path.join(shared, name))",
    );
    let child = command(&jdk, "Straight", &format!("out={},perf-map=off,socket=off", shared.display()), &[], &[])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let o = child.wait_with_output().unwrap();
    assert_intact(&secret);
    assert!((first..first + COMING).contains(&pid), "the JVM got pid {pid}, outside the {COMING} planted for from {first}: rerun");
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    assert!(stderr.contains(&format!("hpmagent: reports written to {}", shared.display())), "{stderr}");
    assert!(is_link(&shared.join(format!(".hpmagent-probe-{pid}"))) && is_link(&shared.join(format!(".hpmagent-probe.{pid}.0.tmp"))));
    std::fs::remove_dir_all(&base).unwrap();
}

/// Item 3: the quantum tracer's temporary files (`.quantum.vp<N>.trace.<pid>.tmp`, the meta
/// file's) are created new: links planted under their names are removed, never written through.
#[test]
fn quantum_temporary_files_never_follow_a_planted_link() {
    let Some((base, shared)) = scene("quantum") else { return };
    let trace_secret = victim(&base, "trace-secret");
    let meta_secret = victim(&base, "meta-secret");
    let pid = std::process::id();
    nobody_python(
        "import os, sys
trace, meta, shared, pid = sys.argv[1:5]
os.symlink(trace, os.path.join(shared, '.quantum.vp0.trace.%s.tmp' % pid))
for name in ('.quantum.meta.%s.tmp', '.quantum.meta.%s.0.tmp'):
    os.symlink(meta, os.path.join(shared, name % pid))",
        &[trace_secret.to_str().unwrap(), meta_secret.to_str().unwrap(), shared.to_str().unwrap(), &pid.to_string()],
    );
    let t = Tracer::new(&shared, RecordAt::Switch, &[Metric::new("cpu-time", "ns"), Metric::new("wall-time", "ns")], 1);
    t.vp_start(0, &[0, 1_000], None);
    t.vp_end(0, &[10, 2_000]);
    let (files, errors) = t.finish(Vec::new(), |_| None);
    assert_intact(&trace_secret);
    assert_intact(&meta_secret);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(files, [shared.join("quantum.vp0.trace"), shared.join("quantum.meta")]);
    for f in &files {
        let m = std::fs::symlink_metadata(f).unwrap();
        assert!(m.is_file() && m.uid() == 0, "{} is root's own file", f.display());
    }
    let trace = hpm_model::quantum::read_dir(&shared).unwrap();
    assert!(trace.is_valid(), "{:?}", trace.issues);
    std::fs::remove_dir_all(&base).unwrap();
}

/// Item 4: removing stale reports never follows another user's links (`sampled` and a per-thread
/// `threads/NNN-name` made links to a directory of root's reports): the run says it left them.
#[test]
fn removing_stale_reports_never_follows_a_planted_link() {
    let Some((base, out)) = scene("stale") else { return };
    let jdk = java_tests::jdk().unwrap();
    // A per-thread parent of root's, open to all as out= is: nobody may add to it, not replace it.
    std::fs::create_dir(out.join("threads")).unwrap();
    std::fs::set_permissions(out.join("threads"), std::fs::Permissions::from_mode(0o1777)).unwrap();
    let reports = ["xtree.txt", "xprof.txt", "threads.txt", "arcflow.json"].map(|n| victim(&base, n));
    let victims = reports[0].parent().unwrap();
    nobody_python(
        "import os, sys
victims, out = sys.argv[1:3]
for name in ('sampled', 'sampled-alloc', 'threads/001-evil'):
    os.symlink(victims, os.path.join(out, name))",
        &[victims.to_str().unwrap(), out.to_str().unwrap()],
    );
    let o = command(&jdk, "Straight", &format!("out={},perf-map=off,socket=off", out.display()), &[], &[]).output().unwrap();
    for v in &reports {
        assert_intact(v);
    }
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    assert!(stderr.contains(&format!("hpmagent: reports written to {}", out.display())), "{stderr}");
    let nobody = nobody_uid();
    for name in ["sampled", "sampled-alloc", "threads/001-evil"] {
        let left = format!("hpmagent: warning: stale reports in {} are left: it is a symbolic link owned by uid {nobody}", out.join(name).display());
        assert!(stderr.lines().any(|l| l.starts_with(&left)), "{name}: {stderr}");
        assert!(is_link(&out.join(name)));
    }
    assert!(out.join("threads").read_dir().unwrap().flatten().any(|e| e.file_name().to_string_lossy().ends_with("-main")), "this run's per-thread views are written");
    std::fs::remove_dir_all(&base).unwrap();
}

/// Item 17: after root attaches to another user's JVM, the agent runs as that user and makes its
/// control socket in that user's directory; `hpm ctl PID` (as root) finds it there, as the attach
/// said it would.
#[test]
fn root_controls_the_agent_it_attached_to_another_users_jvm() {
    let Some((base, shared)) = scene("ctl-other-user") else { return };
    let jvm = Jvm::start_as(&shared, true);
    let pid = jvm.pid().to_string();
    let out = shared.join("out");
    let attach = Command::new(hpm_binary())
        .env_remove("XDG_RUNTIME_DIR")
        .args(["attach", &pid, &format!("out={}", out.display()), "perf-map=off", "--timeout", "20", "--agent-lib"])
        .arg(agent_lib())
        .output()
        .unwrap();
    assert!(attach.status.success(), "hpm attach: {}", String::from_utf8_lossy(&attach.stderr));
    assert!(String::from_utf8_lossy(&attach.stdout).contains(&format!("hpm ctl {pid} status")));
    let ctl = Command::new(hpm_binary()).env_remove("XDG_RUNTIME_DIR").args(["ctl", &pid, "status"]).output().unwrap();
    assert!(ctl.status.success(), "hpm ctl as root: {}", String::from_utf8_lossy(&ctl.stderr));
    assert!(String::from_utf8_lossy(&ctl.stdout).contains("state"), "{}", String::from_utf8_lossy(&ctl.stdout));
    let stderr = jvm.quit();
    assert!(out.join("arcflow.json").exists(), "{stderr}");
    std::fs::remove_dir_all(&base).unwrap();
}
