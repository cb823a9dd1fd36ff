//! The code map and /tmp/perf-<pid>.map on a real JVM.

mod common;
use common::*;

#[test]
fn code_map_and_perf_map_name_jit_code() {
    for jdk in jdks() {
        let out = out_dir("code", &jdk);
        // Paused: method events off, so the JIT compiles fib as usual.
        let child = command(&jdk, "Bench", &format!("out={},start=paused", out.display()), &[], &["27", "20"])
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
        // fib's compiled code has add() inlined (HotSpot's inlining records, jvmticmlr.h).
        assert!(
            code.lines().any(|l| l.contains("calls.Bench.fib(int) [inlined: ") && l.contains("calls.Bench.add(int,int)")),
            "inlining records: {code}"
        );
        let map_path = format!("/tmp/perf-{pid}.map");
        let map = std::fs::read_to_string(&map_path).unwrap();
        let _ = std::fs::remove_file(&map_path);
        let fib = map.lines().find(|l| l.ends_with(" [j] calls.Bench.fib(int)")).expect("fib in the perf map");
        // "START SIZE name", hex.
        let f: Vec<&str> = fib.split(' ').collect();
        assert!(u64::from_str_radix(f[0], 16).unwrap() > 0 && u64::from_str_radix(f[1], 16).unwrap() > 0, "{fib}");
    }
}
