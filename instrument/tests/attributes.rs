//! The offsets the pass remaps, checked against javap's reading of the original and the
//! instrumented class files of every test subject: branch targets, exception tables, line
//! numbers, local variables (and their generic types) and type annotations must point at the same
//! instructions as before; and line numbers in real stack traces must not change.

mod common;

use common::{java, jdk, path_list, Scratch};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

#[derive(Default, Debug)]
struct MethodText {
    /// (offset, mnemonic, operands)
    insns: Vec<(u32, String, String)>,
    code_len: u32,
    exceptions: Vec<(u32, u32, u32, String)>,
    lines: Vec<(u32, u32)>,
    /// (table, start, length, slot, name)
    vars: Vec<(&'static str, u32, u32, u32, String)>,
    /// code offsets named by type annotations: ("offset", n) or ("start_pc", n) / ("length", n)
    annotations: Vec<String>,
}

fn javap(class: &Path) -> BTreeMap<String, MethodText> {
    let jdk = jdk(17);
    let out = Command::new(jdk.home.join("bin/javap")).args(["-c", "-l", "-v", "-p"]).arg(class).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut methods = BTreeMap::new();
    let mut name = String::new();
    let mut current: Option<MethodText> = None;
    let mut section = "";
    let mut header = String::new();
    for line in text.lines() {
        let t = line.trim();
        if line.starts_with("  ") && !line.starts_with("   ") && t.ends_with(';') {
            if let Some(m) = current.take() {
                methods.insert(name.clone(), m);
            }
            header = t.to_string();
            continue;
        }
        if let Some(d) = t.strip_prefix("descriptor: ") {
            if line.starts_with("    ") && !line.starts_with("     ") && header.contains('(') {
                name = format!("{header} {d}");
                current = Some(MethodText::default());
                section = "";
            }
            continue;
        }
        let Some(m) = current.as_mut() else { continue };
        match t {
            "Code:" => section = "code",
            "Exception table:" => section = "exceptions",
            "LineNumberTable:" => section = "lines",
            "LocalVariableTable:" => section = "LocalVariableTable",
            "LocalVariableTypeTable:" => section = "LocalVariableTypeTable",
            "RuntimeVisibleTypeAnnotations:" | "RuntimeInvisibleTypeAnnotations:" => section = "annotations",
            _ if t.starts_with("StackMapTable") || t.starts_with("MethodParameters") || t.starts_with("Signature") => section = "",
            _ => {
                let w: Vec<&str> = t.split_whitespace().collect();
                match section {
                    "code" => {
                        if let Some((off, rest)) = t.split_once(": ") {
                            if let (Ok(off), Some(first)) = (off.parse::<u32>(), rest.chars().next()) {
                                if first.is_ascii_alphabetic() {
                                    let (mn, ops) = rest.split_once(' ').unwrap_or((rest, ""));
                                    m.insns.push((off, mn.to_string(), ops.trim().to_string()));
                                }
                            }
                        }
                    }
                    "exceptions" if w.len() >= 4 && w[0].parse::<u32>().is_ok() => {
                        m.exceptions.push((w[0].parse().unwrap(), w[1].parse().unwrap(), w[2].parse().unwrap(), w[3..].join(" ")));
                    }
                    "lines" if w.len() == 3 && w[0] == "line" => {
                        m.lines.push((w[2].parse().unwrap(), w[1].trim_end_matches(':').parse().unwrap()));
                    }
                    "LocalVariableTable" | "LocalVariableTypeTable" if w.len() >= 5 && w[0].parse::<u32>().is_ok() => {
                        let table = if section == "LocalVariableTable" { "LVT" } else { "LVTT" };
                        m.vars.push((table, w[0].parse().unwrap(), w[1].parse().unwrap(), w[2].parse().unwrap(), w[3].to_string()));
                    }
                    "annotations" => {
                        for key in ["offset=", "start_pc=", "length="] {
                            for (i, _) in t.match_indices(key) {
                                let v: String = t[i + key.len()..].chars().take_while(char::is_ascii_digit).collect();
                                m.annotations.push(format!("{key}{v}"));
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    if let Some(m) = current.take() {
        methods.insert(name, m);
    }
    for m in methods.values_mut() {
        m.code_len = m.insns.last().map_or(0, |(off, mn, _)| off + insn_len(mn));
    }
    methods
}

/// Lengths of the instructions that can end a method (the last one is never a switch).
fn insn_len(mnemonic: &str) -> u32 {
    match mnemonic {
        "goto" => 3,
        "goto_w" => 5,
        _ => 1, // returns, athrow
    }
}

fn is_probe(insn: &(u32, String, String)) -> bool {
    insn.1 == "invokestatic" && insn.2.contains("hpmagent/Probe.")
}

/// How many instructions the probe call starting at instruction `i` takes, if one does: the id and
/// the call; with a carried context, the entry probe's store of the context after them, or the
/// load of it before them.
fn probe_at(insns: &[(u32, String, String)], i: usize) -> Option<usize> {
    if insns.get(i + 1).is_some_and(is_probe) {
        let stores = insns[i + 1].2.contains(")Lhpmagent/Probe$Context;");
        return Some(if stores { 3 } else { 2 });
    }
    let loaded = insns.get(i + 2).is_some_and(|x| is_probe(x) && x.2.contains("(Lhpmagent/Probe$Context;I)V"));
    (loaded && insns[i].1.starts_with("aload")).then_some(3)
}

/// Positions of the original instructions in the instrumented code: (at, prefix start) for each,
/// and the end of the original code (where the catch-all handlers begin).
fn positions(orig: &MethodText, inst: &MethodText, label: &str) -> (Vec<u32>, Vec<u32>, u32) {
    let mut at = Vec::new();
    let mut prefix = Vec::new();
    let mut pending: Option<u32> = None;
    let mut i = 0;
    let insns = &inst.insns;
    while i < insns.len() {
        if let Some(n) = probe_at(insns, i) {
            if insns.get(i + n).is_some_and(|x| x.1 == "athrow") {
                break; // the first catch-all handler
            }
            if !at.is_empty() || i > 0 {
                // The first of the probes before an instruction (caught, then exit).
                pending.get_or_insert(insns[i].0);
            }
            i += n;
            continue;
        }
        at.push(insns[i].0);
        prefix.push(pending.take().unwrap_or(insns[i].0));
        i += 1;
    }
    let end = insns.get(i).map_or(inst.code_len, |x| x.0);
    assert_eq!(at.len(), orig.insns.len(), "{label}: instruction count");
    for (k, (o, n)) in orig.insns.iter().zip(&at).enumerate() {
        let n = &insns.iter().find(|x| x.0 == *n).unwrap().1;
        assert_eq!(&o.1, n, "{label}: instruction {k}");
    }
    (at, prefix, end)
}

fn index_of(m: &MethodText, off: u32) -> Option<usize> {
    m.insns.iter().position(|x| x.0 == off)
}

fn check_method(label: &str, orig: &MethodText, inst: &MethodText) {
    let (at, prefix, end) = positions(orig, inst, label);
    let start = |off: u32| if off == 0 { 0 } else { prefix[index_of(orig, off).unwrap()] };
    let target = |off: u32| prefix[index_of(orig, off).unwrap()];
    let end_of = |off: u32| if off == orig.code_len { end } else { prefix[index_of(orig, off).unwrap()] };

    // Branch targets (javap prints them as absolute offsets).
    for (k, o) in orig.insns.iter().enumerate() {
        if o.1.starts_with("if") || o.1 == "goto" {
            let n = inst.insns.iter().find(|x| x.0 == at[k]).unwrap();
            assert_eq!(n.2.parse::<u32>().unwrap(), target(o.2.parse().unwrap()), "{label}: branch at {}", o.0);
        }
    }
    // The method's own exception entries, in order, then only catch-alls. With the caught probe,
    // each handler starts with it.
    let caught = inst.insns.iter().any(|x| is_probe(x) && x.2.contains("Probe.caught"));
    for (k, e) in orig.exceptions.iter().enumerate() {
        let want = (target(e.0), end_of(e.1), target(e.2), e.3.clone());
        assert_eq!(inst.exceptions[k], want, "{label}: exception entry {k}");
        if caught {
            let h = index_of(inst, want.2).unwrap();
            let n = probe_at(&inst.insns, h).unwrap_or(0);
            let starts = n > 0 && inst.insns[h + n - 1].2.contains("Probe.caught");
            assert!(starts, "{label}: handler at {} does not start with the caught probe", want.2);
            assert_eq!(inst.insns[h + n].0, at[index_of(orig, e.2).unwrap()], "{label}: handler at {}", want.2);
        }
    }
    let ours = &inst.exceptions[orig.exceptions.len()..];
    assert!(!ours.is_empty() && ours.iter().all(|e| e.3 == "any" && e.2 >= end), "{label}: catch-all entries {ours:?}");
    // Line numbers and local variables.
    let lines: Vec<(u32, u32)> = orig.lines.iter().map(|&(pc, line)| (start(pc), line)).collect();
    assert_eq!(inst.lines, lines, "{label}: LineNumberTable");
    let vars: Vec<_> =
        orig.vars.iter().map(|(t, s, l, slot, name)| (*t, start(*s), end_of(s + l) - start(*s), *slot, name.clone())).collect();
    assert_eq!(inst.vars, vars, "{label}: local variables");
    // Type annotations: an instruction's offset, or a local variable's range.
    let mut expected = Vec::new();
    let mut range_start = 0;
    for a in &orig.annotations {
        let (key, v) = a.split_once('=').unwrap();
        let v: u32 = v.parse().unwrap();
        expected.push(match key {
            "offset" => format!("offset={}", at[index_of(orig, v).unwrap()]),
            "start_pc" => {
                range_start = v;
                format!("start_pc={}", start(v))
            }
            _ => format!("length={}", end_of(range_start + v) - start(range_start)),
        });
    }
    assert_eq!(inst.annotations, expected, "{label}: type annotations");
}

#[test]
fn remapped_offsets_point_at_the_same_instructions() {
    remapped_offsets(&common::probes("hpmagent/Probe"), "attributes");
}

/// With the caught probe at the start of every handler and the thrown probe in the catch-alls.
#[test]
fn remapped_offsets_with_thrown_and_caught_probes() {
    remapped_offsets(&common::all_probes("hpmagent/Probe"), "attributes-all");
}

/// With a carried context: its store after the entry probe and its loads before the others.
#[test]
fn remapped_offsets_with_a_carried_context() {
    remapped_offsets(&common::carried(common::probes("hpmagent/Probe")), "attributes-carried");
    remapped_offsets(&common::carried(common::all_probes("hpmagent/Probe")), "attributes-all-carried");
}

fn remapped_offsets(probes: &hpm_instrument::Probes, name: &str) {
    let dir = Scratch::new(name);
    let classes = java_tests::compile("instrument/run").unwrap();
    let inst = dir.path().join("inst");
    let (_, outcomes) = common::instrument_dir_with(&classes, &inst, probes, 1, &|n| n.starts_with("itest/"));
    let mut checked = 0;
    let mut annotated = 0;
    for o in outcomes {
        let file = format!("{}.class", o.class_name);
        let (a, b) = (javap(&classes.join(&file)), javap(&inst.join(&file)));
        for (name, orig) in &a {
            if orig.insns.is_empty() {
                continue;
            }
            check_method(&format!("{} {name}", o.class_name), orig, &b[name]);
            checked += 1;
            annotated += usize::from(!orig.annotations.is_empty());
        }
    }
    assert!(checked > 60, "only {checked} methods checked");
    assert!(annotated >= 1, "no method with type annotations on code was checked");
}

/// Line numbers in stack traces (from the remapped LineNumberTable) are those of the original.
#[test]
fn stack_trace_line_numbers_are_unchanged() {
    let dir = Scratch::new("attributes-lines");
    let classes = java_tests::compile("instrument/run").unwrap();
    let inst = dir.path().join("inst");
    common::instrument_dir(&classes, &inst, "hpmagent/Probe", 1, &|n| n.starts_with("itest/"));
    let lines = |cp: &Path| {
        let out = java(&jdk(17), &["-cp".into(), path_list(&[cp]), "driver.Driver".into(), "itest.Attrs.lines:1".into()]);
        out.lines().find(|l| l.starts_with("L ")).unwrap().to_string()
    };
    let (a, b) = (lines(&classes), lines(&inst));
    assert_eq!(a, b);
    assert_eq!(a.matches("thrower:").count(), 3, "{a}");
}
