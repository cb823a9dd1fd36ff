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
use hpm_collectors::arcflow::{Bindings, Metric, NodeId, Profile, Tree};
use hpm_reports::{render, write_reports, Format, ReportOptions};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn profile(target_nodes: usize, random_arcs: bool) -> Profile {
    let mut p = Profile::new(Bindings::methods(vec![Metric::new("cpu-time", "ns"), Metric::new("cache-misses", "")]));
    let methods: Vec<u32> = (0..300).map(|i| p.consumers.intern(&format!("com.example.pkg{}.Class{}.method{}", i % 7, i % 41, i))).collect();
    let threads = 4;
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let callees: Vec<Vec<u32>> =
        (0..methods.len()).map(|_| (0..24).map(|_| methods[rng.below(methods.len() as u64) as usize]).collect()).collect();
    for t in 0..threads {
        let idx = p.add_thread(&format!("worker-{t}"));
        let tree = &mut p.threads[idx].tree;
        tree.add_calls(Tree::ROOT, 1);
        let budget = target_nodes / threads;
        let mut queue = std::collections::VecDeque::from([(Tree::ROOT, 0usize)]);
        while let Some((n, depth)) = queue.pop_front() {
            if tree.len() >= budget {
                break;
            }
            if depth >= 7 {
                continue;
            }
            let k = 8 + rng.below(9);
            for _ in 0..k {
                let callee = if random_arcs || n == Tree::ROOT {
                    methods[rng.below(methods.len() as u64) as usize]
                } else {
                    // Methods were interned first: a method's id is its index.
                    callees[tree.consumer(n) as usize][rng.below(24) as usize]
                };
                let c = tree.child(n, callee);
                tree.add_calls(c, 1 + rng.below(20));
                let leafish = depth >= 4;
                let b0 = if rng.below(4) == 0 { 0 } else { rng.below(if leafish { 100_000 } else { 5_000 }) };
                tree.add_base(c, &[b0, rng.below(50)]);
                queue.push_back((c, depth + 1));
            }
        }
    }
    p
}

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
    println!("write_reports (all {} files, rendered in parallel, fsync'd): {:.3} s", files.len(), t.elapsed().as_secs_f64());
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
