//! Mutated class files never make the pass panic: it returns a class, "unchanged" or an error.
//! Seeds are real class files (the javac-compiled test subjects, a class with native methods of
//! every shape, a version 49 class with jsr/ret, a generated class whose methods need wide branches);
//! each goes through the pass with entry and exit probes only, and with all four probes and native
//! method wrappers, without and with a carried context;
//! a proptest property and a longer deterministic fuzz loop mutate them.

mod common;

use proptest::prelude::*;
use std::sync::OnceLock;

fn seeds() -> &'static Vec<Vec<u8>> {
    static SEEDS: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    SEEDS.get_or_init(|| {
        let dir = java_tests::compile("instrument/run").unwrap();
        let mut seeds: Vec<Vec<u8>> = common::class_files(&dir).iter().map(|f| std::fs::read(f).unwrap()).collect();
        assert!(seeds.len() >= 15, "too few seed classes");
        let natives = java_tests::compile("instrument/natives").unwrap();
        seeds.push(std::fs::read(natives.join("nat/Natives.class")).unwrap());
        let legacy = common::downgrade(&seeds[0], ristretto_classfile::JAVA_5);
        seeds.push(legacy);
        seeds.push(common::jsr_class());
        // Methods whose branches need widening, so that mutations reach that code too.
        let dir = common::Scratch::new("fuzz-huge");
        let src = dir.path().join("gen/Huge.java");
        std::fs::create_dir_all(src.parent().unwrap()).unwrap();
        std::fs::write(&src, common::huge_source("gen")).unwrap();
        common::javac(&common::jdk(17), dir.path(), &[], &[src]);
        seeds.push(std::fs::read(dir.path().join("gen/Huge.class")).unwrap());
        seeds
    })
}

/// Instruments with every method selected, with entry and exit probes and then with all probes
/// and native wrappers (with a carried context, then without), and, if that produced a class, instruments the result again: nothing may
/// panic. Returns what happened with all probes: 0 error, 1 nothing probed, 2 probed.
fn exercise(bytes: &[u8]) -> usize {
    let _ = hpm_instrument::class_name(bytes);
    exercise_with(bytes, &common::probes("hpmagent/Probe"));
    exercise_with(bytes, &common::carried(common::all_probes("hpmagent/Probe").with_native_prefix("$hpm$")));
    exercise_with(bytes, &common::all_probes("hpmagent/Probe").with_native_prefix("$hpm$"))
}

fn exercise_with(bytes: &[u8], probes: &hpm_instrument::Probes) -> usize {
    let mut id = 0u32;
    match hpm_instrument::instrument(bytes, probes, &mut |_| {
        id = id.wrapping_add(40_000);
        Some(id)
    }) {
        Err(e) => {
            assert!(!e.to_string().contains('\n'), "error is not one line: {e}");
            0
        }
        Ok(None) => 1,
        Ok(Some(out)) => {
            let _ = hpm_instrument::instrument(&out.bytes, probes, &mut |_| Some(7));
            2
        }
    }
}

#[derive(Debug, Clone)]
enum Mutation {
    /// xor a byte
    Flip(usize, u8),
    /// overwrite two bytes with a chosen value (counts, indices, offsets, lengths)
    Word(usize, u16),
    Truncate(usize),
    /// copy `len` bytes from `from` over `to`
    Splice { from: usize, to: usize, len: usize },
}

fn apply(seed: &[u8], muts: &[Mutation]) -> Vec<u8> {
    let mut b = seed.to_vec();
    for m in muts {
        if b.is_empty() {
            break;
        }
        let n = b.len();
        match *m {
            Mutation::Flip(at, x) => b[at % n] ^= x.max(1),
            Mutation::Word(at, v) => {
                let at = at % n;
                for (k, byte) in v.to_be_bytes().into_iter().enumerate() {
                    if at + k < n {
                        b[at + k] = byte;
                    }
                }
            }
            Mutation::Truncate(at) => b.truncate(at % n),
            Mutation::Splice { from, to, len } => {
                let (from, to) = (from % n, to % n);
                let len = len.min(n - from).min(n - to);
                let chunk = b[from..from + len].to_vec();
                b[to..to + len].copy_from_slice(&chunk);
            }
        }
    }
    b
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let word = prop_oneof![Just(0u16), Just(1), Just(2), Just(0x7fff), Just(0x8000), Just(0xffff), any::<u16>()];
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(a, x)| Mutation::Flip(a, x)),
        (any::<usize>(), word).prop_map(|(a, v)| Mutation::Word(a, v)),
        any::<usize>().prop_map(Mutation::Truncate),
        (any::<usize>(), any::<usize>(), 1usize..64).prop_map(|(from, to, len)| Mutation::Splice { from, to, len }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn mutated_class_files_never_panic(seed in any::<prop::sample::Index>(), muts in prop::collection::vec(mutation(), 1..6)) {
        let seeds = seeds();
        let bytes = apply(&seeds[seed.index(seeds.len())], &muts);
        exercise(&bytes);
    }
}

/// A longer deterministic loop (xorshift), most mutations aimed at the code of the methods, where
/// the pass does its own parsing.
#[test]
fn fuzz_loop_never_panics() {
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let secs = std::env::var("HPM_FUZZ_SECS").ok().and_then(|s| s.parse().ok()).unwrap_or(20);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(secs);
    let mut runs = 0u64;
    let mut changed = 0u64;
    let mut kinds = [0u64; 3];
    while std::time::Instant::now() < deadline {
        for seed in seeds() {
            let mut b = seed.clone();
            // The last third of a class file is mostly methods and their code.
            let third = b.len() / 3;
            for _ in 0..1 + next() % 4 {
                let r = next();
                let at = if r % 4 == 0 { (r >> 8) as usize % b.len() } else { 2 * third + (r >> 8) as usize % (b.len() - 2 * third) };
                b[at] = match r % 3 {
                    0 => b[at] ^ (1 << ((r >> 40) % 8)),
                    1 => (r >> 32) as u8,
                    _ => [0x00, 0xff, 0xa7, 0xc8, 0xaa, 0xab, 0xb1, 0xbf][(r >> 48) as usize % 8],
                };
            }
            kinds[exercise(&b)] += 1;
            changed += u64::from(b != *seed);
            runs += 1;
        }
    }
    println!("fuzz loop: {runs} mutated class files: {} rejected, {} unchanged, {} instrumented", kinds[0], kinds[1], kinds[2]);
    assert!(changed > 2_000, "the fuzz loop ran only {changed} mutated inputs");
    // Most mutations must get past the class structure into the code, or the loop tests little.
    assert!(kinds[2] > runs / 4, "too few mutated classes were instrumented: {kinds:?}");
}
