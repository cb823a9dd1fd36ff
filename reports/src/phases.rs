//! `phases.txt` and `phases/phase-N/`: the exact call trees split by the markers of the run
//! (`Snapshot::phase_calls`): phase 1 from the start to the first marker, phase N from marker
//! N−1 to marker N, the last from the last marker that split to the end of the recording.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io;
use std::path::{Path, PathBuf};

use hpm_model::arcflow::{ConsumerId, Profile};

use hpm_model::saved::Mark;
use crate::{write_reports, Format, ReportOptions};

/// Methods listed per phase in `phases.txt`.
const TOP: usize = 10;

/// Where phase `i` (0-based) of `count` starts and ends: (ms from the start, the marker's text),
/// "start" and "end" at the ends.
fn bounds(i: usize, count: usize, marks: &[Mark], uptime_ns: u64) -> ((f64, String), (f64, String)) {
    let at = |k: usize| marks.get(k).map(|m| (m.at_ns as f64 / 1e6, format!("'{}'", m.text.replace(['\n', '\t'], " "))));
    let from = if i == 0 { (0.0, "start".to_string()) } else { at(i - 1).unwrap_or((f64::NAN, "?".into())) };
    let to = if i + 1 == count { (uptime_ns as f64 / 1e6, "end".to_string()) } else { at(i).unwrap_or((f64::NAN, "?".into())) };
    (from, to)
}

/// The text of `phases.txt`: per phase its bounds, its calls and total of `metric`, and its
/// methods with the most self `metric` (the sum over every context of the method, all threads).
pub fn phases_txt(phases: &[Profile], marks: &[Mark], uptime_ns: u64, metric: usize) -> String {
    let mut s = String::new();
    let Some(first) = phases.first() else { return s };
    let m = &first.bindings.metrics[metric];
    let _ = writeln!(s, "# The exact call trees split by the run's markers: phase 1 from the start to the first marker, each next one to the next marker,");
    let _ = writeln!(s, "# the last to the end. Self {} ({}) by method, all threads; each phase's trees are in phases/phase-N/.", m.name, m.unit);
    let splits = phases.len() - 1;
    if marks.len() > splits {
        let _ = writeln!(s, "# {} later marker(s) did not split the trees (at most {splits} splits): their time is in the last phase.", marks.len() - splits);
    }
    for (i, p) in phases.iter().enumerate() {
        let ((from_ms, from), (to_ms, to)) = bounds(i, phases.len(), marks, uptime_ns);
        let (mut calls, mut total) = (0u64, 0u64);
        let mut by_method: HashMap<ConsumerId, (u64, u64)> = HashMap::new();
        for t in &p.threads {
            let tree = &t.tree;
            for n in 1..tree.len() as u32 {
                let (c, v) = (tree.calls(n), tree.base(n)[metric]);
                calls += c;
                total = total.saturating_add(v);
                let e = by_method.entry(tree.consumer(n)).or_default();
                e.0 += c;
                e.1 = e.1.saturating_add(v);
            }
        }
        let _ = writeln!(s, "\nPhase {}: {from} ({from_ms:.3} ms) to {to} ({to_ms:.3} ms): {} thread(s), {calls} calls, {} {total} {}", i + 1, p.threads.len(), m.name, m.unit);
        let mut top: Vec<(ConsumerId, (u64, u64))> = by_method.into_iter().filter(|(_, (c, v))| *c > 0 || *v > 0).collect();
        top.sort_by(|a, b| b.1 .1.cmp(&a.1 .1).then(b.1 .0.cmp(&a.1 .0)).then(a.0.cmp(&b.0)));
        let _ = writeln!(s, "  {:>7}  {:>14}  {:>12}  method", "self %", format!("self {}", m.name), "calls");
        for (c, (n, v)) in top.into_iter().take(TOP) {
            let pct = if total > 0 { 100.0 * v as f64 / total as f64 } else { 0.0 };
            let _ = writeln!(s, "  {pct:>6.2}%  {v:>14}  {n:>12}  {}", p.consumers.name(c));
        }
    }
    s
}

/// Writes `phases.txt` into `dir` and each phase's call-tree reports (`formats`, of xtree, xarc,
/// xprof, collapsed and flame; default xtree, xarc, xprof) into `dir/phases/phase-N/`.
pub fn write_phases(phases: &[Profile], marks: &[Mark], uptime_ns: u64, dir: &Path, opts: &ReportOptions) -> io::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    if phases.is_empty() {
        return Ok(files);
    }
    let p = dir.join("phases.txt");
    hpm_support::files::write_atomic(&p, phases_txt(phases, marks, uptime_ns, opts.metric.min(phases[0].metric_count().saturating_sub(1))).as_bytes())?;
    files.push(p);
    let mut formats: Vec<Format> = opts.formats.iter().copied().filter(|f| !matches!(f, Format::Json)).collect();
    if formats.is_empty() || formats.len() == Format::ALL.len() - 1 {
        formats = vec![Format::Xtree, Format::Xarc, Format::Xprof];
    }
    let each = ReportOptions { formats, threads: Vec::new(), per_thread: false, ..opts.clone() };
    for (i, phase) in phases.iter().enumerate() {
        files.extend(write_reports(phase, &dir.join("phases").join(format!("phase-{}", i + 1)), &each)?);
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;
    use hpm_model::arcflow::{Bindings, Metric, Tree};

    fn phase(contexts: &[(&[&str], u64, u64)]) -> Profile {
        let mut p = Profile::new(Bindings::methods(vec![Metric::new("cpu-time", "ns")]));
        let th = p.add_thread("main");
        for (path, calls, v) in contexts {
            let ids: Vec<ConsumerId> = path.iter().map(|n| p.consumers.intern(n)).collect();
            let t = &mut p.threads[th].tree;
            let n = t.descend(Tree::ROOT, &ids);
            t.add_calls(n, *calls);
            t.add_base(n, &[*v]);
        }
        p
    }

    #[test]
    fn each_phase_lists_its_bounds_and_its_hottest_methods() {
        let phases = [phase(&[(&["A.main", "A.load"], 1, 700), (&["A.main"], 1, 300)]), phase(&[(&["A.main", "A.query"], 40, 900), (&["A.main", "A.load"], 1, 100)])];
        let marks = [Mark { at_ns: 2_000_000, method_events: 5, text: "loaded".into() }, Mark { at_ns: 9_000_000, method_events: 9, text: "late".into() }];
        let s = phases_txt(&phases[..], &marks[..1], 5_000_000, 0);
        assert!(s.contains("Phase 1: start (0.000 ms) to 'loaded' (2.000 ms): 1 thread(s), 2 calls, cpu-time 1000 ns"), "{s}");
        assert!(s.contains("Phase 2: 'loaded' (2.000 ms) to end (5.000 ms): 1 thread(s), 41 calls, cpu-time 1000 ns"), "{s}");
        let phase2 = &s[s.find("Phase 2").unwrap()..];
        let rows: Vec<&str> = phase2.lines().skip(2).collect();
        assert!(rows[0].contains("90.00%") && rows[0].ends_with("A.query") && rows[0].contains(" 40 "), "{rows:?}");
        assert!(rows[1].contains("10.00%") && rows[1].ends_with("A.load"), "{rows:?}");
        // A marker that came after the last split is said to be in the last phase.
        assert!(phases_txt(&phases[..], &marks, 5_000_000, 0).contains("1 later marker(s) did not split"));
    }
}
