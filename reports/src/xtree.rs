//! The xtree report (the paper's Figure 5): every calling context, as a tree.
//!
//! ```text
//! Lv  RL  Calls   %Base    %Cum  Name
//! ==  ==  =====   =====    ====  ====
//!  0   1      1    0.00  100.00  AC_test_pidtid
//!  1   1      1    0.00  100.00  - Main
//!  2   1      1   10.00   40.00  -- A
//! ```
//!
//! Each thread's tree in turn, its root being the thread; nodes in depth-first pre-order, children in
//! creation (first-seen) order. `Lv` is the depth (the thread is level 0); `RL` the recursion level,
//! the number of nodes with the same consumer on the path from the root including this one (1 when
//! the consumer is not recursive). The indent has one character per level, `-` except every fifth,
//! which is `+`, so that deep levels can be counted; it stops growing after [`MAX_INDENT`] levels
//! (the `Lv` column still gives the depth). Percentages are of the total over all threads.

use std::io::{self, Write};

use hpm_model::arcflow::{NodeId, Profile};

use crate::text::{self, ValueFormat};
use crate::ReportOptions;

/// The indent grows by one character per level up to this many levels.
pub const MAX_INDENT: usize = 200;

/// Renders xtree for `opts.metric` (the profile as given: select and prune it first).
pub fn render(profile: &Profile, opts: &ReportOptions) -> String {
    let mut v = Vec::new();
    // Writing into a Vec cannot fail, and every piece written is a str.
    let _ = write(profile, opts, &mut v);
    String::from_utf8(v).expect("xtree is text")
}

/// Writes xtree to `w` as it goes: a deep tree's xtree (one line per node, indented up to
/// [`MAX_INDENT`] characters) can be many times larger than the tree itself.
pub fn write(profile: &Profile, opts: &ReportOptions, w: &mut dyn Write) -> io::Result<()> {
    let metric = opts.metric;
    let m = profile.metric_count();
    let total = text::metric_total(profile, metric);
    let get = |v: &[u64]| v.get(metric).copied().unwrap_or(0);

    // Widths over all threads, so that the columns line up from one thread to the next.
    let mut max_depth = 0usize;
    let mut max_calls = 0u64;
    let mut nodes = 0usize;
    let mut depth: Vec<u32> = Vec::new();
    for th in &profile.threads {
        let t = &th.tree;
        nodes += t.len();
        depth.clear();
        depth.resize(t.len(), 0);
        for n in 1..t.len() {
            let p = t.parent(n as NodeId).map(|p| p as usize).unwrap_or(0);
            depth[n] = depth[p] + 1;
            max_depth = max_depth.max(depth[n] as usize);
        }
        for n in 0..t.len() {
            max_calls = max_calls.max(t.calls(n as NodeId));
        }
    }
    let (hb, hc) = text::value_headers(opts.absolute);
    let wl = text::digits(max_depth as u64).max(2);
    let wr = text::digits(max_depth as u64 + 1).max(2);
    let wc = text::digits(max_calls).max(text::count_title(profile).len());
    let vb = ValueFormat::new(total, opts.absolute, total, hb);
    let vc = ValueFormat::new(total, opts.absolute, total, hc);
    let indent: String = (1..=MAX_INDENT.min(max_depth)).map(|i| if i % 5 == 0 { '+' } else { '-' }).collect();

    const FLUSH_AT: usize = 64 * 1024;
    let mut out = String::with_capacity((48 * nodes).min(FLUSH_AT) + 256);
    text::header(&mut out, profile, metric, total, opts.absolute);
    for underline in [false, true] {
        let cell = |out: &mut String, s: &str, w: usize| text::title_cell(out, s, w, underline);
        cell(&mut out, "Lv", wl);
        out.push_str("  ");
        cell(&mut out, "RL", wr);
        out.push_str("  ");
        cell(&mut out, text::count_title(profile), wc);
        out.push_str("  ");
        cell(&mut out, hb, vb.width);
        out.push_str("  ");
        cell(&mut out, hc, vc.width);
        out.push_str("  ");
        out.push_str(if underline { "====" } else { "Name" });
        out.push('\n');
    }

    let mut on_path = vec![0u32; profile.consumers.len()];
    let mut path: Vec<NodeId> = Vec::new();
    for th in &profile.threads {
        let t = &th.tree;
        let cum = t.cum();
        for n in t.preorder() {
            let parent = t.parent(n);
            while let Some(&top) = path.last() {
                if Some(top) == parent {
                    break;
                }
                on_path[t.consumer(top) as usize] -= 1;
                path.pop();
            }
            let c = t.consumer(n) as usize;
            on_path[c] += 1;
            let lv = path.len();
            path.push(n);
            text::push_u64(&mut out, lv as u64, wl);
            out.push_str("  ");
            text::push_u64(&mut out, on_path[c] as u64, wr);
            out.push_str("  ");
            text::push_u64(&mut out, t.calls(n), wc);
            out.push_str("  ");
            vb.push(&mut out, get(t.base(n)));
            out.push_str("  ");
            let nc = n as usize * m;
            vc.push(&mut out, get(&cum[nc..nc + m]));
            out.push_str("  ");
            if lv > 0 {
                out.push_str(&indent[..lv.min(MAX_INDENT)]);
                out.push(' ');
            }
            out.push_str(profile.consumers.name(t.consumer(n)));
            out.push('\n');
            if out.len() >= FLUSH_AT {
                w.write_all(out.as_bytes())?;
                out.clear();
            }
        }
        while let Some(top) = path.pop() {
            on_path[t.consumer(top) as usize] -= 1;
        }
    }
    w.write_all(out.as_bytes())
}
