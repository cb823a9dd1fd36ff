//! The calling-context tree: an arena of nodes with calls and one base value per metric.

use hashbrown::HashTable;

use super::{ConsumerId, NodeId, NO_NODE};

/// A node's structural part. Base values live in [`Tree::base`] so that the node itself stays
/// 32 bytes whatever the number of metrics.
#[derive(Debug, Clone, Copy)]
struct Node {
    consumer: ConsumerId,
    parent: NodeId,
    first_child: NodeId,
    next_sibling: NodeId,
    /// The child most recently found from this node: the common case of a context entering the same
    /// callee again (a loop) is answered without a search.
    last_hit: NodeId,
    children: u32,
    calls: u64,
}

/// Nodes with more children than this are looked up through [`Tree::index`]; smaller ones by
/// scanning their sibling list, which is faster and costs no memory.
const SCAN_LIMIT: u32 = 8;

/// Hash of a (parent, consumer) pair for the child index (a splitmix64 finaliser: hashbrown uses
/// both the high bits and the low bits of the hash).
#[inline]
fn hash(parent: NodeId, consumer: ConsumerId) -> u64 {
    let mut h = ((parent as u64) << 32) | consumer as u64;
    h = (h ^ (h >> 30)).wrapping_mul(0xbf58476d1ce4e5b9);
    h = (h ^ (h >> 27)).wrapping_mul(0x94d049bb133111eb);
    h ^ (h >> 31)
}

/// One calling-context tree. Node 0 is the root (for a thread tree, the thread itself).
///
/// Children are always created after their parent, so a node's index is larger than its parent's;
/// [`Tree::cum`] relies on that to derive cum in one backward pass.
#[derive(Debug, Clone)]
pub struct Tree {
    metrics: usize,
    nodes: Vec<Node>,
    base: Vec<u64>,
    /// Children of nodes with more than `SCAN_LIMIT` children, found by (parent, consumer). Entries are
    /// bare node ids (4 bytes) and the key is read from the node, so the index costs ~5 bytes a node.
    index: HashTable<NodeId>,
}

impl Tree {
    /// A tree with only a root, for `metrics` metrics. The root starts with 0 calls.
    pub fn new(root: ConsumerId, metrics: usize) -> Tree {
        let mut t = Tree { metrics, nodes: Vec::new(), base: Vec::new(), index: HashTable::new() };
        t.push_node(root, NO_NODE);
        t
    }

    /// The root node id (always 0).
    pub const ROOT: NodeId = 0;

    pub fn metric_count(&self) -> usize {
        self.metrics
    }
    pub fn len(&self) -> usize {
        self.nodes.len()
    }
    pub fn is_empty(&self) -> bool {
        false
    }

    fn push_node(&mut self, consumer: ConsumerId, parent: NodeId) -> NodeId {
        let id = self.nodes.len() as NodeId;
        assert!(id != NO_NODE, "arcflow tree is full (2^32 - 1 nodes)");
        self.nodes.push(Node {
            consumer,
            parent,
            first_child: NO_NODE,
            next_sibling: NO_NODE,
            last_hit: NO_NODE,
            children: 0,
            calls: 0,
        });
        self.base.extend(std::iter::repeat_n(0, self.metrics));
        id
    }

    #[inline]
    pub fn consumer(&self, n: NodeId) -> ConsumerId {
        self.nodes[n as usize].consumer
    }
    /// The parent, or `None` for the root.
    #[inline]
    pub fn parent(&self, n: NodeId) -> Option<NodeId> {
        let p = self.nodes[n as usize].parent;
        (p != NO_NODE).then_some(p)
    }
    #[inline]
    pub fn calls(&self, n: NodeId) -> u64 {
        self.nodes[n as usize].calls
    }
    #[inline]
    pub fn base(&self, n: NodeId) -> &[u64] {
        let i = n as usize * self.metrics;
        &self.base[i..i + self.metrics]
    }
    #[inline]
    pub fn base_mut(&mut self, n: NodeId) -> &mut [u64] {
        let i = n as usize * self.metrics;
        &mut self.base[i..i + self.metrics]
    }
    #[inline]
    pub fn add_calls(&mut self, n: NodeId, calls: u64) {
        let c = &mut self.nodes[n as usize].calls;
        *c = c.saturating_add(calls);
    }
    /// Sets the calls of `n` (e.g. a root that stands for no entry of its own).
    pub fn set_calls(&mut self, n: NodeId, calls: u64) {
        self.nodes[n as usize].calls = calls;
    }
    /// Adds `values` (one per metric) to the base of `n`.
    #[inline]
    pub fn add_base(&mut self, n: NodeId, values: &[u64]) {
        for (b, v) in self.base_mut(n).iter_mut().zip(values) {
            *b = b.saturating_add(*v);
        }
    }
    pub fn child_count(&self, n: NodeId) -> usize {
        self.nodes[n as usize].children as usize
    }

    /// The children of `n` in creation order (first seen first).
    pub fn children(&self, n: NodeId) -> Vec<NodeId> {
        let mut v = Vec::with_capacity(self.child_count(n));
        let mut c = self.nodes[n as usize].first_child;
        while c != NO_NODE {
            v.push(c);
            c = self.nodes[c as usize].next_sibling;
        }
        // Children are linked newest first; ids grow with creation time.
        v.reverse();
        v
    }

    /// Depth of `n` (the root has depth 0).
    pub fn depth(&self, mut n: NodeId) -> usize {
        let mut d = 0;
        while let Some(p) = self.parent(n) {
            d += 1;
            n = p;
        }
        d
    }

    /// The consumers on the path from the root to `n`, root first.
    pub fn path(&self, n: NodeId) -> Vec<ConsumerId> {
        let mut v = vec![self.consumer(n)];
        let mut n = n;
        while let Some(p) = self.parent(n) {
            v.push(self.consumer(p));
            n = p;
        }
        v.reverse();
        v
    }

    /// The child of `parent` for `consumer`, if that context has been seen.
    #[inline]
    pub fn find_child(&self, parent: NodeId, consumer: ConsumerId) -> Option<NodeId> {
        let p = &self.nodes[parent as usize];
        if p.children > SCAN_LIMIT {
            let nodes = &self.nodes;
            return self
                .index
                .find(hash(parent, consumer), |&c| {
                    let n = &nodes[c as usize];
                    n.parent == parent && n.consumer == consumer
                })
                .copied();
        }
        let mut c = p.first_child;
        while c != NO_NODE {
            let node = &self.nodes[c as usize];
            if node.consumer == consumer {
                return Some(c);
            }
            c = node.next_sibling;
        }
        None
    }

    /// The child of `parent` for `consumer`, created (with 0 calls) if it is new.
    ///
    /// Amortised O(1): a hit on the last-used child costs one comparison, small child lists are
    /// scanned, large ones hashed. No allocation happens for a context that already exists.
    #[inline]
    pub fn child(&mut self, parent: NodeId, consumer: ConsumerId) -> NodeId {
        let hint = self.nodes[parent as usize].last_hit;
        if hint != NO_NODE && self.nodes[hint as usize].consumer == consumer {
            return hint;
        }
        let c = match self.find_child(parent, consumer) {
            Some(c) => c,
            None => self.add_child(parent, consumer),
        };
        self.nodes[parent as usize].last_hit = c;
        c
    }

    #[cold]
    fn add_child(&mut self, parent: NodeId, consumer: ConsumerId) -> NodeId {
        let c = self.push_node(consumer, parent);
        let p = &mut self.nodes[parent as usize];
        let old_first = p.first_child;
        p.first_child = c;
        p.children += 1;
        let children = p.children;
        self.nodes[c as usize].next_sibling = old_first;
        if children == SCAN_LIMIT + 1 {
            // Crossing the limit: index every child of this parent from now on.
            let mut k = c;
            while k != NO_NODE {
                let node = self.nodes[k as usize];
                self.index_insert(k);
                k = node.next_sibling;
            }
        } else if children > SCAN_LIMIT + 1 {
            self.index_insert(c);
        }
        c
    }

    fn index_insert(&mut self, c: NodeId) {
        let nodes = &self.nodes;
        let n = nodes[c as usize];
        self.index.insert_unique(hash(n.parent, n.consumer), c, |&k| {
            let kn = &nodes[k as usize];
            hash(kn.parent, kn.consumer)
        });
    }

    /// Finds or creates the context `path` below `from` and returns its node. Calls are not changed.
    pub fn descend(&mut self, from: NodeId, path: &[ConsumerId]) -> NodeId {
        path.iter().fold(from, |n, &c| self.child(n, c))
    }

    /// Cum for every node: `cum[n * metrics + m]` = base of `n` plus cum of its children.
    pub fn cum(&self) -> Vec<u64> {
        let mut cum = self.base.clone();
        let m = self.metrics;
        for n in (1..self.nodes.len()).rev() {
            let p = self.nodes[n].parent as usize;
            for k in 0..m {
                cum[p * m + k] = cum[p * m + k].saturating_add(cum[n * m + k]);
            }
        }
        cum
    }

    /// Sum of the base of every node (= the root's cum), one value per metric.
    pub fn total(&self) -> Vec<u64> {
        let mut t = vec![0u64; self.metrics];
        for chunk in self.base.chunks_exact(self.metrics.max(1)) {
            for (a, b) in t.iter_mut().zip(chunk) {
                *a = a.saturating_add(*b);
            }
        }
        t
    }

    /// Node ids in depth-first pre-order, children in creation order.
    pub fn preorder(&self) -> Vec<NodeId> {
        let mut out = Vec::with_capacity(self.nodes.len());
        let mut stack = vec![Tree::ROOT];
        while let Some(n) = stack.pop() {
            out.push(n);
            // children() is in creation order; push reversed so the first child is visited first.
            let mut c = self.nodes[n as usize].first_child;
            while c != NO_NODE {
                stack.push(c);
                c = self.nodes[c as usize].next_sibling;
            }
        }
        out
    }

    /// Adds the subtree of `src` at `src_node` into this tree at `at`: calls and base of matching
    /// contexts are summed, new contexts are created. Both trees must use the same consumer ids and
    /// the same metrics.
    pub fn merge_from(&mut self, at: NodeId, src: &Tree, src_node: NodeId) {
        assert_eq!(self.metrics, src.metrics, "merging trees with different metrics");
        let mut stack = vec![(at, src_node)];
        while let Some((d, s)) = stack.pop() {
            self.add_calls(d, src.calls(s));
            self.add_base(d, src.base(s));
            let mut c = src.nodes[s as usize].first_child;
            while c != NO_NODE {
                let dc = self.child(d, src.consumer(c));
                stack.push((dc, c));
                c = src.nodes[c as usize].next_sibling;
            }
        }
    }

    /// A copy of this tree keeping only the nodes whose cum of `metric` is at least `threshold`
    /// (the root is always kept). Cum never grows from parent to child, so the kept nodes form a
    /// connected tree. The children dropped below a kept node are folded into one child of that
    /// node, consumer `pruned`, whose calls are their calls and whose base is their cum: totals and
    /// the xarc invariants are preserved, and the report shows what was hidden.
    pub fn pruned(&self, metric: usize, threshold: u64, pruned: ConsumerId) -> Tree {
        let cum = self.cum();
        let m = self.metrics;
        let mut out = Tree::new(self.consumer(Tree::ROOT), m);
        out.add_calls(Tree::ROOT, self.calls(Tree::ROOT));
        out.add_base(Tree::ROOT, self.base(Tree::ROOT));
        let mut stack = vec![(Tree::ROOT, Tree::ROOT)];
        while let Some((s, d)) = stack.pop() {
            let mut folded: Option<NodeId> = None;
            for c in self.children(s) {
                let ci = c as usize;
                if cum[ci * m + metric] >= threshold {
                    let dc = out.child(d, self.consumer(c));
                    out.add_calls(dc, self.calls(c));
                    out.add_base(dc, self.base(c));
                    stack.push((c, dc));
                } else {
                    let f = *folded.get_or_insert_with(|| out.child(d, pruned));
                    out.add_calls(f, self.calls(c));
                    out.add_base(f, &cum[ci * m..ci * m + m]);
                }
            }
        }
        out
    }

    /// Bytes of heap memory held by this tree (capacity, not length).
    pub fn heap_bytes(&self) -> usize {
        self.nodes.capacity() * std::mem::size_of::<Node>()
            + self.base.capacity() * 8
            // hashbrown: one control byte per bucket plus the entry.
            + self.index.capacity() * (std::mem::size_of::<NodeId>() + 1)
    }

    /// Every context with its calls and base, keyed by its consumer path from the root. Two trees
    /// describe the same execution exactly when these maps are equal; used to compare builders.
    pub fn contexts(&self) -> std::collections::BTreeMap<Vec<ConsumerId>, (u64, Vec<u64>)> {
        (0..self.nodes.len() as NodeId)
            .map(|n| (self.path(n), (self.calls(n), self.base(n).to_vec())))
            .collect()
    }

    /// Checks the structural invariants (parent links, child counts, index); for tests.
    pub fn check(&self) -> Result<(), String> {
        for (i, n) in self.nodes.iter().enumerate() {
            if i == 0 {
                if n.parent != NO_NODE {
                    return Err("root has a parent".into());
                }
            } else if n.parent as usize >= i {
                return Err(format!("node {i} has parent {} created after it", n.parent));
            }
            let kids = self.children(i as NodeId);
            if kids.len() != n.children as usize {
                return Err(format!("node {i} counts {} children, links {}", n.children, kids.len()));
            }
            let mut seen = std::collections::HashSet::new();
            for k in kids {
                if self.nodes[k as usize].parent as usize != i {
                    return Err(format!("child {k} of {i} names another parent"));
                }
                if !seen.insert(self.consumer(k)) {
                    return Err(format!("node {i} has two children for consumer {}", self.consumer(k)));
                }
                if self.find_child(i as NodeId, self.consumer(k)) != Some(k) {
                    return Err(format!("lookup of child {k} under {i} fails"));
                }
            }
        }
        Ok(())
    }
}
