//! Compiles the bundled class library (`classlib/`, Java sources, plus the profiler's marker API
//! `hpmagent.Trace`, whose one source lives with the workloads that use it on any JVM) with the
//! JDK's `javac --system none` into `$OUT_DIR/classlib` and generates `classlib.rs`, a table of
//! `(internal name, class-file bytes)` embedded in the `rvm` binary.
use std::path::PathBuf;

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let src = manifest.join("classlib");
    println!("cargo:rerun-if-changed=classlib");
    // The single source of hpmagent.Trace (programs compile against the same file).
    let trace = manifest.join("../java-tests/workloads/hpmagent/Trace.java");
    println!("cargo:rerun-if-changed={}", trace.display());
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    let mut sources = Vec::new();
    java_tests::collect_files(&src, "java", &mut sources).expect("reading classlib/");
    sources.push(trace);
    // -source/-target 17: class files rvm accepts even when the JDK found is newer.
    let args = ["--system", "none", "-source", "17", "-target", "17", "-XDstringConcat=inline", "-g", "-encoding", "UTF-8", "-nowarn"];
    let table = java_tests::compile_class_table("CLASSLIB", &sources, &args, &out_dir.join("classlib"));
    std::fs::write(out_dir.join("classlib.rs"), table).unwrap();
}
