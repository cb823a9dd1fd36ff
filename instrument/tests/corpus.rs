//! Every class of the JDK 17 and JDK 25 module images and of Debian's H2, Lucene and Sunflow jars
//! goes through `instrument` with every method selected and all four probes (enter, exit, thrown,
//! caught); the output must re-parse, skips must be of the documented kinds, and a real JVM must
//! load and verify every instrumented class: the JDK booted with every module patched, the jars
//! defined by a class loader. Linkage errors other than VerifyError/ClassFormatError (missing
//! optional dependencies) must be the same as for the unmodified classes. A deliberately broken
//! class in each run proves that verification is on.
//!
//! Native methods are wrapped too: every native method of the jars, and of the JDK modules other
//! than java.base (the JVM boots on java.base and calls its natives, which would need the prefix
//! set by a JVMTI agent to bind). Linking verifies the wrappers; no wrapped native is called.
//!
//! Each corpus is verified twice: with the probes taking the id alone, and with a carried context
//! (the entry probe's result kept in a new local and passed to the others), whose local every
//! stack map frame must carry.

mod common;

use common::{canary, class_files, java, jdk, path_list, verify_all, Scratch};
use hpm_instrument::{MethodInfo, Outcome, Probes};
use java_tests::Jdk;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Skip reasons the crate documents for real-world classes.
const DOCUMENTED_SKIPS: [&str; 6] =
    ["empty finalize()", "java/lang/Object is never instrumented", "65535 bytes", "jsr/ret", "signature polymorphic", "@CallerSensitive"];

const ACC_NATIVE: u16 = 0x0100;

/// All four probes of `class`, and wrapped native methods; with `carried`, the entry probe
/// `enterCarried` returns a context of type `context` that the others take.
fn corpus_probes(class: &str, carried: Option<&str>) -> Probes {
    let p = common::all_probes(class).with_native_prefix("$hpm$");
    match carried {
        Some(context) => common::carried_as(p, context),
        None => p,
    }
}

#[derive(Default)]
struct Tally {
    classes: usize,
    changed: usize,
    methods: usize,
    probed: usize,
    wrapped: usize,
    skipped: BTreeMap<String, usize>,
    time: Duration,
}

impl Tally {
    fn add(&mut self, o: &Outcome) {
        self.classes += 1;
        self.methods += o.methods.len();
        self.probed += o.probed.len();
        self.wrapped += o.wrapped.len();
        self.changed += usize::from(o.bytes.is_some());
        for (m, reason) in &o.skipped {
            let kind = DOCUMENTED_SKIPS.iter().find(|k| reason.contains(*k)).copied();
            assert!(kind.is_some(), "{}.{}{}: undocumented skip: {reason}", o.class_name, m.name, m.descriptor);
            *self.skipped.entry(kind.unwrap().to_string()).or_default() += 1;
        }
    }

    fn report(&self, label: &str) {
        println!(
            "{label}: {} classes ({} changed), {} methods, {} probed ({} native methods wrapped), skipped {:?}, {:.1} µs per class ({:.2} s)",
            self.classes,
            self.changed,
            self.methods,
            self.probed,
            self.wrapped,
            self.skipped,
            self.time.as_secs_f64() * 1e6 / self.classes.max(1) as f64,
            self.time.as_secs_f64()
        );
    }
}

/// Instruments one class with every method selected (native methods only if `wrap`); checks that
/// the output re-parses (with ristretto's whole-class parser, whenever it parses the input) and
/// that this crate reads it again, with the wrapped natives turned into wrappers and the renamed
/// natives appended.
fn instrument_one(bytes: &[u8], probes: &Probes, wrap: bool, next_id: &mut u32, tally: &mut Tally) -> Option<Vec<u8>> {
    let start = Instant::now();
    let o = hpm_instrument::instrument_outcome(bytes, probes, &mut |m| {
        if m.access & ACC_NATIVE != 0 && !wrap {
            return None;
        }
        *next_id += 1;
        Some(*next_id)
    });
    tally.time += start.elapsed();
    let o = o.unwrap_or_else(|e| panic!("instrument failed: {e}"));
    tally.add(&o);
    let out = o.bytes?;
    if ristretto_classfile::ClassFile::from_bytes(bytes).is_ok() {
        if let Err(e) = ristretto_classfile::ClassFile::from_bytes(&out) {
            panic!("{}: instrumented class does not re-parse: {e}", o.class_name);
        }
    }
    let again = hpm_instrument::instrument_outcome(&out, probes, &mut |_| None).unwrap();
    let wrapped: Vec<&MethodInfo> = o.probed.iter().map(|(m, _)| m).filter(|m| m.access & ACC_NATIVE != 0).collect();
    let mut want: Vec<MethodInfo> = o
        .methods
        .iter()
        .map(|m| if wrapped.contains(&m) { MethodInfo { access: m.access & !ACC_NATIVE, ..m.clone() } } else { m.clone() })
        .collect();
    want.extend(o.wrapped.iter().cloned());
    // A probed method calls its probes: trivial before, no longer after.
    let declared = |v: &[MethodInfo]| v.iter().map(|m| MethodInfo { trivial: false, ..m.clone() }).collect::<Vec<_>>();
    assert_eq!(declared(&again.methods), declared(&want), "{}: methods changed", o.class_name);
    Some(out)
}

/// Runs the LinkAll harness; returns class name → exception class for the classes that failed.
fn link_all(jdk: &Jdk, vm_args: &[String], names: &Path, loader_path: Option<&str>) -> BTreeMap<String, String> {
    let harness = java_tests::compile("instrument/run").unwrap();
    let mut args = verify_all();
    args.extend(vm_args.iter().cloned());
    args.extend(["-cp".into(), path_list(&[&harness]), "harness.LinkAll".into(), names.display().to_string()]);
    args.extend(loader_path.map(String::from));
    let out = java(jdk, &args);
    let total = std::fs::read_to_string(names).unwrap().lines().count();
    let summary = out.lines().last().unwrap_or("");
    assert!(summary.starts_with("linked ") && summary.ends_with(&format!(" of {total}")), "harness did not finish: {summary}");
    out.lines()
        .filter_map(|l| l.split_once('\t'))
        .map(|(name, rest)| (name.to_string(), rest.split(':').next().unwrap_or(rest).to_string()))
        .collect()
}

/// The instrumented run may fail only where the original run fails, in the same way, apart from
/// the canary, which must fail verification.
fn compare(label: &str, original: &BTreeMap<String, String>, instrumented: &BTreeMap<String, String>, canary: &str) {
    assert_eq!(
        instrumented.get(canary).map(String::as_str),
        Some("java.lang.VerifyError"),
        "{label}: the broken canary class was not rejected: is verification on?"
    );
    let mut bad = Vec::new();
    for (name, err) in instrumented {
        if name == canary {
            continue;
        }
        if err.contains("VerifyError") || err.contains("ClassFormatError") || original.get(name) != Some(err) {
            bad.push(format!("{name}: {err} (original: {:?})", original.get(name)));
        }
    }
    for (name, err) in original {
        if !instrumented.contains_key(name) {
            bad.push(format!("{name}: original failed with {err}, instrumented linked"));
        }
    }
    assert!(bad.is_empty(), "{label}: {} differences:\n{}", bad.len(), bad.join("\n"));
    println!("{label}: {} classes fail to link in both runs (missing optional dependencies)", original.len());
}

fn write(path: &Path, bytes: &[u8]) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

fn binary_name(relative: &Path) -> String {
    relative.with_extension("").to_string_lossy().replace('/', ".")
}

fn jdk_image(version: u32, carried: bool) {
    let wall = Instant::now();
    let jdk = jdk(version);
    let dir = Scratch::new(&format!("corpus-jdk{version}{}", if carried { "-carried" } else { "" }));
    let orig = dir.path().join("orig");
    let status = std::process::Command::new(jdk.home.join("bin/jimage"))
        .args(["extract", "--dir"])
        .arg(&orig)
        .arg(jdk.home.join("lib/modules"))
        .status()
        .unwrap();
    assert!(status.success(), "jimage extract failed");

    let probes = corpus_probes("java/lang/HpmStubProbe", carried.then_some("Ljava/lang/Object;"));
    let patch = dir.path().join("patch");
    let mut tally = Tally::default();
    let mut names = Vec::new();
    let mut next_id = 0;
    for module in std::fs::read_dir(&orig).unwrap().map(|e| e.unwrap().path()) {
        for f in class_files(&module) {
            let rel = f.strip_prefix(&module).unwrap();
            if rel == Path::new("module-info.class") {
                continue;
            }
            names.push(binary_name(rel));
            let bytes = std::fs::read(&f).unwrap();
            let wrap = module.file_name().unwrap() != "java.base";
            if let Some(out) = instrument_one(&bytes, &probes, wrap, &mut next_id, &mut tally) {
                write(&patch.join(module.file_name().unwrap()).join(rel), &out);
            }
        }
    }
    tally.report(&format!("JDK {version} image{}", if carried { ", carried context" } else { "" }));
    assert!(tally.classes > 20_000 && tally.probed > 150_000, "suspiciously small corpus");
    assert!(tally.wrapped > 1_000, "only {} native methods wrapped", tally.wrapped);

    // The probe stub and the canary go into java.base (see HpmStubProbe.java for why).
    let stub_src = java_tests::source_root().join("instrument/jdkstub");
    let stub = java_tests::compile_with("instrument/jdkstub", &["--patch-module", &format!("java.base={}", stub_src.display())]).unwrap();
    let base = patch.join("java.base/java/lang");
    std::fs::copy(stub.join("java/lang/HpmStubProbe.class"), base.join("HpmStubProbe.class")).unwrap();
    std::fs::write(base.join("HpmVerifyCanary.class"), canary("java/lang/HpmVerifyCanary")).unwrap();

    let names_file = dir.path().join("names.txt");
    std::fs::write(&names_file, names.join("\n") + "\n").unwrap();
    let inst_names = dir.path().join("names-inst.txt");
    std::fs::write(&inst_names, names.join("\n") + "\njava.lang.HpmVerifyCanary\n").unwrap();
    let mut vm = vec!["--add-modules".to_string(), "ALL-SYSTEM".to_string()];
    let mut patched = vm.clone();
    for m in std::fs::read_dir(&patch).unwrap().map(|e| e.unwrap().path()) {
        patched.push("--patch-module".into());
        patched.push(format!("{}={}", m.file_name().unwrap().to_string_lossy(), m.display()));
    }
    vm.push("-Xshare:off".into()); // as with --patch-module, so both runs load every class from files
    let (original, instrumented) = std::thread::scope(|s| {
        let a = s.spawn(|| link_all(&jdk, &vm, &names_file, None));
        let b = s.spawn(|| link_all(&jdk, &patched, &inst_names, None));
        (a.join().unwrap(), b.join().unwrap())
    });
    compare(&format!("JDK {version}"), &original, &instrumented, "java.lang.HpmVerifyCanary");
    println!("JDK {version} corpus test: {:.1} s", wall.elapsed().as_secs_f64());
}

#[test]
fn jdk17_image_instruments_and_verifies() {
    jdk_image(17, false);
}

#[test]
fn jdk25_image_instruments_and_verifies() {
    jdk_image(25, false);
}

#[test]
fn jdk17_image_with_a_carried_context_instruments_and_verifies() {
    jdk_image(17, true);
}

#[test]
fn jdk25_image_with_a_carried_context_instruments_and_verifies() {
    jdk_image(25, true);
}

/// The Debian jars, by corpus; a missing jar is a failure that says what to install.
fn jar_corpora() -> Vec<(&'static str, Vec<PathBuf>)> {
    let need = |path: &str, package: &str| -> PathBuf {
        let p = PathBuf::from(path);
        assert!(
            p.is_file(),
            "corpus jar {path} is missing: install Debian package {package} (scripts/prereqs.sh hpm_need_corpus does it as root)"
        );
        p
    };
    let mut lucene: Vec<PathBuf> = std::fs::read_dir("/usr/share/java")
        .map(|rd| rd.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    lucene.retain(|p| {
        let n = p.file_name().unwrap().to_string_lossy();
        n.starts_with("lucene-") && n.ends_with(".jar") && !p.is_symlink()
    });
    lucene.sort();
    assert!(
        lucene.iter().any(|p| p.to_string_lossy().contains("lucene-core")),
        "Lucene jars (/usr/share/java/lucene-core-*.jar) are missing: install Debian package liblucene8-java \
         (scripts/prereqs.sh hpm_need_corpus does it as root)"
    );
    vec![
        ("h2", vec![need("/usr/share/java/h2.jar", "libh2-java")]),
        ("lucene", lucene),
        ("sunflow", vec![need("/usr/share/java/sunflow.jar", "sunflow"), need("/usr/share/java/sunflowGUI.jar", "sunflow")]),
    ]
}

/// The existing jars named by a jar's manifest Class-Path (relative entries resolved against its folder).
fn manifest_class_path(jar: &Path) -> Vec<PathBuf> {
    use std::io::Read;
    let mut zip = zip::ZipArchive::new(std::fs::File::open(jar).unwrap()).unwrap();
    let Ok(mut entry) = zip.by_name("META-INF/MANIFEST.MF") else { return Vec::new() };
    let mut text = String::new();
    entry.read_to_string(&mut text).unwrap();
    // Manifest lines continue on lines that start with one space.
    let unfolded = text.replace("\r\n", "\n").replace("\n ", "");
    let Some(line) = unfolded.lines().find_map(|l| l.strip_prefix("Class-Path:")) else { return Vec::new() };
    line.split_whitespace()
        .map(|e| if e.starts_with('/') { PathBuf::from(e) } else { jar.parent().unwrap().join(e) })
        .filter(|p| p.is_file())
        .collect()
}

#[test]
fn debian_jars_instrument_and_verify() {
    debian_jars(false);
}

#[test]
fn debian_jars_with_a_carried_context_instrument_and_verify() {
    debian_jars(true);
}

fn debian_jars(carried: bool) {
    use std::io::Read;
    let wall = Instant::now();
    let dir = Scratch::new(if carried { "corpus-jars-carried" } else { "corpus-jars" });
    let probes = corpus_probes("hpmagent/Probe", carried.then_some(common::CONTEXT));
    let mut jobs = Vec::new();
    for (corpus, jars) in jar_corpora() {
        let mut tally = Tally::default();
        let inst = dir.path().join(corpus);
        let mut names = BTreeSet::new();
        let mut next_id = 0;
        for jar in &jars {
            let mut zip = zip::ZipArchive::new(std::fs::File::open(jar).unwrap()).unwrap();
            for i in 0..zip.len() {
                let mut entry = zip.by_index(i).unwrap();
                let name = entry.name().unwrap().to_string();
                if !name.ends_with(".class") || name.starts_with("META-INF/") || name.ends_with("module-info.class") {
                    continue;
                }
                let mut bytes = Vec::new();
                entry.read_to_end(&mut bytes).unwrap();
                let out = instrument_one(&bytes, &probes, true, &mut next_id, &mut tally);
                write(&inst.join(&name), out.as_deref().unwrap_or(&bytes));
                names.insert(binary_name(Path::new(&name)));
            }
        }
        tally.report(&format!("{corpus} ({} jars)", jars.len()));
        write(&inst.join("hpmcanary/Broken.class"), &canary("hpmcanary/Broken"));
        let names_file = dir.path().join(format!("{corpus}.txt"));
        std::fs::write(&names_file, names.iter().cloned().collect::<Vec<_>>().join("\n") + "\n").unwrap();
        let inst_names = dir.path().join(format!("{corpus}-inst.txt"));
        std::fs::write(&inst_names, names.into_iter().chain(["hpmcanary.Broken".to_string()]).collect::<Vec<_>>().join("\n") + "\n")
            .unwrap();
        let originals = jars.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(":");
        // The jars name their dependencies in their manifests, which the class loader follows for
        // the originals; the directory of instrumented classes gets the same dependencies.
        let mut loader_path = vec![inst.display().to_string()];
        for dep in jars.iter().flat_map(|j| manifest_class_path(j)) {
            if !jars.contains(&dep) && !loader_path.contains(&dep.display().to_string()) {
                loader_path.push(dep.display().to_string());
            }
        }
        jobs.push((corpus, names_file, inst_names, originals, loader_path.join(":")));
    }
    for jdk in [jdk(17), jdk(25)] {
        for (corpus, names, inst_names, originals, inst) in &jobs {
            let (original, instrumented) = std::thread::scope(|s| {
                let a = s.spawn(|| link_all(&jdk, &[], names, Some(originals)));
                let b = s.spawn(|| link_all(&jdk, &[], inst_names, Some(inst)));
                (a.join().unwrap(), b.join().unwrap())
            });
            compare(&format!("{corpus} on JDK {:?}", jdk.feature_version()), &original, &instrumented, "hpmcanary.Broken");
        }
    }
    println!("jar corpus test: {:.1} s", wall.elapsed().as_secs_f64());
}
