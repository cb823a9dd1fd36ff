//! The arcflow model (Alexander et al., IBM Systems Journal 2000).
//!
//! A consumer context is a path of consumer ids from a root; the model holds, for every context seen,
//! the number of times it was entered (`calls`) and the resources consumed directly in it (`base`),
//! one value per metric (the paper's AF0 without time stamps). `cum` (base plus the cum of all
//! children) is derived, never stored.
//!
//! Storage is a [`Tree`] per thread whose root consumer is the thread. A [`Profile`] holds the trees of
//! all threads with one shared [`ConsumerTable`] and the descriptive [`Bindings`] (the paper's **Z**).
//!
//! Three builders fill a tree and give the same model for the same execution:
//! - [`CursorBuilder`]: start/end events (method entry/exit), charging metric deltas as it goes;
//! - [`SampleBuilder`]: stack samples, a full path with a weight at the leaf;
//! - [`Tree::descend`] + [`Tree::add_calls`]/[`Tree::add_base`]: a serialized tree, node by node.

mod builders;
mod tree;

pub use builders::{BuildStats, CursorBuilder, ExitOutcome, SampleBuilder};
pub use tree::Tree;

use serde::{Deserialize, Serialize};

/// Index of a consumer (method, thread, monitor class, …) in a [`ConsumerTable`].
pub type ConsumerId = u32;
/// Index of a node in a [`Tree`].
pub type NodeId = u32;
/// "No node": the parent of the root, the end of a sibling list.
pub const NO_NODE: NodeId = u32::MAX;

/// A metric: what one base value counts. Time metrics are in nanoseconds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Metric {
    pub name: String,
    pub unit: String,
    /// How its values were obtained.
    #[serde(default)]
    pub mode: MetricMode,
}

/// Whether a metric's base values are exact or statistical estimates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MetricMode {
    /// Read at every event and charged to the context it belongs to.
    #[default]
    Exact,
    /// Read by periodic samples and credited to the context current at each sample.
    Sampled,
}

impl MetricMode {
    pub fn as_str(self) -> &'static str {
        match self {
            MetricMode::Exact => "exact",
            MetricMode::Sampled => "sampled",
        }
    }
}

impl Metric {
    pub fn new(name: impl Into<String>, unit: impl Into<String>) -> Metric {
        Metric { name: name.into(), unit: unit.into(), mode: MetricMode::Exact }
    }

    /// The same metric, obtained as `mode` says.
    pub fn with_mode(mut self, mode: MetricMode) -> Metric {
        self.mode = mode;
        self
    }
}

/// The descriptive bindings (the paper's **Z**): what the consumers are, what the count means, and
/// the metrics with their units.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bindings {
    /// What a consumer id names, e.g. "methods".
    pub consumer_label: String,
    /// What `calls` counts, e.g. "calls".
    pub count_label: String,
    pub metrics: Vec<Metric>,
}

impl Bindings {
    pub fn methods(metrics: Vec<Metric>) -> Bindings {
        Bindings { consumer_label: "methods".into(), count_label: "calls".into(), metrics }
    }
    /// Index of the metric called `name`.
    pub fn metric_index(&self, name: &str) -> Option<usize> {
        self.metrics.iter().position(|m| m.name == name)
    }
}

/// Consumer names, interned: every tree of a profile refers to consumers by index into one table.
#[derive(Debug, Clone, Default)]
pub struct ConsumerTable {
    names: Vec<Box<str>>,
    ids: rustc_hash::FxHashMap<Box<str>, ConsumerId>,
}

impl ConsumerTable {
    pub fn new() -> ConsumerTable {
        ConsumerTable::default()
    }
    /// The id of `name`, added if new.
    pub fn intern(&mut self, name: &str) -> ConsumerId {
        if let Some(&id) = self.ids.get(name) {
            return id;
        }
        let id = self.names.len() as ConsumerId;
        self.names.push(name.into());
        self.ids.insert(name.into(), id);
        id
    }
    pub fn get(&self, name: &str) -> Option<ConsumerId> {
        self.ids.get(name).copied()
    }
    pub fn name(&self, id: ConsumerId) -> &str {
        &self.names[id as usize]
    }
    pub fn len(&self) -> usize {
        self.names.len()
    }
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

/// One thread's tree with what is known about the thread.
#[derive(Debug, Clone)]
pub struct ThreadProfile {
    /// The thread's name as reports show it (also the root consumer's name).
    pub name: String,
    /// "application", "daemon", "vm", … when the backend knows it.
    pub kind: Option<String>,
    /// The OS thread id when known.
    pub os_tid: Option<u64>,
    pub tree: Tree,
}

/// The model of one run: the trees of all threads, their consumer names and the bindings.
#[derive(Debug, Clone)]
pub struct Profile {
    pub bindings: Bindings,
    pub consumers: ConsumerTable,
    pub threads: Vec<ThreadProfile>,
}

impl Profile {
    pub fn new(bindings: Bindings) -> Profile {
        Profile { bindings, consumers: ConsumerTable::new(), threads: Vec::new() }
    }

    pub fn metric_count(&self) -> usize {
        self.bindings.metrics.len()
    }

    /// Adds an empty tree for a thread called `name` and returns its index in `threads`.
    pub fn add_thread(&mut self, name: &str) -> usize {
        let root = self.consumers.intern(name);
        self.threads.push(ThreadProfile {
            name: name.to_string(),
            kind: None,
            os_tid: None,
            tree: Tree::new(root, self.metric_count()),
        });
        self.threads.len() - 1
    }

    /// Total of each metric over all threads.
    pub fn total(&self) -> Vec<u64> {
        let mut t = vec![0u64; self.metric_count()];
        for th in &self.threads {
            for (a, b) in t.iter_mut().zip(th.tree.total()) {
                *a = a.saturating_add(b);
            }
        }
        t
    }

    /// The all-threads view: one tree whose root is `root_name` and whose children are the threads'
    /// children, merged by context (the same method path on two threads becomes one node). The
    /// threads' own base (time outside any method) goes to the new root.
    pub fn all_threads(&mut self, root_name: &str) -> Tree {
        let root = self.consumers.intern(root_name);
        let mut out = Tree::new(root, self.metric_count());
        for th in &self.threads {
            out.merge_from(Tree::ROOT, &th.tree, Tree::ROOT);
        }
        out
    }

    /// A copy with only the threads for which `keep` is true.
    pub fn select_threads(&self, mut keep: impl FnMut(&ThreadProfile) -> bool) -> Profile {
        Profile {
            bindings: self.bindings.clone(),
            consumers: self.consumers.clone(),
            threads: self.threads.iter().filter(|t| keep(t)).cloned().collect(),
        }
    }

    /// Merges threads with the same name into one tree each (e.g. a pool's threads after several
    /// runs), keeping first-seen order.
    pub fn merge_same_named_threads(&self) -> Profile {
        let mut out = Profile { bindings: self.bindings.clone(), consumers: self.consumers.clone(), threads: Vec::new() };
        for th in &self.threads {
            match out.threads.iter_mut().find(|t| t.name == th.name) {
                Some(t) => t.tree.merge_from(Tree::ROOT, &th.tree, Tree::ROOT),
                None => out.threads.push(th.clone()),
            }
        }
        out
    }
}

#[cfg(test)]
mod tests;
