//! `hpm trace DIR`: read, merge and validate a quantum trace directory and print its tables.

use std::path::{Path, PathBuf};

use clap::Args;
use hpm_reports::quantum;

use super::out::{self, errln, outln};
use super::Failure;

#[derive(Args)]
pub struct TraceArgs {
    /// Directory with `quantum.meta` and `quantum.vp<N>.trace` files.
    pub dir: PathBuf,
    /// CSV (one row per thread and per processor) instead of the text tables.
    #[arg(long, conflicts_with = "json")]
    pub csv: bool,
    /// One JSON object instead of the text tables.
    #[arg(long)]
    pub json: bool,
    /// How many records to list after each GC and each marker.
    #[arg(long, default_value_t = 5)]
    pub after: usize,
}

pub fn run(args: TraceArgs) -> Result<(), Failure> {
    check_trace_dir(&args.dir)?;
    let trace = hpm_collectors::quantum::read_dir(&args.dir).map_err(|e| Failure(format!("{e}; is this a quantum trace directory (out= of the agent's `quantum` option)?")))?;
    let summary = quantum::summarize(&trace, args.after);
    if args.json {
        outln!("{}", quantum::to_json(&summary));
    } else if args.csv {
        out::print(&quantum::render_csv(&summary));
    } else {
        out::print(&quantum::render_text(&summary));
        // On HotSpot, virtual threads' mounts are a trace of their own beside the OS threads'.
        let vthreads = args.dir.join("vthreads");
        if vthreads.join(hpm_collectors::quantum::META_FILE).exists() {
            outln!("\nVirtual threads: their mounts on carrier threads are traced in {} (hpm trace {0})", vthreads.display());
        }
    }
    for o in &summary.overflows {
        errln!("hpm: warning: {o}");
    }
    for i in trace.issues.iter().filter(|i| i.severity == hpm_collectors::quantum::Severity::Warning) {
        if args.json || args.csv {
            errln!("hpm: warning: {i}");
        }
    }
    let errors = quantum::error_count(&trace);
    if errors > 0 {
        let first = trace.errors().next().map(|i| i.to_string()).unwrap_or_default();
        return Err(Failure(format!("{} is not a valid quantum trace: {errors} error(s), the first: {first}", args.dir.display())));
    }
    Ok(())
}

/// Refuses, before the reader opens anything, a trace directory that is not a directory or whose
/// files are not regular files (a device, a FIFO, a loop of links): one line naming it.
pub(crate) fn check_trace_dir(dir: &Path) -> Result<(), Failure> {
    match hpm_reports::saved::input::check_trace_dir(dir) {
        Err(e) => match hpm_reports::saved::input::refusal(&e) {
            Some(refused) => Err(Failure(format!("{refused}: give a quantum trace directory (out= of the agent's `quantum` option)"))),
            // Missing or unreadable: the reader says so, as before.
            None => Ok(()),
        },
        Ok(()) => Ok(()),
    }
}
