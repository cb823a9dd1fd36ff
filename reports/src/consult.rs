//! `hpm consult DIR`: a bottleneck search over a recorded run, in the spirit of Paradyn's
//! Performance Consultant (Miller et al. 1995; Newhall 1999 for Java): hypotheses about *why* the
//! program is slow are tested against thresholds on the cheap views a run records (stack samples,
//! VM cost, GC, locks, waits, JIT), and each one that holds is refined along *where* (which thread,
//! then which method subtree) and *when* (which phase between markers). The result lists every
//! hypothesis tested, with the figures and thresholds that decided it, the path searched, and the
//! conclusions.
//!
//! The search runs over a saved run (`arcflow.json` version 2), so it is repeatable and costs the
//! program nothing; the subtrees it names are where exact probes (`include=`) pay.

use std::collections::HashMap;
use std::fmt::Write as _;

use hpm_model::arcflow::{NodeId, Profile, Tree};
use hpm_model::snapshot::Form;
use hpm_model::vmcost::ThreadKind;

use hpm_model::saved::SavedRun;

/// The program is CPU-bound when its threads' CPU time is at least this share of the run's
/// time (the Performance Consultant's default threshold), and a thread is a place of it when it
/// used at least [`THREAD_SHARE`] of that CPU time.
pub const CPU_BOUND: f64 = 0.2;
pub const THREAD_SHARE: f64 = 0.1;
/// A subtree is hot when it holds at least this share of its thread's CPU time; the search
/// descends while a child does.
pub const HOT_SUBTREE: f64 = 0.2;
/// Synchronisation holds when the application threads spend this share of their lifetimes
/// waiting to enter monitors.
pub const CONTENDED: f64 = 0.05;
/// Waiting holds at this share of the application threads' lifetimes in `Object.wait` or parks.
pub const WAITING: f64 = 0.10;
/// Allocation and GC hold when stop-the-world pauses take this share of the run, or collector
/// threads this share of the process's CPU time.
pub const GC_PAUSE: f64 = 0.05;
pub const GC_CPU: f64 = 0.10;
/// JIT and interpretation hold when compiler threads take this share of the CPU time, or this
/// share of the stack samples are interpreted.
pub const JIT_CPU: f64 = 0.10;
pub const INTERPRETED: f64 = 0.20;

/// The outcome of a test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Holds,
    DoesNotHold,
    /// The run recorded nothing to test it with.
    Untested,
}

/// One hypothesis tested: along *why*, with its refinements along *where* and *when*.
#[derive(Debug, Clone)]
pub struct Hypothesis {
    pub why: &'static str,
    pub verdict: Verdict,
    /// The figures that decided it, against their thresholds.
    pub evidence: Vec<String>,
    /// Refinements where it holds: thread, method subtrees, monitor classes…, most important first.
    pub places: Vec<String>,
    /// The phase (between markers) it is concentrated in, where the run has markers.
    pub when: Option<String>,
}

/// The search's result.
#[derive(Debug, Clone)]
pub struct Consultation {
    pub hypotheses: Vec<Hypothesis>,
    /// Method subtrees worth exact probes: (thread, path from the thread's root, share).
    pub hot_subtrees: Vec<(String, Vec<String>, f64)>,
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// The JDK's own daemon threads outside the `system` group (they wait for work all run long).
const JDK_DAEMONS: [&str; 5] = ["Common-Cleaner", "Reference Handler", "Finalizer", "Signal Dispatcher", "process reaper"];

/// Application threads: not the VM's (`system`), the JDK's own daemons, nor the agent's.
fn is_application(kind: Option<&str>, name: &str) -> bool {
    kind != Some("system") && !name.starts_with("hpm-") && !JDK_DAEMONS.contains(&name)
}

/// The phases of the run by its markers: (name, from ns, to ns), "(start)" first.
fn phases(run: &SavedRun) -> Vec<(String, u64, u64)> {
    let marks = run.marks.as_deref().unwrap_or_default();
    let mut v = Vec::new();
    let mut from = (String::from("(start)"), 0);
    for m in marks {
        v.push((from.0.clone(), from.1, m.at_ns));
        from = (m.text.clone(), m.at_ns);
    }
    v.push((from.0, from.1, run.snapshot.uptime_ns));
    v
}

/// The phase holding most of `weight(time)` over `times`, when there are markers and something.
fn busiest_phase(run: &SavedRun, times: impl Iterator<Item = (u64, u64)>) -> Option<String> {
    let ph = phases(run);
    if ph.len() < 2 {
        return None;
    }
    let mut sums = vec![0u64; ph.len()];
    let mut total = 0u64;
    for (t, w) in times {
        if let Some(i) = ph.iter().position(|(_, a, b)| t >= *a && t < *b).or(Some(ph.len() - 1)) {
            sums[i] += w;
            total += w;
        }
    }
    let (i, &best) = sums.iter().enumerate().max_by_key(|(_, s)| **s)?;
    (total > 0).then(|| format!("phase '{}' ({:.3}–{:.3} s): {} of it", ph[i].0, ph[i].1 as f64 / 1e9, ph[i].2 as f64 / 1e9, pct(best as f64 / total as f64)))
}

/// The deepest contexts of `tree` holding at least `HOT_SUBTREE` of `total` of metric `m`, none of
/// whose children does: where the search for a hot subtree stops. (node, share), largest first.
fn hot_subtrees(tree: &Tree, m: usize, total: u64) -> Vec<(NodeId, f64)> {
    let metrics = tree.metric_count();
    let cum = tree.cum();
    let share = |n: NodeId| cum[n as usize * metrics + m] as f64 / total.max(1) as f64;
    let mut found = Vec::new();
    let mut todo = vec![Tree::ROOT];
    while let Some(n) = todo.pop() {
        let hot: Vec<NodeId> = tree.children(n).into_iter().filter(|&c| share(c) >= HOT_SUBTREE).collect();
        if hot.is_empty() {
            if n != Tree::ROOT {
                found.push((n, share(n)));
            }
        } else {
            todo.extend(hot);
        }
    }
    found.sort_by(|a, b| b.1.total_cmp(&a.1));
    found
}

/// The names of the path from the root's child to `n`.
fn path_names(p: &Profile, tree: &Tree, n: NodeId) -> Vec<String> {
    tree.path(n).into_iter().skip(1).map(|c| p.consumers.name(c).to_string()).collect()
}

/// Runs the search over `run`.
pub fn consult(run: &SavedRun) -> Consultation {
    let s = &run.snapshot;
    let uptime = s.uptime_ns.max(1);
    // Application threads' lifetimes, the denominator of the waiting hypotheses.
    let app_wall: u64 = s
        .threads
        .iter()
        .filter(|t| is_application(t.kind.as_deref(), &t.name))
        .map(|t| t.end_ns.unwrap_or(uptime).saturating_sub(t.start_ns))
        .sum::<u64>()
        .max(1);
    let mut hypotheses = Vec::new();
    let mut hot = Vec::new();

    // Why: CPU-bound. Where: the threads that are, then their hot subtrees. When: the phase
    // holding most of the hottest subtree's samples.
    let cpu_tree = s.samples.as_ref().filter(|p| p.bindings.metric_index("cpu-time").is_some()).or(Some(&s.calls).filter(|p| p.bindings.metric_index("cpu-time").is_some()));
    let mut h = Hypothesis { why: "CPU-bound: the program's threads compute", verdict: Verdict::Untested, evidence: Vec::new(), places: Vec::new(), when: None };
    if let Some(p) = cpu_tree {
        let m = p.bindings.metric_index("cpu-time").unwrap_or(0);
        let sampled = std::ptr::eq(p, s.samples.as_ref().map_or(std::ptr::null(), |x| x as *const Profile));
        let app_cpu: u64 = p.threads.iter().filter(|t| is_application(t.kind.as_deref(), &t.name)).map(|t| t.tree.total()[m]).sum();
        let bound = app_cpu as f64 / uptime as f64;
        h.evidence.push(format!(
            "application threads' CPU time {:.3} s ({} trees) = {} of the run's {:.3} s (threshold {})",
            app_cpu as f64 / 1e9,
            if sampled { "sampled" } else { "exact" },
            pct(bound),
            uptime as f64 / 1e9,
            pct(CPU_BOUND)
        ));
        h.verdict = if bound >= CPU_BOUND { Verdict::Holds } else { Verdict::DoesNotHold };
        let mut best: Option<(f64, usize, NodeId)> = None;
        let mut threads: Vec<(usize, u64)> = p.threads.iter().enumerate().filter(|(_, t)| is_application(t.kind.as_deref(), &t.name)).map(|(i, t)| (i, t.tree.total()[m])).collect();
        threads.sort_by_key(|t| std::cmp::Reverse(t.1));
        for (i, cpu) in threads.into_iter().filter(|_| h.verdict == Verdict::Holds) {
            let t = &p.threads[i];
            if (cpu as f64) < THREAD_SHARE * app_cpu as f64 {
                continue;
            }
            h.evidence.push(format!("thread {}: {} of the application's CPU time (threshold {})", t.name, pct(cpu as f64 / app_cpu.max(1) as f64), pct(THREAD_SHARE)));
            // A walk's failure (`(not walkable, …)`, `(no Java frame)`) is no place to probe.
            let hot_here = hot_subtrees(&t.tree, m, cpu).into_iter().filter(|&(n, _)| !p.consumers.name(t.tree.consumer(n)).starts_with('('));
            for (n, share) in hot_here.take(3) {
                let path = path_names(p, &t.tree, n);
                h.places.push(format!("thread {} > {} holds {} of its CPU time (each step down holds at least {})", t.name, path.join(" > "), pct(share), pct(HOT_SUBTREE)));
                if best.is_none_or(|b| share * cpu as f64 > b.0) {
                    best = Some((share * cpu as f64, i, n));
                }
                hot.push((t.name.clone(), path, share));
            }
        }
        // When: the timeline's samples under the hottest subtree.
        if let (Some((_, i, n)), true, Some(tls)) = (best, sampled, s.sample_timelines.as_ref()) {
            let tree = &p.threads[i].tree;
            let under = |mut x: NodeId| loop {
                if x == n {
                    return true;
                }
                match tree.parent(x) {
                    Some(px) => x = px,
                    None => return false,
                }
            };
            if let Some(tl) = tls.get(i) {
                h.when = busiest_phase(run, tl.times.iter().zip(&tl.nodes).filter(|(_, &x)| under(x)).map(|(&t, _)| (t, 1)));
            }
        }
    }
    hypotheses.push(h);

    // Why: synchronisation. Where: the monitor classes (the leaves of the lock trees).
    let mut h = Hypothesis { why: "Synchronisation: threads wait to enter monitors", verdict: Verdict::Untested, evidence: Vec::new(), places: Vec::new(), when: None };
    if s.config.locks {
        let (total, by_class) = leaves_by_name(&s.locks, 0);
        let share = total as f64 / app_wall as f64;
        h.verdict = if share >= CONTENDED { Verdict::Holds } else { Verdict::DoesNotHold };
        h.evidence.push(format!("contended monitor entries took {:.3} s = {} of the application threads' lifetimes (threshold {})", total as f64 / 1e9, pct(share), pct(CONTENDED)));
        if h.verdict == Verdict::Holds {
            h.places = by_class.into_iter().take(3).map(|(c, v)| format!("monitor class {c}: {} of the contended time", pct(v as f64 / total.max(1) as f64))).collect();
            h.places.extend(
                leaf_contexts(&s.locks, 0)
                    .into_iter()
                    .take(3)
                    .map(|(path, v)| format!("entered from {path}: {} of the contended time", pct(v as f64 / total.max(1) as f64))),
            );
        }
    }
    hypotheses.push(h);

    // Why: waiting (Object.wait, parks). Where: kind and class.
    let mut h = Hypothesis { why: "Waiting: threads wait (Object.wait, LockSupport.park) or block", verdict: Verdict::Untested, evidence: Vec::new(), places: Vec::new(), when: None };
    if s.config.waits {
        let (total, by_class) = leaves_by_name(&s.waits, 0);
        let share = total as f64 / app_wall as f64;
        h.verdict = if share >= WAITING { Verdict::Holds } else { Verdict::DoesNotHold };
        h.evidence.push(format!("waits took {:.3} s = {} of the application threads' lifetimes (threshold {})", total as f64 / 1e9, pct(share), pct(WAITING)));
        if h.verdict == Verdict::Holds {
            h.places = by_class.into_iter().take(3).map(|(c, v)| format!("{c}: {} of the wait time", pct(v as f64 / total.max(1) as f64))).collect();
        }
    }
    hypotheses.push(h);

    // Why: allocation and GC. When: the phase with the most pause time.
    let mut h = Hypothesis { why: "Allocation and GC: the collector stops or outruns the program", verdict: Verdict::Untested, evidence: Vec::new(), places: Vec::new(), when: None };
    let gc_cpu = run.vm_cost.as_ref().map(|v| {
        let (mut gc, mut all) = (0u64, 0u64);
        for r in &v.rows {
            gc += r.cpu.get(ThreadKind::Gc);
            all += r.cpu.total();
        }
        gc as f64 / all.max(1) as f64
    });
    if s.config.gc || gc_cpu.is_some() {
        let pause = s.gc_total_ns as f64 / uptime as f64;
        let mut holds = pause >= GC_PAUSE;
        h.evidence.push(format!("{} stop-the-world pauses took {:.3} s = {} of the run (threshold {})", s.gc_count, s.gc_total_ns as f64 / 1e9, pct(pause), pct(GC_PAUSE)));
        if let Some(c) = gc_cpu {
            h.evidence.push(format!("collector threads used {} of the process's CPU time (threshold {})", pct(c), pct(GC_CPU)));
            holds |= c >= GC_CPU;
        }
        h.verdict = if holds { Verdict::Holds } else { Verdict::DoesNotHold };
        if holds {
            h.when = busiest_phase(run, s.gc.iter().map(|g| (g.start_ns, g.duration_ns)));
            if let Some(a) = s.alloc_samples.as_ref() {
                let (total, by) = self_by_name(a, 0);
                h.places.extend(by.into_iter().take(3).map(|(c, v)| format!("allocating {c}: {} of the sampled bytes", pct(v as f64 / total.max(1) as f64))));
            }
            let mut by_thread: Vec<(&str, u64)> = s.threads.iter().filter(|t| t.vm_alloc_bytes > 0).map(|t| (t.name.as_str(), t.vm_alloc_bytes)).collect();
            by_thread.sort_by_key(|t| std::cmp::Reverse(t.1));
            h.places.extend(by_thread.into_iter().take(2).map(|(n, b)| format!("thread {n} allocated {:.1} MiB", b as f64 / 1048576.0)));
        }
    }
    hypotheses.push(h);

    // Why: JIT compilation and interpretation.
    let mut h = Hypothesis { why: "JIT and interpretation: compiling, or running interpreted", verdict: Verdict::Untested, evidence: Vec::new(), places: Vec::new(), when: None };
    let jit_cpu = run.vm_cost.as_ref().map(|v| {
        let (mut jit, mut all) = (0u64, 0u64);
        for r in &v.rows {
            jit += r.cpu.get(ThreadKind::Jit);
            all += r.cpu.total();
        }
        jit as f64 / all.max(1) as f64
    });
    let forms: u64 = s.sample_forms.iter().map(|r| r.samples).sum();
    let interpreted: u64 = s.sample_forms.iter().filter(|r| r.form == Form::Interpreted).map(|r| r.samples).sum();
    if jit_cpu.is_some() || forms > 0 {
        let mut holds = false;
        if let Some(c) = jit_cpu {
            h.evidence.push(format!("compiler threads used {} of the process's CPU time (threshold {})", pct(c), pct(JIT_CPU)));
            holds |= c >= JIT_CPU;
        }
        if forms > 0 {
            let i = interpreted as f64 / forms as f64;
            h.evidence.push(format!("{} of {forms} stack samples interpreted = {} (threshold {})", interpreted, pct(i), pct(INTERPRETED)));
            holds |= i >= INTERPRETED;
        }
        h.verdict = if holds { Verdict::Holds } else { Verdict::DoesNotHold };
        if holds {
            let mut c = s.compiles.clone();
            c.sort_by_key(|r| std::cmp::Reverse(r.cpu_ns));
            h.places.extend(c.iter().take(3).map(|r| format!("compiling {}: {:.1} ms", r.method, r.cpu_ns as f64 / 1e6)));
        }
    }
    hypotheses.push(h);
    Consultation { hypotheses, hot_subtrees: hot }
}

/// Metric `m` summed by the name of each tree's leaves (the monitor class, the wait's class), over
/// the application threads; (total, by name, largest first).
fn leaves_by_name(p: &Profile, m: usize) -> (u64, Vec<(String, u64)>) {
    let mut by: HashMap<String, u64> = HashMap::new();
    let mut total = 0;
    for t in p.threads.iter().filter(|t| is_application(t.kind.as_deref(), &t.name)) {
        for n in 1..t.tree.len() as NodeId {
            if t.tree.child_count(n) == 0 {
                let v = t.tree.base(n)[m];
                total += v;
                *by.entry(p.consumers.name(t.tree.consumer(n)).to_string()).or_default() += v;
            }
        }
    }
    let mut v: Vec<(String, u64)> = by.into_iter().filter(|(_, v)| *v > 0).collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    (total, v)
}

/// Metric `m` of the trees' leaves summed by the path above them (all application threads),
/// `a > b > c`; largest first.
fn leaf_contexts(p: &Profile, m: usize) -> Vec<(String, u64)> {
    let mut by: HashMap<String, u64> = HashMap::new();
    for t in p.threads.iter().filter(|t| is_application(t.kind.as_deref(), &t.name)) {
        for n in 1..t.tree.len() as NodeId {
            if t.tree.child_count(n) == 0 {
                let path = t.tree.path(n);
                let above: Vec<&str> = path[1..path.len() - 1].iter().map(|&c| p.consumers.name(c)).collect();
                if !above.is_empty() {
                    *by.entry(above.join(" > ")).or_default() += t.tree.base(n)[m];
                }
            }
        }
    }
    let mut v: Vec<(String, u64)> = by.into_iter().filter(|(_, v)| *v > 0).collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    v
}

/// Self value of metric `m` by consumer name, all threads; (total, by name, largest first).
fn self_by_name(p: &Profile, m: usize) -> (u64, Vec<(String, u64)>) {
    let mut by: HashMap<String, u64> = HashMap::new();
    let mut total = 0;
    for t in &p.threads {
        for n in 1..t.tree.len() as NodeId {
            let v = t.tree.base(n)[m];
            total += v;
            *by.entry(p.consumers.name(t.tree.consumer(n)).to_string()).or_default() += v;
        }
    }
    let mut v: Vec<(String, u64)> = by.into_iter().filter(|(_, v)| *v > 0).collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    (total, v)
}

impl Consultation {
    /// The report: every hypothesis with its verdict, evidence, refinements; then the conclusions.
    pub fn text(&self) -> String {
        let mut s = String::from("Bottleneck search (hypotheses along why, refined along where and when)\n");
        for h in &self.hypotheses {
            let v = match h.verdict {
                Verdict::Holds => "HOLDS",
                Verdict::DoesNotHold => "does not hold",
                Verdict::Untested => "untested: the run recorded nothing to test it with",
            };
            let _ = writeln!(s, "\n{}: {v}", h.why);
            for e in &h.evidence {
                let _ = writeln!(s, "  evidence: {e}");
            }
            for p in &h.places {
                let _ = writeln!(s, "  where: {p}");
            }
            if let Some(w) = &h.when {
                let _ = writeln!(s, "  when: {w}");
            }
        }
        let _ = writeln!(s, "\nConclusions");
        let holding: Vec<&Hypothesis> = self.hypotheses.iter().filter(|h| h.verdict == Verdict::Holds).collect();
        if holding.is_empty() {
            let _ = writeln!(s, "  no hypothesis holds at these thresholds");
        }
        for h in holding {
            let place = h.places.first().map(|p| format!(", at {p}")).unwrap_or_default();
            let when = h.when.as_ref().map(|w| format!(", in {w}")).unwrap_or_default();
            let _ = writeln!(s, "  - {}{place}{when}", h.why);
        }
        if !self.hot_subtrees.is_empty() {
            let _ = writeln!(s, "\nExact probes would pay on these subtrees (e.g. include= their classes):");
            for (thread, path, share) in &self.hot_subtrees {
                let _ = writeln!(s, "  {} ({thread}, {})", path.last().map_or("", String::as_str), pct(*share));
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The search descends while a child holds the threshold, and stops at each context none of
    /// whose children does: a chain a > b > c with c at 60%, and a sibling d at 25%.
    #[test]
    fn hot_subtrees_are_the_deepest_contexts_over_the_threshold() {
        let mut t = Tree::new(0, 1);
        let add = |t: &mut Tree, path: &[u32], v: u64| {
            let n = t.descend(Tree::ROOT, path);
            t.add_base(n, &[v]);
        };
        add(&mut t, &[1], 5);
        add(&mut t, &[1, 2], 5);
        add(&mut t, &[1, 2, 3], 60);
        add(&mut t, &[1, 2, 3, 9], 5);
        add(&mut t, &[1, 4], 25);
        let found: Vec<(Vec<u32>, String)> = hot_subtrees(&t, 0, 100).into_iter().map(|(n, s)| (t.path(n), format!("{s:.2}"))).collect();
        assert_eq!(found, [(vec![0, 1, 2, 3], "0.65".to_string()), (vec![0, 1, 4], "0.25".to_string())]);
    }
}
