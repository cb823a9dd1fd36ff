//! Mutation fuzzing of `hpm import`: a real JFR recording (JDK 17, profile settings) mutated with
//! a seeded generator (bit flips, runs of 0xff, random bytes, cuts). The JFR reader trusts the
//! counts and sizes a file gives, so a corrupt recording once made hpm print a Rust panic
//! ("capacity overflow") or abort on a stack overflow. Every run must now end with exit 0, or exit
//! 1 and exactly one `hpm: error:` line, within a bounded address space (the worker's RLIMIT_AS),
//! and in bounded time. HPM_FUZZ_SEED and HPM_FUZZ_CASES change the run.

mod common;

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use proptest::prelude::Rng;
use proptest::test_runner::{RngAlgorithm, TestRng};

/// A JFR recording of a small busy program, made once with the JDK the tests use.
fn recording(dir: &Path) -> Vec<u8> {
    let jdk = java_tests::jdk().expect("a JDK");
    let src = dir.join("Busy.java");
    std::fs::write(
        &src,
        "public class Busy {\n    static double f(int i) { return Math.sqrt(i) * 1.0001; }\n    public static void main(String[] a) {\n        double s = 0;\n        long end = System.nanoTime() + 1_000_000_000L;\n        while (System.nanoTime() < end) for (int i = 0; i < 100000; i++) s += f(i);\n        System.out.println(s > 0);\n    }\n}\n",
    )
    .unwrap();
    assert!(Command::new(jdk.javac()).arg("-d").arg(dir).arg(&src).status().unwrap().success());
    let jfr = dir.join("busy.jfr");
    let o = Command::new(jdk.java())
        .arg(format!("-XX:StartFlightRecording=filename={},settings=profile", jfr.display()))
        .arg("-cp")
        .arg(dir)
        .arg("Busy")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    std::fs::read(&jfr).unwrap()
}

fn mutate(rng: &mut TestRng, bytes: &mut Vec<u8>) -> Vec<String> {
    let mut done = Vec::new();
    for _ in 0..1 + rng.next_u32() % 3 {
        let len = bytes.len();
        let i = (rng.next_u64() % len as u64) as usize;
        match rng.next_u32() % 4 {
            0 => {
                bytes[i] ^= 1 << (rng.next_u32() % 8);
                done.push(format!("flip at {i}"));
            }
            1 => {
                let end = (i + 8).min(len);
                bytes[i..end].fill(0xff);
                done.push(format!("0xff x8 at {i}"));
            }
            2 => {
                bytes[i] = rng.next_u32() as u8;
                done.push(format!("byte at {i}"));
            }
            _ => {
                bytes.truncate(i);
                done.push(format!("cut at {i}"));
                break;
            }
        }
    }
    done
}

#[test]
fn hpm_import_survives_mutated_recordings() {
    let tmp = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let original = recording(tmp.path());
    let seed: u64 = std::env::var("HPM_FUZZ_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(20261128);
    let cases: usize = std::env::var("HPM_FUZZ_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(120);
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let mut rng = TestRng::from_seed(RngAlgorithm::ChaCha, &bytes);
    let (input, out) = (tmp.path().join("mutated.jfr"), tmp.path().join("out"));
    let mut refused = 0;
    for case in 0..cases {
        let mut b = original.clone();
        let done = mutate(&mut rng, &mut b);
        std::fs::write(&input, &b).unwrap();
        let _ = std::fs::remove_dir_all(&out);
        let started = Instant::now();
        // GNU time: the largest resident set of hpm and its worker.
        let o = Command::new("/usr/bin/time")
            .args(["-f", "maxrss-kb %M"])
            .arg(env!("CARGO_BIN_EXE_hpm"))
            .args(["import", input.to_str().unwrap(), "-o", out.to_str().unwrap()])
            .output()
            .expect("running hpm under /usr/bin/time");
        let what = format!("seed {seed}, case {case}, {done:?}");
        assert!(started.elapsed() < Duration::from_secs(60), "{what}: took {:?}", started.elapsed());
        let err = common::stderr(&o);
        let (rss, err) = err.trim_end().rsplit_once('\n').map_or((err.as_str(), ""), |(e, r)| (r, e));
        let rss_kb: u64 = rss.strip_prefix("maxrss-kb ").and_then(|v| v.trim().parse().ok()).unwrap_or_else(|| panic!("{what}: no maxrss in {rss}"));
        assert!(rss_kb < 2_200_000, "{what}: {rss_kb} kB resident");
        assert!(!err.contains("panicked") && !err.contains("fatal runtime error"), "{what}: {err}");
        match o.status.code() {
            Some(0) => {}
            Some(1) => {
                refused += 1;
                // (GNU time adds "Command exited with non-zero status 1".)
                let lines: Vec<&str> = err.lines().filter(|l| !l.starts_with("Command exited") && (!l.starts_with("hpm: ") || l.starts_with("hpm: error:"))).collect();
                assert_eq!(lines.len(), 1, "{what}: {err}");
                assert!(lines[0].starts_with("hpm: error: "), "{what}: {err}");
            }
            other => panic!("{what}: exit {other:?}: {err}"),
        }
    }
    assert!(refused > 0, "no mutation was refused: the fuzzing does not reach the reader");
}

/// An event whose size is 0 (seen in a mutated recording: the reader then gave the same event for
/// ever, and hpm import never ended): one `hpm: error:` line naming the event, at once.
#[test]
fn an_event_of_size_zero_is_refused_not_read_for_ever() {
    let tmp = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let mut bytes = recording(tmp.path());
    // The second event of the first chunk (at the start of the file), by the reader's own offsets
    // (from the chunk body, which follows the 68-byte chunk header).
    let offset = {
        let mut reader = jfrs::reader::JfrReader::new(std::io::Cursor::new(bytes.clone()));
        let (mut chunk_reader, chunk) = reader.chunks().next().expect("a chunk").expect("a readable chunk");
        let at = chunk_reader.events(&chunk).nth(1).expect("two events").expect("a readable event").byte_offset;
        at
    };
    // Its size is the first (compressed) integer of the event: 0.
    bytes[68 + offset as usize] = 0;
    let input = tmp.path().join("size0.jfr");
    std::fs::write(&input, &bytes).unwrap();
    let started = Instant::now();
    let o = Command::new(env!("CARGO_BIN_EXE_hpm")).args(["import", input.to_str().unwrap(), "-o"]).arg(tmp.path().join("out")).output().unwrap();
    let err = common::stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.trim().starts_with("hpm: error: ") && err.contains("does not move the reader past it") && err.trim().lines().count() == 1, "{err}");
    assert!(started.elapsed() < Duration::from_secs(20), "took {:?}", started.elapsed());
}
