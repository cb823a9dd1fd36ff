//! A saved profile: what an `arcflow.json` holds, loading it, and writing every report of a run
//! from it.
//!
//! Version 2 (written by the agent at every dump, module [`v2`]) holds everything a run keeps: the
//! recorder's [`Snapshot`] (call, lock, wait, sampled and allocation trees, thread summaries, GC,
//! code, compiles, forms, compensation, configuration) and what the agent adds at the dump (which
//! run it was, the VM-cost timeline, the markers). [`crate::write_all`] renders every report of a
//! run from it; the agent calls it at each dump and `hpm report DIR` calls it on the loaded file,
//! so both write the same files, byte for byte. Version 1 (module [`crate::json`]) holds only call
//! trees; [`load`] and [`read`] read both.

pub mod input;
pub mod v2;

use std::borrow::Cow;
use std::io;
use std::path::{Path, PathBuf};

use hpm_model::arcflow::Profile;
use hpm_model::snapshot::Snapshot;
use hpm_model::vmcost::CostRow;

pub use crate::json::ReadError;
use crate::vm::marks::Mark;
use crate::vm::run::RunIdentity;
use crate::{check_options, json, thread_matches, vm, write_atomic, write_atomic_with, write_reports, Format, ReportOptions};

/// The VM-cost timeline as `vm-cost.txt` shows it (`hpm_collectors::vmcost::CostTimeline`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VmCostData {
    /// The counters of each row's `counters`, in order.
    pub counters: Vec<String>,
    pub rows: Vec<CostRow>,
    /// Threads whose last interval is missing (they ended unseen).
    pub lost_threads: u64,
}

/// Everything a run keeps: the recorder's snapshot and what the agent adds at a dump.
#[derive(Debug, Clone)]
pub struct SavedRun {
    pub snapshot: Snapshot,
    /// Which run this is (the `Run:` line of `threads.txt`); `None`: not known, no line.
    pub run: Option<RunIdentity>,
    /// The VM-cost timeline (`vm-cost.txt`, HotSpot only).
    pub vm_cost: Option<VmCostData>,
    /// The markers (`marks.txt`).
    pub marks: Option<Vec<Mark>>,
}

/// What an `arcflow.json` holds.
#[derive(Debug, Clone)]
pub enum Saved {
    /// Version 1: call trees only.
    Trees(Profile),
    /// Version 2: a whole run.
    Run(Box<SavedRun>),
}

impl Saved {
    /// The call trees the reports show: with overhead compensation, the compensated ones.
    pub fn calls(&self) -> Cow<'_, Profile> {
        match self {
            Saved::Trees(p) => Cow::Borrowed(p),
            Saved::Run(r) => r.calls_shown(),
        }
    }

    /// The file format's major version.
    pub fn version(&self) -> u64 {
        match self {
            Saved::Trees(_) => json::VERSION,
            Saved::Run(_) => v2::VERSION,
        }
    }
}

/// Whether any thread of `p` has a context below its root.
fn records_calls(p: &Profile) -> bool {
    p.threads.iter().any(|t| t.tree.len() > 1)
}

impl SavedRun {
    /// The call trees the reports show: compensated where the probe cost was calibrated (the
    /// snapshot keeps the raw values, also written as `arcflow-raw.json`). A run that recorded no
    /// exact call (`calls=none`, sampling alone) shows its sampled trees instead, so that the
    /// top-level reports and the page hold what the run recorded, not thread roots alone
    /// (`sampled/` has them too).
    pub fn calls_shown(&self) -> Cow<'_, Profile> {
        if !records_calls(&self.snapshot.calls) {
            if let Some(samples) = self.snapshot.samples.as_ref().filter(|s| records_calls(s)) {
                return Cow::Borrowed(samples);
            }
        }
        match self.snapshot.compensation {
            Some(_) => Cow::Owned(self.snapshot.compensated_calls()),
            None => Cow::Borrowed(&self.snapshot.calls),
        }
    }

    /// The run with only the threads `names` selects (a name, or a text trace's name without
    /// `_pidtid`) in every tree and in the thread summaries; what belongs to no thread (GC, code,
    /// forms, compiles, VM cost, markers) stays whole.
    pub fn select_threads(&self, names: &[String]) -> SavedRun {
        let keep = |name: &str| names.iter().any(|w| thread_matches(name, w));
        let pick = |p: &Profile| p.select_threads(|t| keep(&t.name));
        let s = &self.snapshot;
        SavedRun {
            snapshot: Snapshot {
                calls: pick(&s.calls),
                locks: pick(&s.locks),
                waits: pick(&s.waits),
                samples: s.samples.as_ref().map(pick),
                sample_timelines: s.sample_timelines.as_ref().zip(s.samples.as_ref()).map(|(ts, p)| {
                    ts.iter().zip(&p.threads).filter(|(_, t)| keep(&t.name)).map(|(tl, _)| tl.clone()).collect()
                }),
                alloc_samples: s.alloc_samples.as_ref().map(pick),
                sample_states: s.sample_states.as_ref().map(pick),
                sample_forms: s.sample_forms.clone(),
                stack_forms: s.stack_forms.clone(),
                compiles: s.compiles.clone(),
                threads: s.threads.iter().filter(|t| keep(&t.name)).cloned().collect(),
                gc: s.gc.clone(),
                gc_dropped: s.gc_dropped,
                gc_count: s.gc_count,
                gc_total_ns: s.gc_total_ns,
                code: s.code.clone(),
                code_loads: s.code_loads,
                code_unloads: s.code_unloads,
                classes_loaded: s.classes_loaded,
                classes_prepared: s.classes_prepared,
                uptime_ns: s.uptime_ns,
                config: s.config.clone(),
                compensation: s.compensation.clone(),
                phase_calls: s.phase_calls.iter().map(pick).collect(),
                probe_requests: s.probe_requests.clone(),
                probe_windows: s.probe_windows.clone(),
            },
            run: self.run.clone(),
            vm_cost: self.vm_cost.clone(),
            marks: self.marks.clone(),
        }
    }
}

/// Reads an arcflow.json document of either version.
pub fn read(text: &str) -> Result<Saved, ReadError> {
    match json::version(text)? {
        json::VERSION => json::read(text).map(Saved::Trees),
        v2::VERSION => v2::read(text).map(|r| Saved::Run(Box::new(r))),
        v => Err(ReadError {
            message: format!(
                "unsupported arcflow.json version {v}: this hpm reads versions {} and {}; use the hpm that wrote the file, or a newer one",
                json::VERSION,
                v2::VERSION
            ),
        }),
    }
}

/// Loads an arcflow.json, or the one in directory `path` (a directory written by the agent or by
/// `hpm report`). Errors are one line naming the file.
pub fn load(path: &Path) -> Result<Saved, ReadError> {
    let file = if path.is_dir() { path.join("arcflow.json") } else { path.to_path_buf() };
    let fail = |m: String| ReadError { message: m };
    let bytes = input::read_file(&file).map_err(|e| match input::refusal(&e) {
        Some(refused) => fail(format!("{refused}: give a report directory or an arcflow.json")),
        None => fail(format!("cannot read {}: {e}", file.display())),
    })?;
    let text = String::from_utf8(bytes).map_err(|_| fail(format!("{} is not UTF-8 text, so not an arcflow.json", file.display())))?;
    read(&text).map_err(|e| fail(format!("{} is not a valid arcflow.json: {e}", file.display())))
}

/// Per-thread views (`threads/NNN-name/`) are written by default when a run has at most this many
/// threads: each costs three synced files.
pub const MAX_PER_THREAD_VIEWS: usize = 512;

/// The options of the agent's own reports of `run`: the defaults, with per-thread views when it
/// has at most [`MAX_PER_THREAD_VIEWS`] threads. `hpm report DIR` with default options uses them.
pub fn run_options(run: &SavedRun) -> ReportOptions {
    ReportOptions { per_thread: run.snapshot.calls.threads.len() <= MAX_PER_THREAD_VIEWS, ..ReportOptions::default() }
}

/// The saved run alone, `dir/arcflow.json` (written atomically): every other report is rendered
/// from it (`hpm report DIR`).
pub fn write_run(run: &SavedRun, dir: &Path) -> io::Result<PathBuf> {
    crate::ensure_report_dir(dir)?;
    let p = dir.join(Format::Json.file_name());
    write_atomic_with(&p, |w| v2::write(run, w))?;
    Ok(p)
}

/// [`crate::write_all`] but the explorer page, for a caller that writes the page on its own terms (the
/// agent: a page that cannot be written must not fail the dump of every other report).
pub fn write_reports_of_run(run: &SavedRun, dir: &Path, opts: &ReportOptions) -> io::Result<Vec<PathBuf>> {
    check_options(&run.snapshot.calls, opts)?;
    let selected;
    let run = if opts.threads.is_empty() {
        run
    } else {
        selected = run.select_threads(&opts.threads);
        &selected
    };
    crate::ensure_report_dir(dir)?;
    // arcflow.json first: every other file is rendered from it (`hpm report DIR`), so a dump that
    // runs out of space later still keeps the whole run.
    let mut files = Vec::new();
    if opts.formats.contains(&Format::Json) {
        let p = dir.join(Format::Json.file_name());
        write_atomic_with(&p, |w| v2::write(run, w))?;
        files.push(p);
    }
    match write_the_rest(run, dir, opts, &mut files) {
        Err(e) if !files.is_empty() => {
            let mut names: Vec<String> = files.iter().map(|f| f.strip_prefix(dir).unwrap_or(f).display().to_string()).collect();
            names.sort_by_key(|n| n != Format::Json.file_name());
            if names.len() > 8 {
                let more = names.len() - 7;
                names.truncate(7);
                names.push(format!("and {more} more"));
            }
            Err(io::Error::new(
                e.kind(),
                format!("{e}; written: {}; `hpm report {} --out {1}` writes the rest from arcflow.json", names.join(", "), dir.display()),
            ))
        }
        r => r.map(|()| files),
    }
}

/// The files of [`write_reports_of_run`] after arcflow.json, added to `files` as they are written.
fn write_the_rest(run: &SavedRun, dir: &Path, opts: &ReportOptions, files: &mut Vec<PathBuf>) -> io::Result<()> {
    let s = &run.snapshot;
    let trees = ReportOptions { threads: Vec::new(), formats: opts.formats.iter().copied().filter(|&f| f != Format::Json).collect(), ..opts.clone() };
    // Listed before arcflow.json, as they were when it was written after them.
    let trees_written = write_reports(&run.calls_shown(), dir, &trees)?;
    files.splice(0..0, trees_written);
    if s.compensation.is_some() {
        let p = dir.join("arcflow-raw.json");
        write_atomic_with(&p, |mut w| json::write(&s.calls, &mut w))?;
        files.push(p);
    }
    let sampled = ReportOptions { per_thread: opts.per_thread, ..ReportOptions::default() };
    if let Some(samples) = &s.samples {
        // Counts are samples (the reports' count label says so).
        files.extend(write_reports(samples, &dir.join("sampled"), &sampled)?);
        let p = dir.join("sampled/forms.txt");
        write_atomic(&p, vm::forms::forms(&s.sample_forms, &s.stack_forms, samples.bindings.metric_index("cpu-time")).as_bytes())?;
        files.push(p);
        let p = dir.join("sampled/jit.txt");
        write_atomic(&p, vm::jit::jit(&s.compiles).as_bytes())?;
        files.push(p);
    }
    if let Some(alloc) = &s.alloc_samples {
        files.extend(write_reports(alloc, &dir.join("sampled-alloc"), &sampled)?);
    }
    if let Some(states) = &s.sample_states {
        files.extend(write_reports(states, &dir.join("sampled-states"), &sampled)?);
        let p = dir.join("sampled/states.txt");
        write_atomic(&p, vm::states::states(states).as_bytes())?;
        files.push(p);
    }
    files.extend(write_reports(&s.locks, &dir.join("locks"), &ReportOptions::default())?);
    files.extend(write_reports(&s.waits, &dir.join("waits"), &ReportOptions::default())?);
    for (name, mut text) in vm::all_reports(s) {
        // Which run these reports belong to.
        if let Some(id) = &run.run {
            if name == "threads.txt" {
                text = format!("{}\n{text}", id.line());
            } else if name == "threads.json" {
                if let Ok(serde_json::Value::Object(mut obj)) = serde_json::from_str::<serde_json::Value>(&text) {
                    obj.insert("run".into(), id.json());
                    text = serde_json::to_string_pretty(&obj).unwrap_or(text) + "\n";
                }
            }
        }
        let p = dir.join(name);
        write_atomic(&p, text.as_bytes())?;
        files.push(p);
    }
    if let Some(marks) = &run.marks {
        let p = dir.join("marks.txt");
        write_atomic(&p, vm::marks::marks(marks).as_bytes())?;
        files.push(p);
    }
    if !s.phase_calls.is_empty() {
        let phases = if s.compensation.is_some() { s.compensated_phase_calls() } else { s.phase_calls.clone() };
        let marks = run.marks.as_deref().unwrap_or_default();
        files.extend(crate::phases::write_phases(&phases, marks, s.uptime_ns, dir, opts)?);
    }
    if let Some(v) = &run.vm_cost {
        let p = dir.join("vm-cost.txt");
        write_atomic(&p, vm::cost::vm_cost(&v.rows, &v.counters, v.lost_threads).as_bytes())?;
        files.push(p);
    }
    Ok(())
}

#[cfg(test)]
pub(crate) mod tests;
