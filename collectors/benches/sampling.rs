//! Cost of the context sampler: one sampling signal (delivery + handler + return), the signal
//! delivery alone (a SIGPROF that is not ours, which the handler passes on), `settle()` of a
//! running thread on itself, and `settle()` of a blocked thread from another thread (the wall
//! sampler's cheap path: one clock read).
//!
//! Run: `cargo bench -p hpm-collectors --bench sampling`. The handler's own work is the first
//! minus the second.

use std::hint::black_box;
use std::sync::atomic::AtomicU32;
use std::sync::{mpsc, Arc};

use criterion::{criterion_group, criterion_main, Criterion};
use hpm_collectors::counters::sampler::signal_self_untagged;
use hpm_collectors::counters::{probe, CounterOptions, Metrics, ThreadCpuClock, WallClock};
use hpm_model::metrics::MetricSet;
use hpm_collectors::sampling::{ContextSampler, SamplerConfig};

fn cell() -> &'static AtomicU32 {
    Box::leak(Box::new(AtomicU32::new(1)))
}

fn engine(metrics: Arc<dyn MetricSet>) -> Arc<ContextSampler> {
    // No wall sampler: it would settle the benchmark thread in the middle of the timings.
    let s = ContextSampler::new(metrics, SamplerConfig { wall_period_ns: 0, ..SamplerConfig::default() }).unwrap();
    eprintln!("sampler: {}", s.describe());
    s
}

fn sampling(c: &mut Criterion) {
    let clocks: Arc<dyn MetricSet> = Arc::new(Metrics::new().with(ThreadCpuClock).with(WallClock));
    let p = probe(&["task-clock", "page-faults"], CounterOptions::default());
    let with_group: Arc<dyn MetricSet> = Arc::new(Metrics::new().with(ThreadCpuClock).with(WallClock).with(p.spec));

    for (label, metrics) in [("cpu-time + wall-time", clocks), ("cpu-time + wall-time + group of 2 software events", with_group)] {
        let s = engine(metrics);
        let t = s.start_current_thread(cell()).unwrap();
        c.bench_function(&format!("one sampling signal to self ({label})"), |b| b.iter(|| t.signal().unwrap()));
        c.bench_function(&format!("settle() of the running thread, on itself ({label})"), |b| b.iter(|| t.settle()));
        // Keep the table from filling: one context, drained now and then.
        t.drain(&mut |_, _, d| {
            black_box(d);
        });

        // A blocked thread settled from here: the wall sampler's case.
        let (started_tx, started_rx) = mpsc::channel();
        let (done_tx, done_rx) = mpsc::channel::<()>();
        let s2 = s.clone();
        let blocked = std::thread::spawn(move || {
            let t = s2.start_current_thread(cell()).unwrap();
            started_tx.send(t.clone()).unwrap();
            done_rx.recv().unwrap();
            t.stop();
        });
        let other = started_rx.recv().unwrap();
        c.bench_function(&format!("settle() of a blocked thread, from another thread ({label})"), |b| {
            b.iter(|| other.settle())
        });
        done_tx.send(()).unwrap();
        blocked.join().unwrap();
        t.stop();
        s.shutdown();
    }

    // Delivery alone: a SIGPROF without our tag reaches the handler, which finds no thread state
    // and passes it on (to nothing: the default action is not taken).
    c.bench_function("signal delivery alone (a SIGPROF that is not ours)", |b| {
        b.iter(|| signal_self_untagged().unwrap())
    });
}

criterion_group!(benches, sampling);
criterion_main!(benches);
