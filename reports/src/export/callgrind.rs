//! Callgrind's profile format (valgrind's `callgrind.out.*`), which KCachegrind, QCachegrind and
//! `callgrind_annotate` read, with every metric as an event column.
//!
//! Callgrind's model is per function: each function's self cost, and for each caller–callee arc
//! its call count and the callee's inclusive cost over those calls. Each consumer is a function
//! (`fn=`), its class the object (`ob=`, as a shared library is in valgrind's own profiles; methods
//! without a class, such as the thread roots, are in `(none)`); each thread's root is a function
//! too, calling the thread's top methods, so that all threads are one graph. There is no source
//! file: every function is in the file `???`, which is how callgrind writes code without debug
//! information, and which `callgrind_annotate` (auto-annotating by default) does not look for,
//! where a class given as a file was reported once per class as a file that could not be found. A function's self cost (`0 v1 v2 …`, one value per `events:` column) is
//! the sum of its contexts' base; an arc's `calls=` and inclusive cost are the sums of the calls and
//! cum of the callee's contexts under the caller's. What is lost is the calling context beyond one
//! caller (as in any callgrind profile); an arc of a recursive call holds the inclusive cost of the
//! inner calls again, as callgrind's own profiles do (KCachegrind detects the cycle). Event names are
//! the metric names with every character outside `[A-Za-z0-9_]` made `_`; `event:` lines give the
//! full name and unit. `totals:` is the profile's total of each metric.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::io::{self, Write};

use hpm_model::arcflow::{ConsumerId, Profile};

use super::{split_consumer, split_line, ExportOptions};

/// The source file of every function: callgrind's name for code without debug information, which
/// `callgrind_annotate` never tries to open.
pub const NO_SOURCE: &str = "???";

/// The event column name of a metric name.
pub fn event_name(metric: &str) -> String {
    let s: String = metric.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect();
    if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) {
        format!("m_{s}")
    } else {
        s
    }
}

/// Per function: self cost by line, and per (callee, line of the call): (calls, inclusive cost).
/// Lines are 0 (none) unless frames were named with theirs (`sample-lines=on`).
#[derive(Default)]
struct Function {
    self_cost: BTreeMap<u32, Vec<u64>>,
    callees: BTreeMap<(ConsumerId, u32), (u64, Vec<u64>)>,
}

fn add(into: &mut Vec<u64>, values: &[u64]) {
    into.resize(values.len(), 0);
    for (a, b) in into.iter_mut().zip(values) {
        *a = a.saturating_add(*b);
    }
}

/// Writes `profile` in callgrind format, the events in the profile's metric order but the chosen
/// metric first (KCachegrind and callgrind_annotate sort by the first event).
pub fn write(profile: &Profile, opts: &ExportOptions, out: &mut dyn Write) -> io::Result<()> {
    let m = profile.metric_count();
    let order: Vec<usize> = std::iter::once(opts.metric).chain((0..m).filter(|&k| k != opts.metric)).collect();
    // Each consumer's function (numbered by the first consumer of its method) and line: the
    // frames of one method named with their lines (`Class.method:LINE`) are one function.
    let mut first_of: HashMap<&str, ConsumerId> = HashMap::new();
    let at: Vec<(ConsumerId, u32)> = (0..profile.consumers.len() as ConsumerId)
        .map(|c| {
            let (method, line) = split_line(profile.consumers.name(c));
            (*first_of.entry(method).or_insert(c), line.unwrap_or(0))
        })
        .collect();
    let mut functions: BTreeMap<ConsumerId, Function> = BTreeMap::new();
    for th in &profile.threads {
        let t = &th.tree;
        let cum = t.cum();
        for n in 0..t.len() as u32 {
            let (f, line) = at[t.consumer(n) as usize];
            add(functions.entry(f).or_default().self_cost.entry(line).or_default(), t.base(n));
            if let Some(p) = t.parent(n) {
                let (caller, call_line) = at[t.consumer(p) as usize];
                let arc = functions.entry(caller).or_default().callees.entry((f, call_line)).or_insert_with(|| (0, vec![0; m]));
                arc.0 = arc.0.saturating_add(t.calls(n));
                add(&mut arc.1, &cum[n as usize * m..(n as usize + 1) * m]);
            }
        }
    }
    // The values in event order; a cost line is its position (the line, or 0) followed by them.
    let columns = |values: &[u64]| -> String {
        let mut s = String::new();
        for &k in &order {
            let _ = write!(s, "{}{}", if s.is_empty() { "" } else { " " }, values.get(k).copied().unwrap_or(0));
        }
        s
    };
    let costs = |line: u32, values: &[u64]| format!("{line} {}", columns(values));
    let method_of = |c: ConsumerId| split_line(profile.consumers.name(c)).0;

    let mut w = io::BufWriter::new(out);
    writeln!(w, "# callgrind format")?;
    writeln!(w, "version: 1")?;
    writeln!(w, "creator: hpm {}", env!("CARGO_PKG_VERSION"))?;
    writeln!(w, "cmd: {} thread(s) of an hpmagent profile ({})", profile.threads.len(), profile.bindings.consumer_label)?;
    writeln!(w, "positions: line")?;
    for &k in &order {
        let metric = &profile.bindings.metrics[k];
        let unit = if metric.unit.is_empty() { String::new() } else { format!(" ({})", metric.unit) };
        writeln!(w, "event: {} : {}{unit}", event_name(&metric.name), metric.name)?;
    }
    let events: Vec<String> = order.iter().map(|&k| event_name(&profile.bindings.metrics[k].name)).collect();
    writeln!(w, "events: {}", events.join(" "))?;
    writeln!(w, "totals: {}", columns(&profile.total()))?;
    writeln!(w)?;

    // Every function is in the one unknown source file, which stays the current file throughout.
    writeln!(w, "fl=(1) {NO_SOURCE}")?;
    // Name compression: an object or function name is written once with its number, then by number.
    let mut object_ids: BTreeMap<String, usize> = BTreeMap::new();
    let mut named: Vec<bool> = vec![false; profile.consumers.len()];
    let mut object_ref = |w: &mut dyn Write, key: &str, class: &str| -> io::Result<()> {
        let next = object_ids.len() + 1;
        match object_ids.get(class) {
            Some(id) => writeln!(w, "{key}=({id})"),
            None => {
                object_ids.insert(class.to_string(), next);
                writeln!(w, "{key}=({next}) {class}")
            }
        }
    };
    let mut fn_ref = |w: &mut dyn Write, key: &str, c: ConsumerId| -> io::Result<()> {
        let id = c as usize + 1;
        if std::mem::replace(&mut named[c as usize], true) {
            writeln!(w, "{key}=({id})")
        } else {
            writeln!(w, "{key}=({id}) {}", one_line(method_of(c)))
        }
    };
    for (&c, f) in &functions {
        let class = split_consumer(method_of(c)).0.unwrap_or("(none)");
        object_ref(&mut w, "ob", class)?;
        fn_ref(&mut w, "fn", c)?;
        for (&line, cost) in &f.self_cost {
            writeln!(w, "{}", costs(line, cost))?;
        }
        for (&(callee, line), (calls, inclusive)) in &f.callees {
            let callee_class = split_consumer(method_of(callee)).0.unwrap_or("(none)");
            if callee_class != class {
                object_ref(&mut w, "cob", callee_class)?;
            }
            fn_ref(&mut w, "cfn", callee)?;
            writeln!(w, "calls={calls} 0")?;
            writeln!(w, "{}", costs(line, inclusive))?;
        }
        writeln!(w)?;
    }
    w.flush()
}

/// A name on one line (callgrind's format is line-based).
fn one_line(name: &str) -> String {
    name.replace(['\n', '\r'], " ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use hpm_model::arcflow::{Bindings, Metric, Tree};

    #[test]
    fn functions_arcs_and_every_metric_as_an_event() {
        let mut p = Profile::new(Bindings::methods(vec![Metric::new("cpu-time", "ns"), Metric::new("page-faults", "")]));
        let th = p.add_thread("main");
        let a = p.consumers.intern("app.A.run");
        let b = p.consumers.intern("app.B.work");
        let t = &mut p.threads[th].tree;
        let na = t.descend(Tree::ROOT, &[a]);
        t.add_calls(na, 1);
        t.add_base(na, &[10, 1]);
        let nb = t.descend(na, &[b]);
        t.add_calls(nb, 4);
        t.add_base(nb, &[30, 2]);
        let mut out = Vec::new();
        write(&p, &ExportOptions { metric: 1, ..ExportOptions::default() }, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("events: page_faults cpu_time\n"), "{text}");
        assert!(text.contains("totals: 3 40\n"), "{text}");
        // The thread calls app.A.run (named at its first use), which calls app.B.work four times.
        // Classes are objects; every function is in the one file `???`, named once before them.
        assert!(text.contains("\n\nfl=(1) ???\nob=(1) (none)\nfn=(1) main\n"), "{text}");
        assert_eq!(text.matches("fl=").count(), 1, "{text}");
        assert!(!text.contains("cfl=") && !text.contains("cfi="), "{text}");
        assert!(text.contains("fn=(1) main\n0 0 0\ncob=(2) app.A\ncfn=(2) app.A.run\ncalls=1 0\n0 3 40\n"), "{text}");
        assert!(text.contains("ob=(2)\nfn=(2)\n0 1 10\ncob=(3) app.B\ncfn=(3) app.B.work\ncalls=4 0\n0 2 30\n"), "{text}");
        assert_eq!(event_name("L1-dcache-load-misses"), "L1_dcache_load_misses");
        assert_eq!(event_name("r01c2"), "r01c2");
        assert_eq!(event_name("1x"), "m_1x");
    }

    /// Frames named with their lines (`sample-lines=on`) are one function per method, its cost
    /// split by line, and each call at the line of the caller's frame.
    #[test]
    fn lines_are_positions_of_one_function() {
        let mut p = Profile::new(Bindings::methods(vec![Metric::new("cpu-time", "ns")]));
        let th = p.add_thread("main");
        let names = ["app.A.run:10", "app.B.work(int):40", "app.A.run:11", "app.B.work(int):41"];
        let [a10, b40, a11, b41] = names.map(|n| p.consumers.intern(n));
        let t = &mut p.threads[th].tree;
        for (a, b, cost) in [(a10, b40, 5), (a11, b41, 7)] {
            let na = t.descend(Tree::ROOT, &[a]);
            t.add_calls(na, 1);
            t.add_base(na, &[1]);
            let nb = t.descend(na, &[b]);
            t.add_calls(nb, 2);
            t.add_base(nb, &[cost]);
        }
        let mut out = Vec::new();
        write(&p, &ExportOptions::default(), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.matches("app.A.run").count(), 1, "one function, named once: {text}");
        assert!(!text.contains(":10") && !text.contains(":40"), "lines are positions, not names: {text}");
        assert!(text.contains("fn=(2)\n10 1\n11 1\ncob=(3) app.B\ncfn=(3) app.B.work(int)\ncalls=2 0\n10 5\ncob=(3)\ncfn=(3)\ncalls=2 0\n11 7\n"), "{text}");
        assert!(text.contains("fn=(3)\n40 5\n41 7\n"), "{text}");
    }
}
