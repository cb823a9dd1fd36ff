//! Unit checks of pieces that do not need a JDK at run time.

use rvm_backend::native::{java_double, java_float};

#[test]
fn double_to_string_matches_java_rules() {
    assert_eq!(java_double(1.0), "1.0");
    assert_eq!(java_double(-0.0), "-0.0");
    assert_eq!(java_double(0.1 + 0.2), "0.30000000000000004");
    assert_eq!(java_double(1e7), "1.0E7");
    assert_eq!(java_double(9999999.0), "9999999.0");
    assert_eq!(java_double(0.001), "0.001");
    assert_eq!(java_double(0.0001), "1.0E-4");
    assert_eq!(java_double(123456.789), "123456.789");
    assert_eq!(java_double(f64::MAX), "1.7976931348623157E308");
    assert_eq!(java_double(f64::MIN_POSITIVE * f64::EPSILON), "4.9E-324");
    assert_eq!(java_double(f64::NAN), "NaN");
    assert_eq!(java_double(f64::NEG_INFINITY), "-Infinity");
    assert_eq!(java_float(0.1), "0.1");
    assert_eq!(java_float(1.0e10), "1.0E10");
    assert_eq!(java_float(3.4028235e38), "3.4028235E38");
}

#[test]
fn options_parse_like_java() {
    let a: Vec<String> = ["-Xvps:4", "-Xquantum:5", "-Xmx64m", "-cp", "a:b", "-agentpath:/x/lib.so=opt=1", "pkg.Main", "x", "-y"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let o = rvm_backend::parse_args(&a).unwrap();
    assert_eq!(o.vps, 4);
    assert_eq!(o.quantum_ms, 5);
    assert_eq!(o.max_heap, 64 << 20);
    assert_eq!(o.classpath.len(), 2);
    assert_eq!(o.agent, Some(("/x/lib.so".into(), Some("opt=1".to_string()))));
    assert_eq!(o.main_class, "pkg/Main");
    assert_eq!(o.args, vec!["x", "-y"]);
    assert!(rvm_backend::parse_args(&["-Xvps:0", "M"]).is_err());
    assert!(rvm_backend::parse_args(&["-Xmx12q", "M"]).is_err());
    assert_eq!(rvm_backend::parse_size("2g"), Some(2 << 30));
}

#[test]
fn instructions_stay_small() {
    // The interpreter walks arrays of these; keep them at three words.
    assert!(std::mem::size_of::<rvm_backend::code::Insn>() <= 24, "{}", std::mem::size_of::<rvm_backend::code::Insn>());
    assert_eq!(std::mem::size_of::<rvm_backend::vm::Value>(), 16);
}
