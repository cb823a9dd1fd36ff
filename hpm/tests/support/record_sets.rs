//! Quantum traces for the tests of record sets (`hpm trace --where/--stats/--compare` and the
//! explorer's sets), written with the collectors' `QuantumWriter` as the agent writes them, and
//! the expected sets, statistics and rankings computed here from the same records, independently
//! of `hpm_reports::quantum::sets` and of the page (included with `#[path]`).
#![allow(dead_code)]

use std::path::Path;

use hpm_collectors::quantum::files::{MetaFile, RunToDir};
use hpm_model::quantum::{Meta, MethodInfo, Quantum, QuantumWriter, ThreadInfo, ThreadKind};

/// One record as written.
#[derive(Debug, Clone)]
pub struct Rec {
    pub vp: u32,
    pub thread: u32,
    pub start: u64,
    pub end: u64,
    pub callee: u32,
    pub cycles: u64,
    pub instructions: u64,
    pub misses: u64,
}

pub const COUNTERS: [&str; 4] = ["real-time", "cycles", "instructions", "cache-misses"];
/// The metrics the page and `hpm trace` compute for these counters, in their order.
pub const METRICS: [&str; 6] = ["real-time", "cycles", "instructions", "cache-misses", "IPC", "cache-misses/Kinstr"];
/// (id, class, method, IPC, misses per 1000 instructions).
pub const METHODS: [(u32, &str, &str, f64, f64); 4] =
    [(1, "app/Hot", "spin", 2.0, 1.0), (2, "app/Mem", "scan", 0.3, 40.0), (3, "app/Io", "read", 1.0, 3.0), (4, "app/Main", "loop", 1.2, 2.0)];

/// The page's name of a method id.
pub fn method_name(id: u32) -> Option<String> {
    METHODS.iter().find(|m| m.0 == id).map(|m| format!("{}.{}", m.1.replace('/', "."), m.2))
}

struct Lcg(u64);
impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// The records of two processors, 300 each: the application threads `main` (processor 0) and
/// `worker` (processor 1) run one of four top methods, with `mem` the chance of `app.Mem.scan`
/// (low IPC, many cache misses); a collector thread and an idle thread per processor run
/// without one.
pub fn records(seed: u64, mem: f64) -> Vec<Rec> {
    let mut r = Lcg(seed);
    let mut out = Vec::new();
    for vp in 0..2u32 {
        let mut t = 1_000 + vp as u64 * 7;
        for _ in 0..300 {
            let dur = 20_000 + r.next(2_000_000);
            let roll = r.next(100);
            let (thread, callee, ipc, mpk) = if roll < 10 {
                (3 + 2 * vp, 0, 0.8, 5.0)
            } else if roll < 25 {
                (4 + 2 * vp, 0, 0.1, 0.5)
            } else {
                let m = if (r.next(1000) as f64) < mem * 1000.0 { 1 } else { [0, 2, 3][r.next(3) as usize] };
                let (id, _, _, ipc, mpk) = METHODS[m];
                (1 + vp, id, ipc, mpk)
            };
            let cycles = dur * 2 + r.next(1000);
            // ±20% around the method's IPC and miss rate.
            let jitter = 0.8 + r.next(400) as f64 / 1000.0;
            let instructions = (cycles as f64 * ipc * jitter) as u64;
            let misses = (instructions as f64 / 1000.0 * mpk * (0.8 + r.next(400) as f64 / 1000.0)) as u64;
            out.push(Rec { vp, thread, start: t, end: t + dur, callee, cycles, instructions, misses });
            t += dur + r.next(5_000);
        }
    }
    out
}

/// Writes `records` as a trace directory (`quantum.meta`, `quantum.vp<N>.trace`).
pub fn write_trace(dir: &Path, records: &[Rec]) {
    std::fs::create_dir_all(dir).unwrap();
    for vp in 0..2u32 {
        let (mut w, sink) = QuantumWriter::new(vp, 3);
        let d = dir.to_path_buf();
        let writer = std::thread::spawn(move || sink.run_to_dir(&d).unwrap());
        let mut last = 0;
        for q in records.iter().filter(|q| q.vp == vp) {
            let rec = Quantum { thread: q.thread, local_tid: q.thread as u16, yielded: false, thread_switch: true, start: q.start, end: q.end, callee: q.callee, caller: 0 };
            assert!(w.record(&rec, &[q.cycles, q.instructions, q.misses]));
            last = q.end;
        }
        w.finish(last + 10, 0);
        writer.join().unwrap();
    }
    Meta {
        counters: COUNTERS.map(String::from).to_vec(),
        time_unit: "ns".into(),
        processor_kind: String::new(),
        processors: Vec::new(),
        threads: vec![
            ThreadInfo { id: 1, kind: ThreadKind::App, name: "main".into() },
            ThreadInfo { id: 2, kind: ThreadKind::App, name: "worker".into() },
            ThreadInfo { id: 3, kind: ThreadKind::Collector, name: "GC0".into() },
            ThreadInfo { id: 4, kind: ThreadKind::Idle, name: "Idle0".into() },
            ThreadInfo { id: 5, kind: ThreadKind::Collector, name: "GC1".into() },
            ThreadInfo { id: 6, kind: ThreadKind::Idle, name: "Idle1".into() },
        ],
        methods: METHODS.iter().map(|&(id, class, name, _, _)| MethodInfo { id, class: class.into(), name: name.into(), descriptor: "()V".into() }).collect(),
        missed: vec![(0, 0), (1, 0)],
    }
    .write(dir)
    .unwrap();
}

/// A record's metrics, in [`METRICS`]' order (NaN: no value).
pub fn values(q: &Rec) -> [f64; 6] {
    let (c, i, m) = (q.cycles as f64, q.instructions as f64, q.misses as f64);
    [(q.end - q.start) as f64, c, i, m, if c > 0.0 { i / c } else { f64::NAN }, if i > 0.0 { m / i * 1000.0 } else { f64::NAN }]
}

/// Which records a test's filter selects, by key `vp:start`.
pub fn key(q: &Rec) -> String {
    format!("{}:{}", q.vp, q.start)
}

/// count, mean, sd (n − 1), min, max, p50, p90, p99 (nearest rank, with integer arithmetic).
#[derive(Debug, Clone, Copy)]
pub struct St {
    pub n: usize,
    pub mean: f64,
    pub sd: f64,
    pub min: f64,
    pub max: f64,
    pub p: [f64; 3],
}

pub fn st(mut v: Vec<f64>) -> St {
    v.retain(|x| x.is_finite());
    let n = v.len();
    let mean = v.iter().sum::<f64>() / n as f64;
    let sd = (v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n as f64 - 1.0)).sqrt();
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let at = |p: usize| v[(p * n).div_ceil(100).max(1) - 1];
    St { n, mean, sd, min: v[0], max: v[n - 1], p: [at(50), at(90), at(99)] }
}

/// Per metric of [`METRICS`], its statistics over `set`.
pub fn stats(set: &[&Rec]) -> Vec<St> {
    (0..METRICS.len()).map(|k| st(set.iter().map(|q| values(q)[k]).collect())).collect()
}

/// The metric and the top method that differ most between `a` and `b` (by |standardized mean
/// difference| and |difference of share of time|), and every metric's SMD (A − B).
pub fn most_different(a: &[&Rec], b: &[&Rec]) -> (String, String, Vec<(String, f64)>) {
    let (sa, sb) = (stats(a), stats(b));
    let smd: Vec<(String, f64)> = METRICS.iter().enumerate().map(|(k, m)| (m.to_string(), (sa[k].mean - sb[k].mean) / ((sa[k].sd.powi(2) + sb[k].sd.powi(2)) / 2.0).sqrt())).collect();
    let top_metric = smd.iter().max_by(|x, y| x.1.abs().partial_cmp(&y.1.abs()).unwrap()).unwrap().0.clone();
    let share = |set: &[&Rec], id: u32| {
        let total: u64 = set.iter().map(|q| q.end - q.start).sum();
        set.iter().filter(|q| q.callee == id).map(|q| q.end - q.start).sum::<u64>() as f64 / total as f64
    };
    let ids = [0u32, 1, 2, 3, 4];
    let top = ids.iter().max_by(|&&x, &&y| (share(a, x) - share(b, x)).abs().partial_cmp(&(share(a, y) - share(b, y)).abs()).unwrap()).unwrap();
    (top_metric, method_name(*top).unwrap_or_else(|| "(no method)".into()), smd)
}

/// Relative closeness, for values summed in a different order.
pub fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1e-12)
}
