//! Compiles the bundled class library (`classlib/`, Java sources, plus the profiler's marker API
//! `hpmagent.Trace`, whose one source lives with the workloads that use it on any JVM) with the
//! JDK's `javac --system none` into `$OUT_DIR/classlib` and generates `classlib.rs`, a table of
//! `(internal name, class-file bytes)` embedded in the `rvm` binary.
use std::path::{Path, PathBuf};
use std::process::Command;

fn collect(dir: &Path, out: &mut Vec<PathBuf>, ext: &str) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            collect(&p, out, ext);
        } else if p.extension().is_some_and(|x| x == ext) {
            out.push(p);
        }
    }
    out.sort();
}

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let src = manifest.join("classlib");
    println!("cargo:rerun-if-changed=classlib");
    // The single source of hpmagent.Trace (programs compile against the same file).
    let trace = manifest.join("../java-tests/workloads/hpmagent/Trace.java");
    println!("cargo:rerun-if-changed={}", trace.display());
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    let classes = out_dir.join("classlib");
    let _ = std::fs::remove_dir_all(&classes);
    std::fs::create_dir_all(&classes).unwrap();
    let mut sources = Vec::new();
    collect(&src, &mut sources, "java");
    sources.push(trace);
    let jdk = java_tests::jdk().expect("a JDK is needed to build the rvm class library");
    let status = Command::new(jdk.javac())
        // -source/-target 17: class files rvm accepts even when the JDK found is newer.
        .args(["--system", "none", "-source", "17", "-target", "17", "-XDstringConcat=inline", "-g", "-encoding", "UTF-8", "-nowarn", "-d"])
        .arg(&classes)
        .args(&sources)
        .status()
        .expect("cannot run javac");
    assert!(status.success(), "javac failed on the rvm class library");
    let mut files = Vec::new();
    collect(&classes, &mut files, "class");
    let mut table = String::from("pub static CLASSLIB: &[(&str, &[u8])] = &[\n");
    for f in files {
        let rel = f.strip_prefix(&classes).unwrap().to_string_lossy().trim_end_matches(".class").to_string();
        if rel == "module-info" {
            continue;
        }
        table.push_str(&format!("    ({:?}, include_bytes!({:?})),\n", rel, f.display().to_string()));
    }
    table.push_str("];\n");
    std::fs::write(out_dir.join("classlib.rs"), table).unwrap();
}
