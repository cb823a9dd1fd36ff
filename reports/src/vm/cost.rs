//! `vm-cost.txt`: the process's CPU time split by what each thread works for, per phase (between
//! markers) and per timeline interval; see `hpm_model::vmcost` (the tables) and `hpm_collectors::vmcost` (the timeline).

use std::fmt::Write;

use hpm_model::vmcost::{CostRow, PerKind, ThreadKind};

/// One phase: rows from `first` to `last` (inclusive), named after the marker that opened it.
struct Phase {
    name: String,
    from_ns: u64,
    to_ns: u64,
    cpu: PerKind,
    counters: Vec<PerKind>,
}

fn add_all(into: &mut Vec<PerKind>, from: &[PerKind]) {
    into.resize(from.len().max(into.len()), PerKind::default());
    for (a, b) in into.iter_mut().zip(from) {
        a.add(b);
    }
}

fn phases(rows: &[CostRow]) -> Vec<Phase> {
    let mut out = Vec::new();
    let mut cur = Phase { name: "(start)".into(), from_ns: 0, to_ns: 0, cpu: PerKind::default(), counters: Vec::new() };
    for r in rows {
        cur.cpu.add(&r.cpu);
        add_all(&mut cur.counters, &r.counters);
        cur.to_ns = r.at_ns;
        if let Some(m) = &r.marker {
            let next = Phase { name: m.clone(), from_ns: r.at_ns, to_ns: r.at_ns, cpu: PerKind::default(), counters: Vec::new() };
            out.push(std::mem::replace(&mut cur, next));
        }
    }
    if cur.to_ns > cur.from_ns || cur.cpu.total() > 0 || out.is_empty() {
        out.push(cur);
    }
    out
}

fn pct(part: u64, total: u64) -> f64 {
    if total == 0 {
        0.0
    } else {
        part as f64 * 100.0 / total as f64
    }
}

/// The report; `counters` names the rows' counters; `lost_threads`: threads whose last interval
/// is missing (they ended unseen).
pub fn vm_cost(rows: &[CostRow], counters: &[String], lost_threads: u64) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "VM cost apart from application cost: the CPU time of every thread of the process, by what it");
    let _ = writeln!(s, "works for (the kernel's accounts: /proc/self/task/*/schedstat), per phase and per interval.");
    let _ = writeln!(s, "application: the program's Java threads; gc: collector threads; jit: compiler threads;");
    let _ = writeln!(s, "vm: the VM thread, service threads and the JDK's own Java threads; agent: hpmagent's threads;");
    let _ = writeln!(s, "other: threads of neither (the launcher's first thread, other libraries').");
    if lost_threads > 0 {
        let _ = writeln!(s, "{lost_threads} thread(s) ended without a last reading: what they used in their last interval is missing.");
    }
    let kinds = ThreadKind::ALL;
    let _ = writeln!(s);
    let _ = writeln!(s, "Phases (between markers; a marker opens the phase named after it)");
    let _ = write!(s, "{:>9} {:>9} {:>10}", "from-s", "to-s", "cpu-ms");
    for k in kinds {
        let _ = write!(s, " {:>12}", format!("{}%", k.name()));
    }
    let _ = writeln!(s, "  phase");
    // Every phase, then the whole run as one more line of each table.
    let mut phases = phases(rows);
    let mut whole = Phase { name: "(whole run)".into(), from_ns: 0, to_ns: rows.last().map_or(0, |r| r.at_ns), cpu: PerKind::default(), counters: Vec::new() };
    for p in &phases {
        whole.cpu.add(&p.cpu);
        add_all(&mut whole.counters, &p.counters);
    }
    phases.push(whole);
    for p in &phases {
        let t = p.cpu.total();
        let _ = write!(s, "{:>9.3} {:>9.3} {:>10.1}", p.from_ns as f64 / 1e9, p.to_ns as f64 / 1e9, t as f64 / 1e6);
        for k in kinds {
            let _ = write!(s, " {:>12.1}", pct(p.cpu.get(k), t));
        }
        let _ = writeln!(s, "  {}", p.name.replace(['\n', '\t'], " "));
    }
    let _ = writeln!(s);
    if !counters.is_empty() {
        let _ = writeln!(s, "Counters by kind of thread (each event= counter opened on every thread by its id), per phase");
        let _ = write!(s, "{:<20}", "counter");
        for k in kinds {
            let _ = write!(s, " {:>14}", k.name());
        }
        let _ = writeln!(s, "  phase");
        for p in &phases {
            for (name, v) in counters.iter().zip(&p.counters) {
                let _ = write!(s, "{name:<20}");
                for k in kinds {
                    let _ = write!(s, " {:>14}", v.get(k));
                }
                let _ = writeln!(s, "  {}", p.name.replace(['\n', '\t'], " "));
            }
        }
        let _ = writeln!(s);
    }
    let _ = writeln!(s, "Intervals (CPU ms by kind; an interval ends at a tick, a marker or a dump)");
    let _ = write!(s, "{:>9}", "to-s");
    for k in kinds {
        let _ = write!(s, " {:>12}", k.name());
    }
    let _ = writeln!(s, "  marker");
    for r in rows {
        let _ = write!(s, "{:>9.3}", r.at_ns as f64 / 1e9);
        for k in kinds {
            let _ = write!(s, " {:>12.1}", r.cpu.get(k) as f64 / 1e6);
        }
        let _ = writeln!(s, "  {}", r.marker.as_deref().unwrap_or("").replace(['\n', '\t'], " "));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(at_ms: u64, app: u64, gc: u64, jit: u64, marker: Option<&str>) -> CostRow {
        CostRow {
            at_ns: at_ms * 1_000_000,
            cpu: PerKind([app * 1_000_000, gc * 1_000_000, jit * 1_000_000, 0, 0, 0]),
            counters: vec![PerKind([app, gc, 0, 0, 0, 0])],
            marker: marker.map(String::from),
        }
    }

    #[test]
    fn phases_split_at_markers_and_add_up() {
        let rows = [row(1000, 60, 20, 20, None), row(1500, 40, 0, 10, Some("warm")), row(2500, 90, 10, 0, None), row(3000, 50, 0, 0, Some("done")), row(3100, 1, 0, 0, None)];
        let text = vm_cost(&rows, &["page-faults".to_string()], 0);
        let line = |name: &str| text.lines().find(|l| l.ends_with(name)).unwrap_or_else(|| panic!("{name} in\n{text}")).to_string();
        let cols = |l: String| l.split_whitespace().take(9).map(|x| x.parse::<f64>().unwrap()).collect::<Vec<_>>();
        // (start) to the "warm" marker: 60+20+20 + 40+0+10 = 150 ms, of which 100 application.
        assert_eq!(cols(line("(start)")), [0.0, 1.5, 150.0, 66.7, 13.3, 20.0, 0.0, 0.0, 0.0]);
        assert_eq!(cols(line("  warm")), [1.5, 3.0, 150.0, 93.3, 6.7, 0.0, 0.0, 0.0, 0.0]);
        assert_eq!(cols(line("  done")), [3.0, 3.1, 1.0, 100.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
        assert_eq!(cols(line("(whole run)")), [0.0, 3.1, 301.0, 80.1, 10.0, 10.0, 0.0, 0.0, 0.0]);
        assert!(text.contains("Intervals"));
        // The counter's whole-run line: application 241, gc 30.
        let faults: Vec<&str> = text.lines().filter(|l| l.starts_with("page-faults")).collect();
        assert_eq!(faults.len(), 4, "three phases and the whole run");
        assert_eq!(faults[3].split_whitespace().take(4).collect::<Vec<_>>(), ["page-faults", "241", "30", "0"]);
    }
}
