//! Arcflow model benchmarks: events per second into the live (cursor) builder, and memory per node.
//!
//! Run: `cargo bench -p hpm-collectors --bench arcflow`. Targets: at least 50 million
//! entry+exit events per second on one thread (20 ns or less per event), 64 + 8 per metric bytes
//! per node or less.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use hpm_model::arcflow::{CursorBuilder, Tree};
use std::hint::black_box;

#[derive(Clone, Copy)]
enum Ev {
    Enter(u32),
    Exit(u32),
}

/// A deterministic event stream: a call graph of `methods` methods where each method calls one of
/// `fanout` favourite callees, returning with a probability that grows with depth.
///
/// This random walk is the adversarial case (2,000 methods, fan-out 4, depth ≤ 40): it creates a new
/// context every few events, so most lookups miss the caches.
fn events(n: usize, methods: u32, fanout: u32, max_depth: usize, seed: u64) -> Vec<Ev> {
    let mut rng = seed;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut out = Vec::with_capacity(n + 64);
    let mut stack: Vec<u32> = vec![0];
    out.push(Ev::Enter(0));
    while out.len() < n {
        let top = *stack.last().unwrap();
        let r = next();
        if stack.len() > 1 && (r % 100) < 30 + stack.len() as u64 * 2 {
            stack.pop();
            out.push(Ev::Exit(top));
        } else if stack.len() < max_depth {
            let callee = (top.wrapping_mul(2654435761).wrapping_add((r >> 8) as u32 % fanout + 1)) % methods;
            stack.push(callee);
            out.push(Ev::Enter(callee));
        }
    }
    while let Some(m) = stack.pop() {
        out.push(Ev::Exit(m));
    }
    out
}

/// A program in steady state: a main loop whose body is a fixed static call tree (each method calls
/// 0–4 callees chosen by its id, depth ≤ 10), repeated until `n` events. Every iteration enters the
/// same few thousand contexts again, as a server's request loop does.
fn program(n: usize, methods: u32) -> Vec<Ev> {
    fn body(m: u32, depth: usize, methods: u32, out: &mut Vec<Ev>) {
        let h = m.wrapping_mul(2654435761);
        let callees = if depth >= 10 { 0 } else { (h >> 7) % 5 };
        for k in 0..callees {
            let c = (h.wrapping_add(k.wrapping_mul(40503)) >> 3) % methods + 1;
            out.push(Ev::Enter(c));
            body(c, depth + 1, methods, out);
            out.push(Ev::Exit(c));
        }
    }
    let mut out = Vec::with_capacity(n + 100_000);
    let mut iteration = 0u32;
    while out.len() < n {
        let handler = 1 + iteration % 16;
        out.push(Ev::Enter(handler));
        body(handler, 1, methods, &mut out);
        out.push(Ev::Exit(handler));
        iteration += 1;
    }
    out
}

fn replay(b: &mut CursorBuilder, events: &[Ev], now: &mut [u64]) {
    for ev in events {
        for v in now.iter_mut() {
            *v += 3;
        }
        match *ev {
            Ev::Enter(c) => b.enter(c, now),
            Ev::Exit(c) => {
                black_box(b.exit(c, now));
            }
        }
    }
}

fn bench_cursor(c: &mut Criterion) {
    let mut group = c.benchmark_group("cursor_builder");
    let streams = [
        ("program", program(1_000_000, 400)),
        ("adversarial", events(1_000_000, 2_000, 4, 40, 0x9e3779b97f4a7c15)),
    ];
    for ((stream, events), metrics) in streams.iter().flat_map(|s| [1usize, 2, 4].map(move |m| (s, m))) {
        group.throughput(Throughput::Elements(events.len() as u64));
        let mut warm = CursorBuilder::new(Tree::new(u32::MAX - 1, metrics), &vec![0; metrics]);
        let mut now = vec![0u64; metrics];
        replay(&mut warm, events, &mut now);
        eprintln!(
            "cursor_builder/{stream}: {} events, {} distinct contexts, {} metric(s)",
            events.len(),
            warm.tree().len(),
            metrics
        );
        // Steady state: every context already known, as in a long-running program.
        group.bench_with_input(BenchmarkId::new(format!("{stream}/known_contexts"), metrics), &metrics, |bch, _| {
            bch.iter(|| replay(&mut warm, events, &mut now));
        });
        // From an empty tree: includes creating every context.
        group.bench_with_input(BenchmarkId::new(format!("{stream}/from_empty"), metrics), &metrics, |bch, &m| {
            bch.iter(|| {
                let mut b = CursorBuilder::new(Tree::new(u32::MAX - 1, m), &vec![0; m]);
                let mut now = vec![0u64; m];
                replay(&mut b, events, &mut now);
                black_box(b.tree().len())
            });
        });
    }
    // A method with thousands of callees (a dispatcher): the hashed child lookup.
    let wide: Vec<Ev> = (0..500_000u32).flat_map(|i| [Ev::Enter(1 + i % 5_000), Ev::Exit(1 + i % 5_000)]).collect();
    let mut b = CursorBuilder::new(Tree::new(0, 1), &[0]);
    let mut now = vec![0u64];
    replay(&mut b, &wide, &mut now);
    group.throughput(Throughput::Elements(wide.len() as u64));
    group.bench_function("wide_node_5000_children", |bch| bch.iter(|| replay(&mut b, &wide, &mut now)));
    group.finish();
}

/// Memory per node for a 1,000,000-node tree of realistic shape; printed, not timed.
fn report_bytes_per_node(_c: &mut Criterion) {
    for metrics in [1usize, 2, 4] {
        let mut t = Tree::new(0, metrics);
        let mut frontier = vec![Tree::ROOT];
        let mut next_consumer = 1u32;
        'outer: loop {
            let mut level = Vec::new();
            for &n in &frontier {
                for k in 0..10u32 {
                    let c = t.child(n, (next_consumer + k) % 5_000 + 1);
                    t.add_calls(c, 1);
                    level.push(c);
                    if t.len() >= 1_000_000 {
                        break 'outer;
                    }
                }
                next_consumer = next_consumer.wrapping_mul(31).wrapping_add(7);
            }
            frontier = level;
        }
        let exact = {
            // Shrink to the real size so capacity slack of the growth strategy is not counted.
            let mut copy = Tree::new(0, metrics);
            copy.merge_from(Tree::ROOT, &t, Tree::ROOT);
            copy
        };
        eprintln!(
            "bytes_per_node: {} nodes, {} metric(s): {:.1} bytes/node as grown, {:.1} after merge-copy (target {} = 64 + 8 x {})",
            t.len(),
            metrics,
            t.heap_bytes() as f64 / t.len() as f64,
            exact.heap_bytes() as f64 / exact.len() as f64,
            64 + 8 * metrics,
            metrics
        );
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).measurement_time(std::time::Duration::from_secs(3));
    targets = report_bytes_per_node, bench_cursor
}
criterion_main!(benches);
