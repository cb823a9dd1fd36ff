//! Shared test data and helpers: those of the reports' tests (`reports/tests/common`: the paper's
//! trace, quantum traces written as the agent writes them) and running the built `hpm`.
#![allow(dead_code)]

use std::process::{Command, Output};

#[path = "../../../reports/tests/common/mod.rs"]
mod data;
#[allow(unused_imports)] // each test uses a part of it
pub use data::*;

/// Runs the built `hpm` with `args`.
pub fn hpm(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hpm")).args(args).output().expect("running hpm")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}
