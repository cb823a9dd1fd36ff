//! The API's contract on real class files compiled by javac: what is offered to the callback, what
//! comes back, and the errors.

mod common;

use hpm_instrument::{class_name, instrument, instrument_outcome, MethodInfo};
use std::path::PathBuf;

fn class(name: &str) -> Vec<u8> {
    let dir: PathBuf = java_tests::compile("instrument/run").unwrap();
    std::fs::read(dir.join(format!("{name}.class"))).unwrap()
}

fn probes() -> hpm_instrument::Probes {
    common::probes("hpmagent/Probe")
}

#[test]
fn class_name_reads_this_class() {
    assert_eq!(class_name(&class("itest/Shapes$Square")).unwrap(), "itest/Shapes$Square");
    let e = class_name(b"\xca\xfe\xba\xbe\x00").unwrap_err();
    assert_eq!(e.to_string(), "class file: truncated version at byte 4");
    assert_eq!(e.class(), None);
    assert!(class_name(b"PK\x03\x04 not a class").unwrap_err().to_string().contains("bad magic"));
}

#[test]
fn only_methods_with_code_are_offered_and_all_are_listed() {
    for (name, offered, all) in [
        ("itest/Shapes$Base", vec!["<init>"], vec!["<init>", "sides", "nativeCall"]),
        ("itest/Shapes$Shape", vec!["describe", "unit", "kind"], vec!["area", "describe", "unit", "kind"]),
    ] {
        let mut seen = Vec::new();
        let o = instrument_outcome(&class(name), &probes(), &mut |m: &MethodInfo| {
            seen.push(m.name.clone());
            Some(seen.len() as u32 * 10)
        })
        .unwrap();
        assert_eq!(seen, offered, "{name}");
        assert_eq!(o.methods.iter().map(|m| m.name.as_str()).collect::<Vec<_>>(), all, "{name}");
        let ids: Vec<(String, u32)> = o.probed.iter().map(|(m, id)| (m.name.clone(), *id)).collect();
        let want: Vec<(String, u32)> = offered.iter().enumerate().map(|(k, n)| (n.to_string(), (k as u32 + 1) * 10)).collect();
        assert_eq!(ids, want, "{name}");
        assert!(o.skipped.is_empty());
    }
}

#[test]
fn nothing_selected_leaves_the_class_unchanged() {
    let bytes = class("itest/Throws");
    let mut asked = 0;
    assert!(instrument(&bytes, &probes(), &mut |_| {
        asked += 1;
        None
    })
    .unwrap()
    .is_none());
    assert!(asked >= 5);
    let o = instrument_outcome(&bytes, &probes(), &mut |_| None).unwrap();
    assert!(o.bytes.is_none() && o.probed.is_empty() && o.skipped.is_empty());
    assert_eq!(o.class_name, "itest/Throws");
    // Selecting some methods changes only their Code attributes: the class is not re-encoded.
    let one = instrument(&bytes, &probes(), &mut |m| (m.name == "caught").then_some(1)).unwrap().unwrap();
    assert_eq!(one.probed.len(), 1);
    assert!(one.bytes.len() > bytes.len() && one.bytes.len() < bytes.len() + 200);
}

#[test]
fn the_probe_class_is_never_instrumented() {
    let mut asked = false;
    let r = instrument(&class("hpmagent/Probe"), &probes(), &mut |_| {
        asked = true;
        Some(1)
    })
    .unwrap();
    assert!(r.is_none() && !asked);
}

#[test]
fn errors_name_the_class_and_stay_on_one_line() {
    let bytes = class("itest/Throws");
    // Cut inside the method table: the class name is known by then.
    let cut = &bytes[..bytes.len() - 40];
    let e = instrument(cut, &probes(), &mut |_| Some(1)).unwrap_err();
    assert_eq!(e.class(), Some("itest/Throws"));
    assert!(e.to_string().starts_with("class itest/Throws: truncated"), "{e}");
    let mut extra = bytes.clone();
    extra.push(0);
    let e = instrument(&extra, &probes(), &mut |_| Some(1)).unwrap_err();
    assert_eq!(e.to_string(), "class itest/Throws: 1 bytes after the end of the class file");
}

/// The ids are pushed with their bits, any u32: the instrumented class parses for every width.
#[test]
fn any_id_is_accepted() {
    let bytes = class("itest/Switches");
    for id in [0, 5, 6, 127, 128, 32767, 32768, 0x7fff_ffff, 0x8000_0000, u32::MAX] {
        let out = instrument(&bytes, &probes(), &mut |_| Some(id)).unwrap().unwrap();
        assert!(out.probed.iter().all(|(_, i)| *i == id));
        ristretto_classfile::ClassFile::from_bytes(&out.bytes).unwrap();
    }
}

/// The carried context's type must be one reference type; any is accepted, arrays too.
#[test]
fn a_carried_context_is_a_reference_type() {
    let bytes = class("itest/Throws");
    for bad in ["I", "", "L;", "Ljava/lang/Object", "Ljava.lang.Object;", "Ljava/lang/Object;I", "[", "V"] {
        let e = instrument(&bytes, &probes().with_carried_context(bad), &mut |_| Some(1)).unwrap_err();
        assert_eq!(e.class(), Some("itest/Throws"));
        assert!(e.cause().contains("carried context"), "{bad:?}: {e}");
    }
    for good in ["Ljava/lang/Object;", "[I", "[[Ljava/lang/String;", "Lhpmagent/Probe$Context;"] {
        let out = instrument(&bytes, &probes().with_carried_context(good), &mut |_| Some(1)).unwrap().unwrap();
        assert!(out.skipped.is_empty(), "{good}: {:?}", out.skipped);
        ristretto_classfile::ClassFile::from_bytes(&out.bytes).unwrap();
    }
}

/// `MethodInfo::trivial` on javac's code: getters, setters, a forward branch and a static field
/// update are trivial; a synchronized getter, a handler, a loop, a call and an allocation are not,
/// nor is a constructor (it calls `super()`). A probed method is not trivial afterwards.
#[test]
fn trivial_methods_are_the_small_straight_ones() {
    let o = instrument_outcome(&class("itest/Tiny"), &probes(), &mut |_| Some(1)).unwrap();
    let trivial: Vec<&str> = o.methods.iter().filter(|m| m.trivial).map(|m| m.name.as_str()).collect();
    assert_eq!(trivial, ["get", "set", "max", "add"]);
    let again = instrument_outcome(&o.bytes.unwrap(), &probes(), &mut |_| None).unwrap();
    assert!(again.methods.iter().all(|m| !m.trivial), "probed methods call their probes");
}
