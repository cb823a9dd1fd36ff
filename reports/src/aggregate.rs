//! Per-consumer totals and parent/child arcs: the numbers behind xarc and xprof.
//!
//! A consumer (method, thread, …) can occur in many contexts of many thread trees; the aggregate sums
//! them by consumer id across all threads of a profile. Threads are consumers like any other: a
//! thread's root node gives it a stanza whose children are the methods it entered first; roots have
//! no parent rows.
//!
//! # Recursion
//!
//! A consumer `S` may occur several times on one path (recursion, direct or through other
//! consumers). Summing cum over every `S` node would count the work below an inner `S` once for each
//! enclosing `S`, so cum is taken only from *outermost* `S` nodes (those with no `S` ancestor):
//!
//! - **self** row of `S`: calls = Σ calls of all `S` nodes; base = Σ base of all `S` nodes;
//!   cum = Σ cum of the outermost `S` nodes.
//! - **parent** row `P` of `S`: calls and base = Σ over the `S` nodes whose parent is a `P` node;
//!   cum = Σ cum of those of them that are outermost.
//! - **child** row `C` of `S`: calls and base = Σ over the `C` nodes whose parent is an `S` node;
//!   cum = Σ over those `C` nodes of (cum of the `C` node − cum of the topmost `S` nodes inside its
//!   subtree). Work that re-enters `S` is already inside `S`'s own cum; it is not attributed to the
//!   child a second time. A self-recursive arc `S → S` therefore has child cum 0.
//!
//! With these rules the four xarc invariants hold exactly, recursion or not, for every consumer that
//! is not a thread root: Σ parent calls = self calls; Σ parent base = self base; Σ parent cum =
//! self cum; Σ child cum = self cum − self base (the last one holds for roots too).
//!
//! All sums are over `u64` with wrapping arithmetic for the intermediate subtractions of child cum;
//! the final values are exact as long as the totals fit in a `u64`.

use hpm_collectors::arcflow::{ConsumerId, NodeId, Profile, Tree};
use rustc_hash::FxHashMap;

const NONE: u32 = u32::MAX;

/// Calls, base and cum of one row, for every metric.
#[derive(Debug, Clone, Copy)]
pub struct Row<'a> {
    /// The consumer this row names (the self consumer, a parent or a child).
    pub consumer: ConsumerId,
    pub calls: u64,
    pub base: &'a [u64],
    pub cum: &'a [u64],
}

#[derive(Debug, Clone, Copy)]
struct ArcKey {
    parent: ConsumerId,
    child: ConsumerId,
    calls: u64,
}

/// The aggregate of a profile: one self row per consumer present and the arcs between consumers.
#[derive(Debug, Clone)]
pub struct Aggregate {
    metrics: usize,
    present: Vec<bool>,
    calls: Vec<u64>,
    base: Vec<u64>,
    cum: Vec<u64>,
    roots: Vec<bool>,
    arcs: Vec<ArcKey>,
    arc_base: Vec<u64>,
    /// Cum of the arc as a parent row of its child consumer.
    arc_parent_cum: Vec<u64>,
    /// Cum of the arc as a child row of its parent consumer.
    arc_child_cum: Vec<u64>,
    parents_of: Vec<Vec<u32>>,
    children_of: Vec<Vec<u32>>,
}

impl Aggregate {
    /// Aggregates every thread of `profile`.
    pub fn new(profile: &Profile) -> Aggregate {
        let m = profile.metric_count();
        let n = profile.consumers.len();
        let mut a = Aggregate {
            metrics: m,
            present: vec![false; n],
            calls: vec![0; n],
            base: vec![0; n * m],
            cum: vec![0; n * m],
            roots: vec![false; n],
            arcs: Vec::new(),
            arc_base: Vec::new(),
            arc_parent_cum: Vec::new(),
            arc_child_cum: Vec::new(),
            parents_of: Vec::new(),
            children_of: Vec::new(),
        };
        let mut index: FxHashMap<u64, u32> = FxHashMap::default();
        let mut last_depth = vec![NONE; n];
        for th in &profile.threads {
            a.add_tree(&th.tree, &mut index, &mut last_depth);
        }
        let mut parents_of = vec![Vec::new(); n];
        let mut children_of = vec![Vec::new(); n];
        for (i, arc) in a.arcs.iter().enumerate() {
            parents_of[arc.child as usize].push(i as u32);
            children_of[arc.parent as usize].push(i as u32);
        }
        a.parents_of = parents_of;
        a.children_of = children_of;
        a
    }

    fn arc(&mut self, index: &mut FxHashMap<u64, u32>, parent: ConsumerId, child: ConsumerId) -> usize {
        let key = ((parent as u64) << 32) | child as u64;
        let m = self.metrics;
        let next = self.arcs.len() as u32;
        let i = *index.entry(key).or_insert(next);
        if i == next {
            self.arcs.push(ArcKey { parent, child, calls: 0 });
            self.arc_base.extend(std::iter::repeat_n(0, m));
            self.arc_parent_cum.extend(std::iter::repeat_n(0, m));
            self.arc_child_cum.extend(std::iter::repeat_n(0, m));
        }
        i as usize
    }

    fn add_tree(&mut self, t: &Tree, index: &mut FxHashMap<u64, u32>, last_depth: &mut [u32]) {
        let m = self.metrics;
        let cum = t.cum();
        // The current path: (node, depth of the previous node with the same consumer on the path).
        let mut path: Vec<(NodeId, u32)> = Vec::new();
        for n in t.preorder() {
            let parent = t.parent(n);
            while let Some(&(top, saved)) = path.last() {
                if Some(top) == parent {
                    break;
                }
                last_depth[t.consumer(top) as usize] = saved;
                path.pop();
            }
            let c = t.consumer(n);
            let ci = c as usize;
            let depth = path.len() as u32;
            let anc = last_depth[ci];
            let outermost = anc == NONE;
            let ncum = &cum[n as usize * m..n as usize * m + m];
            let nbase = t.base(n);

            self.present[ci] = true;
            self.calls[ci] = self.calls[ci].wrapping_add(t.calls(n));
            add(&mut self.base[ci * m..ci * m + m], nbase);
            if outermost {
                add(&mut self.cum[ci * m..ci * m + m], ncum);
            }
            match parent {
                None => self.roots[ci] = true,
                Some(p) => {
                    let i = self.arc(index, t.consumer(p), c);
                    self.arcs[i].calls = self.arcs[i].calls.wrapping_add(t.calls(n));
                    add(&mut self.arc_base[i * m..i * m + m], nbase);
                    add(&mut self.arc_child_cum[i * m..i * m + m], ncum);
                    if outermost {
                        add(&mut self.arc_parent_cum[i * m..i * m + m], ncum);
                    }
                }
            }
            if !outermost {
                // n is a topmost S node inside the subtree of `via`, the child of the nearest
                // enclosing S node on the path: its cum is not part of the child row S → via.
                let via_depth = anc as usize + 1;
                let via = if via_depth == depth as usize { n } else { path[via_depth].0 };
                let i = self.arc(index, c, t.consumer(via));
                sub(&mut self.arc_child_cum[i * m..i * m + m], ncum);
            }
            path.push((n, anc));
            last_depth[ci] = depth;
        }
        while let Some((top, saved)) = path.pop() {
            last_depth[t.consumer(top) as usize] = saved;
        }
    }

    pub fn metric_count(&self) -> usize {
        self.metrics
    }

    /// Whether `c` occurs in any tree.
    pub fn is_present(&self, c: ConsumerId) -> bool {
        self.present.get(c as usize).copied().unwrap_or(false)
    }

    /// Whether `c` is the root of some thread tree.
    pub fn is_root(&self, c: ConsumerId) -> bool {
        self.roots.get(c as usize).copied().unwrap_or(false)
    }

    /// The self row of `c` (zeros if `c` does not occur).
    pub fn self_row(&self, c: ConsumerId) -> Row<'_> {
        let m = self.metrics;
        let i = c as usize;
        Row { consumer: c, calls: self.calls[i], base: &self.base[i * m..i * m + m], cum: &self.cum[i * m..i * m + m] }
    }

    /// The parent rows of `c`, unsorted: one per consumer that calls `c`.
    pub fn parents(&self, c: ConsumerId) -> Vec<Row<'_>> {
        let m = self.metrics;
        self.parents_of[c as usize]
            .iter()
            .map(|&i| {
                let i = i as usize;
                let a = self.arcs[i];
                Row {
                    consumer: a.parent,
                    calls: a.calls,
                    base: &self.arc_base[i * m..i * m + m],
                    cum: &self.arc_parent_cum[i * m..i * m + m],
                }
            })
            .collect()
    }

    /// The child rows of `c`, unsorted: one per consumer that `c` calls.
    pub fn children(&self, c: ConsumerId) -> Vec<Row<'_>> {
        let m = self.metrics;
        self.children_of[c as usize]
            .iter()
            .map(|&i| {
                let i = i as usize;
                let a = self.arcs[i];
                Row {
                    consumer: a.child,
                    calls: a.calls,
                    base: &self.arc_base[i * m..i * m + m],
                    cum: &self.arc_child_cum[i * m..i * m + m],
                }
            })
            .collect()
    }

    /// The consumers present, in report order for `metric`: cum descending, then base descending,
    /// then calls descending, then name. A consumer's position in this list is its stanza number
    /// (`[n]` in xarc, `Ind` in xprof).
    pub fn order(&self, profile: &Profile, metric: usize) -> Vec<ConsumerId> {
        let m = self.metrics;
        let mut v: Vec<ConsumerId> = (0..self.present.len() as u32).filter(|&c| self.present[c as usize]).collect();
        let key = |c: ConsumerId| {
            let i = c as usize;
            let (b, k) = if metric < m { (self.base[i * m + metric], self.cum[i * m + metric]) } else { (0, 0) };
            (k, b, self.calls[i])
        };
        v.sort_by(|&x, &y| {
            key(y).cmp(&key(x)).then_with(|| profile.consumers.name(x).cmp(profile.consumers.name(y)))
        });
        v
    }

    /// Stanza numbers: `index[c]` is the position of consumer `c` in `order`, or `u32::MAX`.
    pub fn stanza_numbers(&self, order: &[ConsumerId]) -> Vec<u32> {
        let mut idx = vec![NONE; self.present.len()];
        for (i, &c) in order.iter().enumerate() {
            idx[c as usize] = i as u32;
        }
        idx
    }
}

#[inline]
fn add(acc: &mut [u64], v: &[u64]) {
    for (a, b) in acc.iter_mut().zip(v) {
        *a = a.wrapping_add(*b);
    }
}

#[inline]
fn sub(acc: &mut [u64], v: &[u64]) {
    for (a, b) in acc.iter_mut().zip(v) {
        *a = a.wrapping_sub(*b);
    }
}
