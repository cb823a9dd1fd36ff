//! The park wrappers (`wrap_park`) on the real `LockSupport` of JDK 17 and 25: all six park
//! methods are wrapped, and the wrapped class, patched into java.base with a stand-in for the
//! agent's natives (`java-tests/waits-instrument/`), passes the verifier and calls the entry
//! with the blocker and the time argument, and the exit, for each of them.

mod common;

use std::path::Path;
use std::process::Command;

use common::{jdks, Scratch};

fn javac(jdk: &java_tests::Jdk, args: &[&str], out: &Path, source: &Path) {
    let status = Command::new(jdk.javac()).args(args).arg("-d").arg(out).arg(source).status().unwrap();
    assert!(status.success(), "javac {}", source.display());
}

#[test]
fn lock_supports_park_methods_call_the_natives_with_blocker_and_time() {
    let sources = Path::new(env!("CARGO_MANIFEST_DIR")).join("../java-tests/waits-instrument");
    for jdk in jdks() {
        let v = jdk.feature_version().unwrap();
        let scratch = Scratch::new(&format!("park-{v}"));
        let image = scratch.path().join("image");
        let status = Command::new(jdk.home.join("bin/jimage"))
            .args(["extract", "--include", "regex:.*/java/util/concurrent/locks/LockSupport.class", "--dir"])
            .arg(&image)
            .arg(jdk.home.join("lib/modules"))
            .status()
            .unwrap();
        assert!(status.success(), "jimage extract");
        let original = std::fs::read(image.join("java.base/java/util/concurrent/locks/LockSupport.class")).unwrap();
        let w = hpm_instrument::wrap_park(&original, "java/lang/ParkProbe").unwrap().expect("LockSupport has park methods");
        let mut names: Vec<String> = w.wrapped.iter().map(|m| format!("{}{}", m.name, m.descriptor)).collect();
        names.sort();
        assert_eq!(
            names,
            ["park()V", "park(Ljava/lang/Object;)V", "parkNanos(J)V", "parkNanos(Ljava/lang/Object;J)V", "parkUntil(J)V", "parkUntil(Ljava/lang/Object;J)V"],
            "JDK {v}"
        );
        assert!(w.skipped.is_empty(), "JDK {v}: {:?}", w.skipped);
        let patch = scratch.path().join("patch");
        javac(&jdk, &["--patch-module", &format!("java.base={}", sources.join("java.base").display())], &patch, &sources.join("java.base/java/lang/ParkProbe.java"));
        let lock_support = patch.join("java/util/concurrent/locks/LockSupport.class");
        std::fs::create_dir_all(lock_support.parent().unwrap()).unwrap();
        std::fs::write(&lock_support, &w.bytes).unwrap();
        let driver = scratch.path().join("driver");
        javac(&jdk, &[], &driver, &sources.join("driver/ParkDriver.java"));
        let o = Command::new(jdk.java())
            .arg(format!("--patch-module=java.base={}", patch.display()))
            .args(["-XX:+UnlockDiagnosticVMOptions", "-XX:+BytecodeVerificationLocal", "-Xshare:off", "-cp"])
            .arg(&driver)
            .arg("driver.ParkDriver")
            .output()
            .unwrap();
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(o.status.success(), "JDK {v}: {}\n{}", out, String::from_utf8_lossy(&o.stderr));
        // JDK 25's parkUntil(Object, long) calls parkUntil(long) between setting the blocker and
        // clearing it: two wrapped calls nest (the agent ends the park at the inner exit, with
        // the blocker the outer one set).
        let last = if v >= 25 { "until(java.lang.StringBuilder,t) until(null,t) exit exit" } else { "until(java.lang.StringBuilder,t) exit" };
        assert_eq!(
            out.trim(),
            format!("untimed(null,0) exit untimed(java.lang.StringBuilder,0) exit nanos(null,t) exit nanos(java.lang.StringBuilder,t) exit until(null,t) exit {last}"),
            "JDK {v}"
        );
    }
}
