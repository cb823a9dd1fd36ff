//! Garbage collections: a log of stop-the-world pauses and their totals. The start and finish
//! events come in a restricted context (no JNI, no allocation in the VM's sense): only atomics
//! there.

use super::*;

const GC_LOG_CAPACITY: usize = 100_000;

/// The collections so far: the one under way, totals, and the log.
#[derive(Default)]
pub(super) struct GcTracker {
    /// Start of the collection under way (ns since the recorder's origin), 0 when none.
    start: AtomicU64,
    count: AtomicU64,
    total: AtomicU64,
    /// Collections not logged (the log was full, or busy being copied).
    dropped: AtomicU64,
    log: Mutex<Vec<GcRecord>>,
}

impl GcTracker {
    pub(super) fn clear(&self) {
        lock(&self.log).clear();
        self.count.store(0, Ordering::Relaxed);
        self.total.store(0, Ordering::Relaxed);
        self.dropped.store(0, Ordering::Relaxed);
    }

    pub(super) fn count(&self) -> u64 {
        self.count.load(Ordering::Relaxed)
    }

    /// (log, dropped, count, total ns).
    pub(super) fn copy(&self) -> (Vec<GcRecord>, u64, u64, u64) {
        (lock(&self.log).clone(), self.dropped.load(Ordering::Relaxed), self.count(), self.total.load(Ordering::Relaxed))
    }
}

impl Recorder {
    /// A stop-the-world collection starts. Touches only atomics: callable where the VM forbids
    /// almost everything (HotSpot's GarbageCollectionStart).
    pub fn gc_start(&self) {
        if !self.config.gc {
            return;
        }
        self.gc.start.store(self.wall_ns().max(1), Ordering::Release);
    }

    /// The collection finished. Takes only the GC log's own lock (never held while calling into the
    /// VM) and does not allocate after the log's first growth beyond its capacity.
    pub fn gc_finish(&self) {
        if !self.config.gc {
            return;
        }
        let start = self.gc.start.swap(0, Ordering::AcqRel);
        if start == 0 {
            return;
        }
        let d = self.wall_ns().saturating_sub(start);
        self.gc.count.fetch_add(1, Ordering::Relaxed);
        self.gc.total.fetch_add(d, Ordering::Relaxed);
        let rec = GcRecord { start_ns: start, duration_ns: d, threads_stopped: self.live_threads.load(Ordering::Relaxed) };
        match self.gc.log.try_lock() {
            Ok(mut log) if log.len() < GC_LOG_CAPACITY => log.push(rec),
            _ => {
                self.gc.dropped.fetch_add(1, Ordering::Relaxed);
            }
        }
    }
}
