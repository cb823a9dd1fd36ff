//! The xprof report (the paper's Figure 6): a flat profile, one row per consumer.
//!
//! ```text
//! Calls   %Base    %Cum  Ind  Name
//! =====   =====    ====  ===  ====
//!     1    0.00  100.00    0  AC_test_pidtid
//!     1    0.00  100.00    1  Main
//!     3   30.00   90.00    2  B
//! ```
//!
//! Rows are sorted by cum descending, then base, then calls descending, then name; `Ind` is the
//! consumer's stanza number in xarc. Calls, base and cum follow the recursion rule of
//! [`crate::aggregate`]. With several metrics, [`ReportOptions::extra_metrics`] adds one base column
//! per other metric (`%Base:<name>` or `Base:<name>`), as a share of that metric's own total. The last
//! line gives the total calls and base.

use std::fmt::Write;

use hpm_collectors::arcflow::Profile;

use crate::aggregate::Aggregate;
use crate::text::{self, ValueFormat};
use crate::ReportOptions;

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
    let wc = text::digits(max_calls.max(sum_calls)).max(5);
    let vb = ValueFormat::new(total, opts.absolute, max_val, hb);
    let vc = ValueFormat::new(total, opts.absolute, max_val, hc);
    let wi = text::digits(order.len().saturating_sub(1) as u64).max(3);
    let extra: Vec<(usize, String, ValueFormat)> = if opts.extra_metrics {
        (0..m)
            .filter(|&k| k != metric)
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

    let mut out = String::with_capacity(64 * (order.len() + 8));
    text::header(&mut out, profile, metric, total, opts.absolute);
    // Column titles and their underlines.
    for underline in [false, true] {
        let cell = |out: &mut String, s: &str, w: usize| {
            if underline {
                text::underline_right(out, s, w)
            } else {
                text::right(out, s, w)
            }
        };
        cell(&mut out, "Calls", wc);
        out.push_str("  ");
        cell(&mut out, hb, vb.width);
        out.push_str("  ");
        cell(&mut out, hc, vc.width);
        for (_, h, vf) in &extra {
            out.push_str("  ");
            cell(&mut out, h, vf.width);
        }
        out.push_str("  ");
        cell(&mut out, "Ind", wi);
        out.push_str("  ");
        out.push_str(if underline { "====" } else { "Name" });
        out.push('\n');
    }
    for (i, &c) in order.iter().enumerate() {
        let r = agg.self_row(c);
        text::push_u64(&mut out, r.calls, wc);
        out.push_str("  ");
        vb.push(&mut out, get(r.base, metric));
        out.push_str("  ");
        vc.push(&mut out, get(r.cum, metric));
        for (k, _, vf) in &extra {
            out.push_str("  ");
            vf.push(&mut out, get(r.base, *k));
        }
        let _ = writeln!(out, "  {:>wi$}  {}", i, profile.consumers.name(c));
    }
    // Totals: calls and base add up over all rows (cum does not: it nests).
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
    out.push_str("  ");
    text::pad(&mut out, wi);
    out.push_str("  Total\n");
    out
}
