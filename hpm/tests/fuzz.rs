//! Mutation fuzzing of `hpm report`, `hpm report --trace` and `hpm trace`: valid inputs written by
//! the code under test are mutated (bit flips, cuts, inserted and deleted runs, huge numbers, deep
//! nesting) with a seeded generator, and the built `hpm` must never panic or abort: exit 0 or 1,
//! and an error is one line `hpm: error: …`. A failure names the seed, the case and the mutations;
//! HPM_FUZZ_SEED and HPM_FUZZ_CASES change the run. Every file input of `hpm` (those and `hpm
//! export`, `hpm explore`) is also given special files (/dev/zero, a FIFO, a loop of links, a
//! directory for a file and a file for a directory, and such files inside the directories read),
//! which it must refuse quickly, by name and in bounded memory.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

use common::hpm;
use hpm_collectors::quantum::files::{MetaFile, RunToDir};
use hpm_model::quantum::{MarkerKind, Meta, Quantum, QuantumWriter, ThreadInfo, ThreadKind};
use proptest::prelude::Rng;
use proptest::test_runner::{RngAlgorithm, TestRng};

/// A seeded generator (proptest's, ChaCha), so that a failure can be replayed.
fn rng(seed: u64) -> TestRng {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    TestRng::from_seed(RngAlgorithm::ChaCha, &bytes)
}

/// A number below `n` (0 when `n` is 0).
fn below(rng: &mut TestRng, n: usize) -> usize {
    (rng.next_u64() % n.max(1) as u64) as usize
}

/// Numbers at the edges of the reader's types.
const BIG: [&str; 8] =
    ["18446744073709551615", "18446744073709551616", "99999999999999999999999999", "-1", "0", "4294967295", "9223372036854775808", "1e308"];

/// Applies one to three random mutations to `bytes`; returns what was done.
fn mutate(rng: &mut TestRng, bytes: &mut Vec<u8>) -> Vec<String> {
    let mut done = Vec::new();
    for _ in 0..1 + below(rng, 3) {
        let len = bytes.len();
        match below(rng, 7) {
            0 if len > 0 => {
                let (i, bit) = (below(rng, len), below(rng, 8));
                bytes[i] ^= 1 << bit;
                done.push(format!("flip bit {bit} of byte {i}"));
            }
            1 => {
                let cut = below(rng, len + 1);
                bytes.truncate(cut);
                done.push(format!("cut at {cut}"));
            }
            2 => {
                // A run of digits replaced by a number at the edge of u32/u64.
                let starts: Vec<usize> = (0..len).filter(|&i| bytes[i].is_ascii_digit() && (i == 0 || !bytes[i - 1].is_ascii_digit())).collect();
                if let Some(&s) = starts.get(below(rng, starts.len())) {
                    let e = (s..len).find(|&i| !bytes[i].is_ascii_digit()).unwrap_or(len);
                    let big = BIG[below(rng, BIG.len())];
                    bytes.splice(s..e, big.bytes());
                    done.push(format!("number at {s} -> {big}"));
                }
            }
            3 if len >= 8 => {
                let i = below(rng, len - 7);
                let v = [u64::MAX, u64::MAX - 1, 1 << 63, u32::MAX as u64, rng.next_u64()][below(rng, 5)];
                bytes[i..i + 8].copy_from_slice(&v.to_le_bytes());
                done.push(format!("u64 {v} at {i}"));
            }
            4 if len > 0 => {
                let (s, n) = (below(rng, len), 1 + below(rng, 64));
                let run: Vec<u8> = bytes[s..(s + n).min(len)].to_vec();
                let at = below(rng, len + 1);
                let times = 1 + below(rng, 50);
                for _ in 0..times {
                    bytes.splice(at..at, run.iter().copied());
                }
                done.push(format!("{times} copies of {s}..+{n} at {at}"));
            }
            5 if len > 0 => {
                let (s, n) = (below(rng, len), 1 + below(rng, 256));
                let e = (s + n).min(len);
                bytes.drain(s..e);
                done.push(format!("delete {s}..{e}"));
            }
            _ => {
                let i = below(rng, len + 1);
                let junk: Vec<u8> = (0..1 + below(rng, 16)).map(|_| rng.next_u64() as u8).collect();
                bytes.splice(i..i, junk.iter().copied());
                done.push(format!("{} random bytes at {i}", junk.len()));
            }
        }
    }
    done
}


/// No panic, no abort, exit 0 or 1, and a failure is one `hpm: error:` line.
fn check(o: &Output, what: &str) {
    let err = String::from_utf8_lossy(&o.stderr);
    let short = |s: &str| s.chars().take(2000).collect::<String>();
    assert!(o.status.code().is_some(), "{what}: killed by a signal ({:?}): {}", o.status, short(&err));
    assert!(!err.contains("panicked"), "{what}: panicked: {}", short(&err));
    let code = o.status.code().unwrap();
    assert!(code == 0 || code == 1, "{what}: exit {code}: {}", short(&err));
    for line in err.lines() {
        assert!(line.starts_with("hpm: warning: ") || line.starts_with("hpm: note: ") || line.starts_with("hpm: error: "), "{what}: stray stderr line: {}", short(line));
        assert!(line.chars().count() < 2000, "{what}: a {}-character message: {}…", line.chars().count(), short(line));
    }
    let errors = err.lines().filter(|l| l.starts_with("hpm: error: ")).count();
    assert_eq!(errors, (code == 1) as usize, "{what}: exit {code} with {errors} error line(s): {}", short(&err));
}

fn s(p: &Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

/// The seed and the number of cases per input kind (HPM_FUZZ_SEED, HPM_FUZZ_CASES).
fn settings() -> (u64, usize) {
    let var = |n: &str| std::env::var(n).ok().and_then(|v| v.parse().ok());
    (var("HPM_FUZZ_SEED").unwrap_or(0x5eed_1234_abcd_0001), var("HPM_FUZZ_CASES").unwrap_or(300) as usize)
}

/// A text trace `depth` calls deep on two threads, with a switch in the middle.
fn deep_text_trace(depth: usize) -> String {
    let mut t = String::from("0 0 pidtid main\n");
    for d in 0..depth {
        t.push_str(&format!("{d} {} > f{}\n", 2 * d, d % 5));
    }
    t.push_str("7 7 pidtid worker\n7 7 > w\n9 9 < w\n");
    t.push_str(&format!("{depth} {} pidtid main\n", 2 * depth));
    for d in (0..depth).rev() {
        t.push_str(&format!("{} {} < f{}\n", 2 * depth - d, 4 * depth - d, d % 5));
    }
    t
}

/// Valid text traces and the arcflow.json files `hpm report` writes for them.
fn report_inputs(dir: &Path) -> (Vec<Vec<u8>>, Vec<Vec<u8>>) {
    let texts = vec![include_bytes!("../../examples/figure2.trace").to_vec(), deep_text_trace(3000).into_bytes()];
    let mut jsons = Vec::new();
    for (i, t) in texts.iter().enumerate() {
        let trace = dir.join(format!("valid{i}.trace"));
        std::fs::write(&trace, t).unwrap();
        let out = dir.join(format!("valid{i}"));
        let o = hpm(&["report", "--trace", s(&trace), "--out", s(&out), "--format", "json", "--metric-name", "time:ns", "--metric-name", "misses"]);
        assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
        jsons.push(std::fs::read(out.join("arcflow.json")).unwrap());
    }
    (texts, jsons)
}

#[test]
fn hpm_report_survives_mutated_traces_and_json() {
    let (seed, cases) = settings();
    let tmp = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let (texts, jsons) = report_inputs(tmp.path());
    let out = tmp.path().join("out");
    let input = tmp.path().join("input");
    let mut rng = rng(seed);
    for case in 0..cases {
        // Text traces through --trace.
        let mut bytes = texts[below(&mut rng, texts.len())].clone();
        let done = mutate(&mut rng, &mut bytes);
        std::fs::write(&input, &bytes).unwrap();
        let depth = ["0", "512", "3"][below(&mut rng, 3)];
        let o = hpm(&["report", "--trace", s(&input), "--out", s(&out), "--max-stack-depth", depth, "--metric", "1", "--per-thread"]);
        check(&o, &format!("seed {seed:#x} case {case}: report --trace after {done:?}"));

        // arcflow.json, re-rendered.
        let mut bytes = jsons[below(&mut rng, jsons.len())].clone();
        let mut done = mutate(&mut rng, &mut bytes);
        if below(&mut rng, 10) == 0 {
            // Deep nesting: the children arrays wrapped in many more levels.
            let levels = 10 + below(&mut rng, 5000);
            let text = String::from_utf8_lossy(&bytes).replacen("\"children\":[", &format!("\"children\":{}", "[".repeat(levels)), 1);
            bytes = text.into_bytes();
            done.push(format!("{levels} nested arrays"));
        }
        std::fs::write(&input, &bytes).unwrap();
        let o = hpm(&["report", s(&input), "--out", s(&out), "--prune", "0.01", "--max-stack-depth", depth]);
        check(&o, &format!("seed {seed:#x} case {case}: report JSON after {done:?}"));
    }
}

fn write_vp(dir: &Path, vp: u32, threads: &[u32]) {
    let (mut w, sink) = QuantumWriter::new(vp, 2);
    let d = dir.to_path_buf();
    let writer = std::thread::spawn(move || sink.run_to_dir(&d).unwrap());
    let mut t = 0;
    for (i, &thread) in threads.iter().cycle().take(120).enumerate() {
        if i % 97 == 5 {
            assert!(w.marker([MarkerKind::AppStart, MarkerKind::RunStart, MarkerKind::Note][i % 3], thread as u16, t, i as u32, "phase"));
        }
        let q = Quantum { thread, local_tid: thread as u16, yielded: i % 3 == 0, thread_switch: true, start: t, end: t + 10 + i as u64, callee: 1, caller: 2 };
        assert!(w.record(&q, &[100 + i as u64, 50]));
        t += 20 + i as u64;
    }
    w.finish(t, 0);
    writer.join().unwrap();
}

fn quantum_trace(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    write_vp(dir, 0, &[1, 2, 3]);
    write_vp(dir, 1, &[4, 5]);
    Meta {
        counters: vec!["real-time".into(), "cycles".into(), "instructions".into()],
        time_unit: "ns".into(),
        processor_kind: String::new(),
        processors: Vec::new(),
        threads: (1..=5).map(|id| ThreadInfo { id, kind: [ThreadKind::App, ThreadKind::Collector, ThreadKind::Idle][id as usize % 3], name: format!("t{id}") }).collect(),
        methods: vec![],
        missed: vec![(0, 0), (1, 3)],
    }
    .write(dir)
    .unwrap();
    ["quantum.vp0.trace", "quantum.vp1.trace", "quantum.meta"].iter().map(|f| (dir.join(f), std::fs::read(dir.join(f)).unwrap())).collect()
}

#[test]
fn hpm_trace_survives_mutated_quantum_traces() {
    let (seed, cases) = settings();
    let tmp = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let files = quantum_trace(tmp.path());
    let mut rng = rng(seed ^ 0x9e37_79b9_7f4a_7c15);
    for case in 0..cases {
        let (path, valid) = &files[below(&mut rng, files.len())];
        let mut bytes = valid.clone();
        let done = mutate(&mut rng, &mut bytes);
        // Sometimes as the temporary file of a killed run instead.
        let temporary = path.extension().is_some_and(|e| e == "trace") && below(&mut rng, 4) == 0;
        let written = if temporary {
            std::fs::remove_file(path).unwrap();
            tmp.path().join(format!(".{}.77.tmp", path.file_name().unwrap().to_str().unwrap()))
        } else {
            path.clone()
        };
        std::fs::write(&written, &bytes).unwrap();
        let mode = ["--text", "--csv", "--json"][below(&mut rng, 3)];
        let args: Vec<&str> = if mode == "--text" { vec!["trace", s(tmp.path())] } else { vec!["trace", mode, s(tmp.path())] };
        let o = hpm(&args);
        check(&o, &format!("seed {seed:#x} case {case}: trace {mode} with {} after {done:?}", written.display()));
        if temporary {
            std::fs::remove_file(&written).unwrap();
        }
        std::fs::write(path, valid).unwrap();
    }
}

/// What a special input must give: exit 1 with one line `hpm: error: …` naming what the input is
/// (no panic, no other line), within `SPECIAL_SECONDS`, with hpm's peak resident memory below
/// `SPECIAL_RSS_KB` (hpm alone takes about 10 MB; an input read without bound takes all it can
/// get) and its address space limited to `SPECIAL_MEMORY`, so that a regression fails here rather
/// than on the machine.
const SPECIAL_SECONDS: u64 = 10;
const SPECIAL_MEMORY: u64 = 1 << 30;
const SPECIAL_RSS_KB: u64 = 100 << 10;

/// Runs the built `hpm` with `args` under `prlimit --as` and `/usr/bin/time`, killed after
/// `SPECIAL_SECONDS`; returns its output, its peak resident memory in KiB (when it ended on its
/// own) and whether it ran out of time.
fn hpm_bounded(args: &[&str], rss_file: &Path) -> (Output, Option<u64>, bool) {
    use std::io::Read;
    use std::os::unix::process::CommandExt;
    let tool = |names: [&'static str; 2], why: &str| names.into_iter().find(|p| Path::new(p).exists()).unwrap_or_else(|| panic!("{} is needed {why}", names[0]));
    let prlimit = tool(["/usr/bin/prlimit", "/bin/prlimit"], "(util-linux) to bound hpm's memory");
    let time = tool(["/usr/bin/time", "/bin/time"], "(Debian package time) to measure hpm's peak memory");
    let _ = std::fs::remove_file(rss_file);
    let mut child = std::process::Command::new(prlimit)
        .arg(format!("--as={SPECIAL_MEMORY}"))
        .args(["--", time, "-f", "%M", "-o"])
        .arg(rss_file)
        .arg(env!("CARGO_BIN_EXE_hpm"))
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .process_group(0)
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    let mut late = false;
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > std::time::Duration::from_secs(SPECIAL_SECONDS) {
            // `time` forked hpm: its whole process group goes.
            let _ = std::process::Command::new("kill").args(["-KILL", "--", &format!("-{}", child.id())]).status();
            let _ = child.kill();
            late = true;
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let status = child.wait().unwrap();
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    child.stdout.take().unwrap().read_to_end(&mut stdout).unwrap();
    child.stderr.take().unwrap().read_to_end(&mut stderr).unwrap();
    let rss = std::fs::read_to_string(rss_file).ok().and_then(|t| t.lines().last()?.trim().parse().ok());
    // `time` adds a line of its own when the command did not exit 0.
    let stderr = String::from_utf8_lossy(&stderr).lines().filter(|l| !l.starts_with("Command exited with non-zero status")).map(|l| format!("{l}\n")).collect::<String>().into_bytes();
    (Output { status, stdout, stderr }, rss, late)
}

#[test]
fn every_hpm_input_refuses_special_files_quickly_in_bounded_memory() {
    let tmp = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let d = tmp.path();
    let mkfifo = |p: &Path| assert!(std::process::Command::new("mkfifo").arg(p).status().expect("mkfifo").success());
    let fifo = d.join("fifo");
    mkfifo(&fifo);
    let looped = d.join("loop-a");
    std::os::unix::fs::symlink(d.join("loop-b"), &looped).unwrap();
    std::os::unix::fs::symlink(&looped, d.join("loop-b")).unwrap();
    let a_dir = d.join("a-dir");
    std::fs::create_dir(&a_dir).unwrap();
    let a_file = d.join("a-file");
    std::fs::write(&a_file, "0 0 pidtid main\n").unwrap();
    // Directories with a FIFO, or a link to /dev/zero, under the name of a file read there.
    let special_dir = |name: &str, file: &str, fifo_there: bool| {
        let dir = d.join(name);
        std::fs::create_dir(&dir).unwrap();
        match fifo_there {
            true => mkfifo(&dir.join(file)),
            false => std::os::unix::fs::symlink("/dev/zero", dir.join(file)).unwrap(),
        }
        dir
    };
    let zero = Path::new("/dev/zero").to_path_buf();
    let json_fifo = special_dir("json-fifo", "arcflow.json", true);
    let json_zero = special_dir("json-zero", "arcflow.json", false);
    let meta_fifo = special_dir("meta-fifo", "quantum.meta", true);
    let meta_zero = special_dir("meta-zero", "quantum.meta", false);
    let vp_fifo = special_dir("vp-fifo", "quantum.vp0.trace", true);
    let vp_zero = special_dir("vp-zero", "quantum.vp0.trace", false);
    let out = d.join("out");
    // Each input and what the error line must call it.
    let named = |p: &PathBuf, what: &str| (p.clone(), format!("{} is {what}", p.display()));
    let specials = [named(&zero, "a character device"), named(&fifo, "a FIFO"), named(&looped, "a loop of symbolic links")];
    let in_json = [named(&json_fifo.join("arcflow.json"), "a FIFO"), named(&json_zero.join("arcflow.json"), "a character device")];
    let mut profile_inputs: Vec<(PathBuf, String)> = specials.to_vec();
    profile_inputs.extend([(json_fifo.clone(), in_json[0].1.clone()), (json_zero.clone(), in_json[1].1.clone())]);
    let in_trace = [
        (meta_fifo.clone(), named(&meta_fifo.join("quantum.meta"), "a FIFO").1),
        (meta_zero.clone(), named(&meta_zero.join("quantum.meta"), "a character device").1),
        (vp_fifo.clone(), named(&vp_fifo.join("quantum.vp0.trace"), "a FIFO").1),
        (vp_zero.clone(), named(&vp_zero.join("quantum.vp0.trace"), "a character device").1),
    ];
    let mut cases: Vec<(Vec<String>, String)> = Vec::new();
    let mut case = |args: &[&str], said: &str| cases.push((args.iter().map(|a| a.to_string()).collect(), said.to_string()));
    for (p, said) in &profile_inputs {
        case(&["report", s(p), "--out", s(&out)], said);
        case(&["export", "pprof", s(p), "-o", s(&out.join("p.pb.gz"))], said);
        case(&["explore", s(p), "-o", s(&out.join("e.html"))], said);
    }
    for (p, said) in specials.iter().chain([&named(&a_dir, "a directory, not a file")]) {
        case(&["report", "--trace", s(p), "--out", s(&out)], said);
    }
    for (p, said) in specials.iter().chain([&named(&a_file, "a regular file, not a directory")]).chain(&in_trace) {
        case(&["trace", s(p)], said);
        case(&["export", "chrome-trace", s(p), "-o", s(&out.join("t.json"))], said);
    }
    for (p, said) in &in_trace[2..] {
        case(&["explore", s(p), "-o", s(&out.join("e.html"))], said);
    }
    let rss_file = d.join("rss");
    for (args, said) in &cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let what = format!("hpm {}", args.join(" "));
        let (o, rss, late) = hpm_bounded(&args, &rss_file);
        assert!(!late, "{what}: still running after {SPECIAL_SECONDS} s");
        check(&o, &what);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{what}: {err}");
        let rss = rss.unwrap_or_else(|| panic!("{what}: no peak memory measured"));
        assert!(rss < SPECIAL_RSS_KB, "{what}: {rss} KiB resident at the peak");
        assert!(err.starts_with(&format!("hpm: error: {said}")), "{what}: the error must say `{said}`: {err}");
    }
}
