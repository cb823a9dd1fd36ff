//! Cost of the insertion pass per class over java.base of the JDK 17 image (jimage extract into
//! the target directory): every method probed (entry and exit probes; and with the thrown and
//! caught probes too), nothing selected, and reading the class name only.

#[path = "../tests/common/mod.rs"]
mod common;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn corpus() -> (common::Scratch, Vec<Vec<u8>>) {
    let jdk = common::jdk(17);
    let dir = common::Scratch::new("bench-jdk17");
    let status = std::process::Command::new(jdk.home.join("bin/jimage"))
        .args(["extract", "--include", "regex:/java.base/.*", "--dir"])
        .arg(dir.path())
        .arg(jdk.home.join("lib/modules"))
        .status()
        .unwrap();
    assert!(status.success(), "jimage extract failed");
    let classes: Vec<Vec<u8>> = common::class_files(dir.path()).iter().map(|f| std::fs::read(f).unwrap()).collect();
    assert!(classes.len() > 5000, "java.base has {} classes?", classes.len());
    (dir, classes)
}

fn bench(c: &mut Criterion) {
    let (_dir, classes) = corpus();
    let probes = common::probes("hpmagent/Probe");
    let mut g = c.benchmark_group("java.base");
    g.throughput(Throughput::Elements(classes.len() as u64));
    g.sample_size(10);
    g.bench_function("instrument every method", |b| {
        b.iter(|| {
            let mut id = 0;
            for class in &classes {
                let _ = hpm_instrument::instrument(class, &probes, &mut |_| {
                    id += 1;
                    Some(id)
                });
            }
        })
    });
    let all = common::all_probes("hpmagent/Probe");
    g.bench_function("instrument every method, thrown and caught probes", |b| {
        b.iter(|| {
            let mut id = 0;
            for class in &classes {
                let _ = hpm_instrument::instrument(class, &all, &mut |_| {
                    id += 1;
                    Some(id)
                });
            }
        })
    });
    g.bench_function("instrument, nothing selected", |b| {
        b.iter(|| {
            for class in &classes {
                let _ = hpm_instrument::instrument(class, &probes, &mut |_| None);
            }
        })
    });
    g.bench_function("class_name", |b| {
        b.iter(|| {
            for class in &classes {
                let _ = hpm_instrument::class_name(class);
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
