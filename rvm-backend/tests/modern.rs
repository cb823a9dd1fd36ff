//! Modern class files: the programs in `java-tests/rvm-modern`, compiled with plain `javac` by
//! the newest JDK found (JDK 25: class file version 69) at its default release and with
//! `--release 21`, and the Java 17 ones (`rvm-modern/java17`) by JDK 17's `javac`, print on `rvm`
//! (1 and 2 processors) what they print on HotSpot of the same JDK: records (`ObjectMethods`
//! toString/equals/hashCode), sealed classes, nest-based private access, `switch` on strings and
//! enums, and pattern `switch` (`SwitchBootstraps.typeSwitch`/`enumSwitch`, record patterns).
//! A class file newer than rvm supports is one clear error.

use java_tests::Jdk;
use std::path::PathBuf;
use std::process::Command;

#[path = "support/hotspot.rs"]
mod hotspot;
use hotspot::{assert_rvm_matches, rvm, text};

fn jdk17() -> Option<Jdk> {
    java_tests::all_jdks().into_iter().find(|j| j.feature_version() == Some(17))
}

/// The newest JDK, if it is 21 or newer (needed for pattern `switch`).
fn jdk_new() -> Option<Jdk> {
    java_tests::newer_jdk().filter(|j| j.feature_version().unwrap_or(0) >= 21)
}

/// The class directories to compare on: (what compiled them, its JDK, directory, whether the
/// Java 21 programs are there).
fn compiled() -> Vec<(String, Jdk, PathBuf, bool)> {
    static DIRS: std::sync::OnceLock<Vec<(String, Jdk, PathBuf, bool)>> = std::sync::OnceLock::new();
    DIRS.get_or_init(|| {
        let mut dirs = Vec::new();
        match jdk_new() {
            Some(j) => {
                let v = j.feature_version().unwrap_or(0);
                let d = java_tests::compile_plain_with(&j, "rvm-modern", &[]).expect("compile rvm-modern");
                dirs.push((format!("javac {v}"), j.clone(), d, true));
                let d = java_tests::compile_plain_with(&j, "rvm-modern", &["--release", "21"]).expect("compile rvm-modern --release 21");
                dirs.push((format!("javac {v} --release 21"), j, d, true));
            }
            None => eprintln!("note: no JDK 21 or newer found; its class files are not tested"),
        }
        match jdk17() {
            Some(j) => {
                let d = java_tests::compile_plain_with(&j, "rvm-modern/java17", &[]).expect("compile rvm-modern/java17");
                dirs.push(("javac 17".into(), j, d, false));
            }
            None => eprintln!("note: no JDK 17 found; its class files are not tested"),
        }
        assert!(!dirs.is_empty(), "no JDK found");
        dirs
    })
    .clone()
}

/// `class` prints the same and exits the same on rvm (1 and 2 processors) as on HotSpot, for
/// every compiler (`java21`: only those that compile the Java 21 programs).
fn same_as_hotspot(class: &str, java21: bool) {
    let mut ran = 0;
    for (by, jdk, dir, has21) in compiled() {
        if java21 && !has21 {
            continue;
        }
        ran += 1;
        let expected = Command::new(jdk.java()).arg("-cp").arg(&dir).arg(class).output().expect("run java");
        assert!(expected.status.success() && !expected.stdout.is_empty(), "{class} ({by}) on HotSpot: {}", text(&expected.stderr));
        assert_rvm_matches(&expected, &dir, class, &by, false);
    }
    assert!(ran > 0, "{class}: no JDK compiled it");
}

/// Records: toString as HotSpot prints it, equals by component (Float/Double.compare, -0.0, NaN),
/// hashCode values equal to HotSpot's, compact and custom constructors, an overridden toString,
/// generic records, records implementing interfaces, as `Record`, as HashMap/HashSet keys.
#[test]
fn records() {
    same_as_hotspot("ModernRecords", false);
}

/// A sealed interface of records and a final class, a sealed abstract class with final and
/// non-sealed subclasses (and a subclass of the non-sealed one); instanceof patterns.
#[test]
fn sealed_classes() {
    same_as_hotspot("ModernSealed", false);
}

/// Strings (colliding hash codes, arrow and yield forms, null) and enums ($SwitchMap$, switch
/// expressions, null) and chars.
#[test]
fn string_and_enum_switches() {
    same_as_hotspot("ModernSwitch", false);
}

/// Inner, nested, local and anonymous classes using each other's private fields and methods
/// directly (nestmates), private interface methods.
#[test]
fn nest_based_private_access() {
    same_as_hotspot("ModernNest", false);
}

/// Pattern `switch`: type and record patterns (nested, with `var`, primitive components), guards,
/// `case null`, String/Integer/Long/array/enum cases on Object, a pattern switch on an enum with
/// constant labels (enumSwitch; javac 21's EnumDesc dynamic constants), a statement switch.
#[test]
fn pattern_switches() {
    same_as_hotspot("ModernPatterns", true);
}

/// A class file of a version above 69 is refused with one line naming the class and the versions.
#[test]
fn newer_class_file_version_is_one_clear_error() {
    let (_, _, dir, _) = &compiled()[0];
    let mut bytes = std::fs::read(dir.join("ModernSwitch.class")).unwrap();
    bytes[6..8].copy_from_slice(&70u16.to_be_bytes());
    let tmp = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    std::fs::write(tmp.path().join("ModernSwitch.class"), bytes).unwrap();
    let got = rvm(&["-cp".as_ref(), tmp.path().as_os_str(), "ModernSwitch".as_ref()]);
    assert_eq!(got.status.code(), Some(1));
    assert_eq!(text(&got.stdout), "");
    assert_eq!(
        text(&got.stderr),
        "Error: Could not load main class ModernSwitch: java.lang.UnsupportedClassVersionError: \
         ModernSwitch has class file version 70.0 (rvm supports up to 69, Java 25)\n"
    );
}
