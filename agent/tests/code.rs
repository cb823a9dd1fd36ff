//! The code map and /tmp/perf-<pid>.map on a real JVM.

mod common;
use common::*;

/// Runs `calls.Bench 30 20` (32 M calls: long enough that C2 compiles fib, with add() inlined,
/// even on a loaded machine) with `options` and `perf-map=on`; checks the code map lists compiled
/// fib and the interpreter's stubs. Returns the code map and the perf map (removed from /tmp).
fn bench_code_maps(jdk: &java_tests::Jdk, out: &std::path::Path, options: &str) -> (String, String) {
    let child = command(jdk, "Bench", &format!("out={},perf-map=on{options}", out.display()), &[], &["30", "20"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let code = std::fs::read_to_string(out.join("code.txt")).unwrap();
    assert!(code.lines().any(|l| l.contains(" compiled ") && l.contains("calls.Bench.fib(int)")), "{code}");
    assert!(code.lines().any(|l| l.contains(" generated ") && l.contains("Interpreter")), "interpreter stubs in the map");
    let map_path = format!("/tmp/perf-{pid}.map");
    let map = std::fs::read_to_string(&map_path).unwrap();
    let _ = std::fs::remove_file(&map_path);
    (code, map)
}

#[test]
fn code_map_and_perf_map_name_jit_code() {
    for jdk in jdks() {
        let out = out_dir("code", &jdk);
        // Recording (bytecode probes: the JIT compiles as usual): the code events are on, so the
        // map has every compiled version.
        let (code, map) = bench_code_maps(&jdk, &out, "");
        // fib's compiled code has add() inlined (HotSpot's inlining records, jvmticmlr.h).
        assert!(
            code.lines().any(|l| l.contains("calls.Bench.fib(int) [inlined: ") && l.contains("calls.Bench.add(int,int)")),
            "inlining records: {code}"
        );
        let fib = map.lines().find(|l| l.ends_with(" [j] calls.Bench.fib(int)")).expect("fib in the perf map");
        // "START SIZE name", hex.
        let f: Vec<&str> = fib.split(' ').collect();
        assert!(u64::from_str_radix(f[0], 16).unwrap() > 0 && u64::from_str_radix(f[1], 16).unwrap() > 0, "{fib}");
        std::fs::remove_dir_all(&out).unwrap();
    }
}

/// While recording is stopped the code events are off (they cost the VM work for every compiled
/// method); a dump, here the one at exit of a run that stayed paused, has the VM replay the code
/// live at that moment, so its code map and perf map are current.
#[test]
fn a_paused_run_has_the_live_code_in_its_exit_code_map() {
    for jdk in jdks() {
        let out = out_dir("code-paused", &jdk);
        let (_, map) = bench_code_maps(&jdk, &out, ",start=paused");
        assert!(map.lines().any(|l| l.ends_with(" [j] calls.Bench.fib(int)")), "fib in the perf map");
        std::fs::remove_dir_all(&out).unwrap();
    }
}

/// Runs `java` (through `perf record` when `perf_data` is given) with `options` and returns its pid.
fn run_for_perf_map(jdk: &java_tests::Jdk, out: &std::path::Path, options: &str, perf_data: Option<&std::path::Path>) -> u32 {
    let java = command(jdk, "Straight", &format!("out={}{options}", out.display()), &[], &[]);
    let mut c = match perf_data {
        Some(data) => {
            let mut c = std::process::Command::new("perf");
            c.args(["record", "-q", "-o"]).arg(data).arg("--").arg(java.get_program()).args(java.get_args());
            c
        }
        None => java,
    };
    let output = c.output().expect("running java");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    // The JVM is perf's child; its pid is in the stderr line only with log=info, so read it back from
    // the reports.
    let threads: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(out.join("threads.json")).unwrap()).unwrap();
    threads["run"]["pid"].as_u64().unwrap() as u32
}

#[test]
fn perf_map_only_when_asked_or_under_perf_record() {
    let jdk = java_tests::jdk().unwrap();
    let out = out_dir("perf-map-auto", &jdk);
    // By default (perf-map=auto) a run outside perf leaves nothing in /tmp.
    let pid = run_for_perf_map(&jdk, &out, "", None);
    let map = format!("/tmp/perf-{pid}.map");
    let left = std::path::Path::new(&map).exists();
    let _ = std::fs::remove_file(&map);
    assert!(!left, "{map} written without perf-map=on or perf record");
    // Under `perf record` the map is written, so that perf can name JIT code.
    if std::process::Command::new("perf").arg("--version").output().is_err() {
        eprintln!("skipping the perf record half: no perf");
        return;
    }
    let data = out.join("perf.data");
    let pid = run_for_perf_map(&jdk, &out, "", Some(&data));
    let map = format!("/tmp/perf-{pid}.map");
    let written = std::fs::read_to_string(&map);
    let _ = std::fs::remove_file(&map);
    assert!(written.is_ok_and(|m| m.contains(" [j] ") || m.contains("Interpreter")), "no {map} under perf record");
    std::fs::remove_dir_all(&out).unwrap();
}

/// Sampling alone (`calls=none`) leaves the code map out, unless a perf map is asked for:
/// `perf-map=on` then keeps it, and the perf map names the JIT's code. With neither, code.txt
/// says the map is empty for want of code events instead of listing 0 entries without a word.
#[test]
fn a_sampling_only_run_writes_the_perf_map_it_is_asked_for() {
    for jdk in jdks() {
        let out = out_dir("code-calls-none", &jdk);
        let (code, map) = bench_code_maps(&jdk, &out, ",calls=none,sample=cpu");
        assert!(code.starts_with("Code map: ") && !code.starts_with("Code map: empty"), "{code}");
        assert!(map.lines().any(|l| l.ends_with(" [j] calls.Bench.fib(int)")), "fib in the perf map");
        std::fs::remove_dir_all(&out).unwrap();
        let r = run("code-calls-none-no-map", &jdk, "Bench", "calls=none,sample=cpu", &[], &["20", "1"]);
        r.assert_ok();
        assert!(r.file("code.txt").starts_with("Code map: empty (no code events"), "{}", r.file("code.txt"));
    }
}
