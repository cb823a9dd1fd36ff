//! Every file under a directory, for tests that compare two report directories byte for byte
//! (included with `#[path]` by the tests of `hpm report` and of the agent's saved runs).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Every file under `dir` (relative path → bytes).
pub fn files(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.insert(p.strip_prefix(dir).unwrap().to_path_buf(), std::fs::read(&p).unwrap());
            }
        }
    }
    out
}
