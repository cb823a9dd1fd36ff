//! Folded stacks (`collapsed.txt`), the input format of Brendan Gregg's and inferno's flame graphs.
//!
//! One line per context with a nonzero base of the chosen metric: the consumer path from the thread
//! down, separated by `;`, a space, and the base value as an integer:
//!
//! ```text
//! AC_test_pidtid;Main;A 1
//! AC_test_pidtid;Main;A;B 2
//! ```
//!
//! Lines come in tree pre-order. A `;` inside a consumer name (Java descriptors have them) is written
//! as `,`, and line breaks and tabs as spaces, so that every line parses. Contexts deeper than
//! [`ReportOptions::max_stack_depth`] frames are folded into one `(deeper)` frame under their
//! ancestor at that depth, so that the file stays linear in the size of the tree even for deep
//! recursion. Without a limit the file of a deep chain grows with the square of its depth; it is
//! written as it is produced ([`write`]), so memory stays proportional to the depth.

use std::io::{self, Write};

use hpm_model::arcflow::{NodeId, Profile};

use crate::ReportOptions;

/// The frame that stands for everything below the depth limit.
pub const DEEPER: &str = "(deeper)";

/// Renders folded stacks for `opts.metric`.
pub fn render(profile: &Profile, opts: &ReportOptions) -> String {
    let mut out = Vec::new();
    write(profile, opts, &mut out).expect("writing to memory");
    String::from_utf8(out).expect("frames are UTF-8")
}

/// Writes folded stacks for `opts.metric` to `out` line by line (give it a buffered writer).
pub fn write(profile: &Profile, opts: &ReportOptions, out: &mut dyn Write) -> io::Result<()> {
    let metric = opts.metric;
    let cap = if opts.max_stack_depth == 0 { usize::MAX } else { opts.max_stack_depth };
    let names: Vec<String> = (0..profile.consumers.len() as u32).map(|c| frame_name(profile.consumers.name(c))).collect();
    let mut buf = String::new();
    // (node, buffer length before this node's frame, depth)
    let mut path: Vec<(NodeId, usize)> = Vec::new();
    for th in &profile.threads {
        let t = &th.tree;
        let mut pending = 0u64;
        for n in t.preorder() {
            let parent = t.parent(n);
            while let Some(&(top, len)) = path.last() {
                if Some(top) == parent {
                    break;
                }
                if path.len() == cap && pending > 0 {
                    writeln!(out, "{buf};{DEEPER} {pending}")?;
                    pending = 0;
                }
                buf.truncate(len);
                path.pop();
            }
            let frames = path.len() + 1;
            let v = t.base(n).get(metric).copied().unwrap_or(0);
            path.push((n, buf.len()));
            if frames > cap {
                pending = pending.wrapping_add(v);
                continue;
            }
            if !buf.is_empty() {
                buf.push(';');
            }
            buf.push_str(&names[t.consumer(n) as usize]);
            if v > 0 {
                writeln!(out, "{buf} {v}")?;
            }
        }
        while let Some((_, len)) = path.pop() {
            if path.len() + 1 == cap && pending > 0 {
                writeln!(out, "{buf};{DEEPER} {pending}")?;
                pending = 0;
            }
            buf.truncate(len);
        }
        buf.clear();
    }
    Ok(())
}

/// A consumer name as a folded-stack frame: no `;`, no line breaks.
pub fn frame_name(name: &str) -> String {
    name.chars()
        .map(|c| match c {
            ';' => ',',
            '\n' | '\r' | '\t' => ' ',
            c => c,
        })
        .collect()
}
