//! Writes the `hpm explore` page of a synthetic profile of about NODES contexts, for
//! `bench/explorer-size.sh`: `cargo run --release -p hpm-reports --example explore-synthetic -- NODES OUT.html`.
//!
//! The shape follows `benches/render.rs`: 4 threads, branching 8–16, depth up to 7, 300 methods,
//! each calling from its own list of 24 callees; metrics cpu-time, instructions, cycles and
//! cache-misses with values of realistic magnitude.

use std::time::Instant;

use hpm_model::arcflow::{Bindings, Metric, Profile, Tree};
use hpm_reports::explore::{write_html, Run};

struct Rng(u64);
impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n
    }
}

fn profile(target_nodes: usize) -> Profile {
    let metrics = ["cpu-time:ns", "instructions:", "cycles:", "cache-misses:"].map(|m| {
        let (n, u) = m.split_once(':').unwrap();
        Metric::new(n, u)
    });
    let mut p = Profile::new(Bindings::methods(metrics.to_vec()));
    let methods: Vec<u32> = (0..300).map(|i| p.consumers.intern(&format!("com.example.pkg{}.Class{}.method{}", i % 7, i % 41, i))).collect();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let callees: Vec<Vec<u32>> = (0..methods.len()).map(|_| (0..24).map(|_| methods[rng.below(methods.len() as u64) as usize]).collect()).collect();
    let threads = 4;
    for t in 0..threads {
        let idx = p.add_thread(&format!("worker-{t}"));
        let tree = &mut p.threads[idx].tree;
        tree.add_calls(Tree::ROOT, 1);
        let mut queue = std::collections::VecDeque::from([(Tree::ROOT, 0usize)]);
        while let Some((n, depth)) = queue.pop_front() {
            if tree.len() >= target_nodes / threads || depth >= 7 {
                continue;
            }
            for _ in 0..8 + rng.below(9) {
                let callee = if n == Tree::ROOT { methods[rng.below(300) as usize] } else { callees[tree.consumer(n) as usize][rng.below(24) as usize] };
                let c = tree.child(n, callee);
                tree.add_calls(c, 1 + rng.below(1000));
                let cycles = 1000 + rng.below(5_000_000);
                let instructions = cycles * (5 + rng.below(20)) / 10;
                tree.add_base(c, &[cycles / 3, instructions, cycles, instructions / (50 + rng.below(2000))]);
                queue.push_back((c, depth + 1));
            }
        }
    }
    p
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(nodes), Some(out)) = (args.get(1).and_then(|n| n.parse::<usize>().ok()), args.get(2)) else {
        eprintln!("usage: explore-synthetic NODES OUT.html");
        std::process::exit(2);
    };
    let p = profile(nodes);
    let contexts: usize = p.threads.iter().map(|t| t.tree.len()).sum();
    let t = Instant::now();
    write_html(std::path::Path::new(out), &Run::of_profile(format!("synthetic {contexts} contexts"), p), None).expect("writing the page");
    println!("contexts {contexts} write_ms {:.0} bytes {}", t.elapsed().as_secs_f64() * 1e3, std::fs::metadata(out).unwrap().len());
}
