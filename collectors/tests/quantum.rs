//! Quantum traces: writer → files → reader round trips, missed records, validation of bad files, and
//! a second reader written from `docs/quantum-trace.md` alone.

#[path = "support/doc_reader.rs"]
mod doc_reader;
use doc_reader::doc_reader;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

use hpm_collectors::quantum::files::{MetaFile, RunToDir};
use hpm_model::quantum::{
    self, read_dir, trace_file_name, Entry, MarkerKind, Meta, MethodInfo, Quantum, QuantumWriter, Severity, ThreadInfo, ThreadKind,
};

fn tmpdir(tag: &str) -> PathBuf {
    static N: AtomicU32 = AtomicU32::new(0);
    // Under the target directory: the test suite leaves nothing in /tmp.
    let d = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("hpm-quantum-{tag}-{}-{}", std::process::id(), N.fetch_add(1, Ordering::SeqCst)));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn meta(counters: &[&str], missed: Vec<(u32, u64)>) -> Meta {
    Meta {
        counters: counters.iter().map(|s| s.to_string()).collect(),
        time_unit: "ns".into(),
        processor_kind: String::new(),
        processors: Vec::new(),
        threads: vec![
            ThreadInfo { id: 1, kind: ThreadKind::App, name: "main".into() },
            ThreadInfo { id: 2, kind: ThreadKind::App, name: "Warehouse 1".into() },
            ThreadInfo { id: 3, kind: ThreadKind::Collector, name: "GC".into() },
            ThreadInfo { id: 4, kind: ThreadKind::Writer, name: "TraceWriter 0".into() },
            ThreadInfo { id: 5, kind: ThreadKind::Idle, name: "Idle".into() },
        ],
        methods: vec![MethodInfo { id: 7, class: "spec/jbb/Warehouse".into(), name: "run".into(), descriptor: "()V".into() }],
        missed,
    }
}

/// What a test wrote: (vp, record, deltas).
type Written = Vec<(u32, Quantum, Vec<u64>)>;

/// Records `n` quanta per processor on `vps` processors, each with a real trace-writer thread.
/// Records refused as missed are not kept (and counted).
fn write_trace(dir: &Path, vps: u32, n: u64, counters: usize) -> (Written, Vec<u64>) {
    let mut handles = Vec::new();
    for vp in 0..vps {
        let dir = dir.to_path_buf();
        handles.push(std::thread::spawn(move || {
            let (mut w, sink) = QuantumWriter::new(vp, counters);
            let writer = std::thread::spawn(move || sink.run_to_dir(&dir).unwrap());
            let mut kept = Vec::new();
            let mut marker_missed = 0;
            let mut t = 1_000 + vp as u64 * 7;
            for i in 0..n {
                // Threads 1..=5 rotate; vp 0 takes even ones, vp 1 odd ones, so no thread is on
                // both at once (a thread's records on different vps never overlap in time).
                let thread = ((i * 2 + vp as u64) % 5 + 1) as u32;
                let q = Quantum {
                    thread: thread * 10 + vp, // distinct per processor
                    local_tid: (thread * 10 + vp) as u16,
                    yielded: i % 3 == 0,
                    thread_switch: i % 4 != 0,
                    start: t,
                    end: t + 100 + i % 17,
                    callee: (i % 9) as u32,
                    caller: (i % 5) as u32 + 100,
                };
                let deltas: Vec<u64> = (0..counters as u64).map(|c| i * 1000 + c + u64::MAX / 2 * (c % 2)).collect();
                t = q.end + 3;
                if i == n / 2 {
                    // Retried until it fits (a missed marker counts as missed, too).
                    while !w.marker(MarkerKind::RunStart, 9, t, 42, "run ✓ 42") {
                        marker_missed += 1;
                        std::thread::sleep(std::time::Duration::from_micros(100));
                    }
                }
                if w.record(&q, &deltas) {
                    kept.push((vp, q, deltas));
                } else {
                    // Let the writer catch up (a VM would go on; the record stays missed).
                    std::thread::sleep(std::time::Duration::from_micros(50));
                }
                if i % 64 == 0 {
                    std::thread::yield_now();
                }
            }
            let stats = w.finish(t + 1, 3);
            writer.join().unwrap();
            (kept, stats.missed - marker_missed)
        }));
    }
    let mut all = Vec::new();
    let mut missed = Vec::new();
    for h in handles {
        let (k, m) = h.join().unwrap();
        all.extend(k);
        missed.push(m);
    }
    (all, missed)
}

#[test]
fn round_trip_two_processors_every_field_equal() {
    let dir = tmpdir("rt");
    let (written, missed) = write_trace(&dir, 2, 3000, 3);
    let m = meta(&["real-time", "cycles", "instructions", "task-clock"], missed.iter().enumerate().map(|(v, n)| (v as u32, *n)).collect());
    m.write(&dir).unwrap();
    assert!(dir.join("quantum.vp0.trace").exists() && dir.join("quantum.vp1.trace").exists());

    let t = read_dir(&dir).unwrap();
    assert_eq!(t.meta, m);
    assert!(t.is_valid(), "{:?}", t.issues);
    assert_eq!(t.vps.len(), 2);
    // The records of each processor come back in order with every field equal.
    for vp in 0..2u32 {
        let want: Vec<_> = written.iter().filter(|(v, _, _)| *v == vp).collect();
        let got: Vec<_> = t.vps[vp as usize]
            .entries
            .iter()
            .filter_map(|e| match e {
                Entry::Quantum(q) => Some(q),
                _ => None,
            })
            .collect();
        assert_eq!(got.len(), want.len(), "vp {vp}");
        assert!(got.len() as u64 + missed[vp as usize] == 3000);
        for (g, (_, q, d)) in got.iter().zip(&want) {
            assert_eq!(g.vp, vp);
            assert_eq!(g.thread, q.thread);
            assert_eq!(g.local_tid, q.local_tid);
            assert_eq!(g.yielded, q.yielded);
            assert_eq!(g.thread_switch, q.thread_switch);
            assert_eq!((g.start, g.end), (q.start, q.end));
            assert_eq!((g.callee, g.caller), (q.callee, q.caller));
            assert_eq!(g.deltas.as_slice(), d.as_slice());
        }
        // Both buffers were used (buffer codes 0 and 1 appear).
        assert!(got.iter().any(|g| g.buffer_code == 0) && got.iter().any(|g| g.buffer_code == 1));
        let markers: Vec<_> = t.vps[vp as usize].entries.iter().filter_map(|e| if let Entry::Marker(m) = e { Some(m) } else { None }).collect();
        assert_eq!(markers.len(), 1);
        assert_eq!((markers[0].kind, markers[0].run, markers[0].text.as_str(), markers[0].local_tid), (MarkerKind::RunStart, 42, "run ✓ 42", 9));
        assert!(matches!(t.vps[vp as usize].entries.last(), Some(Entry::Exit { value: 3, .. })));
    }
    // The merge is sorted by time and holds everything.
    assert_eq!(t.merged().len(), t.vps.iter().map(|v| v.entries.len()).sum::<usize>());
    assert!(t.merged().zip(t.merged().skip(1)).all(|(a, b)| a.time() <= b.time()));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn stalled_writer_counts_missed_records_and_never_blocks() {
    // 2 counters: 48-byte records. Buffer 0 holds the 32-byte header and then as many records as
    // fit, buffer 1 as many records as fit; 31 more are missed.
    let fit = ((quantum::BUFFER_LEN - 32) / 48 + quantum::BUFFER_LEN / 48) as u64;
    let (mut w, mut sink) = QuantumWriter::new(3, 2);
    let q = |i: u64| Quantum { thread: 1, local_tid: 1, yielded: false, thread_switch: true, start: i * 10, end: i * 10 + 5, callee: 0, caller: 0 };
    let mut ok = 0;
    for i in 0..fit + 31 {
        ok += w.record(&q(i), &[i, 2 * i]) as u64;
    }
    assert_eq!(ok, fit);
    assert_eq!(w.missed(), 31);
    // The writer catches up: both buffers are written and handed back; recording resumes.
    let mut out = Vec::new();
    assert!(!sink.write_pending(&mut out).unwrap());
    assert_eq!(out.len() as u64, 32 + fit * 48);
    let later = fit + 31;
    for i in later..later + 10 {
        assert!(w.record(&q(i), &[i, 2 * i]));
    }
    let stats = w.finish(5000 * fit, 0);
    assert_eq!((stats.records, stats.missed, stats.vp), (fit + 10, 31, 3));
    assert!(sink.write_pending(&mut out).unwrap(), "finished");
    let mut issues = Vec::new();
    let t = quantum::reader::parse_file(&out, "quantum.vp3.trace", PathBuf::new(), &mut issues).unwrap();
    assert!(issues.is_empty(), "{issues:?}");
    let starts: Vec<u64> = t.entries.iter().filter_map(|e| if let Entry::Quantum(q) = e { Some(q.start / 10) } else { None }).collect();
    let want: Vec<u64> = (0..fit).chain(later..later + 10).collect();
    assert_eq!(starts, want);

    // The meta file reports it, and the reader warns.
    let dir = tmpdir("missed");
    std::fs::write(dir.join(trace_file_name(3)), &out).unwrap();
    meta(&["real-time", "a", "b"], vec![(3, stats.missed)]).write(&dir).unwrap();
    let t = read_dir(&dir).unwrap();
    assert!(t.is_valid());
    let w: Vec<String> = t.issues.iter().map(|i| i.to_string()).collect();
    assert_eq!(w, vec!["warning: quantum.meta: processor 3: 31 record(s) missed (both buffers full, or lost when the file could not be written)".to_string()]);
    let _ = std::fs::remove_dir_all(&dir);
}

// ---- hand-built files, from the layout in docs/quantum-trace.md ----

fn header(vp: u32, counters: u32) -> Vec<u8> {
    let mut h = b"HPMQUANT".to_vec();
    h.extend_from_slice(&1u16.to_le_bytes());
    h.extend_from_slice(&[0x02, 0x01]);
    h.extend_from_slice(&vp.to_le_bytes());
    h.extend_from_slice(&counters.to_le_bytes());
    h.extend_from_slice(&1u32.to_le_bytes());
    h.extend_from_slice(&[0; 8]);
    h
}

fn rec(vp: u32, thread: i32, start: u64, end: u64, deltas: &[u64]) -> Vec<u8> {
    let word: u32 = ((thread.unsigned_abs() & 0xffff) << 16) | (1 << 14) | ((vp & 0x3ff) << 4) | 1;
    let mut r = word.to_le_bytes().to_vec();
    r.extend_from_slice(&thread.to_le_bytes());
    r.extend_from_slice(&start.to_le_bytes());
    r.extend_from_slice(&end.to_le_bytes());
    r.extend_from_slice(&5u32.to_le_bytes());
    r.extend_from_slice(&6u32.to_le_bytes());
    for d in deltas {
        r.extend_from_slice(&d.to_le_bytes());
    }
    r
}

fn exit(vp: u32, time: u64) -> Vec<u8> {
    let mut r = (((vp & 0x3ff) << 4) | 6).to_le_bytes().to_vec();
    r.extend_from_slice(&time.to_le_bytes());
    r.extend_from_slice(&0i32.to_le_bytes());
    r
}

fn dir_with(files: &[(u32, Vec<u8>)]) -> PathBuf {
    let dir = tmpdir("bad");
    for (vp, bytes) in files {
        std::fs::write(dir.join(trace_file_name(*vp)), bytes).unwrap();
    }
    meta(&["real-time", "cycles"], vec![]).write(&dir).unwrap();
    dir
}

fn errors(dir: &Path) -> Vec<String> {
    read_dir(dir).unwrap().issues.iter().filter(|i| i.severity == Severity::Error).map(|i| i.to_string()).collect()
}

#[test]
fn a_good_hand_built_file_is_valid() {
    let mut f = header(0, 1);
    f.extend(rec(0, 1, 100, 200, &[7]));
    f.extend(rec(0, -2, 200, 250, &[8]));
    f.extend(exit(0, 260));
    let dir = dir_with(&[(0, f)]);
    let t = read_dir(&dir).unwrap();
    assert!(t.issues.is_empty(), "{:?}", t.issues);
    let q: Vec<_> = t.quanta().collect();
    assert_eq!((q[1].thread, q[1].yielded, q[1].deltas.to_vec()), (2, true, vec![8]));
}

#[test]
fn validation_catches_a_truncated_file() {
    let mut f = header(0, 1);
    f.extend(rec(0, 1, 100, 200, &[7]));
    let second = f.len();
    f.extend(rec(0, 2, 200, 250, &[8]));
    f.truncate(f.len() - 5);
    let dir = dir_with(&[(0, f)]);
    assert_eq!(errors(&dir), vec![format!("error: quantum.vp0.trace at byte {second}: truncated quantum record: 35 of 40 bytes")]);
}

#[test]
fn validation_catches_non_monotonic_times_and_end_before_start() {
    let mut f = header(1, 1);
    f.extend(rec(1, 1, 100, 200, &[7]));
    let second = f.len();
    f.extend(rec(1, 2, 150, 250, &[8]));
    let third = f.len();
    f.extend(rec(1, 3, 300, 290, &[8]));
    f.extend(exit(1, 400));
    let dir = dir_with(&[(1, f)]);
    assert_eq!(
        errors(&dir),
        vec![
            format!("error: quantum.vp1.trace at byte {second}: times not monotonic: record of thread 2 starts at 150 before the previous record (byte 32) ended at 200"),
            format!("error: quantum.vp1.trace at byte {third}: record of thread 3 ends at 290 before it starts at 300"),
        ]
    );
}

#[test]
fn validation_catches_a_thread_on_two_processors_at_once() {
    let mut a = header(0, 1);
    a.extend(rec(0, 1, 100, 200, &[7]));
    a.extend(exit(0, 300));
    let mut b = header(1, 1);
    b.extend(rec(1, 2, 100, 150, &[7]));
    let off = b.len();
    b.extend(rec(1, -1, 150, 250, &[7])); // thread 1 again, while vp 0 still runs it until 200
    b.extend(exit(1, 300));
    let dir = dir_with(&[(0, a.clone()), (1, b)]);
    assert_eq!(
        errors(&dir),
        vec![format!("error: quantum.vp1.trace at byte {off}: thread 1 on processor 1 from 150 while it runs on processor 0 until 200 (quantum.vp0.trace at byte 32)")]
    );
    // Back to back (start == end on the other processor) is fine.
    let mut b = header(1, 1);
    b.extend(rec(1, 1, 200, 250, &[7]));
    b.extend(exit(1, 300));
    let dir = dir_with(&[(0, a), (1, b)]);
    assert!(errors(&dir).is_empty());
}

#[test]
fn bad_headers_and_meta_are_errors() {
    let mut f = header(0, 2); // meta says 1 counter
    f.extend(exit(0, 1));
    let dir = dir_with(&[(0, f)]);
    let e = read_dir(&dir).unwrap_err().to_string();
    assert_eq!(e, "quantum.vp0.trace: header has 2 counter(s) at byte 16, quantum.meta names 1");
    let dir = dir_with(&[(0, b"HPMQUANX".to_vec())]);
    assert!(read_dir(&dir).unwrap_err().to_string().contains("shorter than the 32-byte header"));
    let dir = dir_with(&[]);
    assert!(read_dir(&dir).unwrap_err().to_string().ends_with("no quantum.vp<N>.trace files"));
    assert!(Meta::parse("hpm-quantum-meta\t1\ncounters\t2\ncounter\t0\treal-time\n").unwrap_err().contains("declares 2 deltas"));
}

#[test]
fn a_reader_from_the_document_alone_agrees() {
    let dir = tmpdir("doc");
    let (written, _) = write_trace(&dir, 2, 700, 2);
    for vp in 0..2u32 {
        let mut bytes = std::fs::read(dir.join(trace_file_name(vp))).unwrap();
        if vp == 1 {
            // A padding record and an app-start marker, appended by hand, are read too.
            let exit_at = bytes.len() - 16;
            let tail = bytes.split_off(exit_at);
            bytes.extend_from_slice(&(((vp & 0x3ff) << 4) | 10).to_le_bytes());
            bytes.extend_from_slice(&3u32.to_le_bytes());
            bytes.extend_from_slice(&[0, 0, 0]);
            bytes.extend_from_slice(&(((vp & 0x3ff) << 4) | 2).to_le_bytes());
            bytes.extend_from_slice(&u64::MAX.to_le_bytes());
            bytes.extend_from_slice(&2u32.to_le_bytes());
            bytes.extend_from_slice(b"go");
            bytes.extend_from_slice(&(((vp & 0x3ff) << 4) | 7).to_le_bytes());
            bytes.extend_from_slice(&u64::MAX.to_le_bytes());
            bytes.extend_from_slice(&4u32.to_le_bytes());
            bytes.extend_from_slice(b"note");
            bytes.extend(tail);
        }
        let (hvp, quanta, markers) = doc_reader(&bytes);
        assert_eq!(hvp, vp);
        let want: Vec<_> = written.iter().filter(|(v, _, _)| *v == vp).collect();
        assert_eq!(quanta.len(), want.len());
        for (g, (_, q, d)) in quanta.iter().zip(&want) {
            let gid = if q.yielded { -(q.thread as i32) } else { q.thread as i32 };
            assert_eq!(g, &(q.local_tid as u32, gid, q.start, q.end, q.callee, q.caller, d.clone()));
        }
        let mut want_markers = vec![(4, "42:run ✓ 42".to_string())];
        if vp == 1 {
            want_markers.push((2, "go".into()));
            want_markers.push((7, "note".into()));
        }
        want_markers.push((6, "3".into()));
        assert_eq!(markers, want_markers);
        // The crate's reader agrees with the document's on the same bytes.
        let mut issues = Vec::new();
        let t = quantum::reader::parse_file(&bytes, "f", PathBuf::new(), &mut issues).unwrap();
        assert!(issues.is_empty());
        let ours: Vec<_> = t
            .entries
            .iter()
            .filter_map(|e| match e {
                Entry::Quantum(q) => {
                    Some((q.local_tid as u32, if q.yielded { -(q.thread as i32) } else { q.thread as i32 }, q.start, q.end, q.callee, q.caller, q.deltas.to_vec()))
                }
                _ => None,
            })
            .collect();
        assert_eq!(ours, quanta);
        let kinds: Vec<_> = t.entries.iter().filter_map(|e| if let Entry::Marker(m) = e { Some((m.kind, m.text.clone())) } else { None }).collect();
        assert_eq!(kinds.last().cloned(), Some(if vp == 1 { (MarkerKind::Note, "note".to_string()) } else { (MarkerKind::RunStart, "run ✓ 42".to_string()) }));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn validation_warns_about_a_missing_exit_and_unnamed_threads_and_catches_a_wrong_processor() {
    let mut f = header(0, 1);
    f.extend(rec(0, 1, 100, 200, &[7]));
    f.extend(rec(0, 99, 200, 250, &[8]));
    let dir = dir_with(&[(0, f.clone())]);
    let t = read_dir(&dir).unwrap();
    let got: Vec<String> = t.issues.iter().map(|i| i.to_string()).collect();
    assert_eq!(
        got,
        vec![
            format!("warning: quantum.vp0.trace at byte {}: no exit record: the writer did not finish (the VM may have crashed)", f.len()),
            "warning: quantum.meta: thread id(s) 99 are not named".to_string(),
        ]
    );
    assert!(t.is_valid());
    let mut g = header(0, 1);
    g.extend(rec(5, 1, 100, 200, &[7])); // encoding word says processor 5
    g.extend(exit(0, 300));
    let dir = dir_with(&[(0, g)]);
    assert_eq!(errors(&dir), vec!["error: quantum.vp0.trace at byte 32: encoding word says processor 5, the header says 0".to_string()]);
}

#[test]
fn meta_round_trips_names_with_tabs_and_spaces() {
    let mut m = meta(&["real-time", "cycles"], vec![(0, 4), (1, 0)]);
    m.threads.push(ThreadInfo { id: 9, kind: ThreadKind::System, name: "Compiler\tThread 0".into() });
    let back = Meta::parse(&m.to_text()).unwrap();
    assert_eq!(back.thread(9).unwrap().name, "Compiler Thread 0");
    assert_eq!(back.thread(2).unwrap().name, "Warehouse 1");
    assert_eq!(back.method(7).unwrap().descriptor, "()V");
    assert_eq!((back.counters.clone(), back.missed.clone()), (m.counters.clone(), m.missed.clone()));
    assert!(m.to_text().starts_with("hpm-quantum-meta\t1\nbyte-order\tlittle\ntime-unit\tns\ncounters\t1\ncounter\t0\treal-time\ncounter\t1\tcycles\n"));
}
