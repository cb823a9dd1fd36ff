//! The quantum tracer: one record per thread switch (or timer tick) per processor, in the format
//! of `docs/quantum-trace.md`, from a source's [`Switch`] events and processor readings. Used by
//! the research VM's adapter (agent option `quantum`), whose virtual processors call it from their
//! scheduler.
//!
//! - Per processor, state created at `vp_start` on the processor's own thread ([`Tracer::vp_start`]):
//!   a [`QuantumWriter`] (two 64 KiB buffers), the time and metric reading of the last record, the
//!   markers waiting for the next switch, and the methods seen as callee/caller (a bitmap). It lives
//!   in a thread-local: only that processor touches it.
//! - At each switch ([`Tracer::on_switch`]; on rvm [`Tracer::on_switch_at`], on the switching
//!   processor right after rvm's scheduler lock, with the time rvm read under it): one record for
//!   the outgoing thread from the previous record's time to the switch, with the deltas of the
//!   processor's reading (the same reading that charges the green threads, see `crate::green`), then
//!   the pending markers. No allocation, lock, blocking or I/O: when the writer hands a full buffer over, the
//!   processor's trace-writer thread is woken (a VM service thread whose body is
//!   [`Tracer::write_pending`]).
//! - Files are written as `.quantum.vp<N>.trace.<pid>.tmp` and renamed at the end
//!   ([`Tracer::finish`], at `vm_death`, after draining the last buffers), then `quantum.meta`.
//!   Errors are one line each; a processor whose file fails stops tracing: the file is cut back to
//!   its last complete record, and at the end the agent says how many records it holds and how many
//!   are lost (counted as missed in the meta file), never that the trace was written.
//!
//! Ids: trace thread id = rvm thread id + 1 (0 cannot carry the yield sign), local id = rvm id as
//! u16; method id = rvm method id + 1 (0 = unknown). Time base: CLOCK_MONOTONIC in ns, the
//! `wall-time` metric of the reading, shared by all processors.

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::Mutex;

use hpm_support::{lock, log};
use hpm_model::metrics::Metric;
use hpm_model::quantum::{reason, trace_file_name, MarkerKind, Meta, MethodInfo, Quantum, QuantumWriter, ThreadInfo, WriterStats, MAX_COUNTERS};

use crate::counters::monotonic_ns;
use crate::quantum::files::{MetaFile, SinkFile};
use crate::quantum::Switch;


/// When a tracer writes records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordAt {
    /// At every thread switch.
    Switch,
    /// Also at every timer tick that did not switch threads (Jikes RVM's sample mode).
    Tick,
}

/// What the agent's threads share about one processor's trace.
struct VpShared {
    sink: Mutex<Option<SinkFile>>,
    /// The processor's trace-writer thread (rvm thread id), `u32::MAX` until created.
    writer_tid: AtomicU32,
    /// The writer's statistics after `finish`.
    stats: Mutex<Option<WriterStats>>,
    /// Records not written because the processor's file could not be created.
    lost: AtomicU64,
    /// Why the processor's file could not be created, if it could not.
    not_created: Mutex<Option<String>>,
    /// Methods seen as callee or caller on this processor (bitmap of rvm method ids).
    methods: Mutex<Vec<u64>>,
}

/// The quantum traces of one run.
pub struct Tracer {
    dir: PathBuf,
    mode: RecordAt,
    /// Index of `wall-time` in a processor's reading (the time base), if any.
    wall: Option<usize>,
    /// Indexes of the reading's metrics stored as deltas (all but `wall-time`).
    deltas: Vec<usize>,
    /// Counter names for the meta file (index 0 real time).
    counters: Vec<String>,
    vps: Vec<VpShared>,
    /// `dir` could not be created (said once, at start): nothing is written and nothing more said.
    no_dir: bool,
}

/// A marker waiting for the processor's next switch.
struct PendingMarker {
    kind: MarkerKind,
    local_tid: u16,
    time: u64,
    run: u32,
    text: String,
}

/// One processor's recording state (thread-local on the processor).
struct VpState {
    vp: u32,
    writer: Option<QuantumWriter>,
    /// Time and reading of the last record's end.
    last_time: u64,
    last: Vec<u64>,
    scratch: Vec<u64>,
    markers: Vec<PendingMarker>,
    handoffs: u64,
    /// The thread on the processor since the last switch (rvm id), `u32::MAX` for none.
    current: u32,
    /// Records not written: no writer (file error).
    lost: u64,
    methods: Vec<u64>,
}

thread_local! {
    static VP: RefCell<Option<VpState>> = const { RefCell::new(None) };
}

/// A method id for the trace (the source's id + 1, 0 = none).
fn trace_method(m: Option<u32>) -> u32 {
    m.map_or(0, |m| m.saturating_add(1))
}

fn mark_method(bits: &mut Vec<u64>, m: Option<u32>) {
    let Some(m) = m else { return };
    let (w, b) = ((m / 64) as usize, m % 64);
    if w >= bits.len() {
        // Grows only when a method id above every one seen so far shows up (rare after start-up).
        bits.resize((w + 1).next_power_of_two(), 0);
    }
    bits[w] |= 1 << b;
}

impl Tracer {
    /// Traces for `vps` processors into `dir`, with records carrying every metric of `metrics` (a
    /// processor's reading) except `wall-time`. Creates `dir` (an existing one must be safe to write
    /// into: `hpm_support::files::check_dir`); if that fails (one error line), each
    /// processor's file fails too and its records are counted as missed: the VM runs on.
    pub fn new(dir: &Path, mode: RecordAt, metrics: &[Metric], vps: u32) -> Tracer {
        let no_dir = match hpm_support::files::ensure_dir(dir) {
            Ok(()) => false,
            Err(e) => {
                log::error(&format!("cannot write into {}: {e}; no quantum traces will be written (choose another out=)", dir.display()));
                true
            }
        };
        let wall = metrics.iter().position(|m| m.name == "wall-time");
        let mut deltas: Vec<usize> = (0..metrics.len()).filter(|&i| Some(i) != wall).collect();
        deltas.truncate(MAX_COUNTERS);
        let mut counters = vec!["real-time".to_string()];
        counters.extend(deltas.iter().map(|&i| metrics[i].name.clone()));
        let vps = (0..vps)
            .map(|_| VpShared {
                sink: Mutex::new(None),
                writer_tid: AtomicU32::new(u32::MAX),
                stats: Mutex::new(None),
                lost: AtomicU64::new(0),
                not_created: Mutex::new(None),
                methods: Mutex::new(Vec::new()),
            })
            .collect();
        Tracer { dir: dir.to_path_buf(), mode, wall, deltas, counters, vps, no_dir }
    }

    pub fn vps(&self) -> u32 {
        self.vps.len() as u32
    }

    /// Remembers processor `vp`'s trace-writer thread.
    pub fn set_writer(&self, vp: u32, tid: u32) {
        if let Some(v) = self.vps.get(vp as usize) {
            v.writer_tid.store(tid, Ordering::Relaxed);
        }
    }

    /// Whether `tid` is one of the trace-writer threads.
    pub fn is_writer(&self, tid: u32) -> bool {
        self.vps.iter().any(|v| v.writer_tid.load(Ordering::Relaxed) == tid)
    }

    fn time_of(&self, reading: &[u64]) -> u64 {
        match self.wall {
            Some(i) => reading[i],
            None => monotonic_ns(),
        }
    }

    /// On processor `vp`'s thread before it runs anything: opens its file and writer. `reading`
    /// is the processor's first metric reading, `running` the thread it runs until its first
    /// switch (its idle thread).
    pub fn vp_start(&self, vp: u32, reading: &[u64], running: Option<u32>) {
        let Some(shared) = self.vps.get(vp as usize) else { return };
        let writer = match (!self.no_dir).then(|| SinkFile::create(&self.dir, vp, self.deltas.len(), true)) {
            Some(Ok((w, sf))) => {
                *lock(&shared.sink) = Some(sf);
                Some(w)
            }
            Some(Err((tmp, e))) => {
                log::error(&format!("cannot create {}: {e}; no quantum trace for processor {vp}", tmp.display()));
                *lock(&shared.not_created) = Some(e.to_string());
                None
            }
            None => None,
        };
        let state = VpState {
            vp,
            writer,
            last_time: self.time_of(reading),
            last: reading.to_vec(),
            scratch: vec![0; self.deltas.len()],
            markers: Vec::with_capacity(8),
            handoffs: 0,
            current: running.unwrap_or(u32::MAX),
            lost: 0,
            methods: vec![0; 1024],
        };
        VP.with(|v| *v.borrow_mut() = Some(state));
    }

    /// Writes one quantum record of `thread` ending at `reading`.
    fn record(&self, s: &mut VpState, q: Quantum, reason: u8, reading: &[u64]) {
        for (d, &i) in s.scratch.iter_mut().zip(&self.deltas) {
            *d = reading[i].saturating_sub(s.last[i]);
        }
        match &mut s.writer {
            Some(w) => {
                w.record_with_reason(&q, &s.scratch, reason);
            }
            None => s.lost += 1,
        }
        s.last.copy_from_slice(reading);
        s.last_time = q.end;
    }

    fn write_markers(s: &mut VpState) {
        for m in s.markers.drain(..) {
            match &mut s.writer {
                Some(w) => {
                    w.marker(m.kind, m.local_tid, m.time, m.run, &m.text);
                }
                None => s.lost += 1,
            }
        }
    }

    /// A thread switch on the calling processor: the record of the outgoing thread, the pending
    /// markers, and `wake(writer thread)` when a buffer was handed over. `reading` is the
    /// processor's reading at this switch (its `wall-time` the switch's time). Never blocks, allocates or does
    /// I/O (in steady state).
    pub fn on_switch(&self, info: &Switch, reading: &[u64], wake: impl FnOnce(u32)) {
        self.on_switch_at(info, self.time_of(reading), reading, wake);
    }

    /// [`Tracer::on_switch`] for a switch that happened at `time` (the trace's time base), which
    /// the source read when it switched, before `reading`: rvm stamps each switch under its
    /// scheduler lock and delivers it after, so a thread's record on one processor never ends
    /// after its next record on another starts. Records go from switch time to switch time; the
    /// deltas from reading to reading.
    pub fn on_switch_at(&self, info: &Switch, time: u64, reading: &[u64], wake: impl FnOnce(u32)) {
        let _ = VP.try_with(|v| {
            let Ok(mut v) = v.try_borrow_mut() else { return };
            let Some(s) = v.as_mut() else { return };
            let switched = info.from != info.to;
            // An unpark ends the unparking thread's quantum even when it keeps its processor
            // (nothing else was ready): a record without a switch, with its reason.
            if switched || self.mode == RecordAt::Tick || info.reason == reason::UNPARK {
                let end = time.max(s.last_time);
                let q = Quantum {
                    thread: info.from.saturating_add(1),
                    local_tid: info.from as u16,
                    yielded: info.voluntary,
                    thread_switch: switched,
                    start: s.last_time,
                    end,
                    callee: trace_method(info.callee),
                    caller: trace_method(info.caller),
                };
                mark_method(&mut s.methods, info.callee);
                mark_method(&mut s.methods, info.caller);
                self.record(s, q, info.reason, reading);
            }
            if !s.markers.is_empty() {
                Self::write_markers(s);
            }
            s.current = info.to;
            if let Some(w) = &s.writer {
                if w.handoffs() != s.handoffs {
                    s.handoffs = w.handoffs();
                    if let Some(tid) = self.vps.get(s.vp as usize).map(|v| v.writer_tid.load(Ordering::Relaxed)).filter(|&t| t != u32::MAX) {
                        wake(tid);
                    }
                }
            }
        });
    }

    /// The calling processor was idle (or ran code that is not traced) since its last record and
    /// starts running a thread now: the next record starts at `reading`, and no record covers the
    /// time in between. For sources whose processors run traced threads only part of the time
    /// (HotSpot's carriers of virtual threads between mounts). Pending markers are written.
    pub fn resume(&self, reading: &[u64]) {
        let _ = VP.try_with(|v| {
            let Ok(mut v) = v.try_borrow_mut() else { return };
            let Some(s) = v.as_mut() else { return };
            s.last_time = self.time_of(reading).max(s.last_time);
            s.last.copy_from_slice(reading);
            if !s.markers.is_empty() {
                Self::write_markers(s);
            }
        });
    }

    /// Java code asked for a marker on the calling processor: kept with the time of the request and
    /// written at the processor's next switch.
    pub fn marker(&self, kind: MarkerKind, tid: u32, run: u32, text: &str) {
        let time = monotonic_ns();
        let _ = VP.try_with(|v| {
            if let Ok(mut v) = v.try_borrow_mut() {
                if let Some(s) = v.as_mut() {
                    s.markers.push(PendingMarker { kind, local_tid: tid as u16, time, run, text: text.to_string() });
                }
            }
        });
    }

    /// The trace-writer thread of processor `vp` (a VM service thread): writes the buffers handed
    /// over so far. A write error is one line and stops tracing for the processor.
    pub fn write_pending(&self, vp: u32) {
        let Some(shared) = self.vps.get(vp as usize) else { return };
        let mut slot = lock(&shared.sink);
        if let Some(sf) = slot.as_mut() {
            Self::drain(sf);
        }
    }

    fn drain(sf: &mut SinkFile) {
        if let Err(e) = sf.write_pending() {
            log::error(&format!("cannot write {}: {e}; quantum tracing for processor {} stops", sf.path.display(), sf.vp));
        }
    }

    /// On processor `vp`'s thread after its last switch: the last record of the thread still on
    /// it (up to now), pending markers, the exit record, and the buffers written out.
    pub fn vp_end(&self, exit_code: i32, reading: &[u64]) {
        let Some(mut s) = VP.try_with(|v| v.try_borrow_mut().ok().and_then(|mut v| v.take())).ok().flatten() else { return };
        let Some(shared) = self.vps.get(s.vp as usize) else { return };
        let now = self.time_of(reading).max(s.last_time);
        if s.current != u32::MAX {
            let q = Quantum {
                thread: s.current.saturating_add(1),
                local_tid: s.current as u16,
                yielded: false,
                thread_switch: true,
                start: s.last_time,
                end: now,
                callee: 0,
                caller: 0,
            };
            self.record(&mut s, q, reason::NONE, reading);
        }
        Self::write_markers(&mut s);
        // The trace writer runs on this processor, which has stopped: write its pending buffers
        // here so that `finish` finds a free buffer for the exit record.
        self.write_pending(s.vp);
        if let Some(w) = s.writer.take() {
            let stats = w.finish(now, exit_code);
            *lock(&shared.stats) = Some(stats);
        }
        self.write_pending(s.vp);
        shared.lost.fetch_add(s.lost, Ordering::Relaxed);
        let mut m = lock(&shared.methods);
        if m.len() < s.methods.len() {
            m.resize(s.methods.len(), 0);
        }
        for (a, b) in m.iter_mut().zip(&s.methods) {
            *a |= *b;
        }
    }

    /// At VM death, after every processor stopped: drains the last buffers, syncs and renames the
    /// files, writes `quantum.meta` with `threads` and the methods seen (named by `method`: class,
    /// name, descriptor of an rvm method id). Returns the files written in full, and one line per
    /// file that is incomplete or missing (saying what was lost).
    pub fn finish(&self, threads: Vec<ThreadInfo>, method: impl Fn(u32) -> Option<(String, String, String)>) -> (Vec<PathBuf>, Vec<String>) {
        let mut files = Vec::new();
        let mut errors = Vec::new();
        if self.no_dir {
            return (files, errors);
        }
        let mut missed = Vec::new();
        // Processors whose loss is already in `errors`.
        let mut said = Vec::new();
        let mut methods = Vec::new();
        for (vp, shared) in self.vps.iter().enumerate() {
            let vp = vp as u32;
            let stats = *lock(&shared.stats);
            let lost = shared.lost.load(Ordering::Relaxed);
            // Every record the processor made, missed ones included (the exit record too).
            let total = stats.map_or(0, |s| s.records + s.markers + s.missed) + lost;
            // Records not in the file: missed, in buffers never written, or with no file at all.
            let mut not_in_file = total;
            let mut slot = lock(&shared.sink);
            if let Some(mut sf) = slot.take() {
                Self::drain(&mut sf);
                not_in_file = sf.close_at_finish(total, &format!("processor {vp}"), &mut files, &mut errors);
                if sf.failure.is_some() {
                    said.push(vp);
                }
            } else if let Some(why) = lock(&shared.not_created).as_ref() {
                errors.push(format!("{} was not written: {why}; processor {vp}'s {total} records are lost", self.dir.join(trace_file_name(vp)).display()));
                said.push(vp);
            }
            missed.push((vp, not_in_file));
            let bits = lock(&shared.methods);
            for (w, &word) in bits.iter().enumerate() {
                let mut word = word;
                while word != 0 {
                    let b = word.trailing_zeros();
                    word &= word - 1;
                    methods.push(w as u32 * 64 + b);
                }
            }
        }
        for &(vp, n) in missed.iter().filter(|(vp, n)| *n > 0 && !said.contains(vp)) {
            // Not an error of the run, but the trace is incomplete: say so where the user looks.
            log::warn(&format!("quantum trace: {n} record(s) of processor {vp} missed (both buffers full); counted in quantum.meta"));
        }
        methods.sort_unstable();
        methods.dedup();
        let methods = methods
            .into_iter()
            .map(|m| {
                let (class, name, descriptor) = method(m).unwrap_or_else(|| ("?".into(), format!("method-{m}"), "?".into()));
                MethodInfo { id: trace_method(Some(m)), class, name, descriptor }
            })
            .collect();
        let meta = Meta { counters: self.counters.clone(), time_unit: "ns".into(), threads, methods, missed, ..Meta::default() };
        match meta.write(&self.dir) {
            Ok(()) => files.push(self.dir.join(hpm_model::quantum::META_FILE)),
            Err(e) => errors.push(e.to_string()),
        }
        (files, errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn metrics() -> Vec<Metric> {
        vec![Metric::new("cpu-time", "ns"), Metric::new("wall-time", "ns")]
    }

    fn switch(from: u32, to: u32, voluntary: u32) -> Switch {
        Switch { processor: 0, from, to, voluntary: voluntary != 0, reason: if voluntary != 0 { reason::YIELD } else { reason::NONE }, callee: Some(5), caller: None }
    }

    #[test]
    fn records_chain_switch_to_switch_and_validate() {
        let dir = tempfile::tempdir().unwrap();
        let t = Tracer::new(dir.path(), RecordAt::Switch, &metrics(), 1);
        t.set_writer(0, 9);
        // A processor on this test thread: cpu, wall.
        t.vp_start(0, &[0, 1_000], None);
        let mut woken = 0;
        t.on_switch(&switch(0, 1, 1), &[10, 1_100], |_| woken += 1);
        t.marker(MarkerKind::RunStart, 1, 3, "warmup");
        // Same thread again: no record in switch mode; the next record spans both quanta.
        t.on_switch(&switch(1, 1, 0), &[20, 1_200], |_| woken += 1);
        t.on_switch(&switch(1, 0, 0), &[35, 1_300], |_| woken += 1);
        // Enough records to hand a buffer over (each at least its fixed part; every second switch
        // is to the same thread and makes none): the writer is woken.
        let records = 2 * (hpm_model::quantum::BUFFER_LEN / hpm_model::quantum::QUANTUM_FIXED_LEN) as u64;
        let end = 1_500 + records;
        for i in 0..records {
            t.on_switch(&switch(0, (i % 2 == 0) as u32, 0), &[40 + i, 1_400 + i], |tid| {
                assert_eq!(tid, 9);
                woken += 1
            });
        }
        assert!(woken >= 1);
        t.write_pending(0);
        t.vp_end(0, &[100 + records, end]);
        let threads = vec![
            ThreadInfo { id: 1, kind: hpm_model::quantum::ThreadKind::App, name: "main".into() },
            ThreadInfo { id: 2, kind: hpm_model::quantum::ThreadKind::App, name: "t1".into() },
        ];
        let (files, errors) = t.finish(threads, |m| Some(("a/B".into(), format!("m{m}"), "()V".into())));
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(files.len(), 2);
        let trace = hpm_model::quantum::read_dir(dir.path()).unwrap();
        assert!(trace.is_valid(), "{:?}", trace.issues);
        assert!(trace.issues.is_empty(), "{:?}", trace.issues);
        let q: Vec<_> = trace.quanta().collect();
        assert_eq!((q[0].thread, q[0].yielded, q[0].start, q[0].end, q[0].deltas[0], q[0].callee, q[0].caller), (1, true, 1_000, 1_100, 10, 6, 0));
        assert_eq!((q[1].thread, q[1].start, q[1].end, q[1].deltas[0]), (2, 1_100, 1_300, 25), "spans both quanta of thread 1");
        assert_eq!(trace.meta.counters, ["real-time", "cpu-time"]);
        assert_eq!(trace.meta.method(6).map(|m| m.name.as_str()), Some("m5"));
        let marker = trace.merged().find_map(|e| match e {
            hpm_model::quantum::Entry::Marker(m) => Some(m.clone()),
            _ => None,
        });
        let m = marker.expect("the run marker");
        assert_eq!((m.kind, m.run, m.text.as_str(), m.local_tid), (MarkerKind::RunStart, 3, "warmup", 1));
        // Covered: from the first record's start to the exit, records are back to back.
        let last = q.last().unwrap();
        assert_eq!(last.end, end);
        assert!(!dir.path().join(format!(".quantum.vp0.trace.{}.tmp", std::process::id())).exists());
    }

    #[test]
    fn a_file_that_cannot_be_created_counts_missed_records() {
        let dir = tempfile::tempdir().unwrap();
        let t = Tracer::new(dir.path(), RecordAt::Tick, &metrics(), 1);
        // The directory goes away: the processor's file cannot be created.
        std::fs::remove_dir(dir.path()).unwrap();
        t.vp_start(0, &[0, 0], Some(0));
        t.on_switch(&switch(0, 0, 0), &[1, 1], |_| {});
        t.on_switch(&switch(0, 1, 0), &[2, 2], |_| {});
        t.vp_end(0, &[3, 3]);
        std::fs::create_dir_all(dir.path()).unwrap();
        let (files, errors) = t.finish(Vec::new(), |_| None);
        assert_eq!(errors.len(), 1, "{errors:?}");
        let file = dir.path().join("quantum.vp0.trace");
        assert!(errors[0].starts_with(&format!("{} was not written: ", file.display())), "{errors:?}");
        assert!(errors[0].ends_with("; processor 0's 3 records are lost"), "{errors:?}");
        assert_eq!(files, [dir.path().join("quantum.meta")]);
        let meta = std::fs::read_to_string(dir.path().join("quantum.meta")).unwrap();
        assert!(meta.contains("missed\t0\t3"), "{meta}");
    }
}
