//! Reports of VM activity: threads, garbage collection, monitors, waits, allocation, code.
//!
//! Pure functions of a recorder [`Snapshot`]; [`all_reports`] gives every file's name and text.
//!
//! | file | what |
//! |---|---|
//! | `threads.txt` | one row per thread: name, kind, CPU time, share of all threads' CPU, calls, … |
//! | `gc.txt` | collections: count, total and per collection (start, duration, threads stopped) |
//! | `locks.txt` | contended monitor entries by monitor class and by calling context |
//! | `waits.txt` | `Object.wait` by monitor class and by calling context (time, count, timed out) |
//! | `alloc.txt` | allocated bytes and objects by method (self) and by calling context |
//! | `code.txt` | compiled and generated code in the code map, with inlined methods |

use std::collections::BTreeMap;
use std::fmt::Write;

use hpm_collectors::arcflow::{Profile, Tree};
use hpm_collectors::recorder::Snapshot;

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
        ("gc.txt", gc(snap)),
        ("locks.txt", contexts_report(&snap.locks, "Contended monitor entries", "contended-time")),
        ("waits.txt", contexts_report(&snap.waits, "Monitor waits (Object.wait)", "wait-time")),
        ("code.txt", code(snap)),
    ];
    if snap.calls.bindings.metric_index("alloc-bytes").is_some() {
        v.push(("alloc.txt", alloc(&snap.calls)));
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
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "{:>4} {:<12} {:>12} {:>7} {:>12} {:>12} {:>10} {:>8}  name",
        "#", "kind", "cpu-ms", "share%", "wall-ms", "calls", "exc-exits", "state"
    );
    for (i, t) in p.threads.iter().enumerate() {
        let sum = snap.threads.get(i).cloned().unwrap_or_default();
        let w = wall.map_or(0, |k| t.tree.total()[k]);
        let _ = writeln!(
            s,
            "{:>4} {:<12} {:>12} {:>7} {:>12} {:>12} {:>10} {:>8}  {}",
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
    s
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

/// Locks or waits: the leaf contexts (monitor class nodes) with their calls and base values,
/// summed by monitor class and listed by calling context.
pub fn contexts_report(p: &Profile, title: &str, time_metric: &str) -> String {
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
            let path: Vec<&str> = t.path(n)[1..t.depth(n)].iter().map(|&c| p.consumers.name(c)).collect();
            let e = by_class.entry(class.clone()).or_insert((0, vec![0; m]));
            e.0 += t.calls(n);
            for (a, b) in e.1.iter_mut().zip(t.base(n)) {
                *a += b;
            }
            rows.push((th.name.clone(), format!("{} -> {class}", if path.is_empty() { "(no method)".into() } else { path.join(" > ") }), t.calls(n), t.base(n).to_vec()));
        }
    }
    let names: Vec<&str> = p.bindings.metrics.iter().map(|x| x.name.as_str()).collect();
    let mut s = String::new();
    let _ = writeln!(s, "{title}");
    let total: u64 = by_class.values().map(|v| v.0).sum();
    let _ = writeln!(s, "count {total}");
    let _ = writeln!(s, "{}-ms {}", names[ti], ms(by_class.values().map(|v| v.1[ti]).sum()));
    let _ = writeln!(s);
    let _ = writeln!(s, "By monitor class:");
    let _ = writeln!(s, "{:>10} {:>14} {}  class", "count", format!("{}-ms", names[ti]), extra_header(&names, ti));
    let mut classes: Vec<_> = by_class.into_iter().collect();
    classes.sort_by(|a, b| b.1 .1[ti].cmp(&a.1 .1[ti]).then(a.0.cmp(&b.0)));
    for (class, (calls, base)) in &classes {
        let _ = writeln!(s, "{:>10} {:>14} {}  {}", calls, ms(base[ti]), extra_values(base, ti), class);
    }
    let _ = writeln!(s);
    let _ = writeln!(s, "By calling context (thread: path -> monitor class):");
    rows.sort_by(|a, b| b.3[ti].cmp(&a.3[ti]).then(a.0.cmp(&b.0)).then(a.1.cmp(&b.1)));
    for (thread, path, calls, base) in &rows {
        let _ = writeln!(s, "{:>10} {:>14} {}  {}: {}", calls, ms(base[ti]), extra_values(base, ti), thread, path);
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

/// `code.txt`: the code map.
pub fn code(snap: &Snapshot) -> String {
    let mut s = String::new();
    let compiled = snap.code.iter().filter(|c| c.kind == "compiled").count();
    let _ = writeln!(s, "Code map: {} live entries ({} compiled methods, {} generated)", snap.code.len(), compiled, snap.code.len() - compiled);
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
