//! Compilations, as looking at the JIT compiler threads sees them. Each look (every 10 ms) is a
//! sample of what each compiler thread is doing at that instant: compiling a method for a tier,
//! or nothing. A method's share of a thread's CPU time is the share of the looks that found the
//! thread busy on it, so each busy look stands for the thread's CPU time divided by its busy
//! looks. This holds for compilations shorter than the time between looks too (C1's mostly are):
//! a 1 ms task is found by one look in ten, and stands for 10 ms when it is. Charging each look
//! the CPU used since the previous one (this module's first version) left most of C1's time to
//! "no compile task": the thread is idle again when it is looked at. Each compilation (by the
//! VM's compile id) is counted once, when a look first finds it.

use std::collections::BTreeMap;

use super::lock;

use hpm_model::sampling::Tier;
use hpm_model::snapshot::{CompileRow, CompilerActivity, NO_TASK};

/// A method and tier: the looks that found each thread (by OS thread id) on it, and the
/// compilations seen.
#[derive(Default)]
struct Seen {
    looks: BTreeMap<i32, u64>,
    compilations: u64,
    osr: u64,
}

/// A compiler thread: its CPU time while recording, its busy and idle looks, its compiler.
#[derive(Default)]
struct ThreadSums {
    cpu_ns: u64,
    busy_looks: u64,
    idle_looks: u64,
    tier: Option<Tier>,
}

/// The recorder's compile table (see the module comment).
#[derive(Default)]
pub(crate) struct CompileTracker {
    table: std::sync::Mutex<Table>,
}

#[derive(Default)]
struct Table {
    seen: BTreeMap<(String, Tier), Seen>,
    threads: BTreeMap<i32, ThreadSums>,
    /// The compile id each compiler thread was last seen on.
    current: BTreeMap<i32, u64>,
}

impl CompileTracker {
    /// One look at compiler thread `tid`: it used `cpu_ns` since the previous look and is now
    /// doing `activity`.
    pub(crate) fn look(&self, tid: i32, cpu_ns: u64, activity: &CompilerActivity) {
        let mut t = lock(&self.table);
        let thread = t.threads.entry(tid).or_default();
        thread.cpu_ns += cpu_ns;
        match activity {
            CompilerActivity::Compiling { method, tier, id, osr } => {
                thread.busy_looks += 1;
                thread.tier = Some(*tier);
                let new = t.current.insert(tid, *id) != Some(*id);
                let s = t.seen.entry((method.clone(), *tier)).or_default();
                *s.looks.entry(tid).or_default() += 1;
                if new {
                    s.compilations += 1;
                    s.osr += *osr as u64;
                }
            }
            CompilerActivity::Idle { tier } => {
                thread.idle_looks += 1;
                thread.tier.get_or_insert(*tier);
                t.current.remove(&tid);
            }
        }
    }

    pub(crate) fn clear(&self) {
        let mut t = lock(&self.table);
        t.seen.clear();
        t.threads.clear();
        t.current.clear();
    }

    /// The table, most CPU time first.
    pub(crate) fn rows(&self) -> Vec<CompileRow> {
        let t = lock(&self.table);
        let per_look = |tid: &i32| t.threads.get(tid).map_or(0.0, |th| th.cpu_ns as f64 / th.busy_looks.max(1) as f64);
        let mut rows: Vec<CompileRow> = t
            .seen
            .iter()
            .map(|((m, tier), s)| CompileRow {
                method: m.clone(),
                tier: *tier,
                cpu_ns: s.looks.iter().map(|(tid, n)| *n as f64 * per_look(tid)).sum::<f64>().round() as u64,
                looks: s.looks.values().sum(),
                compilations: s.compilations,
                osr_compilations: s.osr,
            })
            .collect();
        let mut idle: BTreeMap<Tier, (u64, u64)> = BTreeMap::new();
        for th in t.threads.values().filter(|th| th.busy_looks == 0 && th.cpu_ns > 0) {
            let e = idle.entry(th.tier.unwrap_or(Tier::Unknown)).or_default();
            e.0 += th.cpu_ns;
            e.1 += th.idle_looks;
        }
        rows.extend(idle.into_iter().map(|(tier, (cpu_ns, looks))| CompileRow { method: NO_TASK.into(), tier, cpu_ns, looks, compilations: 0, osr_compilations: 0 }));
        rows.sort_by(|a, b| b.cpu_ns.cmp(&a.cpu_ns).then_with(|| a.method.cmp(&b.method)));
        rows
    }
}

impl super::Recorder {
    /// One look at JIT compiler thread `tid` (from a backend's poller): it used `cpu_ns` of CPU
    /// since the previous look and is doing `activity` now. Ignored while recording is stopped.
    pub fn compiler_look(&self, tid: i32, cpu_ns: u64, activity: &CompilerActivity) {
        if !self.is_paused() {
            self.compiles.look(tid, cpu_ns, activity);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn compiling(m: &str, tier: Tier, id: u64) -> CompilerActivity {
        CompilerActivity::Compiling { method: m.into(), tier, id, osr: id == 9 }
    }

    #[test]
    fn each_busy_look_stands_for_its_threads_cpu_per_busy_look() {
        let t = CompileTracker::default();
        // Thread 1 (C2): 60 ns over 4 busy looks (15 each): m seen 3 times in two compilations
        // (the second OSR), n once; its idle look's CPU (a task that ended between looks)
        // is spread too.
        t.look(1, 5, &compiling("a.B.m", Tier::C2, 7));
        t.look(1, 10, &compiling("a.B.m", Tier::C2, 7));
        t.look(1, 20, &CompilerActivity::Idle { tier: Tier::C2 });
        t.look(1, 10, &compiling("a.B.n", Tier::C2, 8));
        t.look(1, 15, &compiling("a.B.m", Tier::C2, 9));
        // Thread 2 (C1): 8 ns over 2 busy looks; thread 3 (C1) never found busy.
        t.look(2, 3, &compiling("a.B.m", Tier::C1, 10));
        t.look(2, 5, &compiling("a.B.m", Tier::C1, 11));
        t.look(3, 7, &CompilerActivity::Idle { tier: Tier::C1 });
        let rows = t.rows();
        let row = |m: &str, tier| rows.iter().find(|r| r.method == m && r.tier == tier).unwrap_or_else(|| panic!("{m}"));
        let c2 = row("a.B.m", Tier::C2);
        assert_eq!((c2.cpu_ns, c2.looks, c2.compilations, c2.osr_compilations), (45, 3, 2, 1));
        assert_eq!(row("a.B.n", Tier::C2).cpu_ns, 15);
        let c1 = row("a.B.m", Tier::C1);
        assert_eq!((c1.cpu_ns, c1.looks, c1.compilations), (8, 2, 2));
        assert_eq!((row(NO_TASK, Tier::C1).cpu_ns, row(NO_TASK, Tier::C1).looks), (7, 1), "a thread never seen busy");
        assert!(rows.iter().all(|r| !(r.method == NO_TASK && r.tier == Tier::C2)));
        assert_eq!(rows.iter().map(|r| r.cpu_ns).sum::<u64>(), 75, "all CPU time is charged");
        assert_eq!(rows[0].method, "a.B.m", "most time first");
        t.clear();
        assert!(t.rows().is_empty());
    }
}
