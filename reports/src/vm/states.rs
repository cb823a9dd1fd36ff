//! `sampled/states.txt`: where the sampled time went by thread state (running, in native,
//! blocked on a monitor, waiting in `Object.wait`, parked, sleeping), per thread and per method
//! charged, from the state-split sampled trees ([`Snapshot::sample_states`]): each sample's
//! context there ends in a node naming its state ([`state_node_name`]).
//!
//! [`Snapshot::sample_states`]: hpm_model::snapshot::Snapshot::sample_states
//! [`state_node_name`]: hpm_model::snapshot::state_node_name

use std::collections::BTreeMap;
use std::fmt::Write;

use hpm_model::arcflow::{Profile, Tree};
use hpm_model::snapshot::state_of_node;
use hpm_model::sampling::SampleState;

use super::ms;

/// Per state (in [`SampleState::ALL`] order): samples and time.
type PerState = [(u64, u64); SampleState::ALL.len()];

fn slot(state: SampleState) -> usize {
    SampleState::ALL.iter().position(|&s| s == state).unwrap_or(SampleState::ALL.len() - 1)
}

/// The report. Time is the `wall-time` the samples carried (else their first metric).
pub fn states(p: &Profile) -> String {
    let ti = p.bindings.metric_index("wall-time").unwrap_or(0);
    let time_name = p.bindings.metrics.get(ti).map_or("time", |m| m.name.as_str());
    let mut total: PerState = Default::default();
    let mut by_thread: Vec<(String, PerState)> = Vec::new();
    let mut by_method: BTreeMap<String, PerState> = BTreeMap::new();
    for th in &p.threads {
        let t = &th.tree;
        let mut mine: PerState = Default::default();
        for n in t.preorder().into_iter().skip(1) {
            let Some(state) = state_of_node(p.consumers.name(t.consumer(n))) else { continue };
            let (samples, time) = (t.calls(n), t.base(n).get(ti).copied().unwrap_or(0));
            let parent = t.parent(n).unwrap_or(Tree::ROOT);
            let method = if parent == Tree::ROOT { format!("(thread {}, no recorded method)", th.name) } else { p.consumers.name(t.consumer(parent)).to_string() };
            for per in [&mut total, &mut mine, by_method.entry(method).or_default()] {
                per[slot(state)].0 += samples;
                per[slot(state)].1 += time;
            }
        }
        if mine.iter().any(|&(n, _)| n > 0) {
            by_thread.push((th.name.clone(), mine));
        }
    }
    let sum = |per: &PerState| per.iter().fold((0, 0), |a, &(n, t)| (a.0 + n, a.1 + t));
    let mut s = String::new();
    let _ = writeln!(s, "Sampled time by thread state ({time_name}, ms)");
    let (n, t) = sum(&total);
    let _ = writeln!(s, "samples {n}");
    let _ = writeln!(s, "{time_name}-ms {}", ms(t));
    let _ = writeln!(s);
    let header = |s: &mut String, what: &str| {
        let mut line = format!("{:>10} {:>12}", "samples", format!("{time_name}-ms"));
        for st in SampleState::ALL {
            let _ = write!(line, " {:>10}", st.name());
        }
        let _ = writeln!(s, "{line}  {what}");
    };
    let row = |s: &mut String, per: &PerState, what: &str| {
        let (n, t) = sum(per);
        let mut line = format!("{n:>10} {:>12}", ms(t));
        for &(_, time) in per {
            let _ = write!(line, " {:>10}", ms(time));
        }
        let _ = writeln!(s, "{line}  {what}");
    };
    let _ = writeln!(s, "States: running (Java code or the VM on its behalf), native (in a native method), blocked");
    let _ = writeln!(s, "(entering a monitor), waiting (Object.wait), parked (LockSupport.park), sleeping");
    let _ = writeln!(s, "(Thread.sleep), unknown (the sampler could not tell).");
    let _ = writeln!(s);
    let _ = writeln!(s, "By thread:");
    header(&mut s, "thread");
    by_thread.sort_by(|a, b| sum(&b.1).1.cmp(&sum(&a.1).1).then(a.0.cmp(&b.0)));
    for (name, per) in &by_thread {
        row(&mut s, per, name);
    }
    let _ = writeln!(s);
    let _ = writeln!(s, "By method charged (the innermost recorded method of each sample):");
    header(&mut s, "method");
    let mut methods: Vec<_> = by_method.into_iter().collect();
    methods.sort_by(|a, b| sum(&b.1).1.cmp(&sum(&a.1).1).then(a.0.cmp(&b.0)));
    for (name, per) in &methods {
        row(&mut s, per, name);
    }
    s
}
