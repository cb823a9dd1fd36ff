//! The pseudojbb-like workload gives HotSpot's output (per-warehouse summaries and checksums) on
//! rvm with any number of virtual processors, and allocates enough for several collections.

use std::process::Command;

fn output(cmd: &mut Command) -> (String, String, i32) {
    let o = cmd.output().expect("run");
    (String::from_utf8_lossy(&o.stdout).into_owned(), String::from_utf8_lossy(&o.stderr).into_owned(), o.status.code().unwrap_or(-1))
}

#[test]
fn pseudojbb_matches_hotspot_on_any_number_of_processors() {
    let dir = java_tests::compile("workloads").expect("compile workloads");
    let jdk = java_tests::jdk().expect("JDK");
    let args = ["pseudojbb.PseudoJbb", "3", "6000"];
    let (expected, err, code) = output(Command::new(jdk.java()).arg("-Xmx24m").arg("-cp").arg(&dir).args(args));
    assert_eq!(code, 0, "{err}");
    assert!(expected.contains("transactions 18000 checksum"), "{expected}");
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    for vps in [1, 2, cores * 2 + 1] {
        let (got, err, code) = output(
            Command::new(env!("CARGO_BIN_EXE_rvm"))
                .arg(format!("-Xvps:{vps}"))
                .args(["-Xmx24m", "-verbose:gc", "-cp"])
                .arg(&dir)
                .args(args),
        );
        assert_eq!(code, 0, "-Xvps:{vps}: {err}");
        assert_eq!(expected, got, "-Xvps:{vps}");
        let gcs = err.lines().filter(|l| l.starts_with("[GC #")).count();
        assert!(gcs >= 3, "-Xvps:{vps}: only {gcs} collections");
    }
}
