//! arcflow.json version 2 of a run whose call trees have ~1,000,000 nodes (the render benchmark's
//! tree: 4 threads, 2 metrics): its size, the time to write it and to read it back, beside
//! version 1 of the same trees. One timed run of each is printed, then criterion measures both.
//! Run with `cargo bench -p hpm-reports --bench saved`.

use std::hint::black_box;
use std::time::Instant;

use criterion::Criterion;
use hpm_model::arcflow::{Bindings, Metric, Profile};
use hpm_model::snapshot::{RecorderConfig, Snapshot, ThreadSummary};
use hpm_model::saved::{self, v2, SavedRun};

mod tree;

/// A saved run around `calls`: lock and wait trees with only their roots, one summary per thread.
fn run(calls: Profile) -> SavedRun {
    let empty = |metrics: Vec<Metric>| {
        let mut p = Profile::new(Bindings::methods(metrics));
        p.consumers = calls.consumers.clone();
        for t in &calls.threads {
            p.add_thread(&t.name);
        }
        p
    };
    let locks = empty(vec![Metric::new("contended-time", "ns")]);
    let waits = empty(vec![Metric::new("wait-time", "ns"), Metric::new("timed-out", "waits")]);
    let threads = calls.threads.iter().map(|t| ThreadSummary { name: t.name.clone(), ..ThreadSummary::default() }).collect();
    SavedRun {
        snapshot: Snapshot {
            calls,
            locks,
            waits,
            samples: None,
            sample_states: None,
            sample_timelines: None,
            alloc_samples: None,
            sample_forms: Vec::new(),
            stack_forms: Vec::new(),
            compiles: Vec::new(),
            threads,
            gc: Vec::new(),
            gc_dropped: 0,
            gc_count: 0,
            gc_total_ns: 0,
            code: Vec::new(),
            code_loads: 0,
            code_unloads: 0,
            classes_loaded: 0,
            classes_prepared: 0,
            uptime_ns: 0,
            config: RecorderConfig::default(),
            compensation: None,
            phase_calls: Vec::new(),
            probe_requests: Vec::new(),
            probe_windows: Vec::new(),
        },
        run: None,
        vm_cost: None,
        marks: None,
    }
}

fn main() {
    let run = run(tree::profile(1_000_000, false));
    let nodes: usize = run.snapshot.calls.threads.iter().map(|t| t.tree.len()).sum();
    println!("run: {nodes} call-tree nodes in {} threads, {} consumers, 2 metrics", run.snapshot.calls.threads.len(), run.snapshot.calls.consumers.len());
    let t = Instant::now();
    let bytes = v2::to_vec(&run);
    println!("version 2: write {:.3} s, {:.1} MB", t.elapsed().as_secs_f64(), bytes.len() as f64 / 1e6);
    let text = String::from_utf8(bytes).expect("UTF-8");
    let t = Instant::now();
    let back = saved::read(&text).expect("reading version 2");
    println!("version 2: read {:.3} s", t.elapsed().as_secs_f64());
    assert_eq!(back.calls().threads.iter().map(|t| t.tree.len()).sum::<usize>(), nodes);
    let t = Instant::now();
    let v1 = hpm_model::saved::v1::to_vec(&run.snapshot.calls);
    println!("version 1 (call trees only): write {:.3} s, {:.1} MB", t.elapsed().as_secs_f64(), v1.len() as f64 / 1e6);
    let v1 = String::from_utf8(v1).expect("UTF-8");
    let t = Instant::now();
    hpm_model::saved::v1::read(&v1).expect("reading version 1");
    println!("version 1: read {:.3} s", t.elapsed().as_secs_f64());

    let mut c = Criterion::default().sample_size(10).configure_from_args();
    c.bench_function("v2_write_1M_nodes", |b| b.iter(|| black_box(v2::to_vec(&run))));
    c.bench_function("v2_read_1M_nodes", |b| b.iter(|| black_box(saved::read(&text).expect("read"))));
    c.final_summary();
}
