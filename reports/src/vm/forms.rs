//! `sampled/forms.txt`: for each method that stack samples were charged to, the share of its
//! samples in each execution form (interpreted, C1, C2, inlined, native, stub, VM code); then for
//! each method on the sampled stacks, the forms its frames ran in.

use std::collections::BTreeMap;
use std::fmt::Write;

use hpm_model::snapshot::{Form, FormRow};

/// Methods listed, most samples first.
const LIMIT: usize = 200;

/// The report; `cpu` is the index of `cpu-time` in the rows' weights, if sampled. `own`: per
/// method charged, the form of the code at the interrupted program counter; `on_stack`: per
/// method anywhere on the stack, the form of its frame. One column per form that occurs.
pub fn forms(own: &[FormRow], on_stack: &[FormRow], cpu: Option<usize>) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "Execution forms of the sampled methods: where the CPU was at each stack sample charged to a");
    let _ = writeln!(s, "method (the code at the interrupted program counter).");
    let _ = writeln!(s, "interpreted: the bytecode interpreter; c1, c2: the method's own code compiled by C1 (tiers 1-3)");
    let _ = writeln!(s, "or C2 (tier 4), or that of a callee the filter leaves out; compiled: the same where the compiler");
    let _ = writeln!(s, "is not known (code map of JVMTI events); inlined: compiled into an outer method's code; native: a");
    let _ = writeln!(s, "JNI native method; stub: code the VM generated (stubs, adapters); vm: the VM's own code (runtime");
    let _ = writeln!(s, "calls, allocation slow paths, class loading) on the method's behalf.");
    if own.is_empty() {
        let _ = writeln!(s, "\nNo forms: nothing was sampled, or neither HotSpot's code cache nor the code map (collect=code) was readable.");
        return s;
    }
    table(&mut s, own, cpu, "all methods");
    if !on_stack.is_empty() {
        let _ = writeln!(s);
        let _ = writeln!(s, "On the stack: for each method, the samples with it anywhere on the stack (once per sample and");
        let _ = writeln!(s, "form), by the form its own frame ran in, as a walk of the physical frames placed it; unknown: a");
        let _ = writeln!(s, "frame that walk could not place (a stack it cannot follow, e.g. through native code).");
        table(&mut s, on_stack, cpu, "all frames");
    }
    s
}

/// One table: per method, its samples, their CPU, and the share of each form; a last line sums
/// every row.
fn table(s: &mut String, rows: &[FormRow], cpu: Option<usize>, total: &str) {
    let columns: Vec<Form> = Form::ALL.into_iter().filter(|f| rows.iter().any(|r| r.form == *f)).collect();
    let mut by_method: BTreeMap<&str, (Vec<u64>, u64)> = BTreeMap::new();
    for r in rows {
        let e = by_method.entry(&r.method).or_insert_with(|| (vec![0; columns.len()], 0));
        let i = columns.iter().position(|f| *f == r.form).unwrap_or(0);
        e.0[i] += r.samples;
        e.1 += cpu.and_then(|c| r.weights.get(c)).copied().unwrap_or(0);
    }
    let mut list: Vec<(&str, Vec<u64>, u64)> = by_method.into_iter().map(|(m, (f, c))| (m, f, c)).collect();
    list.sort_by(|a, b| b.1.iter().sum::<u64>().cmp(&a.1.iter().sum::<u64>()).then(a.0.cmp(b.0)));
    let _ = writeln!(s);
    let _ = write!(s, "{:>8} {:>10}", "samples", "cpu-ms");
    for f in &columns {
        let _ = write!(s, " {:>12}", format!("{}%", f.name()));
    }
    let _ = writeln!(s, "  method");
    let mut totals = vec![0u64; columns.len()];
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
    let _ = writeln!(s, "  ({total}{})", if list.len() > LIMIT { format!("; {} listed", LIMIT) } else { String::new() });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(m: &str, form: Form, samples: u64) -> FormRow {
        FormRow { method: m.into(), form, samples, weights: vec![samples * 1_000_000] }
    }

    #[test]
    fn shares_per_method_most_sampled_first() {
        let rows = [row("a.B.hot", Form::C2, 6), row("a.B.hot", Form::Interpreted, 2), row("a.B.hot", Form::Inlined, 2), row("a.B.cold", Form::Native, 1)];
        let text = forms(&rows, &[], Some(0));
        let lines: Vec<&str> = text.lines().filter(|l| l.contains("a.B.") || l.contains("(all")).collect();
        let cols = |l: &str| l.split_whitespace().take(6).map(|x| x.parse::<f64>().unwrap()).collect::<Vec<_>>();
        assert!(lines[0].ends_with("a.B.hot"), "{text}");
        let header = text.lines().find(|l| l.contains("cpu-ms")).unwrap();
        assert_eq!(header.split_whitespace().collect::<Vec<_>>(), ["samples", "cpu-ms", "interpreted%", "c2%", "inlined%", "native%", "method"], "only the forms that occur");
        assert_eq!(cols(lines[0]), [10.0, 10.0, 20.0, 60.0, 20.0, 0.0]);
        assert_eq!(cols(lines[1]), [1.0, 1.0, 0.0, 0.0, 0.0, 100.0]);
        assert_eq!(cols(lines[2])[0], 11.0);
        assert!(forms(&[], &[], None).contains("No forms"));
        assert!(!text.contains("On the stack"), "no second table without frame forms");
    }

    #[test]
    fn frames_on_the_stack_get_a_table_of_their_own() {
        let own = [row("a.B.leaf", Form::C2, 4)];
        let on_stack = [row("a.B.leaf", Form::C2, 4), row("a.B.main", Form::Interpreted, 1), row("a.B.main", Form::C1, 3), row("a.B.run", Form::Unknown, 4)];
        let text = forms(&own, &on_stack, Some(0));
        let second = &text[text.find("On the stack").expect("second table")..];
        let header = second.lines().find(|l| l.contains("cpu-ms")).unwrap();
        assert_eq!(header.split_whitespace().collect::<Vec<_>>(), ["samples", "cpu-ms", "interpreted%", "c1%", "c2%", "unknown%", "method"]);
        let main = second.lines().find(|l| l.ends_with("a.B.main")).unwrap();
        assert_eq!(main.split_whitespace().take(6).collect::<Vec<_>>(), ["4", "4.0", "25.0", "75.0", "0.0", "0.0"]);
        let all = second.lines().find(|l| l.ends_with("(all frames)")).unwrap();
        assert_eq!(all.split_whitespace().next(), Some("12"));
    }
}
