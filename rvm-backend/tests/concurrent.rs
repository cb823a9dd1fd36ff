//! `java.util.concurrent` on green threads: the programs in `java-tests/rvm-concurrent`, compiled
//! with plain `javac` by JDK 17 and by the newest JDK found, print on `rvm` what they print on
//! HotSpot, with one processor and with several (4 and 8, more than the machine's cores, so that
//! the atomics' compare-and-swap and the locks are contended by processors running in parallel):
//! atomics counted exactly from 8 threads, ReentrantLock and Condition producers and consumers,
//! read-write locks, semaphores, latches, park and unpark, fixed, single and cached thread pools
//! with futures, CompletableFuture, ConcurrentHashMap (also its printed order), the concurrent
//! queues and lists.

use java_tests::Jdk;
use std::path::PathBuf;
use std::process::Command;

#[path = "support/hotspot.rs"]
#[allow(dead_code)] // (this file compares on more processors: assert_rvm_matches_on)
mod hotspot;
use hotspot::{assert_rvm_matches_on, text};

const VPS: [&str; 3] = ["-Xvps:1", "-Xvps:4", "-Xvps:8"];

/// (what compiled them, its JDK, class directory), once per test process.
fn compiled() -> Vec<(String, Jdk, PathBuf)> {
    static DIRS: std::sync::OnceLock<Vec<(String, Jdk, PathBuf)>> = std::sync::OnceLock::new();
    DIRS.get_or_init(|| {
        let mut jdks: Vec<Jdk> = java_tests::all_jdks().into_iter().filter(|j| j.feature_version() == Some(17)).take(1).collect();
        if let Some(newer) = java_tests::newer_jdk().filter(|j| j.feature_version().unwrap_or(0) > 17) {
            jdks.push(newer);
        }
        assert!(!jdks.is_empty(), "no JDK 17 or newer found");
        jdks.into_iter()
            .map(|j| {
                let v = j.feature_version().unwrap_or(0);
                let d = java_tests::compile_plain_with(&j, "rvm-concurrent", &[]).expect("compile rvm-concurrent");
                (format!("javac {v}"), j, d)
            })
            .collect()
    })
    .clone()
}

fn same_as_hotspot(class: &str) {
    for (by, jdk, dir) in compiled() {
        let expected = Command::new(jdk.java()).arg("-cp").arg(&dir).arg(class).output().expect("run java");
        assert!(expected.status.success() && !expected.stdout.is_empty(), "{class} ({by}) on HotSpot: {}", text(&expected.stderr));
        assert_rvm_matches_on(&VPS, &expected, &dir, class, &by, true);
    }
}

/// AtomicInteger/Long/Boolean/Reference and LongAdder from 8 threads × 100,000 operations: the
/// counts, a CAS loop, a Treiber stack and a flag's flips come out exact; the single-threaded API.
#[test]
fn atomics() {
    same_as_hotspot("JucAtomics");
}

/// ReentrantLock and Condition producers/consumers, reentrant mutual exclusion, tryLock (timed),
/// lockInterruptibly interrupted, await with a timeout, signalAll, ReentrantReadWriteLock,
/// Semaphore, CountDownLatch, LockSupport park/unpark with permits, blockers and interrupts.
#[test]
fn locks_latches_and_park() {
    same_as_hotspot("JucLocks");
}

/// Fixed, single-thread and cached pools: submit, futures, invokeAll/invokeAny, failures,
/// timeouts, cancel, shutdown/awaitTermination, rejection; CompletableFuture; TimeUnit.
#[test]
fn executors_and_futures() {
    same_as_hotspot("JucPool");
}

/// ConcurrentHashMap merged counts from 8 threads (and its printed order, HotSpot's), its
/// ConcurrentMap API; ConcurrentLinkedQueue with 4 producers and 4 consumers;
/// CopyOnWriteArrayList; LinkedBlockingQueue and ArrayBlockingQueue with producers and consumers.
#[test]
fn concurrent_collections() {
    same_as_hotspot("JucCollections");
}

/// Two threads handing a turn back and forth with park and unpark.
#[test]
fn park_ping_pong() {
    same_as_hotspot("JucPark");
}
