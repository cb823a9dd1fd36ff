//! Cost of reading counter sources. Filled in below.
use criterion::{criterion_group, criterion_main, Criterion};
use hpm_collectors::counters::thread_cpu_ns;

fn clocks(c: &mut Criterion) {
    c.bench_function("ThreadCpuClock read", |b| b.iter(thread_cpu_ns));
}

criterion_group!(benches, clocks);
criterion_main!(benches);
