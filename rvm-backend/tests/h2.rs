//! Debian's H2 database (libh2-java) on rvm: the transaction driver of the benchmarks
//! (`java-tests/thirdparty/bench/H2Driver.java`: an in-memory database, its tables filled in one
//! batch, then worker threads each running transactions of an insert, five order lines and five
//! stock updates, and two reads), compiled with plain `javac` of JDK 17 and of the newest JDK
//! found, prints on rvm with one and two processors the checksum HotSpot prints, and exits as it
//! does. H2 opens its store through the class library's `java.time`, `SecureRandom`, shutdown
//! hooks, `ThreadLocal`s, reflection, service files and jar resources. Skipped (with a line) when
//! the jar is not installed.

use java_tests::Jdk;
use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "support/hotspot.rs"]
#[allow(dead_code)]
mod hotspot;
use hotspot::text;

const H2: &str = "/usr/share/java/h2.jar";

fn h2_or_skip() -> bool {
    if Path::new(H2).is_file() {
        return true;
    }
    eprintln!("SKIPPED: {H2} is not installed (Debian package libh2-java; scripts/prereqs.sh installs it)");
    false
}

/// JDK 17 and the newest JDK above it, when there is one.
fn jdks() -> Vec<Jdk> {
    let mut jdks: Vec<Jdk> = java_tests::all_jdks().into_iter().filter(|j| j.feature_version() == Some(17)).take(1).collect();
    if let Some(newer) = java_tests::newer_jdk().filter(|j| j.feature_version().unwrap_or(0) > 17) {
        jdks.push(newer);
    }
    assert!(!jdks.is_empty(), "no JDK 17 or newer found");
    jdks
}

/// `src` compiled by `jdk`'s plain javac against the jar, into a fresh directory `name`.
fn compile(jdk: &Jdk, src: &Path, name: &str) -> PathBuf {
    let out = java_tests::class_root().join(format!("{name}-{}", jdk.feature_version().unwrap_or(0)));
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).unwrap();
    let st = Command::new(jdk.javac()).args(["-nowarn", "-encoding", "UTF-8", "-cp", H2, "-d"]).arg(&out).arg(src).status().expect("run javac");
    assert!(st.success(), "javac {} failed on {}", jdk.feature_version().unwrap_or(0), src.display());
    out
}

fn driver_source() -> PathBuf {
    java_tests::source_root().join("thirdparty/bench/H2Driver.java")
}

/// `threads` workers of `transactions` each: HotSpot's stdout and exit code, on rvm with 1 and 2 processors.
fn driver_same_as_hotspot(threads: u32, transactions: u32) {
    let args = [threads.to_string(), transactions.to_string()];
    for jdk in jdks() {
        let v = jdk.feature_version().unwrap_or(0);
        // A directory per test: the tests of this file run in parallel, and each compiles afresh.
        let cp = format!("{}:{H2}", compile(&jdk, &driver_source(), &format!("rvm-h2-{threads}x{transactions}")).display());
        let expected = Command::new(jdk.java()).arg("-cp").arg(&cp).arg("bench.H2Driver").args(&args).output().expect("run java");
        assert!(expected.status.success(), "H2Driver (javac {v}) on HotSpot: {}", text(&expected.stderr));
        assert!(text(&expected.stdout).starts_with("h2 "), "H2Driver on HotSpot printed {}", text(&expected.stdout));
        for vps in ["-Xvps:1", "-Xvps:2"] {
            let got = Command::new(env!("CARGO_BIN_EXE_rvm")).arg(vps).arg("-cp").arg(&cp).arg("bench.H2Driver").args(&args).output().expect("run rvm");
            assert_eq!(text(&expected.stdout), text(&got.stdout), "H2Driver {threads} {transactions} (javac {v}, {vps}): stdout\nrvm stderr:\n{}", text(&got.stderr));
            assert_eq!(expected.status.code(), got.status.code(), "H2Driver (javac {v}, {vps}): exit code\nrvm stderr:\n{}", text(&got.stderr));
        }
    }
}

/// The matrix's run: two workers of 300 transactions.
#[test]
fn h2_transaction_driver_gives_hotspots_checksum() {
    if h2_or_skip() {
        driver_same_as_hotspot(2, 300);
    }
}

/// More workers than processors, so that transactions of several threads interleave on each
/// processor (H2's row locks and its MVStore's concurrent maps under preemption).
#[test]
fn h2_with_four_workers_gives_hotspots_checksum() {
    if h2_or_skip() {
        driver_same_as_hotspot(4, 100);
    }
}

/// H2's failures as a program sees them (`tests/java-lib/h2/LibH2Errors.java`): for a syntax
/// error, a missing table or column, key, null and length violations, division by zero, bad
/// conversions and an invalid date, the exception class of H2's JDBC layer and its SQLException
/// family, SQL state, error code and message (formatted with `java.text.MessageFormat`); a failed
/// batch's update counts; an unknown connection setting; then dates, times and intervals H2
/// computes (through `java.time` where it uses it), and JDBC's Timestamp, Date and Time set and
/// read back, all as on HotSpot (both in UTC).
#[test]
fn h2_errors_and_date_values_are_hotspots() {
    if !h2_or_skip() {
        return;
    }
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/java-lib/h2/LibH2Errors.java");
    for jdk in jdks() {
        let v = jdk.feature_version().unwrap_or(0);
        let cp = format!("{}:{H2}", compile(&jdk, &src, "rvm-h2-errors").display());
        // TZ=UTC: the JDBC date types' text is the default zone's.
        let expected = Command::new(jdk.java()).env("TZ", "UTC").arg("-cp").arg(&cp).arg("LibH2Errors").output().expect("run java");
        assert!(expected.status.success(), "LibH2Errors (javac {v}) on HotSpot: {}", text(&expected.stderr));
        for vps in ["-Xvps:1", "-Xvps:2"] {
            let got = Command::new(env!("CARGO_BIN_EXE_rvm")).env("TZ", "UTC").arg(vps).arg("-cp").arg(&cp).arg("LibH2Errors").output().expect("run rvm");
            let (e, g) = (text(&expected.stdout), text(&got.stdout));
            for (i, (a, b)) in e.lines().zip(g.lines()).enumerate() {
                assert_eq!(a, b, "LibH2Errors (javac {v}, {vps}): line {} differs\nrvm stderr:\n{}", i + 1, text(&got.stderr));
            }
            assert_eq!(e.lines().count(), g.lines().count(), "LibH2Errors (javac {v}, {vps}): line count\nrvm stdout:\n{g}\nrvm stderr:\n{}", text(&got.stderr));
            assert_eq!(expected.status.code(), got.status.code(), "LibH2Errors (javac {v}, {vps}): exit code\nrvm stderr:\n{}", text(&got.stderr));
        }
    }
}
