//! `sampled/forms.txt`: for each method that stack samples were charged to, the share of its
//! samples in each execution form (interpreted, compiled, inlined, native, stub, VM code).

use std::collections::BTreeMap;
use std::fmt::Write;

use hpm_collectors::recorder::{Form, FormRow};

/// Methods listed, most samples first.
const LIMIT: usize = 200;

/// The report; `cpu` is the index of `cpu-time` in the rows' weights, if sampled.
pub fn forms(rows: &[FormRow], cpu: Option<usize>) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "Execution forms of the sampled methods: where the CPU was at each stack sample charged to a");
    let _ = writeln!(s, "method (the code at the interrupted program counter, found in the code map).");
    let _ = writeln!(s, "interpreted: the bytecode interpreter; compiled: the method's own compiled code (or that of a");
    let _ = writeln!(s, "callee the filter leaves out); inlined: compiled into an outer method's code; native: a JNI");
    let _ = writeln!(s, "native method; stub: code the VM generated (stubs, adapters); vm: the VM's own code (runtime");
    let _ = writeln!(s, "calls, allocation slow paths, class loading) on the method's behalf. C1 and C2 code are not");
    let _ = writeln!(s, "told apart.");
    if rows.is_empty() {
        let _ = writeln!(s, "\nNo forms: the code map is off (collect=code) or nothing was sampled.");
        return s;
    }
    let mut by_method: BTreeMap<&str, ([u64; 6], u64)> = BTreeMap::new();
    for r in rows {
        let e = by_method.entry(&r.method).or_default();
        let i = Form::ALL.iter().position(|f| *f == r.form).unwrap_or(0);
        e.0[i] += r.samples;
        e.1 += cpu.and_then(|c| r.weights.get(c)).copied().unwrap_or(0);
    }
    let mut list: Vec<(&str, [u64; 6], u64)> = by_method.into_iter().map(|(m, (f, c))| (m, f, c)).collect();
    list.sort_by(|a, b| b.1.iter().sum::<u64>().cmp(&a.1.iter().sum::<u64>()).then(a.0.cmp(b.0)));
    let _ = writeln!(s);
    let _ = write!(s, "{:>8} {:>10}", "samples", "cpu-ms");
    for f in Form::ALL {
        let _ = write!(s, " {:>12}", format!("{}%", f.name()));
    }
    let _ = writeln!(s, "  method");
    let mut totals = [0u64; 6];
    for (m, f, c) in list.iter().take(LIMIT) {
        let n: u64 = f.iter().sum();
        let _ = write!(s, "{n:>8} {:>10.1}", *c as f64 / 1e6);
        for x in f {
            let _ = write!(s, " {:>12.1}", *x as f64 * 100.0 / n.max(1) as f64);
        }
        let _ = writeln!(s, "  {m}");
    }
    for (_, f, _) in &list {
        for (t, x) in totals.iter_mut().zip(f) {
            *t += x;
        }
    }
    let n: u64 = totals.iter().sum();
    let _ = write!(s, "{n:>8} {:>10.1}", list.iter().map(|x| x.2).sum::<u64>() as f64 / 1e6);
    for x in totals {
        let _ = write!(s, " {:>12.1}", x as f64 * 100.0 / n.max(1) as f64);
    }
    let _ = writeln!(s, "  (all methods{})", if list.len() > LIMIT { format!("; {} listed", LIMIT) } else { String::new() });
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(m: &str, form: Form, samples: u64) -> FormRow {
        FormRow { method: m.into(), form, samples, weights: vec![samples * 1_000_000] }
    }

    #[test]
    fn shares_per_method_most_sampled_first() {
        let rows = [row("a.B.hot", Form::Compiled, 6), row("a.B.hot", Form::Interpreted, 2), row("a.B.hot", Form::Inlined, 2), row("a.B.cold", Form::Native, 1)];
        let text = forms(&rows, Some(0));
        let lines: Vec<&str> = text.lines().filter(|l| l.contains("a.B.") || l.contains("(all")).collect();
        let cols = |l: &str| l.split_whitespace().take(8).map(|x| x.parse::<f64>().unwrap()).collect::<Vec<_>>();
        assert!(lines[0].ends_with("a.B.hot"), "{text}");
        assert_eq!(cols(lines[0]), [10.0, 10.0, 20.0, 60.0, 20.0, 0.0, 0.0, 0.0]);
        assert_eq!(cols(lines[1]), [1.0, 1.0, 0.0, 0.0, 0.0, 100.0, 0.0, 0.0]);
        assert_eq!(cols(lines[2])[0], 11.0);
        assert!(forms(&[], None).contains("No forms"));
    }
}
