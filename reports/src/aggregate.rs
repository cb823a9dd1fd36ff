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
//! the final values are exact as long as the totals fit in a `u64`, which `write_reports` checks
//! first ([`crate::overflowing_sums`]).

use hpm_model::arcflow::{ConsumerId, NodeId, Profile, Tree};
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
}

/// The aggregate of a profile: one self row per consumer present and the arcs between consumers.
///
/// Rows are stored record by record (calls, then base, then cum for every metric) so that updating
/// one touches one or two cache lines.
#[derive(Debug, Clone)]
pub struct Aggregate {
    metrics: usize,
    present: Vec<bool>,
    roots: Vec<bool>,
    /// Per consumer: `[calls, base[0..m], cum[0..m]]`.
    selfs: Vec<u64>,
    arcs: Vec<ArcKey>,
    /// Per arc: `[calls, base[0..m], parent-row cum[0..m], child-row cum[0..m]]`.
    arc_data: Vec<u64>,
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
            roots: vec![false; n],
            selfs: vec![0; n * (1 + 2 * m)],
            arcs: Vec::new(),
            arc_data: Vec::new(),
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
        let next = self.arcs.len() as u32;
        let i = *index.entry(key).or_insert(next);
        if i == next {
            self.arcs.push(ArcKey { parent, child });
            self.arc_data.extend(std::iter::repeat_n(0, 1 + 3 * self.metrics));
        }
        i as usize
    }

    fn add_tree(&mut self, t: &Tree, index: &mut FxHashMap<u64, u32>, last_depth: &mut [u32]) {
        let m = self.metrics;
        let ss = 1 + 2 * m;
        let as_ = 1 + 3 * m;
        let cum = t.cum();
        // The arc (parent consumer → consumer) of each node.
        let mut arc_of = vec![u32::MAX; t.len()];
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
            let calls = t.calls(n);

            self.present[ci] = true;
            let rec = &mut self.selfs[ci * ss..ci * ss + ss];
            rec[0] = rec[0].wrapping_add(calls);
            add(&mut rec[1..1 + m], nbase);
            if outermost {
                add(&mut rec[1 + m..1 + 2 * m], ncum);
            }
            match parent {
                None => self.roots[ci] = true,
                Some(p) => {
                    let i = self.arc(index, t.consumer(p), c);
                    arc_of[n as usize] = i as u32;
                    let rec = &mut self.arc_data[i * as_..i * as_ + as_];
                    rec[0] = rec[0].wrapping_add(calls);
                    add(&mut rec[1..1 + m], nbase);
                    if outermost {
                        add(&mut rec[1 + m..1 + 2 * m], ncum);
                    }
                    add(&mut rec[1 + 2 * m..1 + 3 * m], ncum);
                }
            }
            if !outermost {
                // n is a topmost S node inside the subtree of `via`, the child of the nearest
                // enclosing S node on the path: its cum is not part of the child row S → via.
                let via_depth = anc as usize + 1;
                let via = if via_depth == depth as usize { n } else { path[via_depth].0 };
                let i = arc_of[via as usize] as usize;
                sub(&mut self.arc_data[i * as_ + 1 + 2 * m..i * as_ + 1 + 3 * m], ncum);
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
        let ss = 1 + 2 * m;
        let r = &self.selfs[c as usize * ss..c as usize * ss + ss];
        Row { consumer: c, calls: r[0], base: &r[1..1 + m], cum: &r[1 + m..1 + 2 * m] }
    }

    /// The parent rows of `c`, unsorted: one per consumer that calls `c`.
    pub fn parents(&self, c: ConsumerId) -> Vec<Row<'_>> {
        let m = self.metrics;
        self.parents_of[c as usize]
            .iter()
            .map(|&i| {
                let i = i as usize;
                let r = &self.arc_data[i * (1 + 3 * m)..(i + 1) * (1 + 3 * m)];
                Row { consumer: self.arcs[i].parent, calls: r[0], base: &r[1..1 + m], cum: &r[1 + m..1 + 2 * m] }
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
                let r = &self.arc_data[i * (1 + 3 * m)..(i + 1) * (1 + 3 * m)];
                Row { consumer: self.arcs[i].child, calls: r[0], base: &r[1..1 + m], cum: &r[1 + 2 * m..1 + 3 * m] }
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
            let r = self.self_row(c);
            let (b, k) = if metric < m { (r.base[metric], r.cum[metric]) } else { (0, 0) };
            (k, b, r.calls)
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
