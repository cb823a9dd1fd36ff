//! Reports of VM activity: threads, garbage collection, monitors, waits, allocation, code.
//!
//! Pure functions of a recorder [`Snapshot`]; [`all_reports`] gives every file's name and text.
//!
//! | file | what |
//! |---|---|
//! | `threads.txt` | one row per thread: name, kind, CPU time, share of all threads' CPU, calls, …; then the counters per thread (Sweeney et al. 2004, Table 4): tid, share of cycles (of task-clock or CPU time without a PMU), IPC, totals per metric, scaling |
//! | `threads.json` | the counters table as JSON |
//! | `compensation.txt` | the calibrated probe cost per metric and what it removed (when calibrated) |
//! | `gc.txt` | collections: count, total and per collection (start, duration, threads stopped) |
//! | `locks.txt` | contended monitor entries by monitor class and by calling context |
//! | `waits.txt` | `Object.wait` and `LockSupport.park*` by kind (wait, park, park-timed) and class, and by calling context (time, count, timed out) |
//! | `alloc.txt` | allocated bytes and objects by method (self) and by calling context |
//! | `code.txt` | compiled and generated code in the code map, with inlined methods |
//! | `sampled/forms.txt` | per sampled method, the share of its samples in each execution form ([`forms`]) |
//! | `sampled/states.txt` | sampled time by thread state, per thread and per method charged ([`states`]) |
//! | `sampled/jit.txt` | the JIT compiler threads' CPU time by method compiled and tier ([`jit`]) |
//! | `vm-cost.txt` | CPU time by kind of thread (application, GC, JIT, VM, agent) per phase ([`cost`]) |
//! | `marks.txt` | the markers set during the run ([`marks`]) |
//! | `probes.txt` | probes requested while the program ran, and per method reached when its probes were in and its calls ([`probes`]) |
//!
//! The `Run:` line of `threads.txt` and the `run` object of `threads.json` come from [`run`].

pub mod cost;
pub mod forms;
pub mod jit;
pub mod marks;
pub mod probes;
pub mod states;

use std::collections::BTreeMap;
use std::fmt::Write;

use hpm_model::arcflow::{Profile, Tree};
use hpm_model::snapshot::{CodeEntry, Snapshot, PARK_NODE, PARK_TIMED_NODE};

fn ms(ns: u64) -> String {
    format!("{:.3}", ns as f64 / 1e6)
}

fn pct(part: u64, total: u64) -> String {
    if total == 0 {
        "0.00".into()
    } else {
        format!("{:.2}", part as f64 * 100.0 / total as f64)
    }
}

/// All VM reports of a snapshot: (file name, text).
pub fn all_reports(snap: &Snapshot) -> Vec<(&'static str, String)> {
    let mut v = vec![
        ("threads.txt", threads(snap)),
        ("threads.json", threads_json(snap)),
        ("gc.txt", gc(snap)),
        ("locks.txt", contexts_report(&snap.locks, "Contended monitor entries", "contended-time")),
        ("waits.txt", waits(&snap.waits)),
        ("code.txt", code(snap)),
    ];
    if snap.calls.bindings.metric_index("alloc-bytes").is_some() {
        v.push(("alloc.txt", alloc(&snap.calls)));
    }
    if snap.compensation.is_some() {
        v.push(("compensation.txt", compensation(snap)));
    }
    if !snap.probe_requests.is_empty() {
        v.push(("probes.txt", probes::probes(snap)));
    }
    v
}

/// Calls recorded in a thread tree (entries of every context below the root).
fn tree_calls(t: &Tree) -> u64 {
    t.preorder().into_iter().skip(1).map(|n| t.calls(n)).sum()
}

/// `threads.txt`: one row per thread.
pub fn threads(snap: &Snapshot) -> String {
    let p = &snap.calls;
    let cpu = p.bindings.metric_index("cpu-time");
    let wall = p.bindings.metric_index("wall-time");
    let totals: Vec<u64> = p.threads.iter().map(|t| cpu.map_or(0, |i| t.tree.total()[i])).collect();
    let all: u64 = totals.iter().sum();
    let mut s = String::new();
    let _ = writeln!(s, "Threads: {} ({} still running at the dump)", p.threads.len(), snap.threads.iter().filter(|t| t.alive).count());
    let _ = writeln!(s, "CPU time is the thread's CPU time while recorded, in ms; share is of all threads' CPU time.");
    // The probes' own code, where it was measured: a column of its own.
    let in_probes = |i: usize| cpu.and_then(|k| snap.threads.get(i).and_then(|t| t.in_probes.get(k).copied()));
    let measured = snap.threads.iter().any(|t| !t.in_probes.is_empty());
    if measured {
        let all_probes: u64 = (0..p.threads.len()).filter_map(in_probes).sum();
        let _ = writeln!(
            s,
            "probes-ms is the CPU time the probes' own code took on the thread, in no context and in none of its other figures ({} ms in all).",
            ms(all_probes)
        );
    }
    let _ = writeln!(s);
    let probes_header = if measured { format!(" {:>10}", "probes-ms") } else { String::new() };
    let _ = writeln!(
        s,
        "{:>4} {:<12} {:>12} {:>7}{probes_header} {:>12} {:>12} {:>10} {:>8}  name",
        "#", "kind", "cpu-ms", "share%", "wall-ms", "calls", "exc-exits", "state"
    );
    for (i, t) in p.threads.iter().enumerate() {
        let sum = snap.threads.get(i).cloned().unwrap_or_default();
        let w = wall.map_or(0, |k| t.tree.total()[k]);
        let probes = if measured { format!(" {:>10}", ms(in_probes(i).unwrap_or(0))) } else { String::new() };
        let _ = writeln!(
            s,
            "{:>4} {:<12} {:>12} {:>7}{probes} {:>12} {:>12} {:>10} {:>8}  {}",
            i,
            t.kind.as_deref().unwrap_or("-"),
            ms(totals[i]),
            pct(totals[i], all),
            ms(w),
            tree_calls(&t.tree),
            sum.exception_exits,
            if sum.alive { "running" } else { "ended" },
            t.name
        );
    }
    let _ = writeln!(s);
    let _ = writeln!(s, "total cpu-ms {}", ms(all));
    let _ = writeln!(s);
    counters_table(snap, &mut s);
    s
}

/// The index of the metric named `name`, with or without a `:mods` suffix.
pub fn metric_by_base_name(p: &Profile, names: &[&str]) -> Option<usize> {
    names.iter().find_map(|n| {
        p.bindings.metrics.iter().position(|m| m.name == *n || m.name.split_once(':').is_some_and(|(b, _)| b == *n))
    })
}

/// What the counters table is computed from: per thread raw totals, the share metric, IPC inputs.
struct CounterRows {
    /// Index of the metric shares are of (cycles, else task-clock, else cpu-clock, else cpu-time).
    share: Option<usize>,
    instructions: Option<usize>,
    cycles: Option<usize>,
    totals: Vec<Vec<u64>>,
    share_total: u64,
}

fn counter_rows(p: &Profile) -> CounterRows {
    let share = metric_by_base_name(p, &["cycles", "cpu-cycles", "task-clock", "cpu-clock", "cpu-time"]);
    let instructions = metric_by_base_name(p, &["instructions"]);
    let cycles = metric_by_base_name(p, &["cycles", "cpu-cycles"]);
    let totals: Vec<Vec<u64>> = p.threads.iter().map(|t| t.tree.total()).collect();
    let share_total = share.map_or(0, |k| totals.iter().map(|t| t[k]).sum());
    CounterRows { share, instructions, cycles, totals, share_total }
}

fn ipc(r: &CounterRows, t: &[u64]) -> Option<f64> {
    let (i, c) = (r.instructions?, r.cycles?);
    (t[c] > 0).then(|| t[i] as f64 / t[c] as f64)
}

/// The second part of `threads.txt`: one row per thread with every metric's total (raw, not
/// compensated), in the style of Sweeney et al. 2004, Table 4.
fn counters_table(snap: &Snapshot, s: &mut String) {
    let p = &snap.calls;
    let r = counter_rows(p);
    let names: Vec<&str> = p.bindings.metrics.iter().map(|m| m.name.as_str()).collect();
    let _ = writeln!(s, "Counters per thread (totals as counted, not compensated; ns metrics in ms)");
    match r.share {
        Some(k) => {
            let _ = writeln!(s, "share% is of all threads' {}", names[k]);
        }
        None => {
            let _ = writeln!(s, "share%: no cycles, task-clock or cpu-time metric");
        }
    }
    if r.instructions.is_some() && r.cycles.is_some() {
        let _ = writeln!(s, "IPC = instructions / cycles");
    } else {
        let _ = writeln!(s, "IPC: not computed (needs event=instructions and event=cycles)");
    }
    let scaled: u64 = snap.threads.iter().map(|t| t.scaled_reads).sum();
    if scaled == 0 {
        let _ = writeln!(s, "scaling: none (no counter was multiplexed; values are exact counts)");
    } else {
        let n = snap.threads.iter().filter(|t| t.scaled_reads > 0).count();
        let _ = writeln!(s, "scaling: {scaled} reads in {n} threads were scaled for multiplexing (estimates: value x enabled / running)");
    }
    let _ = writeln!(s);
    let head: Vec<String> =
        p.bindings.metrics.iter().map(|m| if m.unit == "ns" { format!("{}-ms", m.name) } else { m.name.clone() }).collect();
    let widths: Vec<usize> = head.iter().map(|h| h.len().max(12)).collect();
    let _ = write!(s, "{:>4} {:>8} {:<12} {:>7} {:>6}", "#", "tid", "kind", "share%", "IPC");
    for (h, w) in head.iter().zip(&widths) {
        let _ = write!(s, " {h:>w$}");
    }
    let _ = writeln!(s, " {:>8}  name", "scaled");
    for (i, t) in p.threads.iter().enumerate() {
        let tot = &r.totals[i];
        let sum = snap.threads.get(i).cloned().unwrap_or_default();
        let tid = t.os_tid.map_or("-".into(), |x| x.to_string());
        let share = r.share.map_or("-".into(), |k| pct(tot[k], r.share_total));
        let ipc = ipc(&r, tot).map_or("-".into(), |x| format!("{x:.3}"));
        let _ = write!(s, "{:>4} {:>8} {:<12} {:>7} {:>6}", i, tid, t.kind.as_deref().unwrap_or("-"), share, ipc);
        for (k, w) in widths.iter().enumerate() {
            let v = if p.bindings.metrics[k].unit == "ns" { ms(tot[k]) } else { tot[k].to_string() };
            let _ = write!(s, " {v:>w$}");
        }
        let _ = writeln!(s, " {:>8}  {}", if sum.scaled_reads == 0 { "no".to_string() } else { sum.scaled_reads.to_string() }, t.name);
    }
}

/// `threads.json`: the counters table (raw totals per metric, in the metric's units).
pub fn threads_json(snap: &Snapshot) -> String {
    use serde_json::{json, Map, Value};
    let p = &snap.calls;
    let r = counter_rows(p);
    let threads: Vec<Value> = p
        .threads
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let tot = &r.totals[i];
            let sum = snap.threads.get(i).cloned().unwrap_or_default();
            let totals: Map<String, Value> =
                p.bindings.metrics.iter().zip(tot).map(|(m, v)| (m.name.clone(), json!(v))).collect();
            let in_probes: Option<Map<String, Value>> = (!sum.in_probes.is_empty())
                .then(|| p.bindings.metrics.iter().zip(&sum.in_probes).map(|(m, v)| (m.name.clone(), json!(v))).collect());
            json!({
                "index": i,
                "name": t.name,
                "kind": t.kind,
                "os_tid": t.os_tid,
                "alive": sum.alive,
                "calls": tree_calls(&t.tree),
                "share": r.share.map(|k| if r.share_total == 0 { 0.0 } else { tot[k] as f64 / r.share_total as f64 }),
                "ipc": ipc(&r, tot),
                "scaled_reads": sum.scaled_reads,
                "totals": totals,
                "in_probes": in_probes,
            })
        })
        .collect();
    let v = json!({
        "share_metric": r.share.map(|k| p.bindings.metrics[k].name.clone()),
        "metrics": p.bindings.metrics.iter().map(|m| json!({"name": m.name, "unit": m.unit})).collect::<Vec<_>>(),
        "scaled": snap.threads.iter().any(|t| t.scaled_reads > 0),
        "compensation": snap.compensation.as_ref().map(|c| json!({
            "metrics": c.metrics, "callee": c.callee, "caller": c.caller, "applied": c.applied, "calls_measured": c.calls_measured, "how": c.how,
            "measured": c.measured,
        })),
        "threads": threads,
    });
    let mut out = serde_json::to_string_pretty(&v).unwrap_or_default();
    out.push('\n');
    out
}

/// `compensation.txt`: the probes' cost per metric, measured in their own code (what the sampler
/// credited to no context) and estimated per call (the calibration), and how much of each metric
/// the two took out.
pub fn compensation(snap: &Snapshot) -> String {
    let mut s = String::new();
    let Some(c) = &snap.compensation else {
        return "overhead compensation: not calibrated\n".into();
    };
    let raw = snap.calls.total();
    let comp = snap.compensated_calls().total();
    let measured = |k: usize| c.measured.get(k).copied().unwrap_or(0);
    if c.measured.is_empty() {
        let _ = writeln!(s, "Overhead compensation (Golm et al. 2002, section 2): probe cost calibrated over {} calls", c.calls_measured);
    } else {
        let _ = writeln!(s, "Overhead compensation: the probes' cost measured where it lands");
    }
    let _ = writeln!(s, "measured: {}", c.how);
    if !c.measured.is_empty() {
        let _ = writeln!(s, "in-probes = sampled while the probes' own compiled code ran: credited to no context, so in no report.");
    }
    let _ = writeln!(s, "callee = per call, charged to the called method; caller = per child call, charged to the caller.");
    let _ = writeln!(s, "Reports show base - calls x callee - child calls x caller (at least 0) for the applied metrics;");
    let _ = writeln!(s, "threads.txt and arcflow-raw.json keep the raw values. removed% = (in-probes + raw - compensated) / (in-probes + raw).");
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "{:<24} {:>12} {:>12} {:>8} {:>16} {:>16} {:>16} {:>9}",
        "metric", "callee", "caller", "applied", "in-probes", "raw-total", "compensated", "removed%"
    );
    for (k, name) in c.metrics.iter().enumerate() {
        let (r, m, p) = (raw.get(k).copied().unwrap_or(0), comp.get(k).copied().unwrap_or(0), measured(k));
        let whole = r.saturating_add(p);
        let _ = writeln!(
            s,
            "{:<24} {:>12.1} {:>12.1} {:>8} {:>16} {:>16} {:>16} {:>9}",
            name,
            c.callee[k],
            c.caller[k],
            if c.applied[k] { "yes" } else { "no" },
            p,
            r,
            m,
            if whole == 0 { "-".to_string() } else { format!("{:.1}", 100.0 * (whole - m.min(whole)) as f64 / whole as f64) }
        );
    }
    if let Some(note) = compensation_note(snap) {
        let _ = writeln!(s);
        let _ = writeln!(s, "{note}");
    }
    s
}

/// Above this share of a time metric taken out for the probes' cost, the reports say so: most of
/// what was measured was the probes, and the exact tree's time shares are estimates.
const COMPENSATION_NOTE_PERCENT: f64 = 25.0;

/// One line when the probes' cost (measured in their code, or calibrated per call) is more than
/// [`COMPENSATION_NOTE_PERCENT`] of the recorded `cpu-time` (or the first time metric): how much,
/// and what measures the run without the probes. `compensation.txt` ends with it, and the agent
/// prints it at exit.
pub fn compensation_note(snap: &Snapshot) -> Option<String> {
    let c = snap.compensation.as_ref()?;
    let measured_at = |i: usize| c.measured.get(i).copied().unwrap_or(0);
    let k = c.metrics.iter().position(|m| m == "cpu-time").or_else(|| (0..c.metrics.len()).find(|&i| c.applied[i] || measured_at(i) > 0))?;
    let measured = measured_at(k);
    if !c.applied.get(k).copied().unwrap_or(false) && measured == 0 {
        return None;
    }
    let raw = snap.calls.total().get(k).copied().unwrap_or(0);
    let comp = snap.compensated_calls().total().get(k).copied().unwrap_or(0);
    let whole = raw.saturating_add(measured);
    if whole == 0 {
        return None;
    }
    let removed = 100.0 * (whole - comp.min(whole)) as f64 / whole as f64;
    let name = &c.metrics[k];
    (removed > COMPENSATION_NOTE_PERCENT).then(|| {
        if measured > 0 {
            format!(
                "note: the probes' own code took {removed:.0}% of the recorded {name}; it is in no report, \
                 but where calls are this dense the probes also slow the code around them: calls=none,sample=cpu measures without probes"
            )
        } else {
            format!(
                "note: the probes' calibrated cost ({:.1} ns per call) is {removed:.0}% of the recorded {name}; it is removed from the reports, \
                 but where calls are this dense the time shares of small methods are estimates: calls=none,sample=cpu measures them without probes",
                c.callee[k] + c.caller[k],
            )
        }
    })
}

/// `gc.txt`: garbage collections.
pub fn gc(snap: &Snapshot) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "Garbage collections (stop-the-world pauses reported by the VM)");
    let _ = writeln!(s, "count {}", snap.gc_count);
    let _ = writeln!(s, "total-ms {}", ms(snap.gc_total_ns));
    if let Some(mean) = snap.gc_total_ns.checked_div(snap.gc_count) {
        let _ = writeln!(s, "mean-ms {}", ms(mean));
        let max = snap.gc.iter().map(|g| g.duration_ns).max().unwrap_or(0);
        let _ = writeln!(s, "max-ms {}", ms(max));
    }
    let _ = writeln!(s, "share-of-run% {}", pct(snap.gc_total_ns, snap.uptime_ns));
    if snap.gc_dropped > 0 {
        let _ = writeln!(s, "not-listed {} (log full; counted in the totals)", snap.gc_dropped);
    }
    let _ = writeln!(s);
    let _ = writeln!(s, "At a stop-the-world pause every Java thread is stopped at a safepoint: 'threads' is the");
    let _ = writeln!(s, "number of Java threads alive at the start of the pause.");
    let _ = writeln!(s);
    let _ = writeln!(s, "{:>6} {:>14} {:>12} {:>8}", "#", "start-ms", "duration-ms", "threads");
    for (i, g) in snap.gc.iter().enumerate() {
        let _ = writeln!(s, "{:>6} {:>14} {:>12} {:>8}", i, ms(g.start_ns), ms(g.duration_ns), g.threads_stopped);
    }
    s
}

/// Locks: the leaf contexts (monitor class nodes) with their calls and base values, summed by
/// monitor class and listed by calling context.
pub fn contexts_report(p: &Profile, title: &str, time_metric: &str) -> String {
    class_contexts(p, title, time_metric, None)
}

/// `waits.txt`: `Object.wait` and `LockSupport.park*` by kind and class (the monitor's, the
/// blocker's) and by calling context. A park's class node hangs below a node naming its kind
/// ([`PARK_NODE`], [`PARK_TIMED_NODE`]), which is shown as the kind column, not in the path;
/// every other class node is an `Object.wait` (saved runs from before parks were recorded too).
pub fn waits(p: &Profile) -> String {
    let kind = |parent: Option<&str>| match parent {
        Some(PARK_NODE) => ("park", true),
        Some(PARK_TIMED_NODE) => ("park-timed", true),
        _ => ("wait", false),
    };
    let mut s = class_contexts(p, "Waits (Object.wait: wait; LockSupport.park: park, park-timed with parkNanos/parkUntil)", "wait-time", Some(&kind));
    s.push_str("\nkind wait: Object.wait, class of the monitor; park: LockSupport.park until unparked, park-timed:\nparkNanos/parkUntil (timed-out: it lasted its whole timeout), class of the blocker object\n(LockSupport.getBlocker; '(no blocker)' without one).\n");
    s
}

/// What a wait tree's class node is, from its parent's name: (kind, whether the parent is a
/// kind node, left out of the path).
type KindOf<'a> = &'a dyn Fn(Option<&str>) -> (&'static str, bool);

/// [`contexts_report`], with a kind column (and the kind nodes out of the paths) given `kind_of`.
fn class_contexts(p: &Profile, title: &str, time_metric: &str, kind_of: Option<KindOf<'_>>) -> String {
    let m = p.metric_count();
    let ti = p.bindings.metric_index(time_metric).unwrap_or(0);
    let mut by_class: BTreeMap<String, (u64, Vec<u64>)> = BTreeMap::new();
    let mut rows: Vec<(String, String, u64, Vec<u64>)> = Vec::new();
    for th in &p.threads {
        let t = &th.tree;
        for n in t.preorder().into_iter().skip(1) {
            if t.calls(n) == 0 {
                continue;
            }
            let class = p.consumers.name(t.consumer(n)).to_string();
            let mut path: Vec<&str> = t.path(n)[1..t.depth(n)].iter().map(|&c| p.consumers.name(c)).collect();
            let (kind, kind_node) = kind_of.map_or(("", false), |k| k(path.last().copied()));
            if kind_node {
                path.pop();
            }
            let key = if kind_of.is_some() { format!("{kind:<10}  {class}") } else { class.clone() };
            let e = by_class.entry(key).or_insert((0, vec![0; m]));
            e.0 += t.calls(n);
            for (a, b) in e.1.iter_mut().zip(t.base(n)) {
                *a += b;
            }
            let kind = if kind_of.is_some() { format!("{kind:<10}  ") } else { String::new() };
            rows.push((th.name.clone(), format!("{kind}{}: {} -> {class}", th.name, if path.is_empty() { "(no method)".into() } else { path.join(" > ") }), t.calls(n), t.base(n).to_vec()));
        }
    }
    let names: Vec<&str> = p.bindings.metrics.iter().map(|x| x.name.as_str()).collect();
    let mut s = String::new();
    let _ = writeln!(s, "{title}");
    let total: u64 = by_class.values().map(|v| v.0).sum();
    let _ = writeln!(s, "count {total}");
    let _ = writeln!(s, "{}-ms {}", names[ti], ms(by_class.values().map(|v| v.1[ti]).sum()));
    let _ = writeln!(s);
    let kind_header = if kind_of.is_some() { format!("{:<10}  ", "kind") } else { String::new() };
    let _ = writeln!(s, "{}", if kind_of.is_some() { "By kind and class:" } else { "By monitor class:" });
    let _ = writeln!(s, "{:>10} {:>14} {}  {kind_header}class", "count", format!("{}-ms", names[ti]), extra_header(&names, ti));
    let mut classes: Vec<_> = by_class.into_iter().collect();
    classes.sort_by(|a, b| b.1 .1[ti].cmp(&a.1 .1[ti]).then(a.0.cmp(&b.0)));
    for (class, (calls, base)) in &classes {
        let _ = writeln!(s, "{:>10} {:>14} {}  {}", calls, ms(base[ti]), extra_values(base, ti), class);
    }
    let _ = writeln!(s);
    let _ = writeln!(s, "By calling context ({kind_header}thread: path -> {}class):", if kind_of.is_some() { "" } else { "monitor " });
    rows.sort_by(|a, b| b.3[ti].cmp(&a.3[ti]).then(a.0.cmp(&b.0)).then(a.1.cmp(&b.1)));
    for (_, row, calls, base) in &rows {
        let _ = writeln!(s, "{:>10} {:>14} {}  {}", calls, ms(base[ti]), extra_values(base, ti), row);
    }
    s
}

fn extra_header(names: &[&str], skip: usize) -> String {
    names.iter().enumerate().filter(|(i, _)| *i != skip).map(|(_, n)| format!("{n:>10}")).collect::<Vec<_>>().join(" ")
}

fn extra_values(base: &[u64], skip: usize) -> String {
    base.iter().enumerate().filter(|(i, _)| *i != skip).map(|(_, v)| format!("{v:>10}")).collect::<Vec<_>>().join(" ")
}

/// `alloc.txt`: allocation by method (self, summed over contexts and threads) and by context.
pub fn alloc(p: &Profile) -> String {
    let (Some(bi), Some(oi)) = (p.bindings.metric_index("alloc-bytes"), p.bindings.metric_index("alloc-objects")) else {
        return "allocation was not recorded (collect=alloc)\n".into();
    };
    let mut by_method: BTreeMap<String, (u64, u64)> = BTreeMap::new();
    let mut rows = Vec::new();
    let (mut tb, mut to) = (0, 0);
    for th in &p.threads {
        let t = &th.tree;
        for n in t.preorder() {
            let (b, o) = (t.base(n)[bi], t.base(n)[oi]);
            if b == 0 && o == 0 {
                continue;
            }
            tb += b;
            to += o;
            let name = p.consumers.name(t.consumer(n)).to_string();
            let e = by_method.entry(if n == Tree::ROOT { format!("(thread {name}, outside recorded methods)") } else { name }).or_default();
            e.0 += b;
            e.1 += o;
            let path: Vec<&str> = t.path(n).iter().map(|&c| p.consumers.name(c)).collect();
            rows.push((b, o, path.join(" > ")));
        }
    }
    let mut s = String::new();
    let _ = writeln!(s, "Allocation (sampled objects, charged to the allocating context)");
    let _ = writeln!(s, "bytes {tb}");
    let _ = writeln!(s, "objects {to}");
    let _ = writeln!(s);
    let _ = writeln!(s, "By method (self):");
    let _ = writeln!(s, "{:>14} {:>7} {:>12}  method", "bytes", "bytes%", "objects");
    let mut m: Vec<_> = by_method.into_iter().collect();
    m.sort_by(|a, b| b.1 .0.cmp(&a.1 .0).then(a.0.cmp(&b.0)));
    for (name, (b, o)) in &m {
        let _ = writeln!(s, "{:>14} {:>7} {:>12}  {}", b, pct(*b, tb), o, name);
    }
    let _ = writeln!(s);
    let _ = writeln!(s, "By calling context:");
    rows.sort_by(|a, b| b.0.cmp(&a.0).then(a.2.cmp(&b.2)));
    for (b, o, path) in &rows {
        let _ = writeln!(s, "{:>14} {:>12}  {}", b, o, path);
    }
    s
}

/// The code map in Linux perf's format (`/tmp/perf-<pid>.map`: `START SIZE name`, hex), compiled
/// methods marked `[j]` as perf's own JIT support does.
pub fn perf_map(code: &[CodeEntry]) -> String {
    let mut s = String::new();
    for e in code {
        let mark = if e.kind == "compiled" { "[j] " } else { "" };
        let _ = writeln!(s, "{:x} {:x} {mark}{}", e.start, e.size, e.name);
    }
    s
}

/// `code.txt`: the code map.
pub fn code(snap: &Snapshot) -> String {
    let mut s = String::new();
    let compiled = snap.code.iter().filter(|c| c.kind == "compiled").count();
    if snap.code.is_empty() && snap.code_loads == 0 {
        // HotSpot posts generated stubs at least: none means no code events were taken.
        let _ = writeln!(s, "Code map: empty (no code events: an interpreter compiles nothing; on HotSpot, calls=none leaves the code map out unless collect= names code or perf-map=on asks for a perf map)");
    } else {
        let _ = writeln!(s, "Code map: {} live entries ({} compiled methods, {} generated)", snap.code.len(), compiled, snap.code.len() - compiled);
    }
    let _ = writeln!(s, "loads {} unloads {}", snap.code_loads, snap.code_unloads);
    let _ = writeln!(s, "classes loaded {} prepared {}", snap.classes_loaded, snap.classes_prepared);
    let _ = writeln!(s);
    let _ = writeln!(s, "{:>18} {:>8} {:<9} name [inlined]", "start", "size", "kind");
    for c in &snap.code {
        let inl = if c.inlined.is_empty() { String::new() } else { format!(" [inlined: {}]", c.inlined.join(", ")) };
        let _ = writeln!(s, "{:>#18x} {:>8} {:<9} {}{}", c.start, c.size, c.kind, c.name, inl);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use hpm_model::metrics::{Metric, MetricSet, ThreadMetrics};
    use hpm_model::snapshot::{ClassFilter, RecorderConfig};
    use hpm_collectors::recorder::{MethodResolver, Recorder, ThreadInfo};
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::Arc;

    #[test]
    fn perf_map_lines_are_hex_start_size_and_name_with_jit_code_marked() {
        let code = [
            CodeEntry { start: 0x1000, size: 0x100, name: "p.C.m1".into(), kind: "compiled", method: 1, inlined: vec!["p.C.m2".into()], inlined_methods: vec![] },
            CodeEntry { start: 0x2000, size: 0x10, name: "Interpreter".into(), kind: "generated", method: 0, inlined: vec![], inlined_methods: vec![] },
        ];
        assert_eq!(perf_map(&code), "1000 100 [j] p.C.m1\n2000 10 Interpreter\n");
    }

    /// instructions, cycles, task-clock (ns): whatever the test stores; scaled reads on demand.
    struct Fake(Arc<[AtomicU64; 4]>);
    struct FakeReader(Arc<[AtomicU64; 4]>);
    impl ThreadMetrics for FakeReader {
        fn read(&mut self, out: &mut [u64]) {
            for (o, v) in out.iter_mut().zip(self.0.iter()) {
                *o = v.load(Ordering::Relaxed);
            }
        }
        fn scaled_reads(&self) -> u64 {
            self.0[3].load(Ordering::Relaxed)
        }
    }
    impl MetricSet for Fake {
        fn metrics(&self) -> Vec<Metric> {
            vec![Metric::new("instructions", ""), Metric::new("cycles", ""), Metric::new("task-clock", "ns")]
        }
        fn open_current_thread(&self) -> Box<dyn ThreadMetrics> {
            Box::new(FakeReader(self.0.clone()))
        }
    }
    struct Names;
    impl MethodResolver for Names {
        fn resolve(&mut self, m: u64, _: &ClassFilter, out: &mut Vec<(u64, Option<String>)>) {
            out.push((m, Some(format!("p.C.m{m}"))));
        }
        fn stack(&mut self, _: &mut Vec<u64>) {}
    }

    /// compensation.txt says what share each metric lost, and ends with a note when the probes'
    /// cost is most of what was measured (above 25% of the first time metric), not otherwise.
    #[test]
    fn compensation_says_how_much_it_removed_and_warns_when_it_is_most() {
        for (ns_per_call, note) in [(60.0, true), (10.0, false)] {
            let v: Arc<[AtomicU64; 4]> = Arc::new(Default::default());
            let r = Recorder::new(RecorderConfig::default(), Box::new(Fake(v.clone())));
            let a = r.register_current_thread(ThreadInfo { name: "a".into(), kind: None, os_tid: Some(42) });
            let mut t = 0;
            r.method_entry(&a, 1, &mut Names);
            for _ in 0..10 {
                r.method_entry(&a, 2, &mut Names);
                t += 100;
                v[2].store(t, Ordering::Relaxed);
                r.method_exit(&a, 2, false, &mut Names);
            }
            t += 1000;
            v[2].store(t, Ordering::Relaxed);
            r.method_exit(&a, 1, false, &mut Names);
            // 10 child calls of m1 x 60 ns = 600 of 2000 ns: 30% removed.
            let metrics = r.bindings().metrics.clone();
            r.set_compensation(hpm_model::snapshot::Compensation::from_call_cost(&metrics, ns_per_call, 0.0, 1000, "test".into()));
            let text = compensation(&r.snapshot());
            let row = text.lines().find(|l| l.starts_with("task-clock")).unwrap_or_else(|| panic!("{text}"));
            let removed: f64 = row.split_whitespace().last().unwrap().parse().unwrap();
            assert!((removed - ns_per_call * 10.0 / 20.0).abs() < 0.11, "{row}");
            assert_eq!(text.contains(&format!("note: the probes' calibrated cost ({ns_per_call:.1} ns per call) is 30% of the recorded task-clock")), note, "{text}");
        }
    }

    /// Measured in the probes' own code: compensation.txt gives it as in-probes, removes nothing
    /// per call, counts it in removed%, and the note and threads.txt say so.
    #[test]
    fn the_probes_cost_measured_in_their_code_is_reported_not_subtracted() {
        let v: Arc<[AtomicU64; 4]> = Arc::new(Default::default());
        let r = Recorder::new(RecorderConfig::default(), Box::new(Fake(v.clone())));
        let a = r.register_current_thread(ThreadInfo { name: "a".into(), kind: None, os_tid: Some(42) });
        r.method_entry(&a, 1, &mut Names);
        v[2].store(1000, Ordering::Relaxed);
        r.method_exit(&a, 1, false, &mut Names);
        let metrics = r.bindings().metrics.clone();
        let k = metrics.iter().position(|m| m.name == "task-clock").unwrap();
        r.set_compensation(hpm_model::snapshot::Compensation::from_call_cost(&metrics, 60.0, 0.0, 0, "measured".into()).measured_only());
        let mut measured = vec![0; metrics.len()];
        measured[k] = 3000;
        r.set_in_probes(&a, measured);
        let snap = r.snapshot();
        let text = compensation(&snap);
        let row = text.lines().find(|l| l.starts_with("task-clock")).unwrap_or_else(|| panic!("{text}"));
        let cols: Vec<&str> = row.split_whitespace().collect();
        // callee, caller, applied, in-probes, raw, compensated, removed%: 3000 of 4000 ns.
        assert_eq!(cols[1..], ["0.0", "0.0", "no", "3000", "1000", "1000", "75.0"], "{text}");
        assert_eq!(snap.compensated_calls().total(), snap.calls.total());
        let note = compensation_note(&snap).unwrap_or_default();
        assert!(note.starts_with("note: the probes' own code took 75% of the recorded task-clock"), "{note}");
        // Per thread too, in threads.json.
        let j: serde_json::Value = serde_json::from_str(&threads_json(&snap)).unwrap();
        assert_eq!(j["threads"][0]["in_probes"]["task-clock"], 3000, "{j}");
        assert_eq!(j["compensation"]["measured"][k], 3000, "{j}");
    }

    #[test]
    fn counters_table_has_share_ipc_totals_and_scaling() {
        let v: Arc<[AtomicU64; 4]> = Arc::new(Default::default());
        let r = Recorder::new(RecorderConfig::default(), Box::new(Fake(v.clone())));
        let set = |i: u64, c: u64, t: u64| {
            v[0].store(i, Ordering::Relaxed);
            v[1].store(c, Ordering::Relaxed);
            v[2].store(t, Ordering::Relaxed);
        };
        let a = r.register_current_thread(ThreadInfo { name: "a".into(), kind: Some("application".into()), os_tid: Some(42) });
        r.method_entry(&a, 1, &mut Names);
        set(3000, 2000, 1_000_000);
        r.method_exit(&a, 1, false, &mut Names);
        let b = r.register_current_thread(ThreadInfo { name: "b".into(), kind: None, os_tid: Some(43) });
        r.method_entry(&b, 1, &mut Names);
        set(4000, 8000, 4_000_000);
        v[3].store(5, Ordering::Relaxed);
        r.method_exit(&b, 1, false, &mut Names);
        let snap = r.snapshot();
        let t = threads(&snap);
        assert!(t.contains("share% is of all threads' cycles"), "{t}");
        assert!(t.contains("IPC = instructions / cycles"), "{t}");
        assert!(t.contains("scaling: 10 reads in 2 threads were scaled"), "{t}");
        let row_a = t.lines().find(|l| l.ends_with("  a") && l.contains(" 42 ")).unwrap();
        // a: 2000 of 8000 cycles (b started after a's reads: 6000 more), IPC 1.5, 1 ms task-clock.
        assert!(row_a.contains("25.00") && row_a.contains("1.500") && row_a.contains("1.000"), "{row_a}");
        let j: serde_json::Value = serde_json::from_str(&threads_json(&snap)).unwrap();
        assert_eq!(j["share_metric"], "cycles");
        assert_eq!(j["scaled"], true);
        assert_eq!(j["threads"][0]["os_tid"], 42);
        assert_eq!(j["threads"][0]["ipc"], 1.5);
        assert_eq!(j["threads"][1]["totals"]["cycles"], 6000);
        assert_eq!(j["threads"][1]["totals"]["task-clock"], 3_000_000);
        assert!(j["compensation"].is_null());
        assert!(!all_reports(&snap).iter().any(|(n, _)| *n == "compensation.txt"));
    }
}
