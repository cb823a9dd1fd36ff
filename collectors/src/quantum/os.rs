//! Quantum traces of OS threads (HotSpot's threads are OS threads): every traced thread's
//! quanta come from the kernel's context switches ([`SwitchSource`], one per thread), and the
//! trace's processors are the CPUs they ran on.
//!
//! - A thread is traced from [`OsTracer::thread_started`] (on the thread itself: its quantum under
//!   way starts then) or [`OsTracer::add_thread`] (another thread, by tid: from its next switch
//!   in) to [`OsTracer::thread_ended`] (on the thread: its last quantum is closed there, as its
//!   events close before the kernel's last switch out of it).
//! - [`OsTracer::pump`], called by one writer thread every few ms, drains every thread's ring and
//!   writes, per CPU, the quanta and markers older than a watermark (`SETTLE`: records still in
//!   flight in a ring are newer) in time order, through a [`QuantumWriter`] per CPU into
//!   `.quantum.vp<CPU>.trace.<pid>.tmp`. The writer thread is traced too, as a `writer`.
//! - [`OsTracer::finish`] writes what is left and the exit records, renames the files and writes
//!   `quantum.meta`. Errors are one line each; a CPU whose file fails stops there, and the end
//!   says what was lost.
//!
//! Record fields: thread id = the kernel thread id (local id: its low 16 bits); the yield sign is
//! set when the thread blocked, slept, yielded or ended rather than being preempted;
//! `thread_switch` is always 1; no callee or caller method. Counters: real time (`end − start`),
//! `cpu-time` (the kernel's `task-clock` of the thread), then the `event=` counters that opened.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use hpm_support::{lock, log};
use hpm_model::quantum::{MarkerKind, Meta, Quantum, QuantumWriter, ThreadInfo, ThreadKind};

use crate::counters::events::EventSpec;
use crate::counters::monotonic_ns;
use crate::counters::switches::{current_cpu, OsQuantum, SwitchSource};
use crate::quantum::files::{MetaFile, SinkFile};

/// How old a record must be before it is written: a switch the kernel is still writing into a
/// ring when the writer drains it is newer than this.
const SETTLE_NS: u64 = 20_000_000;

/// Ring buffer pages per thread. Each switch takes about 100 bytes with `cpu-time` alone (60 +
/// 16 per counter), so 16 pages hold some 650 switches: 65,000 a second between two pumps 10 ms
/// apart. The pages are locked memory: 64 KiB per traced thread.
const RING_PAGES: usize = 16;

/// One CPU's writer and trace file (None, with why, where the file could not be created: its
/// records are counted as lost).
struct CpuFile {
    writer: Option<QuantumWriter>,
    file: Result<SinkFile, String>,
    lost: u64,
}

/// A marker waiting to be written (in the file of the CPU its thread was on).
struct PendingMarker {
    cpu: u32,
    kind: MarkerKind,
    tid: i32,
    time: u64,
    run: u32,
    text: String,
}

struct Inner {
    sources: BTreeMap<i32, SwitchSource>,
    threads: BTreeMap<i32, (ThreadKind, String)>,
    /// Threads that ended: [`OsTracer::add_thread`] from another thread does not take them again
    /// while the kernel still lists them.
    ended: std::collections::BTreeSet<i32>,
    pending: Vec<OsQuantum>,
    markers: Vec<PendingMarker>,
    cpus: BTreeMap<u32, CpuFile>,
    /// Records the rings dropped, and switches without counter values, of threads that ended.
    lost: (u64, u64),
    /// Threads that could not be traced (one line said why for the first).
    refused: u64,
    finished: bool,
}

/// See the module comment.
pub struct OsTracer {
    dir: PathBuf,
    events: Vec<EventSpec>,
    counters: Vec<String>,
    inner: Mutex<Inner>,
}

impl OsTracer {
    /// A tracer writing into `dir`, with the `events` each thread should count beside its
    /// CPU time. Checks that the calling thread can be traced (the kernel allows switch records
    /// and the events open): the error is the one line to print, and nothing is traced then.
    pub fn new(dir: &Path, events: &[EventSpec]) -> Result<OsTracer, String> {
        let probe = SwitchSource::open(crate::counters::current_tid(), events, 1).map_err(|e| e.message)?;
        let mut counters = vec!["real-time".to_string()];
        counters.extend(probe.counters().iter().cloned());
        for r in probe.refusals() {
            log::warn(&format!("quantum: {r}"));
        }
        let opened: Vec<EventSpec> = events.iter().filter(|e| probe.counters().contains(&e.name)).cloned().collect();
        drop(probe);
        Ok(OsTracer {
            dir: dir.to_path_buf(),
            events: opened,
            counters,
            inner: Mutex::new(Inner {
                sources: BTreeMap::new(),
                threads: BTreeMap::new(),
                ended: std::collections::BTreeSet::new(),
                pending: Vec::new(),
                markers: Vec::new(),
                cpus: BTreeMap::new(),
                lost: (0, 0),
                refused: 0,
                finished: false,
            }),
        })
    }

    /// The counters of every record: real time, `cpu-time`, then the events that opened.
    pub fn counters(&self) -> &[String] {
        &self.counters
    }

    /// Starts tracing the calling thread (its quantum under way starts now).
    pub fn thread_started(&self, kind: ThreadKind, name: &str) {
        let tid = crate::counters::current_tid();
        let mut inner = lock(&self.inner);
        // A new thread may have the id of one that ended.
        inner.ended.remove(&tid);
        self.add(&mut inner, tid, kind, name);
    }

    /// Starts tracing thread `tid` of this process: from now if it is the calling thread, else
    /// from its next switch in.
    pub fn add_thread(&self, tid: i32, kind: ThreadKind, name: &str) {
        self.add(&mut lock(&self.inner), tid, kind, name);
    }

    fn add(&self, inner: &mut Inner, tid: i32, kind: ThreadKind, name: &str) {
        if inner.finished || inner.sources.contains_key(&tid) || inner.ended.contains(&tid) {
            return;
        }
        match SwitchSource::open(tid, &self.events, RING_PAGES) {
            Ok(s) => {
                inner.sources.insert(tid, s);
                // An OS thread that attaches again under another name keeps both, in order: the
                // launcher's main thread detaches after `main` and comes back as `DestroyJavaVM`,
                // and its records up to then were main's.
                let named = match inner.threads.get(&tid) {
                    Some((first_kind, before)) if before != name => (*first_kind, format!("{before}, then {name}")),
                    _ => (kind, name.to_string()),
                };
                inner.threads.insert(tid, named);
            }
            Err(e) => {
                if inner.refused == 0 {
                    log::warn(&format!("quantum: {}; this thread and any other that cannot be traced are left out", e.message));
                }
                inner.refused += 1;
            }
        }
    }

    /// Whether thread `tid` is traced.
    pub fn is_traced(&self, tid: i32) -> bool {
        lock(&self.inner).sources.contains_key(&tid)
    }

    /// Names a traced thread again (a Java thread's name and kind are known at its end).
    pub fn rename(&self, tid: i32, kind: ThreadKind, name: &str) {
        if let Some(t) = lock(&self.inner).threads.get_mut(&tid) {
            // Only the latest of the names an OS thread had (see `add`).
            *t = match t.1.rfind(", then ") {
                Some(at) => (t.0, format!("{}, then {name}", &t.1[..at])),
                None => (kind, name.to_string()),
            };
        }
    }

    /// On a traced thread at its end: its last quantum, up to now.
    pub fn thread_ended(&self) {
        let tid = crate::counters::current_tid();
        let mut inner = lock(&self.inner);
        let Some(mut s) = inner.sources.remove(&tid) else { return };
        inner.ended.insert(tid);
        let Inner { pending, lost, .. } = &mut *inner;
        s.drain(pending);
        pending.extend(s.finish_on_thread(monotonic_ns()));
        let (l, u) = s.lost();
        lost.0 += l;
        lost.1 += u;
    }

    /// A marker from the program (`hpmagent.Trace`), on the calling thread: written in the file
    /// of the CPU it runs on, at its time.
    pub fn marker(&self, kind: MarkerKind, run: u32, text: &str) {
        let m = PendingMarker { cpu: current_cpu(), kind, tid: crate::counters::current_tid(), time: monotonic_ns(), run, text: text.to_string() };
        let mut inner = lock(&self.inner);
        if !inner.finished {
            inner.markers.push(m);
        }
    }

    /// Drains every traced thread's ring and writes the records older than the watermark (all of
    /// them with `all`). For the one writer thread.
    pub fn pump(&self, all: bool) {
        let now = monotonic_ns();
        let mut inner = lock(&self.inner);
        if inner.finished {
            return;
        }
        let Inner { sources, pending, .. } = &mut *inner;
        for s in sources.values_mut() {
            s.drain(pending);
        }
        let watermark = if all { u64::MAX } else { now.saturating_sub(SETTLE_NS) };
        self.write_until(&mut inner, watermark);
    }

    /// Writes the pending quanta ending and markers made before `watermark`, per CPU in time
    /// order.
    fn write_until(&self, inner: &mut Inner, watermark: u64) {
        let (ready, later): (Vec<OsQuantum>, Vec<OsQuantum>) = std::mem::take(&mut inner.pending).into_iter().partition(|q| q.end < watermark);
        inner.pending = later;
        let (marks, later): (Vec<PendingMarker>, Vec<PendingMarker>) = std::mem::take(&mut inner.markers).into_iter().partition(|m| m.time < watermark);
        inner.markers = later;
        enum Item {
            Quantum(OsQuantum),
            Marker(PendingMarker),
        }
        let mut items: Vec<(u32, u64, Item)> = ready.into_iter().map(|q| (q.cpu, q.start, Item::Quantum(q))).collect();
        items.extend(marks.into_iter().map(|m| (m.cpu, m.time, Item::Marker(m))));
        items.sort_by_key(|(cpu, time, _)| (*cpu, *time));
        for (cpu, _, item) in items {
            let f = self.cpu_file(inner, cpu);
            let Some(w) = f.writer.as_mut() else {
                f.lost += 1;
                continue;
            };
            let handoffs = w.handoffs();
            // A record that finds no free buffer is counted as missed by the writer.
            match &item {
                Item::Quantum(q) => w.record(
                    &Quantum {
                        thread: q.tid as u32,
                        local_tid: q.tid as u16,
                        yielded: !q.preempted,
                        thread_switch: true,
                        start: q.start,
                        end: q.end,
                        callee: 0,
                        caller: 0,
                    },
                    &q.deltas,
                ),
                Item::Marker(m) => w.marker(m.kind, m.tid as u16, m.time, m.run, &m.text),
            };
            if w.handoffs() != handoffs {
                Self::write_out(f);
            }
        }
    }

    /// The writer and file of `cpu`, created at its first record.
    fn cpu_file<'a>(&self, inner: &'a mut Inner, cpu: u32) -> &'a mut CpuFile {
        inner.cpus.entry(cpu).or_insert_with(|| match SinkFile::create(&self.dir, cpu, self.counters.len() - 1, false) {
            Ok((writer, file)) => CpuFile { writer: Some(writer), file: Ok(file), lost: 0 },
            Err((tmp, e)) => {
                log::error(&format!("quantum: cannot create {}: {e}; no trace for CPU {cpu}", tmp.display()));
                CpuFile { writer: None, file: Err(e.to_string()), lost: 0 }
            }
        })
    }

    /// Writes a CPU's full buffers; whether all are written. A write error is one line and ends
    /// tracing on that CPU: its file keeps the complete records written before.
    fn write_out(f: &mut CpuFile) -> bool {
        let Ok(sf) = f.file.as_mut() else { return true };
        sf.write_pending().unwrap_or_else(|e| {
            log::error(&format!("quantum: cannot write {}: {e}; tracing stops for CPU {}", sf.tmp.display(), sf.vp));
            true
        })
    }

    /// At the end (VM death, after the last thread it should see): writes every record left and
    /// each CPU's exit record, renames the files and writes `quantum.meta`. Returns the files
    /// written in full (`quantum.meta` last) and one line per problem (what was lost).
    pub fn finish(&self, exit_value: i32) -> (Vec<PathBuf>, Vec<String>) {
        self.pump(true);
        let now = monotonic_ns();
        let mut inner = lock(&self.inner);
        inner.finished = true;
        let mut files = Vec::new();
        let mut problems = Vec::new();
        let mut missed = Vec::new();
        // Threads still traced (daemon threads at VM death): their quanta up to their last switch.
        let sources = std::mem::take(&mut inner.sources);
        for (_, mut s) in sources {
            s.drain(&mut inner.pending);
            let (l, u) = s.lost();
            inner.lost.0 += l;
            inner.lost.1 += u;
        }
        self.write_until(&mut inner, u64::MAX);
        for (cpu, f) in inner.cpus.iter_mut() {
            // Every record made for the CPU: written, missed, or with no file to go to.
            let total = f.writer.take().map(|w| w.finish(now, exit_value)).map_or(0, |s| s.records + s.markers + s.missed) + f.lost;
            // The writer is gone: the sink writes what it has and reports done.
            while !Self::write_out(f) {}
            match f.file.as_mut() {
                Ok(sf) => {
                    let not_in_file = sf.close_at_finish(total, &format!("CPU {cpu}"), &mut files, &mut problems);
                    missed.push((*cpu, not_in_file));
                }
                Err(why) => {
                    missed.push((*cpu, total));
                    problems.push(format!("the trace of CPU {cpu} was not written: {why}; its {total} records are lost"));
                }
            }
        }
        if inner.lost.0 > 0 {
            problems.push(format!("{} switch records were dropped by full ring buffers: those quanta are missing", inner.lost.0));
        }
        if inner.lost.1 > 0 {
            problems.push(format!("{} quanta have no counter deltas (their sample was dropped by a full ring buffer)", inner.lost.1));
        }
        if inner.refused > 0 {
            problems.push(format!("{} threads could not be traced", inner.refused));
        }
        let meta = Meta {
            counters: self.counters.clone(),
            time_unit: "ns".into(),
            processor_kind: "cpu".into(),
            processors: Vec::new(),
            threads: inner.threads.iter().map(|(tid, (kind, name))| ThreadInfo { id: *tid as u32, kind: *kind, name: name.clone() }).collect(),
            methods: Vec::new(),
            missed,
        };
        meta.write_at_finish(&self.dir, &mut files, &mut problems);
        (files, problems)
    }
}
