//! Conformance: every program in `java-tests/conformance` must print on `rvm` exactly what it
//! prints on HotSpot (stdout line for line, and the exit code), with one virtual processor, two,
//! and more processors than the machine has cores.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

struct Out {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run(cmd: &mut Command, timeout: Duration) -> Out {
    let mut child = cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("spawn");
    let mut so = child.stdout.take().unwrap();
    let mut se = child.stderr.take().unwrap();
    let t1 = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut so, &mut s).ok();
        s
    });
    let t2 = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut se, &mut s).ok();
        s
    });
    let start = Instant::now();
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st;
        }
        if start.elapsed() > timeout {
            child.kill().ok();
            child.wait().ok();
            panic!("timed out after {timeout:?}: {cmd:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    Out { code: status.code().unwrap_or(-1), stdout: t1.join().unwrap(), stderr: t2.join().unwrap() }
}

/// Compiled once per test process: tests run in parallel threads, and two javac runs writing the
/// same class files while another test reads them would be a race.
fn classes() -> PathBuf {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| java_tests::compile("conformance").expect("compile conformance programs")).clone()
}

fn hotspot(dir: &Path, xmx: Option<&str>, class: &str, args: &[&str]) -> Out {
    let jdk = java_tests::jdk().expect("JDK");
    let mut c = Command::new(jdk.java());
    if let Some(x) = xmx {
        c.arg(format!("-Xmx{x}"));
    }
    c.arg("-cp").arg(dir).arg(class).args(args);
    run(&mut c, Duration::from_secs(120))
}

fn rvm(dir: &Path, vps: usize, extra: &[&str], class: &str, args: &[&str]) -> Out {
    let mut c = Command::new(env!("CARGO_BIN_EXE_rvm"));
    c.arg(format!("-Xvps:{vps}")).args(extra).arg("-cp").arg(dir).arg(class).args(args);
    run(&mut c, Duration::from_secs(120))
}

/// 1, 2, and more virtual processors than cores.
fn vps_list() -> Vec<usize> {
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    vec![1, 2, cores * 2 + 1]
}

/// User-visible stderr: the "Exception in thread" lines and frames of the program's own classes.
fn stderr_summary(s: &str) -> Vec<String> {
    s.lines()
        .filter(|l| !l.contains("java.base/") && !l.trim_start().starts_with("at java.") && !l.starts_with("[GC"))
        .map(str::to_string)
        .collect()
}

fn check(class: &str, args: &[&str], xmx: Option<&str>, compare_stderr: bool) {
    let dir = classes();
    let expected = hotspot(&dir, xmx, class, args);
    let mut extra = Vec::new();
    let xarg;
    if let Some(x) = xmx {
        xarg = format!("-Xmx{x}");
        extra.push(xarg.as_str());
    }
    for vps in vps_list() {
        let got = rvm(&dir, vps, &extra, class, args);
        let (e, g): (Vec<&str>, Vec<&str>) = (expected.stdout.lines().collect(), got.stdout.lines().collect());
        for (i, (a, b)) in e.iter().zip(g.iter()).enumerate() {
            assert_eq!(a, b, "{class} -Xvps:{vps}: line {} differs\nrvm stderr:\n{}", i + 1, got.stderr);
        }
        assert_eq!(e.len(), g.len(), "{class} -Xvps:{vps}: line count differs\nrvm stdout:\n{}\nrvm stderr:\n{}", got.stdout, got.stderr);
        assert_eq!(expected.code, got.code, "{class} -Xvps:{vps}: exit code\nrvm stderr:\n{}", got.stderr);
        if compare_stderr {
            assert_eq!(stderr_summary(&expected.stderr), stderr_summary(&got.stderr), "{class} -Xvps:{vps}: stderr");
        }
    }
}

#[test]
fn arithmetic_edge_cases() {
    check("Arith", &[], None, false);
}

#[test]
fn rounding_math_and_strict_math() {
    check("Rounding", &[], None, false);
}

#[test]
fn strings_and_hashing() {
    check("Strings", &[], None, false);
}

#[test]
fn collections() {
    check("Collect", &[], None, false);
}

#[test]
fn exceptions() {
    check("Exceptions", &[], None, false);
}

#[test]
fn inheritance_interfaces_enums() {
    check("Inherit", &[], None, false);
}

#[test]
fn static_initialisation_order() {
    check("StaticInit", &[], None, false);
}

#[test]
fn threads() {
    check("Threads", &[], None, false);
}

#[test]
fn monitors_and_wait_notify() {
    check("WaitNotify", &[], None, false);
}

#[test]
fn gc_heavy_under_small_heap() {
    check("GcHeavy", &[], Some("16m"), false);
}

#[test]
fn uncaught_exception_exit_code_and_trace() {
    check("Uncaught", &[], None, true);
}

#[test]
fn system_exit_code_with_live_threads() {
    check("Exit", &[], None, false);
}

/// Thread.sleep with every processor idle: the sleeper's deadline alone wakes the VM.
#[test]
fn sleep_with_nothing_else_to_run() {
    check("Sleep", &[], None, false);
}

/// A thread spinning in a loop without calls must not starve the others on one processor: the
/// main thread still runs (it needs the processor to stop the spinner), and the VM exits although
/// a daemon thread spins forever.
#[test]
fn preemption_of_spinning_threads() {
    check("Spin", &[], None, false);
    let dir = classes();
    for q in ["1", "10", "50"] {
        let got = rvm(&dir, 1, &[&format!("-Xquantum:{q}")], "Spin", &[]);
        assert_eq!(got.code, 0, "{}", got.stderr);
        assert!(got.stdout.contains("spinner stopped after spinning: true"), "{}", got.stdout);
    }
}

/// Allocating 50 times the heap limit in short-lived objects completes, with many collections.
#[test]
fn gc_allocates_fifty_times_the_heap() {
    check("AllocLoop", &["16"], Some("16m"), false);
    let dir = classes();
    let got = rvm(&dir, 2, &["-Xmx16m", "-verbose:gc"], "AllocLoop", &["16"]);
    assert_eq!(got.code, 0);
    let gcs = got.stderr.lines().filter(|l| l.starts_with("[GC #")).count();
    assert!(gcs >= 25, "expected many collections, saw {gcs}:\n{}", got.stderr);
}

/// Too much live data gives OutOfMemoryError (caught, then the program recovers).
#[test]
fn gc_out_of_memory() {
    check("Oom", &[], Some("16m"), false);
}

/// A lambda (invokedynamic, linked by `indy.rs`; more in `tests/indy.rs`) runs as on HotSpot.
#[test]
fn lambda_runs() {
    check("Lambda", &[], None, false);
}

/// Class files from `javac --release 8` (version 52) run too. (So every program in
/// `java-tests/conformance` must compile with `--release 8`.)
#[test]
fn java8_class_files() {
    let dir = java_tests::compile_with("conformance", &["--release", "8"]).expect("compile --release 8");
    for class in ["Arith", "Collect", "Inherit"] {
        let expected = hotspot(&dir, None, class, &[]);
        let got = rvm(&dir, 2, &[], class, &[]);
        assert_eq!(expected.stdout, got.stdout, "{class} (release 8)\n{}", got.stderr);
        assert_eq!(expected.code, got.code);
    }
}

#[test]
fn missing_main_class_is_reported() {
    let dir = classes();
    let got = rvm(&dir, 1, &[], "NoSuchClass", &[]);
    assert_eq!(got.code, 1);
    assert!(got.stderr.contains("Could not find or load main class NoSuchClass"), "{}", got.stderr);
}

/// Producers and consumers allocating and waiting on one monitor while collections happen.
#[test]
fn threads_allocating_under_gc() {
    check("ThreadGc", &[], Some("8m"), false);
    let dir = classes();
    let got = rvm(&dir, 3, &["-Xmx8m", "-Xquantum:1", "-verbose:gc"], "ThreadGc", &[]);
    assert_eq!(got.code, 0, "{}", got.stderr);
    assert!(got.stderr.lines().filter(|l| l.starts_with("[GC #")).count() >= 2, "{}", got.stderr);
}

/// A malformed class file fails clearly (ClassFormatError naming the class), not with a crash.
#[test]
fn malformed_class_file_is_rejected() {
    let tmp = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let dir = tmp.path();
    let good = std::fs::read(classes().join("Arith.class")).unwrap();
    // Truncated in the middle of the constant pool.
    std::fs::write(dir.join("Arith.class"), &good[..good.len() / 3]).unwrap();
    let got = rvm(dir, 1, &[], "Arith", &[]);
    assert_eq!(got.code, 1);
    assert!(got.stderr.contains("ClassFormatError: Arith"), "{}", got.stderr);
}

#[test]
fn functional_interface_defaults() {
    check("Functional", &[], None, false);
}

#[test]
fn language_features_misc() {
    check("Misc", &[], None, false);
}

#[test]
fn thousands_of_short_lived_threads() {
    check("ManyThreads", &[], Some("16m"), false);
}

#[test]
fn tree_map_and_set() {
    check("Trees", &[], None, false);
}

#[test]
fn priority_queue_and_array_deque() {
    check("Queues", &[], None, false);
}

#[test]
fn linked_hash_map_and_lru() {
    check("Linked", &[], None, false);
}

/// Double.toString/Float.toString as JDK 17 prints them (not always the shortest form).
#[test]
fn floating_point_printing() {
    check("FloatPrint", &[], None, false);
}
