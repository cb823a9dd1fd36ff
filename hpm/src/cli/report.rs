//! `hpm report`: render the reports of a raw trace or re-render an arcflow.json.

use std::path::{Path, PathBuf};

use clap::{ArgGroup, Args};
use hpm_model::arcflow::Profile;
use hpm_model::text_trace::{excerpt, read_text_trace};
use hpm_model::saved::Saved;
use hpm_reports::saved;
use hpm_reports::{explore, suggest, write_all, write_reports, Format, ReportOptions};

use super::out::{errln, outln};
use super::progress;
use super::Failure;

pub(crate) const ABOUT: &str = "Render the arcflow reports of a raw start/end trace or of a saved arcflow.json. Two inputs:

  hpm report --trace FILE --out DIR [--metric-name NAME[:UNIT]]...
      reads a raw start/end trace in the text format of the arcflow paper (Figure 2): one record per
      line, `<value>... <kind> <name>` with kind `>` (start), `<` (end) or `pidtid` (switch thread).
      Malformed lines are skipped with a warning naming the line.

  hpm report DIR_OR_JSON --out DIR
      re-renders an arcflow.json (or the arcflow.json in a directory) with other options. A
      version 2 file (written by the agent) gives back every report of the run: with default
      options the same files, byte for byte, as the agent wrote (threads.txt, gc.txt, locks/,
      sampled/, vm-cost.txt, ...); --format renders only the named files of the call trees.

Both write xtree.txt, xarc.txt, xprof.txt, arcflow.json, collapsed.txt and flame.svg into DIR
(each file atomically) and print the paths written. See docs/reports.md.";

#[derive(Args, Debug)]
#[command(group(ArgGroup::new("source").required(true).args(["input", "trace"])))]
pub(crate) struct ReportArgs {
    /// An arcflow.json to re-render (version 1 or 2), or a directory that contains one.
    #[arg(value_name = "DIR_OR_JSON")]
    input: Option<PathBuf>,

    /// A raw start/end trace in the paper's Figure 2 text format.
    #[arg(long, value_name = "FILE")]
    trace: Option<PathBuf>,

    /// Directory to write the reports into (created if needed).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,

    /// Names (and units) of the trace's value columns, in order, e.g. `cpu-time:ns`. Repeat for
    /// several columns. Default: `metric`, `metric2`, …
    #[arg(long = "metric-name", value_name = "NAME[:UNIT]", requires = "trace")]
    metric_names: Vec<String>,

    /// The metric the reports show: its name or its index (0 is the first). Default: the first.
    #[arg(long, value_name = "NAME|INDEX")]
    metric: Option<String>,

    /// Prune contexts whose cum is below this fraction of the total (e.g. 0.001 = 0.1%); the
    /// dropped children are shown as one `(pruned)` child. arcflow.json is never pruned.
    #[arg(long, value_name = "FRACTION", default_value_t = 0.0, value_parser = parse_fraction)]
    prune: f64,

    /// Report only this thread (its name, with or without the `_pidtid` suffix); repeatable.
    #[arg(long = "thread", value_name = "NAME")]
    threads: Vec<String>,

    /// Which files to write, comma-separated: xtree, xarc, xprof, json, collapsed, flame.
    /// Default: all (and, from a version 2 arcflow.json, every other report of the run).
    #[arg(long = "format", value_name = "FORMAT", value_delimiter = ',', value_parser = parse_format)]
    formats: Vec<Format>,

    /// Show absolute values instead of percentages of the total.
    #[arg(long)]
    absolute: bool,

    /// Also write xtree/xarc/xprof of each thread on its own under DIR/threads/ (from a version 2
    /// arcflow.json they are written anyway for runs of at most 512 threads, as the agent does).
    #[arg(long = "per-thread")]
    per_thread: bool,

    /// In collapsed.txt and flame.svg, fold contexts deeper than this many frames into one
    /// `(deeper)` frame (0: no limit).
    #[arg(long = "max-stack-depth", value_name = "FRAMES", default_value_t = ReportOptions::default().max_stack_depth)]
    max_stack_depth: usize,

    /// Also write the call trees split by the run's markers: phases.txt and phases/phase-N/ (in
    /// the --format formats). A version 2 arcflow.json whose markers split the run gives them
    /// anyway when no --format is given.
    #[arg(long)]
    phases: bool,
}

fn parse_fraction(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && (0.0..=1.0).contains(&v) => Ok(v),
        _ => Err(format!("`{s}` is not a fraction between 0 and 1 (e.g. 0.001 for 0.1%)")),
    }
}

fn parse_format(s: &str) -> Result<Format, String> {
    Format::parse(s.trim()).ok_or_else(|| {
        let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
        let hint = suggest::did_you_mean(s.trim(), names.iter().copied());
        format!("unknown format `{}`{hint} (known: {})", excerpt(s), names.join(", "))
    })
}

pub(crate) fn run(args: ReportArgs) -> Result<(), Failure> {
    let saved = match (&args.trace, &args.input) {
        (Some(trace), _) => Saved::Trees(load_trace(trace, &args.metric_names)?),
        (None, Some(input)) => load_json(input)?,
        (None, None) => return Err(Failure("no input: give a trace with --trace FILE, or an arcflow.json or its directory".into())),
    };
    if args.phases {
        match &saved {
            Saved::Run(run) if !run.snapshot.phase_calls.is_empty() => {}
            Saved::Run(_) => return Err(Failure("--phases: no marker split this run's call trees (markers come from `hpm ctl PID mark TEXT` or hpmagent.Trace, and split the exact call trees only)".into())),
            Saved::Trees(_) => return Err(Failure("--phases needs a run's arcflow.json (version 2, written by the agent): this input has call trees only".into())),
        }
    }
    let profile = saved.calls();
    let metric = match &args.metric {
        None => 0,
        Some(m) => resolve_metric(&profile, m)?,
    };
    let mut opts = ReportOptions {
        metric,
        absolute: args.absolute,
        prune: args.prune,
        formats: if args.formats.is_empty() { Format::ALL.to_vec() } else { args.formats.clone() },
        threads: args.threads.clone(),
        per_thread: args.per_thread,
        max_stack_depth: args.max_stack_depth,
        ..ReportOptions::default()
    };
    let repeated: Vec<usize> = (0..profile.metric_count()).filter(|&k| hpm_reports::xprof::repeats_a_metric(&profile, k, metric)).collect();
    if let Some(&first) = repeated.first() {
        let name = &profile.bindings.metrics[first].name;
        errln!("hpm: note: {} metric(s) repeat the name and unit of another (e.g. `{name}`); xprof shows each once", repeated.len());
    }
    let overflow = hpm_reports::overflowing_sums(&hpm_reports::select(&profile, &opts));
    for &k in overflow.metrics.iter().filter(|&&k| k != metric) {
        let name = &profile.bindings.metrics[k].name;
        errln!("hpm: warning: metric `{name}`: its values add up past 2^64 − 1; xprof leaves out its column and the columns computed from it");
    }
    let spinner = progress::spinner(&format!("rendering reports into {}", args.out.display()));
    let written = match &saved {
        // A saved run gives back its whole directory, as the agent wrote it (per-thread views
        // where the agent writes them); `--format` asks for those files of the call trees only.
        Saved::Run(run) if args.formats.is_empty() => {
            opts.per_thread |= saved::run_options(run).per_thread;
            write_all(run, &args.out, &opts).and_then(|files| {
                // The page of a run directory that holds a quantum trace shows it, as the agent's.
                match args.input.as_deref().filter(|i| opts.threads.is_empty() && i.is_dir() && hpm_reports::explore::trace_dir(i).is_some()) {
                    Some(input) if !same_dir(input, &args.out) => explore::write_explorer(run, &args.out, input).map(|_| files),
                    _ => Ok(files),
                }
            })
        }
        _ => write_reports(&profile, &args.out, &opts).and_then(|mut files| {
            if let (true, Saved::Run(run)) = (args.phases, &saved) {
                let s = &run.snapshot;
                let phases = if s.compensation.is_some() { s.compensated_phase_calls() } else { s.phase_calls.clone() };
                files.extend(hpm_reports::phases::write_phases(&phases, run.marks.as_deref().unwrap_or_default(), s.uptime_ns, &args.out, &opts)?);
            }
            Ok(files)
        }),
    };
    let written = written.map_err(|e| match e.kind() {
        // The options do not fit the profile (unknown thread, sums too large): nothing was written.
        std::io::ErrorKind::InvalidInput => Failure(e.to_string()),
        _ => Failure(format!("cannot write the reports into {}: {e}", args.out.display())),
    });
    spinner.finish_and_clear();
    let written = written?;
    let trace_from = args.input.as_deref().filter(|i| i.is_dir() && matches!(saved, Saved::Run(_)) && args.formats.is_empty());
    if let Some(bytes) = trace_from.and_then(explore::trace_left_out_of_page) {
        errln!("hpm: note: {}", explore::trace_left_out_note(bytes, &args.out, trace_from.unwrap_or(&args.out)));
    }
    for p in written {
        outln!("{}", p.display());
    }
    Ok(())
}

fn load_trace(path: &Path, metric_names: &[String]) -> Result<Profile, Failure> {
    // A regular file only, read up to its size when opened (a device or FIFO is refused).
    let (file, len) = saved::input::open_file(path).map_err(|e| match saved::input::refusal(&e) {
        Some(refused) => Failure(format!("{refused}: give a trace file in the text format of the arcflow paper's Figure 2")),
        None => Failure(format!("cannot open trace {}: {e}; check the path", path.display())),
    })?;
    let bar = progress::bytes(len, &format!("reading {}", path.display()));
    let trace = read_text_trace(std::io::BufReader::new(bar.wrap_read(std::io::Read::take(file, len))), metric_names)
        .map_err(|e| Failure(format!("cannot read trace {}: {e}", path.display())));
    bar.finish_and_clear();
    let trace = trace?;
    for w in &trace.warnings {
        errln!("hpm: warning: {}: {w}", path.display());
    }
    if trace.records == 0 {
        errln!("hpm: warning: {}: no trace records; the reports are empty", path.display());
    }
    Ok(trace.profile)
}

pub(crate) fn load_json(input: &Path) -> Result<Saved, Failure> {
    let path = if input.is_dir() { input.join("arcflow.json") } else { input.to_path_buf() };
    let bytes = progress::read_file(&path).map_err(|e| {
        if let Some(refused) = saved::input::refusal(&e) {
            Failure(format!("{refused}: give a report directory or an arcflow.json"))
        } else if input.is_dir() {
            Failure(format!(
                "no readable arcflow.json in directory {} ({e}); pass the file itself or a directory written by `hpm report` or the agent",
                input.display()
            ))
        } else {
            Failure(format!("cannot read {}: {e}; check the path", path.display()))
        }
    })?;
    let text = String::from_utf8(bytes)
        .map_err(|_| Failure(format!("{} is not UTF-8 text, so not an arcflow.json; pass an arcflow.json or use --trace for a raw trace", path.display())))?;
    let spinner = progress::spinner(&format!("parsing {}", path.display()));
    let saved = hpm_model::saved::read(&text).map_err(|e| Failure(format!("{} is not a valid arcflow.json: {e}", path.display())));
    spinner.finish_and_clear();
    saved
}

/// A metric given by name or index (`--metric`), for `hpm report` and `hpm export`.
pub(super) fn resolve_metric(profile: &Profile, m: &str) -> Result<usize, Failure> {
    if let Some(i) = profile.bindings.metric_index(m) {
        return Ok(i);
    }
    if let Ok(i) = m.parse::<usize>() {
        if i < profile.metric_count() {
            return Ok(i);
        }
    }
    let names: Vec<String> =
        profile.bindings.metrics.iter().enumerate().map(|(i, x)| format!("{i}: {}", x.name)).collect();
    let hint = suggest::did_you_mean(m, profile.bindings.metrics.iter().map(|x| x.name.as_str()));
    Err(Failure(format!("unknown metric `{}`{hint}; the profile's metrics are [{}]", excerpt(m), names.join(", "))))
}

/// Whether two paths name the same directory.
fn same_dir(a: &Path, b: &Path) -> bool {
    matches!((a.canonicalize(), b.canonicalize()), (Ok(x), Ok(y)) if x == y)
}
