//! `probes.txt`: the probes requested while the program ran (`hpm ctl PID probe add|remove`), and
//! for each method they reached, when its probes were in and the calls counted.

use std::collections::HashMap;
use std::fmt::Write as _;

use hpm_model::snapshot::Snapshot;

/// The text of `probes.txt`; empty when no probe was requested.
pub fn probes(snap: &Snapshot) -> String {
    let mut s = String::new();
    if snap.probe_requests.is_empty() && snap.probe_windows.is_empty() {
        return s;
    }
    let secs = |ns: u64| format!("{:.3} s", ns as f64 / 1e9);
    let _ = writeln!(s, "Probes requested while the program ran (hpm ctl PID probe add|remove), times from the start of the recording.");
    let _ = writeln!(s, "A method's calls are counted only while its probes are in: its counts are exact within its windows below,");
    let _ = writeln!(s, "and calls that started before its probes went in (or after they came out) are not in the trees.");
    let _ = writeln!(s);
    let _ = writeln!(s, "{:>10}  {:<6}  {:>8}  pattern", "at", "action", "classes");
    for r in &snap.probe_requests {
        let _ = writeln!(s, "{:>10}  {:<6}  {:>8}  {}", secs(r.at_ns), if r.add { "add" } else { "remove" }, r.classes, r.pattern);
    }
    // Calls per method over all threads' trees (the whole run: a method is counted only inside its
    // windows, so these are the calls of its windows).
    let mut calls: HashMap<&str, u64> = HashMap::new();
    for t in &snap.calls.threads {
        for n in t.tree.preorder().into_iter().skip(1) {
            *calls.entry(snap.calls.consumers.name(t.tree.consumer(n))).or_default() += t.tree.calls(n);
        }
    }
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "Methods reached: {} ({} with probes in at the end)",
        snap.probe_windows.len(),
        snap.probe_windows.iter().filter(|w| w.to_ns.is_none()).count()
    );
    let _ = writeln!(s, "{:>10}  {:>10}  {:>12}  method", "from", "to", "calls");
    let mut windows: Vec<_> = snap.probe_windows.iter().collect();
    windows.sort_by(|a, b| a.method.cmp(&b.method).then(a.from_ns.cmp(&b.from_ns)));
    let mut last = "";
    for w in windows {
        // A method with several windows: its calls once, on its first line.
        let n = if w.method == last { String::new() } else { calls.get(w.method.as_str()).copied().unwrap_or(0).to_string() };
        last = &w.method;
        let to = w.to_ns.map_or_else(|| "(end)".to_string(), secs);
        let _ = writeln!(s, "{:>10}  {:>10}  {n:>12}  {}", secs(w.from_ns), to, w.method);
    }
    s
}
