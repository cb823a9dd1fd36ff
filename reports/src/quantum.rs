//! Tables of a quantum trace (Sweeney et al. 2004, Table 4 and friends): pure functions from a read and
//! validated [`Trace`] to a [`Summary`], and from a summary to text, CSV or JSON. `hpm trace` prints them.

pub mod sets;

use std::collections::HashMap;
use std::fmt::Write as _;

use hpm_model::quantum::{reason, Entry, Meta, QuantumRecord, Severity, ThreadKind, Trace};
use serde_json::{json, Value};

/// One thread's row (Table 4).
#[derive(Debug, Clone, PartialEq)]
pub struct ThreadRow {
    pub thread: u32,
    pub name: String,
    pub kind: &'static str,
    pub records: u64,
    /// Records in which the thread yielded before its quantum expired.
    pub yields: u64,
    /// Its records by why they ended (traces of version 2): the count of each reason code
    /// (`hpm_model::quantum::reason`), index 0 the records without a reason (preempted).
    pub ends: Vec<u64>,
    /// Share of the share basis (cycles when counted, else real time), 0..=1.
    pub share: f64,
    /// Totals per meta counter: index 0 real time, i ≥ 1 delta i−1; `None` when the sum does not
    /// fit in 64 bits.
    pub totals: Vec<Option<u64>>,
    /// Instructions per cycle, when both are counted.
    pub ipc: Option<f64>,
    /// Instructions per record, when counted.
    pub instructions_per_record: Option<f64>,
}

/// One processor's totals.
#[derive(Debug, Clone, PartialEq)]
pub struct VpRow {
    pub vp: u32,
    /// Its name, where the trace gives one (a carrier thread's).
    pub name: Option<String>,
    pub records: u64,
    /// First start to last end of its quanta.
    pub span: u64,
    /// Sum of the quanta's durations divided by the span (how much of the run the records cover).
    pub coverage: f64,
    /// As [`ThreadRow::totals`].
    pub totals: Vec<Option<u64>>,
    /// Records missed (`None`: the meta file's counts add up past 64 bits).
    pub missed: Option<u64>,
}

/// The records that follow an event (a GC or a marker).
#[derive(Debug, Clone, PartialEq)]
pub struct After {
    pub label: String,
    pub time: u64,
    pub records: Vec<QuantumRecord>,
}

/// Everything `hpm trace` shows.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    pub valid: bool,
    /// What a processor is: `vp` (a virtual processor), `cpu` (traces of OS threads) or `carrier`
    /// (traces of virtual threads).
    pub processor: String,
    pub issues: Vec<String>,
    pub counters: Vec<String>,
    /// `cycles` or `real-time`: what `share` is a share of.
    pub share_basis: String,
    pub records: u64,
    /// Records missed on all processors (`None`: the sum does not fit in 64 bits).
    pub missed: Option<u64>,
    /// What overflowed 64 bits, one sentence each (shown as `overflow`, `null` in JSON).
    pub overflows: Vec<String>,
    pub threads: Vec<ThreadRow>,
    pub vps: Vec<VpRow>,
    pub after_gc: Vec<After>,
    pub after_markers: Vec<After>,
    /// Records whose `cpu-time` is above their real time (end − start), and the largest excess in
    /// ns: the two are read at slightly different moments of a switch, so a single record may
    /// show more CPU than time; sums over many records are not affected.
    pub cpu_above_real: (u64, u64),
    /// Some record has a reason (a version-2 trace that says why quanta ended).
    pub has_reasons: bool,
}

/// The value of meta counter `i` (0 = real time) for a record.
fn value(q: &QuantumRecord, i: usize) -> u64 {
    if i == 0 {
        q.duration()
    } else {
        q.deltas.get(i - 1).copied().unwrap_or(0)
    }
}

fn ratio(a: u128, b: u128) -> Option<f64> {
    (b > 0).then(|| a as f64 / b as f64)
}

/// Sums are taken in u128, which no trace can overflow (fewer than 2^64 records of at most 2^64
/// each), and shown when they fit in a u64.
fn narrow(sums: &[u128]) -> Vec<Option<u64>> {
    sums.iter().map(|&s| u64::try_from(s).ok()).collect()
}

/// Notes every sum of `sums` that does not fit in 64 bits, naming the counter and `whose` it is.
fn note_overflows(overflows: &mut Vec<String>, counters: &[String], sums: &[u128], whose: &str) {
    for (i, &s) in sums.iter().enumerate() {
        if u64::try_from(s).is_err() {
            let counter = counters.get(i).map_or("real-time", String::as_str);
            overflows.push(format!("counter `{counter}` of {whose}: the sum overflows 64 bits; shown as `overflow`"));
        }
    }
}

/// The GCs of a trace: maximal time intervals covered by records of collector threads
/// (overlapping or touching). The summary and the explorer page both show these.
pub fn gc_intervals(trace: &Trace) -> Vec<(u64, u64)> {
    let mut gcs = GcIntervals::new(&trace.meta);
    trace.quanta().for_each(|q| gcs.add(q));
    gcs.finish()
}

/// [`gc_intervals`] a record at a time, for records that are not held (a streamed trace).
pub struct GcIntervals {
    collectors: Vec<u32>,
    gcs: Vec<(u64, u64)>,
}

impl GcIntervals {
    pub fn new(meta: &Meta) -> GcIntervals {
        GcIntervals { collectors: meta.threads.iter().filter(|t| t.kind == ThreadKind::Collector).map(|t| t.id).collect(), gcs: Vec::new() }
    }

    /// The next record in the trace's order (of start).
    #[inline]
    pub fn add(&mut self, q: &QuantumRecord) {
        if !self.collectors.contains(&q.thread) {
            return;
        }
        match self.gcs.last_mut() {
            Some((_, end)) if q.start <= *end => *end = (*end).max(q.end),
            _ => self.gcs.push((q.start, q.end)),
        }
    }

    pub fn finish(self) -> Vec<(u64, u64)> {
        self.gcs
    }
}

/// Summarizes `trace`, listing the first `after` records following each GC and each marker.
pub fn summarize(trace: &Trace, after: usize) -> Summary {
    let counters = trace.meta.counters.clone();
    let nc = counters.len().max(1);
    let idx = |name: &str| counters.iter().position(|c| c == name);
    let cycles = idx("cycles");
    let instructions = idx("instructions");
    let basis = cycles.unwrap_or(0);
    let kind = |t: u32| trace.meta.thread(t).map(|i| i.kind);

    // Per thread and per processor: the row and its sums per counter.
    let mut rows: HashMap<u32, (ThreadRow, Vec<u128>)> = HashMap::new();
    let mut vps: Vec<VpRow> = Vec::new();
    let mut overflows = Vec::new();
    let mut has_reasons = false;
    for v in &trace.vps {
        let name = trace.meta.processors.iter().find(|(p, _)| *p == v.vp).map(|(_, n)| n.clone());
        let mut row = VpRow { vp: v.vp, name, records: 0, span: 0, coverage: 0.0, totals: Vec::new(), missed: None };
        let mut sums = vec![0u128; nc];
        let missed: u128 = trace.meta.missed.iter().filter(|(p, _)| *p == v.vp).map(|&(_, n)| n as u128).sum();
        row.missed = u64::try_from(missed).ok();
        let (mut first, mut last) = (u64::MAX, 0);
        for e in &v.entries {
            if let Entry::Quantum(q) = e {
                row.records += 1;
                first = first.min(q.start);
                last = last.max(q.end);
                for (i, t) in sums.iter_mut().enumerate() {
                    *t += value(q, i) as u128;
                }
                let (r, r_sums) = rows.entry(q.thread).or_insert_with(|| {
                    let info = trace.meta.thread(q.thread);
                    let row = ThreadRow {
                        thread: q.thread,
                        name: info.map_or_else(|| format!("thread {}", q.thread), |i| i.name.clone()),
                        kind: info.map_or("?", |i| i.kind.name()),
                        records: 0,
                        yields: 0,
                        ends: Vec::new(),
                        share: 0.0,
                        totals: Vec::new(),
                        ipc: None,
                        instructions_per_record: None,
                    };
                    (row, vec![0u128; nc])
                });
                r.records += 1;
                r.yields += q.yielded as u64;
                let why = trace.reason(q) as usize;
                has_reasons |= why != reason::NONE as usize;
                if r.ends.len() <= why {
                    r.ends.resize(why.max(reason::NAMES.len() - 1) + 1, 0);
                }
                r.ends[why] += 1;
                for (i, t) in r_sums.iter_mut().enumerate() {
                    *t += value(q, i) as u128;
                }
            }
        }
        if row.records > 0 {
            row.span = last.saturating_sub(first);
            row.coverage = ratio(sums[0], row.span as u128).unwrap_or(1.0);
        }
        if row.missed.is_none() {
            overflows.push(format!("records missed on processor {}: the sum overflows 64 bits; shown as `overflow`", v.vp));
        }
        note_overflows(&mut overflows, &counters, &sums, &format!("processor {}", v.vp));
        row.totals = narrow(&sums);
        vps.push(row);
    }
    let grand: u128 = rows.values().map(|(_, sums)| sums[basis]).sum();
    let mut threads: Vec<(ThreadRow, Vec<u128>)> = rows
        .into_values()
        .map(|(mut r, sums)| {
            r.share = ratio(sums[basis], grand).unwrap_or(0.0);
            if let Some(i) = instructions {
                r.instructions_per_record = ratio(sums[i], r.records as u128);
                if let Some(c) = cycles {
                    r.ipc = ratio(sums[i], sums[c]);
                }
            }
            r.totals = narrow(&sums);
            (r, sums)
        })
        .collect();
    threads.sort_by(|(a, a_sums), (b, b_sums)| b_sums[basis].cmp(&a_sums[basis]).then(a.thread.cmp(&b.thread)));
    for (r, sums) in &threads {
        note_overflows(&mut overflows, &counters, sums, &format!("thread {}", r.name));
    }
    let threads: Vec<ThreadRow> = threads.into_iter().map(|(r, _)| r).collect();
    let missed = u64::try_from(trace.meta.missed.iter().map(|&(_, n)| n as u128).sum::<u128>()).ok();
    if missed.is_none() {
        overflows.push("records missed on all processors: the sum overflows 64 bits; shown as `overflow`".into());
    }

    let quanta: Vec<&QuantumRecord> = trace.quanta().collect();
    let cpu_above_real = idx("cpu-time").map_or((0, 0), |i| {
        quanta.iter().filter_map(|q| value(q, i).checked_sub(q.duration()).filter(|&d| d > 0)).fold((0, 0), |(n, m), d| (n + 1, m.max(d)))
    });
    let gcs = gc_intervals(trace);
    let following = |time: u64, only_app: bool| -> Vec<QuantumRecord> {
        quanta
            .iter()
            .filter(|q| q.start >= time)
            .filter(|q| match kind(q.thread) {
                Some(ThreadKind::App) | None => true,
                Some(ThreadKind::Idle | ThreadKind::Writer) => false,
                Some(_) => !only_app,
            })
            .take(after)
            .map(|q| (*q).clone())
            .collect()
    };
    let after_gc = gcs
        .iter()
        .enumerate()
        .map(|(i, (s, e))| After { label: format!("GC {} ({} to {})", i + 1, s, e), time: *e, records: following(*e, true) })
        .collect();
    let after_markers = trace
        .merged()
        .filter_map(|e| match e {
            Entry::Marker(m) => {
                let label = match m.kind.name() {
                    k @ ("run-start" | "run-complete") => format!("{k} {} \"{}\" ({} {})", m.run, m.text, processor_label(trace), m.vp),
                    k => format!("{k} \"{}\" ({} {})", m.text, processor_label(trace), m.vp),
                };
                Some(After { label, time: m.time, records: following(m.time, false) })
            }
            _ => None,
        })
        .collect();

    Summary {
        valid: trace.is_valid(),
        processor: processor_label(trace),
        issues: trace.issues.iter().map(|i| i.to_string()).collect(),
        share_basis: counters.get(basis).cloned().unwrap_or_else(|| "real-time".into()),
        counters,
        records: quanta.len() as u64,
        missed,
        overflows,
        threads,
        vps,
        after_gc,
        after_markers,
        cpu_above_real,
        has_reasons,
    }
}

/// How processors are named: the meta file's `processor-kind` (`cpu` for traces of OS threads,
/// `carrier` for virtual threads), else `vp`.
fn processor_label(trace: &Trace) -> String {
    if trace.meta.processor_kind.is_empty() { "vp".into() } else { trace.meta.processor_kind.clone() }
}

/// Number of errors among the issues.
pub fn error_count(trace: &Trace) -> usize {
    trace.issues.iter().filter(|i| i.severity == Severity::Error).count()
}

fn grouped(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && matches!((s.len() - i) % 3, 0) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A total as the tables show it: grouped digits, or `overflow`.
fn grouped_total(v: Option<u64>) -> String {
    v.map_or_else(|| "overflow".into(), grouped)
}

/// A total as CSV shows it: digits, or `overflow`.
fn csv_total(v: Option<u64>) -> String {
    v.map_or_else(|| "overflow".into(), |v| v.to_string())
}

fn opt(v: Option<f64>, prec: usize) -> String {
    v.map_or_else(|| "-".into(), |v| format!("{v:.prec$}"))
}

fn table(rows: &[Vec<String>]) -> String {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..cols).map(|c| rows.iter().filter_map(|r| r.get(c)).map(|s| s.chars().count()).max().unwrap_or(0)).collect();
    let mut out = String::new();
    for r in rows {
        let line: Vec<String> = r
            .iter()
            .enumerate()
            .map(|(c, s)| if c == 0 { format!("{s:<w$}", w = widths[c]) } else { format!("{s:>w$}", w = widths[c]) })
            .collect();
        let _ = writeln!(out, "{}", line.join("  ").trim_end());
    }
    out
}

fn record_line(s: &Summary, q: &QuantumRecord, names: &HashMap<u32, &str>) -> String {
    let mut l = format!(
        "    {} {} {} {}..{} ({}){}",
        s.processor,
        q.vp,
        names.get(&q.thread).copied().unwrap_or("?"),
        q.start,
        q.end,
        q.duration(),
        if q.yielded { " yielded" } else { "" }
    );
    for (i, c) in s.counters.iter().enumerate().skip(1) {
        let _ = write!(l, " {c}={}", value(q, i));
        if c == "cpu-time" && value(q, i) > q.duration() {
            l.push_str(" (cpu-time above real time: see the note)");
        }
    }
    l
}

/// The text report: validation, the per-thread table, per-processor totals, records after GCs and
/// markers.
pub fn render_text(s: &Summary) -> String {
    let mut out = String::new();
    let errors = s.issues.iter().filter(|i| i.starts_with("error")).count();
    let _ = writeln!(
        out,
        "Validation: {} ({} error(s), {} warning(s)); {} records on {} processor(s), {} missed",
        if s.valid { "valid" } else { "INVALID" },
        errors,
        s.issues.len() - errors,
        s.records,
        s.vps.len(),
        csv_total(s.missed)
    );
    for i in &s.issues {
        let _ = writeln!(out, "  {i}");
    }
    let (above, most) = s.cpu_above_real;
    if above > 0 {
        let _ = writeln!(
            out,
            "Note: {above} record(s) show more cpu-time than real time (by at most {most} ns): a record's cpu-time and its start and end are read at slightly different moments of the switches, so a single short record can; sums over many records are not affected"
        );
    }
    let has_ipc = s.threads.iter().any(|t| t.ipc.is_some());
    let has_instr = s.threads.iter().any(|t| t.instructions_per_record.is_some());
    let share = if s.share_basis == "cycles" { "Cycles" } else { "Time" };
    let mut head = vec!["Thread".to_string(), "Kind".into(), share.into(), "Records".into(), "Yields".into()];
    if has_ipc {
        head.push("IPC".into());
    }
    if has_instr {
        head.push("Instr/record".into());
    }
    head.extend(s.counters.iter().cloned());
    let mut rows = vec![head];
    for t in &s.threads {
        let mut r = vec![t.name.clone(), t.kind.into(), format!("{:.2}%", t.share * 100.0), grouped(t.records), grouped(t.yields)];
        if has_ipc {
            r.push(opt(t.ipc, 3));
        }
        if has_instr {
            r.push(opt(t.instructions_per_record.map(f64::round), 0));
        }
        r.extend(t.totals.iter().map(|v| grouped_total(*v)));
        rows.push(r);
    }
    let _ = writeln!(out, "\nThreads ({share} = share of {} over all records):", s.share_basis);
    out.push_str(&table(&rows));

    let mut head = vec!["Processor".to_string(), "Records".into(), "Missed".into(), "Span".into(), "Covered".into()];
    head.extend(s.counters.iter().cloned());
    let mut rows = vec![head];
    for v in &s.vps {
        let label = match &v.name {
            Some(n) => format!("{} {} ({n})", s.processor, v.vp),
            None => format!("{} {}", s.processor, v.vp),
        };
        let mut r = vec![label, grouped(v.records), grouped_total(v.missed), grouped(v.span), format!("{:.2}%", v.coverage * 100.0)];
        r.extend(v.totals.iter().map(|v| grouped_total(*v)));
        rows.push(r);
    }
    if s.processor == "cpu" {
        // OS threads share CPUs with other processes and untraced threads.
        let _ = writeln!(out, "\nProcessors: CPUs (Covered = the traced threads' record durations / span):");
    } else if s.processor == "carrier" {
        let _ = writeln!(out, "\nProcessors: carrier threads (Covered = time with a virtual thread mounted / span):");
    } else {
        let _ = writeln!(out, "\nProcessors (Covered = record durations / span):");
    }
    out.push_str(&table(&rows));

    if s.has_reasons {
        // The reasons that occur, in code order.
        let codes: Vec<usize> = (0..s.threads.iter().map(|t| t.ends.len()).max().unwrap_or(0)).filter(|&c| s.threads.iter().any(|t| t.ends.get(c).is_some_and(|&n| n > 0))).collect();
        let mut head = vec!["Thread".to_string()];
        head.extend(codes.iter().map(|&c| reason::name(c as u8).into_owned()));
        let mut rows = vec![head];
        for t in &s.threads {
            let mut r = vec![t.name.clone()];
            r.extend(codes.iter().map(|&c| grouped(t.ends.get(c).copied().unwrap_or(0))));
            rows.push(r);
        }
        let _ = writeln!(out, "\nWhy quanta ended (records per reason; preempted = the quantum expired):");
        out.push_str(&table(&rows));
    }

    let names: HashMap<u32, &str> = s.threads.iter().map(|t| (t.thread, t.name.as_str())).collect();
    for (title, list) in [("GC", &s.after_gc), ("marker", &s.after_markers)] {
        if list.is_empty() {
            continue;
        }
        let _ = writeln!(out, "\nRecords after each {title}:");
        for a in list {
            let _ = writeln!(out, "  {} at {}:", a.label, a.time);
            if a.records.is_empty() {
                let _ = writeln!(out, "    (none)");
            }
            for q in &a.records {
                let _ = writeln!(out, "{}", record_line(s, q, &names));
            }
        }
    }
    out
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// CSV: one row per thread (`scope` = `thread`) and per processor (`scope` = `vp`), with the totals
/// of every counter.
pub fn render_csv(s: &Summary) -> String {
    let mut out = String::from("scope,id,name,kind,share,records,yields,ipc,instructions_per_record,missed,coverage");
    for c in &s.counters {
        out.push(',');
        out.push_str(&csv_field(c));
    }
    out.push('\n');
    let f = |v: Option<f64>| v.map_or_else(String::new, |v| format!("{v:.6}"));
    for t in &s.threads {
        let _ = write!(
            out,
            "thread,{},{},{},{:.6},{},{},{},{},,",
            t.thread,
            csv_field(&t.name),
            t.kind,
            t.share,
            t.records,
            t.yields,
            f(t.ipc),
            f(t.instructions_per_record)
        );
        for v in &t.totals {
            let _ = write!(out, ",{}", csv_total(*v));
        }
        out.push('\n');
    }
    for v in &s.vps {
        let _ = write!(out, "vp,{},,,,{},,,,{},{:.6}", v.vp, v.records, csv_total(v.missed), v.coverage);
        for t in &v.totals {
            let _ = write!(out, ",{}", csv_total(*t));
        }
        out.push('\n');
    }
    out
}

fn record_json(q: &QuantumRecord) -> Value {
    json!({"vp": q.vp, "offset": q.offset, "thread": q.thread, "local_tid": q.local_tid, "yielded": q.yielded,
        "thread_switch": q.thread_switch, "start": q.start, "end": q.end, "callee": q.callee, "caller": q.caller, "deltas": q.deltas.as_slice()})
}

/// A thread's records per reason, by reason name (only the reasons that occur).
fn ends_json(t: &ThreadRow) -> Value {
    let m: serde_json::Map<String, Value> = t.ends.iter().enumerate().filter(|(_, n)| **n > 0).map(|(c, n)| (reason::name(c as u8).into_owned(), json!(n))).collect();
    Value::Object(m)
}

/// The whole summary as one JSON object.
pub fn to_json(s: &Summary) -> Value {
    let after = |l: &Vec<After>| -> Vec<Value> {
        l.iter().map(|a| json!({"label": a.label, "time": a.time, "records": a.records.iter().map(record_json).collect::<Vec<_>>()})).collect()
    };
    let mut v = json!({
        "valid": s.valid,
        "issues": s.issues,
        "counters": s.counters,
        "share_basis": s.share_basis,
        "processor_kind": s.processor,
        "records": s.records,
        "missed": s.missed,
        "overflows": s.overflows,
        "threads": s.threads.iter().map(|t| json!({"thread": t.thread, "name": t.name, "kind": t.kind, "share": t.share,
            "records": t.records, "yields": t.yields, "ipc": t.ipc, "instructions_per_record": t.instructions_per_record, "totals": t.totals})).collect::<Vec<_>>(),
        "processors": s.vps.iter().map(|v| json!({"vp": v.vp, "name": v.name, "records": v.records, "missed": v.missed, "span": v.span,
            "coverage": v.coverage, "totals": v.totals})).collect::<Vec<_>>(),
        "after_gc": after(&s.after_gc),
        "after_markers": after(&s.after_markers),
        "cpu_above_real": {"records": s.cpu_above_real.0, "max_excess_ns": s.cpu_above_real.1},
    });
    if s.has_reasons {
        // (version-2 traces only) per thread, its records by why they ended
        v["ends"] = Value::Array(s.threads.iter().map(|t| json!({"thread": t.thread, "name": t.name, "reasons": ends_json(t)})).collect());
    }
    v
}
