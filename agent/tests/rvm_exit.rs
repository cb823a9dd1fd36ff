//! How `rvm` with the agent ends when things go wrong, on the real VM binary and the real agent
//! library: stopped by SIGTERM, SIGINT or SIGHUP (everything is written, as on HotSpot, and the exit
//! status is 128 + the signal); quantum-trace files that cannot be written (said, never claimed as
//! written); command-line arguments that are not UTF-8 (no panic).

mod common;

use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;
use std::path::PathBuf;
use std::process::Command;

use common::*;

/// A fresh directory for test `name` under the target directory.
fn test_dir(name: &str) -> PathBuf {
    out_dir(name, &java_tests::jdk().expect("a JDK (to compile the test programs)"))
}

/// Runs rvm with `args`; its exit status and stderr. The program must not run.
fn rvm_refuses(args: &[OsString]) -> (i32, String) {
    let o = Command::new(rvm()).args(args).output().expect("run rvm");
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.stdout.is_empty(), "the program does not run: {}", String::from_utf8_lossy(&o.stdout));
    (o.status.code().unwrap_or(-1), stderr)
}

fn os(s: &str) -> OsString {
    s.into()
}

/// `prefix` followed by a byte that is not UTF-8.
fn not_utf8(prefix: &str) -> OsString {
    let mut b = prefix.as_bytes().to_vec();
    b.push(0xe9);
    OsString::from_vec(b)
}

#[test]
fn arguments_that_are_not_utf8_are_one_line_errors_or_used_as_they_are() {
    let out = test_dir("rvm-not-utf8");
    let agent = os(&format!("-agentpath:{}=out={},socket=off", agent_lib().display(), out.display()));
    let cp = [os("-cp"), classes().into()];
    // A main class, a program argument and the agent's options must be text: one line each.
    let cases: [(Vec<OsString>, &str); 3] = [
        ([agent.clone()].into_iter().chain(cp.clone()).chain([not_utf8("calls.Straight")]).collect(), "main class"),
        ([agent.clone()].into_iter().chain(cp.clone()).chain([os("calls.Straight"), os("ok"), not_utf8("caf")]).collect(), "program argument 2"),
        ([not_utf8(&format!("-agentpath:{}=out={}", agent_lib().display(), out.display()))].into_iter().chain(cp.clone()).chain([os("calls.Straight")]).collect(), "-agentpath"),
    ];
    for (args, what) in cases {
        let (code, err) = rvm_refuses(&args);
        assert!(code != 0 && code != 101, "{what}: exit {code}: {err}");
        assert_eq!(err.lines().count(), 1, "{what}: {err}");
        assert!(err.starts_with("rvm: error: ") && err.contains(what) && err.contains("not valid UTF-8"), "{what}: {err}");
    }
    assert!(!out.exists(), "the agent did not start");

    // A class path and an agent library are paths: used byte for byte.
    let base = test_dir("rvm-not-utf8-paths");
    let mut dir = base.clone().into_os_string().into_vec();
    dir.extend_from_slice(b"/classes-\xe9");
    let dir = PathBuf::from(OsString::from_vec(dir));
    std::fs::create_dir_all(dir.join("calls")).unwrap();
    std::fs::copy(classes().join("calls/Straight.class"), dir.join("calls/Straight.class")).unwrap();
    let mut lib = base.clone().into_os_string().into_vec();
    lib.extend_from_slice(b"/libhpmagent-\xe9.so");
    let lib = PathBuf::from(OsString::from_vec(lib));
    std::os::unix::fs::symlink(agent_lib(), &lib).unwrap();
    let mut agent = OsString::from("-agentpath:");
    agent.push(&lib);
    agent.push(format!("=out={},socket=off", out.display()));
    let o = Command::new(rvm()).arg(agent).arg("-cp").arg(&dir).arg("calls.Straight").output().unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{}: {stderr}", o.status);
    assert!(stderr.contains(&format!("hpmagent: reports written to {}", out.display())), "{stderr}");
    assert_eq!(contexts(&read_profile(&out.join("arcflow.json")), "main"), straight_tree());
}
