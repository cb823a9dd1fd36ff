//! Every report of a saved run (`hpm_model::saved`), written from it: [`crate::write_all`]
//! renders them all; the agent calls it at each dump and `hpm report DIR` calls it on the loaded
//! file, so both write the same files, byte for byte. [`load`] reads a saved run from a file (never
//! a FIFO or a device: [`input`]).

pub mod input;

use std::io;
use std::path::{Path, PathBuf};

use hpm_model::saved::{read, v1, v2, ReadError, Saved, SavedRun};

use crate::{check_options, vm, write_atomic, write_atomic_with, write_reports, Format, ReportOptions};

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
        write_atomic_with(&p, |mut w| v1::write(&s.calls, &mut w))?;
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
