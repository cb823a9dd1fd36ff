//! The explorer page's trace data streamed from a trace directory (what the agent writes at exit,
//! `PageTrace::read`) equals the data of the same trace read whole (`PageTrace::of`), and the
//! stream (`quantum::Scan`) hands out what `read_dir` holds: the quanta in the trace's order, the
//! markers, the issues. Over random directories: one to three processors, quanta in and out of
//! order, overlapping threads, markers before the first quantum, padding, files cut short or
//! without an exit record, a missing meta file.

use std::path::Path;

use hpm_collectors::quantum::files::MetaFile;
use hpm_model::quantum::{self, encode, format, header, Entry, Meta, MethodInfo, QuantumRecord, Scan, ThreadInfo, ThreadKind};
use hpm_reports::explore::{self, PageTrace, Run};
use proptest::prelude::*;

#[derive(Debug, Clone)]
enum Rec {
    /// Thread, gap after the previous record's end (negative: starts before it ended), length,
    /// a delta, yielded.
    Quantum(u32, i64, u64, u64, bool),
    /// Time relative to the previous record's end (may be before it), text length.
    Marker(i64, usize),
    Padding(usize),
}

fn rec() -> impl Strategy<Value = Rec> {
    prop_oneof![
        8 => (1u32..5, -3i64..40, 0u64..30, 0u64..1000, any::<bool>()).prop_map(|(t, g, l, d, y)| Rec::Quantum(t, g, l, d, y)),
        2 => (-50i64..20, 0usize..12).prop_map(|(t, n)| Rec::Marker(t, n)),
        1 => (0usize..24).prop_map(Rec::Padding),
    ]
}

#[derive(Debug, Clone)]
struct File {
    vp: u32,
    start: u64,
    records: Vec<Rec>,
    exit: bool,
    /// Bytes cut off the end.
    cut: usize,
    /// The processor the header says, when not `vp`.
    header_vp: Option<u32>,
}

fn file() -> impl Strategy<Value = File> {
    (0u32..3, 0u64..100, prop::collection::vec(rec(), 0..30), prop::bool::weighted(0.85), prop_oneof![6 => Just(0usize), 1 => 1usize..20], prop_oneof![9 => Just(None), 1 => (3u32..5).prop_map(Some)])
        .prop_map(|(vp, start, records, exit, cut, header_vp)| File { vp, start, records, exit, cut, header_vp })
}

const COUNTERS: u32 = 2;

fn bytes_of(f: &File) -> Vec<u8> {
    let mut b = header(f.header_vp.unwrap_or(f.vp), COUNTERS).to_vec();
    let mut at = f.start;
    for (i, r) in f.records.iter().enumerate() {
        // Records of one buffer share a code; a new buffer every 8 records.
        let code = ((i / 8) % 2) as u8;
        match *r {
            Rec::Quantum(thread, gap, len, delta, yielded) => {
                let start = at.saturating_add_signed(gap);
                b.extend(encode(1, code, true, f.vp, format::QUANTUM).to_le_bytes());
                b.extend((if yielded { -(thread as i32) } else { thread as i32 }).to_le_bytes());
                b.extend(start.to_le_bytes());
                b.extend((start + len).to_le_bytes());
                b.extend((thread * 10).to_le_bytes());
                b.extend(0u32.to_le_bytes());
                b.extend(delta.to_le_bytes());
                b.extend((delta / 3).to_le_bytes());
                at = start + len;
            }
            Rec::Marker(dt, n) => {
                b.extend(encode(1, code, false, f.vp, format::NOTE).to_le_bytes());
                b.extend(at.saturating_add_signed(dt).to_le_bytes());
                b.extend((n as u32).to_le_bytes());
                b.extend((0..n).map(|k| b'a' + (k % 26) as u8));
            }
            Rec::Padding(n) => {
                b.extend(encode(0, code, false, f.vp, format::PADDING).to_le_bytes());
                b.extend((n as u32).to_le_bytes());
                b.extend(std::iter::repeat_n(0u8, n));
            }
        }
    }
    if f.exit {
        b.extend(encode(0, 0, false, f.vp, format::EXIT).to_le_bytes());
        b.extend(at.to_le_bytes());
        b.extend(0i32.to_le_bytes());
    }
    let keep = b.len().saturating_sub(f.cut).max(quantum::HEADER_LEN);
    b.truncate(keep);
    b
}

fn meta(missed: u64) -> Meta {
    Meta {
        counters: vec!["real-time".into(), "cpu-time".into(), "task-clock".into()],
        threads: vec![
            ThreadInfo { id: 1, kind: ThreadKind::App, name: "main".into() },
            ThreadInfo { id: 2, kind: ThreadKind::App, name: "worker".into() },
            // Thread 4 is left unnamed.
            ThreadInfo { id: 3, kind: ThreadKind::Collector, name: "gc".into() },
        ],
        methods: vec![MethodInfo { id: 10, class: "a/B".into(), name: "run".into(), descriptor: "()V".into() }],
        missed: vec![(0, missed)],
        ..Meta::default()
    }
}

fn write_dir(dir: &Path, files: &[File], meta: Option<&Meta>) {
    for f in files {
        std::fs::write(dir.join(format!("quantum.vp{}.trace", f.vp)), bytes_of(f)).unwrap();
    }
    if let Some(m) = meta {
        m.write(dir).unwrap();
    }
}

fn page_data(trace: PageTrace) -> String {
    explore::encode(&Run::of_trace("run", Some(trace)), None)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]
    #[test]
    fn a_streamed_trace_gives_what_the_trace_read_whole_gives(
        files in prop::collection::vec(file(), 1..4),
        with_meta in prop::bool::weighted(0.8),
        missed in 0u64..3,
    ) {
        let dir = tempfile::tempdir().unwrap();
        let meta = meta(missed);
        write_dir(dir.path(), &files, with_meta.then_some(&meta));
        let whole = quantum::read_dir(dir.path());
        let streamed = PageTrace::read("run", dir.path());
        match (&whole, streamed) {
            (Ok(trace), Ok(streamed)) => {
                prop_assert_eq!(page_data(streamed), page_data(PageTrace::of("run", trace)));
                // The stream itself, where it applies (quanta of each file in order of start).
                if let Some(scan) = Scan::open(dir.path()).unwrap() {
                    let mut quanta: Vec<QuantumRecord> = Vec::new();
                    if let Some(s) = scan.run(&mut |q| quanta.push(q.clone())).unwrap() {
                        let want: Vec<QuantumRecord> = trace.quanta().cloned().collect();
                        prop_assert_eq!(quanta, want);
                        let markers: Vec<_> = trace.merged().filter_map(|e| if let Entry::Marker(m) = e { Some(m.clone()) } else { None }).collect();
                        prop_assert_eq!(s.markers, markers);
                        prop_assert_eq!(s.issues, trace.issues.clone());
                        prop_assert_eq!(s.meta, trace.meta.clone());
                    }
                }
            }
            (Err(_), Err(_)) => {}
            (whole, streamed) => prop_assert!(false, "read whole: {:?}; streamed: {:?}", whole.as_ref().err(), streamed.err()),
        }
    }
}

/// Most directories of the property above are streamed (the rest fall back to reading whole):
/// a trace the agent writes, with quanta in order, is always streamed.
#[test]
fn a_trace_in_order_is_streamed() {
    let dir = tempfile::tempdir().unwrap();
    let files = [
        File { vp: 0, start: 10, records: vec![Rec::Marker(-5, 3), Rec::Quantum(1, 0, 20, 7, false), Rec::Quantum(3, 2, 5, 1, true)], exit: true, cut: 0, header_vp: None },
        File { vp: 1, start: 12, records: vec![Rec::Quantum(2, 0, 9, 4, false), Rec::Padding(8), Rec::Quantum(3, 20, 5, 1, false)], exit: true, cut: 0, header_vp: None },
    ];
    write_dir(dir.path(), &files, Some(&meta(0)));
    let scan = Scan::open(dir.path()).unwrap().expect("finished files are streamed");
    let mut starts = Vec::new();
    let s = scan.run(&mut |q| starts.push((q.vp, q.start))).unwrap().expect("quanta in order are streamed");
    assert_eq!(starts, [(0, 10), (1, 12), (0, 32), (1, 41)]);
    assert_eq!(s.markers.len(), 1);
    assert!(s.issues.iter().all(|i| i.severity == quantum::Severity::Warning), "{:?}", s.issues);
    // The marker at 5 comes before the first quantum: t0 is its time, and the starts count from it.
    let v: serde_json::Value = serde_json::from_str(&page_data(PageTrace::read("run", dir.path()).unwrap())).unwrap();
    assert_eq!(v["trace"]["t0"], 5);
    assert_eq!(explore::unpack(v["trace"]["start"].as_str().unwrap()).unwrap(), [5, 7, 27, 36]);
}
