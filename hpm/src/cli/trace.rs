//! `hpm trace DIR`: read, merge and validate a quantum trace directory and print its tables.

use std::path::{Path, PathBuf};

use clap::Args;
use hpm_model::quantum::{Entry, Trace};
use hpm_reports::quantum;
use hpm_reports::quantum::sets::{self, Filter};
use serde_json::json;

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
    /// Record set: only this thread's records (its name, or its id).
    #[arg(long, value_name = "NAME|ID", conflicts_with = "csv")]
    pub thread: Option<String>,
    /// Record set: only this processor's records.
    #[arg(long, value_name = "N", conflicts_with = "csv")]
    pub processor: Option<u32>,
    /// Record set: records whose duration is in LO..HI (both included; either may be left out:
    /// `2ms..`, `..500us`; a number alone is in ns).
    #[arg(long, value_name = "LO..HI", conflicts_with = "csv")]
    pub duration: Option<String>,
    /// Record set: records whose metric passes COND, e.g. `IPC<0.5` or `cycles>1e6` (a counter, IPC,
    /// `X/Kinstr`, `duration`, or an expression over the counters; <, <=, >, >=). Repeat it, or
    /// separate conditions with commas.
    #[arg(long = "where", value_name = "COND", conflicts_with = "csv")]
    pub conds: Vec<String>,
    /// Record set: records whose top method (`class.method`) matches this regular expression.
    #[arg(long, value_name = "REGEX", conflicts_with = "csv")]
    pub method: Option<String>,
    /// Record set: records of threads of this kind: app, gc (the collectors), nongc, idle, writer,
    /// system or jit.
    #[arg(long, value_name = "KIND", conflicts_with = "csv")]
    pub kind: Option<String>,
    /// Record set: records that overlap an interval: `phase:N` (between the trace's markers: 1 from
    /// the start to the first marker, N from marker N-1 to marker N, the last to the end) or `gc:K`
    /// (during the K-th collection).
    #[arg(long, value_name = "phase:N|gc:K", conflicts_with = "csv")]
    pub interval: Option<String>,
    /// Record set: records that end after this time, in ms from the trace's first time (as the
    /// page's From).
    #[arg(long, value_name = "MS", conflicts_with = "csv")]
    pub from: Option<f64>,
    /// Record set: records that start before this time, in ms from the trace's first time.
    #[arg(long, value_name = "MS", conflicts_with = "csv")]
    pub to: Option<f64>,
    /// Record set: only the records listed after each GC and marker (the first --after of each).
    #[arg(long = "after-event", conflicts_with = "csv")]
    pub after_event: bool,
    /// Print the record set's statistics per metric (count, mean, standard deviation, min, max,
    /// p50, p90, p99) instead of the tables; the set options alone do too.
    #[arg(long, conflicts_with = "csv")]
    pub stats: bool,
    /// Rank the metrics and top methods that differ most between the record set and OTHER: a
    /// trace directory (its records under the same set options), or a filter in the same trace
    /// (conditions as --where, and `thread=NAME`, `processor=N`, `method~REGEX` (last), separated
    /// by commas).
    #[arg(long, value_name = "OTHER", conflicts_with = "csv")]
    pub compare: Option<String>,
    /// A named record set, NAME=FILTER (the filter as --compare writes one: conditions,
    /// `thread=NAME`, `processor=N`, `method~REGEX`, separated by commas); repeatable. `--select`
    /// and `--compare` combine them.
    #[arg(long = "set", value_name = "NAME=FILTER", conflicts_with = "csv")]
    pub sets: Vec<String>,
    /// The record set shown (set A) as an expression over the --set names, `filters` (the set of
    /// this command's filter options) and `all`: `|` union, `&` intersection, `-` difference,
    /// with parentheses; `&` binds tighter, the others go left to right. E.g. `slow - gc`,
    /// `(a | b) & main`.
    #[arg(long, value_name = "EXPR", conflicts_with = "csv")]
    pub select: Option<String>,
}

impl TraceArgs {
    fn record_set(&self) -> bool {
        self.thread.is_some()
            || self.processor.is_some()
            || self.duration.is_some()
            || !self.conds.is_empty()
            || self.method.is_some()
            || self.kind.is_some()
            || self.interval.is_some()
            || self.from.is_some()
            || self.to.is_some()
            || self.after_event
            || self.stats
            || self.compare.is_some()
            || !self.sets.is_empty()
            || self.select.is_some()
    }
}

pub fn run(args: TraceArgs) -> Result<(), Failure> {
    check_trace_dir(&args.dir)?;
    let trace = hpm_model::quantum::read_dir(&args.dir).map_err(|e| Failure(format!("{e}; is this a quantum trace directory (out= of the agent's `quantum` option)?")))?;
    if args.record_set() {
        record_sets(&args, &trace)?;
        return finish(&args, &trace, &[]);
    }
    let summary = quantum::summarize(&trace, args.after);
    if args.json {
        outln!("{}", quantum::to_json(&summary));
    } else if args.csv {
        out::print(&quantum::render_csv(&summary));
    } else {
        out::print(&quantum::render_text(&summary));
        // On HotSpot, virtual threads' mounts are a trace of their own beside the OS threads'.
        let vthreads = args.dir.join("vthreads");
        if vthreads.join(hpm_model::quantum::META_FILE).exists() {
            outln!("\nVirtual threads: their mounts on carrier threads are traced in {} (hpm trace {0})", vthreads.display());
        }
    }
    finish(&args, &trace, &summary.overflows)
}

/// Warnings, and the refusal of a trace with errors (after what could be shown of it).
fn finish(args: &TraceArgs, trace: &Trace, overflows: &[String]) -> Result<(), Failure> {
    for o in overflows {
        errln!("hpm: warning: {o}");
    }
    for i in trace.issues.iter().filter(|i| i.severity == hpm_model::quantum::Severity::Warning) {
        if args.json || args.csv {
            errln!("hpm: warning: {i}");
        }
    }
    let errors = quantum::error_count(trace);
    if errors > 0 {
        let first = trace.errors().next().map(|i| i.to_string()).unwrap_or_default();
        return Err(Failure(format!("{} is not a valid quantum trace: {errors} error(s), the first: {first}", args.dir.display())));
    }
    Ok(())
}

/// The set options as a filter over `trace` (thread names are looked up in it).
fn filter_of(args: &TraceArgs, trace: &Trace) -> Result<Filter, Failure> {
    let names = sets::slot_names(&trace.meta.counters);
    let ms = sets::metrics(&trace.meta.counters);
    let mut f = Filter::default();
    if let Some(t) = &args.thread {
        add_thread(&mut f, trace, t)?;
    }
    if let Some(p) = args.processor {
        f.processor = Some(p);
        f.parts.push(format!("processor {p}"));
    }
    if let Some(d) = &args.duration {
        let Some((lo, hi)) = d.split_once("..") else { return Err(Failure(format!("--duration {d}: give a range LO..HI, LO.. or ..HI"))) };
        for (bound, op) in [(lo, ">="), (hi, "<=")] {
            if !bound.trim().is_empty() {
                f.conds.extend(sets::parse_conds(&format!("duration {op} {bound}"), &ms, &names).map_err(|e| Failure(format!("--duration: {e}")))?);
            }
        }
    }
    for c in &args.conds {
        f.conds.extend(sets::parse_conds(c, &ms, &names).map_err(|e| Failure(format!("--where: {e}")))?);
    }
    f.parts.extend(f.conds.iter().map(|c| c.text.clone()));
    if let Some(k) = &args.kind {
        add_kind(&mut f, trace, k)?;
    }
    if let Some(i) = &args.interval {
        add_interval(&mut f, trace, i)?;
    }
    if args.from.is_some() || args.to.is_some() {
        add_range(&mut f, trace, args.from, args.to)?;
    }
    if args.after_event {
        add_after(&mut f, trace, args.after);
    }
    if let Some(m) = &args.method {
        add_method(&mut f, m)?;
    }
    Ok(f)
}

fn add_kind(f: &mut Filter, trace: &Trace, k: &str) -> Result<(), Failure> {
    let sel = sets::KindSel::parse(k).map_err(Failure)?;
    f.kind = Some((sel, trace.meta.threads.iter().map(|t| (t.id, t.kind)).collect()));
    f.parts.push(format!("kind {}", k.trim()));
    Ok(())
}

/// The trace's first time, from which the page's (and `--from`, `--to`) times count.
fn trace_t0(trace: &Trace) -> u64 {
    let markers = trace.merged().filter_map(|e| match e {
        Entry::Marker(m) => Some(m.time),
        _ => None,
    });
    trace.quanta().map(|q| q.start).chain(markers).min().unwrap_or(0)
}

fn narrow_span(f: &mut Filter, lo: u64, hi: u64) {
    let (a, b) = f.span.unwrap_or((0, u64::MAX));
    f.span = Some((a.max(lo), b.min(hi)));
}

fn add_range(f: &mut Filter, trace: &Trace, from: Option<f64>, to: Option<f64>) -> Result<(), Failure> {
    let t0 = trace_t0(trace);
    let at = |ms: f64, what: &str| {
        if ms.is_finite() && ms >= 0.0 {
            Ok(t0.saturating_add((ms * 1e6) as u64))
        } else {
            Err(Failure(format!("--{what} {ms}: give milliseconds from the trace's start, 0 or more")))
        }
    };
    let lo = from.map(|ms| at(ms, "from")).transpose()?.unwrap_or(0);
    let hi = to.map(|ms| at(ms, "to")).transpose()?.unwrap_or(u64::MAX);
    narrow_span(f, lo, hi);
    f.parts.push(format!("{}–{} ms", from.map_or("0".into(), |v| v.to_string()), to.map_or("…".into(), |v| v.to_string())));
    Ok(())
}

fn add_interval(f: &mut Filter, trace: &Trace, spec: &str) -> Result<(), Failure> {
    let bad = || Failure(format!("--interval {spec}: give phase:N (between markers, from 1) or gc:K (the K-th collection, from 1)"));
    let (what, n) = spec.trim().split_once(':').ok_or_else(bad)?;
    let n: usize = n.trim().parse().map_err(|_| bad())?;
    if n == 0 {
        return Err(bad());
    }
    match what {
        "phase" => {
            let mut marks: Vec<u64> = trace
                .merged()
                .filter_map(|e| match e {
                    Entry::Marker(m) => Some(m.time),
                    _ => None,
                })
                .collect();
            marks.sort_unstable();
            if n > marks.len() + 1 {
                return Err(Failure(format!("--interval {spec}: the trace has {} marker(s), so phases 1 to {}", marks.len(), marks.len() + 1)));
            }
            let lo = if n == 1 { 0 } else { marks[n - 2] };
            let hi = marks.get(n - 1).copied().unwrap_or(u64::MAX);
            narrow_span(f, lo, hi);
            f.parts.push(format!("phase {n} (between markers)"));
        }
        "gc" => {
            let gcs = hpm_reports::quantum::gc_intervals(trace);
            let &(s, e) = gcs.get(n - 1).ok_or_else(|| Failure(format!("--interval {spec}: the trace has {} collection(s)", gcs.len())))?;
            narrow_span(f, s, e);
            f.parts.push(format!("during GC {n}"));
        }
        _ => return Err(bad()),
    }
    Ok(())
}

fn add_after(f: &mut Filter, trace: &Trace, count: usize) {
    let s = hpm_reports::quantum::summarize(trace, count);
    f.only = Some(s.after_gc.iter().chain(&s.after_markers).flat_map(|a| a.records.iter().map(|q| (q.vp, q.start, q.thread))).collect());
    f.parts.push(format!("the first {count} after each GC or marker"));
}

fn add_thread(f: &mut Filter, trace: &Trace, t: &str) -> Result<(), Failure> {
    let ids: Vec<u32> = trace.meta.threads.iter().filter(|i| i.name == t || t.parse() == Ok(i.id)).map(|i| i.id).collect();
    if ids.is_empty() {
        return Err(Failure(format!("no thread named `{t}` (or with that id) in the trace")));
    }
    f.threads = Some(ids);
    f.parts.push(format!("thread {t}"));
    Ok(())
}

fn add_method(f: &mut Filter, m: &str) -> Result<(), Failure> {
    f.method = Some(regex::Regex::new(m).map_err(|e| {
        // The regex crate's message is several lines, the cause last.
        let e = e.to_string();
        Failure(format!("method regex `{m}`: {}", e.lines().last().unwrap_or(&e).trim_start_matches("error: ")))
    })?);
    f.parts.push(format!("method ~ /{m}/"));
    Ok(())
}

/// A filter written in one argument: conditions as `--where`, `thread=NAME`, `processor=N`,
/// `kind=KIND`, `interval=phase:N|gc:K`, `from=MS`, `to=MS`, `after-event` and `method~REGEX` (the
/// rest of the text), separated by commas.
fn filter_of_spec(spec: &str, trace: &Trace) -> Result<Filter, Failure> {
    let names = sets::slot_names(&trace.meta.counters);
    let ms = sets::metrics(&trace.meta.counters);
    let mut f = Filter::default();
    let mut rest = spec.trim();
    while !rest.is_empty() {
        if let Some(re) = rest.strip_prefix("method~") {
            add_method(&mut f, re.trim())?;
            break;
        }
        let (part, tail) = rest.split_once(',').unwrap_or((rest, ""));
        rest = tail.trim_start();
        let part = part.trim();
        if let Some(t) = part.strip_prefix("thread=") {
            add_thread(&mut f, trace, t.trim())?;
        } else if let Some(k) = part.strip_prefix("kind=") {
            add_kind(&mut f, trace, k)?;
        } else if let Some(i) = part.strip_prefix("interval=") {
            add_interval(&mut f, trace, i)?;
        } else if let Some(ms) = part.strip_prefix("from=") {
            add_range(&mut f, trace, Some(ms.trim().parse().map_err(|_| Failure(format!("`{part}`: give milliseconds")))?), None)?;
        } else if let Some(ms) = part.strip_prefix("to=") {
            add_range(&mut f, trace, None, Some(ms.trim().parse().map_err(|_| Failure(format!("`{part}`: give milliseconds")))?))?;
        } else if part == "after-event" {
            add_after(&mut f, trace, 5);
        } else if let Some(p) = part.strip_prefix("processor=") {
            let p: u32 = p.trim().parse().map_err(|_| Failure(format!("--compare: `{part}`: give a processor number")))?;
            f.processor = Some(p);
            f.parts.push(format!("processor {p}"));
        } else if !part.is_empty() {
            let c = sets::parse_conds(part, &ms, &names).map_err(|e| Failure(format!("--compare: {e}; give a trace directory or a filter")))?;
            f.parts.extend(c.iter().map(|c| c.text.clone()));
            f.conds.extend(c);
        }
    }
    Ok(f)
}

/// What a set is, in one line: its records, share, threads, filter.
fn set_line(name: &str, of: &Trace, records: &[&hpm_model::quantum::QuantumRecord], f: &Filter, label: &str) -> (String, serde_json::Value) {
    let total = of.quanta().count();
    let mut threads: Vec<u32> = records.iter().map(|q| q.thread).collect();
    threads.sort_unstable();
    threads.dedup();
    let what = if f.parts.is_empty() { "all records".to_string() } else { f.parts.join(", ") };
    let share = if total > 0 { records.len() as f64 / total as f64 } else { 0.0 };
    let line = format!("Record set {name} ({label}): {} of {total} records ({:.2}%), {} thread(s); {what}", records.len(), share * 100.0, threads.len());
    (line, json!({"trace": label, "records": records.len(), "of": total, "threads": threads.len(), "filter": f.parts}))
}

/// `hpm trace` with set options: the set's statistics, and the ranking against `--compare`.
fn record_sets(args: &TraceArgs, trace: &Trace) -> Result<(), Failure> {
    let named = named_sets(args, trace)?;
    let (f, a) = match &args.select {
        Some(expr) => algebra(expr, args, trace, &named, "--select")?,
        None => {
            let f = filter_of(args, trace)?;
            let a = f.select(trace);
            (f, a)
        }
    };
    let label = args.dir.display().to_string();
    let ms = sets::metrics(&trace.meta.counters);
    let st = sets::stats(&ms, &a);
    let (line_a, json_a) = set_line("A", trace, &a, &f, &label);
    let mut text = format!("{line_a}\nStatistics of A (SD: sample standard deviation; percentiles by nearest rank):\n{}", sets::render_stats(&st));
    let mut out = json!({"set": json_a, "stats": st.iter().map(sets::stats_json).collect::<Vec<_>>()});
    if let Some(other) = &args.compare {
        let other_dir = Path::new(other);
        let loaded;
        let (other_trace, g, label_b, b): (&Trace, Filter, String, Vec<&hpm_model::quantum::QuantumRecord>) = if other_dir.is_dir() {
            check_trace_dir(other_dir)?;
            loaded = hpm_model::quantum::read_dir(other_dir).map_err(|e| Failure(format!("--compare {other}: {e}; is this a quantum trace directory?")))?;
            let g = filter_of(args, &loaded)?;
            let b = g.select(&loaded);
            (&loaded, g, other.clone(), b)
        } else if is_set_expr(other, &named) {
            let (g, b) = algebra(other, args, trace, &named, "--compare")?;
            (trace, g, label.clone(), b)
        } else {
            let g = filter_of_spec(other, trace)?;
            let b = g.select(trace);
            (trace, g, label.clone(), b)
        };
        let (line_b, json_b) = set_line("B", other_trace, &b, &g, &label_b);
        let r = sets::rank(trace, &a, other_trace, &b);
        let ranked = match (a.is_empty(), b.is_empty()) {
            (false, false) => sets::render_ranking(&r, "set A", "set B", 15),
            (true, _) => "Nothing to rank: set A has no records.\n".to_string(),
            _ => "Nothing to rank: set B has no records.\n".to_string(),
        };
        text.push_str(&format!("\n{line_b}\n\n{ranked}"));
        out["compare"] = json!({"set": json_b, "stats": sets::stats(&sets::metrics(&other_trace.meta.counters), &b).iter().map(sets::stats_json).collect::<Vec<_>>(), "ranking": sets::ranking_json(&r)});
    }
    if args.json {
        outln!("{out}");
    } else {
        out::print(&text);
    }
    Ok(())
}

/// The `--set NAME=FILTER` sets, by name, in the order given.
fn named_sets(args: &TraceArgs, trace: &Trace) -> Result<Vec<(String, Filter)>, Failure> {
    let mut v: Vec<(String, Filter)> = Vec::new();
    for spec in &args.sets {
        let Some((name, filter)) = spec.split_once('=') else {
            return Err(Failure(format!("--set {spec}: give NAME=FILTER, e.g. slow=duration>1ms")));
        };
        let name = name.trim();
        if !is_name(name) || matches!(name, "all" | "filters") {
            return Err(Failure(format!("--set {spec}: `{name}` is not a set name (letters, digits and _, not `all` or `filters`)")));
        }
        if v.iter().any(|(n, _)| n == name) {
            return Err(Failure(format!("--set {spec}: `{name}` is named twice")));
        }
        v.push((name.to_string(), filter_of_spec(filter, trace).map_err(|Failure(e)| Failure(format!("--set {name}: {e}")))?));
    }
    Ok(v)
}

fn is_name(s: &str) -> bool {
    s.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_') && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Whether `text` is an expression over set names (rather than a filter or a directory): it
/// names a --set set, and holds no comparison.
fn is_set_expr(text: &str, named: &[(String, Filter)]) -> bool {
    !text.contains(['<', '>', '=', '~']) && set_tokens(text).is_ok_and(|t| t.iter().any(|t| named.iter().any(|(n, _)| n == t)))
}

fn set_tokens(text: &str) -> Result<Vec<String>, String> {
    let mut tokens = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if "|&-()".contains(c) {
            tokens.push(c.to_string());
            chars.next();
        } else if c.is_ascii_alphanumeric() || c == '_' {
            let mut w = String::new();
            while let Some(&d) = chars.peek().filter(|d| d.is_ascii_alphanumeric() || **d == '_') {
                w.push(d);
                chars.next();
            }
            tokens.push(w);
        } else {
            return Err(format!("`{c}` is not part of a set expression (names, | & - and parentheses)"));
        }
    }
    Ok(tokens)
}

/// The records of set expression `expr` (see `--select`), and a filter that only describes it.
fn algebra<'t>(expr: &str, args: &TraceArgs, trace: &'t Trace, named: &[(String, Filter)], option: &str) -> Result<(Filter, Vec<&'t hpm_model::quantum::QuantumRecord>), Failure> {
    let records: Vec<&hpm_model::quantum::QuantumRecord> = trace.quanta().collect();
    let filters = filter_of(args, trace)?;
    let member = |f: &Filter| -> Vec<bool> { records.iter().map(|q| f.passes(trace, q)).collect() };
    let tokens = set_tokens(expr).map_err(|e| Failure(format!("{option} {expr}: {e}")))?;
    let mut at = 0;
    let sets = SetParser { tokens: &tokens, named, records: records.len(), member: &member, filters: &filters };
    let bits = sets.union(&mut at).map_err(|e| Failure(format!("{option} {expr}: {e}")))?;
    if at != tokens.len() {
        return Err(Failure(format!("{option} {expr}: unexpected `{}`", tokens[at])));
    }
    let mut described = Filter::default();
    let mut parts = vec![format!("set {}", expr.trim())];
    for (n, f) in named.iter().filter(|(n, _)| tokens.contains(n)) {
        parts.push(format!("{n} = {}", if f.parts.is_empty() { "all records".to_string() } else { f.parts.join(", ") }));
    }
    if tokens.iter().any(|t| t == "filters") {
        parts.push(format!("filters = {}", if filters.parts.is_empty() { "all records".to_string() } else { filters.parts.join(", ") }));
    }
    described.parts = vec![parts.join("; ")];
    Ok((described, records.into_iter().zip(bits).filter(|(_, b)| *b).map(|(q, _)| q).collect()))
}

/// A recursive-descent reader of set expressions: union := inter (('|' | '-') inter)*,
/// inter := atom ('&' atom)*, atom := NAME | all | filters | '(' union ')'.
struct SetParser<'a> {
    tokens: &'a [String],
    named: &'a [(String, Filter)],
    records: usize,
    member: &'a dyn Fn(&Filter) -> Vec<bool>,
    filters: &'a Filter,
}

impl SetParser<'_> {
    fn union(&self, at: &mut usize) -> Result<Vec<bool>, String> {
        let mut v = self.inter(at)?;
        while let Some(op) = self.tokens.get(*at).filter(|t| *t == "|" || *t == "-") {
            *at += 1;
            let w = self.inter(at)?;
            let minus = op == "-";
            for (x, y) in v.iter_mut().zip(w) {
                *x = if minus { *x && !y } else { *x || y };
            }
        }
        Ok(v)
    }

    fn inter(&self, at: &mut usize) -> Result<Vec<bool>, String> {
        let mut v = self.atom(at)?;
        while self.tokens.get(*at).is_some_and(|t| t == "&") {
            *at += 1;
            let w = self.atom(at)?;
            for (x, y) in v.iter_mut().zip(w) {
                *x = *x && y;
            }
        }
        Ok(v)
    }

    fn atom(&self, at: &mut usize) -> Result<Vec<bool>, String> {
        let Some(t) = self.tokens.get(*at) else { return Err("the expression ends early".into()) };
        *at += 1;
        match t.as_str() {
            "(" => {
                let v = self.union(at)?;
                if self.tokens.get(*at).is_some_and(|t| t == ")") {
                    *at += 1;
                    Ok(v)
                } else {
                    Err("a `(` is not closed".into())
                }
            }
            "all" => Ok(vec![true; self.records]),
            "filters" => Ok((self.member)(self.filters)),
            name => match self.named.iter().find(|(n, _)| n == name) {
                Some((_, f)) => Ok((self.member)(f)),
                None => {
                    let known: Vec<&str> = self.named.iter().map(|(n, _)| n.as_str()).collect();
                    Err(format!("no set named `{name}` (named: {}; and all, filters)", if known.is_empty() { "none".to_string() } else { known.join(", ") }))
                }
            },
        }
    }
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
