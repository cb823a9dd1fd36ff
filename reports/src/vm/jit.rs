//! `sampled/jit.txt`: the JIT compiler threads' CPU time by the method they were compiling and
//! the tier, estimated from looks at the compiler threads every 10 ms while stack sampling runs.

use std::fmt::Write;

use hpm_model::sampling::{tier_name, Tier};
use hpm_model::snapshot::{CompileRow, NO_TASK};

/// Rows listed, most time first.
const LIMIT: usize = 200;

/// The report.
pub fn jit(rows: &[CompileRow]) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "JIT compilation by method: the compiler threads' CPU time by the method compiled and its tier");
    let _ = writeln!(s, "(c1: tiers 1-3, c2: tier 4), estimated from looks at every compiler thread every 10 ms: each");
    let _ = writeln!(s, "look that finds a thread compiling a method stands for that thread's CPU time per busy look, so");
    let _ = writeln!(s, "compilations shorter than 10 ms get their share too. Compilations seen counts distinct compile");
    let _ = writeln!(s, "ids (osr: on-stack replacement), a lower bound: a short one may fall between two looks. No compile");
    let _ = writeln!(s, "task: the time of compiler threads no look found busy.");
    if rows.is_empty() {
        let _ = writeln!(s, "\nNo compiler thread was seen using CPU (or HotSpot's compiler structures were not readable).");
        return s;
    }
    let total: u64 = rows.iter().map(|r| r.cpu_ns).sum();
    let tier_total = |t: Tier, idle: bool| rows.iter().filter(|r| r.tier == t && (r.method == NO_TASK) == idle).map(|r| r.cpu_ns).sum::<u64>();
    let (c1, c2) = (tier_total(Tier::C1, false) + tier_total(Tier::C1, true), tier_total(Tier::C2, false) + tier_total(Tier::C2, true));
    let idle: u64 = rows.iter().filter(|r| r.method == NO_TASK).map(|r| r.cpu_ns).sum();
    let pct = |x: u64| x as f64 * 100.0 / total.max(1) as f64;
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "compiler threads: {:.1} ms; C1's {:.1} ms ({:.1}%), C2's {:.1} ms ({:.1}%); never found busy: {:.1} ms ({:.1}%)",
        total as f64 / 1e6,
        c1 as f64 / 1e6,
        pct(c1),
        c2 as f64 / 1e6,
        pct(c2),
        idle as f64 / 1e6,
        pct(idle)
    );
    let _ = writeln!(s);
    let _ = writeln!(s, "{:>10} {:>7} {:>6} {:>13} {:>5} {:>5}  method", "cpu-ms", "%", "looks", "compilations", "osr", "tier");
    for r in rows.iter().take(LIMIT) {
        let _ = writeln!(
            s,
            "{:>10.1} {:>7.2} {:>6} {:>13} {:>5} {:>5}  {}",
            r.cpu_ns as f64 / 1e6,
            pct(r.cpu_ns),
            r.looks,
            r.compilations,
            r.osr_compilations,
            tier_name(r.tier),
            r.method
        );
    }
    if rows.len() > LIMIT {
        let _ = writeln!(s, "({} more rows)", rows.len() - LIMIT);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(m: &str, tier: Tier, ms: u64, n: u64) -> CompileRow {
        CompileRow { method: m.into(), tier, cpu_ns: ms * 1_000_000, looks: ms / 10, compilations: n, osr_compilations: 0 }
    }

    #[test]
    fn splits_the_compilers_time_by_tier_and_method() {
        let text = jit(&[row("a.B.hot", Tier::C2, 60, 2), row("a.B.hot", Tier::C1, 30, 1), row(NO_TASK, Tier::C1, 10, 0)]);
        assert!(text.contains("compiler threads: 100.0 ms; C1's 40.0 ms (40.0%), C2's 60.0 ms (60.0%); never found busy: 10.0 ms (10.0%)"), "{text}");
        let line = text.lines().find(|l| l.ends_with("a.B.hot") && l.contains(" c2 ")).unwrap();
        assert_eq!(line.split_whitespace().collect::<Vec<_>>(), ["60.0", "60.00", "6", "2", "0", "c2", "a.B.hot"]);
        assert!(jit(&[]).contains("No compiler thread"));
    }
}
