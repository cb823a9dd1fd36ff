//! Builders that fill a [`Tree`] from start/end events or from stack samples.

use super::{ConsumerId, NodeId, Tree};

/// What the builders noticed that did not fit a well-formed event stream.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BuildStats {
    /// Ends whose consumer was nowhere on the current path: ignored.
    pub unmatched_exits: u64,
    /// Frames closed implicitly because an end named a consumer further up the path (missed ends).
    pub implied_exits: u64,
    /// Metric reads lower than the previous read of the same thread: charged as 0.
    pub non_monotonic: u64,
}

/// What [`CursorBuilder::exit`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitOutcome {
    /// The end matched the current context.
    Matched,
    /// The end matched a context further up; this many frames in between were closed with it.
    ClosedMissing(u32),
    /// No context on the current path has this consumer; the event was ignored.
    Unmatched,
}

/// Builds a tree from start/end events, charging the metric deltas between events to the context
/// that was current in between. One per thread; the cursor is the current context, so the parent
/// links of the tree are the shadow stack.
#[derive(Debug, Clone)]
pub struct CursorBuilder {
    tree: Tree,
    cursor: NodeId,
    last: Box<[u64]>,
    stats: BuildStats,
}

impl CursorBuilder {
    /// Starts a builder on `tree` (usually a fresh thread tree) with the metric values at the start.
    /// The root is counted as entered once.
    pub fn new(mut tree: Tree, start: &[u64]) -> CursorBuilder {
        assert_eq!(start.len(), tree.metric_count(), "start values must match the tree's metrics");
        tree.add_calls(Tree::ROOT, 1);
        CursorBuilder { tree, cursor: Tree::ROOT, last: start.into(), stats: BuildStats::default() }
    }

    /// Charges the metrics consumed since the last event to the current context.
    #[inline]
    pub fn charge(&mut self, now: &[u64]) {
        debug_assert_eq!(now.len(), self.last.len());
        let CursorBuilder { tree, cursor, last, stats } = self;
        let base = tree.base_mut(*cursor);
        for ((b, l), &n) in base.iter_mut().zip(last.iter_mut()).zip(now) {
            if n < *l {
                stats.non_monotonic += 1;
            }
            *b = b.wrapping_add(n.saturating_sub(*l));
            *l = n;
        }
    }

    /// A start event for `consumer` with the metric values `now`.
    #[inline]
    pub fn enter(&mut self, consumer: ConsumerId, now: &[u64]) {
        self.charge(now);
        self.enter_uncharged(consumer);
    }

    /// A start event without metric values (the metrics were charged separately).
    #[inline]
    pub fn enter_uncharged(&mut self, consumer: ConsumerId) {
        let c = self.tree.child(self.cursor, consumer);
        self.tree.add_calls(c, 1);
        self.cursor = c;
    }

    /// An end event for `consumer` with the metric values `now`.
    #[inline]
    pub fn exit(&mut self, consumer: ConsumerId, now: &[u64]) -> ExitOutcome {
        self.charge(now);
        self.exit_uncharged(consumer)
    }

    /// An end event without metric values.
    #[inline]
    pub fn exit_uncharged(&mut self, consumer: ConsumerId) -> ExitOutcome {
        if self.cursor != Tree::ROOT && self.tree.consumer(self.cursor) == consumer {
            self.cursor = self.tree.parent(self.cursor).unwrap_or(Tree::ROOT);
            return ExitOutcome::Matched;
        }
        self.exit_slow(consumer)
    }

    #[cold]
    fn exit_slow(&mut self, consumer: ConsumerId) -> ExitOutcome {
        let mut n = self.cursor;
        let mut closed = 0u32;
        while n != Tree::ROOT {
            if self.tree.consumer(n) == consumer {
                self.stats.implied_exits += closed as u64;
                self.cursor = self.tree.parent(n).unwrap_or(Tree::ROOT);
                return ExitOutcome::ClosedMissing(closed);
            }
            closed += 1;
            n = self.tree.parent(n).unwrap_or(Tree::ROOT);
        }
        self.stats.unmatched_exits += 1;
        ExitOutcome::Unmatched
    }

    /// Closes every open context (e.g. at thread end), charging `now` to the current one first.
    pub fn unwind_all(&mut self, now: &[u64]) {
        self.charge(now);
        self.close_all();
    }

    /// Closes every open context without charging anything.
    pub fn close_all(&mut self) {
        self.cursor = Tree::ROOT;
    }

    /// Makes the context `path` (below the root) current without counting calls: for re-joining the
    /// real stack of a thread whose events were not all seen (recording resumed mid-call).
    pub fn move_to(&mut self, path: &[ConsumerId]) {
        self.cursor = self.tree.descend(Tree::ROOT, path);
    }

    /// Moves `values` (one per metric), already charged to `from`, onto the current context: a
    /// charge later found to belong to another context.
    pub fn move_charge(&mut self, from: NodeId, values: &[u64]) {
        if from == self.cursor {
            return;
        }
        for (b, v) in self.tree.base_mut(from).iter_mut().zip(values) {
            *b = b.wrapping_sub(*v);
        }
        let to = self.tree.base_mut(self.cursor);
        for (b, v) in to.iter_mut().zip(values) {
            *b = b.wrapping_add(*v);
        }
    }

    /// Adds `values` (one per metric, possibly fewer) to the base of context `node`, charged
    /// from outside the event stream (sampled amounts); an unknown node is ignored.
    pub fn add_base(&mut self, node: NodeId, values: &[u64]) {
        if (node as usize) < self.tree.len() {
            for (b, v) in self.tree.base_mut(node).iter_mut().zip(values) {
                *b = b.wrapping_add(*v);
            }
        }
    }

    /// The consumers from just below the root to the current context.
    pub fn path(&self) -> Vec<ConsumerId> {
        let mut p = self.tree.path(self.cursor);
        p.remove(0);
        p
    }

    /// Resets the metric baseline without charging anything (after a pause, the time spent paused
    /// belongs to no context).
    pub fn rebase(&mut self, now: &[u64]) {
        self.last.copy_from_slice(now);
    }

    pub fn current(&self) -> NodeId {
        self.cursor
    }
    /// Number of open contexts below the root.
    pub fn depth(&self) -> usize {
        self.tree.depth(self.cursor)
    }
    pub fn tree(&self) -> &Tree {
        &self.tree
    }

    /// The tree, to add to it outside the cursor (e.g. merging another thread's tree in).
    pub fn tree_mut(&mut self) -> &mut Tree {
        &mut self.tree
    }
    pub fn stats(&self) -> BuildStats {
        self.stats
    }
    pub fn last_values(&self) -> &[u64] {
        &self.last
    }
    pub fn into_tree(self) -> Tree {
        self.tree
    }
    /// Drops what was recorded and starts again with an empty tree (same root, counted as entered
    /// once, as by [`CursorBuilder::new`]), keeping the open contexts so that later ends still
    /// match: the path to the cursor is recreated with 0 calls. The metric baseline is kept.
    pub fn clear(&mut self) {
        let path = self.path();
        self.tree = Tree::new(self.tree.consumer(Tree::ROOT), self.tree.metric_count());
        self.tree.add_calls(Tree::ROOT, 1);
        self.move_to(&path);
        self.stats = BuildStats::default();
    }

    /// [`CursorBuilder::clear`], then the baseline becomes `now`.
    pub fn reset(&mut self, now: &[u64]) {
        self.clear();
        self.rebase(now);
    }
}

/// Builds a tree from stack samples: each sample is a full path below the root with a weight per
/// metric charged to its leaf.
///
/// Calls count *observed entries*: a context is counted as entered when a sample contains it and the
/// previous sample did not reach it through the same path. With a sample at every start and end
/// event (zero weights allowed) this equals the true call count, which is how the three builders are
/// checked against each other; for timer samples it is a lower bound.
#[derive(Debug, Clone)]
pub struct SampleBuilder {
    tree: Tree,
    previous: Vec<NodeId>,
    scratch: Vec<NodeId>,
}

impl SampleBuilder {
    /// The root is counted as entered once.
    pub fn new(mut tree: Tree) -> SampleBuilder {
        tree.add_calls(Tree::ROOT, 1);
        SampleBuilder { tree, previous: Vec::new(), scratch: Vec::new() }
    }

    /// Adds one sample: `path` from just below the root to the leaf, `weights` one per metric.
    pub fn add(&mut self, path: &[ConsumerId], weights: &[u64]) {
        self.scratch.clear();
        let mut n = Tree::ROOT;
        let mut diverged = false;
        for (i, &c) in path.iter().enumerate() {
            n = self.tree.child(n, c);
            diverged = diverged || self.previous.get(i) != Some(&n);
            if diverged {
                self.tree.add_calls(n, 1);
            }
            self.scratch.push(n);
        }
        self.tree.add_base(n, weights);
        std::mem::swap(&mut self.previous, &mut self.scratch);
    }

    pub fn tree(&self) -> &Tree {
        &self.tree
    }
    pub fn into_tree(self) -> Tree {
        self.tree
    }
}
