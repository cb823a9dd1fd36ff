//! The benchmarks' profile: ~N nodes in 4 threads, branching 8–16, depth up to 7, 300 distinct
//! methods, 2 metrics, and a realistic call graph (each method calls methods from its own list of
//! 24 callees), or, with `random_arcs`, every node's method picked at random.
#![allow(dead_code)]

use hpm_model::arcflow::{Bindings, Metric, Profile, Tree};

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

pub fn profile(target_nodes: usize, random_arcs: bool) -> Profile {
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

