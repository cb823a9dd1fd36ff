//! What the tests comparing rvm with HotSpot share: running rvm, and checking that it prints and
//! exits as HotSpot did on the same classes.

use std::path::Path;
use std::process::{Command, Output};

pub fn rvm(args: &[&std::ffi::OsStr]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rvm")).args(args).output().expect("run rvm")
}

pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// `class` from `dir` (compiled `by` some javac) on rvm with 1 and 2 processors prints line for
/// line what HotSpot printed (`expected`) and exits with its code; `compare_stderr`: stderr too.
pub fn assert_rvm_matches(expected: &Output, dir: &Path, class: &str, by: &str, compare_stderr: bool) {
    assert_rvm_matches_on(&["-Xvps:1", "-Xvps:2"], expected, dir, class, by, compare_stderr);
}

/// [`assert_rvm_matches`] with the processor options `vps_options` (one run each).
pub fn assert_rvm_matches_on(vps_options: &[&str], expected: &Output, dir: &Path, class: &str, by: &str, compare_stderr: bool) {
    for &vps in vps_options {
        let got = rvm(&[vps.as_ref(), "-cp".as_ref(), dir.as_os_str(), class.as_ref()]);
        let (e, g) = (text(&expected.stdout), text(&got.stdout));
        for (i, (a, b)) in e.lines().zip(g.lines()).enumerate() {
            assert_eq!(a, b, "{class} ({by}, {vps}): line {} differs\nrvm stderr:\n{}", i + 1, text(&got.stderr));
        }
        assert_eq!(e.lines().count(), g.lines().count(), "{class} ({by}, {vps}): line count\nrvm stdout:\n{g}\nrvm stderr:\n{}", text(&got.stderr));
        assert_eq!(expected.status.code(), got.status.code(), "{class} ({by}, {vps}): exit code\nrvm stderr:\n{}", text(&got.stderr));
        if compare_stderr {
            assert_eq!(text(&expected.stderr), text(&got.stderr), "{class} ({by}, {vps}): stderr");
        }
    }
}
