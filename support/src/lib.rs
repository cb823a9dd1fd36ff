#![forbid(unsafe_code)]

//! What every part of hpmagent that runs inside a VM shares, whichever VM it is (HotSpot through
//! `hotspot-backend`, the research VM through the agent's adapter): one-line logging filtered by
//! the `log=` option, the guard every VM callback runs in, and files created and removed without
//! following another user's links (`files`).

pub mod files;
pub mod log;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};

/// Locks `m` even if a thread panicked while holding it: the agent's state behind its mutexes
/// (lists, counters, trees) is usable between statements, and a panic in one callback (caught
/// by [`guard`]) must not stop the others.
pub fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

static PANICKED: AtomicBool = AtomicBool::new(false);

/// Runs `f`, catching any panic: the first one is logged, the VM carries on. Every callback of the
/// agent runs inside it, on HotSpot and on the research VM.
pub fn guard<F: FnOnce()>(what: &str, f: F) {
    if let Err(e) = catch_unwind(AssertUnwindSafe(f)) {
        if !PANICKED.swap(true, Ordering::Relaxed) {
            let msg = e
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| e.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            log::error(&format!("internal error in {what}: {msg} (further errors not shown; the VM continues)"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_inside_the_guard_is_caught_and_noted_and_the_caller_goes_on() {
        let mut ran_after = false;
        guard("test", || panic!("boom"));
        guard("test again", || panic!("{}", String::from("boom again")));
        assert!(PANICKED.load(Ordering::Relaxed), "the first panic is noted (and logged once)");
        guard("test", || ran_after = true);
        assert!(ran_after, "a later callback still runs");
    }
}
