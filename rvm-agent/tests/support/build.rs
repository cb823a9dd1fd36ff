//! Building what the end-to-end tests run: the real `rvm` and `libhpmagent.so`.

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

/// `target/<profile>`: where this test binary's profile puts `rvm` and `libhpmagent.so`.
fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.parent().unwrap().parent().unwrap().to_path_buf()
}

/// `rvm` and `libhpmagent.so`, built (or found up to date) once per test binary.
pub fn built() -> &'static (PathBuf, PathBuf) {
    static BUILT: OnceLock<(PathBuf, PathBuf)> = OnceLock::new();
    BUILT.get_or_init(|| {
        let dir = profile_dir();
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let mut c = Command::new(cargo);
        c.args(["build", "-p", "rvm-backend", "--bin", "rvm", "-p", "hpmagent", "--lib"]);
        if dir.file_name().is_some_and(|n| n == "release") {
            c.arg("--release");
        }
        if let Some(target) = dir.parent() {
            c.env("CARGO_TARGET_DIR", target);
        }
        let st = c.status().expect("run cargo build");
        assert!(st.success(), "cargo build of rvm and libhpmagent.so failed");
        (dir.join("rvm"), dir.join("libhpmagent.so"))
    })
}

