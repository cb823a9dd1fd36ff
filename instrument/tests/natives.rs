//! Native method wrappers: `nat.Natives` (java-tests/instrument/natives) declares native methods of
//! every shape, implemented by a C library compiled here and named for the original methods. The
//! instrumented class runs on JDK 17 and 25 (every class verified, interpreted and compiled by C2)
//! under a tiny JVMTI agent, also compiled here, that only sets the native method prefix: the JVM
//! then binds each renamed native to the original's JNI symbol (or RegisterNatives entry), and the
//! recording probe logs the wrappers' entries and exits.

mod common;

use common::{java, jdk, jdks, path_list, verify_all, Ids, Scratch};
use hpm_instrument::{instrument_outcome, MethodInfo, Outcome, Probes};
use std::path::{Path, PathBuf};
use std::process::Command;

const PREFIX: &str = "$hpm$";
const ACC_NATIVE: u16 = 0x0100;

fn probes() -> Probes {
    common::all_probes("hpmagent/Probe").with_native_prefix(PREFIX)
}

/// Compiles a C file into a shared library with the JNI and JVMTI headers of JDK 17.
fn cc(source: &Path, out: &Path) {
    let include = jdk(17).home.join("include");
    let status = Command::new("cc")
        .args(["-shared", "-fPIC", "-O1", "-Wall", "-Werror", "-o"])
        .arg(out)
        .arg("-I")
        .arg(&include)
        .arg("-I")
        .arg(include.join("linux"))
        .arg(source)
        .status()
        .unwrap_or_else(|e| panic!("cannot run cc (the native method tests compile C; install gcc): {e}"));
    assert!(status.success(), "cc failed on {}", source.display());
}

struct Natives {
    dir: Scratch,
    classes: PathBuf,
    inst: PathBuf,
    ids: Ids,
    outcome: Outcome,
    lib: PathBuf,
    agent: PathBuf,
}

fn setup(name: &str, probes: &Probes) -> Natives {
    let dir = Scratch::new(name);
    let classes = java_tests::compile("instrument/natives").unwrap();
    let inst = dir.path().join("inst");
    let (ids, mut outcomes) = common::instrument_dir_with(&classes, &inst, probes, 1, &|n| n == "nat/Natives");
    let outcome = outcomes.pop().unwrap();
    let c = java_tests::source_root().join("instrument/natives/c");
    let (lib, agent) = (dir.path().join("libnatives.so"), dir.path().join("libprefix_agent.so"));
    cc(&c.join("natives.c"), &lib);
    cc(&c.join("prefix_agent.c"), &agent);
    Natives { dir, classes, inst, ids, outcome, lib, agent }
}

impl Natives {
    /// Runs the driver on these scenarios, with the prefix agent if `agent`; returns its output.
    fn run(&self, jdk: &java_tests::Jdk, classes: &Path, agent: bool, extra: &[&str], specs: &[&str]) -> String {
        java(jdk, &self.args(classes, agent, extra, specs))
    }

    fn args(&self, classes: &Path, agent: bool, extra: &[&str], specs: &[&str]) -> Vec<String> {
        let driver = java_tests::compile("instrument/run").unwrap();
        let mut args = verify_all();
        if agent {
            args.push(format!("-agentpath:{}={PREFIX}", self.agent.display()));
        }
        args.extend([format!("-Dnat.lib={}", self.lib.display()), format!("-Dnat.prefix={PREFIX}")]);
        args.extend(extra.iter().map(|s| s.to_string()));
        args.extend(["-cp".to_string(), path_list(&[classes, &driver]), "driver.Driver".to_string()]);
        args.extend(specs.iter().map(|s| s.to_string()));
        args
    }
}

/// `S`, `E` and `X` lines of the driver's output for one scenario: (events, exception).
fn scenario<'o>(out: &'o str, target: &str) -> (Vec<i64>, Option<&'o str>) {
    let mut lines = out.lines().skip_while(|l| !l.starts_with(&format!("S {target}:")));
    let header = lines.next().unwrap_or_else(|| panic!("{target} not run:\n{out}"));
    assert!(header.ends_with(" 0"), "{target}: repetitions recorded other events: {header}");
    let events = lines.next().unwrap().strip_prefix('E').unwrap().split_whitespace().map(|w| w.parse().unwrap()).collect();
    let thrown = lines.next().and_then(|l| l.strip_prefix("X "));
    (events, thrown)
}

/// The events of `Natives.scenario`: every wrapper enters and exits (fail() by exception).
fn expected_events() -> String {
    let call = |m: &str| format!("+Natives.{m} -Natives.{m}");
    let checked = |m: &str| format!("{} +Natives.expect -Natives.expect", call(m));
    [
        "+Natives.scenario".to_string(),
        checked("add"),
        call("<init>"),
        checked("mix"),
        checked("half"),
        checked("greet"),
        checked("widen"),
        checked("holdsOwnLock"),
        checked("holdsClassLock"),
        "+Natives.fail !Natives.fail ^Natives.scenario +Natives.expect -Natives.expect".to_string(),
        "+Natives.callback +Natives.twice -Natives.twice -Natives.callback +Natives.expect -Natives.expect".to_string(),
        checked("registered"),
        call("nothing"),
        format!("{} +Natives.expect -Natives.expect", checked("array")),
        checked("sum"),
        "-Natives.scenario".to_string(),
    ]
    .join(" ")
}

/// Also with a carried context: each wrapper hands its entry's context to its exit and thrown
/// probes (the driver reports a probe that got another one, `M`).
#[test]
fn wrapped_natives_bind_through_the_prefix_and_report_entries_and_exits() {
    wrapped_natives_run("natives-run", &probes());
    wrapped_natives_run("natives-run-carried", &common::carried(probes()));
}

fn wrapped_natives_run(name: &str, probes: &Probes) {
    let n = setup(name, probes);
    assert_eq!(n.outcome.wrapped.len(), 13, "{:?}", n.outcome.wrapped);
    assert!(n.outcome.skipped.is_empty(), "{:?}", n.outcome.skipped);
    let xcomp = [
        "-Xcomp",
        "-XX:-TieredCompilation",
        "-XX:CompileCommand=quiet",
        "-XX:CompileCommand=compileonly,nat.*::*",
        "-XX:+PrintCompilation",
        "-XX:+DisplayVMOutputToStderr",
    ];
    for jdk in jdks() {
        for extra in [&[][..], &xcomp[..]] {
            let label = format!("{name}: JDK {:?} {extra:?}", jdk.feature_version());
            let run = Command::new(jdk.java()).args(n.args(&n.inst, true, extra, &["nat.Natives.scenario:3", "nat.Natives.reflection:1"])).output().unwrap();
            let (out, err) = (String::from_utf8_lossy(&run.stdout), String::from_utf8_lossy(&run.stderr));
            assert!(run.status.success(), "{label}: java failed\n{out}\n{err}");
            assert!(!out.lines().any(|l| l.starts_with("M ")), "{label}: a probe got another entry's context:\n{out}");
            if !extra.is_empty() {
                // C2 compiled the wrappers (and HotSpot generated native wrappers for the renamed).
                for m in ["nat.Natives::add", "nat.Natives::mix", "nat.Natives::fail", "nat.Natives::$hpm$add"] {
                    assert!(err.lines().any(|l| l.split_whitespace().any(|w| w == m)), "{label}: {m} not compiled:\n{err}");
                }
            }
            let (events, thrown) = scenario(&out, "nat.Natives.scenario");
            assert_eq!(thrown, None, "{label}");
            assert_eq!(n.ids.render(&events), expected_events(), "{label}");
            let (_, thrown) = scenario(&out, "nat.Natives.reflection");
            assert_eq!(thrown, None, "{label}: reflection");
        }
    }
}

/// The same C library binds the original class directly (the scenario's checks hold without
/// wrappers), and without the prefix agent the renamed natives of the instrumented class stay
/// unbound: the binding really goes through the prefix.
#[test]
fn without_the_prefix_the_renamed_natives_are_unbound() {
    let n = setup("natives-unbound", &probes());
    let jdk = jdk(17);
    let out = n.run(&jdk, &n.classes, false, &[], &["nat.Natives.scenario:1"]);
    assert_eq!(scenario(&out, "nat.Natives.scenario").1, None, "original class");
    let out = n.run(&jdk, &n.inst, false, &[], &["nat.Natives.scenario:1"]);
    let (_, thrown) = scenario(&out, "nat.Natives.scenario");
    assert!(thrown.is_some_and(|t| t.starts_with("java.lang.UnsatisfiedLinkError") && t.contains(PREFIX)), "{thrown:?}");
    drop(n.dir);
}

fn class_bytes() -> Vec<u8> {
    std::fs::read(java_tests::compile("instrument/natives").unwrap().join("nat/Natives.class")).unwrap()
}

/// The API: natives are offered only with a prefix, probed with their MethodInfo as declared, and
/// listed renamed in `wrapped`; the output's method table is the original with the wrapped natives
/// made wrappers, followed by the renamed natives.
#[test]
fn natives_are_offered_and_reported_only_with_a_prefix() {
    let bytes = class_bytes();
    let natives = |o: &Outcome| o.methods.iter().filter(|m| m.access & ACC_NATIVE != 0).cloned().collect::<Vec<_>>();
    let mut offered = Vec::new();
    let plain = instrument_outcome(&bytes, &common::all_probes("hpmagent/Probe"), &mut |m| {
        offered.push(m.clone());
        None
    })
    .unwrap();
    assert!(offered.iter().all(|m| m.access & ACC_NATIVE == 0));
    assert_eq!(natives(&plain).len(), 13);

    // Only the natives selected.
    let mut offered = Vec::new();
    let o = instrument_outcome(&bytes, &probes(), &mut |m| {
        offered.push(m.clone());
        (m.access & ACC_NATIVE != 0).then_some(offered.len() as u32)
    })
    .unwrap();
    assert_eq!(offered, o.methods, "every method offered, in class-file order");
    assert_eq!(o.probed.iter().map(|(m, _)| m.clone()).collect::<Vec<_>>(), natives(&o));
    let renamed: Vec<MethodInfo> = natives(&o)
        .iter()
        .map(|m| {
            let keep = m.access & (0x0008 | 0x0010); // static, final
            MethodInfo { name: format!("{PREFIX}{}", m.name), descriptor: m.descriptor.clone(), access: 0x1000 | ACC_NATIVE | 0x0002 | keep, trivial: false }
        })
        .collect();
    assert_eq!(o.wrapped, renamed);
    let out = o.bytes.unwrap();
    let again = instrument_outcome(&out, &probes(), &mut |_| None).unwrap();
    let mut want: Vec<MethodInfo> =
        o.methods.iter().map(|m| MethodInfo { access: m.access & !ACC_NATIVE, ..m.clone() }).collect();
    want.extend(renamed);
    assert_eq!(again.methods, want);

    // Instrumented again with wrapping: the renamed natives are refused, the wrappers are methods
    // with code like any other.
    let twice = instrument_outcome(&out, &probes(), &mut |_| Some(1)).unwrap();
    assert_eq!(twice.skipped.len(), 13, "{:?}", twice.skipped);
    assert!(twice.skipped.iter().all(|(m, why)| m.name.starts_with(PREFIX) && why.contains("already carries")));
    assert!(twice.wrapped.is_empty());
}

#[test]
fn an_invalid_prefix_is_a_skip_reason() {
    let bytes = class_bytes();
    for bad in ["", "a.b", "x/", "<p>"] {
        let p = common::probes("hpmagent/Probe").with_native_prefix(bad);
        let o = instrument_outcome(&bytes, &p, &mut |_| Some(3)).unwrap();
        assert_eq!(o.skipped.len(), 13, "{bad:?}");
        assert!(o.skipped.iter().all(|(_, why)| why.contains("native method prefix")), "{:?}", o.skipped);
        assert!(o.wrapped.is_empty() && o.probed.iter().all(|(m, _)| m.access & ACC_NATIVE == 0));
    }
}
