//! The xprof report (the paper's Figure 6): a flat profile, one row per consumer.
//!
//! ```text
//! Calls   %Base    %Cum  Ind  Name
//! =====   =====    ====  ===  ====
//!     1    0.00  100.00    1  Main
//!     3   30.00   90.00    2  B
//! ...
//!
//! Calls   %Base    %Cum  Ind  Thread
//! =====   =====    ====  ===  ======
//!     1    0.00  100.00    0  AC_test_pidtid
//! =====  ======
//!    13  100.00               Total
//! ```
//!
//! The methods come first, in a table of their own; the threads (the root consumers, whose base
//! is the time outside any method) follow in a second table with the same columns. Rows are sorted
//! by cum descending, then base, then calls descending, then name; `Ind` is the consumer's stanza
//! number in xarc, which lists threads and methods in that one order. Calls, base and cum follow the recursion rule of
//! [`crate::aggregate`]. With several metrics, [`ReportOptions::extra_metrics`] adds one base column
//! per other metric (`%Base:<name>` or `Base:<name>`), as a share of that metric's own total; a
//! metric with the name and unit of the shown one or of an earlier one gets no column. The last
//! line gives the total calls and base of every row of both tables.
//!
//! Computed columns follow when their inputs are metrics of the profile (and `extra_metrics` is on),
//! from each row's base (self) values: `IPC` = instructions / cycles, and `<event>/Kinstr` = misses
//! per 1000 instructions for every `*-misses` event (`cache-misses`, `LLC-load-misses`, …) when
//! instructions are counted. A row whose denominator is 0 shows `-`.

use std::fmt::Write;

use hpm_model::arcflow::Profile;

use crate::aggregate::Aggregate;
use crate::text::{self, ValueFormat};
use crate::ReportOptions;

/// Whether metric `k` has the name and unit of the shown metric or of an earlier one: the same
/// event given twice (`event=task-clock,event=task-clock`) gets one column, not two alike.
pub fn repeats_a_metric(profile: &Profile, k: usize, shown: usize) -> bool {
    let ms = &profile.bindings.metrics;
    let same = |j: usize| ms[j].name == ms[k].name && ms[j].unit == ms[k].unit;
    same(shown) && shown != k || (0..k).any(same)
}

/// Renders xprof for `opts.metric` (the profile as given: select and prune it first).
pub fn render(profile: &Profile, opts: &ReportOptions) -> String {
    render_with(profile, &Aggregate::new(profile), opts)
}

/// Renders xprof from an aggregate already computed for `profile`.
pub fn render_with(profile: &Profile, agg: &Aggregate, opts: &ReportOptions) -> String {
    let metric = opts.metric;
    let m = profile.metric_count();
    let totals = profile.total();
    let total = totals.get(metric).copied().unwrap_or(0);
    let order = agg.order(profile, metric);

    let get = |v: &[u64], k: usize| v.get(k).copied().unwrap_or(0);
    let mut max_calls = 0u64;
    let mut sum_calls = 0u64;
    let mut max_val = total;
    for &c in &order {
        let r = agg.self_row(c);
        max_calls = max_calls.max(r.calls);
        sum_calls = sum_calls.wrapping_add(r.calls);
        max_val = max_val.max(get(r.cum, metric));
    }
    let (hb, hc) = text::value_headers(opts.absolute);
    let wc = text::digits(max_calls.max(sum_calls)).max(text::count_title(profile).len());
    let vb = ValueFormat::new(total, opts.absolute, max_val, hb);
    let vc = ValueFormat::new(total, opts.absolute, max_val, hc);
    let wi = text::digits(order.len().saturating_sub(1) as u64).max(3);
    let extra: Vec<(usize, String, ValueFormat)> = if opts.extra_metrics {
        (0..m)
            .filter(|&k| k != metric && !repeats_a_metric(profile, k, metric))
            .map(|k| {
                let h = format!("{}:{}", hb, profile.bindings.metrics[k].name);
                let t = totals[k];
                let vf = ValueFormat::new(t, opts.absolute, t, &h);
                (k, h, vf)
            })
            .collect()
    } else {
        Vec::new()
    };

    let computed = if opts.extra_metrics { computed_columns(profile) } else { Vec::new() };
    let mut out = String::with_capacity(64 * (order.len() + 8));
    text::header(&mut out, profile, metric, total, opts.absolute);
    // Column titles and their underlines, the last column named `name`.
    let titles = |out: &mut String, name: &str| {
        for underline in [false, true] {
            let cell = |out: &mut String, s: &str, w: usize| text::title_cell(out, s, w, underline);
            cell(out, text::count_title(profile), wc);
            out.push_str("  ");
            cell(out, hb, vb.width);
            out.push_str("  ");
            cell(out, hc, vc.width);
            for (_, h, vf) in &extra {
                out.push_str("  ");
                cell(out, h, vf.width);
            }
            for c in &computed {
                out.push_str("  ");
                cell(out, &c.header, c.width());
            }
            out.push_str("  ");
            cell(out, "Ind", wi);
            out.push_str("  ");
            if underline {
                out.push_str(&"=".repeat(name.len()));
            } else {
                out.push_str(name);
            }
            out.push('\n');
        }
    };
    let row = |out: &mut String, i: usize, c: u32| {
        let r = agg.self_row(c);
        text::push_u64(out, r.calls, wc);
        out.push_str("  ");
        vb.push(out, get(r.base, metric));
        out.push_str("  ");
        vc.push(out, get(r.cum, metric));
        for (k, _, vf) in &extra {
            out.push_str("  ");
            vf.push(out, get(r.base, *k));
        }
        for c in &computed {
            out.push_str("  ");
            text::right(out, &c.value(r.base), c.width());
        }
        let _ = writeln!(out, "  {:>wi$}  {}", i, profile.consumers.name(c));
    };
    // The methods' table, then the threads' (each row keeps its stanza number).
    titles(&mut out, "Name");
    for (i, &c) in order.iter().enumerate().filter(|(_, &c)| !agg.is_root(c)) {
        row(&mut out, i, c);
    }
    out.push('\n');
    titles(&mut out, "Thread");
    for (i, &c) in order.iter().enumerate().filter(|(_, &c)| agg.is_root(c)) {
        row(&mut out, i, c);
    }
    // Totals: calls and base add up over all rows of both tables (cum does not: it nests).
    out.push_str(&"=".repeat(wc));
    out.push_str("  ");
    out.push_str(&"=".repeat(vb.width));
    out.push('\n');
    let _ = write!(out, "{:>wc$}  ", sum_calls);
    vb.push(&mut out, total);
    out.push_str("  ");
    vc.blank(&mut out);
    for (k, _, vf) in &extra {
        out.push_str("  ");
        vf.push(&mut out, totals[*k]);
    }
    for c in &computed {
        out.push_str("  ");
        text::right(&mut out, &c.value(&totals), c.width());
    }
    out.push_str("  ");
    text::pad(&mut out, wi);
    out.push_str("  Total\n");
    out
}

/// A column computed from two metrics of a row: `num / den × scale`.
#[derive(Debug, Clone, PartialEq)]
pub struct Computed {
    pub header: String,
    pub num: usize,
    pub den: usize,
    pub scale: f64,
}

impl Computed {
    fn width(&self) -> usize {
        self.header.len().max(7)
    }
    /// The value for base values `v` (3 decimals), or `-` when the denominator is 0.
    pub fn value(&self, v: &[u64]) -> String {
        let (n, d) = (v.get(self.num).copied().unwrap_or(0), v.get(self.den).copied().unwrap_or(0));
        if d == 0 {
            "-".into()
        } else {
            format!("{:.3}", n as f64 * self.scale / d as f64)
        }
    }
}

fn base_name(name: &str) -> &str {
    name.split_once(':').map_or(name, |(b, _)| b)
}

/// The computed columns `profile`'s metrics allow: IPC with instructions and cycles, and misses per
/// 1000 instructions for every `*-misses` event with instructions.
pub fn computed_columns(profile: &Profile) -> Vec<Computed> {
    let ms = &profile.bindings.metrics;
    let find = |names: &[&str]| ms.iter().position(|m| names.contains(&base_name(&m.name)));
    let instr = find(&["instructions"]);
    let cycles = find(&["cycles", "cpu-cycles"]);
    let mut v = Vec::new();
    if let (Some(i), Some(c)) = (instr, cycles) {
        v.push(Computed { header: "IPC".into(), num: i, den: c, scale: 1.0 });
    }
    if let Some(i) = instr {
        for (k, m) in ms.iter().enumerate() {
            if base_name(&m.name).ends_with("-misses") {
                v.push(Computed { header: format!("{}/Kinstr", m.name), num: k, den: i, scale: 1000.0 });
            }
        }
    }
    v
}

#[cfg(test)]
mod computed_tests {
    use super::*;
    use hpm_model::arcflow::{Bindings, Metric, Tree};

    #[test]
    fn ipc_and_misses_per_kilo_instruction_columns() {
        let metrics = ["task-clock", "instructions", "cycles:u", "cache-misses", "page-faults"];
        let mut p = Profile::new(Bindings::methods(metrics.iter().map(|m| Metric::new(*m, "")).collect()));
        let th = p.add_thread("main");
        let a = p.consumers.intern("A");
        let b = p.consumers.intern("B");
        let t = &mut p.threads[th].tree;
        t.add_calls(Tree::ROOT, 1);
        let na = t.child(Tree::ROOT, a);
        t.add_calls(na, 1);
        t.add_base(na, &[10, 3000, 2000, 6, 1]);
        let nb = t.child(na, b);
        t.add_calls(nb, 2);
        t.add_base(nb, &[5, 1000, 0, 0, 0]);
        let cols = computed_columns(&p);
        let heads: Vec<&str> = cols.iter().map(|c| c.header.as_str()).collect();
        assert_eq!(heads, ["IPC", "cache-misses/Kinstr"]);
        let out = render(&p, &ReportOptions::default());
        let row = |name: &str| out.lines().find(|l| l.ends_with(&format!("  {name}"))).unwrap().to_string();
        assert!(row("A").contains("1.500") && row("A").contains("2.000"), "{out}");
        assert!(row("B").contains(" - "), "no cycles in B: {out}");
        assert!(out.lines().last().unwrap().contains("2.000"), "totals: IPC 4000/2000: {out}");
        // Without instructions: no computed columns.
        let p2 = Profile::new(Bindings::methods(vec![Metric::new("task-clock", "ns"), Metric::new("cache-misses", "")]));
        assert!(computed_columns(&p2).is_empty());
    }
}

#[cfg(test)]
mod table_tests {
    use super::*;
    use hpm_model::arcflow::{Bindings, Metric, Tree};

    /// Two threads, one with time of its own outside any method: the methods' table has no thread
    /// row, the threads' table has both, and the total adds up every row of both tables.
    #[test]
    fn threads_have_a_table_of_their_own() {
        let mut p = Profile::new(Bindings::methods(vec![Metric::new("cpu-time", "ns")]));
        for (name, own) in [("main", 5u64), ("worker", 0)] {
            let th = p.add_thread(name);
            let a = p.consumers.intern("app.A.run(long,boolean)");
            let t = &mut p.threads[th].tree;
            t.add_calls(Tree::ROOT, 1);
            t.add_base(Tree::ROOT, &[own]);
            let na = t.child(Tree::ROOT, a);
            t.add_calls(na, 2);
            t.add_base(na, &[20]);
        }
        let out = render(&p, &ReportOptions { absolute: true, ..ReportOptions::default() });
        let lines: Vec<&str> = out.lines().collect();
        let methods_at = lines.iter().position(|l| l.ends_with("  Name")).unwrap();
        let threads_at = lines.iter().position(|l| l.ends_with("  Thread")).unwrap();
        let words = |l: &str| l.split_whitespace().map(str::to_string).collect::<Vec<_>>();
        // The methods' table: the method alone (stanza 0: it has the largest cum), then a blank line.
        assert_eq!(threads_at, methods_at + 4, "{out}");
        assert_eq!(words(lines[methods_at + 2]), ["4", "40", "40", "0", "app.A.run(long,boolean)"], "{out}");
        assert_eq!(lines[methods_at + 3], "", "{out}");
        // The threads' table, by cum: main (25, 5 of it its own) before worker (20).
        assert_eq!(words(lines[threads_at + 1]), ["=====", "====", "===", "===", "======"], "{out}");
        assert_eq!(words(lines[threads_at + 2]), ["1", "5", "25", "1", "main"], "{out}");
        assert_eq!(words(lines[threads_at + 3]), ["1", "0", "20", "2", "worker"], "{out}");
        // The total: calls and base of all rows, methods and threads.
        assert_eq!(words(lines[threads_at + 5]), ["6", "45", "Total"], "{out}");
        assert_eq!(lines.len(), threads_at + 6, "{out}");
    }
}
