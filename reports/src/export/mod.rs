//! Exports of the arcflow model (and of quantum traces) to the formats of viewers people already
//! use, one module per format. Each is a pure function of a
//! [`Profile`](hpm_model::arcflow::Profile) (or a quantum `Trace`) that writes bytes; `hpm export`
//! (`hpm/src/cli/export.rs`) chooses the threads and the file. See `docs/exports.md` for what maps
//! to what and what is lost.
//!
//! | format | module | opened with |
//! |---|---|---|
//! | pprof (`profile.proto`, gzipped) | [`pprof`] | `go tool pprof`, pprof's web UI |
//! | speedscope JSON | [`speedscope`] | speedscope.app, the `speedscope` command |
//! | Firefox Profiler processed profile | [`firefox`] | profiler.firefox.com |
//! | callgrind (every metric an event) | [`callgrind`] | KCachegrind, QCachegrind, `callgrind_annotate` |
//! | Chrome trace events (quantum traces) | [`chrome_trace`] | Perfetto UI and trace processor, chrome://tracing |

pub mod callgrind;
pub mod chrome_trace;
pub mod firefox;
pub mod pprof;
pub mod speedscope;

use hpm_model::arcflow::{Metric, NodeId};

/// What an export shows besides the profile's threads (chosen before the export is called).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExportOptions {
    /// The metric a format with one weight per sample shows, and the one a multi-metric format
    /// shows first (index into `profile.bindings.metrics`).
    pub metric: usize,
    /// In formats with a stack per sample, contexts deeper than this many frames are charged to a
    /// `(deeper)` frame under their ancestor at that depth, as in collapsed.txt, so that the file
    /// stays linear in the tree's size however deep the recursion; 0: no limit.
    pub max_stack_depth: usize,
}

/// The frame that stands for the frames below the depth limit (the same as collapsed.txt's).
pub const DEEPER: &str = crate::collapsed::DEEPER;

/// A consumer name split for viewers that know classes and methods: `calls.Work$Key.compareTo(java.lang.Object)`
/// is class `calls.Work$Key`, method `compareTo(java.lang.Object)`. A name without a `.` before its
/// parameter list (a thread, a monitor class's simple name) has no class, nor has a native code
/// frame (`symbol [library]`, `[library+0x…]`).
pub fn split_consumer(name: &str) -> (Option<&str>, &str) {
    if name.ends_with(']') {
        return (None, name);
    }
    let params = name.find('(').unwrap_or(name.len());
    match name[..params].rfind('.') {
        Some(dot) if dot > 0 => (Some(&name[..dot]), &name[dot + 1..]),
        _ => (None, name),
    }
}

/// A sampled frame named with its source line (`sample-lines=on`: `Class.method:LINE`) split into
/// the method's name and the line, for formats with a place for lines; other names have none.
pub fn split_line(name: &str) -> (&str, Option<u32>) {
    match name.rsplit_once(':') {
        Some((method, line)) if !method.is_empty() && !line.is_empty() && line.bytes().all(|b| b.is_ascii_digit()) => (method, line.parse().ok()),
        _ => (name, None),
    }
}

/// The unit of a metric spelled as pprof and speedscope spell it, when they know it.
pub fn standard_unit(metric: &Metric) -> Option<&'static str> {
    match metric.unit.as_str() {
        "ns" | "nanoseconds" => Some("nanoseconds"),
        "bytes" | "B" | "byte" => Some("bytes"),
        _ => None,
    }
}

/// Every node of a thread's tree in pre-order with its path from the thread's root (root first, the
/// node last), calling `visit(node, path, deeper)`. With a `max_depth` (> 0) a longer path is cut to
/// its first `max_depth` nodes and `deeper` is true: the exporter adds a [`DEEPER`] frame. Memory
/// is proportional to the depth.
pub fn for_each_context(tree: &hpm_model::arcflow::Tree, max_depth: usize, mut visit: impl FnMut(NodeId, &[NodeId], bool)) {
    let cap = if max_depth == 0 { usize::MAX } else { max_depth };
    let mut path: Vec<NodeId> = Vec::new();
    for n in tree.preorder() {
        let parent = tree.parent(n);
        while path.last().is_some_and(|&top| Some(top) != parent) {
            path.pop();
        }
        path.push(n);
        visit(n, &path[..path.len().min(cap)], path.len() > cap);
    }
}

/// True when a context has anything to show: calls or a nonzero base value.
pub fn has_cost(tree: &hpm_model::arcflow::Tree, n: NodeId) -> bool {
    tree.calls(n) > 0 || tree.base(n).iter().any(|&v| v > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_class_and_method() {
        assert_eq!(split_consumer("calls.Work.fib"), (Some("calls.Work"), "fib"));
        assert_eq!(split_consumer("calls.Work$Key.compareTo(java.lang.Object)"), (Some("calls.Work$Key"), "compareTo(java.lang.Object)"));
        assert_eq!(split_consumer("main"), (None, "main"));
        assert_eq!(split_consumer("Notification Thread"), (None, "Notification Thread"));
        assert_eq!(split_consumer(".x"), (None, ".x"));
    }
}
