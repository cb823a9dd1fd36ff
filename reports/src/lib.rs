//! Reports of the arcflow model: pure functions from a [`Profile`] to text or bytes.
//!
//! | file | module | what |
//! |---|---|---|
//! | `xtree.txt` | [`xtree`] | every calling context as a tree (the paper's Figure 5) |
//! | `xarc.txt` | [`xarc`] | per consumer: its parents, itself, its children (Figure 4) |
//! | `xprof.txt` | [`xprof`] | flat profile, one row per consumer (Figure 6) |
//! | `arcflow.json` | `hpm_model::saved`, [`saved`] | version 1: the call trees (`hpm_model::saved::v1`); version 2: everything a run keeps (`hpm_model::saved::v2`); [`saved::load`] reads both; [`saved`] writes every report of a saved run |
//! | `collapsed.txt` | [`collapsed`] | folded stacks, one line per context |
//! | `flame.svg` | [`flame`] | flame graph (inferno) |
//! | `explore.html` | [`explore`] | one self-contained page to explore call trees and quantum traces |
//!
//! [`write_reports`] writes them all into a directory, each file atomically; [`write_all`] writes
//! every report of a saved run (the agent's whole report directory). xarc and xprof share
//! the per-consumer [`aggregate`], which defines how recursion is counted. See `docs/reports.md`.
//!
//! [`export`] writes a profile (or a quantum trace) in other viewers' formats and [`import`] reads
//! other profilers' recordings into a profile (`docs/exports.md`).

pub mod aggregate;
pub mod collapsed;
pub mod consult;
pub mod explore;
pub mod export;
pub mod flame;
pub mod import;
pub mod phases;
pub mod quantum;
pub mod saved;
pub mod suggest;
mod text;
pub mod vm;
pub mod xarc;
pub mod xprof;
pub mod xtree;

use std::borrow::Cow;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use hpm_model::arcflow::Profile;
use hpm_model::saved::{thread_matches, v1, SavedRun};

/// The consumer that stands for the children dropped by pruning.
pub const PRUNED: &str = "(pruned)";

/// One report file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Format {
    Xtree,
    Xarc,
    Xprof,
    Json,
    Collapsed,
    Flame,
}

impl Format {
    pub const ALL: [Format; 6] = [Format::Xtree, Format::Xarc, Format::Xprof, Format::Json, Format::Collapsed, Format::Flame];

    /// The short name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Format::Xtree => "xtree",
            Format::Xarc => "xarc",
            Format::Xprof => "xprof",
            Format::Json => "json",
            Format::Collapsed => "collapsed",
            Format::Flame => "flame",
        }
    }

    /// The file written for this format.
    pub fn file_name(self) -> &'static str {
        match self {
            Format::Xtree => "xtree.txt",
            Format::Xarc => "xarc.txt",
            Format::Xprof => "xprof.txt",
            Format::Json => "arcflow.json",
            Format::Collapsed => "collapsed.txt",
            Format::Flame => "flame.svg",
        }
    }

    /// Parses a short name (`xtree`, …) or a file name (`xtree.txt`, …).
    pub fn parse(s: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == s || f.file_name() == s)
    }
}

/// What to render and how.
#[derive(Debug, Clone, PartialEq)]
pub struct ReportOptions {
    /// Index of the metric the reports show (into `profile.bindings.metrics`).
    pub metric: usize,
    /// Absolute integer values instead of percentages of the total.
    pub absolute: bool,
    /// Prune contexts whose cum of the chosen metric is below this fraction of the total (e.g.
    /// 0.001); 0 keeps everything. Dropped children are folded into a `(pruned)` child. Applies to
    /// every report except `arcflow.json`, which always holds the complete (selected) model.
    pub prune: f64,
    /// Which files to write.
    pub formats: Vec<Format>,
    /// Thread names to report on; empty means all threads.
    pub threads: Vec<String>,
    /// Also write xtree/xarc/xprof for each thread on its own, under `threads/`.
    pub per_thread: bool,
    /// In xprof, add a base column for each metric other than the chosen one.
    pub extra_metrics: bool,
    /// In collapsed.txt and flame.svg, contexts deeper than this many frames are folded into a
    /// `(deeper)` frame; 0 means no limit.
    pub max_stack_depth: usize,
}

impl Default for ReportOptions {
    fn default() -> ReportOptions {
        ReportOptions {
            metric: 0,
            absolute: false,
            prune: 0.0,
            formats: Format::ALL.to_vec(),
            threads: Vec::new(),
            per_thread: false,
            extra_metrics: true,
            max_stack_depth: 512,
        }
    }
}

fn invalid(msg: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, msg)
}

/// Checks `opts` against `profile`: the metric exists, the prune fraction is in [0, 1], and every
/// named thread exists. Errors are of kind `InvalidInput` (as are those of the sums in
/// [`write_reports`]): a problem of the input, not of writing.
pub fn check_options(profile: &Profile, opts: &ReportOptions) -> io::Result<()> {
    let m = profile.metric_count();
    if opts.metric >= m {
        let names: Vec<&str> = profile.bindings.metrics.iter().map(|m| m.name.as_str()).collect();
        return Err(invalid(format!(
            "metric index {} is out of range: the profile has {m} metric(s) [{}]",
            opts.metric,
            names.join(", ")
        )));
    }
    if !(opts.prune.is_finite() && (0.0..=1.0).contains(&opts.prune)) {
        return Err(invalid(format!("prune fraction {} is not between 0 and 1 (e.g. 0.001 for 0.1%)", opts.prune)));
    }
    for name in &opts.threads {
        if !profile.threads.iter().any(|t| thread_matches(&t.name, name)) {
            let names: Vec<&str> = profile.threads.iter().map(|t| t.name.as_str()).collect();
            let short = names.iter().filter_map(|n| n.strip_suffix("_pidtid"));
            let hint = suggest::did_you_mean(name, names.iter().copied().chain(short));
            return Err(invalid(format!("no thread named `{name}`{hint}; the profile's threads are: {}", suggest::list(&names, 20))));
        }
    }
    Ok(())
}

/// The sums of a profile that do not fit in a `u64`, the type of every number in the reports.
/// Every sum a report shows (a total, a cum, an xarc or xprof row, a collapsed line) adds up some
/// of the contexts, so it fits whenever the sum over all contexts does: that is what is checked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Overflow {
    /// The call counts add up past `u64::MAX`.
    pub calls: bool,
    /// The metrics (indexes) whose values add up past `u64::MAX`.
    pub metrics: Vec<usize>,
}

impl Overflow {
    pub fn is_empty(&self) -> bool {
        !self.calls && self.metrics.is_empty()
    }
}

/// Which sums of `profile` overflow a `u64` (taken in u128, which fewer than 2^64 contexts cannot
/// overflow).
pub fn overflowing_sums(profile: &Profile) -> Overflow {
    let mut calls = 0u128;
    let mut sums = vec![0u128; profile.metric_count()];
    for th in &profile.threads {
        let t = &th.tree;
        for n in 0..t.len() as hpm_model::arcflow::NodeId {
            calls += t.calls(n) as u128;
            for (s, &v) in sums.iter_mut().zip(t.base(n)) {
                *s += v as u128;
            }
        }
    }
    let fits = |s: u128| u64::try_from(s).is_ok();
    Overflow { calls: !fits(calls), metrics: (0..sums.len()).filter(|&k| !fits(sums[k])).collect() }
}

/// The error for sums the reports of `opts.metric` cannot show: the calls, or the shown metric.
fn check_sums(profile: &Profile, overflow: &Overflow, opts: &ReportOptions) -> io::Result<()> {
    if overflow.calls {
        return Err(invalid("the call counts add up past 2^64 − 1 over the selected threads, so the reports' sums cannot hold them; select fewer threads".into()));
    }
    if overflow.metrics.contains(&opts.metric) {
        let name = &profile.bindings.metrics[opts.metric].name;
        return Err(invalid(format!(
            "metric `{name}`: its values add up past 2^64 − 1 over the selected threads, so its totals cannot be shown; choose another metric or fewer threads"
        )));
    }
    Ok(())
}

/// The threads chosen by `opts.threads` (all when empty).
pub fn select<'a>(profile: &'a Profile, opts: &ReportOptions) -> Cow<'a, Profile> {
    if opts.threads.is_empty() {
        Cow::Borrowed(profile)
    } else {
        Cow::Owned(profile.select_threads(|t| opts.threads.iter().any(|w| thread_matches(&t.name, w))))
    }
}

/// The cum threshold for `opts.prune`: ⌈fraction × total of the chosen metric⌉.
pub fn prune_threshold(profile: &Profile, opts: &ReportOptions) -> u64 {
    if opts.prune <= 0.0 {
        return 0;
    }
    let total = profile.total().get(opts.metric).copied().unwrap_or(0);
    (opts.prune * total as f64).ceil() as u64
}

/// `profile` pruned as `opts.prune` says: in every thread tree, contexts whose cum of the chosen
/// metric is below the threshold are folded into a `(pruned)` child of their parent.
pub fn prune<'a>(profile: &'a Profile, opts: &ReportOptions) -> Cow<'a, Profile> {
    prune_at(profile, opts.metric, prune_threshold(profile, opts))
}

/// `profile` with, in every thread tree, the contexts whose cum of `metric` is below `threshold`
/// folded into a `(pruned)` child of their parent (see `Tree::pruned`). A threshold of 0 changes
/// nothing and borrows `profile`.
pub fn prune_at(profile: &Profile, metric: usize, threshold: u64) -> Cow<'_, Profile> {
    if threshold == 0 {
        return Cow::Borrowed(profile);
    }
    let mut p = Profile { bindings: profile.bindings.clone(), consumers: profile.consumers.clone(), threads: Vec::new() };
    let pruned = p.consumers.intern(PRUNED);
    p.threads = profile
        .threads
        .iter()
        .map(|t| hpm_model::arcflow::ThreadProfile {
            name: t.name.clone(),
            kind: t.kind.clone(),
            os_tid: t.os_tid,
            tree: t.tree.pruned(metric, threshold, pruned),
        })
        .collect();
    Cow::Owned(p)
}

/// Renders one format of an already selected and pruned profile.
pub fn render(profile: &Profile, format: Format, opts: &ReportOptions) -> io::Result<Vec<u8>> {
    Ok(match format {
        Format::Xtree => xtree::render(profile, opts).into_bytes(),
        Format::Xarc => xarc::render(profile, opts).into_bytes(),
        Format::Xprof => xprof::render(profile, opts).into_bytes(),
        Format::Json => v1::to_vec(profile),
        Format::Collapsed => collapsed::render(profile, opts).into_bytes(),
        Format::Flame => flame::render(profile, opts)?,
    })
}

/// Writes the reports chosen in `opts` for `profile` into `dir` (created if needed) and returns the
/// paths written. Each file is written to a temporary file in `dir`, synced, and renamed over its
/// final name, so a reader never sees a half-written report.
///
/// Thread selection applies to every file; pruning to every file but `arcflow.json`, which holds
/// the complete model of the selected threads so that it can be re-rendered with other options.
pub fn write_reports(profile: &Profile, dir: &Path, opts: &ReportOptions) -> io::Result<Vec<PathBuf>> {
    check_options(profile, opts)?;
    let selected = select(profile, opts);
    let overflow = overflowing_sums(&selected);
    check_sums(&selected, &overflow, opts)?;
    // xprof's columns of the other metrics (and those computed from them) need their sums too.
    let opts = &ReportOptions { extra_metrics: opts.extra_metrics && overflow.metrics.is_empty(), ..opts.clone() };
    let shown = prune(&selected, opts);
    let mut formats = opts.formats.clone();
    formats.sort();
    formats.dedup();

    ensure_report_dir(dir)?;
    // Render in parallel (each format is independent); each job writes its files as soon as they
    // are rendered, so that I/O overlaps with the rendering of the others. A small tree is
    // rendered on this thread: starting and ending a thread costs about 0.1 ms of CPU here, more
    // than rendering all its formats, and the agent writes three such sets at exit (calls, locks,
    // waits).
    let parallel = shown.threads.iter().map(|t| t.tree.len()).sum::<usize>() >= PARALLEL_NODES;
    let emit = |f: Format, bytes: io::Result<Vec<u8>>| -> (Format, io::Result<PathBuf>) {
        let path = dir.join(f.file_name());
        (f, bytes.and_then(|b| write_atomic(&path, &b)).map(|_| path))
    };
    // Streamed as they are rendered: collapsed.txt, xtree.txt and arcflow.json grow with the tree
    // (collapsed.txt by a whole path per line without a depth limit, xtree.txt by up to a line of
    // indent per node), so they can be much larger than it.
    let streamed = |f: Format, write: &dyn Fn(&mut dyn Write) -> io::Result<()>| -> (Format, io::Result<PathBuf>) {
        let path = dir.join(f.file_name());
        (f, write_atomic_with(&path, write).map(|_| path))
    };
    // arcflow.json first, alone: it re-renders every other file (`hpm report DIR`), so when the
    // disk fills up later the run is still kept; when it cannot be written, nothing else is.
    let json_written = match formats.contains(&Format::Json) {
        true => Some(streamed(Format::Json, &|mut w| v1::write(&selected, &mut w))),
        false => None,
    };
    if let Some((_, Err(e))) = json_written {
        return Err(e);
    }
    let mut outputs: Vec<(Format, io::Result<PathBuf>)> = std::thread::scope(|s| {
        let shown: &Profile = &shown;
        let agg_formats: Vec<Format> = formats.iter().copied().filter(|f| matches!(f, Format::Xarc | Format::Xprof)).collect();
        let agg_job = (!agg_formats.is_empty()).then(|| {
            Job::start(s, parallel, move || {
                let agg = aggregate::Aggregate::new(shown);
                agg_formats
                    .into_iter()
                    .map(|f| {
                        let text = match f {
                            Format::Xarc => xarc::render_with(shown, &agg, opts),
                            _ => xprof::render_with(shown, &agg, opts),
                        };
                        emit(f, Ok(text.into_bytes()))
                    })
                    .collect::<Vec<_>>()
            })
        });
        let folded_job = formats.iter().any(|f| matches!(f, Format::Collapsed | Format::Flame)).then(|| {
            let want_collapsed = formats.contains(&Format::Collapsed);
            let want_flame = formats.contains(&Format::Flame);
            Job::start(s, parallel, move || {
                let mut v = Vec::new();
                if want_flame {
                    v.push(emit(Format::Flame, flame::render(shown, opts)));
                }
                if want_collapsed {
                    v.push(streamed(Format::Collapsed, &|w| collapsed::write(shown, opts, w)));
                }
                v
            })
        });
        let mut out = Vec::new();
        if formats.contains(&Format::Xtree) {
            out.push(streamed(Format::Xtree, &|w| xtree::write(shown, opts, w)));
        }
        for job in [agg_job, folded_job].into_iter().flatten() {
            match job.join() {
                Ok(v) => out.extend(v),
                Err(_) => out.push((Format::Xarc, Err(io::Error::other("a report renderer panicked")))),
            }
        }
        out
    });
    outputs.extend(json_written);

    outputs.sort_by_key(|(f, _)| *f);
    let mut written = Vec::new();
    for (_, path) in outputs {
        written.push(path?);
    }

    if opts.per_thread {
        let sub_opts = ReportOptions { prune: 0.0, threads: Vec::new(), per_thread: false, ..opts.clone() };
        let threads = dir.join("threads");
        let mut threads_ready = false;
        for (i, th) in shown.threads.iter().enumerate() {
            // A thread with no call below its root (a VM's idle or service threads) gets no
            // directory: three reports of one line each, and files are most of the cost of
            // writing at exit. `NNN` stays the thread's place in threads.txt.
            if th.tree.len() <= 1 {
                continue;
            }
            let one = shown.select_threads(|t| std::ptr::eq(t, th));
            let sub = threads.join(format!("{i:03}-{}", file_safe(&th.name)));
            // Each level checked in turn: a link planted at `threads` must not be created through.
            if !threads_ready {
                ensure_report_dir(&threads)?;
                threads_ready = true;
            }
            ensure_report_dir(&sub)?;
            for &f in &formats {
                if matches!(f, Format::Xtree | Format::Xarc | Format::Xprof) {
                    let path = sub.join(f.file_name());
                    write_atomic(&path, &render(&one, f, &sub_opts)?)?;
                    written.push(path);
                }
            }
        }
    }
    Ok(written)
}

/// Trees of at least this many nodes (all threads) have their formats rendered in parallel.
const PARALLEL_NODES: usize = 10_000;

/// A rendering job of [`write_reports`]: on a thread of its own, or already done.
enum Job<'scope, T> {
    Running(std::thread::ScopedJoinHandle<'scope, T>),
    Done(std::thread::Result<T>),
}

impl<'scope, T: Send + 'scope> Job<'scope, T> {
    /// Runs `job` on a new thread of `scope` when `parallel`, else here and now; either way a
    /// panic in it is its result, not the caller's.
    fn start<'env>(scope: &'scope std::thread::Scope<'scope, 'env>, parallel: bool, job: impl FnOnce() -> T + Send + 'scope) -> Job<'scope, T> {
        if parallel {
            Job::Running(scope.spawn(job))
        } else {
            Job::Done(std::panic::catch_unwind(std::panic::AssertUnwindSafe(job)))
        }
    }

    fn join(self) -> std::thread::Result<T> {
        match self {
            Job::Running(h) => h.join(),
            Job::Done(r) => r,
        }
    }
}

/// A thread name as a file-name component.
fn file_safe(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| if c.is_alphanumeric() || matches!(c, '-' | '_' | '.') { c } else { '_' })
        .take(64)
        .collect();
    if s.is_empty() || s.starts_with('.') {
        format!("_{s}")
    } else {
        s
    }
}

/// Writes every report of `run` into `dir` and returns the files written: the arcflow reports of
/// the call trees (compensated, when calibrated; per thread under `threads/` with
/// `opts.per_thread`), `arcflow.json` (version 2: the whole run), `arcflow-raw.json` (the raw call
/// trees, version 1, when compensated), the sampled trees in `sampled/` with `forms.txt` and
/// `jit.txt` and `states.txt`, the sampled trees split by thread state in `sampled-states/`, the
/// allocation samples in `sampled-alloc/`, the lock and wait trees in `locks/` and
/// `waits/`, `threads.txt`, `threads.json`, `gc.txt`, `locks.txt`, `waits.txt`, `alloc.txt`,
/// `code.txt`, `compensation.txt`, `marks.txt` and `vm-cost.txt` (each where the run has it).
///
/// `opts` shapes the call-tree reports (metric, prune, formats, absolute, depth); its threads
/// select the threads of every file. The other trees are rendered with the default options
/// (and `opts.per_thread` for the sampled ones), as the agent writes them.
pub fn write_all(run: &SavedRun, dir: &Path, opts: &ReportOptions) -> io::Result<Vec<PathBuf>> {
    let mut files = saved::write_reports_of_run(run, dir, opts)?;
    if opts.formats.contains(&Format::Json) {
        files.push(explore::write_explorer(&selected_threads(run, opts), dir, dir)?);
    }
    Ok(files)
}

/// The run with the threads `opts` selects (all when it names none).
fn selected_threads<'a>(run: &'a SavedRun, opts: &ReportOptions) -> Cow<'a, SavedRun> {
    if opts.threads.is_empty() {
        Cow::Borrowed(run)
    } else {
        Cow::Owned(run.select_threads(&opts.threads))
    }
}

pub use hpm_support::files::{write_atomic, write_atomic_with};

/// Creates the report directory `dir` when missing and checks that no other user can change what
/// is written there (`hpm_support::files::ensure_dir`): the agent may run as root beside them.
pub fn ensure_report_dir(dir: &Path) -> io::Result<()> {
    hpm_support::files::ensure_dir(dir).map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", dir.display())))
}

