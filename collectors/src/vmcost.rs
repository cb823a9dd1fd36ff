//! VM cost apart from application cost: the CPU time of every thread of the process, by kind of
//! thread (the program's Java threads, the collector's, the JIT compilers', the VM's other
//! threads, the agent's own), read from the kernel's per-thread accounts
//! (`/proc/self/task/<tid>/schedstat`: time on CPU, ns) at every tick of a timeline and at every
//! marker, so that each phase of a run splits into application, GC, JIT compilation and other VM
//! work (the split of Sweeney et al. 2004 and of Newhall's VM-AP model).
//!
//! Which thread is which is the VM's knowledge: the backend gives a [`ThreadClassifier`]. Reading
//! a few hundred small files takes well under a millisecond, once a second.
//!
//! With counters ([`CostTimeline::with_counters`]) every thread also gets a perf_event group
//! opened by its thread id at first sight, read at every tick; a thread's group stays readable
//! after the thread ends, so its last counts are exact.

use hpm_model::metrics::ThreadMetrics;
use hpm_model::vmcost::{CostRow, PerKind, ThreadKind};

use std::collections::HashMap;
use std::path::Path;

/// Tells what a thread works for, from its kernel id and name (`comm`, at most 15 bytes).
pub trait ThreadClassifier {
    fn classify(&self, tid: u32, comm: &str) -> ThreadKind;
}

/// Opens a thread's counters by its thread id (`None` if they cannot be opened).
pub type CounterOpener = dyn Fn(u32) -> Option<Box<dyn ThreadMetrics>> + Send;

/// A thread's counter group and its values at the last row (counted from its opening).
type CounterGroupState = (Box<dyn ThreadMetrics>, Vec<u64>);

/// One thread as the last row saw it.
struct Seen {
    cpu_ns: u64,
    kind: ThreadKind,
    counters: Option<CounterGroupState>,
}

/// The timeline of a process's CPU time by kind of thread.
#[derive(Default)]
pub struct CostTimeline {
    /// Each thread at the last row (by tid); a thread seen for the first time is counted from 0,
    /// so what it used before it was first seen goes to the row it appears in.
    last: HashMap<u32, Seen>,
    counter_names: Vec<String>,
    open_counters: Option<Box<CounterOpener>>,
    /// Counter groups opened at a thread's start ([`CostTimeline::thread_started`]), until a row
    /// first sees the thread.
    started: HashMap<u32, CounterGroupState>,
    rows: Vec<CostRow>,
    /// CPU time of threads that ended, read by themselves at their end
    /// ([`CostTimeline::thread_ended`]), until a row finds them gone.
    finals: HashMap<u32, (u64, ThreadKind)>,
    /// Threads whose schedstat vanished between two rows without a final reading: what they
    /// used after the last row is not in the timeline.
    lost: u64,
}

impl CostTimeline {
    pub fn new() -> CostTimeline {
        CostTimeline::default()
    }

    /// A timeline that also counts `names` (perf_event counters) on every thread, opened by
    /// `open` at each thread's first sight.
    pub fn with_counters(names: Vec<String>, open: Box<CounterOpener>) -> CostTimeline {
        CostTimeline { counter_names: names, open_counters: Some(open), ..CostTimeline::default() }
    }

    /// The counters of each row's `counters`, in order.
    pub fn counter_names(&self) -> &[String] {
        &self.counter_names
    }

    /// Reads every thread of this process now and adds the row ending at `at_ns` (ns since the
    /// origin the caller uses); `marker` names a marker set now.
    pub fn tick(&mut self, at_ns: u64, marker: Option<String>, classify: &dyn ThreadClassifier) {
        self.tick_from(Path::new("/proc/self/task"), at_ns, marker, classify)
    }

    /// As [`CostTimeline::tick`], reading the threads under `tasks` (`/proc/PID/task`).
    pub fn tick_from(&mut self, tasks: &Path, at_ns: u64, marker: Option<String>, classify: &dyn ThreadClassifier) {
        let mut cpu = PerKind::default();
        let mut counters = vec![PerKind::default(); self.counter_names.len()];
        let previous: std::collections::HashSet<u32> = self.last.keys().copied().collect();
        let mut seen: HashMap<u32, Seen> = HashMap::with_capacity(self.last.len() + 8);
        for entry in std::fs::read_dir(tasks).into_iter().flatten().flatten() {
            let Some(tid) = entry.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else { continue };
            let Some(ns) = read_cpu_ns(&entry.path()) else { continue };
            let mut before = self.last.remove(&tid);
            // A thread keeps its kind (names can change, e.g. a renamed Java thread), unless it
            // was not known yet (a Java thread seen before the VM announced it).
            let kind = match &before {
                Some(b) if b.kind != ThreadKind::Other => b.kind,
                _ => {
                    let comm = std::fs::read_to_string(entry.path().join("comm")).unwrap_or_default();
                    classify.classify(tid, comm.trim_end())
                }
            };
            cpu.0[kind.index()] += ns.saturating_sub(before.as_ref().map_or(0, |b| b.cpu_ns));
            let group = match before.as_mut().and_then(|b| b.counters.take()).or_else(|| self.started.remove(&tid)) {
                Some(g) => Some(g),
                None => self.open_counters.as_ref().and_then(|open| open(tid)).map(|g| (g, vec![0; self.counter_names.len()])),
            };
            let group = group.map(|(mut g, mut last)| {
                add_counter_deltas(&mut *g, &mut last, &mut counters, kind);
                (g, last)
            });
            seen.insert(tid, Seen { cpu_ns: ns, kind, counters: group });
        }
        // What is left in `last` ended since the last row.
        for (tid, mut gone) in self.last.drain() {
            match self.finals.get(&tid) {
                Some(&(end, _)) => cpu.0[gone.kind.index()] += end.saturating_sub(gone.cpu_ns),
                None => self.lost += 1,
            }
            // The group of an ended thread keeps its final counts.
            if let Some((g, last)) = gone.counters.as_mut() {
                add_counter_deltas(&mut **g, last, &mut counters, gone.kind);
            }
        }
        // Threads that started and ended between two rows: all they used.
        for (tid, &(end, kind)) in &self.finals {
            if !seen.contains_key(tid) && !previous.contains(tid) {
                cpu.0[kind.index()] += end;
                if let Some((mut g, mut last)) = self.started.remove(tid) {
                    add_counter_deltas(&mut *g, &mut last, &mut counters, kind);
                }
            }
        }
        // A final reading waits for its thread to vanish (a thread that ended may still be
        // listed for a moment).
        self.finals.retain(|t, _| seen.contains_key(t));
        self.last = seen;
        self.rows.push(CostRow { at_ns, cpu, counters, marker });
    }

    pub fn rows(&self) -> &[CostRow] {
        &self.rows
    }

    /// A thread starts (called on it, or with its id as soon as it is known): its counters are
    /// opened now, so that they count its whole life, not only from the first row that sees it.
    pub fn thread_started(&mut self, tid: u32) {
        if let Some(g) = self.open_counters.as_ref().and_then(|open| open(tid)) {
            self.started.insert(tid, (g, vec![0; self.counter_names.len()]));
        }
    }

    /// A thread of kind `kind` ends: `cpu_ns` is its CPU time now, read by itself (its
    /// `schedstat` goes with it). The first row that finds it gone counts what it used since the
    /// last row that saw it (all of it, if none did).
    pub fn thread_ended(&mut self, tid: u32, cpu_ns: u64, kind: ThreadKind) {
        self.finals.insert(tid, (cpu_ns, kind));
    }

    /// Threads that ended between two rows without [`CostTimeline::thread_ended`]: what they
    /// used after the last row is missing.
    pub fn lost_threads(&self) -> u64 {
        self.lost
    }
}

/// Reads `group` and adds what each counter counted since `last` to `kind` in `into`.
fn add_counter_deltas(group: &mut dyn ThreadMetrics, last: &mut [u64], into: &mut [PerKind], kind: ThreadKind) {
    let mut now = vec![0u64; last.len()];
    group.read(&mut now);
    for ((l, n), acc) in last.iter_mut().zip(&now).zip(into.iter_mut()) {
        acc.0[kind.index()] += n.saturating_sub(*l);
        *l = (*l).max(*n);
    }
}

/// The first field of `TASK/schedstat`: time on CPU, ns.
fn read_cpu_ns(task: &Path) -> Option<u64> {
    let s = std::fs::read_to_string(task.join("schedstat")).ok()?;
    s.split_whitespace().next()?.parse().ok()
}

/// HotSpot's native threads by name (`comm`), for a [`ThreadClassifier`]: `None` for a name
/// HotSpot does not give (Java threads, other libraries' threads).
pub fn hotspot_native_thread_kind(comm: &str) -> Option<ThreadKind> {
    const GC: &[&str] = &["GC Thread", "G1 ", "GC ", "ZGC", "ZDirector", "ZStat", "ZUnmapper", "ZWorker", "ZRelocate", "ZMark", "ZDriver", "Shenandoah", "Shen", "ParGC", "Conc", "PSYoung"];
    const JIT: &[&str] = &["C1 CompilerThre", "C2 CompilerThre", "Sweeper thread", "JVMCI"];
    const VM: &[&str] = &["VM Thread", "VM Periodic Tas", "Service Thread", "Monitor Deflati", "StrDedup", "JFR ", "Attach Listener", "Signal Dispatch", "Notification Th", "Common-Cleaner", "Reference Handl", "Finalizer"];
    if JIT.iter().any(|p| comm.starts_with(p)) {
        Some(ThreadKind::Jit)
    } else if GC.iter().any(|p| comm.starts_with(p)) {
        Some(ThreadKind::Gc)
    } else if VM.iter().any(|p| comm.starts_with(p)) {
        Some(ThreadKind::Vm)
    } else if comm.starts_with("hpm-") {
        Some(ThreadKind::Agent)
    } else {
        None
    }
}

/// The name HotSpot gave one of its own threads, from the kernel's copy (`comm`, cut to 15
/// bytes): the names HotSpot's threads have that are longer than that, whole again. Compiler
/// threads are numbered (`C2 CompilerThread0`, …): `rank` is the thread's place among the live
/// threads with the same `comm`, in the order they started (HotSpot adds them with rising numbers
/// and removes the highest first, so that order is theirs). None for a name kept whole.
pub fn hotspot_thread_name(comm: &str, rank: usize) -> Option<String> {
    const WHOLE: &[&str] = &["VM Periodic Task Thread", "Monitor Deflation Thread", "Signal Dispatcher", "Reference Handler", "Notification Thread", "G1 Young RemSet Sampling"];
    if comm.chars().count() < 15 {
        return None;
    }
    if let Some(kind) = ["C1 ", "C2 ", "JVMCI "].into_iter().find(|k| comm.starts_with(k) && "CompilerThread".starts_with(&comm[k.len()..])) {
        return Some(format!("{kind}CompilerThread{rank}"));
    }
    WHOLE.iter().find(|w| w.starts_with(comm)).map(|w| w.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hotspot_threads_get_their_whole_names_back() {
        assert_eq!(hotspot_thread_name("C2 CompilerThre", 1).as_deref(), Some("C2 CompilerThread1"));
        assert_eq!(hotspot_thread_name("C1 CompilerThre", 0).as_deref(), Some("C1 CompilerThread0"));
        assert_eq!(hotspot_thread_name("JVMCI CompilerT", 2).as_deref(), Some("JVMCI CompilerThread2"));
        assert_eq!(hotspot_thread_name("VM Periodic Tas", 0).as_deref(), Some("VM Periodic Task Thread"));
        assert_eq!(hotspot_thread_name("Monitor Deflati", 0).as_deref(), Some("Monitor Deflation Thread"));
        assert_eq!(hotspot_thread_name("Reference Handl", 0).as_deref(), Some("Reference Handler"));
        // Whole already, or not HotSpot's.
        assert_eq!(hotspot_thread_name("GC Thread#0", 0), None);
        assert_eq!(hotspot_thread_name("my-worker-threa", 0), None);
        assert_eq!(hotspot_thread_name("C2 CompilerThing", 0), None);
    }

    /// The threads named `.0` are the application (tests run in parallel threads of one process).
    struct ByName(&'static str);
    impl ThreadClassifier for ByName {
        fn classify(&self, _tid: u32, comm: &str) -> ThreadKind {
            hotspot_native_thread_kind(comm).unwrap_or(if comm == self.0 { ThreadKind::Application } else { ThreadKind::Other })
        }
    }

    /// Counters opened on each thread by its id: a busy thread's `task-clock` (the kernel's count
    /// of its CPU time) goes to its kind, also when it ends between rows. At least the thread's CPU
    /// time of work; at most the wall time it was free to run. The thread's CPU clock is no upper
    /// bound: task-clock also counts the interrupt and hypervisor time the CPU clock leaves out (one
    /// CI machine: 83.1 ms against 80.1 ms, with no steal reported in /proc/stat).
    #[test]
    fn counters_by_kind_follow_each_thread_to_its_end() {
        use crate::counters::{parse_event, CounterOptions, CounterSetSpec};
        let spec = CounterSetSpec::new(vec![parse_event("task-clock").unwrap()], CounterOptions::default());
        let open: Box<CounterOpener> = Box::new(move |tid| spec.open_thread(tid as i32).ok().map(|g| Box::new(g) as Box<dyn ThreadMetrics>));
        let mut t = CostTimeline::with_counters(vec!["task-clock".into()], open);
        let (go_tx, go_rx) = std::sync::mpsc::channel::<()>();
        let busy = std::thread::Builder::new()
            .name("work-counted".into())
            .spawn(move || {
                go_rx.recv().unwrap();
                let end = crate::counters::thread_cpu_ns() + 80_000_000;
                while crate::counters::thread_cpu_ns() < end {}
                crate::counters::thread_cpu_ns()
            })
            .unwrap();
        // Seen (and its group opened) before it works; it ends before the next row.
        std::thread::sleep(std::time::Duration::from_millis(20));
        t.tick(0, None, &ByName("work-counted"));
        let start = std::time::Instant::now();
        go_tx.send(()).unwrap();
        let cpu = busy.join().unwrap();
        let wall = start.elapsed().as_nanos() as u64;
        std::thread::sleep(std::time::Duration::from_millis(20));
        t.tick(1, None, &ByName("work-counted"));
        assert_eq!(t.counter_names(), ["task-clock"]);
        let counted = t.rows()[1].counters[0].get(ThreadKind::Application);
        // All its CPU after the first row: at least the 80 ms of work, at most the wall time from
        // its start signal to its end (before the signal it was blocked and used almost nothing).
        // task-clock and the thread's CPU clock are kept apart by the scheduler: on a loaded
        // machine task-clock has come out up to 0.2 ms short of the CPU clock's 80 ms.
        let work_ms = |ms: u64| ms * 1_000_000 * 99 / 100;
        assert!((work_ms(80)..=wall + 1_000_000).contains(&counted), "task-clock {counted} ns, thread cpu {cpu} ns, wall {wall} ns");

        // A thread announced at its start and ended before any row saw it: its whole life.
        let (tid_tx, tid_rx) = std::sync::mpsc::channel();
        let (go_tx, go_rx) = std::sync::mpsc::channel::<()>();
        let short = std::thread::spawn(move || {
            tid_tx.send(crate::counters::clock::current_tid() as u32).unwrap();
            go_rx.recv().unwrap();
            let end = crate::counters::thread_cpu_ns() + 40_000_000;
            while crate::counters::thread_cpu_ns() < end {}
            crate::counters::thread_cpu_ns()
        });
        let tid = tid_rx.recv().unwrap();
        t.thread_started(tid);
        let start = std::time::Instant::now();
        go_tx.send(()).unwrap();
        let cpu = short.join().unwrap();
        let wall = start.elapsed().as_nanos() as u64;
        t.thread_ended(tid, cpu, ThreadKind::Jit);
        std::thread::sleep(std::time::Duration::from_millis(20));
        t.tick(2, None, &ByName("work-counted"));
        let counted = t.rows()[2].counters[0].get(ThreadKind::Jit);
        assert!((work_ms(40)..=wall + 1_000_000).contains(&counted), "task-clock {counted} ns, thread cpu {cpu} ns, wall {wall} ns");
    }

    #[test]
    fn hotspot_thread_names_are_classified() {
        for (name, kind) in [
            ("GC Thread#3", ThreadKind::Gc),
            ("G1 Conc#0", ThreadKind::Gc),
            ("G1 Refine#0", ThreadKind::Gc),
            ("C2 CompilerThre", ThreadKind::Jit),
            ("C1 CompilerThre", ThreadKind::Jit),
            ("VM Thread", ThreadKind::Vm),
            ("VM Periodic Tas", ThreadKind::Vm),
            ("hpm-stack-drain", ThreadKind::Agent),
        ] {
            assert_eq!(hotspot_native_thread_kind(name), Some(kind), "{name}");
        }
        assert_eq!(hotspot_native_thread_kind("main"), None);
        assert_eq!(hotspot_native_thread_kind("java"), None);
    }

    /// Real threads of this test process: a busy one named `work-…` is application time, in the
    /// row of the interval it ran in, and the rows add up to what the kernel counted.
    #[test]
    fn rows_split_the_process_cpu_by_kind() {
        let mut t = CostTimeline::new();
        t.tick(0, None, &ByName("work-busy"));
        let busy = std::thread::Builder::new()
            .name("work-busy".into())
            .spawn(|| {
                let end = crate::counters::thread_cpu_ns() + 100_000_000;
                let mut x = 0u64;
                while crate::counters::thread_cpu_ns() < end {
                    x = x.wrapping_mul(31).wrapping_add(std::hint::black_box(7));
                }
                std::hint::black_box(x);
                (crate::counters::clock::current_tid() as u32, crate::counters::thread_cpu_ns())
            })
            .unwrap();
        // Ticked while it runs, and read by itself at its end.
        std::thread::sleep(std::time::Duration::from_millis(20));
        t.tick(1, Some("mid".into()), &ByName("work-busy"));
        let (tid, cpu) = busy.join().unwrap();
        t.thread_ended(tid, cpu, ThreadKind::Application);
        // One that starts and ends between two rows.
        let quick = std::thread::spawn(|| {
            let end = crate::counters::thread_cpu_ns() + 30_000_000;
            while crate::counters::thread_cpu_ns() < end {}
            (crate::counters::clock::current_tid() as u32, crate::counters::thread_cpu_ns())
        });
        let (qtid, qcpu) = quick.join().unwrap();
        t.thread_ended(qtid, qcpu, ThreadKind::Gc);
        t.tick(2, None, &ByName("work-busy"));
        t.tick(3, None, &ByName("work-busy"));
        let rows = t.rows();
        assert_eq!(rows.len(), 4);
        assert_eq!(rows[1].marker.as_deref(), Some("mid"));
        let (mid, end) = (rows[1].cpu.get(ThreadKind::Application), rows[2].cpu.get(ThreadKind::Application));
        assert!(mid > 0 && end > 0, "{rows:?}");
        assert!((100_000_000..102_000_000).contains(&(mid + end)), "{mid} + {end} ns");
        assert!((30_000_000..32_000_000).contains(&rows[2].cpu.get(ThreadKind::Gc)), "{rows:?}");
        assert_eq!(rows[3].cpu.get(ThreadKind::Gc), 0, "counted once");
        // (Other tests' threads of this process may end unseen: `lost_threads` is theirs.)
    }
}
