//! arcflow.json version 2: everything a run keeps (schema in `docs/arcflow-json.md`).
//!
//! The file's structs are this module's own, with serde derive: the file format stays what the
//! document says when the model's types change (a renamed field of `Snapshot` cannot silently
//! rename a key), and model types that cannot be serialized as they are (the tree arena, the
//! interned consumer table, `&'static str` kinds) need no serde code of their own.
//!
//! Trees are flat node tables: one row per node, `[parent, consumer, calls, base...]`, in node id
//! order, so a parent always comes before its children and neither the writer nor the reader
//! recurses. Reading a table back with `Tree::child` row by row gives every node its old id, so
//! the trees, and every report of them, come back exactly. The writer puts one row (and one
//! consumer name, one record of every other table) per line and indents nothing.

use std::fmt;
use std::io::{self, Write};

use serde::de::{self, DeserializeSeed, SeqAccess, Visitor};
use serde::ser::SerializeSeq;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::arcflow::{Bindings, ConsumerId, ConsumerTable, Metric, MetricMode, NodeId, Profile, ThreadProfile, Tree, NO_NODE};
use crate::snapshot::{ClassFilter, CodeEntry, CompileRow, Compensation, Form, FormRow, GcRecord, Glob, ProbeRequest, ProbeWindow, RecorderConfig, SampleTimeline, Snapshot, ThreadSummary};
use crate::sampling::{tier_name, Tier};
use crate::vmcost::{CostRow, PerKind};

use super::run::RunIdentity;
use super::{v1, Mark, ReadError, SavedRun, VmCostData};

/// The version this module writes and reads.
pub const VERSION: u64 = 2;

/// The document. `N` is a tree's node table: [`TreeRows`] when writing, [`NodeTable`] when reading.
#[derive(Serialize, Deserialize)]
struct Doc<N> {
    format: String,
    /// Checked before this struct is read (`v1::version`), so that any major version is
    /// refused by the same message.
    #[serde(skip_deserializing)]
    version: u64,
    consumers: Vec<String>,
    calls: ProfileF<N>,
    locks: ProfileF<N>,
    waits: ProfileF<N>,
    samples: Option<ProfileF<N>>,
    alloc_samples: Option<ProfileF<N>>,
    thread_summaries: Vec<ThreadF>,
    sample_forms: Vec<FormRowF>,
    stack_forms: Vec<FormRowF>,
    compiles: Vec<CompileRowF>,
    gc: GcF,
    code: CodeF,
    classes_loaded: u64,
    classes_prepared: u64,
    uptime_ns: u64,
    config: ConfigF,
    compensation: Option<CompensationF>,
    run: Option<RunF>,
    vm_cost: Option<VmCostF>,
    marks: Option<Vec<MarkF>>,
    /// Per thread of `samples`, in its order: the samples' timeline. Optional: files written
    /// without it (before it existed, or by a backend that gives samples no time) read as none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    sample_timelines: Option<Vec<TimelineF>>,
    /// The sampled trees split by thread state (`Snapshot::sample_states`). Optional: files
    /// written before states were recorded read as none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    sample_states: Option<ProfileF<N>>,
    /// `calls` split by phase between markers (`Snapshot::phase_calls`). Optional: written only
    /// when markers split the run; files without it read as no phases.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    phase_calls: Vec<ProfileF<N>>,
    /// Probes requested while the program ran (`Snapshot::probe_requests`). Optional, as below.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    probe_requests: Vec<ProbeRequestF>,
    /// Per method those requests reached, when its probes were in (`Snapshot::probe_windows`).
    /// Optional: written only when probes were requested; files without it read as none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    probe_windows: Vec<ProbeWindowF>,
}

#[derive(Serialize, Deserialize)]
struct ProbeRequestF {
    add: bool,
    pattern: String,
    at_ns: u64,
    classes: u32,
}

#[derive(Serialize, Deserialize)]
struct ProbeWindowF {
    method: String,
    from_ns: u64,
    to_ns: Option<u64>,
}

/// A thread's samples in the order taken: `times` (ns on the recorder's clock) as differences
/// from the one before (the first from 0, wrapping), `nodes` their contexts in the thread's
/// sampled tree, `dropped` those over the recorder's limit.
#[derive(Serialize, Deserialize)]
struct TimelineF {
    times: Vec<u64>,
    nodes: Vec<u32>,
    dropped: u64,
}

#[derive(Serialize, Deserialize)]
struct ProfileF<N> {
    consumer_label: String,
    count_label: String,
    metrics: Vec<MetricF>,
    threads: Vec<TreeF<N>>,
}

#[derive(Serialize, Deserialize)]
struct TreeF<N> {
    name: String,
    kind: Option<String>,
    os_tid: Option<u64>,
    nodes: N,
}

#[derive(Serialize, Deserialize)]
struct MetricF {
    name: String,
    #[serde(default)]
    unit: String,
    #[serde(default)]
    mode: ModeF,
}

#[derive(Serialize, Deserialize, Default, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum ModeF {
    #[default]
    Exact,
    Sampled,
}

#[derive(Serialize, Deserialize)]
struct ThreadF {
    name: String,
    kind: Option<String>,
    os_tid: Option<u64>,
    alive: bool,
    method_events: u64,
    exception_exits: u64,
    unmatched_exits: u64,
    vm_alloc_bytes: u64,
    vm_alloc_objects: u64,
    start_ns: u64,
    end_ns: Option<u64>,
    scaled_reads: u64,
    /// Absent where not measured (and in files from before it was).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    in_probes: Vec<u64>,
}

#[derive(Serialize, Deserialize)]
struct FormRowF {
    method: String,
    form: String,
    samples: u64,
    weights: Vec<u64>,
}

#[derive(Serialize, Deserialize)]
struct CompileRowF {
    method: String,
    tier: String,
    cpu_ns: u64,
    looks: u64,
    compilations: u64,
    osr_compilations: u64,
}

#[derive(Serialize, Deserialize)]
struct GcF {
    count: u64,
    total_ns: u64,
    dropped: u64,
    records: Vec<GcRecordF>,
}

#[derive(Serialize, Deserialize)]
struct GcRecordF {
    start_ns: u64,
    duration_ns: u64,
    threads_stopped: u64,
}

#[derive(Serialize, Deserialize)]
struct CodeF {
    loads: u64,
    unloads: u64,
    entries: Vec<CodeEntryF>,
}

#[derive(Serialize, Deserialize)]
struct CodeEntryF {
    start: u64,
    size: u64,
    name: String,
    kind: String,
    method: u64,
    inlined: Vec<String>,
    inlined_methods: Vec<u64>,
}

#[derive(Serialize, Deserialize)]
struct ConfigF {
    calls: bool,
    gc: bool,
    locks: bool,
    waits: bool,
    alloc: bool,
    code: bool,
    include: Vec<String>,
    exclude: Vec<String>,
    metrics_from_sampler: Option<ModeF>,
    stack_samples: Option<Vec<MetricF>>,
    alloc_samples: Option<u64>,
    /// Written only when true (files without it read as false).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    sample_lines: bool,
    /// Written only when true (files without it read as false).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    sample_native: bool,
    virtual_threads_kept: u64,
}

#[derive(Serialize, Deserialize)]
struct CompensationF {
    metrics: Vec<String>,
    callee: Vec<f64>,
    caller: Vec<f64>,
    applied: Vec<bool>,
    calls_measured: u64,
    how: String,
    /// Absent where not measured (and in files from before it was).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    measured: Vec<u64>,
}

#[derive(Serialize, Deserialize)]
struct RunF {
    pid: u32,
    main: String,
    started_unix_ms: Option<u64>,
    dumped_unix_ms: u64,
}

#[derive(Serialize, Deserialize)]
struct VmCostF {
    counters: Vec<String>,
    lost_threads: u64,
    rows: Vec<CostRowF>,
}

#[derive(Serialize, Deserialize)]
struct CostRowF {
    at_ns: u64,
    cpu: PerKindF,
    counters: Vec<PerKindF>,
    marker: Option<String>,
}

/// One value per kind of thread, named (`crate::vmcost::ThreadKind`).
#[derive(Serialize, Deserialize)]
struct PerKindF {
    application: u64,
    gc: u64,
    jit: u64,
    vm: u64,
    agent: u64,
    other: u64,
}

#[derive(Serialize, Deserialize)]
struct MarkF {
    at_ns: u64,
    method_events: u64,
    text: String,
}

// ------------------------------------------------------------------------------------ node tables

/// A tree's rows for writing, with its consumer ids mapped into the file's table where the
/// profile has a table of its own (`remap`).
pub(crate) struct TreeRows<'a> {
    tree: &'a Tree,
    remap: Option<&'a [ConsumerId]>,
}

impl Serialize for TreeRows<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let t = self.tree;
        let mut seq = s.serialize_seq(Some(t.len()))?;
        for n in 0..t.len() as NodeId {
            seq.serialize_element(&Row { tree: t, node: n, remap: self.remap })?;
        }
        seq.end()
    }
}

/// `[parent, consumer, calls, base...]`; the root's parent is `null`.
struct Row<'a> {
    tree: &'a Tree,
    node: NodeId,
    remap: Option<&'a [ConsumerId]>,
}

impl Serialize for Row<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (t, n) = (self.tree, self.node);
        let base = t.base(n);
        let mut seq = s.serialize_seq(Some(3 + base.len()))?;
        seq.serialize_element(&t.parent(n))?;
        let c = t.consumer(n);
        seq.serialize_element(&self.remap.and_then(|m| m.get(c as usize).copied()).unwrap_or(c))?;
        seq.serialize_element(&t.calls(n))?;
        for b in base {
            seq.serialize_element(b)?;
        }
        seq.end()
    }
}

/// A tree's rows as read, column by column; checked row by row as they come (a parent before
/// its child, only the root without one), and against the consumers and metrics once the whole
/// document is read ([`NodeTable::into_tree`]).
#[derive(Default)]
pub(crate) struct NodeTable {
    parents: Vec<NodeId>,
    consumers: Vec<ConsumerId>,
    calls: Vec<u64>,
    base: Vec<u64>,
    /// Base values per row (every row has as many).
    width: usize,
}

impl<'de> Deserialize<'de> for NodeTable {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Table;
        impl<'de> Visitor<'de> for Table {
            type Value = NodeTable;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an array of node rows [parent, consumer, calls, base...]")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<NodeTable, A::Error> {
                let mut t = NodeTable::default();
                while seq.next_element_seed(RowSeed(&mut t))?.is_some() {}
                Ok(t)
            }
        }
        d.deserialize_seq(Table)
    }
}

/// Reads one row into the table.
struct RowSeed<'t>(&'t mut NodeTable);

impl<'de> DeserializeSeed<'de> for RowSeed<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for RowSeed<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a node row [parent, consumer, calls, base...]")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let t = self.0;
        let row = t.parents.len();
        if row >= NO_NODE as usize - 1 {
            return Err(de::Error::custom("too many nodes in one tree (at most 2^32 - 2)"));
        }
        let short = |what: &str| de::Error::custom(format!("node row {row} ends before its {what}; a row is [parent, consumer, calls, base...]"));
        let parent: Option<u32> = seq.next_element()?.ok_or_else(|| short("parent"))?;
        let parent = match (row, parent) {
            (0, None) => NO_NODE,
            (0, Some(p)) => return Err(de::Error::custom(format!("node row 0 is the root: its parent must be null, not {p}"))),
            (r, None) => return Err(de::Error::custom(format!("node row {r} has no parent (null); only row 0, the root, has none"))),
            (r, Some(p)) if p as usize >= r => {
                return Err(de::Error::custom(format!("node row {r} names parent {p}, which does not come before it (parents come first)")))
            }
            (_, Some(p)) => p,
        };
        let consumer: u32 = seq.next_element()?.ok_or_else(|| short("consumer"))?;
        let calls: u64 = seq.next_element()?.ok_or_else(|| short("calls"))?;
        let start = t.base.len();
        while let Some(v) = seq.next_element::<u64>()? {
            t.base.push(v);
        }
        let width = t.base.len() - start;
        if row == 0 {
            t.width = width;
        } else if width != t.width {
            return Err(de::Error::custom(format!("node row {row} has {width} base values, row 0 has {}", t.width)));
        }
        t.parents.push(parent);
        t.consumers.push(consumer);
        t.calls.push(calls);
        Ok(())
    }
}

impl NodeTable {
    /// The tree of these rows, for `metrics` metrics and a table of `consumers` names.
    fn into_tree(self, metrics: usize, consumers: usize) -> Result<Tree, String> {
        if self.parents.is_empty() {
            return Err("no nodes (row 0, the root, is required)".into());
        }
        if self.width != metrics {
            return Err(format!("the rows have {} base values but there are {metrics} metrics", self.width));
        }
        if let Some(i) = self.consumers.iter().position(|&c| c as usize >= consumers) {
            return Err(format!("node row {i} names consumer {}, but there are {consumers} consumers", self.consumers[i]));
        }
        let mut tree = Tree::new(self.consumers[0], metrics);
        // Row index → node: the same unless a file names two siblings with one consumer (merged).
        let mut node: Vec<NodeId> = Vec::with_capacity(self.parents.len());
        for (i, &p) in self.parents.iter().enumerate() {
            let n = if i == 0 { Tree::ROOT } else { tree.child(node[p as usize], self.consumers[i]) };
            node.push(n);
            tree.add_calls(n, self.calls[i]);
            tree.add_base(n, &self.base[i * metrics..(i + 1) * metrics]);
        }
        Ok(tree)
    }
}

// ----------------------------------------------------------------------------------------- writing

/// Puts every string, array and object inside an array on a line of its own (one node row, one
/// consumer name, one record per line), and every top-level key: a file that line tools can read,
/// with no indentation.
struct OneRowPerLine {
    depth: usize,
    /// An array element starts: a line break goes before it unless it is a number.
    element: bool,
}

impl OneRowPerLine {
    fn line_if_element<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        if std::mem::take(&mut self.element) {
            w.write_all(b"\n")?;
        }
        Ok(())
    }
}

impl serde_json::ser::Formatter for OneRowPerLine {
    fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.line_if_element(w)?;
        self.depth += 1;
        w.write_all(b"[")
    }
    fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.depth -= 1;
        w.write_all(b"]")
    }
    fn begin_array_value<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.element = true;
        if first {
            Ok(())
        } else {
            w.write_all(b",")
        }
    }
    fn end_array_value<W: ?Sized + Write>(&mut self, _w: &mut W) -> io::Result<()> {
        self.element = false;
        Ok(())
    }
    fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.line_if_element(w)?;
        self.depth += 1;
        w.write_all(b"{")
    }
    fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.depth -= 1;
        w.write_all(b"}")
    }
    fn begin_object_key<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        match (first, self.depth) {
            (true, _) => Ok(()),
            (false, 1) => w.write_all(b",\n"),
            (false, _) => w.write_all(b","),
        }
    }
    fn begin_string<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.line_if_element(w)?;
        w.write_all(b"\"")
    }
}

fn metric_f(m: &Metric) -> MetricF {
    MetricF { name: m.name.clone(), unit: m.unit.clone(), mode: mode_f(m.mode) }
}

fn mode_f(m: MetricMode) -> ModeF {
    match m {
        MetricMode::Exact => ModeF::Exact,
        MetricMode::Sampled => ModeF::Sampled,
    }
}

fn per_kind_f(p: &PerKind) -> PerKindF {
    let [application, gc, jit, vm, agent, other] = p.0;
    PerKindF { application, gc, jit, vm, agent, other }
}

/// Whether `p`'s consumer ids are those of `table` (the same name at every id it has).
fn same_ids(p: &ConsumerTable, table: &ConsumerTable) -> bool {
    p.len() <= table.len() && (0..p.len() as ConsumerId).all(|c| p.name(c) == table.name(c))
}

/// Writes `run` as arcflow.json version 2.
pub fn write(run: &SavedRun, w: &mut dyn Write) -> io::Result<()> {
    let s = &run.snapshot;
    // One table of names for every tree: the recorder's profiles share theirs; a profile with a
    // table of its own has its ids mapped into the file's.
    let mut table = s.calls.consumers.clone();
    let mut remap = |p: &Profile| (!same_ids(&p.consumers, &table)).then(|| (0..p.consumers.len() as ConsumerId).map(|c| table.intern(p.consumers.name(c))).collect::<Vec<_>>());
    let remaps = [
        remap(&s.locks),
        remap(&s.waits),
        s.samples.as_ref().and_then(&mut remap),
        s.alloc_samples.as_ref().and_then(&mut remap),
        s.sample_states.as_ref().and_then(&mut remap),
    ];
    let phase_remaps: Vec<Option<Vec<ConsumerId>>> = s.phase_calls.iter().map(&mut remap).collect();
    let forms = |rows: &[FormRow]| -> Vec<FormRowF> {
        rows.iter().map(|r| FormRowF { method: r.method.clone(), form: r.form.name().into(), samples: r.samples, weights: r.weights.clone() }).collect()
    };
    let c = &s.config;
    let doc = Doc {
        format: v1::FORMAT.into(),
        version: VERSION,
        consumers: (0..table.len() as ConsumerId).map(|c| table.name(c).to_string()).collect(),
        calls: profile_f(&s.calls, None),
        locks: profile_f(&s.locks, remaps[0].as_deref()),
        waits: profile_f(&s.waits, remaps[1].as_deref()),
        samples: s.samples.as_ref().map(|p| profile_f(p, remaps[2].as_deref())),
        alloc_samples: s.alloc_samples.as_ref().map(|p| profile_f(p, remaps[3].as_deref())),
        sample_states: s.sample_states.as_ref().map(|p| profile_f(p, remaps[4].as_deref())),
        phase_calls: s.phase_calls.iter().zip(&phase_remaps).map(|(p, r)| profile_f(p, r.as_deref())).collect(),
        probe_requests: s
            .probe_requests
            .iter()
            .map(|r| ProbeRequestF { add: r.add, pattern: r.pattern.clone(), at_ns: r.at_ns, classes: r.classes })
            .collect(),
        probe_windows: s.probe_windows.iter().map(|w| ProbeWindowF { method: w.method.clone(), from_ns: w.from_ns, to_ns: w.to_ns }).collect(),
        thread_summaries: s
            .threads
            .iter()
            .map(|t| ThreadF {
                name: t.name.clone(),
                kind: t.kind.clone(),
                os_tid: t.os_tid,
                alive: t.alive,
                method_events: t.method_events,
                exception_exits: t.exception_exits,
                unmatched_exits: t.unmatched_exits,
                vm_alloc_bytes: t.vm_alloc_bytes,
                vm_alloc_objects: t.vm_alloc_objects,
                start_ns: t.start_ns,
                end_ns: t.end_ns,
                scaled_reads: t.scaled_reads,
                in_probes: t.in_probes.clone(),
            })
            .collect(),
        sample_forms: forms(&s.sample_forms),
        stack_forms: forms(&s.stack_forms),
        compiles: s
            .compiles
            .iter()
            .map(|r| CompileRowF {
                method: r.method.clone(),
                tier: tier_name(r.tier).into(),
                cpu_ns: r.cpu_ns,
                looks: r.looks,
                compilations: r.compilations,
                osr_compilations: r.osr_compilations,
            })
            .collect(),
        gc: GcF {
            count: s.gc_count,
            total_ns: s.gc_total_ns,
            dropped: s.gc_dropped,
            records: s.gc.iter().map(|g| GcRecordF { start_ns: g.start_ns, duration_ns: g.duration_ns, threads_stopped: g.threads_stopped as u64 }).collect(),
        },
        code: CodeF {
            loads: s.code_loads,
            unloads: s.code_unloads,
            entries: s
                .code
                .iter()
                .map(|e| CodeEntryF {
                    start: e.start,
                    size: e.size,
                    name: e.name.clone(),
                    kind: e.kind.into(),
                    method: e.method,
                    inlined: e.inlined.clone(),
                    inlined_methods: e.inlined_methods.clone(),
                })
                .collect(),
        },
        classes_loaded: s.classes_loaded,
        classes_prepared: s.classes_prepared,
        uptime_ns: s.uptime_ns,
        config: ConfigF {
            calls: c.calls,
            gc: c.gc,
            locks: c.locks,
            waits: c.waits,
            alloc: c.alloc,
            code: c.code,
            include: c.filter.include.iter().map(|g| g.as_str().to_string()).collect(),
            exclude: c.filter.exclude.iter().map(|g| g.as_str().to_string()).collect(),
            metrics_from_sampler: c.metrics_from_sampler.map(mode_f),
            stack_samples: c.stack_samples.as_ref().map(|m| m.iter().map(metric_f).collect()),
            alloc_samples: c.alloc_samples,
            sample_lines: c.sample_lines,
            sample_native: c.sample_native,
            virtual_threads_kept: c.virtual_threads_kept as u64,
        },
        compensation: s.compensation.as_ref().map(|c| CompensationF {
            metrics: c.metrics.clone(),
            callee: c.callee.clone(),
            caller: c.caller.clone(),
            applied: c.applied.clone(),
            calls_measured: c.calls_measured,
            how: c.how.clone(),
            measured: c.measured.clone(),
        }),
        run: run.run.as_ref().map(|r| RunF { pid: r.pid, main: r.main.clone(), started_unix_ms: r.started_unix_ms, dumped_unix_ms: r.dumped_unix_ms }),
        vm_cost: run.vm_cost.as_ref().map(|v| VmCostF {
            counters: v.counters.clone(),
            lost_threads: v.lost_threads,
            rows: v
                .rows
                .iter()
                .map(|r| CostRowF { at_ns: r.at_ns, cpu: per_kind_f(&r.cpu), counters: r.counters.iter().map(per_kind_f).collect(), marker: r.marker.clone() })
                .collect(),
        }),
        marks: run.marks.as_ref().map(|m| m.iter().map(|m| MarkF { at_ns: m.at_ns, method_events: m.method_events, text: m.text.clone() }).collect()),
        sample_timelines: s.sample_timelines.as_ref().map(|ts| {
            ts.iter()
                .map(|t| TimelineF {
                    times: t.times.iter().scan(0u64, |prev, &x| Some(x.wrapping_sub(std::mem::replace(prev, x)))).collect(),
                    nodes: t.nodes.clone(),
                    dropped: t.dropped,
                })
                .collect()
        }),
    };
    let mut ser = serde_json::Serializer::with_formatter(&mut *w, OneRowPerLine { depth: 0, element: false });
    doc.serialize(&mut ser).map_err(io::Error::other)?;
    w.write_all(b"\n")
}

/// A profile's part of the file; `remap`: its consumer ids in the file's table, if they differ.
fn profile_f<'a>(p: &'a Profile, remap: Option<&'a [ConsumerId]>) -> ProfileF<TreeRows<'a>> {
    ProfileF {
        consumer_label: p.bindings.consumer_label.clone(),
        count_label: p.bindings.count_label.clone(),
        metrics: p.bindings.metrics.iter().map(metric_f).collect(),
        threads: p.threads.iter().map(|t| TreeF { name: t.name.clone(), kind: t.kind.clone(), os_tid: t.os_tid, nodes: TreeRows { tree: &t.tree, remap } }).collect(),
    }
}

/// arcflow.json version 2 of `run` as bytes.
pub fn to_vec(run: &SavedRun) -> Vec<u8> {
    let mut v = Vec::new();
    // Writing into a Vec cannot fail.
    let _ = write(run, &mut v);
    v
}

// ----------------------------------------------------------------------------------------- reading

fn error(message: impl Into<String>) -> ReadError {
    ReadError { message: message.into() }
}

fn mode(m: ModeF) -> MetricMode {
    match m {
        ModeF::Exact => MetricMode::Exact,
        ModeF::Sampled => MetricMode::Sampled,
    }
}

fn metric(m: MetricF) -> Metric {
    Metric { name: m.name, unit: m.unit, mode: mode(m.mode) }
}

fn per_kind(p: PerKindF) -> PerKind {
    PerKind([p.application, p.gc, p.jit, p.vm, p.agent, p.other])
}

/// The samples' timelines of a file, checked against its sampled trees: one per thread, a node
/// of the thread's tree per time.
fn timelines(ts: Vec<TimelineF>, samples: Option<&Profile>) -> Result<Vec<SampleTimeline>, ReadError> {
    let Some(p) = samples else { return Err(error("`sample_timelines` without `samples` (a timeline's contexts are nodes of the sampled trees)")) };
    if ts.len() != p.threads.len() {
        return Err(error(format!("`sample_timelines` has {} threads but `samples` has {} (one timeline per sampled thread)", ts.len(), p.threads.len())));
    }
    ts.into_iter()
        .zip(&p.threads)
        .enumerate()
        .map(|(i, (t, th))| {
            if t.times.len() != t.nodes.len() {
                return Err(error(format!("`sample_timelines`, thread {i} ({:?}): {} times but {} nodes (one each per sample)", th.name, t.times.len(), t.nodes.len())));
            }
            if let Some(n) = t.nodes.iter().find(|&&n| n as usize >= th.tree.len()) {
                return Err(error(format!("`sample_timelines`, thread {i} ({:?}): node {n} is not in its sampled tree of {} nodes", th.name, th.tree.len())));
            }
            let times = t.times.iter().scan(0u64, |prev, &d| {
                *prev = prev.wrapping_add(d);
                Some(*prev)
            });
            Ok(SampleTimeline { times: times.collect(), nodes: t.nodes, dropped: t.dropped })
        })
        .collect()
}

/// Reads a version 2 document (its version already checked).
pub fn read(text: &str) -> Result<SavedRun, ReadError> {
    let doc: Doc<NodeTable> = serde_json::from_str(text).map_err(|e| error(e.to_string()))?;
    if doc.format != v1::FORMAT {
        return Err(error(format!("`format` is {:?}, not {:?}: this is not an arcflow.json file", doc.format, v1::FORMAT)));
    }
    let mut consumers = ConsumerTable::new();
    for (i, name) in doc.consumers.iter().enumerate() {
        if consumers.intern(name) as usize != i {
            return Err(error(format!("`consumers` names {name:?} twice (entries are distinct names)")));
        }
    }
    let profile = |key: &str, p: ProfileF<NodeTable>| -> Result<Profile, ReadError> {
        let bindings = Bindings { consumer_label: p.consumer_label, count_label: p.count_label, metrics: p.metrics.into_iter().map(metric).collect() };
        let m = bindings.metrics.len();
        let mut threads = Vec::with_capacity(p.threads.len());
        for (i, t) in p.threads.into_iter().enumerate() {
            let tree = t.nodes.into_tree(m, consumers.len()).map_err(|e| error(format!("`{key}`, thread {i} ({:?}): {e}", t.name)))?;
            threads.push(ThreadProfile { name: t.name, kind: t.kind, os_tid: t.os_tid, tree });
        }
        Ok(Profile { bindings, consumers: consumers.clone(), threads })
    };
    let calls = profile("calls", doc.calls)?;
    let locks = profile("locks", doc.locks)?;
    let waits = profile("waits", doc.waits)?;
    let samples = doc.samples.map(|p| profile("samples", p)).transpose()?;
    let alloc_samples = doc.alloc_samples.map(|p| profile("alloc_samples", p)).transpose()?;
    let sample_states = doc.sample_states.map(|p| profile("sample_states", p)).transpose()?;
    let phase_calls = doc.phase_calls.into_iter().enumerate().map(|(i, p)| profile(&format!("phase_calls[{i}]"), p)).collect::<Result<Vec<_>, _>>()?;
    let sample_timelines = match doc.sample_timelines {
        None => None,
        Some(ts) => Some(timelines(ts, samples.as_ref())?),
    };
    // What the VM reports index without looking.
    for (key, p) in [("locks", &locks), ("waits", &waits)] {
        if p.metric_count() == 0 {
            return Err(error(format!("`{key}` has no metrics (its report needs its time metric)")));
        }
    }
    let form_rows = |key: &str, rows: Vec<FormRowF>| -> Result<Vec<FormRow>, ReadError> {
        rows.into_iter()
            .map(|r| {
                let form = Form::ALL.into_iter().find(|f| f.name() == r.form).ok_or_else(|| {
                    let names: Vec<&str> = Form::ALL.iter().map(|f| f.name()).collect();
                    error(format!("`{key}`: unknown form {:?} (known: {})", r.form, names.join(", ")))
                })?;
                Ok(FormRow { method: r.method, form, samples: r.samples, weights: r.weights })
            })
            .collect()
    };
    let sample_forms = form_rows("sample_forms", doc.sample_forms)?;
    let stack_forms = form_rows("stack_forms", doc.stack_forms)?;
    let compiles = doc
        .compiles
        .into_iter()
        .map(|r| {
            let tier = [Tier::Unknown, Tier::C1, Tier::C2].into_iter().find(|&t| tier_name(t) == r.tier);
            let tier = tier.ok_or_else(|| error(format!("`compiles`: unknown tier {:?} (known: {}, {}, {})", r.tier, tier_name(Tier::Unknown), tier_name(Tier::C1), tier_name(Tier::C2))))?;
            Ok(CompileRow { method: r.method, tier, cpu_ns: r.cpu_ns, looks: r.looks, compilations: r.compilations, osr_compilations: r.osr_compilations })
        })
        .collect::<Result<Vec<_>, ReadError>>()?;
    let code = doc
        .code
        .entries
        .into_iter()
        .map(|e| {
            let kind = match e.kind.as_str() {
                "compiled" => "compiled",
                "generated" => "generated",
                k => return Err(error(format!("`code`: unknown kind {k:?} of {:?} (known: compiled, generated)", e.name))),
            };
            Ok(CodeEntry { start: e.start, size: e.size, name: e.name, kind, method: e.method, inlined: e.inlined, inlined_methods: e.inlined_methods })
        })
        .collect::<Result<Vec<_>, ReadError>>()?;
    let compensation = match doc.compensation {
        None => None,
        Some(c) => {
            let n = c.metrics.len();
            if c.callee.len() != n || c.caller.len() != n || c.applied.len() != n {
                return Err(error(format!(
                    "`compensation` has {n} metrics but {} callee, {} caller and {} applied values (one each per metric)",
                    c.callee.len(),
                    c.caller.len(),
                    c.applied.len()
                )));
            }
            Some(Compensation { metrics: c.metrics, callee: c.callee, caller: c.caller, applied: c.applied, calls_measured: c.calls_measured, how: c.how, measured: c.measured })
        }
    };
    let c = doc.config;
    let config = RecorderConfig {
        calls: c.calls,
        gc: c.gc,
        locks: c.locks,
        waits: c.waits,
        alloc: c.alloc,
        code: c.code,
        filter: ClassFilter { include: c.include.iter().map(|g| Glob::new(g)).collect(), exclude: c.exclude.iter().map(|g| Glob::new(g)).collect() },
        metrics_from_sampler: c.metrics_from_sampler.map(mode),
        stack_samples: c.stack_samples.map(|m| m.into_iter().map(metric).collect()),
        alloc_samples: c.alloc_samples,
        sample_lines: c.sample_lines,
        sample_native: c.sample_native,
        virtual_threads_kept: usize::try_from(c.virtual_threads_kept).unwrap_or(usize::MAX),
    };
    let snapshot = Snapshot {
        phase_calls,
        probe_requests: doc
            .probe_requests
            .into_iter()
            .map(|r| ProbeRequest { add: r.add, pattern: r.pattern, at_ns: r.at_ns, classes: r.classes })
            .collect(),
        probe_windows: doc.probe_windows.into_iter().map(|w| ProbeWindow { method: w.method, from_ns: w.from_ns, to_ns: w.to_ns }).collect(),
        calls,
        locks,
        waits,
        samples,
        sample_timelines,
        sample_states,
        alloc_samples,
        sample_forms,
        stack_forms,
        compiles,
        threads: doc
            .thread_summaries
            .into_iter()
            .map(|t| ThreadSummary {
                name: t.name,
                kind: t.kind,
                os_tid: t.os_tid,
                alive: t.alive,
                method_events: t.method_events,
                exception_exits: t.exception_exits,
                unmatched_exits: t.unmatched_exits,
                vm_alloc_bytes: t.vm_alloc_bytes,
                vm_alloc_objects: t.vm_alloc_objects,
                start_ns: t.start_ns,
                end_ns: t.end_ns,
                scaled_reads: t.scaled_reads,
                in_probes: t.in_probes,
            })
            .collect(),
        gc: doc
            .gc
            .records
            .into_iter()
            .map(|g| GcRecord { start_ns: g.start_ns, duration_ns: g.duration_ns, threads_stopped: usize::try_from(g.threads_stopped).unwrap_or(usize::MAX) })
            .collect(),
        gc_dropped: doc.gc.dropped,
        gc_count: doc.gc.count,
        gc_total_ns: doc.gc.total_ns,
        code,
        code_loads: doc.code.loads,
        code_unloads: doc.code.unloads,
        classes_loaded: doc.classes_loaded,
        classes_prepared: doc.classes_prepared,
        uptime_ns: doc.uptime_ns,
        config,
        compensation,
    };
    let vm_cost = match doc.vm_cost {
        None => None,
        Some(v) => {
            if let Some(i) = v.rows.iter().position(|r| r.counters.len() != v.counters.len()) {
                return Err(error(format!("`vm_cost`: row {i} has {} counter values but there are {} counters", v.rows[i].counters.len(), v.counters.len())));
            }
            Some(VmCostData {
                counters: v.counters,
                lost_threads: v.lost_threads,
                rows: v
                    .rows
                    .into_iter()
                    .map(|r| CostRow { at_ns: r.at_ns, cpu: per_kind(r.cpu), counters: r.counters.into_iter().map(per_kind).collect(), marker: r.marker })
                    .collect(),
            })
        }
    };
    Ok(SavedRun {
        snapshot,
        run: doc.run.map(|r| RunIdentity { pid: r.pid, main: r.main, started_unix_ms: r.started_unix_ms, dumped_unix_ms: r.dumped_unix_ms }),
        vm_cost,
        marks: doc.marks.map(|m| m.into_iter().map(|m| Mark { at_ns: m.at_ns, method_events: m.method_events, text: m.text }).collect()),
    })
}
