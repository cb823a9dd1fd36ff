//! `hpm export FORMAT INPUT`: a profile (or a quantum trace) in another viewer's format.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use hpm_model::arcflow::Profile;
use hpm_reports::export::{self, ExportOptions};
use hpm_reports::ReportOptions;

use super::out::{errln, outln};
use super::Failure;

pub(crate) const ABOUT: &str = "Write a profile in the format of another viewer:

  pprof       gzipped profile.proto for `go tool pprof` (every metric and the calls as sample types)
  speedscope  speedscope's JSON: one profile per thread weighted by --metric
  firefox     the Firefox Profiler's processed format: a thread per thread, weighted by --metric
  callgrind   callgrind.out for KCachegrind and callgrind_annotate: every metric an event column
  chrome-trace  a quantum trace directory as Chrome trace events for Perfetto: a track per processor,
              a complete event per quantum, markers as instants (INPUT is the trace directory)

INPUT is a profile directory (the agent's or `hpm report`'s) or its arcflow.json; for chrome-trace,
a quantum trace directory (its vthreads/ trace, if any, becomes a second process). The file is
written atomically to -o FILE (`-` for stdout), by default into the input's directory under the
format's usual name; its path is printed. See docs/exports.md.";

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum ExportFormat {
    /// gzipped profile.proto for `go tool pprof`
    Pprof,
    /// speedscope JSON, one profile per thread
    Speedscope,
    /// Firefox Profiler processed profile (JSON)
    Firefox,
    /// callgrind format, every metric an event (KCachegrind)
    Callgrind,
    /// a quantum trace as Chrome trace-event JSON (Perfetto)
    ChromeTrace,
}

impl ExportFormat {
    /// The file written when no `-o` is given.
    fn default_file_name(self) -> &'static str {
        match self {
            ExportFormat::Pprof => "profile.pb.gz",
            ExportFormat::Speedscope => "profile.speedscope.json",
            ExportFormat::Firefox => "profile.firefox.json",
            ExportFormat::ChromeTrace => "quantum.trace.json",
            ExportFormat::Callgrind => "callgrind.out.hpm",
        }
    }
}

#[derive(Args, Debug)]
pub(crate) struct ExportArgs {
    /// The format to write.
    #[arg(value_enum, value_name = "FORMAT")]
    format: ExportFormat,

    /// A profile directory or its arcflow.json.
    #[arg(value_name = "INPUT")]
    input: PathBuf,

    /// The file to write (`-` for stdout). Default: the format's usual name in INPUT's directory.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,

    /// The metric shown (its name or index): the weight of formats with one, the default of those
    /// with all metrics. Default: the first.
    #[arg(long, value_name = "NAME|INDEX")]
    metric: Option<String>,

    /// Export only this thread (its name, with or without the `_pidtid` suffix); repeatable.
    #[arg(long = "thread", value_name = "NAME")]
    threads: Vec<String>,

    /// In pprof, speedscope and Firefox exports, fold contexts deeper than this many frames into
    /// one `(deeper)` frame (0: no limit).
    #[arg(long = "max-stack-depth", value_name = "FRAMES", default_value_t = ReportOptions::default().max_stack_depth)]
    max_stack_depth: usize,
}

pub(crate) fn run(args: ExportArgs) -> Result<(), Failure> {
    if args.format == ExportFormat::ChromeTrace {
        return export_trace(&args);
    }
    let profile = load_profile(&args.input)?;
    let metric = match &args.metric {
        None => 0,
        Some(m) => super::report::resolve_metric(&profile, m)?,
    };
    let select = ReportOptions { metric, threads: args.threads.clone(), ..ReportOptions::default() };
    hpm_reports::check_options(&profile, &select).map_err(|e| Failure(e.to_string()))?;
    let profile = hpm_reports::select(&profile, &select);
    let opts = ExportOptions { metric, max_stack_depth: args.max_stack_depth };
    let format = args.format;
    let output = output_path(&args.input, args.output.as_deref(), format.default_file_name());
    let write = |w: &mut dyn Write| match format {
        ExportFormat::Pprof => export::pprof::write(&profile, &opts, w),
        ExportFormat::Speedscope => export::speedscope::write(&profile, &opts, w),
        ExportFormat::Firefox => export::firefox::write(&profile, &opts, w),
        ExportFormat::Callgrind => export::callgrind::write(&profile, &opts, w),
        // Handled by export_trace before a profile is read.
        ExportFormat::ChromeTrace => Err(std::io::Error::other("chrome-trace exports a quantum trace directory, not a profile")),
    };
    emit(output.as_deref(), write)
}

/// `hpm export chrome-trace TRACE_DIR`: the trace, and its virtual threads' trace when present.
fn export_trace(args: &ExportArgs) -> Result<(), Failure> {
    if args.metric.is_some() || !args.threads.is_empty() {
        let e = clap::Error::raw(
            clap::error::ErrorKind::ArgumentConflict,
            "--metric and --thread do not apply to chrome-trace: every quantum is exported with all its counters\n",
        );
        let _ = e.print();
        std::process::exit(2);
    }
    let read = |dir: &Path| {
        super::trace::check_trace_dir(dir)?;
        let trace = hpm_model::quantum::read_dir(dir)
            .map_err(|e| Failure(format!("{e}; is {} a quantum trace directory (out= of the agent's `quantum` option)?", dir.display())))?;
        if let Some(first) = trace.errors().next() {
            let n = trace.errors().count();
            errln!("hpm: warning: {} is not a valid quantum trace ({n} error(s), the first: {first}); exporting the records that were read", dir.display());
        }
        Ok::<_, Failure>(trace)
    };
    let trace = read(&args.input)?;
    let vdir = args.input.join("vthreads");
    let vthreads = if vdir.join(hpm_model::quantum::META_FILE).exists() { Some(read(&vdir)?) } else { None };
    let mut runs = vec![export::chrome_trace::Run { name: args.input.display().to_string(), trace: &trace }];
    if let Some(v) = &vthreads {
        runs.push(export::chrome_trace::Run { name: format!("{} (virtual threads)", args.input.display()), trace: v });
    }
    let output = output_path(&args.input, args.output.as_deref(), args.format.default_file_name());
    emit(output.as_deref(), |w| export::chrome_trace::write(&runs, w))
}

/// Where to write: `-o FILE`, stdout for `-o -` (None), or the default name next to the input.
fn output_path(input: &Path, output: Option<&Path>, default_name: &str) -> Option<PathBuf> {
    match output {
        Some(p) if p == Path::new("-") => None,
        Some(p) => Some(p.to_path_buf()),
        None if input.is_dir() => Some(input.join(default_name)),
        None => Some(input.parent().unwrap_or(Path::new(".")).join(default_name)),
    }
}

/// Writes the export atomically to `path` (and prints the path), or to stdout.
fn emit(path: Option<&Path>, write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> Result<(), Failure> {
    match path {
        Some(path) => {
            hpm_reports::write_atomic_with(path, write)
                .map_err(|e| Failure(format!("cannot write {}: {e}; check the directory exists and is writable, or choose another file with -o", path.display())))?;
            outln!("{}", path.display());
        }
        None => {
            let mut buf = Vec::new();
            write(&mut buf).map_err(|e| Failure(format!("cannot render the export: {e}")))?;
            write_stdout(&buf)?;
        }
    }
    Ok(())
}

/// Binary output to stdout; a reader that went away (`| head -c 100`) ends hpm quietly.
fn write_stdout(bytes: &[u8]) -> Result<(), Failure> {
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(bytes).and_then(|()| stdout.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Failure(format!("cannot write to stdout: {e}"))),
    }
}

/// Loads the profile to export: an arcflow.json (version 1 or 2), or the one in a directory,
/// read as `hpm report` reads it; the call trees the reports show.
pub(crate) fn load_profile(input: &Path) -> Result<Profile, Failure> {
    super::report::load_json(input).map(|s| s.calls().into_owned())
}

