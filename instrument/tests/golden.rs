//! The output of the pass without a carried context is byte for byte what it was before that
//! option existed (the crate docs promise it for every optional probe): class files compiled once
//! by javac (`golden/inputs.jar`: the `run` group, the legacy classes, also as versions 49 and 50,
//! the natives and JDK 25's flexible constructors) are instrumented with each configuration of the
//! probes, and the length and FNV-1a hash of every output must be those in `golden/expected.txt`,
//! which the pass wrote before the option was added. `HPM_BLESS=1` rewrites the file (only for a
//! change of the output that is meant).

mod common;

use hpm_instrument::Probes;
use std::io::Read;
use std::path::PathBuf;

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// The class files of `inputs.jar`, sorted by name.
fn inputs() -> Vec<(String, Vec<u8>)> {
    let file = std::fs::File::open(golden_dir().join("inputs.jar")).unwrap();
    let mut jar = zip::ZipArchive::new(file).unwrap();
    let mut out = Vec::new();
    for k in 0..jar.len() {
        let mut e = jar.by_index(k).unwrap();
        let name = e.name().unwrap().to_string();
        if name.ends_with(".class") {
            let mut bytes = Vec::new();
            e.read_to_end(&mut bytes).unwrap();
            out.push((name, bytes));
        }
    }
    out.sort();
    out
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// The configurations, each with the first id it gives (so every id encoding is used).
fn configurations() -> Vec<(&'static str, Probes, u32)> {
    let all = common::all_probes("hpmagent/Probe");
    vec![
        ("enter-exit", common::probes("hpmagent/Probe"), 1),
        ("all", all.clone(), 300),
        ("all-natives", all.with_native_prefix("hpm_"), 100_000),
    ]
}

/// One line per class file, version and configuration: what the pass made of it.
fn outcomes() -> String {
    let mut lines = Vec::new();
    for (name, bytes) in inputs() {
        let mut versions = vec![("", bytes.clone())];
        if name.starts_with("legacy/") {
            versions.push((" v49", common::downgrade(&bytes, ristretto_classfile::JAVA_5)));
            versions.push((" v50", common::downgrade(&bytes, ristretto_classfile::JAVA_6)));
        }
        for (version, bytes) in &versions {
            for (label, probes, first_id) in configurations() {
                let mut next = first_id;
                let o = hpm_instrument::instrument_outcome(bytes, &probes, &mut |_| {
                    next += 1;
                    Some(next - 1)
                })
                .unwrap_or_else(|e| panic!("{name}: {e}"));
                let result = match &o.bytes {
                    Some(b) => format!("{} {:016x}", b.len(), fnv1a(b)),
                    None => "unchanged".to_string(),
                };
                lines.push(format!("{name}{version} {label}: {result}, {} probed, {} skipped", o.probed.len(), o.skipped.len()));
            }
        }
    }
    lines.join("\n") + "\n"
}

#[test]
fn output_without_a_carried_context_is_unchanged() {
    let path = golden_dir().join("expected.txt");
    let got = outcomes();
    if std::env::var_os("HPM_BLESS").is_some() {
        std::fs::write(&path, &got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap();
    let differing: Vec<String> = want
        .lines()
        .zip(got.lines())
        .filter(|(w, g)| w != g)
        .map(|(w, g)| format!("  want {w}\n  got  {g}"))
        .collect();
    assert!(
        differing.is_empty() && want.lines().count() == got.lines().count(),
        "the output changed ({} of {} lines differ, {} lines expected):\n{}",
        differing.len(),
        got.lines().count(),
        want.lines().count(),
        differing.join("\n")
    );
}
