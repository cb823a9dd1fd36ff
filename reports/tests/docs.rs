//! The repository's docs stand alone: every repository path they name in backquotes exists, and
//! no doc or source file points outside the repository (a design sketch, papers by file name) or
//! at issue numbers of a tracker the reader does not have. Papers are cited by authors and year
//! and listed in `docs/references.md`.

use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the workspace root").to_path_buf()
}

/// Files under `dir` with one of `exts`, skipping build output and hidden directories.
fn files(dir: &Path, exts: &[&str], out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        if p.is_dir() {
            if !name.starts_with('.') && name != "target" && name != "node_modules" {
                files(&p, exts, out);
            }
        } else if exts.iter().any(|x| name.ends_with(x)) {
            out.push(p);
        }
    }
}

/// Top-level directories of the repository: a backquoted path starting with one is a repository
/// path (others, such as `threads/000-main/`, name report output).
fn top_dirs() -> Vec<String> {
    std::fs::read_dir(repo())
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.') && n != "target")
        .collect()
}

#[test]
fn paths_named_in_the_docs_exist() {
    let root = repo();
    let tops = top_dirs();
    let mut docs = Vec::new();
    files(&root, &[".md"], &mut docs);
    assert!(docs.len() >= 5, "found {} docs", docs.len());
    let mut missing = Vec::new();
    for doc in &docs {
        let text = std::fs::read_to_string(doc).unwrap();
        for quoted in text.split('`').skip(1).step_by(2) {
            let path = quoted.split(':').next().unwrap_or("");
            let plain = !path.is_empty() && !path.contains(|c: char| c.is_whitespace() || "<>*$?{}|=,()".contains(c));
            if !plain || path.starts_with('/') || !path.contains('/') {
                continue;
            }
            let first = path.split('/').next().unwrap_or("");
            if tops.iter().any(|t| t == first) && !root.join(path).exists() {
                missing.push(format!("{}: `{path}`", doc.strip_prefix(&root).unwrap().display()));
            }
        }
    }
    assert!(missing.is_empty(), "paths that are not in the repository:\n{}", missing.join("\n"));
}

#[test]
fn nothing_points_outside_the_repository() {
    let root = repo();
    let mut all = Vec::new();
    files(&root, &[".md", ".rs", ".java", ".sh", ".py", ".toml"], &mut all);
    let this = Path::new(file!()).file_name().unwrap().to_owned();
    let mut found = Vec::new();
    for f in all.iter().filter(|f| f.file_name() != Some(this.as_os_str())) {
        let text = std::fs::read_to_string(f).unwrap_or_default();
        for (n, line) in text.lines().enumerate() {
            let lower = line.to_lowercase();
            let issue_number = lower.match_indices("issue ").any(|(i, _)| lower[i + 6..].starts_with(|c: char| c.is_ascii_digit()))
                && !lower.contains("async-profiler");
            let outside = ["design.md", "../shared", "papers/"].iter().any(|s| lower.contains(s));
            if issue_number || outside {
                found.push(format!("{}:{}: {}", f.strip_prefix(&root).unwrap().display(), n + 1, line.trim()));
            }
        }
    }
    assert!(found.is_empty(), "references to files outside the repository or to issue numbers:\n{}", found.join("\n"));
}
