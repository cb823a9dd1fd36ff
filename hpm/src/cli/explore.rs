//! `hpm explore DIR [DIR2] [-o FILE] [--diff MODE]`: one self-contained HTML page over a run's
//! trees and quantum trace, or the diff of two runs' trees.

use std::path::{Path, PathBuf};

use clap::Args;
use hpm_reports::explore;
use hpm_reports::saved::input;

use super::out::outln;
use super::progress;
use super::Failure;

#[derive(Args)]
pub struct ExploreArgs {
    /// A run directory (arcflow.json and/or a quantum trace), a quantum-trace directory, or an
    /// arcflow.json.
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// A second run: the page shows what changed from DIR to DIR2 (their call trees, and their
    /// quantum traces' records when both have one).
    #[arg(value_name = "DIR2")]
    pub dir2: Option<PathBuf>,
    /// The page to write (default: explore.html in DIR, or DIR's directory when DIR is a file).
    #[arg(short = 'o', long = "out", value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// How the diff compares values: each run's as a share of its own total (`share`), as
    /// recorded (`absolute`), or shares when the totals differ by more than 1% (`auto`). The page
    /// has the same choice.
    #[arg(long = "diff", value_name = "MODE", default_value = "auto", value_parser = ["auto", "absolute", "share"])]
    pub diff: String,
}

pub fn run(args: ExploreArgs) -> Result<(), Failure> {
    if args.dir2.is_none() && args.diff != "auto" {
        return Err(Failure(format!("--diff {} compares two runs: give DIR2 too", args.diff)));
    }
    for dir in std::iter::once(&args.dir).chain(&args.dir2) {
        check_input(dir)?;
    }
    let spinner = progress::spinner(&format!("reading {}", args.dir.display()));
    let loaded = explore::load_run(&args.dir).and_then(|a| match &args.dir2 {
        Some(d) => explore::load_run(d).map(|b| (a, Some(b))),
        None => Ok((a, None)),
    });
    spinner.finish_and_clear();
    let (run, compare) = loaded.map_err(Failure)?;
    if let Some(b) = &compare {
        // Two runs compare their call trees, their quantum traces, or both.
        let traces = run.trace.is_some() && b.trace.is_some();
        for (r, d) in [(&run, &args.dir), (b, args.dir2.as_ref().unwrap_or(&args.dir))] {
            if r.trees.is_empty() && !traces {
                return Err(Failure(format!(
                    "{} has no call trees (arcflow.json) to compare; a diff needs two runs with call trees, or two with quantum traces",
                    d.display()
                )));
            }
        }
    }
    let out = args.out.unwrap_or_else(|| {
        let dir = if args.dir.is_dir() { args.dir.clone() } else { args.dir.parent().map(|p| p.to_path_buf()).unwrap_or_default() };
        dir.join(hpm_reports::explore::PAGE_FILE)
    });
    let spinner = progress::spinner(&format!("writing {}", out.display()));
    let diff = match args.diff.as_str() {
        "absolute" => explore::DiffValues::Absolute,
        "share" => explore::DiffValues::Share,
        _ => explore::DiffValues::Auto,
    };
    let written = explore::write_html_with(&out, &run, compare.as_ref(), diff);
    spinner.finish_and_clear();
    written.map_err(|e| Failure(format!("cannot write {}: {e}", out.display())))?;
    outln!("{}", out.display());
    Ok(())
}

/// Refuses, before anything is read, an input that is neither a file nor a directory (a device, a
/// FIFO, a loop of links), and a directory whose quantum trace has such a file: one line naming it.
/// A missing path is left to `explore::load_run`, which says so.
fn check_input(path: &Path) -> Result<(), Failure> {
    const GIVE: &str = "give a run directory, a quantum-trace directory or an arcflow.json";
    let refused = |e: std::io::Error| match input::refusal(&e) {
        Some(refused) => Failure(format!("{refused}: {GIVE}")),
        None => Failure(format!("cannot read {}: {e}", path.display())),
    };
    if path.is_file() {
        return Ok(());
    }
    if path.is_dir() {
        let json = path.join("arcflow.json");
        if std::fs::symlink_metadata(&json).is_ok() {
            input::check_file(&json).map_err(refused)?;
        }
        return match explore::trace_dir(path) {
            Some(d) => input::check_trace_dir(&d).map_err(refused),
            None => Ok(()),
        };
    }
    match std::fs::metadata(path) {
        Ok(m) => Err(Failure(format!("{} is {}, not a file or directory: {GIVE}", path.display(), input::kind(m.file_type())))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        // A loop of links, named as such.
        Err(_) => input::check_dir(path).map_err(refused),
    }
}
