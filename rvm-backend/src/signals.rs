//! SIGTERM, SIGINT and SIGHUP end the program as `System.exit(128 + signal)` does, as HotSpot ends
//! on them: the program stops, every processor leaves its loop, and the agent's `vm_death` writes
//! its reports and traces.
//!
//! The handlers (signal-hook's, async-signal-safe) only store into atomics. The quantum timer looks
//! at the received signal every quantum and starts the VM's ordinary exit
//! (`sched::request_exit`), so nothing of the shutdown runs inside a signal handler. A second such
//! signal, once one has arrived, ends the process at once by that signal's default action (for a
//! shutdown that hangs or takes too long).

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

/// The termination signal received (0 until one arrives), once the handlers are installed.
static RECEIVED: OnceLock<Arc<AtomicUsize>> = OnceLock::new();

/// Installs the handlers. Called by the `rvm` launcher only: a Rust test that runs a VM in its own
/// process keeps the process's own signal handling.
pub fn install() -> Result<(), String> {
    let received = RECEIVED.get_or_init(|| Arc::new(AtomicUsize::new(0)));
    let arrived = Arc::new(AtomicBool::new(false));
    for sig in [SIGTERM, SIGINT, SIGHUP] {
        // Order matters: the second signal's default action is checked before the first one arms it.
        let r = signal_hook::flag::register_conditional_default(sig, arrived.clone())
            .and_then(|_| signal_hook::flag::register(sig, arrived.clone()))
            .and_then(|_| signal_hook::flag::register_usize(sig, received.clone(), sig as usize));
        r.map_err(|e| format!("cannot handle signal {sig}: {e}"))?;
    }
    Ok(())
}

/// The termination signal received so far, if any.
pub fn received() -> Option<i32> {
    RECEIVED.get().map(|r| r.load(Ordering::SeqCst) as i32).filter(|&s| s != 0)
}
