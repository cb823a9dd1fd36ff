//! The xarc report (the paper's Figure 4): one stanza per consumer with its parents and children.
//!
//! ```text
//! Source  Calls   %Base    %Cum  Function
//! ======  =====   =====    ====  ========
//! Parent      2   20.00   30.00  A
//! Parent      1   10.00   60.00  Main
//! Self        3   30.00   90.00  [2] B
//! Child       1   10.00   50.00  A
//! Child       1   10.00   10.00  C
//! ==========================================
//! ```
//!
//! Stanzas come in xprof order (cum, base, calls descending, then name) and are numbered `[n]` by
//! that order. In a stanza, parent rows are sorted by cum ascending (then base ascending, then name),
//! so the biggest caller is next to the self row; child rows by cum descending, then base and calls
//! descending, then name. The numbers follow the recursion rule of [`crate::aggregate`], under which
//! Σ parent calls/base/cum = self calls/base/cum and Σ child cum = self cum − self base. Thread
//! roots are consumers with no parent rows.


use hpm_model::arcflow::Profile;

use crate::aggregate::{Aggregate, Row};
use crate::text::{self, ValueFormat};
use crate::ReportOptions;

/// Renders xarc for `opts.metric` (the profile as given: select and prune it first).
pub fn render(profile: &Profile, opts: &ReportOptions) -> String {
    render_with(profile, &Aggregate::new(profile), opts)
}

/// Renders xarc from an aggregate already computed for `profile`.
pub fn render_with(profile: &Profile, agg: &Aggregate, opts: &ReportOptions) -> String {
    let metric = opts.metric;
    let total = text::metric_total(profile, metric);
    let order = agg.order(profile, metric);
    let numbers = agg.stanza_numbers(&order);
    let get = |v: &[u64]| v.get(metric).copied().unwrap_or(0);

    let mut max_calls = 0u64;
    let mut max_val = total;
    for &c in &order {
        let r = agg.self_row(c);
        max_calls = max_calls.max(r.calls);
        max_val = max_val.max(get(r.cum));
    }
    let (hb, hc) = text::value_headers(opts.absolute);
    let wc = text::digits(max_calls).max(text::count_title(profile).len());
    let vb = ValueFormat::new(total, opts.absolute, max_val, hb);
    let vc = ValueFormat::new(total, opts.absolute, max_val, hc);
    let ws = 6; // "Parent"
    let rule_len = ws + 2 + wc + 2 + vb.width + 2 + vc.width + 2 + 8;
    let rule: String = "=".repeat(rule_len);

    let mut out = String::with_capacity(64 * (order.len() * 4 + 8));
    text::header(&mut out, profile, metric, total, opts.absolute);
    for underline in [false, true] {
        let cell = |out: &mut String, s: &str, w: usize| text::title_cell(out, s, w, underline);
        if underline {
            text::left(&mut out, "======", ws);
        } else {
            text::left(&mut out, "Source", ws);
        }
        out.push_str("  ");
        cell(&mut out, text::count_title(profile), wc);
        out.push_str("  ");
        cell(&mut out, hb, vb.width);
        out.push_str("  ");
        cell(&mut out, hc, vc.width);
        out.push_str("  ");
        out.push_str(if underline { "========" } else { "Function" });
        out.push('\n');
    }

    let row = |out: &mut String, source: &str, r: &Row<'_>, name: &str| {
        text::left(out, source, ws);
        out.push_str("  ");
        text::push_u64(out, r.calls, wc);
        out.push_str("  ");
        vb.push(out, get(r.base));
        out.push_str("  ");
        vc.push(out, get(r.cum));
        out.push_str("  ");
        out.push_str(name);
        out.push('\n');
    };
    let name = |c| profile.consumers.name(c);
    for (i, &c) in order.iter().enumerate() {
        if i > 0 {
            out.push_str(&rule);
            out.push('\n');
        }
        let mut parents = agg.parents(c);
        parents.sort_by(|x, y| {
            (get(x.cum), get(x.base), x.calls)
                .cmp(&(get(y.cum), get(y.base), y.calls))
                .then_with(|| name(x.consumer).cmp(name(y.consumer)))
        });
        for p in &parents {
            row(&mut out, "Parent", p, name(p.consumer));
        }
        let s = agg.self_row(c);
        row(&mut out, "Self", &s, &format!("[{}] {}", numbers[c as usize], name(c)));
        let mut children = agg.children(c);
        children.sort_by(|x, y| {
            (get(y.cum), get(y.base), y.calls)
                .cmp(&(get(x.cum), get(x.base), x.calls))
                .then_with(|| name(x.consumer).cmp(name(y.consumer)))
        });
        for ch in &children {
            row(&mut out, "Child", ch, name(ch.consumer));
        }
    }
    out
}
