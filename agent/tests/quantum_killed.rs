//! A research-VM run with `quantum` killed with SIGKILL leaves only the temporary trace files
//! `.quantum.vp<N>.trace.<pid>.tmp`; the validating reader (that of `hpm trace`) recovers their
//! complete buffers and says what is missing.

mod common;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::*;
use hpm_model::quantum::{read_dir, Severity};

#[test]
fn the_complete_buffers_of_a_killed_run_are_recovered() {
    let classes = java_tests::compile("workloads").expect("compiling java-tests/workloads");
    let tmp = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let out = tmp.path().join("trace");
    // A 1 ms quantum with a record at every tick fills buffers fast; the run is far longer than
    // the test waits.
    let mut child = Command::new(rvm())
        .args(["-Xvps:2", "-Xquantum:1", "-Xmx24m"])
        .arg(format!("-agentpath:{}=out={},socket=off,quantum=tick,collect=gc", agent_lib().display(), out.display()))
        .arg("-cp")
        .arg(&classes)
        .args(["pseudojbb.PseudoJbb", "3", "100000000"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("running rvm");
    let pid = child.id();
    let temporary = |vp: u32| out.join(format!(".quantum.vp{vp}.trace.{pid}.tmp"));
    let deadline = Instant::now() + Duration::from_secs(60);
    // Until each processor's trace writer has written a few buffers.
    while (0..2).any(|vp| std::fs::metadata(temporary(vp)).map_or(0, |m| m.len()) < 3 * 4096) {
        assert!(Instant::now() < deadline, "rvm wrote no full buffers in 60 s");
        assert!(child.try_wait().unwrap().is_none(), "rvm ended early");
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(!out.join("quantum.meta").exists() && !out.join("quantum.vp0.trace").exists(), "a killed run renamed nothing");
    // A processor killed before it wrote anything leaves an empty temporary file: the others'
    // records are still read, and the empty one is named.
    std::fs::write(temporary(2), b"").unwrap();

    let trace = read_dir(&out).expect("reading the temporary files");
    let issues: Vec<String> = trace.issues.iter().map(|i| i.to_string()).collect();
    assert!(trace.is_valid(), "{issues:#?}");
    assert_eq!(trace.vps.len(), 2, "{issues:#?}");
    for vp in 0..2 {
        let file = temporary(vp).file_name().unwrap().to_string_lossy().into_owned();
        let said = |what: &str| issues.iter().any(|i| i.starts_with(&format!("warning: {file}")) && i.contains(what));
        assert!(said("recovered from the temporary file of a run that did not finish"), "{issues:#?}");
        assert!(said("no exit record"), "{issues:#?}");
        assert!(trace.vps[vp as usize].entries.len() >= 3 * 84, "vp {vp}: {} records", trace.vps[vp as usize].entries.len());
    }
    assert!(issues.iter().any(|i| i.starts_with("warning: quantum.meta: missing")), "{issues:#?}");
    let empty = temporary(2).file_name().unwrap().to_string_lossy().into_owned();
    assert!(
        issues.iter().any(|i| i.starts_with(&format!("warning: {empty}: not read (0 bytes, shorter than the 32-byte header)")) && i.contains("processor 2")),
        "{issues:#?}"
    );
    assert!(trace.issues.iter().all(|i| i.severity == Severity::Warning));
    assert_eq!(trace.meta.counters[0], "real-time");
}
