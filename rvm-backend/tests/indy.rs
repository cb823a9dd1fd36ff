//! invokedynamic and jars: the programs in `java-tests/rvm-indy`, compiled with plain `javac`
//! (invokedynamic string concatenation, lambdas, method references) by JDK 17 (also with
//! `--release 8`) and by the newest JDK found with `--release 17`, print on `rvm` what they print
//! on HotSpot; a bootstrap method rvm does not know is one clear error; classes run from a jar on
//! `-cp` and with `-jar`, and a class path entry that cannot be read is one warning line.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const GROUP: &str = "rvm-indy";

#[path = "support/hotspot.rs"]
mod hotspot;
use hotspot::{assert_rvm_matches, rvm, text};

fn java(args: &[&std::ffi::OsStr]) -> Output {
    let jdk = java_tests::jdk().expect("JDK");
    Command::new(jdk.java()).args(args).output().expect("run java")
}

/// The class directories to compare on: (what compiled them, directory).
fn compiled() -> Vec<(String, PathBuf)> {
    static DIRS: std::sync::OnceLock<Vec<(String, PathBuf)>> = std::sync::OnceLock::new();
    DIRS.get_or_init(|| {
        let jdk = java_tests::jdk().expect("JDK");
        let v = jdk.feature_version().unwrap_or(0);
        let mut dirs = vec![
            (format!("javac {v}"), java_tests::compile_plain(GROUP).expect("compile rvm-indy")),
            (format!("javac {v} --release 8"), java_tests::compile_plain_with(&jdk, GROUP, &["--release", "8"]).expect("compile rvm-indy --release 8")),
        ];
        match java_tests::newer_jdk() {
            Some(newer) => {
                let nv = newer.feature_version().unwrap_or(0);
                let dir = java_tests::compile_plain_with(&newer, GROUP, &["--release", "17"]).expect("compile rvm-indy with the newer JDK");
                dirs.push((format!("javac {nv} --release 17"), dir));
            }
            None => eprintln!("note: no JDK newer than 17 found; classes of its javac not tested"),
        }
        dirs
    })
    .clone()
}

/// `class` prints the same and exits the same on rvm (1 and 2 processors) as on HotSpot, for
/// every compiler; `compare_stderr`: stderr too (uncaught exceptions' traces).
fn same_as_hotspot(class: &str, compare_stderr: bool) {
    for (by, dir) in compiled() {
        let expected = java(&["-cp".as_ref(), dir.as_os_str(), class.as_ref()]);
        assert!(!expected.stdout.is_empty(), "{class} ({by}) printed nothing on HotSpot: {}", text(&expected.stderr));
        assert_rvm_matches(&expected, &dir, class, &by, compare_stderr);
    }
}

/// Every primitive type, null, objects (one whose toString is null), constants, chars, the recipe's
/// tag characters in literals (passed as constants), and more than 200 argument slots.
#[test]
fn string_concatenation() {
    same_as_hotspot("IndyConcat", false);
}

/// Lambdas capturing locals and `this`; static, bound, unbound, constructor, array constructor,
/// `super::` method references; Runnable, Comparator, Function, Supplier and the library's
/// defaults taking them; boxing, unboxing and widening; bridges (in the interface and, through
/// altMetafactory, in the lambda's class); markers; serializable lambdas; a non-capturing lambda's
/// one instance; the cast to the instantiated type failing.
#[test]
fn lambdas_and_method_references() {
    same_as_hotspot("IndyLambda", false);
}

/// An exception thrown in a lambda body: HotSpot's trace, without a frame of the lambda's class.
#[test]
fn uncaught_exception_in_a_lambda() {
    same_as_hotspot("IndyUncaught", true);
}

/// Lambda objects (captured long, double, char, boolean and reference fields, and the one instance
/// of a non-capturing lambda) and concatenations survive many collections in a 16 MB heap.
#[test]
fn lambdas_under_collections() {
    let (by, dir) = &compiled()[0];
    let expected = java(&["-cp".as_ref(), dir.as_os_str(), "IndyGc".as_ref()]);
    let got = rvm(&["-Xvps:2".as_ref(), "-Xmx16m".as_ref(), "-verbose:gc".as_ref(), "-cp".as_ref(), dir.as_os_str(), "IndyGc".as_ref()]);
    assert_eq!(text(&got.stdout), text(&expected.stdout), "IndyGc ({by})\n{}", text(&got.stderr));
    assert_eq!(got.status.code(), Some(0));
    let gcs = text(&got.stderr).lines().filter(|l| l.starts_with("[GC #")).count();
    assert!(gcs >= 10, "expected many collections, saw {gcs}");
}

/// A bootstrap method rvm does not know ends the program when its call site is reached, with one
/// line naming the bootstrap method and the calling method, and exit code 1. The class is
/// `IndyUnsupported` with its bootstrap method's name rewritten (`metafactory` to `metafactorx`).
#[test]
fn unknown_bootstrap_method_is_one_clear_error() {
    let (_, dir) = &compiled()[0];
    let bytes = std::fs::read(dir.join("IndyUnsupported.class")).unwrap();
    let at = bytes.windows(11).position(|w| w == b"metafactory").expect("the class names LambdaMetafactory.metafactory");
    let mut patched = bytes.clone();
    patched[at + 10] = b'x';
    let tmp = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    std::fs::write(tmp.path().join("IndyUnsupported.class"), patched).unwrap();
    let got = rvm(&["-cp".as_ref(), tmp.path().as_os_str(), "IndyUnsupported".as_ref()]);
    assert_eq!(text(&got.stdout), "before\n");
    assert_eq!(got.status.code(), Some(1));
    assert_eq!(
        text(&got.stderr),
        "rvm: invokedynamic with bootstrap method java.lang.invoke.LambdaMetafactory.metafactorx is not supported \
         (in IndyUnsupported.main([Ljava/lang/String;)V): rvm links string concatenation, lambdas, records' methods and pattern switches only\n"
    );
}

/// A jar of `jarapp` (two packages, a lambda, concatenation) made with the JDK's `jar` tool, with
/// `Main-Class` in its manifest, and one without.
fn jars(dir: &Path) -> (PathBuf, PathBuf) {
    let (_, classes) = &compiled()[0];
    let jdk = java_tests::jdk().expect("JDK");
    let manifest = dir.join("manifest.txt");
    std::fs::write(&manifest, "Main-Class: jarapp.JarMain\n").unwrap();
    let (app, plain) = (dir.join("app.jar"), dir.join("plain.jar"));
    for (jar, m) in [(&app, Some(&manifest)), (&plain, None)] {
        let mut c = Command::new(jdk.home.join("bin/jar"));
        match m {
            Some(m) => c.arg("cfm").arg(jar).arg(m),
            None => c.arg("cf").arg(jar),
        };
        let st = c.arg("-C").arg(classes).arg("jarapp").status().expect("run jar");
        assert!(st.success(), "jar failed");
    }
    (app, plain)
}

#[test]
fn classes_from_a_jar_with_cp_and_dash_jar() {
    let tmp = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let (app, plain) = jars(tmp.path());
    let expected = java(&["-cp".as_ref(), app.as_os_str(), "jarapp.JarMain".as_ref(), "x".as_ref()]);
    assert_eq!(text(&expected.stdout), "[jar:hello] args=1 first=x\n");
    let got = rvm(&["-cp".as_ref(), plain.as_os_str(), "jarapp.JarMain".as_ref(), "x".as_ref()]);
    assert_eq!((text(&got.stdout), text(&got.stderr), got.status.code()), (text(&expected.stdout), String::new(), Some(0)));

    let expected = java(&["-jar".as_ref(), app.as_os_str(), "a".as_ref(), "b".as_ref()]);
    let got = rvm(&["-Xvps:2".as_ref(), "-jar".as_ref(), app.as_os_str(), "a".as_ref(), "b".as_ref()]);
    assert_eq!(text(&got.stdout), text(&expected.stdout), "{}", text(&got.stderr));
    assert_eq!(got.status.code(), Some(0));

    // No Main-Class: the error HotSpot gives, and no program.
    let got = rvm(&["-jar".as_ref(), plain.as_os_str()]);
    assert_eq!(text(&got.stderr), format!("rvm: error: no main manifest attribute, in {}\n", plain.display()));
    assert_eq!(got.status.code(), Some(2));
}

/// Entries that cannot be read (missing, a file that is not a zip, a truncated jar) each get one
/// warning line naming the entry and the cause; the program still runs from the other entries.
#[test]
fn unreadable_class_path_entries_are_one_warning_each() {
    let tmp = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let (app, _) = jars(tmp.path());
    let missing = tmp.path().join("missing.jar");
    let not_zip = tmp.path().join("manifest.txt");
    let truncated = tmp.path().join("truncated.jar");
    let bytes = std::fs::read(&app).unwrap();
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    let cp = std::env::join_paths([&missing, &not_zip, &truncated, &app]).unwrap();
    let got = rvm(&["-cp".as_ref(), cp.as_os_str(), "jarapp.JarMain".as_ref()]);
    assert_eq!(text(&got.stdout), "[jar:hello] args=0\n", "{}", text(&got.stderr));
    assert_eq!(got.status.code(), Some(0));
    let err = text(&got.stderr);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 3, "{err}");
    assert_eq!(lines[0], format!("rvm: warning: class path entry {} skipped: No such file or directory (os error 2)", missing.display()));
    assert!(lines[1].starts_with(&format!("rvm: warning: class path entry {} skipped: not a readable jar or zip file (", not_zip.display())), "{err}");
    assert!(lines[2].starts_with(&format!("rvm: warning: class path entry {} skipped: not a readable jar or zip file (", truncated.display())), "{err}");
}
