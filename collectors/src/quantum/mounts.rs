//! Quantum traces of virtual threads (JDK 21+): one record per mount, from the moment a carrier
//! thread mounts a virtual thread to the moment it unmounts it, with the carrier's counter deltas
//! over that span. The trace's processors are the carriers (`processor-kind carrier`), numbered
//! in the order they first mount a virtual thread; its threads are the virtual threads.
//!
//! - [`MountTracer::carrier`] is called on a carrier thread at its first mount: it opens the
//!   metric set on that thread twice (to be read there at every mount, and from the exit's thread
//!   to close a mount still under way, where the set allows) and the carrier's trace file.
//! - [`MountTracer::mount`] and [`MountTracer::unmount`] run on the carrier, in the VM's mount
//!   callbacks: one read of the carrier's metrics each, and at the unmount one record into the
//!   carrier's [`QuantumWriter`]. No I/O there: a full buffer wakes the writer thread
//!   ([`MountTracer::wait`], then [`MountTracer::write_pending`]).
//! - [`MountTracer::finish`] closes the mounts under way, writes the exit records, renames the
//!   files and writes `quantum.meta`.
//!
//! Record fields: thread id = the agent's id of the virtual thread (local id: its low 16 bits);
//! the yield sign is always set (a virtual thread leaves its carrier by parking, yielding,
//! blocking or ending: it is never preempted); no callee or caller method. Counters: real time
//! (`end − start`), then every metric of the set but `wall-time`, which is the time base.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use hpm_support::{lock, log};
use hpm_model::metrics::{MetricSet, ThreadMetrics};
use hpm_model::quantum::{MarkerKind, Meta, Quantum, QuantumWriter, ThreadInfo, ThreadKind, MAX_COUNTERS};

use crate::counters::monotonic_ns;
use crate::quantum::files::{MetaFile, SinkFile};

/// The trace of the virtual threads of one run.
pub struct MountTracer {
    dir: PathBuf,
    set: Arc<dyn MetricSet>,
    /// Index of `wall-time` in a reading (the time base), if the set has it.
    wall: Option<usize>,
    /// Indexes of the reading's metrics stored as deltas.
    deltas: Vec<usize>,
    counters: Vec<String>,
    carriers: Mutex<Vec<Arc<Carrier>>>,
    threads: Mutex<BTreeMap<u32, String>>,
    /// Set when a carrier handed a full buffer over; the writer waits on it.
    wake: (Mutex<bool>, Condvar),
    /// The directory could not be created (said once): nothing is written.
    no_dir: AtomicBool,
    finished: AtomicBool,
}

/// One carrier's part of the trace. Its recording state is locked by the carrier at each mount
/// and unmount (uncontended but for the exit); its file by the writer thread.
pub struct Carrier {
    index: u32,
    name: String,
    state: Mutex<CarrierState>,
    file: Mutex<Result<SinkFile, String>>,
}

struct CarrierState {
    /// Opened on the carrier, read there (a thread's own CPU clock is the cheapest to read).
    reader: Box<dyn ThreadMetrics>,
    /// The same metrics, readable from another thread (the exit's), where the set allows.
    remote: Option<Box<dyn ThreadMetrics>>,
    writer: Option<QuantumWriter>,
    /// The virtual thread mounted now, when, and the reading then.
    mounted: Option<(u32, u64)>,
    at_mount: Vec<u64>,
    now: Vec<u64>,
    scratch: Vec<u64>,
    handoffs: u64,
    /// Records made when the carrier had no writer (its file could not be created).
    lost: u64,
}

impl MountTracer {
    /// A trace into `dir` (created at the first carrier) whose records carry every metric of
    /// `set` but `wall-time`.
    pub fn new(dir: &Path, set: Arc<dyn MetricSet>) -> MountTracer {
        let metrics = set.metrics();
        let wall = metrics.iter().position(|m| m.name == "wall-time");
        let mut deltas: Vec<usize> = (0..metrics.len()).filter(|&i| Some(i) != wall).collect();
        deltas.truncate(MAX_COUNTERS);
        let mut counters = vec!["real-time".to_string()];
        counters.extend(deltas.iter().map(|&i| metrics[i].name.clone()));
        MountTracer {
            dir: dir.to_path_buf(),
            set,
            wall,
            deltas,
            counters,
            carriers: Mutex::new(Vec::new()),
            threads: Mutex::new(BTreeMap::new()),
            wake: (Mutex::new(false), Condvar::new()),
            no_dir: AtomicBool::new(false),
            finished: AtomicBool::new(false),
        }
    }

    /// The directory the trace goes to.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// On a carrier thread, at its first mount: its part of the trace (`name`: the thread's).
    pub fn carrier(&self, name: &str) -> Arc<Carrier> {
        let (reader, remote) = (self.set.open_current_thread(), self.set.open_current_thread_remote());
        let mut carriers = lock(&self.carriers);
        let index = carriers.len() as u32;
        if index == 0 {
            if let Err(e) = hpm_support::files::ensure_dir(&self.dir) {
                if !self.no_dir.swap(true, Ordering::Relaxed) {
                    log::error(&format!("cannot write into {}: {e}; no trace of virtual threads (choose another out=)", self.dir.display()));
                }
            }
        }
        let n = self.set.metrics().len();
        let (writer, file) = if self.no_dir.load(Ordering::Relaxed) {
            (None, Err("its directory could not be created".to_string()))
        } else {
            match SinkFile::create(&self.dir, index, self.deltas.len(), false) {
                Ok((w, f)) => (Some(w), Ok(f)),
                Err((tmp, e)) => {
                    log::error(&format!("cannot create {}: {e}; no trace of carrier {index}'s virtual threads", tmp.display()));
                    (None, Err(e.to_string()))
                }
            }
        };
        let c = Arc::new(Carrier {
            index,
            name: name.to_string(),
            state: Mutex::new(CarrierState {
                reader,
                remote,
                writer,
                mounted: None,
                at_mount: vec![0; n],
                now: vec![0; n],
                scratch: vec![0; self.deltas.len()],
                handoffs: 0,
                lost: 0,
            }),
            file: Mutex::new(file),
        });
        carriers.push(c.clone());
        c
    }

    /// Names virtual thread `id` in the meta file.
    pub fn thread_started(&self, id: u32, name: &str) {
        lock(&self.threads).insert(id, name.to_string());
    }

    fn time_of(&self, reading: &[u64]) -> u64 {
        match self.wall {
            Some(i) => reading[i],
            None => monotonic_ns(),
        }
    }

    /// On carrier `c`: it mounts virtual thread `id` now.
    pub fn mount(&self, c: &Carrier, id: u32) {
        let mut s = lock(&c.state);
        let CarrierState { reader, at_mount, .. } = &mut *s;
        reader.read(at_mount);
        let start = self.time_of(&s.at_mount);
        s.mounted = Some((id, start));
    }

    /// On carrier `c`: it unmounts virtual thread `id` now; the mount's record.
    pub fn unmount(&self, c: &Carrier, id: u32) {
        let mut s = lock(&c.state);
        let Some((mounted, start)) = s.mounted.take() else { return };
        if mounted != id {
            return;
        }
        let CarrierState { reader, now, .. } = &mut *s;
        reader.read(now);
        if self.record(&mut s, id, start) {
            let (flag, cv) = &self.wake;
            *lock(flag) = true;
            cv.notify_one();
        }
    }

    /// Writes the record of the mount of `id` from `start` to the reading in `s.now`; whether a
    /// buffer was handed over.
    fn record(&self, s: &mut CarrierState, id: u32, start: u64) -> bool {
        let end = self.time_of(&s.now).max(start);
        let CarrierState { now, at_mount, scratch, .. } = &mut *s;
        for (d, &i) in scratch.iter_mut().zip(&self.deltas) {
            *d = now[i].saturating_sub(at_mount[i]);
        }
        let q = Quantum { thread: id, local_tid: id as u16, yielded: true, thread_switch: true, start, end, callee: 0, caller: 0 };
        match s.writer.as_mut() {
            Some(w) => {
                w.record(&q, &s.scratch);
                let h = w.handoffs();
                let handed = h != s.handoffs;
                s.handoffs = h;
                handed
            }
            None => {
                s.lost += 1;
                false
            }
        }
    }

    /// A marker (`hpmagent.Trace`) from virtual thread `id` on carrier `c`, at its time.
    pub fn marker(&self, c: &Carrier, id: u32, kind: MarkerKind, run: u32, text: &str) {
        let mut s = lock(&c.state);
        match s.writer.as_mut() {
            Some(w) => {
                w.marker(kind, id as u16, monotonic_ns(), run, text);
            }
            None => s.lost += 1,
        }
    }

    /// For the writer thread: waits until a carrier hands a full buffer over, or `timeout`.
    pub fn wait(&self, timeout: Duration) {
        let (flag, cv) = &self.wake;
        let mut f = lock(flag);
        if !*f {
            f = cv.wait_timeout(f, timeout).unwrap_or_else(|e| e.into_inner()).0;
        }
        *f = false;
    }

    /// For the writer thread: writes the buffers every carrier handed over. A write error is
    /// one line and ends the trace of that carrier (its file keeps what was written before).
    pub fn write_pending(&self) {
        let carriers = lock(&self.carriers).clone();
        for c in carriers {
            Self::write_out(&c);
        }
    }

    /// Whether everything handed over is written.
    fn write_out(c: &Carrier) -> bool {
        let mut f = lock(&c.file);
        let Ok(sf) = f.as_mut() else { return true };
        sf.write_pending().unwrap_or_else(|e| {
            log::error(&format!("quantum: cannot write {}: {e}; the trace of carrier {} stops", sf.tmp.display(), c.index));
            true
        })
    }

    /// At the end (VM death): closes the mounts under way (with a reading from here where the
    /// carrier's metrics can be read from another thread, else with no counter deltas), writes
    /// the exit records, renames the files and writes `quantum.meta`. Returns the files written
    /// in full and one line per problem. Nothing if no virtual thread was ever mounted.
    pub fn finish(&self, exit_value: i32) -> (Vec<PathBuf>, Vec<String>) {
        let (mut files, mut problems) = (Vec::new(), Vec::new());
        if self.finished.swap(true, Ordering::AcqRel) {
            return (files, problems);
        }
        let carriers = lock(&self.carriers).clone();
        if carriers.is_empty() || self.no_dir.load(Ordering::Relaxed) {
            return (files, problems);
        }
        let mut missed = Vec::new();
        let mut no_deltas = 0u64;
        for c in &carriers {
            // Every record made for the carrier: written, missed, or with no file to go to.
            let total = {
                let mut s = lock(&c.state);
                if let Some((id, start)) = s.mounted.take() {
                    if let CarrierState { remote: Some(remote), now, .. } = &mut *s {
                        remote.read(now);
                    } else {
                        let CarrierState { at_mount, now, .. } = &mut *s;
                        now.copy_from_slice(at_mount);
                        if let Some(w) = self.wall {
                            now[w] = monotonic_ns();
                        }
                        no_deltas += 1;
                    }
                    self.record(&mut s, id, start);
                }
                let lost = s.lost;
                s.writer.take().map(|w| w.finish(monotonic_ns(), exit_value)).map_or(lost, |st| st.records + st.markers + st.missed + lost)
            };
            while !Self::write_out(c) {}
            let mut f = lock(&c.file);
            match f.as_mut() {
                Ok(sf) => {
                    let not_in_file = sf.close_at_finish(total, &format!("carrier {}", c.index), &mut files, &mut problems);
                    missed.push((c.index, not_in_file));
                    if not_in_file > 0 && sf.failure.is_none() {
                        problems.push(format!("{not_in_file} mount record(s) of carrier {} missed (both buffers full)", c.index));
                    }
                }
                Err(why) => {
                    missed.push((c.index, total));
                    problems.push(format!("the trace of carrier {} was not written: {why}; its {total} records are lost", c.index));
                }
            }
        }
        if no_deltas > 0 {
            problems.push(format!("{no_deltas} mount(s) under way at the exit have no counter deltas (the metrics cannot be read from another thread)"));
        }
        let mut threads: Vec<ThreadInfo> =
            lock(&self.threads).iter().map(|(&id, name)| ThreadInfo { id, kind: ThreadKind::App, name: name.clone() }).collect();
        threads.sort_by_key(|t| t.id);
        let meta = Meta {
            counters: self.counters.clone(),
            time_unit: "ns".into(),
            processor_kind: "carrier".into(),
            processors: carriers.iter().map(|c| (c.index, c.name.clone())).collect(),
            threads,
            methods: Vec::new(),
            missed,
        };
        meta.write_at_finish(&self.dir, &mut files, &mut problems);
        (files, problems)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::counters::{Metrics, ThreadCpuClock, WallClock};

    /// Two carriers run three virtual threads in turn; the trace reads back valid, each record
    /// spans its mount, and a thread that moved between carriers is on one at a time.
    #[test]
    fn mounts_on_two_carriers_read_back_as_a_valid_trace() {
        let dir = tempfile::tempdir().unwrap();
        let set: Arc<dyn MetricSet> = Arc::new(Metrics::new().with(ThreadCpuClock).with(WallClock));
        let t = Arc::new(MountTracer::new(&dir.path().join("vthreads"), set));
        for id in 1..=3 {
            t.thread_started(id, &format!("virtual-{id}"));
        }
        // Spins for `ms` of the thread's CPU time (a loaded machine stretches it, never shortens it).
        let spin = |ms: u64| {
            let end = crate::counters::thread_cpu_ns() + ms * 1_000_000;
            while crate::counters::thread_cpu_ns() < end {
                std::hint::black_box(0);
            }
        };
        let a = t.carrier("carrier-a");
        t.mount(&a, 1);
        spin(5);
        t.unmount(&a, 1);
        t.marker(&a, 2, MarkerKind::Note, 0, "between");
        t.mount(&a, 2);
        spin(3);
        t.unmount(&a, 2);
        let t2 = t.clone();
        std::thread::spawn(move || {
            let b = t2.carrier("carrier-b");
            t2.mount(&b, 1); // thread 1 again, on the other carrier
            spin(4);
            t2.unmount(&b, 1);
            t2.mount(&b, 3); // still mounted at the exit
            spin(2);
        })
        .join()
        .unwrap();
        t.unmount(&a, 3); // not mounted on `a`: nothing
        let (files, problems) = t.finish(0);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(files.len(), 3, "{files:?}");
        let trace = hpm_model::quantum::read_dir(&dir.path().join("vthreads")).unwrap();
        assert!(trace.is_valid() && trace.issues.is_empty(), "{:?}", trace.issues);
        assert_eq!(trace.meta.processor_kind, "carrier");
        assert_eq!(trace.meta.processors, [(0, "carrier-a".to_string()), (1, "carrier-b".to_string())]);
        let q: Vec<_> = trace.quanta().collect();
        assert_eq!(q.len(), 4, "{q:?}");
        let span = |thread: u32| q.iter().filter(|r| r.thread == thread).map(|r| r.end - r.start).sum::<u64>();
        let cpu = |thread: u32| q.iter().filter(|r| r.thread == thread).map(|r| r.deltas[0]).sum::<u64>();
        assert!(span(1) >= 9_000_000, "thread 1 ran 9 ms of CPU in two mounts: {}", span(1));
        assert!(cpu(1) >= 8_000_000, "its carriers' CPU time while it ran: {}", cpu(1));
        assert!(span(3) >= 2_000_000, "the mount under way at the exit is closed there");
        assert!(q.iter().all(|r| r.yielded), "virtual threads are never preempted");
    }
}
