//! `hpm events`, `hpm list` and `hpm ctl` as a user runs them: the real binary against real
//! perf_event descriptors and a real control socket (served here by a test handler; the agent's own
//! handler is tested with real JVMs in the agent's tests).

use std::process::Command as Process;
use std::sync::{Arc, Mutex};

use hpm_control::paths::{prepare_socket_dir, socket_path};
use hpm_control::{Command, Handler, Server, ServerConfig};
use serde_json::{json, Value};

fn hpm() -> Process {
    Process::new(env!("CARGO_BIN_EXE_hpm"))
}

#[test]
fn events_lists_what_opens_and_why_the_rest_does_not() {
    let out = hpm().args(["events", "--json"]).output().unwrap();
    assert!(out.status.success());
    let rows: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    let find = |n: &str| rows.iter().find(|r| r["name"] == n).cloned().unwrap_or_else(|| panic!("{n} not listed"));
    assert_eq!(find("task-clock")["opens"], true, "a software event opens everywhere perf_event works");
    let cycles = find("cycles");
    if cycles["opens"] == false {
        let why = cycles["refusal"].as_str().unwrap();
        assert!(why.contains("`cycles`"), "the refusal names the event: {why}");
    }
    for r in rows.iter().filter(|r| r["opens"] == false) {
        assert!(r["refusal"].as_str().is_some_and(|s| s.contains(r["name"].as_str().unwrap())), "{r}");
    }
    let text = hpm().args(["events", "--all"]).output().unwrap();
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains("events open on this machine") && text.contains("task-clock"), "{text}");
}

struct Fake(Mutex<Vec<Command>>);

impl Handler for Fake {
    fn handle(&self, c: Command) -> Result<Value, String> {
        self.0.lock().unwrap().push(c.clone());
        match c {
            Command::Status => Ok(json!({"state": "paused", "threads": 3, "main": "com.acme.Main"})),
            Command::Dump { dir: Some(d) } => {
                let files: Vec<String> = ["xprof.txt", "xtree.txt", "xarc.txt", "arcflow.json", "collapsed.txt", "flame.svg", "threads.txt", "gc.txt"].iter().map(|f| format!("{d}/{f}")).collect();
                Ok(json!({"dir": d, "files": files}))
            }
            Command::Reset => Err("nothing to reset".into()),
            other => Ok(json!({"done": other.name()})),
        }
    }
}

#[test]
fn list_and_ctl_talk_to_a_control_socket() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("sockets");
    prepare_socket_dir(&dir).unwrap();
    let handler = Arc::new(Fake(Mutex::new(Vec::new())));
    let pid = std::process::id();
    let _server = Server::start(ServerConfig::new(socket_path(&dir, pid)), handler.clone()).unwrap();
    let sd = dir.to_str().unwrap();

    let list = hpm().args(["list", "--socket-dir", sd]).output().unwrap();
    let list = String::from_utf8(list.stdout).unwrap();
    assert!(list.contains(&pid.to_string()) && list.contains("paused") && list.contains("com.acme.Main"), "{list}");

    let status = hpm().args(["ctl", &pid.to_string(), "status", "--socket-dir", sd, "--json"]).output().unwrap();
    assert!(status.status.success());
    let v: Value = serde_json::from_slice(&status.stdout).unwrap();
    assert_eq!(v["threads"], 3);

    let dump = hpm().args(["ctl", &pid.to_string(), "dump", "/tmp/d", "--socket-dir", sd]).output().unwrap();
    // A dump's files, one per line (they made one line of hundreds of characters).
    let dump = String::from_utf8_lossy(&dump.stdout).into_owned();
    let lines: Vec<&str> = dump.lines().collect();
    assert_eq!(lines[..3], ["dir: /tmp/d", "files:", "  - /tmp/d/xprof.txt"], "{dump}");
    assert_eq!(lines.len(), 2 + 8, "{dump}");
    let mark = hpm().args(["ctl", &pid.to_string(), "mark", "phase two", "--socket-dir", sd]).output().unwrap();
    assert!(mark.status.success());

    // A refused command: exit 1 and one line naming the command and the reason.
    let reset = hpm().args(["ctl", &pid.to_string(), "reset", "--socket-dir", sd]).output().unwrap();
    assert_eq!(reset.status.code(), Some(1));
    let err = String::from_utf8(reset.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("reset refused (failed): nothing to reset"), "{err}");

    // No agent for that pid: exit 1, and the message says what to do.
    let none = hpm().args(["ctl", "1", "status", "--socket-dir", sd]).output().unwrap();
    assert_eq!(none.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&none.stderr).contains("hpm attach"));

    let seen = handler.0.lock().unwrap();
    assert!(seen.contains(&Command::Dump { dir: Some("/tmp/d".into()) }));
    assert!(seen.contains(&Command::Mark { text: "phase two".into() }));
}

#[test]
fn run_without_an_agent_library_says_how_to_build_it() {
    let out = hpm().args(["run", "--agent-lib", "/nonexistent/libhpmagent.so", "--", "java", "-version"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("cargo build --release -p hpmagent"), "{err}");
}

#[test]
fn attach_to_a_process_that_does_not_handle_sigquit_leaves_it_running() {
    // HotSpot starts its attach listener on SIGQUIT, whose default action ends a process: a
    // process that has no handler for it (not a JVM, or one started with -Xrs) is not signalled.
    let mut sleeper = Process::new("sleep").arg("30").spawn().unwrap();
    let lib = tempfile::NamedTempFile::new().unwrap();
    let out = hpm()
        .args(["attach", &sleeper.id().to_string(), "--timeout", "1", "--agent-lib"])
        .arg(lib.path())
        .output()
        .unwrap();
    let alive = sleeper.try_wait().unwrap().is_none();
    let _ = sleeper.kill();
    let _ = sleeper.wait();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    // Not a JVM: said at once (no libjvm.so mapped), instead of waiting for a SIGQUIT handler.
    assert!(err.contains(&format!("process {} (sleep) is not a HotSpot JVM", sleeper.id())), "{err}");
    assert!(alive, "the process was not signalled");
    // The trigger file goes to the process's working directory (this test's) or /tmp.
    let trigger = format!(".attach_pid{}", sleeper.id());
    assert!(!std::path::Path::new(&trigger).exists() && !std::path::Path::new("/tmp").join(&trigger).exists(), "the trigger file is removed");
}
