//! Instrumented classes compiled by javac, executed by real JVMs (JDK 17 and 25, every class
//! verified), interpreted, compiled by C2 with -Xcomp, and in a warm loop: the recorded entry and
//! exit events must be exactly the expected call structure. The same scenarios run with the
//! thrown and caught probes too, and every case runs both without and with a carried context (the
//! entry probe's result handed to the other probes, which check that it is their entry's).

mod common;

use common::{class_files, downgrade, huge_source, java, javac, jdk, jdks, jsr_class, path_list, verify_all, Ids, Kind, Scratch};
use hpm_instrument::Probes;
use java_tests::Jdk;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// What the driver printed for one scenario.
#[derive(Debug)]
struct Run {
    differing: usize,
    events: Vec<i64>,
    thrown: Option<String>,
    /// A probe got another entry's carried context: how many, and the first.
    mismatched: Option<String>,
}

fn parse_driver(stdout: &str) -> HashMap<String, Run> {
    let mut runs = HashMap::new();
    let mut current: Option<String> = None;
    for line in stdout.lines() {
        if let Some(rest) = line.strip_prefix("S ") {
            let (spec, differing) = rest.rsplit_once(' ').unwrap();
            let target = spec.rsplit_once(':').unwrap().0.to_string();
            let run = Run { differing: differing.parse().unwrap(), events: Vec::new(), thrown: None, mismatched: None };
            runs.insert(target.clone(), run);
            current = Some(target);
        } else if let Some(rest) = line.strip_prefix('E') {
            let run = runs.get_mut(current.as_ref().unwrap()).unwrap();
            run.events = rest.split_whitespace().map(|w| w.parse().unwrap()).collect();
        } else if let Some(rest) = line.strip_prefix("X ") {
            runs.get_mut(current.as_ref().unwrap()).unwrap().thrown = Some(rest.to_string());
        } else if let Some(rest) = line.strip_prefix("M ") {
            runs.get_mut(current.as_ref().unwrap()).unwrap().mismatched = Some(rest.to_string());
        }
    }
    runs
}

/// `+A.m*3` stands for three `+A.m`.
fn expand(expected: &str) -> String {
    let mut out = Vec::new();
    for w in expected.split_whitespace() {
        match w.rsplit_once('*') {
            Some((word, n)) => out.extend(std::iter::repeat_n(word, n.parse().unwrap())),
            None => out.push(w),
        }
    }
    out.join(" ")
}

/// Events with entry and exit probes only: exits by exception logged as exits (`!m` as `-m`),
/// no caught events (`^m`).
fn project(events: &str) -> String {
    let words = events.split_whitespace().filter(|w| !w.starts_with('^'));
    words.map(|w| w.strip_prefix('!').map_or_else(|| w.to_string(), |m| format!("-{m}"))).collect::<Vec<_>>().join(" ")
}

/// A scenario: driver target, expected events, expected exception (class name prefix), whether
/// it can be repeated (static initialisers run once).
struct Scenario {
    target: &'static str,
    /// The events with entry and exit probes (with all four probes, this is what the events
    /// project to; see [`project`]).
    expected: &'static str,
    /// The events with all four probes, if the scenario says exactly (then `expected` is unused:
    /// it is this projected).
    all: Option<&'static str>,
    thrown: Option<&'static str>,
    repeatable: bool,
}

const fn sc(target: &'static str, expected: &'static str) -> Scenario {
    Scenario { target, expected, all: None, thrown: None, repeatable: true }
}

/// A scenario given by its events with all four probes.
const fn sc_all(target: &'static str, all: &'static str) -> Scenario {
    Scenario { target, expected: "", all: Some(all), thrown: None, repeatable: true }
}

/// Which probes the classes got.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Mode {
    /// enter, exit, thrown and caught (else enter and exit)
    all: bool,
    /// The entry probe's context is carried to the others.
    carried: bool,
}

impl Mode {
    const ENTER_EXIT: Mode = Mode { all: false, carried: false };
    const ALL: Mode = Mode { all: true, carried: false };

    /// This mode without and with a carried context.
    fn both(self) -> [Mode; 2] {
        [Mode { carried: false, ..self }, Mode { carried: true, ..self }]
    }

    fn probes(self) -> Probes {
        let p = if self.all { common::all_probes("hpmagent/Probe") } else { common::probes("hpmagent/Probe") };
        if self.carried {
            common::carried(p)
        } else {
            p
        }
    }

    /// For directory names.
    fn name(self) -> String {
        format!("{}{}", if self.all { "all" } else { "enter-exit" }, if self.carried { "-carried" } else { "" })
    }
}

fn scenarios() -> Vec<Scenario> {
    vec![
        sc(
            "itest.Throws.scenario",
            "+Throws.scenario +Throws.mid +Throws.low +Throws.deep*4 -Throws.deep*4 -Throws.low -Throws.mid \
             +Throws.caught -Throws.caught -Throws.scenario",
        ),
        sc("itest.Throws.recursion", "+Throws.recursion +Throws.rec*9 -Throws.rec*9 -Throws.recursion"),
        Scenario {
            thrown: Some("java.lang.IllegalStateException"),
            ..sc(
                "itest.Throws.escapes",
                "+Throws.escapes +Throws.mid +Throws.low +Throws.deep*4 -Throws.deep*4 -Throws.low -Throws.mid -Throws.escapes",
            )
        },
        sc(
            "itest.Ctors.normal",
            "+Ctors.normal +Ctors$Sub.<init>(I) +Ctors.check -Ctors.check +Ctors$Base.<init> -Ctors$Base.<init> \
             -Ctors$Sub.<init>(I) -Ctors.normal",
        ),
        sc(
            "itest.Ctors.throwsAfterSuper",
            "+Ctors.throwsAfterSuper +Ctors$Sub.<init>(I) +Ctors.check -Ctors.check +Ctors$Base.<init> \
             -Ctors$Base.<init> -Ctors$Sub.<init>(I) -Ctors.throwsAfterSuper",
        ),
        sc(
            "itest.Ctors.throwsBeforeSuper",
            "+Ctors.throwsBeforeSuper +Ctors$Sub.<init>(I) +Ctors.check -Ctors.check -Ctors$Sub.<init>(I) \
             -Ctors.throwsBeforeSuper",
        ),
        sc(
            "itest.Ctors.thisArgumentThrows",
            "+Ctors.thisArgumentThrows +Ctors$Sub.<init>(Ljava/lang/String;) -Ctors$Sub.<init>(Ljava/lang/String;) \
             -Ctors.thisArgumentThrows",
        ),
        // The documented gap: an exception out of the super constructor call itself leaves the
        // constructor without an exit event (no stack map frame can cover that instruction).
        sc(
            "itest.Ctors.superThrows",
            "+Ctors.superThrows +Ctors$Sub.<init>(I) +Ctors.check -Ctors.check +Ctors$Base.<init> -Ctors$Base.<init> \
             -Ctors.superThrows",
        ),
        sc(
            "itest.Ctors.ternary",
            "+Ctors.ternary \
             +Ctors$Sub.<init>(ZI) +Ctors.pick +Ctors.check -Ctors.check -Ctors.pick +Ctors$Base.<init> -Ctors$Base.<init> -Ctors$Sub.<init>(ZI) \
             +Ctors$Sub.<init>(ZI) +Ctors.pick +Ctors.check -Ctors.check -Ctors.pick +Ctors$Base.<init> -Ctors$Base.<init> -Ctors$Sub.<init>(ZI) \
             +Ctors$Sub.<init>(ZI) +Ctors.pick +Ctors.check -Ctors.check -Ctors.pick -Ctors$Sub.<init>(ZI) \
             -Ctors.ternary",
        ),
        sc(
            "itest.Ctors.nestedNew",
            "+Ctors.nestedNew \
             +Ctors$Helper.<init> +Ctors.check -Ctors.check -Ctors$Helper.<init> \
             +Ctors$Helper.<init> +Ctors.check -Ctors.check -Ctors$Helper.<init> \
             +Ctors$Sub.<init>(Litest/Ctors$Helper;Litest/Ctors$Helper;) \
             +Ctors$Helper.<init> +Ctors.check -Ctors.check -Ctors$Helper.<init> \
             +Ctors$Base.<init> -Ctors$Base.<init> -Ctors$Sub.<init>(Litest/Ctors$Helper;Litest/Ctors$Helper;) \
             +Ctors$Helper.<init> +Ctors.check -Ctors.check -Ctors$Helper.<init> \
             +Ctors$Helper.<init> +Ctors.check -Ctors.check -Ctors$Helper.<init> \
             +Ctors$Sub.<init>(Litest/Ctors$Helper;Litest/Ctors$Helper;) \
             +Ctors$Helper.<init> +Ctors.check -Ctors.check -Ctors$Helper.<init> \
             -Ctors$Sub.<init>(Litest/Ctors$Helper;Litest/Ctors$Helper;) \
             -Ctors.nestedNew",
        ),
        sc(
            "itest.Ctors.tryAfterSuper",
            "+Ctors.tryAfterSuper +Ctors$Sub.<init>(J) +Ctors$Base.<init> -Ctors$Base.<init> +Ctors.check -Ctors.check \
             -Ctors$Sub.<init>(J) -Ctors.tryAfterSuper",
        ),
        sc(
            "itest.Ctors.inner",
            "+Ctors.inner +Ctors.<init> -Ctors.<init> \
             +Ctors$Inner.<init> +Ctors.check -Ctors.check +Ctors$Base.<init> -Ctors$Base.<init> -Ctors$Inner.<init> \
             +Ctors$Inner.<init> +Ctors.check -Ctors.check -Ctors$Inner.<init> -Ctors.inner",
        ),
        sc(
            "itest.Finally.scenario",
            "+Finally.scenario +Finally.fin +Finally.inner -Finally.inner +Finally.cleanup -Finally.cleanup -Finally.fin \
             +Finally.fin +Finally.cleanup -Finally.cleanup -Finally.fin \
             +Finally.nested +Finally.cleanup -Finally.cleanup -Finally.nested \
             +Finally.nested +Finally.cleanup -Finally.cleanup -Finally.nested \
             +Finally.finallyReturns +Finally.inner -Finally.inner -Finally.finallyReturns -Finally.scenario",
        ),
        Scenario {
            repeatable: false,
            ..sc(
                "itest.StaticInit.scenario",
                "+StaticInit.scenario +StaticInit$Init.<clinit> +StaticInit$Init.compute -StaticInit$Init.compute \
                 -StaticInit$Init.<clinit> +StaticInit$BadInit.<clinit> +StaticInit$BadInit.boom -StaticInit$BadInit.boom \
                 -StaticInit$BadInit.<clinit> -StaticInit.scenario",
            )
        },
        sc(
            "itest.Lambdas.scenario",
            "+Lambdas.scenario +Lambdas.lambda$scenario$0 +Lambdas.helper -Lambdas.helper -Lambdas.lambda$scenario$0 \
             +Lambdas.lambda$scenario$1 -Lambdas.lambda$scenario$1 +Lambdas.helper -Lambdas.helper -Lambdas.scenario",
        ),
        sc(
            "itest.Switches.scenario",
            "+Switches.scenario +Switches.table -Switches.table +Switches.table -Switches.table +Switches.table -Switches.table \
             +Switches.table -Switches.table +Switches.table -Switches.table +Switches.table -Switches.table \
             +Switches.lookup -Switches.lookup +Switches.lookup -Switches.lookup +Switches.lookup -Switches.lookup \
             +Switches.lookup -Switches.lookup +Switches.str -Switches.str +Switches.str -Switches.str +Switches.str -Switches.str \
             -Switches.scenario",
        ),
        sc(
            "itest.Sync.scenario",
            "+Sync.scenario +Sync.<init> -Sync.<init> +Sync.syncThrow -Sync.syncThrow +Sync.syncThrow -Sync.syncThrow \
             +Sync.block -Sync.block +Sync.block -Sync.block -Sync.scenario",
        ),
        sc(
            "itest.Shapes.scenario",
            "+Shapes.scenario +Shapes$Shape.unit +Shapes$Square.<init> +Shapes$Base.<init> -Shapes$Base.<init> \
             -Shapes$Square.<init> -Shapes$Shape.unit +Shapes$Shape.describe +Shapes$Shape.kind -Shapes$Shape.kind \
             +Shapes$Square.area -Shapes$Square.area -Shapes$Shape.describe +Shapes$Square.sides -Shapes$Square.sides \
             -Shapes.scenario",
        ),
        sc(
            "itest.Loops.scenario",
            "+Loops.scenario +Loops.whileAtZero +Loops.step -Loops.step +Loops.step -Loops.step +Loops.step -Loops.step \
             -Loops.whileAtZero +Loops.doWhileAtZero +Loops.step -Loops.step +Loops.step -Loops.step -Loops.doWhileAtZero \
             -Loops.scenario",
        ),
    ]
    .into_iter()
    .chain(handler_scenarios())
    .collect()
}

/// Exception handlers of every kind, with the exact caught and thrown events.
fn handler_scenarios() -> Vec<Scenario> {
    vec![
        // The documented gap closed by the caller's caught probe: Derived's super(...) throws, so
        // Derived reports no exit; the handler in superThrows says superThrows is current again
        // before it calls after().
        sc_all(
            "itest.Handlers.superThrows",
            "+Handlers.superThrows +Handlers$Derived.<init> +Handlers$Base.<init> !Handlers$Base.<init> \
             ^Handlers.superThrows +Handlers.after -Handlers.after -Handlers.superThrows",
        ),
        sc_all(
            "itest.Handlers.superThrowsTwoLevels",
            "+Handlers.superThrowsTwoLevels +Handlers$Derived2.<init> +Handlers$Derived.<init> +Handlers$Base.<init> \
             !Handlers$Base.<init> ^Handlers.superThrowsTwoLevels +Handlers.after -Handlers.after \
             +Handlers$Derived2.<init> +Handlers$Derived.<init> +Handlers$Base.<init> -Handlers$Base.<init> \
             -Handlers$Derived.<init> -Handlers$Derived2.<init> -Handlers.superThrowsTwoLevels",
        ),
        sc_all(
            "itest.Handlers.catchAndFinally",
            "+Handlers.catchAndFinally +Handlers.after -Handlers.after +Handlers.after -Handlers.after \
             +Handlers.boom !Handlers.boom ^Handlers.catchAndFinally +Handlers.after -Handlers.after \
             +Handlers.after -Handlers.after -Handlers.catchAndFinally",
        ),
        // The finally handler (catch type 0), then the outer catch.
        sc_all(
            "itest.Handlers.finallyRethrows",
            "+Handlers.finallyRethrows +Handlers.boom !Handlers.boom ^Handlers.finallyRethrows +Handlers.after -Handlers.after \
             ^Handlers.finallyRethrows +Handlers.after -Handlers.after -Handlers.finallyRethrows",
        ),
        sc_all(
            "itest.Handlers.escapesThroughFinally",
            "+Handlers.escapesThroughFinally +Handlers.leaky +Handlers.boom !Handlers.boom ^Handlers.leaky \
             +Handlers.after -Handlers.after !Handlers.leaky ^Handlers.escapesThroughFinally -Handlers.escapesThroughFinally",
        ),
        // The synchronized block's own any-handler, then the catch.
        sc_all(
            "itest.Handlers.syncBlock",
            "+Handlers.syncBlock +Handlers.boom !Handlers.boom ^Handlers.syncBlock ^Handlers.syncBlock -Handlers.syncBlock",
        ),
        sc_all(
            "itest.Handlers.multiCatch",
            "+Handlers.multiCatch +Handlers.boom !Handlers.boom ^Handlers.multiCatch \
             +Handlers$Derived.<init> +Handlers$Base.<init> !Handlers$Base.<init> ^Handlers.multiCatch -Handlers.multiCatch",
        ),
        sc_all(
            "itest.Handlers.nested",
            "+Handlers.nested +Handlers.boom !Handlers.boom ^Handlers.nested +Handlers.boom !Handlers.boom ^Handlers.nested \
             +Handlers.after -Handlers.after -Handlers.nested",
        ),
    ]
}

/// The `run` group compiled by javac and its `itest` classes instrumented into `dir`.
fn instrumented_run_group(dir: &Path, probes: &Probes, first_id: u32) -> (PathBuf, Ids, Vec<hpm_instrument::Outcome>) {
    let classes = java_tests::compile("instrument/run").unwrap();
    let inst = dir.join("classes");
    let (ids, outcomes) = common::instrument_dir_with(&classes, &inst, probes, first_id, &|n| n.starts_with("itest/"));
    assert!(outcomes.len() >= 10, "expected the itest classes, got {}", outcomes.len());
    for o in &outcomes {
        assert!(o.skipped.is_empty(), "{}: unexpected skips {:?}", o.class_name, o.skipped);
    }
    (inst, ids, outcomes)
}

fn driver_args(cp: &str, extra: &[&str], specs: &[String]) -> Vec<String> {
    let mut args = verify_all();
    args.extend(extra.iter().map(|s| s.to_string()));
    args.extend(["-cp".to_string(), cp.to_string(), "driver.Driver".to_string()]);
    args.extend(specs.iter().cloned());
    args
}

/// Checks every scenario's events as recorded with the probes of `mode` (and that each repetition
/// matched the first, and that every probe got its own entry's carried context).
fn check_mode(label: &str, mode: Mode, ids: &Ids, runs: &HashMap<String, Run>, list: &[Scenario]) {
    let mut failures = Vec::new();
    for s in list {
        let Some(run) = runs.get(s.target) else {
            failures.push(format!("{}: not run", s.target));
            continue;
        };
        let got = ids.render(&run.events);
        let (got, want) = match (mode.all, s.all) {
            (false, None) => (got, expand(s.expected)),
            (false, Some(all)) => (got, project(&expand(all))),
            (true, Some(all)) => (got, expand(all)),
            (true, None) => (project(&got), expand(s.expected)),
        };
        if got != want {
            failures.push(format!("{}:\n  want {want}\n  got  {got}", s.target));
        }
        if run.differing != 0 {
            failures.push(format!("{}: {} repetitions recorded other events than the first", s.target, run.differing));
        }
        if let Some(m) = &run.mismatched {
            failures.push(format!("{}: probes got another entry's context: {m}", s.target));
        }
        match (&run.thrown, s.thrown) {
            (None, None) => {}
            (Some(t), Some(prefix)) if t.starts_with(prefix) => {}
            (t, want) => failures.push(format!("{}: threw {t:?}, expected {want:?}", s.target)),
        }
    }
    assert!(failures.is_empty(), "{label}:\n{}", failures.join("\n"));
}

fn specs(list: &[Scenario], reps: usize) -> Vec<String> {
    list.iter().map(|s| format!("{}:{}", s.target, if s.repeatable { reps } else { 1 })).collect()
}

/// Checks that events are well nested: every exit matches the innermost open entry, and every
/// entry has its exit.
fn assert_nested(ids: &Ids, events: &[i64]) {
    let mut stack = Vec::new();
    for &e in events {
        let id = common::event_id(e);
        if common::event_kind(e) == common::Kind::Enter {
            stack.push(id);
        } else {
            assert_eq!(stack.pop(), Some(id), "exit of {} does not match the open entries: {}", ids.name(id), ids.render(events));
        }
    }
    assert!(stack.is_empty(), "entries without exit: {}", ids.render(events));
}

/// With all four probes, the events replay on a stack: an entry pushes, an exit or exit by
/// exception pops its own method, and a caught event finds its method on the stack and closes the
/// frames above it, which may only be constructors (left by an exception out of their super or
/// this call, the documented gap). Every scenario ends with an empty stack.
fn assert_unwinds(ids: &Ids, events: &[i64]) {
    let mut stack = Vec::new();
    let all = ids.render(events);
    for &e in events {
        let id = common::event_id(e);
        match common::event_kind(e) {
            Kind::Enter => stack.push(id),
            Kind::Exit | Kind::Thrown => assert_eq!(stack.pop(), Some(id), "exit of {} does not match the open entries: {all}", ids.name(id)),
            Kind::Caught => {
                let at = stack.iter().rposition(|&m| m == id).unwrap_or_else(|| panic!("caught in {}, which is not open: {all}", ids.name(id)));
                for &m in &stack[at + 1..] {
                    assert!(ids.name(m).contains(".<init>"), "caught in {} closes {}, not a constructor: {all}", ids.name(id), ids.name(m));
                }
                stack.truncate(at + 1);
            }
        }
    }
    assert!(stack.is_empty(), "entries without exit: {all}");
}

/// One JDK's scenario runs and standard error.
type JdkRuns = (Jdk, HashMap<String, Run>, String);

/// [`run_scenarios_in`] with the probes of `base`, without and with a carried context; returns
/// what each returned.
fn run_scenarios(base: Mode, name: &str, extra: &[&str], reps: usize) -> Vec<(Ids, Vec<JdkRuns>)> {
    base.both().into_iter().map(|mode| run_scenarios_in(mode, name, extra, reps)).collect()
}

/// Instruments the run group with the probes of `mode`, runs every scenario `reps` times (once if
/// not repeatable) on both JDKs with `extra` JVM flags and checks the events (with all four probes,
/// every run must also replay: [`assert_unwinds`]); returns the ids and, per JDK, the runs and the
/// JVM's standard error.
fn run_scenarios_in(mode: Mode, name: &str, extra: &[&str], reps: usize) -> (Ids, Vec<JdkRuns>) {
    let dir = Scratch::new(&format!("{name}-{}", mode.name()));
    let (inst, ids, _) = instrumented_run_group(dir.path(), &mode.probes(), 1);
    let list = scenarios();
    let cp = path_list(&[&inst]);
    let mut results = Vec::new();
    for jdk in jdks() {
        let (out, err) = java_with_stderr(&jdk, &driver_args(&cp, extra, &specs(&list, reps)));
        let runs = parse_driver(&out);
        check_mode(&format!("JDK {:?} {extra:?} {}", jdk.feature_version(), mode.name()), mode, &ids, &runs, &list);
        if mode.all {
            for run in runs.values() {
                assert_unwinds(&ids, &run.events);
            }
        }
        results.push((jdk, runs, err));
    }
    (ids, results)
}

#[test]
fn scenarios_interpreted_on_both_jdks() {
    for (ids, results) in run_scenarios(Mode::ENTER_EXIT, "run-interpreted", &["-Xint"], 1) {
        for (_, runs, _) in results {
            for (target, run) in runs {
                // Left out: the scenarios where a super constructor throws (the documented gap).
                if !target.contains("superThrows") && target != "itest.Handlers.multiCatch" {
                    assert_nested(&ids, &run.events);
                }
            }
        }
    }
}

/// The C2 flags of the -Xcomp runs: every itest method compiled by C2 before it runs, compilations
/// printed.
const XCOMP: [&str; 6] = [
    "-Xcomp",
    "-XX:-TieredCompilation",
    "-XX:CompileCommand=quiet",
    "-XX:CompileCommand=compileonly,itest.*::*",
    "-XX:+PrintCompilation",
    "-XX:+DisplayVMOutputToStderr",
];

#[test]
fn scenarios_with_thrown_and_caught_probes_interpreted() {
    run_scenarios(Mode::ALL, "run-all-interpreted", &["-Xint"], 1);
}

#[test]
fn scenarios_with_thrown_and_caught_probes_compiled_by_c2() {
    for (jdk, _, err) in run_scenarios(Mode::ALL, "run-all-xcomp", &XCOMP, 3).into_iter().flat_map(|r| r.1) {
        for m in ["itest.Handlers::superThrows", "itest.Handlers::catchAndFinally", "itest.Handlers::syncBlock", "itest.Handlers$Derived::<init>"] {
            assert!(err.contains(m), "JDK {:?}: C2 did not compile {m}", jdk.feature_version());
        }
    }
}

#[test]
fn scenarios_with_thrown_and_caught_probes_in_a_warm_loop() {
    let extra = ["-Xbatch", "-XX:+PrintCompilation", "-XX:+DisplayVMOutputToStderr"];
    for (jdk, _, err) in run_scenarios(Mode::ALL, "run-all-warm", &extra, 20_000).into_iter().flat_map(|r| r.1) {
        for m in ["itest.Handlers::catchAndFinally", "itest.Handlers::leaky", "itest.Handlers::nested"] {
            assert!(compiled_at_tier_4(&err, m), "JDK {:?}: {m} was not compiled at tier 4", jdk.feature_version());
        }
    }
}

/// Whether -XX:+PrintCompilation output shows `method` compiled by C2 (tier 4).
fn compiled_at_tier_4(err: &str, method: &str) -> bool {
    err.lines().any(|l| {
        let w: Vec<&str> = l.split_whitespace().collect();
        w.iter().position(|x| *x == method).is_some_and(|i| i > 0 && w[i - 1] == "4")
    })
}

#[test]
fn scenarios_compiled_by_c2_with_xcomp() {
    for (jdk, _, err) in run_scenarios(Mode::ENTER_EXIT, "run-xcomp", &XCOMP, 3).into_iter().flat_map(|r| r.1) {
        for m in ["itest.Throws::deep", "itest.Ctors$Sub::<init>", "itest.Switches::table", "itest.Lambdas::lambda$scenario$0"] {
            assert!(err.contains(m), "JDK {:?}: C2 did not compile {m}", jdk.feature_version());
        }
    }
}

#[test]
fn scenarios_in_a_warm_loop_reach_c2() {
    // -Xbatch: compilations finish before the code runs on, so tiers are reached deterministically.
    let extra = ["-Xbatch", "-XX:+PrintCompilation", "-XX:+DisplayVMOutputToStderr"];
    for (jdk, _, err) in run_scenarios(Mode::ENTER_EXIT, "run-warm", &extra, 20_000).into_iter().flat_map(|r| r.1) {
        // Tier 4 is C2.
        for m in ["itest.Throws::deep", "itest.Throws::rec", "itest.Switches::table", "itest.Ctors$Sub::<init>", "itest.Finally::fin", "itest.Sync::syncThrow"] {
            assert!(compiled_at_tier_4(&err, m), "JDK {:?}: {m} was not compiled at tier 4", jdk.feature_version());
        }
    }
}

fn java_with_stderr(jdk: &Jdk, args: &[String]) -> (String, String) {
    let out = Command::new(jdk.java()).args(args).output().unwrap();
    let (o, e) = (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned());
    assert!(out.status.success(), "java failed: {}\n{o}\n{e}", out.status);
    (o, e)
}

/// Every id width (iconst, bipush, sipush, ldc; negative ids too) gives the entry probe another
/// length, which moves every switch to another alignment (and the carried context's store
/// another again).
#[test]
fn switch_padding_for_every_id_width() {
    let dir = Scratch::new("run-widths");
    let list: Vec<Scenario> = scenarios().into_iter().filter(|s| s.target.starts_with("itest.Switches")).collect();
    for mode in Mode::ENTER_EXIT.both() {
        for (k, first_id) in [0u32, 100, 1000, 100_000, 0xffff_fff0, 0x8000_0000].into_iter().enumerate() {
            let sub = dir.path().join(format!("w{k}-{}", mode.name()));
            let classes = java_tests::compile("instrument/run").unwrap();
            let inst = sub.join("classes");
            let (ids, _) = common::instrument_dir_with(&classes, &inst, &mode.probes(), first_id, &|n| n == "itest/Switches");
            let jdk = jdk(17);
            let out = java(&jdk, &driver_args(&path_list(&[&inst]), &[], &specs(&list, 1)));
            check_mode(&format!("ids from {first_id} {}", mode.name()), mode, &ids, &parse_driver(&out), &list);
        }
    }
}

/// The loop subjects really start with a loop head (a branch to offset 0), as javac compiles them.
#[test]
fn loop_subjects_branch_back_to_offset_zero() {
    let classes = java_tests::compile("instrument/run").unwrap();
    let out = java_tests::jdk().unwrap().home.join("bin/javap");
    let text = Command::new(out).args(["-c", "-p"]).arg(classes.join("itest/Loops.class")).output().unwrap();
    let text = String::from_utf8_lossy(&text.stdout);
    for m in ["whileAtZero", "doWhileAtZero"] {
        let body = text.split(&format!(" {m}(int);")).nth(1).unwrap();
        let body = &body[..body.find("\n\n").unwrap_or(body.len())];
        assert!(body.contains("goto          0") || body.contains("ifgt          0"), "{m} has no branch to 0:\n{body}");
    }
}

const HUGE_EVENTS: &str = "+Huge.scenario +Huge.big -Huge.big +Huge.big -Huge.big +Huge.big -Huge.big +Huge.loop -Huge.loop \
                           +Huge.loop -Huge.loop +Huge.inTry -Huge.inTry +Huge.inTry -Huge.inTry -Huge.scenario";

fn javap(jdk: &Jdk, class: &Path) -> String {
    let out = Command::new(jdk.home.join("bin/javap")).args(["-c", "-v", "-p"]).arg(class).output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn method_text<'a>(javap: &'a str, header: &str) -> &'a str {
    let body = javap.split(header).nth(1).unwrap_or_else(|| panic!("no {header} in javap output"));
    &body[..body.find("\n\n").unwrap_or(body.len())]
}

fn check_huge(outcomes: &[hpm_instrument::Outcome]) {
    let huge = outcomes.iter().find(|o| o.class_name.ends_with("/Huge")).unwrap();
    let skipped: Vec<_> = huge.skipped.iter().map(|(m, r)| (m.name.as_str(), r.as_str())).collect();
    assert_eq!(skipped.len(), 1, "{skipped:?}");
    assert_eq!(skipped[0].0, "tooBig");
    assert!(skipped[0].1.contains("65535"), "{}", skipped[0].1);
}

#[test]
fn huge_methods_get_goto_w_and_too_big_is_skipped() {
    let dir = Scratch::new("run-huge");
    let src = dir.path().join("src/gen");
    std::fs::create_dir_all(&src).unwrap();
    std::fs::write(src.join("Huge.java"), huge_source("gen")).unwrap();
    let classes = dir.path().join("classes");
    javac(&jdk(17), &classes, &[], &[src.join("Huge.java")]);
    let orig = javap(&jdk(17), &classes.join("gen/Huge.class"));
    assert!(!method_text(&orig, " big(int);").contains("goto_w"), "javac already used goto_w");
    for mode in Mode::ENTER_EXIT.both() {
        let inst = dir.path().join(format!("inst-{}", mode.name()));
        let (ids, outcomes) = common::instrument_dir_with(&classes, &inst, &mode.probes(), 1, &|_| true);
        check_huge(&outcomes);
        let text = javap(&jdk(17), &inst.join("gen/Huge.class"));
        for m in [" big(int);", " loop(int);", " inTry(int);"] {
            let body = method_text(&text, m);
            assert!(body.contains("goto_w"), "{m}: no goto_w after instrumentation");
            assert!(body.contains("StackMapTable: number_of_entries"), "{m}: no StackMapTable");
        }
        let probe = java_tests::compile("instrument/run").unwrap();
        let cp = path_list(&[&inst, &probe]);
        let list = [sc("gen.Huge.scenario", HUGE_EVENTS)];
        for jdk in jdks() {
            let out = java(&jdk, &driver_args(&cp, &[], &specs(&list, 1)));
            check_mode(&format!("JDK {:?} {}", jdk.feature_version(), mode.name()), mode, &ids, &parse_driver(&out), &list);
        }
    }
}

#[test]
fn version_49_classes_pass_the_old_verifier() {
    old_class_files(ristretto_classfile::JAVA_5, 49);
}

/// Version 50 without StackMapTable: methods with branches stay without one (the JVM falls back to
/// the old verifier for the class), methods without get one for the catch-all handler.
#[test]
fn version_50_classes_without_stack_maps() {
    old_class_files(ristretto_classfile::JAVA_6, 50);
}

fn old_class_files(version: ristretto_classfile::Version, major: u16) {
    let dir = Scratch::new(&format!("run-legacy-{major}"));
    let classes = dir.path().join("classes");
    let legacy = java_tests::source_root().join("instrument/legacy/legacy");
    let huge = dir.path().join("src/legacy/Huge.java");
    std::fs::create_dir_all(huge.parent().unwrap()).unwrap();
    std::fs::write(&huge, huge_source("legacy")).unwrap();
    javac(&jdk(17), &classes, &["--release", "7"], &[legacy.join("Legacy.java"), huge]);
    for f in class_files(&classes) {
        let b = std::fs::read(&f).unwrap();
        std::fs::write(&f, downgrade(&b, version.clone())).unwrap();
    }
    std::fs::write(classes.join("legacy/Jsr.class"), jsr_class()).unwrap();
    for mode in [Mode::ENTER_EXIT, Mode::ALL].into_iter().flat_map(Mode::both) {
        old_class_files_in(mode, dir.path(), &classes, major);
    }
}

fn old_class_files_in(mode: Mode, dir: &Path, classes: &Path, major: u16) {
    let inst = dir.join(format!("inst-{}", mode.name()));
    let (ids, outcomes) = common::instrument_dir_with(classes, &inst, &mode.probes(), 1, &|_| true);
    check_huge(&outcomes);
    let jsr = outcomes.iter().find(|o| o.class_name == "legacy/Jsr").unwrap();
    assert_eq!(jsr.probed.len(), 1);
    assert_eq!(jsr.skipped.len(), 1);
    assert!(jsr.skipped[0].1.contains("jsr/ret"), "{:?}", jsr.skipped);
    // Without StackMapTable the long conditional branches become inverted branches over goto_w.
    let text = javap(&jdk(17), &inst.join("legacy/Huge.class"));
    assert!(text.contains(&format!("major version: {major}")));
    let big = method_text(&text, " big(int);");
    assert!(big.contains("goto_w") && !big.contains("StackMapTable"));
    // A version 50 method without branches gets a StackMapTable for its handler.
    assert_eq!(text.contains("StackMapTable: number_of_entries"), major == 50);

    let probe = java_tests::compile("instrument/run").unwrap();
    let cp = path_list(&[&inst, &probe]);
    let list = [
        sc(
            "legacy.Legacy.exceptions",
            "+Legacy.exceptions +Legacy.mid +Legacy.deep*3 -Legacy.deep*3 -Legacy.mid -Legacy.exceptions",
        ),
        sc(
            "legacy.Legacy.ctors",
            "+Legacy.ctors +Legacy$Sub.<init>(I) +Legacy.check -Legacy.check +Legacy$Base.<init> -Legacy$Base.<init> -Legacy$Sub.<init>(I) \
             +Legacy$Sub.<init>(I) +Legacy.check -Legacy.check +Legacy$Base.<init> -Legacy$Base.<init> -Legacy$Sub.<init>(I) \
             +Legacy$Sub.<init>(I) +Legacy.check -Legacy.check -Legacy$Sub.<init>(I) \
             +Legacy$Sub.<init>(ZI) +Legacy.check -Legacy.check -Legacy$Sub.<init>(ZI) -Legacy.ctors",
        ),
        sc(
            "legacy.Legacy.finallyAndSwitch",
            "+Legacy.finallyAndSwitch +Legacy.fin -Legacy.fin +Legacy.sw -Legacy.sw +Legacy.sw -Legacy.sw +Legacy.sw -Legacy.sw \
             +Legacy.fin -Legacy.fin -Legacy.finallyAndSwitch",
        ),
        sc(
            "legacy.Legacy.loopsAndSync",
            "+Legacy.loopsAndSync +Legacy.whileAtZero -Legacy.whileAtZero +Legacy.<init> -Legacy.<init> \
             +Legacy.syncThrow -Legacy.syncThrow -Legacy.loopsAndSync",
        ),
        sc("legacy.Huge.scenario", HUGE_EVENTS),
        sc("legacy.Jsr.scenario", "+Jsr.scenario -Jsr.scenario"),
    ];
    for jdk in jdks() {
        let out = java(&jdk, &driver_args(&cp, &[], &specs(&list, 1)));
        let label = format!("JDK {:?} version {major} {}", jdk.feature_version(), mode.name());
        check_mode(&label, mode, &ids, &parse_driver(&out), &list);
        let out = java(&jdk, &driver_args(&cp, &[], &specs(&list, 5_000)));
        check_mode(&format!("{label}, warm"), mode, &ids, &parse_driver(&out), &list);
    }
}

/// JDK 25's flexible constructor bodies: branches, a loop at offset 0 and a try/catch before
/// super(), all covered by the uninitializedThis handler.
#[test]
fn flexible_constructor_bodies_on_jdk25() {
    let dir = Scratch::new("run-flexible");
    let jdk25 = jdk(25);
    let classes = dir.path().join("classes");
    javac(&jdk25, &classes, &[], &[java_tests::source_root().join("instrument/flexible/flex/Flexible.java")]);
    for mode in [Mode::ENTER_EXIT, Mode::ALL].into_iter().flat_map(Mode::both) {
        flexible_constructor_bodies_in(mode, dir.path(), &classes);
    }
}

/// With all four probes, Sub(String)'s handler before super() (in a frame with uninitializedThis)
/// starts with the caught probe.
fn flexible_constructor_bodies_in(mode: Mode, dir: &Path, classes: &Path) {
    let jdk25 = jdk(25);
    let inst = dir.join(format!("inst-{}", mode.name()));
    let (ids, outcomes) = common::instrument_dir_with(classes, &inst, &mode.probes(), 1, &|_| true);
    for o in &outcomes {
        assert!(o.skipped.is_empty(), "{:?}", o.skipped);
    }
    let text = javap(&jdk25, &classes.join("flex/Flexible$Sub.class"));
    assert!(method_text(&text, "Flexible$Sub(long);").contains("goto          0"), "Sub(long) does not loop to 0");
    let probe = java_tests::compile("instrument/run").unwrap();
    let cp = path_list(&[&inst, &probe]);
    let s_i = "Flexible$Sub.<init>(I)";
    let s_s = "Flexible$Sub.<init>(Ljava/lang/String;)";
    let ok = |ctor: &str, args: &str| format!("+{ctor} {args}+Flexible$Base.<init> -Flexible$Base.<init> -{ctor}");
    let expected = [
        "+Flexible.scenario".to_string(),
        ok(s_i, "+Flexible.check -Flexible.check "),
        ok("Flexible$Sub.<init>(J)", ""),
        ok(s_s, "+Flexible.check -Flexible.check "),
        format!("+{s_i} -{s_i}"),
        format!("+{s_i} +Flexible.check -Flexible.check -{s_i}"),
        ok(s_i, "+Flexible.check -Flexible.check "),
        format!("+{s_s} +Flexible.check -Flexible.check -{s_s}"),
        "-Flexible.scenario".to_string(),
    ]
    .join(" ");
    let expected: &'static str = Box::leak(expected.into_boxed_str());
    let list = [sc("flex.Flexible.scenario", expected)];
    for extra in [&[][..], &["-Xcomp", "-XX:-TieredCompilation", "-XX:CompileCommand=quiet", "-XX:CompileCommand=compileonly,flex.*::*"][..]] {
        let out = java(&jdk25, &driver_args(&cp, extra, &specs(&list, 2)));
        let runs = parse_driver(&out);
        check_mode(&format!("JDK 25 {extra:?} {}", mode.name()), mode, &ids, &runs, &list);
        if mode.all {
            let events = &runs["flex.Flexible.scenario"].events;
            assert_unwinds(&ids, events);
            let sub_s = "^Flexible$Sub.<init>(Ljava/lang/String;)";
            assert!(ids.render(events).contains(sub_s), "no {sub_s}: {}", ids.render(events));
        }
    }
}

/// A class whose methods put the carried context's local at each width of its store and load:
/// `astore_0` (a static method without locals), `astore` (after long and double locals, which take
/// two slots each in the padded frames), `wide astore` (over 255 locals), and a constructor whose
/// argument evaluation before `this(...)` is covered by the handler with `uninitializedThis`.
fn locals_source() -> String {
    let vars: String = (1..300).map(|k| format!("        int v{k} = v{} + 1;\n", k - 1)).collect();
    let template = r#"package gen;
public class Locals {
    static long sink;
    public static void scenario() { sink = none() + two(1L, 2.0) + many(3) + many(-1); new Locals(5L, 2.0); }
    static int none() { return 1; }
    static long two(long a, double b) {
        long c = a + (long) b;
        for (int i = 0; i < 2; i++) {
            try {
                if (a < 0) throw new IllegalStateException();
                c += i;
            } catch (RuntimeException e) {
                c--;
            }
        }
        return c;
    }
    static long many(int x) {
        int v0 = x;
VARS        long t = 0;
        for (int i = 0; i < 3; i++) {
            try {
                t += v299 + i;
                if (x < 0) throw new IllegalStateException();
            } catch (RuntimeException e) {
                t--;
            }
        }
        return t;
    }
    static long check(double d) { return (long) d; }
    Locals(long a, double d) { this(a + check(d)); }
    Locals(long a) { sink += a; }
}
"#;
    template.replace("VARS", &vars)
}

#[test]
fn carried_context_in_locals_of_every_width() {
    let dir = Scratch::new("run-locals");
    let src = dir.path().join("src/gen");
    std::fs::create_dir_all(&src).unwrap();
    std::fs::write(src.join("Locals.java"), locals_source()).unwrap();
    let classes = dir.path().join("classes");
    javac(&jdk(17), &classes, &[], &[src.join("Locals.java")]);
    let probe = java_tests::compile("instrument/run").unwrap();
    let list = [sc(
        "gen.Locals.scenario",
        "+Locals.scenario +Locals.none -Locals.none +Locals.two -Locals.two +Locals.many -Locals.many +Locals.many -Locals.many \
         +Locals.<init>(JD) +Locals.check -Locals.check +Locals.<init>(J) -Locals.<init>(J) -Locals.<init>(JD) -Locals.scenario",
    )];
    for mode in [Mode::ENTER_EXIT, Mode::ALL].into_iter().flat_map(Mode::both) {
        let inst = dir.path().join(format!("inst-{}", mode.name()));
        let (ids, outcomes) = common::instrument_dir_with(&classes, &inst, &mode.probes(), 1, &|_| true);
        assert!(outcomes.iter().all(|o| o.skipped.is_empty()), "{:?}", outcomes[0].skipped);
        if mode.carried {
            let text = javap(&jdk(17), &inst.join("gen/Locals.class"));
            for (m, store, load) in [
                (" none();", "astore_0", "aload_0"),
                (" two(long, double);", "astore        8", "aload         8"),
                (" many(int);", "astore_w      305", "aload_w       305"),
            ] {
                let body = method_text(&text, m);
                assert!(body.contains(store) && body.contains(load), "{m}: no {store} and {load}:\n{body}");
            }
        }
        let cp = path_list(&[&inst, &probe]);
        for jdk in jdks() {
            let c2 = ["-Xcomp", "-XX:-TieredCompilation", "-XX:CompileCommand=quiet", "-XX:CompileCommand=compileonly,gen.*::*"];
            for extra in [&[][..], &c2[..]] {
                let out = java(&jdk, &driver_args(&cp, extra, &specs(&list, 2)));
                check_mode(&format!("JDK {:?} {extra:?} {}", jdk.feature_version(), mode.name()), mode, &ids, &parse_driver(&out), &list);
            }
        }
    }
}
