//! Finding a JDK and compiling the Java test programs.
//!
//! The Java sources live beside this crate, one folder per program group (`calls/`, `workloads/`, …).
//! Tests and build scripts call [`compile`] to get a directory of class files; compiled output goes
//! under the Cargo target directory so that a clean checkout never contains class files.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A JDK found on this machine.
#[derive(Debug, Clone)]
pub struct Jdk {
    pub home: PathBuf,
}

impl Jdk {
    pub fn java(&self) -> PathBuf {
        self.home.join("bin/java")
    }
    pub fn javac(&self) -> PathBuf {
        self.home.join("bin/javac")
    }
    /// The feature release (17, 25, …) read from the JDK's `release` file.
    pub fn feature_version(&self) -> Option<u32> {
        let text = std::fs::read_to_string(self.home.join("release")).ok()?;
        let line = text.lines().find(|l| l.starts_with("JAVA_VERSION="))?;
        let v = line.trim_start_matches("JAVA_VERSION=").trim_matches('"');
        let first = v.split('.').next()?;
        let n: u32 = first.parse().ok()?;
        Some(if n == 1 { v.split('.').nth(1)?.parse().ok()? } else { n })
    }
}

fn is_jdk(home: &Path) -> bool {
    home.join("bin/javac").is_file() && home.join("bin/java").is_file()
}

/// The JDK to use: `$HPM_JAVA_HOME`, then `$JAVA_HOME`, then JDK 17 under `/usr/lib/jvm`, then
/// the `javac` on `PATH`.
pub fn jdk() -> Result<Jdk, String> {
    for var in ["HPM_JAVA_HOME", "JAVA_HOME"] {
        if let Some(h) = std::env::var_os(var) {
            let home = PathBuf::from(h);
            if is_jdk(&home) {
                return Ok(Jdk { home });
            }
        }
    }
    let preferred = Path::new("/usr/lib/jvm/java-17-openjdk-amd64");
    if is_jdk(preferred) {
        return Ok(Jdk { home: preferred.to_path_buf() });
    }
    if let Some(j) = all_jdks().into_iter().next() {
        return Ok(j);
    }
    if let Ok(out) = Command::new("sh").arg("-c").arg("readlink -f \"$(command -v javac)\"").output() {
        let p = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
        if let Some(home) = p.parent().and_then(Path::parent) {
            if is_jdk(home) {
                return Ok(Jdk { home: home.to_path_buf() });
            }
        }
    }
    Err("no JDK found: install one (e.g. `apt-get install openjdk-17-jdk-headless`) or set JAVA_HOME to a JDK with bin/javac".into())
}

/// Every JDK under `/usr/lib/jvm` (distinct real paths), oldest feature version first.
pub fn all_jdks() -> Vec<Jdk> {
    let mut seen = std::collections::BTreeSet::new();
    let mut found = Vec::new();
    if let Ok(rd) = std::fs::read_dir("/usr/lib/jvm") {
        for e in rd.flatten() {
            let Ok(real) = std::fs::canonicalize(e.path()) else { continue };
            if is_jdk(&real) && seen.insert(real.clone()) {
                found.push(Jdk { home: real });
            }
        }
    }
    found.sort_by_key(|j| j.feature_version().unwrap_or(0));
    found
}

/// The newest JDK found whose feature version is above 17, for tests that also run on it.
pub fn newer_jdk() -> Option<Jdk> {
    all_jdks().into_iter().rfind(|j| j.feature_version().unwrap_or(0) > 17)
}

/// Root of the Java sources (this crate's folder).
pub fn source_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Where compiled classes go: `$CARGO_TARGET_DIR` or the workspace `target/`, under `java-classes/`.
pub fn class_root() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| source_root().parent().unwrap().join("target"));
    target.join("java-classes")
}

/// Compiles every `.java` file under `java-tests/<group>` into `<class_root>/<group>` with
/// `--release 8`-compatible flags (so older class-file versions are exercised too when asked),
/// and returns the class directory. Recompiles only when a source is newer than the stamp.
pub fn compile(group: &str) -> Result<PathBuf, String> {
    compile_with(group, &[])
}

/// Like [`compile`], with extra `javac` arguments (e.g. `["--release", "8"]`).
pub fn compile_with(group: &str, extra_args: &[&str]) -> Result<PathBuf, String> {
    let out = class_root().join(format!("{group}{}", args_suffix(extra_args)));
    compile_group(None, group, &out, &["-XDstringConcat=inline"], extra_args, false)
}

/// `-<hash>` of javac arguments beyond the defaults, for the class directory's name ("" if none).
fn args_suffix(extra_args: &[&str]) -> String {
    if extra_args.is_empty() {
        String::new()
    } else {
        format!("-{:x}", fxhash(&extra_args.join(" ")))
    }
}

/// Compiles every `.java` file under `java-tests/<group>` into `out` with `jdk`'s javac (None: the
/// default [`jdk`], looked up only when something is compiled) (`-g`, UTF-8, then `flags` and
/// `extra_args`), unless the stamp in `out` is newer than every source. `fresh`: `out` is emptied
/// first, so classes of removed sources do not linger.
fn compile_group(jdk: Option<&Jdk>, group: &str, out: &Path, flags: &[&str], extra_args: &[&str], fresh: bool) -> Result<PathBuf, String> {
    // Tests of one binary run in parallel and may ask for the same group at once: one compiles while
    // the others wait, then find the stamp (without this, a JVM could read a class file javac is
    // still writing).
    static COMPILING: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _one_at_a_time = COMPILING.lock().unwrap_or_else(|e| e.into_inner());
    let src = source_root().join(group);
    let mut sources = Vec::new();
    collect_java(&src, &mut sources).map_err(|e| format!("cannot read {}: {e}", src.display()))?;
    if sources.is_empty() {
        return Err(format!("no .java files under {}", src.display()));
    }
    let stamp = out.join(".stamp");
    let newest_src = sources.iter().filter_map(|p| p.metadata().and_then(|m| m.modified()).ok()).max();
    if let (Ok(s), Some(n)) = (stamp.metadata().and_then(|m| m.modified()), newest_src) {
        if s >= n {
            return Ok(out.to_path_buf());
        }
    }
    let default_jdk;
    let jdk = match jdk {
        Some(j) => j,
        None => {
            default_jdk = self::jdk()?;
            &default_jdk
        }
    };
    if fresh {
        let _ = std::fs::remove_dir_all(out);
    }
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let status = Command::new(jdk.javac())
        .args(["-g", "-encoding", "UTF-8"])
        .args(flags)
        .arg("-d")
        .arg(out)
        .args(extra_args)
        .args(&sources)
        .status()
        .map_err(|e| format!("cannot run {}: {e}", jdk.javac().display()))?;
    if !status.success() {
        return Err(format!("javac failed ({status}) compiling {}", src.display()));
    }
    std::fs::write(&stamp, b"").map_err(|e| e.to_string())?;
    Ok(out.to_path_buf())
}

fn collect_java(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    collect_files(dir, "java", out)
}

/// Every file under `dir` (recursively) whose extension is `ext`, sorted.
pub fn collect_files(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for e in std::fs::read_dir(dir)? {
        let p = e?.path();
        if p.is_dir() {
            collect_files(&p, ext, out)?;
        } else if p.extension().is_some_and(|x| x == ext) {
            out.push(p);
        }
    }
    out.sort();
    Ok(())
}

/// For build scripts that embed Java classes in a binary: compiles `sources` with `javac_args` into
/// a fresh `classes` directory, then returns Rust source declaring `pub static NAME: &[(&str, &[u8])]`,
/// the (internal name, class-file bytes) of every class compiled (`module-info` left out), with the
/// bytes included from the files. Panics with a message naming what failed (build scripts stop).
pub fn compile_class_table(name: &str, sources: &[PathBuf], javac_args: &[&str], classes: &Path) -> String {
    let _ = std::fs::remove_dir_all(classes);
    std::fs::create_dir_all(classes).unwrap_or_else(|e| panic!("cannot create {}: {e}", classes.display()));
    let jdk = jdk().unwrap_or_else(|e| panic!("a JDK (javac) is needed to build {name}: {e}"));
    let status = Command::new(jdk.javac())
        .args(javac_args)
        .arg("-d")
        .arg(classes)
        .args(sources)
        .status()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", jdk.javac().display()));
    assert!(status.success(), "javac failed building {name}");
    let mut files = Vec::new();
    collect_files(classes, "class", &mut files).unwrap_or_else(|e| panic!("cannot read {}: {e}", classes.display()));
    let mut table = format!("pub static {name}: &[(&str, &[u8])] = &[\n");
    for f in files {
        let rel = f.strip_prefix(classes).unwrap().to_string_lossy().trim_end_matches(".class").to_string();
        if rel == "module-info" {
            continue;
        }
        table.push_str(&format!("    ({:?}, include_bytes!({:?})),\n", rel, f.display().to_string()));
    }
    table.push_str("];\n");
    table
}

fn fxhash(s: &str) -> u64 {
    s.bytes().fold(0xcbf29ce484222325u64, |h, b| (h ^ b as u64).wrapping_mul(0x100000001b3))
}

/// Compiles every `.java` file under `java-tests/<group>` with plain `javac` of the default JDK
/// ([`jdk`]): javac's own defaults, so string concatenation is `invokedynamic`
/// (`StringConcatFactory`), unlike [`compile`]. Returns the class directory.
pub fn compile_plain(group: &str) -> Result<PathBuf, String> {
    compile_plain_with(&jdk()?, group, &[])
}

/// Like [`compile_plain`], with the `javac` of `jdk` and extra arguments (e.g. `["--release",
/// "17"]`), into `<class_root>/<group>-plain-<feature version>[-<hash of the arguments>]`.
/// Recompiles only when a source is newer than the stamp.
pub fn compile_plain_with(jdk: &Jdk, group: &str, extra_args: &[&str]) -> Result<PathBuf, String> {
    let version = jdk.feature_version().unwrap_or(0);
    let out = class_root().join(format!("{group}-plain-{version}{}", args_suffix(extra_args)));
    compile_group(Some(jdk), group, &out, &["-nowarn"], extra_args, true)
}
