//! Record sets of a quantum trace: the records that pass a [`Filter`] (thread, processor, metric
//! bounds, top method), their [`Stats`] per metric, and the [`Ranking`] of the metrics and top
//! methods that differ most between two sets. `hpm trace --where/--method/--stats/--compare`
//! prints them; the explorer page (`explore/explorer.js`) computes the same things with the same
//! definitions (metrics, percentiles, standard deviation, standardized mean difference, shares),
//! documented in `docs/quantum-trace.md`.

use std::collections::HashMap;
use std::fmt::Write as _;

use hpm_model::quantum::{QuantumRecord, ThreadKind, Trace};
use serde_json::{json, Value};

/// An arithmetic expression over a record's slots (slot 0 is its duration, slot k ≥ 1 its delta
/// k − 1), as the page's `Computed` field reads them: `+ - * /`, unary minus, numbers, names
/// matched longest first, `[name]`.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    Num(f64),
    Slot(usize),
    Neg(Box<Expr>),
    Bin(char, Box<Expr>, Box<Expr>),
}

impl Expr {
    /// The value for slots `get`; a division by zero gives NaN (no value).
    pub fn eval(&self, get: &dyn Fn(usize) -> f64) -> f64 {
        match self {
            Expr::Num(v) => *v,
            Expr::Slot(s) => get(*s),
            Expr::Neg(a) => -a.eval(get),
            Expr::Bin(op, a, b) => {
                let (a, b) = (a.eval(get), b.eval(get));
                match op {
                    '+' => a + b,
                    '-' => a - b,
                    '*' => a * b,
                    _ if b == 0.0 => f64::NAN,
                    _ => a / b,
                }
            }
        }
    }

    /// Parses `text` over the slot names `names` (the trace's counters, `real-time` first).
    pub fn parse(text: &str, names: &[String]) -> Result<Expr, String> {
        let mut sorted: Vec<(usize, &str)> = names.iter().enumerate().map(|(i, n)| (i, n.as_str())).filter(|(_, n)| !n.is_empty()).collect();
        sorted.sort_by_key(|(_, n)| std::cmp::Reverse(n.len()));
        let mut p = Parser { text, at: 0, names: &sorted };
        let e = p.expr()?;
        p.ws();
        if p.at < text.len() {
            return Err(p.fail(&format!("unexpected `{}`", &text[p.at..].chars().next().unwrap_or(' '))));
        }
        Ok(e)
    }
}

struct Parser<'a> {
    text: &'a str,
    at: usize,
    names: &'a [(usize, &'a str)],
}

impl Parser<'_> {
    fn rest(&self) -> &str {
        &self.text[self.at..]
    }
    fn ws(&mut self) {
        while let Some(c) = self.rest().chars().next().filter(|c| c.is_whitespace()) {
            self.at += c.len_utf8();
        }
    }
    fn fail(&self, msg: &str) -> String {
        format!("{msg} at character {} of `{}`", self.text[..self.at].chars().count() + 1, self.text)
    }
    fn expr(&mut self) -> Result<Expr, String> {
        let mut a = self.term()?;
        loop {
            self.ws();
            match self.rest().chars().next() {
                Some(c @ ('+' | '-')) => {
                    self.at += 1;
                    a = Expr::Bin(c, Box::new(a), Box::new(self.term()?));
                }
                _ => return Ok(a),
            }
        }
    }
    fn term(&mut self) -> Result<Expr, String> {
        let mut a = self.unary()?;
        loop {
            self.ws();
            match self.rest().chars().next() {
                Some(c @ ('*' | '/')) => {
                    self.at += 1;
                    a = Expr::Bin(c, Box::new(a), Box::new(self.unary()?));
                }
                _ => return Ok(a),
            }
        }
    }
    fn unary(&mut self) -> Result<Expr, String> {
        self.ws();
        if self.rest().starts_with('-') {
            self.at += 1;
            return Ok(Expr::Neg(Box::new(self.unary()?)));
        }
        self.atom()
    }
    fn atom(&mut self) -> Result<Expr, String> {
        self.ws();
        let Some(c) = self.rest().chars().next() else { return Err(self.fail("expression ends early")) };
        if c == '(' {
            self.at += 1;
            let e = self.expr()?;
            self.ws();
            if !self.rest().starts_with(')') {
                return Err(self.fail("missing )"));
            }
            self.at += 1;
            return Ok(e);
        }
        if let Some(len) = number_len(self.rest()) {
            let v: f64 = self.rest()[..len].parse().map_err(|_| self.fail("bad number"))?;
            self.at += len;
            return Ok(Expr::Num(v));
        }
        if c == '[' {
            let Some(end) = self.rest().find(']') else { return Err(self.fail("missing ]")) };
            let name = self.rest()[1..end].trim().to_string();
            let Some(&(slot, _)) = self.names.iter().find(|(_, n)| *n == name) else { return Err(self.fail(&format!("unknown metric `{name}`"))) };
            self.at += end + 1;
            return Ok(Expr::Slot(slot));
        }
        for &(slot, n) in self.names {
            if self.rest().starts_with(n) {
                let next = self.rest()[n.len()..].chars().next().unwrap_or(' ');
                if !(next.is_alphanumeric() || matches!(next, '_' | '.' | ':' | '-')) {
                    self.at += n.len();
                    return Ok(Expr::Slot(slot));
                }
            }
        }
        let word: String = self.rest().chars().take_while(|c| c.is_alphanumeric() || "_.:/=-".contains(*c)).collect();
        let known: Vec<&str> = self.names.iter().map(|(_, n)| *n).collect();
        Err(self.fail(&if word.is_empty() { format!("unexpected `{c}`") } else { format!("unknown metric `{word}` (known: {})", known.join(", ")) }))
    }
}

/// The length of the number at the start of `s` (`12`, `1.5`, `.5`, `1e6`), as the page's
/// `/^(\d+\.?\d*|\.\d+)(e[+-]?\d+)?/i`.
fn number_len(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let digits = |mut i: usize| {
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        i
    };
    let mut i = digits(0);
    if i > 0 {
        if b.get(i) == Some(&b'.') {
            i = digits(i + 1);
        }
    } else if b.first() == Some(&b'.') && b.get(1).is_some_and(u8::is_ascii_digit) {
        i = digits(1);
    } else {
        return None;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        let j = if matches!(b.get(i + 1), Some(b'+' | b'-')) { i + 2 } else { i + 1 };
        if b.get(j).is_some_and(u8::is_ascii_digit) {
            i = digits(j);
        }
    }
    Some(i)
}

/// A metric of a record: a counter (its delta; `real-time` is the duration) or one computed from
/// them per record.
#[derive(Debug, Clone)]
pub struct Metric {
    pub name: String,
    /// `ns` for times, `ratio` for computed ratios, empty for counts.
    pub unit: &'static str,
    pub expr: Expr,
}

/// The slot names of a trace: its counters (`real-time`, the duration, first).
pub fn slot_names(counters: &[String]) -> Vec<String> {
    if counters.is_empty() {
        vec!["real-time".to_string()]
    } else {
        counters.to_vec()
    }
}

fn unit_of(counter: &str) -> &'static str {
    if matches!(counter, "real-time" | "cpu-time" | "task-clock") {
        "ns"
    } else {
        ""
    }
}

/// The metrics of a trace, in the page's order: every counter, then IPC (`instructions /
/// cycles`), `X/Kinstr` for every `*-misses` counter (`X / instructions * 1000`), and `cpu-time /
/// real-time`, where their inputs are recorded.
pub fn metrics(counters: &[String]) -> Vec<Metric> {
    let names = slot_names(counters);
    let mut out: Vec<Metric> = names.iter().enumerate().map(|(i, n)| Metric { name: n.clone(), unit: unit_of(n), expr: Expr::Slot(i) }).collect();
    let base = |n: &str| n.split(':').next().unwrap_or("").to_string();
    let find = |cands: &[&str]| names.iter().position(|n| cands.contains(&base(n).as_str()));
    let div = |a: usize, b: usize| Expr::Bin('/', Box::new(Expr::Slot(a)), Box::new(Expr::Slot(b)));
    let ins = find(&["instructions"]);
    if let (Some(i), Some(c)) = (ins, find(&["cycles", "cpu-cycles"])) {
        out.push(Metric { name: "IPC".into(), unit: "ratio", expr: div(i, c) });
    }
    if let Some(i) = ins {
        for (k, n) in names.iter().enumerate() {
            if base(n).ends_with("-misses") {
                out.push(Metric { name: format!("{n}/Kinstr"), unit: "ratio", expr: Expr::Bin('*', Box::new(div(k, i)), Box::new(Expr::Num(1000.0))) });
            }
        }
    }
    if let Some(c) = names.iter().position(|n| n == "cpu-time").filter(|&c| c > 0) {
        out.push(Metric { name: "cpu-time / real-time".into(), unit: "ratio", expr: div(c, 0) });
    }
    out
}

/// A record's slot `s`: its duration (0) or delta `s − 1`.
pub fn slot(q: &QuantumRecord, s: usize) -> f64 {
    if s == 0 {
        q.duration() as f64
    } else {
        q.deltas.get(s - 1).copied().unwrap_or(0) as f64
    }
}

/// A comparison of a condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Lt,
    Le,
    Gt,
    Ge,
}

impl Op {
    fn holds(self, v: f64, bound: f64) -> bool {
        match self {
            Op::Lt => v < bound,
            Op::Le => v <= bound,
            Op::Gt => v > bound,
            Op::Ge => v >= bound,
        }
    }
    fn text(self) -> &'static str {
        match self {
            Op::Lt => "<",
            Op::Le => "<=",
            Op::Gt => ">",
            Op::Ge => ">=",
        }
    }
}

/// `metric OP value`: a record passes when its metric has a value and the comparison holds.
#[derive(Debug, Clone)]
pub struct Cond {
    /// As written (trimmed), for the line that says what the set is.
    pub text: String,
    pub expr: Expr,
    pub op: Op,
    pub value: f64,
}

/// A number with an optional time unit (`ns`, `us`, `µs`, `ms`, `s`: the value in ns).
pub fn parse_value(text: &str) -> Result<f64, String> {
    let t = text.trim();
    let (num, mul) = [("ns", 1.0), ("us", 1e3), ("µs", 1e3), ("ms", 1e6), ("s", 1e9)]
        .iter()
        .find_map(|&(u, m)| t.strip_suffix(u).map(|n| (n.trim_end(), m)))
        .unwrap_or((t, 1.0));
    match number_len(num) {
        Some(n) if n == num.len() => Ok(num.parse::<f64>().map_err(|e| e.to_string())? * mul),
        _ => Err(format!("`{text}` is not a number (a unit ns, us, ms or s may follow)")),
    }
}

/// The metric named `lhs`: a metric's name (any case; `duration` is `real-time`), or else an
/// expression over the counters.
pub fn resolve(lhs: &str, ms: &[Metric], names: &[String]) -> Result<Expr, String> {
    let l = lhs.trim();
    let l = if l.eq_ignore_ascii_case("duration") { "real-time" } else { l };
    if let Some(m) = ms.iter().find(|m| m.name.eq_ignore_ascii_case(l)) {
        return Ok(m.expr.clone());
    }
    let mut with_duration = names.to_vec();
    with_duration.push("duration".into());
    let e = Expr::parse(l, &with_duration)?;
    Ok(map_duration(e, names.len()))
}

fn map_duration(e: Expr, alias: usize) -> Expr {
    match e {
        Expr::Slot(s) if s == alias => Expr::Slot(0),
        Expr::Neg(a) => Expr::Neg(Box::new(map_duration(*a, alias))),
        Expr::Bin(op, a, b) => Expr::Bin(op, Box::new(map_duration(*a, alias)), Box::new(map_duration(*b, alias))),
        e => e,
    }
}

/// Parses conditions `metric OP value` separated by commas (`IPC < 0.5, cycles > 1e6`).
pub fn parse_conds(text: &str, ms: &[Metric], names: &[String]) -> Result<Vec<Cond>, String> {
    let mut out = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let Some(at) = part.rfind(['<', '>']) else { return Err(format!("`{part}`: write a condition as METRIC < VALUE (or <=, >, >=)")) };
        let (lhs, op, rhs) = if part[at + 1..].starts_with('=') {
            (&part[..at], if part.as_bytes()[at] == b'<' { Op::Le } else { Op::Ge }, &part[at + 2..])
        } else {
            (&part[..at], if part.as_bytes()[at] == b'<' { Op::Lt } else { Op::Gt }, &part[at + 1..])
        };
        let expr = resolve(lhs, ms, names).map_err(|e| format!("`{part}`: {e}"))?;
        let value = parse_value(rhs).map_err(|e| format!("`{part}`: {e}"))?;
        out.push(Cond { text: format!("{} {} {}", lhs.trim(), op.text(), rhs.trim()), expr, op, value });
    }
    Ok(out)
}

/// Which records a set holds: those that pass every part given.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    /// Thread ids (a name may be several threads).
    pub threads: Option<Vec<u32>>,
    pub processor: Option<u32>,
    pub conds: Vec<Cond>,
    /// Matched (anywhere, as JavaScript's `RegExp.test`) against the record's top method,
    /// `class.method`; a record without one does not pass.
    pub method: Option<regex::Regex>,
    /// The kind of the record's thread, as the page's Kind selector (with the trace's kinds).
    pub kind: Option<(KindSel, HashMap<u32, ThreadKind>)>,
    /// Records that overlap this time span (absolute trace times, ns; end exclusive).
    pub span: Option<(u64, u64)>,
    /// Only these records (processor, start, thread): those listed after a GC or marker.
    pub only: Option<std::collections::HashSet<(u32, u64, u32)>>,
    /// What the filter is, in words, one part each.
    pub parts: Vec<String>,
}

/// The page's Kind choices: a thread kind, or every record but the collectors'.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KindSel {
    Is(ThreadKind),
    NotGc,
}

impl KindSel {
    /// `app`, `gc` (the collectors), `nongc`, `idle`, `writer`, `system`, `jit`.
    pub fn parse(s: &str) -> Result<KindSel, String> {
        Ok(match s.trim() {
            "app" => KindSel::Is(ThreadKind::App),
            "gc" | "collector" => KindSel::Is(ThreadKind::Collector),
            "nongc" => KindSel::NotGc,
            "idle" => KindSel::Is(ThreadKind::Idle),
            "writer" => KindSel::Is(ThreadKind::Writer),
            "system" => KindSel::Is(ThreadKind::System),
            "jit" => KindSel::Is(ThreadKind::Jit),
            k => return Err(format!("kind `{k}`: give app, gc, nongc, idle, writer, system or jit")),
        })
    }

    fn holds(self, k: ThreadKind) -> bool {
        match self {
            KindSel::Is(x) => k == x,
            KindSel::NotGc => k != ThreadKind::Collector,
        }
    }
}

impl Filter {
    pub fn passes(&self, trace: &Trace, q: &QuantumRecord) -> bool {
        if self.threads.as_ref().is_some_and(|t| !t.contains(&q.thread)) || self.processor.is_some_and(|p| p != q.vp) {
            return false;
        }
        // A thread the meta file does not name is an application thread, as on the page.
        if self.kind.as_ref().is_some_and(|(sel, kinds)| !sel.holds(kinds.get(&q.thread).copied().unwrap_or(ThreadKind::App))) {
            return false;
        }
        if self.span.is_some_and(|(lo, hi)| !(q.end > lo && q.start < hi)) || self.only.as_ref().is_some_and(|o| !o.contains(&(q.vp, q.start, q.thread))) {
            return false;
        }
        let get = |s: usize| slot(q, s);
        if !self.conds.iter().all(|c| {
            let v = c.expr.eval(&get);
            v.is_finite() && c.op.holds(v, c.value)
        }) {
            return false;
        }
        match &self.method {
            Some(re) => method_name(trace, q.callee).is_some_and(|n| re.is_match(&n)),
            None => true,
        }
    }

    /// The records of `trace` that pass, in the trace's order.
    pub fn select<'t>(&self, trace: &'t Trace) -> Vec<&'t QuantumRecord> {
        trace.quanta().filter(|q| self.passes(trace, q)).collect()
    }
}

/// A record's top method as the page names it (`class.method`, the class with dots), if known.
pub fn method_name(trace: &Trace, callee: u32) -> Option<String> {
    if callee == 0 {
        return None;
    }
    trace.meta.method(callee).map(|m| format!("{}.{}", m.class.replace('/', "."), m.name))
}

/// One metric's statistics over a set: its records with a value (`n`), their mean, sample
/// standard deviation (n − 1; 0 for one value), min, max and percentiles.
#[derive(Debug, Clone, PartialEq)]
pub struct Stats {
    pub metric: String,
    pub unit: &'static str,
    pub n: u64,
    pub mean: f64,
    pub sd: f64,
    pub min: f64,
    pub max: f64,
    /// p50, p90, p99.
    pub pct: [f64; 3],
}

/// The percentiles shown.
pub const PERCENTILES: [f64; 3] = [50.0, 90.0, 99.0];

/// The `p`th percentile of ascending `sorted` by nearest rank: the value at rank ⌈p/100 · n⌉
/// (1-based, at least 1; ⌈p · n / 100⌉ computed in that order), a value of the set (the page
/// uses the same).
pub fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    // p · n first: an exact integer for integer p, so the rank is exact.
    let rank = (p * sorted.len() as f64 / 100.0).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// The statistics of `m` over `values` (NaN and infinite values left out), summed in order.
pub fn stats_of(m: &Metric, values: impl Iterator<Item = f64>) -> Stats {
    let mut v: Vec<f64> = values.filter(|x| x.is_finite()).collect();
    let n = v.len();
    let mean = v.iter().sum::<f64>() / n as f64;
    let sd = if n > 1 { (v.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1) as f64).sqrt() } else if n == 1 { 0.0 } else { f64::NAN };
    v.sort_by(f64::total_cmp);
    Stats {
        metric: m.name.clone(),
        unit: m.unit,
        n: n as u64,
        mean,
        sd,
        min: v.first().copied().unwrap_or(f64::NAN),
        max: v.last().copied().unwrap_or(f64::NAN),
        pct: PERCENTILES.map(|p| percentile(&v, p)),
    }
}

/// The statistics of every metric over `records`.
pub fn stats(ms: &[Metric], records: &[&QuantumRecord]) -> Vec<Stats> {
    ms.iter().map(|m| stats_of(m, records.iter().map(|q| m.expr.eval(&|s| slot(q, s))))).collect()
}

/// The standardized mean difference of two metrics' statistics: (mean A − mean B) divided by the
/// square root of the mean of the two variances; 0 when both are constant and equal, ±infinity
/// when they are constant and differ, NaN when either has no value.
pub fn smd(a: &Stats, b: &Stats) -> f64 {
    if a.n == 0 || b.n == 0 {
        return f64::NAN;
    }
    let d = a.mean - b.mean;
    let pooled = ((a.sd * a.sd + b.sd * b.sd) / 2.0).sqrt();
    if pooled > 0.0 {
        d / pooled
    } else if d == 0.0 {
        0.0
    } else {
        d.signum() * f64::INFINITY
    }
}

/// A top method's share of each set's time (the sum of its records' durations over the set's).
#[derive(Debug, Clone, PartialEq)]
pub struct MethodShare {
    /// `(no method)` for records without one.
    pub method: String,
    pub a: f64,
    pub b: f64,
}

/// What differs most between set A and set B.
#[derive(Debug, Clone, PartialEq)]
pub struct Ranking {
    /// Per metric with values in both sets: A's and B's statistics and the standardized mean
    /// difference, by |SMD| (largest first; ties by name).
    pub metrics: Vec<(Stats, Stats, f64)>,
    /// By |share A − share B|, largest first (ties by name); none when either set is empty.
    pub methods: Vec<MethodShare>,
}

/// The label of records without a top method.
pub const NO_METHOD: &str = "(no method)";

fn method_shares(trace: &Trace, records: &[&QuantumRecord]) -> Vec<(String, f64)> {
    let mut by: std::collections::BTreeMap<String, f64> = std::collections::BTreeMap::new();
    let mut total = 0.0;
    for q in records {
        let d = q.duration() as f64;
        total += d;
        *by.entry(method_name(trace, q.callee).unwrap_or_else(|| NO_METHOD.into())).or_default() += d;
    }
    by.into_iter().map(|(m, d)| (m, if total > 0.0 { d / total } else { 0.0 })).collect()
}

/// Ranks what differs between `a` (records of `ta`) and `b` (records of `tb`; the same trace or
/// another run's, whose metrics are matched by name).
pub fn rank(ta: &Trace, a: &[&QuantumRecord], tb: &Trace, b: &[&QuantumRecord]) -> Ranking {
    let (ma, mb) = (metrics(&ta.meta.counters), metrics(&tb.meta.counters));
    let (sa, sb) = (stats(&ma, a), stats(&mb, b));
    let mut ms: Vec<(Stats, Stats, f64)> = sa
        .into_iter()
        .filter_map(|x| {
            let y = sb.iter().find(|y| y.metric == x.metric)?.clone();
            let d = smd(&x, &y);
            (!d.is_nan()).then_some((x, y, d))
        })
        .collect();
    ms.sort_by(|x, y| y.2.abs().total_cmp(&x.2.abs()).then_with(|| x.0.metric.cmp(&y.0.metric)));
    let (pa, pb) = (method_shares(ta, a), method_shares(tb, b));
    let mut names: Vec<&String> = pa.iter().chain(&pb).map(|(m, _)| m).collect();
    names.sort();
    names.dedup();
    let share = |l: &[(String, f64)], m: &str| l.iter().find(|(n, _)| n == m).map_or(0.0, |(_, s)| *s);
    // Shares of an empty set are no shares.
    if pa.is_empty() || pb.is_empty() {
        names.clear();
    }
    let mut methods: Vec<MethodShare> = names.into_iter().map(|m| MethodShare { method: m.clone(), a: share(&pa, m), b: share(&pb, m) }).collect();
    methods.sort_by(|x, y| (y.a - y.b).abs().total_cmp(&(x.a - x.b).abs()).then_with(|| x.method.cmp(&y.method)));
    Ranking { metrics: ms, methods }
}

/// A value as the tables show it: integers whole, other values with 4 significant digits.
pub fn num(v: f64) -> String {
    if !v.is_finite() {
        return if v.is_nan() { "-".into() } else if v > 0.0 { "inf".into() } else { "-inf".into() };
    }
    if v.fract() == 0.0 && v.abs() < 1e15 {
        return format!("{v:.0}");
    }
    let mag = v.abs().log10().floor() as i32;
    let prec = (3 - mag).clamp(0, 12) as usize;
    format!("{v:.prec$}")
}

fn table(rows: &[Vec<String>]) -> String {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..cols).map(|c| rows.iter().filter_map(|r| r.get(c)).map(|s| s.chars().count()).max().unwrap_or(0)).collect();
    let mut out = String::new();
    for r in rows {
        let line: Vec<String> = r.iter().enumerate().map(|(c, s)| if c == 0 { format!("{s:<w$}", w = widths[c]) } else { format!("{s:>w$}", w = widths[c]) }).collect();
        let _ = writeln!(out, "{}", line.join("  ").trim_end());
    }
    out
}

/// The statistics table (a row per metric; times in ns, named so).
pub fn render_stats(st: &[Stats]) -> String {
    let mut rows = vec![["Metric", "N", "Mean", "SD", "Min", "P50", "P90", "P99", "Max"].map(String::from).to_vec()];
    for s in st {
        let name = if s.unit == "ns" { format!("{} (ns)", s.metric) } else { s.metric.clone() };
        rows.push(vec![name, s.n.to_string(), num(s.mean), num(s.sd), num(s.min), num(s.pct[0]), num(s.pct[1]), num(s.pct[2]), num(s.max)]);
    }
    table(&rows)
}

/// The ranking: metrics by |SMD|, then the first `methods` top methods by |Δ share|.
pub fn render_ranking(r: &Ranking, a: &str, b: &str, methods: usize) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "Metrics by |standardized mean difference| (A = {a}, B = {b}):");
    let mut rows = vec![["Metric", "Mean A", "Mean B", "SD A", "SD B", "SMD"].map(String::from).to_vec()];
    for (x, y, d) in &r.metrics {
        rows.push(vec![x.metric.clone(), num(x.mean), num(y.mean), num(x.sd), num(y.sd), format!("{d:+.3}")]);
    }
    out.push_str(&table(&rows));
    let _ = writeln!(out, "\nTop methods by |difference of share of time| (A - B):");
    let mut rows = vec![["Method", "Share A", "Share B", "Diff"].map(String::from).to_vec()];
    for m in r.methods.iter().take(methods) {
        rows.push(vec![m.method.clone(), format!("{:.2}%", m.a * 100.0), format!("{:.2}%", m.b * 100.0), format!("{:+.2}", (m.a - m.b) * 100.0)]);
    }
    out.push_str(&table(&rows));
    out
}

fn f(v: f64) -> Value {
    if v.is_finite() {
        json!(v)
    } else {
        Value::Null
    }
}

pub fn stats_json(s: &Stats) -> Value {
    json!({"metric": s.metric, "unit": s.unit, "n": s.n, "mean": f(s.mean), "sd": f(s.sd), "min": f(s.min), "max": f(s.max),
        "p50": f(s.pct[0]), "p90": f(s.pct[1]), "p99": f(s.pct[2])})
}

pub fn ranking_json(r: &Ranking) -> Value {
    json!({
        "metrics": r.metrics.iter().map(|(x, y, d)| json!({"metric": x.metric, "a": stats_json(x), "b": stats_json(y),
            "smd": if d.is_finite() { json!(d) } else { json!(if *d > 0.0 { "inf" } else { "-inf" }) }})).collect::<Vec<_>>(),
        "methods": r.methods.iter().map(|m| json!({"method": m.method, "a": m.a, "b": m.b, "diff": m.a - m.b})).collect::<Vec<_>>(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_by_nearest_rank() {
        let v: Vec<f64> = (1..=10).map(f64::from).collect();
        assert_eq!([percentile(&v, 50.0), percentile(&v, 90.0), percentile(&v, 99.0), percentile(&v, 0.0)], [5.0, 9.0, 10.0, 1.0]);
        assert_eq!(percentile(&[7.0], 99.0), 7.0);
    }

    #[test]
    fn conditions_read_names_expressions_and_units() {
        let names: Vec<String> = ["real-time", "cycles", "instructions", "cache-misses"].map(String::from).to_vec();
        let ms = metrics(&names);
        assert_eq!(ms.iter().map(|m| m.name.as_str()).collect::<Vec<_>>(), ["real-time", "cycles", "instructions", "cache-misses", "IPC", "cache-misses/Kinstr"]);
        let c = parse_conds("ipc < 0.5, duration >= 2ms, instructions / cycles > 1e-1", &ms, &names).unwrap();
        assert_eq!(c.len(), 3);
        assert_eq!((c[0].op, c[0].value), (Op::Lt, 0.5));
        assert_eq!((c[1].op, c[1].value, &c[1].expr), (Op::Ge, 2e6, &Expr::Slot(0)));
        let get = |s: usize| [10.0, 4.0, 2.0, 0.0][s];
        assert_eq!(c[2].expr.eval(&get), 0.5);
        assert!(parse_conds("bogus < 1", &ms, &names).unwrap_err().contains("unknown metric `bogus`"));
        assert!(parse_conds("ipc 1", &ms, &names).is_err());
        assert!(parse_conds("ipc < x", &ms, &names).is_err());
    }
}
