//! Call trees split by phase: at each marker ([`super::Recorder::split_phase`]) every thread's
//! exact call tree is copied, and a phase's tree is the difference between the copies at its two
//! ends (the last phase ends at the snapshot). Trees only grow (calls and base values are sums),
//! so a phase's tree holds exactly what the thread recorded between the two markers, in the same
//! calling contexts.
//!
//! Memory: one copy of each thread's tree (the last split's) plus each closed phase's difference,
//! which holds only the contexts that phase touched. At most [`PHASE_LIMIT`] splits are made;
//! later markers leave the last phase open (and are counted).

use std::collections::BTreeMap;

use hpm_model::arcflow::{Bindings, ConsumerTable, NodeId, Profile, ThreadProfile, Tree};

/// Splits made at most; later markers do not split.
pub const PHASE_LIMIT: usize = 64;

/// One thread's tree as it is now, for a split or a snapshot: the recorder's thread id, what the
/// profile says of the thread, and its calls tree (its root not yet renamed).
pub(crate) struct ThreadCalls<'a> {
    pub id: u64,
    pub profile: ThreadProfile,
    pub tree: &'a Tree,
}

#[derive(Default)]
pub(crate) struct PhaseSplits {
    /// Each thread's calls tree at the last split, by recorder thread id.
    last: BTreeMap<u64, Tree>,
    /// The closed phases' trees (consumers left empty: a snapshot's table names them).
    closed: Vec<Vec<ThreadProfile>>,
    /// Markers past [`PHASE_LIMIT`] that did not split.
    pub ignored: u64,
}

impl PhaseSplits {
    /// Closes the phase under way at `threads` (every thread's tree now). False, and counted, past
    /// the limit.
    pub fn split(&mut self, threads: &[ThreadCalls]) -> bool {
        if self.closed.len() >= PHASE_LIMIT {
            self.ignored += 1;
            return false;
        }
        let phase = self.open_phase(threads);
        self.closed.push(phase);
        self.last = threads.iter().map(|t| (t.id, t.tree.clone())).collect();
        true
    }

    /// Whether any split was made.
    pub fn any(&self) -> bool {
        !self.closed.is_empty()
    }

    /// Every phase's profile: the closed ones, then the one under way at `threads`; empty when no
    /// marker split the run. Each thread appears in the phases in which it recorded something.
    pub fn profiles(&self, threads: &[ThreadCalls], bindings: &Bindings, consumers: &ConsumerTable) -> Vec<Profile> {
        if !self.any() {
            return Vec::new();
        }
        let open = self.open_phase(threads);
        self.closed
            .iter()
            .cloned()
            .chain(std::iter::once(open))
            .map(|threads| Profile { bindings: bindings.clone(), consumers: consumers.clone(), threads })
            .collect()
    }

    /// The trees of the phase under way: each thread's tree minus its copy at the last split.
    fn open_phase(&self, threads: &[ThreadCalls]) -> Vec<ThreadProfile> {
        threads
            .iter()
            .filter_map(|t| {
                let tree = tree_minus(t.tree, self.last.get(&t.id));
                (tree.len() > 1).then(|| ThreadProfile { tree, ..t.profile.clone() })
            })
            .collect()
    }
}

/// `later − earlier`, context by context: a tree with the contexts of `later` whose calls or base
/// values grew since `earlier` (an earlier copy of the same tree), with the growth, and the
/// contexts on the way to them. `earlier` None: all of `later`.
pub fn tree_minus(later: &Tree, earlier: Option<&Tree>) -> Tree {
    let m = later.metric_count();
    let mut out = Tree::new(later.consumer(Tree::ROOT), m);
    // Per node of `later`: its node in `earlier` (if there) and in `out` (once made).
    let mut in_earlier: Vec<Option<NodeId>> = vec![None; later.len()];
    let mut in_out: Vec<Option<NodeId>> = vec![None; later.len()];
    in_earlier[Tree::ROOT as usize] = earlier.map(|_| Tree::ROOT);
    in_out[Tree::ROOT as usize] = Some(Tree::ROOT);
    let mut delta = vec![0u64; m];
    for n in 0..later.len() as NodeId {
        if n != Tree::ROOT {
            // Arena order: a parent comes before its children.
            let p = later.parent(n).expect("only the root has no parent") as usize;
            in_earlier[n as usize] = match (earlier, in_earlier[p]) {
                (Some(e), Some(ep)) => e.find_child(ep, later.consumer(n)),
                _ => None,
            };
        }
        let (calls_before, base_before) = match (earlier, in_earlier[n as usize]) {
            (Some(e), Some(en)) => (e.calls(en), Some(e.base(en))),
            _ => (0, None),
        };
        let calls = later.calls(n).saturating_sub(calls_before);
        for (i, d) in delta.iter_mut().enumerate() {
            *d = later.base(n)[i].saturating_sub(base_before.map_or(0, |b| b[i]));
        }
        if calls == 0 && delta.iter().all(|&d| d == 0) {
            continue;
        }
        let at = made(later, &mut out, &mut in_out, n);
        out.add_calls(at, calls);
        out.add_base(at, &delta);
    }
    out
}

/// Node `n` of `later` in `out`, made with the path to it where missing.
fn made(later: &Tree, out: &mut Tree, in_out: &mut [Option<NodeId>], n: NodeId) -> NodeId {
    if let Some(o) = in_out[n as usize] {
        return o;
    }
    let p = later.parent(n).expect("only the root has no parent");
    let parent = made(later, out, in_out, p);
    let o = out.child(parent, later.consumer(n));
    in_out[n as usize] = Some(o);
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Charges `calls` and `base` to `path` (consumer ids under the root, 0); context keys start
    /// with the root.
    fn add(t: &mut Tree, path: &[u32], calls: u64, base: u64) {
        let n = t.descend(Tree::ROOT, path);
        t.add_calls(n, calls);
        t.add_base(n, &[base]);
    }

    #[test]
    fn a_phase_holds_what_grew_in_the_contexts_it_grew_in() {
        let mut t = Tree::new(0, 1);
        add(&mut t, &[1, 2], 3, 30);
        add(&mut t, &[1, 3], 1, 10);
        let before = t.clone();
        add(&mut t, &[1, 2], 2, 25);
        add(&mut t, &[4], 1, 7);
        let d = tree_minus(&t, Some(&before));
        let contexts = d.contexts();
        assert_eq!(contexts.get(&vec![0, 1, 2]), Some(&(2, vec![25])));
        assert_eq!(contexts.get(&vec![0, 4]), Some(&(1, vec![7])));
        // [1] is on the way to [1, 2] and grew by nothing itself; [1, 3] did not grow.
        assert_eq!(contexts.get(&vec![0, 1]), Some(&(0, vec![0])));
        assert!(!contexts.contains_key(&vec![0, 1, 3]), "{contexts:?}");
        d.check().unwrap();
        // Nothing before: the whole tree.
        assert_eq!(tree_minus(&t, None).contexts(), t.contexts());
    }

    /// Phases add up to the whole: the sum of the phases' trees is the tree at the end.
    #[test]
    fn phases_add_up_to_the_run_and_stop_splitting_at_the_limit() {
        let profile = |name: &str| ThreadProfile { name: name.into(), kind: None, os_tid: None, tree: Tree::new(0, 1) };
        let mut t = Tree::new(0, 1);
        let mut splits = PhaseSplits::default();
        for round in 1..=3u64 {
            add(&mut t, &[1, round as u32 + 1], round, round * 10);
            assert!(splits.split(&[ThreadCalls { id: 7, profile: profile("main"), tree: &t }]));
        }
        add(&mut t, &[1, 2], 5, 50);
        let phases = splits.profiles(&[ThreadCalls { id: 7, profile: profile("main"), tree: &t }], &Bindings::methods(vec![]), &ConsumerTable::new());
        assert_eq!(phases.len(), 4);
        let mut sum = Tree::new(0, 1);
        for p in &phases {
            assert_eq!(p.threads.len(), 1);
            sum.merge_from(Tree::ROOT, &p.threads[0].tree, Tree::ROOT);
        }
        assert_eq!(sum.contexts(), t.contexts());
        assert_eq!(phases[3].threads[0].tree.contexts().get(&vec![0, 1, 2]), Some(&(5, vec![50])));
        for _ in 3..PHASE_LIMIT {
            assert!(splits.split(&[ThreadCalls { id: 7, profile: profile("main"), tree: &t }]));
        }
        assert!(!splits.split(&[ThreadCalls { id: 7, profile: profile("main"), tree: &t }]));
        assert_eq!(splits.ignored, 1);
    }
}
