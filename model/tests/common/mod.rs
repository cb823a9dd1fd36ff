//! Shared test data: the arcflow paper's example (also the reports' tests', through `#[path]`).
#![allow(dead_code)]

use std::collections::BTreeMap;

use hpm_model::arcflow::Profile;
use hpm_model::text_trace::read_text_trace;

/// The paper's Figure 2 trace (`examples/figure2.trace`: the figure's records, with comment lines).
pub const FIGURE_2: &str = include_str!("../../../examples/figure2.trace");

/// The metric of the paper's example: CPU time in seconds.
pub const PAPER_METRIC: &str = "CPU time:s";

pub fn paper_profile() -> Profile {
    let t = read_text_trace(FIGURE_2.as_bytes(), &[PAPER_METRIC.to_string()]).expect("reading from memory");
    assert!(t.warnings.is_empty(), "{:?}", t.warnings);
    t.profile
}

/// Every context of every thread keyed by thread name and consumer *names* (consumer ids may differ
/// between two models of the same data).
pub fn named_contexts(p: &Profile) -> BTreeMap<(String, Vec<String>), (u64, Vec<u64>)> {
    let mut out = BTreeMap::new();
    for th in &p.threads {
        for (path, v) in th.tree.contexts() {
            let names = path.iter().map(|&c| p.consumers.name(c).to_string()).collect();
            let old = out.insert((th.name.clone(), names), v);
            assert!(old.is_none(), "two threads called {}", th.name);
        }
    }
    out
}
