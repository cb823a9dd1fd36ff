//! Compiles the bytecode-probe runtime (`java/`, the `hpmagent.probe` package) with the JDK's javac
//! and generates `probe_classes.rs`, a table of `(internal name, class-file bytes)` that the agent
//! defines in the boot loader at VM start-up, and `park_classes.rs` likewise from `java-park/`
//! (the natives of the park wrappers); and compiles the stack sampler's fault guard
//! (`native/fault_guard.c`).
use std::path::PathBuf;

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    println!("cargo:rerun-if-changed=java");
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    let mut sources = Vec::new();
    java_tests::collect_files(&manifest.join("java"), "java", &mut sources).expect("reading java/");
    // Class files of version 55 (Java 11) load on every JDK the agent supports. The probes use
    // jdk.internal.misc.Unsafe, which the agent exports to them at run time (JVMTI AddModuleExports),
    // and jdk.internal.vm.annotation.DontInline, which HotSpot honours in boot-loader classes.
    let args = ["-source", "11", "-target", "11", "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED", "--add-exports", "java.base/jdk.internal.vm.annotation=ALL-UNNAMED", "-Xlint:-options", "-g", "-encoding", "UTF-8", "-nowarn"];
    let table = java_tests::compile_class_table("PROBE_CLASSES", &sources, &args, &out_dir.join("probe-classes"));
    std::fs::write(out_dir.join("probe_classes.rs"), table).unwrap();

    // The park natives (`java-park/`, `hpmagent.park.Park`): a table of their own, defined
    // whenever waits are recorded, with or without the probes.
    println!("cargo:rerun-if-changed=java-park");
    let mut sources = Vec::new();
    java_tests::collect_files(&manifest.join("java-park"), "java", &mut sources).expect("reading java-park/");
    let args = ["-source", "11", "-target", "11", "-Xlint:-options", "-g", "-encoding", "UTF-8", "-nowarn"];
    let table = java_tests::compile_class_table("PARK_CLASSES", &sources, &args, &out_dir.join("park-classes"));
    std::fs::write(out_dir.join("park_classes.rs"), table).unwrap();

    println!("cargo:rerun-if-changed=native/fault_guard.c");
    cc::Build::new().file(manifest.join("native/fault_guard.c")).warnings(true).extra_warnings(true).compile("hpm_fault_guard");
}
