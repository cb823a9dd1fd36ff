//! `hpm explore`: one self-contained HTML page over call trees and quantum traces.
//!
//! The page (`page.html`, `explorer.css`, `explorer.js`, embedded with `include_str!`) needs no
//! network and no server: the data of one or two runs is embedded as one JSON block
//! (`<script type="application/json" id="hpm-data">`) in a compact columnar form that the page turns
//! into typed arrays (see [`encode`] and `docs/explorer.md`). Everything else (views, computed
//! metrics, record sets, the diff) is computed in the browser.

use std::borrow::Cow;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};

use hpm_model::arcflow::{Profile, Tree};
use hpm_model::quantum::{self, Entry, Issue, Marker, Meta, QuantumRecord, Scan, Trace};
use hpm_model::snapshot::{ClassFilter, SampleTimeline};
use serde_json::{json, Value};
use hpm_model::saved::{Saved, SavedRun};

use crate::quantum::GcIntervals;

const PAGE: &str = include_str!("page.html");
const CSS: &str = include_str!("explorer.css");
const JS: &str = include_str!("explorer.js");

/// The page the agent (and `hpm report`) writes into a run directory.
pub const PAGE_FILE: &str = "explore.html";

/// Version of the embedded data (`format` `hpm-explore`), checked by the page.
pub const DATA_VERSION: u32 = 2;

/// What a tree of a run is, as the page's tree selector names it; a diff compares trees of the
/// same kind where both runs have one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TreeKind {
    /// Exact call trees (counts are calls), or a version 1 file's trees of calls.
    Calls,
    /// Stack samples (`sample=cpu|wall`, a JFR recording's execution samples).
    Sampled,
    /// The stack samples with the thread's state as a last node (`[running]`, `[parked]`, …).
    SampledStates,
    /// Allocation samples: allocating stacks, the allocated class as leaf.
    SampledAlloc,
    /// Contended monitor entries, the monitor's class as leaf.
    Locks,
    /// Waits (`Object.wait`, parks), the monitor's or blocker's class as leaf.
    Waits,
}

impl TreeKind {
    /// The key the page uses (and the run directory's subdirectory of that tree's reports).
    pub fn key(self) -> &'static str {
        match self {
            TreeKind::Calls => "calls",
            TreeKind::Sampled => "sampled",
            TreeKind::SampledStates => "sampled-states",
            TreeKind::SampledAlloc => "sampled-alloc",
            TreeKind::Locks => "locks",
            TreeKind::Waits => "waits",
        }
    }

    /// Whether every frame of the tree is a method (its leaves too), so that a class filter
    /// applies to each of them.
    fn methods_only(self) -> bool {
        matches!(self, TreeKind::Calls | TreeKind::Sampled)
    }

    /// The kind of a profile read on its own (a version 1 file): by its count and consumer labels.
    fn of_profile(p: &Profile) -> TreeKind {
        match (p.bindings.count_label.as_str(), p.bindings.consumer_label.as_str()) {
            ("samples", "methods and allocated classes") => TreeKind::SampledAlloc,
            ("samples", "methods and thread states") => TreeKind::SampledStates,
            ("samples", _) => TreeKind::Sampled,
            ("contended entries", _) => TreeKind::Locks,
            ("waits", _) => TreeKind::Waits,
            _ => TreeKind::Calls,
        }
    }
}

/// One tree of a run on the page.
#[derive(Debug, Clone)]
pub struct PageTree {
    pub kind: TreeKind,
    pub profile: Profile,
    /// Per thread of `profile` (sampled trees): when each sample was taken and its node.
    pub timelines: Option<Vec<SampleTimeline>>,
    /// For the exact call trees of one phase between markers: its number (from 1) and what the
    /// tree selector calls it. The page keys such a tree `phase-N`.
    pub phase: Option<(usize, String)>,
}

impl PageTree {
    /// A tree of `kind` that is not a phase's.
    pub fn new(kind: TreeKind, profile: Profile, timelines: Option<Vec<SampleTimeline>>) -> PageTree {
        PageTree { kind, profile, timelines, phase: None }
    }

    /// The key the page uses for this tree.
    fn page_key(&self) -> String {
        match &self.phase {
            Some((n, _)) => format!("phase-{n}"),
            None => self.kind.key().to_string(),
        }
    }
}

/// What one run brings to the page: its trees, its quantum trace, or both.
#[derive(Debug, Clone)]
pub struct Run {
    /// How the page names the run (its directory, usually).
    pub label: String,
    /// The trees the page offers, the one it opens on first.
    pub trees: Vec<PageTree>,
    /// The markers set in the run (ns since its start, text), drawn on the samples' timeline.
    pub marks: Vec<(u64, String)>,
    /// Which classes' methods the run recorded, where known (a saved run); `None`: every frame
    /// there was (a JFR import, a text trace). A diff leaves out, on each side, the frames of
    /// classes the other run did not record.
    pub filter: Option<ClassFilter>,
    pub trace: Option<PageTrace>,
    /// Text reports written beside the run that the page shows as they are (title, text): the
    /// bottleneck search's `consult.txt`.
    pub reports: Vec<(String, String)>,
}

impl Run {
    /// A run of a quantum trace alone (`trace` may be set later).
    pub fn of_trace(label: impl Into<String>, trace: Option<PageTrace>) -> Run {
        Run { label: label.into(), trees: Vec::new(), marks: Vec::new(), filter: None, trace, reports: Vec::new() }
    }

    /// A run of one profile of call trees (what a version 1 file holds).
    pub fn of_profile(label: impl Into<String>, profile: Profile) -> Run {
        let kind = TreeKind::of_profile(&profile);
        Run { trees: vec![PageTree::new(kind, profile, None)], ..Run::of_trace(label, None) }
    }

    /// A saved run: every tree it holds that records something below the thread roots, first
    /// the one its reports show ([`SavedRun::calls_shown`]: the exact calls, or the sampled trees
    /// of a run that recorded no call), then the sampled trees (by method, then by thread state),
    /// allocation, lock and wait trees.
    pub fn of_saved(label: impl Into<String>, run: &SavedRun) -> Run {
        let s = &run.snapshot;
        let shown = run.calls_shown();
        let shown_is_samples = matches!(&shown, Cow::Borrowed(p) if s.samples.as_ref().is_some_and(|q| std::ptr::eq(*p, q)));
        let mut trees = vec![if shown_is_samples {
            PageTree::new(TreeKind::Sampled, shown.into_owned(), s.sample_timelines.clone())
        } else {
            PageTree::new(TreeKind::Calls, shown.into_owned(), None)
        }];
        let recorded = |p: &Profile| p.threads.iter().any(|t| t.tree.len() > 1);
        if let Some(p) = s.samples.as_ref().filter(|p| !shown_is_samples && recorded(p)) {
            trees.push(PageTree::new(TreeKind::Sampled, p.clone(), s.sample_timelines.clone()));
        }
        let others = [(TreeKind::SampledStates, s.sample_states.as_ref()), (TreeKind::SampledAlloc, s.alloc_samples.as_ref()), (TreeKind::Locks, Some(&s.locks)), (TreeKind::Waits, Some(&s.waits))];
        for (kind, p) in others {
            if let Some(p) = p.filter(|p| recorded(p)) {
                trees.push(PageTree::new(kind, p.clone(), None));
            }
        }
        // The exact call trees of each phase between markers (compensated as the calls shown).
        if !s.phase_calls.is_empty() && !shown_is_samples {
            let phases = if s.compensation.is_some() { s.compensated_phase_calls() } else { s.phase_calls.clone() };
            let marks = run.marks.as_deref().unwrap_or_default();
            let count = phases.len();
            for (i, p) in phases.into_iter().enumerate() {
                let from = if i == 0 { "the start".to_string() } else { marks.get(i - 1).map_or("?".into(), |m| format!("'{}'", m.text)) };
                let to = if i + 1 == count { "the end".to_string() } else { marks.get(i).map_or("?".into(), |m| format!("'{}'", m.text)) };
                let label = format!("calls in phase {}: {from} to {to}", i + 1);
                trees.push(PageTree { kind: TreeKind::Calls, profile: p, timelines: None, phase: Some((i + 1, label)) });
            }
        }
        // The calls' tree when it is thread roots alone and another tree records something.
        if trees.len() > 1 && trees[0].kind == TreeKind::Calls && !recorded(&trees[0].profile) {
            trees.remove(0);
        }
        let marks = run.marks.iter().flatten().map(|m| (m.at_ns, m.text.clone())).collect();
        Run { label: label.into(), trees, marks, filter: Some(s.config.filter.clone()), trace: None, reports: Vec::new() }
    }
}

/// The call trees of a run directory or `arcflow.json` (version 1 or 2, through
/// [`crate::saved::load`]): compensated where the run calibrated its probe cost, as the reports.
pub fn load_profile(path: &Path) -> Result<Profile, String> {
    crate::saved::load(path).map(|s| s.calls().into_owned()).map_err(|e| e.to_string())
}

/// Every tree of a run directory or `arcflow.json`, with its markers and class filter. A version 1
/// file holds one tree: beside it, the version 1 files of its directory's `sampled-alloc/`,
/// `locks/` and `waits/` (what `hpm import` writes for a JFR recording's allocation samples) are
/// its other trees.
fn load_trees(path: &Path, label: &str) -> Result<Run, String> {
    Ok(match crate::saved::load(path).map_err(|e| e.to_string())? {
        Saved::Trees(p) => {
            let mut run = Run::of_profile(label, p);
            let dir = path.parent().unwrap_or(Path::new("."));
            for sub in [TreeKind::SampledAlloc, TreeKind::Locks, TreeKind::Waits].map(TreeKind::key) {
                let file = dir.join(sub).join("arcflow.json");
                if !file.is_file() {
                    continue;
                }
                if let Saved::Trees(p) = crate::saved::load(&file).map_err(|e| e.to_string())? {
                    let kind = TreeKind::of_profile(&p);
                    if !run.trees.iter().any(|t| t.kind == kind) && p.threads.iter().any(|t| t.tree.len() > 1) {
                        run.trees.push(PageTree::new(kind, p, None));
                    }
                }
            }
            run
        }
        Saved::Run(r) => Run::of_saved(label, &r),
    })
}

/// How the page compares two runs' values (`hpm explore A B --diff`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DiffValues {
    /// Shares when the totals differ by more than [`SHARE_WHEN_TOTALS_DIFFER`], else absolute.
    #[default]
    Auto,
    /// The values as recorded.
    Absolute,
    /// Each run's values as a share of its own total.
    Share,
}

impl DiffValues {
    pub fn key(self) -> &'static str {
        match self {
            DiffValues::Auto => "auto",
            DiffValues::Absolute => "absolute",
            DiffValues::Share => "share",
        }
    }
}

/// With [`DiffValues::Auto`], the page compares shares of each run's total when the totals of
/// the metric shown differ by more than this fraction of the larger: then a context whose share
/// did not change would show a change of up to this much of the total, the page's default
/// threshold for "changed".
pub const SHARE_WHEN_TOTALS_DIFFER: f64 = 0.01;

/// The class a frame's name belongs to (`a.b.C.m(int):12` → `a.b.C`); `None` for what is not a
/// method (a pseudo-frame such as `(unknown Java)`, a name without a dot).
fn class_of_frame(name: &str) -> Option<&str> {
    if name.starts_with('(') {
        return None;
    }
    let method = name.split('(').next().unwrap_or(name);
    let method = match method.rsplit_once(':') {
        Some((m, line)) if line.bytes().all(|b| b.is_ascii_digit()) => m,
        _ => method,
    };
    method.rsplit_once('.').map(|(class, _)| class)
}

/// The largest quantum trace (bytes of its trace files) that the page written with the reports
/// shows. Reading a trace back for the page takes about four times its size in memory, and the
/// agent does it in the profiled process at exit: a long traced run must not cost the host VM
/// gigabytes at its end. Above it the page has the call trees alone; `hpm explore DIR` writes a
/// page with any trace.
pub const PAGE_TRACE_LIMIT: u64 = 64 << 20;

/// The size of the quantum trace in `trace_from` (see [`write_explorer`]) when it is over
/// [`PAGE_TRACE_LIMIT`], so that the page written with the reports leaves it out.
pub fn trace_left_out_of_page(trace_from: &Path) -> Option<u64> {
    trace_over(trace_from, PAGE_TRACE_LIMIT)
}

/// What to tell the user when the page in `page_dir` leaves out the trace of run directory
/// `trace_from`, of `bytes` bytes.
pub fn trace_left_out_note(bytes: u64, page_dir: &Path, trace_from: &Path) -> String {
    format!(
        "the quantum trace ({} MiB) is not in {}: the page written with the reports shows traces up to {} MiB; `hpm explore {}` writes a page with it",
        bytes >> 20,
        page_dir.join(PAGE_FILE).display(),
        PAGE_TRACE_LIMIT >> 20,
        trace_from.display()
    )
}

fn trace_over(trace_from: &Path, limit: u64) -> Option<u64> {
    let dir = trace_dir(trace_from)?;
    let files = hpm_model::quantum::trace_files(&dir).ok()?;
    let bytes: u64 = files.iter().filter_map(|f| std::fs::metadata(f).ok()).map(|m| m.len()).sum();
    (bytes > limit).then_some(bytes)
}

/// Writes `dir/explore.html`: the explorer page of `run`'s call trees (as the reports show them),
/// with the quantum trace of the run directory `trace_from` (its own, or its `vthreads/`) when it
/// holds one that reads and is at most [`PAGE_TRACE_LIMIT`] bytes. Named by the run, not by a
/// directory, so that `hpm report` writes the same bytes as the agent. An unreadable trace leaves
/// the page without it (`hpm trace` says why).
pub fn write_explorer(run: &SavedRun, dir: &Path, trace_from: &Path) -> io::Result<PathBuf> {
    write_explorer_up_to(run, dir, trace_from, PAGE_TRACE_LIMIT)
}

pub(crate) fn write_explorer_up_to(run: &SavedRun, dir: &Path, trace_from: &Path, limit: u64) -> io::Result<PathBuf> {
    let label = match &run.run {
        Some(id) if !id.main.is_empty() => format!("{} (pid {})", id.main, id.pid),
        Some(id) => format!("pid {}", id.pid),
        None => "saved run".to_string(),
    };
    let mut page = Run::of_saved(label.clone(), run);
    if trace_over(trace_from, limit).is_none() {
        // Never a FIFO or a device under a trace file's name: the agent writes this page at the
        // VM's exit, which must not block or fill memory.
        let trace = trace_dir(trace_from).filter(|d| crate::saved::input::check_trace_dir(d).is_ok());
        page.trace = trace.and_then(|d| PageTrace::read(&label, &d).ok());
    }
    let p = dir.join(PAGE_FILE);
    write_html(&p, &page, None)?;
    Ok(p)
}

/// The quantum-trace directory inside `dir`, if any: `dir` itself when it holds `quantum.meta` or a
/// `quantum.vp<N>.trace` (or a run's temporary trace files), else `dir/vthreads` (virtual threads).
pub fn trace_dir(dir: &Path) -> Option<PathBuf> {
    let holds_trace = |d: &Path| {
        d.join(quantum::META_FILE).is_file()
            || std::fs::read_dir(d).into_iter().flatten().flatten().any(|e| {
                let name = e.file_name();
                let name = name.to_string_lossy();
                (name.starts_with("quantum.vp") || name.starts_with(".quantum.vp")) && name.contains(".trace")
            })
    };
    if holds_trace(dir) {
        return Some(dir.to_path_buf());
    }
    let v = dir.join("vthreads");
    holds_trace(&v).then_some(v)
}

/// The file `hpm consult` writes into a run directory, which the page shows in its Report tab.
pub const CONSULT_REPORT: &str = "consult.txt";

/// Loads a run: `path` is an arcflow.json, or a directory with an arcflow.json and/or a quantum
/// trace (in it or in its `vthreads/`). Errors are one sentence naming the cause.
pub fn load_run(path: &Path) -> Result<Run, String> {
    let label = path.display().to_string();
    if path.is_file() {
        return load_trees(path, &label);
    }
    if !path.is_dir() {
        return Err(format!("{} does not exist; give a run directory, a quantum-trace directory or an arcflow.json", path.display()));
    }
    let json = path.join("arcflow.json");
    let mut run = if json.is_file() { load_trees(&json, &label)? } else { Run::of_trace(label.clone(), None) };
    run.trace = match trace_dir(path) {
        Some(d) => Some(PageTrace::read(&label, &d).map_err(|e| format!("cannot read the quantum trace in {}: {e}", d.display()))?),
        None => None,
    };
    // The bottleneck search's report, where `hpm consult` wrote it into the run directory.
    if let Ok(text) = std::fs::read_to_string(path.join(CONSULT_REPORT)) {
        run.reports.push(("Bottleneck search (hpm consult)".into(), text));
    }
    if run.trees.is_empty() && run.trace.is_none() {
        return Err(format!(
            "{} holds neither an arcflow.json nor a quantum trace (quantum.meta, quantum.vp<N>.trace); give a directory written by the agent or `hpm report`",
            path.display()
        ));
    }
    Ok(run)
}

/// The embedded data of `run` (and of `compare`, the second run of a diff), as JSON text.
pub fn encode(run: &Run, compare: Option<&Run>) -> String {
    encode_with(run, compare, DiffValues::Auto)
}

/// [`encode`] with how a diff compares values.
pub fn encode_with(run: &Run, compare: Option<&Run>, diff: DiffValues) -> String {
    let mut out = Vec::new();
    write_data(&mut out, run, compare, diff).expect("writing to memory");
    String::from_utf8(out).expect("JSON text and packed ASCII digits are UTF-8")
}

/// Writes the embedded data of `run` (and `compare`) to `w`: the runs (label, markers), every
/// tree of each (`profiles`, naming its run and kind) encoded here, the trace's packed columns
/// straight from where they were packed (megabytes for a long trace, not copied again).
fn write_data(w: &mut dyn io::Write, run: &Run, compare: Option<&Run>, diff: DiffValues) -> io::Result<()> {
    let runs: Vec<&Run> = std::iter::once(run).chain(compare).collect();
    let mut out = Vec::with_capacity((1 << 16) + runs.iter().map(|r| estimated_len(r)).sum::<usize>());
    let heads: Vec<Value> = runs
        .iter()
        .map(|r| {
            json!({
                "label": r.label,
                "marks": r.marks.iter().map(|(t, text)| json!({"time": t, "text": text})).collect::<Vec<_>>(),
                "reports": r.reports.iter().map(|(title, text)| json!({"title": title, "text": text})).collect::<Vec<_>>(),
            })
        })
        .collect();
    push_head(&mut out, &json!({"format": "hpm-explore", "version": DATA_VERSION, "diffValues": diff.key(), "runs": heads}));
    out.extend_from_slice(b",\"profiles\":[");
    let mut first = true;
    for (k, r) in runs.iter().enumerate() {
        // Frames the other run did not record, left out of the diff on this side.
        let other = runs.get(1 - k).filter(|_| runs.len() == 2).and_then(|o| o.filter.as_ref());
        for t in &r.trees {
            if !first {
                out.push(b',');
            }
            first = false;
            let hidden = other.filter(|_| t.kind.methods_only());
            encode_profile(&mut out, &r.label, k, t, hidden);
        }
    }
    out.extend_from_slice(b"],\"trace\":");
    w.write_all(&out)?;
    match &run.trace {
        Some(t) => t.write(w)?,
        None => w.write_all(b"null")?,
    }
    // The second run's trace, when both runs have one: the page ranks its records against the
    // first's.
    if let (Some(_), Some(t)) = (&run.trace, compare.and_then(|c| c.trace.as_ref())) {
        w.write_all(b",\"compareTrace\":")?;
        t.write(w)?;
    }
    w.write_all(b"}")
}

/// About how many bytes `run`'s profile encodes to (the packed columns), so the text is not
/// copied as it grows.
fn estimated_len(run: &Run) -> usize {
    run.trees.iter().map(|t| t.profile.threads.iter().map(|th| th.tree.len() * (3 + t.profile.metric_count()) * 3).sum::<usize>()).sum()
}

/// Appends the JSON object `head` without its closing brace (the packed columns follow), with
/// every `<` escaped: JSON has `<` only inside strings, and escaped, no text (a thread, method or
/// marker name) can close the page's script element early. The packed columns hold no `<`.
fn push_head(out: &mut Vec<u8>, head: &Value) {
    let text = head.to_string().replace('<', "\\u003c");
    out.extend_from_slice(&text.as_bytes()[..text.len() - 1]);
}

/// Digits of the packed number encoding: a number is written 5 bits at a time, lowest first, as
/// characters of `MORE` for every group but the last, which is a character of `LAST`. Letters,
/// digits, `-` and `_` only: nothing to escape in JSON or HTML, and a quarter to a half the size
/// of decimal text (the page's load time is mostly reading its text).
const MORE: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ012345";
const LAST: &[u8; 32] = b"abcdefghijklmnopqrstuvwxyz6789-_";

/// `,"key":"…"`: `values` packed (see [`MORE`]).
fn push_packed(out: &mut Vec<u8>, key: &str, values: impl IntoIterator<Item = u64>) {
    let _ = write!(out, ",\"{key}\":");
    push_packed_string(out, values);
}

fn push_packed_string(out: &mut Vec<u8>, values: impl IntoIterator<Item = u64>) {
    out.push(b'"');
    for v in values {
        push_digits(out, v);
    }
    out.push(b'"');
}

/// One number's packed digits. Digit by digit: a copy of each number's digits would be a memcpy
/// call per number, and assembling them in a word first costs more instructions than the pushes.
#[inline]
fn push_digits(out: &mut Vec<u8>, mut v: u64) {
    while v >= 32 {
        out.push(MORE[(v & 31) as usize]);
        v >>= 5;
    }
    out.push(LAST[v as usize]);
}

/// Reads a packed string back (the page does the same in JavaScript).
pub fn unpack(s: &str) -> Result<Vec<u64>, String> {
    let mut out = Vec::new();
    let (mut v, mut shift) = (0u64, 0u32);
    for (i, b) in s.bytes().enumerate() {
        let (digit, last) = match (MORE.iter().position(|&m| m == b), LAST.iter().position(|&l| l == b)) {
            (Some(d), _) => (d as u64, false),
            (_, Some(d)) => (d as u64, true),
            _ => return Err(format!("byte {i}: `{}` is not a digit of the packed encoding", b as char)),
        };
        if shift >= 64 || (shift > 0 && digit >> (64 - shift) != 0) {
            return Err(format!("byte {i}: the number does not fit in 64 bits"));
        }
        v |= digit << shift;
        shift += 5;
        if last {
            out.push(v);
            (v, shift) = (0, 0);
        }
    }
    if shift != 0 {
        return Err("the last number is cut short".into());
    }
    Ok(out)
}

/// One tree of run number `run`: every thread's nodes concatenated, thread by thread in arena
/// order (so a parent comes before its children). Packed columns (see [`MORE`]): `parent` holds
/// `index − parent index` (0 for a thread root), `consumer` indexes `names`, `base[k]` holds
/// metric k. `hidden`: the names (indexes) of frames whose class the other run's `filter` does not
/// record, which its diff leaves out. With timelines, `timeline` holds per thread the samples'
/// `times` (packed differences from the one before, ns since the run's start) and `nodes`
/// (packed, indexes into this thread's nodes), and how many were `dropped`.
fn encode_profile(out: &mut Vec<u8>, label: &str, run: usize, tree: &PageTree, filter: Option<&ClassFilter>) {
    let p = &tree.profile;
    let metrics: Vec<Value> = p.bindings.metrics.iter().map(|m| json!({"name": m.name, "unit": m.unit, "mode": m.mode.as_str()})).collect();
    // The names the trees use, numbered in order of first use: a profile's consumer table may hold
    // names of other trees (a saved run shares one table among all its trees), and the page must
    // not depend on that.
    let mut index = vec![u32::MAX; p.consumers.len()];
    let mut names: Vec<&str> = Vec::new();
    for th in &p.threads {
        for n in 0..th.tree.len() as u32 {
            let c = th.tree.consumer(n) as usize;
            if index[c] == u32::MAX {
                index[c] = names.len() as u32;
                names.push(p.consumers.name(c as u32));
            }
        }
    }
    let mut threads = Vec::new();
    let mut offset = 0usize;
    for th in &p.threads {
        threads.push(json!({"name": th.name, "kind": th.kind, "root": offset}));
        offset += th.tree.len();
    }
    let hidden: Vec<usize> = match filter {
        Some(f) => names.iter().enumerate().filter(|(_, n)| class_of_frame(n).is_some_and(|c| !f.accepts(c))).map(|(k, _)| k).collect(),
        None => Vec::new(),
    };
    let head = json!({
        "label": label,
        "run": run,
        "tree": tree.page_key(),
        "treeLabel": tree.phase.as_ref().map(|(_, l)| l.as_str()),
        "hidden": hidden,
        "consumerLabel": p.bindings.consumer_label,
        "countLabel": p.bindings.count_label,
        "metrics": metrics,
        "names": names,
        "threads": threads,
    });
    push_head(out, &head);
    let trees: Vec<&Tree> = p.threads.iter().map(|t| &t.tree).collect();
    let nodes = || trees.iter().flat_map(|t| (0..t.len() as u32).map(move |n| (*t, n)));
    push_packed(out, "parent", nodes().map(|(t, n)| t.parent(n).map_or(0, |q| (n - q) as u64)));
    push_packed(out, "consumer", nodes().map(|(t, n)| index[t.consumer(n) as usize] as u64));
    push_packed(out, "calls", nodes().map(|(t, n)| t.calls(n)));
    out.extend_from_slice(b",\"base\":[");
    for k in 0..p.metric_count() {
        if k > 0 {
            out.push(b',');
        }
        push_packed_string(out, nodes().map(|(t, n)| t.base(n)[k]));
    }
    out.push(b']');
    if let Some(ts) = tree.timelines.as_ref().filter(|ts| ts.len() == p.threads.len()) {
        out.extend_from_slice(b",\"timeline\":{\"times\":[");
        for (k, t) in ts.iter().enumerate() {
            if k > 0 {
                out.push(b',');
            }
            push_packed_string(out, t.times.iter().scan(0u64, |prev, &x| Some(x.saturating_sub(std::mem::replace(prev, x)))));
        }
        out.extend_from_slice(b"],\"nodes\":[");
        for (k, t) in ts.iter().enumerate() {
            if k > 0 {
                out.push(b',');
            }
            push_packed_string(out, t.nodes.iter().map(|&n| n as u64));
        }
        let dropped: Vec<String> = ts.iter().map(|t| t.dropped.to_string()).collect();
        let _ = write!(out, "],\"dropped\":[{}]}}", dropped.join(","));
    }
    out.push(b'}');
}

/// The quantum trace's part of the embedded data (the JSON object `trace`): records as packed
/// columns (times relative to `t0`, the first time in the trace), threads, processors, markers,
/// GCs and the reader's issues. Made from a trace read whole ([`PageTrace::of`]) or streamed
/// from its directory ([`PageTrace::read`]), to the same bytes.
#[derive(Debug, Clone)]
pub struct PageTrace {
    /// The JSON object without its columns and closing brace.
    head: Vec<u8>,
    /// (key, packed digits) in the order written; the counters' deltas last, as one array.
    columns: Vec<(&'static str, Vec<u8>)>,
    deltas: Vec<Vec<u8>>,
}

impl PageTrace {
    /// The page's part of `trace`, labelled `label`.
    pub fn of(label: &str, trace: &Trace) -> PageTrace {
        let mut columns = Columns::new(&trace.meta);
        trace.quanta().for_each(|q| columns.push(q));
        let markers: Vec<&Marker> = trace.merged().filter_map(|e| if let Entry::Marker(m) = e { Some(m) } else { None }).collect();
        let vps: Vec<u32> = trace.vps.iter().map(|v| v.vp).collect();
        columns.finish(label, &trace.meta, &vps, &markers, &trace.issues)
    }

    /// The page's part of the trace in `dir`, streamed ([`Scan`]: its memory does not grow with
    /// the trace, only the packed columns do), or read whole where streaming does not apply (a
    /// run that did not finish, records out of order).
    pub fn read(label: &str, dir: &Path) -> io::Result<PageTrace> {
        if let Some(scan) = Scan::open(dir)? {
            let mut columns = Columns::new(scan.meta());
            if let Some(s) = scan.run(&mut |q| columns.push(q))? {
                let markers: Vec<&Marker> = s.markers.iter().collect();
                return Ok(columns.finish(label, &s.meta, &s.vps, &markers, &s.issues));
            }
        }
        Ok(PageTrace::of(label, &quantum::read_dir(dir)?))
    }

    fn write(&self, w: &mut dyn io::Write) -> io::Result<()> {
        w.write_all(&self.head)?;
        for (key, digits) in &self.columns {
            write!(w, ",\"{key}\":\"")?;
            w.write_all(digits)?;
            w.write_all(b"\"")?;
        }
        w.write_all(b",\"deltas\":[")?;
        for (k, digits) in self.deltas.iter().enumerate() {
            w.write_all(if k > 0 { b",\"" } else { b"\"" })?;
            w.write_all(digits)?;
            w.write_all(b"\"")?;
        }
        w.write_all(b"]}")
    }
}

/// A trace's quanta packed into columns as they come, in the trace's order.
struct Columns {
    /// The first quantum's start: the `start` column is packed relative to it until `t0` is
    /// known (a marker may come earlier).
    base: Option<u64>,
    vp: Vec<u8>,
    thread: Vec<u8>,
    start: Vec<u8>,
    duration: Vec<u8>,
    yielded: Vec<u8>,
    callee: Vec<u8>,
    deltas: Vec<Vec<u8>>,
    gcs: GcIntervals,
}

impl Columns {
    fn new(meta: &Meta) -> Columns {
        let column = Vec::new;
        Columns {
            base: None,
            vp: column(),
            thread: column(),
            start: column(),
            duration: column(),
            yielded: column(),
            callee: column(),
            deltas: (0..meta.delta_count()).map(|_| column()).collect(),
            gcs: GcIntervals::new(meta),
        }
    }

    #[inline]
    fn push(&mut self, q: &QuantumRecord) {
        let base = *self.base.get_or_insert(q.start);
        push_digits(&mut self.vp, q.vp as u64);
        push_digits(&mut self.thread, q.thread as u64);
        push_digits(&mut self.start, q.start - base);
        push_digits(&mut self.duration, q.duration());
        push_digits(&mut self.yielded, q.yielded as u64);
        push_digits(&mut self.callee, q.callee as u64);
        for (k, column) in self.deltas.iter_mut().enumerate() {
            push_digits(column, q.deltas.get(k).copied().unwrap_or(0));
        }
        self.gcs.add(q);
    }

    fn finish(mut self, label: &str, meta: &Meta, vps: &[u32], markers: &[&Marker], issues: &[Issue]) -> PageTrace {
        let t0 = self.base.into_iter().chain(markers.iter().map(|m| m.time)).min().unwrap_or(0);
        if let Some(base) = self.base.filter(|&b| b > t0) {
            // A marker came before the first quantum: the starts move by the difference.
            let starts = unpack(std::str::from_utf8(&self.start).expect("packed digits are ASCII")).expect("packed here");
            self.start.clear();
            starts.into_iter().for_each(|s| push_digits(&mut self.start, s + (base - t0)));
        }
        let threads: Vec<Value> = meta.threads.iter().map(|th| json!({"id": th.id, "kind": th.kind.name(), "name": th.name})).collect();
        let mut vps = vps.to_vec();
        vps.sort_unstable();
        let processors: Vec<Value> =
            vps.iter().map(|&vp| json!({"vp": vp, "name": meta.processors.iter().find(|(p, _)| *p == vp).map(|(_, n)| n.clone())})).collect();
        let methods: Vec<Value> = meta.methods.iter().map(|m| json!([m.id, format!("{}.{}", m.class.replace('/', "."), m.name)])).collect();
        let marker_list: Vec<Value> = markers
            .iter()
            .map(|m| json!({"vp": m.vp, "kind": m.kind.name(), "time": m.time - t0, "run": m.run, "text": m.text, "tid": m.local_tid}))
            .collect();
        let gcs: Vec<Value> = self.gcs.finish().iter().map(|&(s, e)| json!([s - t0, e - t0])).collect();
        let missed: u64 = meta.missed.iter().map(|&(_, n)| n).fold(0u64, u64::saturating_add);
        let head = json!({
            "label": label,
            "processorKind": if meta.processor_kind.is_empty() { "vp" } else { meta.processor_kind.as_str() },
            "timeUnit": if meta.time_unit.is_empty() { "ns" } else { meta.time_unit.as_str() },
            "t0": t0,
            "counters": meta.counters,
            "threads": threads,
            "processors": processors,
            "methods": methods,
            "markers": marker_list,
            "gcs": gcs,
            "missed": missed,
            "issues": issues.iter().map(|i| i.to_string()).collect::<Vec<_>>(),
        });
        let mut head_bytes = Vec::new();
        push_head(&mut head_bytes, &head);
        let columns = vec![("vp", self.vp), ("thread", self.thread), ("start", self.start), ("duration", self.duration), ("yielded", self.yielded), ("callee", self.callee)];
        PageTrace { head: head_bytes, columns, deltas: self.deltas }
    }
}

/// The page for `run` (and `compare`, shown as a diff against it), as one HTML document.
pub fn render_html(run: &Run, compare: Option<&Run>) -> String {
    let mut html = Vec::new();
    write_page(&mut html, run, compare, DiffValues::Auto).expect("writing to memory");
    String::from_utf8(html).expect("the page is UTF-8")
}

/// Writes the page for `run` (and `compare`) to `w`: page.html with its markers filled in, split
/// at the markers rather than `replace`d (the data is large and is neither scanned nor copied).
fn write_page(w: &mut dyn io::Write, run: &Run, compare: Option<&Run>, diff: DiffValues) -> io::Result<()> {
    let title = match compare {
        Some(c) => format!("hpm explore: {} vs {}", run.label, c.label),
        None => format!("hpm explore: {}", run.label),
    };
    let mut rest = PAGE;
    for marker in ["{{TITLE}}", "{{CSS}}", "{{DATA}}", "{{JS}}"] {
        let (before, after) = rest.split_once(marker).expect("page.html holds every marker once, in order");
        w.write_all(before.as_bytes())?;
        match marker {
            "{{TITLE}}" => w.write_all(html_escape(&title).as_bytes())?,
            "{{CSS}}" => w.write_all(CSS.as_bytes())?,
            "{{DATA}}" => write_data(w, run, compare, diff)?,
            _ => w.write_all(JS.as_bytes())?,
        }
        rest = after;
    }
    w.write_all(rest.as_bytes())
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// Writes the page for `run` (and `compare`) to `path`, atomically. The agent calls this at exit
/// with the profile it holds.
pub fn write_html(path: &Path, run: &Run, compare: Option<&Run>) -> io::Result<()> {
    write_html_with(path, run, compare, DiffValues::Auto)
}

/// [`write_html`] with how the diff compares values.
pub fn write_html_with(path: &Path, run: &Run, compare: Option<&Run>, diff: DiffValues) -> io::Result<()> {
    crate::write_atomic_with(path, |w| write_page(w, run, compare, diff))
}

#[cfg(test)]
mod tests;
