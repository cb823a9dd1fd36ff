//! Quantum traces on HotSpot (`quantum`, `quantum=all`): HotSpot's threads are OS threads, so
//! their quanta come from the kernel's context switches (`hpm_collectors::quantum::os`), one
//! trace processor per CPU.
//!
//! - `quantum` traces the thread that initialises the VM (`main`) and every Java thread started
//!   after (ThreadStart, on the thread itself); `quantum=all` also every other thread of the
//!   process, found in `/proc/self/task` at VM init and every second after (GC and JIT workers,
//!   the VM thread, the JDK's own Java threads started before VM init). Loaded into a running VM,
//!   the threads already there are traced from their next switch in (with `quantum`, the ones
//!   whose names are not HotSpot's own).
//! - A writer thread of the agent's, `hpm-quanta`, traced itself as the trace's `writer`, pumps
//!   the tracer every 10 ms; at VM death it stops and the tracer finishes the files.
//! - `hpmagent.Trace` markers go into the trace (in the file of the CPU the marking thread runs
//!   on), besides `marks.txt`.
//! - Where the kernel refuses switch records (not root, no `CAP_PERFMON`, `perf_event_paranoid`
//!   above 1), one line says so at load and the agent carries on without a trace.
//! - With stack samples (`sample=cpu`), each quantum that holds samples of its thread gets a top
//!   method at the end ([`TopMethods`]): the Java method most of those samples were in (the
//!   kernel's switches know no method). Quanta without a sample keep none.
//! - Virtual threads (JDK 21+) get a trace of their own in `DIR/vthreads/`
//!   (`hpm_collectors::quantum::mounts`): one record per mount, the carrier as the processor,
//!   the carrier's metrics read at the mount and at the unmount, so the records of a virtual
//!   thread add up to the time it ran. It needs no kernel switch records (it is written where
//!   they are refused too); its writer thread is `hpm-vquanta`.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::JoinHandle;
use std::time::Duration;

use hpm_agent_core::options::QuantumMode;
use hpm_collectors::counters::events::EventSpec;
use hpm_collectors::counters::{current_tid, parse_event};
use hpm_model::metrics::MetricSet;
use hpm_collectors::quantum::mounts::{Carrier, MountTracer};
use hpm_collectors::quantum::os::OsTracer;
use hpm_model::quantum::{MarkerKind, ThreadKind};
use hpm_collectors::recorder::ThreadInfo;
use hpm_model::vmcost::ThreadKind as Work;
use hpm_collectors::vmcost::{hotspot_native_thread_kind, hotspot_thread_name};
use hpm_support::{lock, log};

/// How often the writer drains the threads' rings, and how many pumps between two looks for new
/// threads (`quantum=all`).
const PUMP_EVERY: Duration = Duration::from_millis(10);
const PUMPS_PER_RESCAN: u32 = 100;

/// The writer thread's name (15 characters at most: the kernel's `comm`).
const WRITER: &str = "hpm-quanta";

struct Quanta {
    tracer: OsTracer,
    dir: std::path::PathBuf,
    all: bool,
    /// Loaded into a running VM (Agent_OnAttach): VM init is not on the `main` thread then.
    late: bool,
    stop: AtomicBool,
    writer: Mutex<Option<JoinHandle<()>>>,
}

static QUANTA: OnceLock<Arc<Quanta>> = OnceLock::new();

/// The trace of virtual threads' mounts, made at the first virtual thread (`quantum` on).
struct Mounts {
    tracer: MountTracer,
    stop: AtomicBool,
    writer: Mutex<Option<JoinHandle<()>>>,
}

/// Where the mount trace goes, when `quantum` is on.
static MOUNTS_DIR: OnceLock<std::path::PathBuf> = OnceLock::new();
static MOUNTS: OnceLock<Arc<Mounts>> = OnceLock::new();

/// The mount trace's writer thread's name.
const MOUNT_WRITER: &str = "hpm-vquanta";

thread_local! {
    /// On a carrier thread: its part of the mount trace, and the virtual thread it runs now.
    static CARRIER: std::cell::RefCell<(Option<Arc<Carrier>>, Option<u32>)> = const { std::cell::RefCell::new((None, None)) };
    /// The Java name of the calling thread, from its ThreadStart (the kernel keeps 15 bytes).
    static JAVA_NAME: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// At load: a tracer for `mode` into `dir`, counting the `event=` counters beside each thread's
/// CPU time (names that do not parse are said once by the counters' own probe). A refusal is one
/// warning; the rest of the agent carries on.
pub(crate) fn setup(mode: QuantumMode, dir: &Path, events: &[String], late: bool) {
    if mode == QuantumMode::Off {
        return;
    }
    if mode == QuantumMode::Tick {
        log::warn("quantum=tick needs the research VM's timer ticks; HotSpot's trace has a record per context switch, as with quantum=switch");
    }
    let _ = MOUNTS_DIR.set(dir.join("vthreads"));
    let events: Vec<EventSpec> = events.iter().filter_map(|e| parse_event(e).ok()).collect();
    match OsTracer::new(dir, &events) {
        Ok(tracer) => {
            let q = Quanta { tracer, dir: dir.to_path_buf(), all: mode == QuantumMode::All, late, stop: AtomicBool::new(false), writer: Mutex::new(None) };
            let _ = QUANTA.set(Arc::new(q));
        }
        Err(e) => log::warn(&format!("quantum: {e}; no quantum trace (everything else carries on)")),
    }
}

/// The trace's kind of a thread, by its kernel name and (for a Java thread) the VM's kind.
fn kind_of(comm: &str, java_kind: Option<&str>) -> ThreadKind {
    if comm == WRITER {
        return ThreadKind::Writer;
    }
    match hotspot_native_thread_kind(comm) {
        Some(Work::Gc) => ThreadKind::Collector,
        // Named as vm-cost.txt names them.
        Some(Work::Jit) => ThreadKind::Jit,
        Some(_) => ThreadKind::System,
        None if java_kind == Some("system") => ThreadKind::System,
        None => ThreadKind::App,
    }
}

fn comm_of(tid: i32) -> String {
    std::fs::read_to_string(format!("/proc/self/task/{tid}/comm")).map(|s| s.trim_end().to_string()).unwrap_or_default()
}

/// Traces the threads of the process not traced yet (from their next switch in): all of them, or
/// only those that look like the application's (`apps_only`: names HotSpot does not give its own
/// threads).
fn add_threads(q: &Quanta, apps_only: bool) {
    let mut threads: Vec<(i32, String)> = std::fs::read_dir("/proc/self/task")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.file_name().to_str().and_then(|t| t.parse::<i32>().ok()))
        .map(|tid| (tid, comm_of(tid)))
        .collect();
    // By thread id: the order the threads started in, which numbers HotSpot's compiler threads.
    threads.sort();
    for (i, (tid, comm)) in threads.iter().enumerate() {
        if !q.tracer.is_traced(*tid) {
            let kind = kind_of(comm, None);
            if !apps_only || kind == ThreadKind::App {
                let rank = threads[..i].iter().filter(|(_, c)| c == comm).count();
                let name = hotspot_thread_name(comm, rank).unwrap_or_else(|| comm.clone());
                q.tracer.add_thread(*tid, kind, &name);
            }
        }
    }
}

/// At VM init, on the thread that initialised the VM: traces it (and with `quantum=all` every
/// thread there is), and starts the writer. Loaded into a running VM, this runs on the attaching
/// thread instead: the threads already there are traced from their next switch in (with
/// `quantum`, those that look like the application's).
pub(crate) fn vm_init() {
    let Some(q) = QUANTA.get() else { return };
    if q.late {
        add_threads(q, !q.all);
    } else {
        // HotSpot posts VMInit on the thread that runs `main`.
        q.tracer.thread_started(ThreadKind::App, "main");
        if q.all {
            add_threads(q, false);
        }
    }
    let me = q.clone();
    let spawned = std::thread::Builder::new().name(WRITER.into()).spawn(move || {
        me.tracer.thread_started(ThreadKind::Writer, WRITER);
        let mut pumps = 0u32;
        while !me.stop.load(Ordering::Acquire) {
            std::thread::sleep(PUMP_EVERY);
            me.tracer.pump(false);
            pumps += 1;
            if me.all && pumps.is_multiple_of(PUMPS_PER_RESCAN) {
                add_threads(&me, false);
            }
        }
        me.tracer.thread_ended();
    });
    match spawned {
        Ok(h) => *lock(&q.writer) = Some(h),
        Err(e) => log::warn(&format!("quantum: cannot start the trace writer thread ({e}); the trace is written at exit only")),
    }
}

/// ThreadStart, on the new thread (`info`: its Java name and kind; the kernel's name may not be
/// set from it yet).
pub(crate) fn thread_started(info: &ThreadInfo) {
    if MOUNTS_DIR.get().is_some() {
        let _ = JAVA_NAME.try_with(|n| *n.borrow_mut() = Some(info.name.clone()));
    }
    let Some(q) = QUANTA.get() else { return };
    q.tracer.thread_started(kind_of(&info.name, info.kind.as_deref()), &info.name);
}

/// ThreadEnd, on the ending thread (`info`: its Java name and kind): its last quantum.
pub(crate) fn thread_ended(info: &ThreadInfo) {
    let Some(q) = QUANTA.get() else { return };
    let tid = current_tid();
    q.tracer.rename(tid, kind_of(&comm_of(tid), info.kind.as_deref()), &info.name);
    q.tracer.thread_ended();
}

/// An `hpmagent.Trace` marker (`kind`: the marker's record format) on the calling thread; from
/// a virtual thread, also in the mount trace.
pub(crate) fn marker(kind: u32, run: u32, text: &str) {
    let Some(kind) = MarkerKind::from_format(kind) else { return };
    if let Some(q) = QUANTA.get() {
        q.tracer.marker(kind, run, text);
    }
    if let Some(m) = MOUNTS.get() {
        let _ = CARRIER.try_with(|c| {
            if let (Some(c), Some(id)) = &*c.borrow() {
                m.tracer.marker(c, *id, kind, run, text);
            }
        });
    }
}

/// A virtual thread starts (`quantum` on): the mount trace is made at the first one, with the
/// agent's metrics (`set`), and names it.
pub(crate) fn vthread_started(id: u32, name: &str, set: &Arc<dyn MetricSet>) {
    let Some(dir) = MOUNTS_DIR.get() else { return };
    let m = MOUNTS.get_or_init(|| {
        let m = Arc::new(Mounts { tracer: MountTracer::new(dir, set.clone()), stop: AtomicBool::new(false), writer: Mutex::new(None) });
        let me = m.clone();
        let spawned = std::thread::Builder::new().name(MOUNT_WRITER.into()).spawn(move || {
            if let Some(q) = QUANTA.get() {
                q.tracer.thread_started(ThreadKind::Writer, MOUNT_WRITER);
            }
            while !me.stop.load(Ordering::Acquire) {
                me.tracer.wait(PUMP_EVERY);
                me.tracer.write_pending();
            }
            if let Some(q) = QUANTA.get() {
                q.tracer.thread_ended();
            }
        });
        match spawned {
            Ok(h) => *lock(&m.writer) = Some(h),
            Err(e) => log::warn(&format!("quantum: cannot start the writer of the virtual threads' trace ({e}); it is written at exit only")),
        }
        m
    });
    m.tracer.thread_started(id, name);
}

/// The calling carrier mounts virtual thread `id`.
pub(crate) fn vthread_mounted(id: u32) {
    let Some(m) = MOUNTS.get() else { return };
    let _ = CARRIER.try_with(|c| {
        let mut c = c.borrow_mut();
        let carrier = c
            .0
            .get_or_insert_with(|| {
                let name = JAVA_NAME.try_with(|n| n.borrow().clone()).ok().flatten().unwrap_or_else(|| comm_of(current_tid()));
                m.tracer.carrier(&name)
            })
            .clone();
        m.tracer.mount(&carrier, id);
        c.1 = Some(id);
    });
}

/// The calling carrier unmounts virtual thread `id`: the mount's record.
pub(crate) fn vthread_unmounted(id: u32) {
    let Some(m) = MOUNTS.get() else { return };
    let _ = CARRIER.try_with(|c| {
        let mut c = c.borrow_mut();
        if let Some(carrier) = &c.0 {
            m.tracer.unmount(carrier, id);
        }
        c.1 = None;
    });
}

/// The top Java method of a thread's quanta, from the run's stack samples: the innermost Java
/// frame of each sample (native, kernel and pseudo-frames skipped, a line number dropped), by
/// thread and time.
pub(crate) struct TopMethods {
    /// Per OS thread id: its samples' times (CLOCK_MONOTONIC, ascending) and top methods (an
    /// index into `names`; None: no Java frame).
    threads: std::collections::HashMap<u32, (Vec<u64>, Vec<Option<u32>>)>,
    names: Vec<String>,
}

impl TopMethods {
    /// From the final dump's sampled trees and timelines; `origin_ns` is the recorder's clock's
    /// CLOCK_MONOTONIC origin (the timelines' times are relative to it). None without samples.
    pub(crate) fn of_run(run: &hpm_model::snapshot::Snapshot, origin_ns: u64) -> Option<TopMethods> {
        let samples = run.samples.as_ref()?;
        let timelines = run.sample_timelines.as_ref()?;
        let mut names: Vec<String> = Vec::new();
        let mut ids: std::collections::HashMap<String, u32> = std::collections::HashMap::new();
        let mut threads = std::collections::HashMap::new();
        for (th, tl) in samples.threads.iter().zip(timelines) {
            let Some(tid) = th.os_tid.and_then(|t| u32::try_from(t).ok()) else { continue };
            let tree = &th.tree;
            // Each node's top method, found once per node.
            let mut top_of: std::collections::HashMap<u32, Option<u32>> = std::collections::HashMap::new();
            let mut tops = Vec::with_capacity(tl.nodes.len());
            for &node in &tl.nodes {
                let top = *top_of.entry(node).or_insert_with(|| {
                    let mut n = Some(node);
                    while let Some(at) = n.filter(|&a| a != hpm_model::arcflow::Tree::ROOT) {
                        if let Some(name) = java_method(samples.consumers.name(tree.consumer(at))) {
                            let next = names.len() as u32;
                            let id = *ids.entry(name.to_string()).or_insert(next);
                            if id == next {
                                names.push(name.to_string());
                            }
                            return Some(id);
                        }
                        n = tree.parent(at);
                    }
                    None
                });
                tops.push(top);
            }
            let times: Vec<u64> = tl.times.iter().map(|t| t + origin_ns).collect();
            threads.insert(tid, (times, tops));
        }
        Some(TopMethods { threads, names })
    }

    /// The method most of `thread`'s samples in [start, end] were in (the latest among equals),
    /// or None where it has none there.
    fn top(&self, thread: u32, start: u64, end: u64) -> Option<String> {
        let (times, tops) = self.threads.get(&thread)?;
        let from = times.partition_point(|&t| t < start);
        let to = times.partition_point(|&t| t <= end);
        let mut counts: Vec<(u32, u32)> = Vec::new();
        for top in tops[from..to].iter().flatten() {
            match counts.iter_mut().find(|(id, _)| id == top) {
                Some(c) => c.1 += 1,
                None => counts.push((*top, 1)),
            }
        }
        // max_by_key keeps the last of equal maxima: the later method.
        counts.iter().max_by_key(|(_, n)| *n).map(|(id, _)| self.names[*id as usize].clone())
    }
}

/// The Java method a sampled frame's name is (`class.method`, `class.method(params)`, without a
/// `:LINE`), or None for native code (`symbol [library]`, `function [kernel]`), pseudo-frames
/// (`(no Java frame)`) and state nodes (`[running]`).
fn java_method(name: &str) -> Option<&str> {
    if name.ends_with(']') || name.starts_with('(') || name.starts_with('[') {
        return None;
    }
    let name = match name.rsplit_once(':') {
        Some((method, line)) if line.bytes().all(|b| b.is_ascii_digit()) => method,
        _ => name,
    };
    name.contains('.').then_some(name)
}

/// At VM death: stops the writer and writes the trace, its quanta given their top method by
/// `top` where the run sampled stacks. One line names the files; where records were lost, one
/// error line per loss instead, and never that the trace was written.
pub(crate) fn vm_death(top: Option<TopMethods>) {
    if let Some(m) = MOUNTS.get() {
        m.stop.store(true, Ordering::Release);
        if let Some(h) = lock(&m.writer).take() {
            let _ = h.join();
        }
        let (files, problems) = m.tracer.finish(0);
        let problems: Vec<String> = problems.iter().map(|p| format!("quantum (virtual threads): {p}")).collect();
        if !files.is_empty() || !problems.is_empty() {
            hpm_agent_core::say_quantum_traces(m.tracer.dir(), &files, &problems);
        }
    }
    let Some(q) = QUANTA.get() else { return };
    q.stop.store(true, Ordering::Release);
    if let Some(h) = lock(&q.writer).take() {
        let _ = h.join();
    }
    let (files, mut problems) = q.tracer.finish(0);
    if let Some(top) = top.filter(|_| problems.is_empty()) {
        let traces: Vec<std::path::PathBuf> = files.iter().filter(|f| f.extension().is_some_and(|e| e == "trace")).cloned().collect();
        match hpm_collectors::quantum::top::set_top_methods(&q.dir, &traces, &mut |thread, start, end| top.top(thread, start, end)) {
            Ok(n) => log::info(&format!("quantum: {n} quanta named by their top method, from the stack samples")),
            Err(e) => problems.push(format!("the quanta's top methods were not written: {e}")),
        }
    }
    let problems: Vec<String> = problems.iter().map(|p| format!("quantum: {p}")).collect();
    hpm_agent_core::say_quantum_traces(&q.dir, &files, &problems);
}
