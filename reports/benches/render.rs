//! Rendering all reports of a ~1,000,000-node profile (target: under 2 s).
//!
//! The tree has a realistic shape: 4 threads, branching 8–16, depth up to 7, 300 distinct methods,
//! 2 metrics, and a realistic call graph: each method calls methods from its own list of 24 callees
//! (so there are a few thousand distinct caller → callee arcs, as in real programs). Before the
//! criterion run, one timed run of each format and of `write_reports` is printed, and one timed
//! `write_reports` of a worst case where every node picks its method at random (~90,000 distinct
//! arcs, so the per-arc totals of xarc/xprof no longer fit in the CPU caches).
//! Run with `cargo bench -p hpm-reports --bench render`.

use std::hint::black_box;
use std::time::Instant;

use criterion::Criterion;
use hpm_model::arcflow::NodeId;
use hpm_reports::{render, write_reports, Format, ReportOptions};

mod tree;
use tree::profile;

fn main() {
    let p = profile(1_000_000, false);
    let nodes: usize = p.threads.iter().map(|t| t.tree.len()).sum();
    let max_depth = p.threads.iter().map(|t| t.tree.depth(t.tree.len() as NodeId - 1)).max().unwrap_or(0);
    println!("profile: {nodes} nodes in {} threads, depth {max_depth}, {} consumers, 2 metrics", p.threads.len(), p.consumers.len());
    let opts = ReportOptions::default();
    for f in Format::ALL {
        let t = Instant::now();
        let bytes = render(&p, f, &opts).expect("render");
        println!("  {:<10} {:>8.3} s  {:>6.1} MB", f.name(), t.elapsed().as_secs_f64(), bytes.len() as f64 / 1e6);
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let t = Instant::now();
    let files = write_reports(&p, dir.path(), &opts).expect("write_reports");
    println!("write_reports (all {} files, rendered in parallel): {:.3} s", files.len(), t.elapsed().as_secs_f64());
    {
        let worst = profile(1_000_000, true);
        let nodes: usize = worst.threads.iter().map(|t| t.tree.len()).sum();
        let t = Instant::now();
        write_reports(&worst, dir.path(), &opts).expect("write_reports");
        println!("worst case, random arcs ({nodes} nodes): write_reports {:.3} s", t.elapsed().as_secs_f64());
    }

    let mut c = Criterion::default().sample_size(10).configure_from_args();
    c.bench_function("write_reports_1M_nodes", |b| {
        b.iter(|| black_box(write_reports(&p, dir.path(), &opts).expect("write_reports")))
    });
    c.final_summary();
}
