//! Cost of reading counter sources: one perf_event group read by `read()` with 1 and 4 software
//! events, by `rdpmc` where the kernel allows it (hardware events only), the same group through
//! perf-event2's allocating `read_group` for comparison, and the clocks.
//!
//! Run: `cargo bench -p hpm-collectors --bench counters`. Before the timings it prints which read
//! paths exist on this machine ("rdpmc: unavailable (…)" on a machine without a hardware PMU).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use hpm_collectors::counters::{
    monotonic_ns, probe, read_cost, thread_cpu_ns, CounterOptions, Metrics, ReadMode, ReadPath, ThreadCpuClock,
    WallClock,
};
use hpm_model::metrics::MetricSet;

fn group_reads(c: &mut Criterion) {
    let opts = CounterOptions { read: ReadMode::Syscall, ..CounterOptions::default() };
    for (label, names) in [
        ("1 software event", &["task-clock"][..]),
        ("4 software events", &["task-clock", "page-faults", "context-switches", "cpu-migrations"][..]),
    ] {
        let p = probe(names, opts);
        for r in &p.refusals {
            eprintln!("refused: {r}");
        }
        let n = p.spec.events().len();
        let mut g = p.spec.try_open_current_thread().expect("group opens");
        let mut out = vec![0u64; n];
        c.bench_function(&format!("group read() {label} ({n} counted)"), |b| {
            b.iter(|| {
                g.read_into(black_box(&mut out));
            })
        });
    }

    // rdpmc needs hardware counters on the calling thread and cap_user_rdpmc.
    let hw = ["instructions"];
    let p = probe(&hw, CounterOptions::default());
    match (p.read_path, p.refusals.first()) {
        (ReadPath::Rdpmc, _) => {
            let mut g = p.spec.try_open_current_thread().unwrap();
            let mut out = vec![0u64; 1];
            c.bench_function("group rdpmc 1 hardware event", |b| b.iter(|| g.read_into(black_box(&mut out))));
            c.bench_function("group read() 1 hardware event", |b| b.iter(|| g.read_by_syscall(black_box(&mut out))));
        }
        (path, refusal) => {
            eprintln!(
                "rdpmc: unavailable ({})",
                match refusal {
                    Some(r) => r.to_string(),
                    None => format!("`instructions` opens but is read by {path}"),
                }
            );
        }
    }
}

/// perf-event2's own group read (allocates and parses each time), for comparison with ours.
fn perf_event2_group_read(c: &mut Criterion) {
    use perf_event::events::Software;
    use perf_event::{Builder, Group};
    let Ok(mut group) = Group::new() else { return };
    let mut members = Vec::new();
    for ev in [Software::TASK_CLOCK, Software::PAGE_FAULTS, Software::CONTEXT_SWITCHES, Software::CPU_MIGRATIONS] {
        let mut b = Builder::new(ev);
        b.enabled(true).exclude_kernel(false);
        if let Ok(m) = group.add(&b) {
            members.push(m);
        }
    }
    if group.enable().is_err() {
        return;
    }
    c.bench_function("perf-event2 Group::read 4 software events", |b| b.iter(|| black_box(group.read().ok())));
}

/// What one read adds to the metrics themselves (the overhead a probe charges), printed once.
fn print_read_cost() {
    let p = probe(&["task-clock", "page-faults"], CounterOptions::default());
    let m = Metrics::new().with(ThreadCpuClock).with(WallClock).with(p.spec);
    let names: Vec<String> = m.metrics().into_iter().map(|m| m.name).collect();
    let c = read_cost(&m, 20_000);
    eprintln!("read cost of cpu-time + wall-time + {{task-clock, page-faults}} group, median (min) per read:");
    for (i, n) in names.iter().enumerate() {
        eprintln!("  {n}: {} ({})", c.median[i], c.min[i]);
    }
}

fn clock_reads(c: &mut Criterion) {
    print_read_cost();
    c.bench_function("ThreadCpuClock read (clock_gettime THREAD_CPUTIME)", |b| b.iter(thread_cpu_ns));
    c.bench_function("WallClock read (clock_gettime MONOTONIC)", |b| b.iter(monotonic_ns));
    let m = Metrics::new().with(ThreadCpuClock).with(WallClock);
    let mut r = m.open_current_thread();
    let mut out = [0u64; 2];
    c.bench_function("Metrics cpu-time + wall-time read", |b| b.iter(|| r.read(black_box(&mut out))));
}

criterion_group!(benches, group_reads, perf_event2_group_read, clock_reads);
criterion_main!(benches);
