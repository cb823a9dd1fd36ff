//! Reader for raw start/end traces in the text format of the arcflow paper's Figure 2.
//!
//! One record per line: `<value>... <kind> <name>`, where the leading whitespace-separated numbers are
//! the metric values (one per metric, the same count on every line), and `kind` is
//!
//! - `>`: start of `name` (a method entry),
//! - `<`: end of `name`,
//! - `pidtid`: switch to the process/thread `name`; the records that follow belong to it.
//!
//! Values grow monotonically *per thread*: the difference between two records of the same thread is
//! charged to the context that was current in between. The value on a `pidtid` record is the incoming
//! thread's level at the switch: for a thread seen before, anything it consumed after its last record
//! is charged to its current context; a new thread starts there. The thread consumer is named
//! `<name>_pidtid`, as in the paper's reports. Blank lines and lines starting with `#` are skipped.
//!
//! Malformed lines are skipped with a warning naming the line number; an end that matches no open
//! context is ignored with a warning. Reading never panics on bad input.

use std::io::BufRead;

use crate::arcflow::{Bindings, CursorBuilder, ExitOutcome, Metric, Profile, Tree};

/// The model built from a text trace and what was wrong with the input.
#[derive(Debug)]
pub struct TextTrace {
    pub profile: Profile,
    pub warnings: Vec<String>,
    pub records: u64,
}

/// Input quoted in a message is cut after this many characters.
pub const QUOTE_CHARS: usize = 80;

/// Input as quoted in a message: at most [`QUOTE_CHARS`] characters, then `…`, so that a huge bad
/// line is not echoed whole.
pub fn excerpt(input: &str) -> std::borrow::Cow<'_, str> {
    match input.char_indices().nth(QUOTE_CHARS) {
        Some((cut, _)) => format!("{}…", &input[..cut]).into(),
        None => input.into(),
    }
}

/// At most this many warnings are kept; the rest are counted in one final line.
const MAX_WARNINGS: usize = 100;

struct ThreadState {
    index: usize,
    builder: CursorBuilder,
}

/// Reads a text trace. `metric_names` names the value columns (`metric`, `metric2`, … when fewer
/// names than columns are given); units are left empty unless given as `name:unit`.
pub fn read_text_trace(input: impl BufRead, metric_names: &[String]) -> std::io::Result<TextTrace> {
    let mut warnings = Vec::new();
    let mut suppressed = 0u64;
    let mut warn = |msg: String| {
        if warnings.len() < MAX_WARNINGS {
            warnings.push(msg);
        } else {
            suppressed += 1;
        }
    };
    let mut columns: Option<usize> = None;
    let mut profile: Option<Profile> = None;
    let mut threads: Vec<ThreadState> = Vec::new();
    let mut current: Option<usize> = None;
    let mut records = 0u64;
    let mut values: Vec<u64> = Vec::new();

    for (lineno, line) in input.lines().enumerate() {
        let lineno = lineno + 1;
        let line = match line {
            Ok(l) => l,
            Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                warn(format!("line {lineno}: not UTF-8 text, skipped"));
                continue;
            }
            Err(e) => return Err(e),
        };
        let text = line.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        // Leading numeric fields are values; then the kind; the rest of the line is the name.
        values.clear();
        let mut rest = text;
        let mut bad_number = None;
        loop {
            let (tok, after) = split_token(rest);
            if tok.is_empty() {
                break;
            }
            if tok.as_bytes()[0].is_ascii_digit() || (tok.starts_with('-') && tok.len() > 1 && tok != "->") {
                match tok.parse::<u64>() {
                    Ok(v) => values.push(v),
                    Err(_) => {
                        bad_number = Some(tok.to_string());
                        break;
                    }
                }
                rest = after;
            } else {
                break;
            }
        }
        if let Some(tok) = bad_number {
            warn(format!("line {lineno}: `{}` is not a non-negative whole number, skipped: {}", excerpt(&tok), excerpt(text)));
            continue;
        }
        let (kind, after) = split_token(rest);
        let name = after.trim();
        if values.is_empty() {
            warn(format!("line {lineno}: no metric value, skipped: {}", excerpt(text)));
            continue;
        }
        if !matches!(kind, ">" | "<" | "pidtid") {
            warn(format!("line {lineno}: unknown record kind `{}` (expected `>`, `<` or `pidtid`), skipped: {}", excerpt(kind), excerpt(text)));
            continue;
        }
        if name.is_empty() {
            warn(format!("line {lineno}: record without a name, skipped: {}", excerpt(text)));
            continue;
        }
        let m = *columns.get_or_insert(values.len());
        if values.len() != m {
            warn(format!("line {lineno}: {} values where earlier lines have {m}, skipped: {}", values.len(), excerpt(text)));
            continue;
        }
        let profile = profile.get_or_insert_with(|| Profile::new(bindings_for(m, metric_names)));
        records += 1;

        if kind == "pidtid" {
            let label = format!("{name}_pidtid");
            match threads.iter().position(|t| profile.threads[t.index].name == label) {
                Some(i) => {
                    threads[i].builder.charge(&values);
                    current = Some(i);
                }
                None => {
                    current = Some(new_thread(profile, &mut threads, &label, &values));
                }
            }
            continue;
        }
        let t = match current {
            Some(t) => t,
            None => {
                warn(format!("line {lineno}: record before any `pidtid` record: charged to thread `unknown_pidtid`"));
                let t = new_thread(profile, &mut threads, "unknown_pidtid", &values);
                current = Some(t);
                t
            }
        };
        let id = profile.consumers.intern(name);
        let builder = &mut threads[t].builder;
        let before = builder.stats().non_monotonic;
        if kind == ">" {
            builder.enter(id, &values);
        } else {
            match builder.exit(id, &values) {
                ExitOutcome::Matched => {}
                ExitOutcome::ClosedMissing(n) => {
                    warn(format!("line {lineno}: end of `{}` also closes {n} context(s) opened after it that had no end", excerpt(name)))
                }
                ExitOutcome::Unmatched => warn(format!("line {lineno}: end of `{}` without a matching start, ignored", excerpt(name))),
            }
        }
        if builder.stats().non_monotonic > before {
            warn(format!("line {lineno}: metric value went down on this thread; charged 0"));
        }
    }

    let mut profile = profile.unwrap_or_else(|| Profile::new(bindings_for(1, metric_names)));
    for t in threads {
        let depth = t.builder.depth();
        let name = profile.threads[t.index].name.clone();
        if depth > 0 {
            warn(format!("thread `{}`: {depth} context(s) still open at the end of the trace", excerpt(&name)));
        }
        profile.threads[t.index].tree = t.builder.into_tree();
    }
    if suppressed > 0 {
        warnings.push(format!("… and {suppressed} more warnings"));
    }
    Ok(TextTrace { profile, warnings, records })
}

fn new_thread(profile: &mut Profile, threads: &mut Vec<ThreadState>, label: &str, values: &[u64]) -> usize {
    let index = profile.add_thread(label);
    let tree: Tree = profile.threads[index].tree.clone();
    threads.push(ThreadState { index, builder: CursorBuilder::new(tree, values) });
    threads.len() - 1
}

fn bindings_for(columns: usize, names: &[String]) -> Bindings {
    let metrics = (0..columns)
        .map(|i| match names.get(i) {
            Some(n) => match n.split_once(':') {
                Some((name, unit)) => Metric::new(name, unit),
                None => Metric::new(n.as_str(), ""),
            },
            None if i == 0 => Metric::new("metric", ""),
            None => Metric::new(format!("metric{}", i + 1), ""),
        })
        .collect();
    Bindings::methods(metrics)
}

fn split_token(s: &str) -> (&str, &str) {
    let s = s.trim_start();
    match s.find(char::is_whitespace) {
        Some(i) => (&s[..i], &s[i..]),
        None => (s, ""),
    }
}
