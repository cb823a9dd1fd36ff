//! `rvm -agentpath:LIB=OPTS` with a real agent library: a small C agent (compiled here with the
//! system's `cc`; the test is skipped without one) that declares the rvm-abi structs itself, as an
//! agent written in another language would.

use std::path::PathBuf;
use std::process::Command;

const AGENT_C: &str = r#"
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

typedef struct { uint32_t vp, from, to, voluntary, callee, caller; uint64_t time_ns; uint32_t reason, reserved; } SwitchInfo;
typedef struct {
    uint32_t version, size; void *vm; uint32_t vps; uint64_t quantum_ns;
    intptr_t (*thread_name)(void *, uint32_t, uint8_t *, size_t);
    uint32_t (*thread_kind)(void *, uint32_t);
    intptr_t (*method_name)(void *, uint32_t, uint32_t, uint8_t *, size_t);
    intptr_t (*class_name)(void *, uint32_t, uint8_t *, size_t);
    intptr_t (*current_stack)(void *, uint32_t *, size_t);
    int64_t (*create_service_thread)(void *, uint32_t, const char *, void (*)(void *), void *);
    void (*wake_service_thread)(void *, uint32_t);
    void (*method_events_off)(void *, uint32_t);
} RvmVm;
typedef struct {
    uint32_t version, size; void *ctx;
    void (*vm_init)(void *);
    void (*vm_death)(void *, int32_t);
    void (*vp_start)(void *, uint32_t);
    void (*vp_end)(void *, uint32_t, int32_t);
    void (*thread_start)(void *, uint32_t, const uint8_t *, size_t, uint32_t);
    void (*thread_end)(void *, uint32_t);
    void (*thread_switch)(void *, const SwitchInfo *);
    void (*method_entry)(void *, uint32_t, uint32_t);
    void (*method_exit)(void *, uint32_t, uint32_t, uint32_t);
    void (*gc_start)(void *);
    void (*gc_finish)(void *);
    void (*monitor_contended_enter)(void *, uint32_t, uint32_t);
    void (*monitor_contended_entered)(void *, uint32_t);
    void (*monitor_wait)(void *, uint32_t, uint32_t, int64_t);
    void (*monitor_waited)(void *, uint32_t, uint32_t);
    void (*allocation)(void *, uint32_t, uint32_t, uint64_t);
    void (*marker)(void *, uint32_t, uint32_t, uint32_t, uint32_t, const uint8_t *, size_t);
} RvmCallbacks;

static const RvmVm *VM;
static int64_t service = -1;
static long switches, service_runs, deepest;

static void body(void *arg) { (void)arg; service_runs++; }
static void on_init(void *ctx) {
    (void)ctx;
    service = VM->create_service_thread(VM->vm, 0, "trace-writer", body, NULL);
    char name[64] = {0};
    VM->thread_name(VM->vm, 0, (uint8_t *)name, sizeof name - 1);
    fprintf(stderr, "init service=%lld thread0=%s\n", (long long)service, name);
}
static void on_switch(void *ctx, const SwitchInfo *s) {
    (void)ctx; (void)s;
    if (++switches == 1 || switches % 10 == 0) VM->wake_service_thread(VM->vm, (uint32_t)service);
}
static void on_entry(void *ctx, uint32_t tid, uint32_t m) {
    (void)ctx; (void)tid;
    uint32_t ids[4];
    intptr_t n = VM->current_stack(VM->vm, ids, 4);
    if (n > deepest) deepest = n;
    if (n <= 0 || (n <= 4 && ids[n - 1] != m)) fprintf(stderr, "bad stack %ld\n", (long)n);
}
static void on_marker(void *ctx, uint32_t vp, uint32_t tid, uint32_t kind, uint32_t run, const uint8_t *t, size_t len) {
    (void)ctx;
    fprintf(stderr, "marker vp=%u tid=%u kind=%u run=%u %.*s\n", vp, tid, kind, run, (int)len, (const char *)t);
}
static void on_vp_end(void *ctx, uint32_t vp, int32_t code) { (void)ctx; fprintf(stderr, "vp_end %u %d\n", vp, code); }
static void on_death(void *ctx, int32_t code) {
    (void)ctx;
    fprintf(stderr, "death %d switches=%s service_runs=%s deep=%s\n", code, switches > 0 ? "yes" : "no",
            service_runs > 0 ? "yes" : "no", deepest >= 1 ? "yes" : "no");
}

int Agent_OnLoad_rvm(const RvmVm *vm, const char *options, RvmCallbacks *cb) {
    if (options && strcmp(options, "refuse") == 0) {
        fprintf(stderr, "testagent: error: refusing to start\n");
        return 1;
    }
    VM = vm;
    fprintf(stderr, "loaded options=%s vps=%u sizes=%s\n", options ? options : "(null)", vm->vps,
            vm->size == sizeof(RvmVm) && cb->size == sizeof(RvmCallbacks) && vm->version == 3 ? "ok" : "differ");
    cb->vm_init = on_init;
    cb->thread_switch = on_switch;
    cb->method_entry = on_entry;
    cb->marker = on_marker;
    cb->vp_end = on_vp_end;
    cb->vm_death = on_death;
    return 0;
}
"#;

fn build_agent() -> Option<PathBuf> {
    let dir = java_tests::class_root().join("rvm-test-agent");
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("testagent.c");
    let lib = dir.join("libtestagent.so");
    std::fs::write(&src, AGENT_C).unwrap();
    match Command::new("cc").args(["-shared", "-fPIC", "-O1", "-Wall", "-Werror", "-o"]).arg(&lib).arg(&src).status() {
        Ok(s) if s.success() => Some(lib),
        Ok(s) => panic!("cc failed on the test agent: {s}"),
        Err(e) => {
            eprintln!("skipped: no C compiler ({e})");
            None
        }
    }
}

#[test]
fn a_c_agent_library_is_loaded_and_driven() {
    let Some(lib) = build_agent() else { return };
    let workloads = java_tests::compile("workloads").expect("compile workloads");
    let dir = java_tests::compile_with("rvmagent", &["-cp", workloads.to_str().unwrap()]).expect("compile rvmagent");
    let o = Command::new(env!("CARGO_BIN_EXE_rvm"))
        .arg("-Xvps:2")
        .arg(format!("-agentpath:{}=hello,x=1", lib.display()))
        .arg("-cp")
        .arg(&dir)
        .arg("Markers")
        .output()
        .unwrap();
    let (out, err) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert_eq!(out, "markers placed\n");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines[0], "loaded options=hello,x=1 vps=2 sizes=ok", "{err}");
    assert_eq!(lines[1], "init service=5 thread0=main", "{err}");
    assert!(!err.contains("bad stack"), "{err}");
    assert!(lines.contains(&"marker vp=0 tid=0 kind=2 run=0 markers") || lines.iter().any(|l| l.ends_with("kind=2 run=0 markers")), "{err}");
    assert!(lines.iter().any(|l| l.ends_with("kind=7 run=0 inside run 2 \u{e9}")), "{err}");
    assert_eq!(lines.iter().filter(|l| l.starts_with("marker ")).count(), 8, "{err}");
    let ends: Vec<usize> = lines.iter().enumerate().filter(|(_, l)| l.starts_with("vp_end ")).map(|(i, _)| i).collect();
    assert_eq!(ends.len(), 2, "{err}");
    assert!(lines.last().unwrap().starts_with("death 0 switches=yes "), "{err}");
    assert!(ends.iter().all(|i| *i < lines.len() - 1));

    // A longer run: the service thread is woken and runs.
    let o = Command::new(env!("CARGO_BIN_EXE_rvm"))
        .arg("-Xvps:2")
        .arg(format!("-agentpath:{}", lib.display()))
        .arg("-cp")
        .arg(&dir)
        .arg("SpinCallee")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(err.starts_with("loaded options=(null) vps=2 sizes=ok\n"), "{err}");
    assert!(err.ends_with("death 0 switches=yes service_runs=yes deep=yes\n"), "{err}");

    // The agent refuses: its own line, then rvm's, exit 1, no Java code run.
    let o = Command::new(env!("CARGO_BIN_EXE_rvm"))
        .arg(format!("-agentpath:{}=refuse", lib.display()))
        .arg("-cp")
        .arg(&dir)
        .arg("Markers")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty());
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!("testagent: error: refusing to start\nrvm: error: agent {} refused to start (see above)\n", lib.display())
    );
}
