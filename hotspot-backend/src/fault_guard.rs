//! The fault guard that reads of HotSpot's memory run under (`native/fault_guard.c`): stack walks
//! (`stacks.rs`, with the frames under a sample, `frames.rs`) and single reads of fields that
//! VMStructs describe ([`guarded_read`]: `stacks.rs`, `compilers.rs`), which can fault on a frame
//! or a thread caught in a change. A SIGSEGV or SIGBUS inside a guarded call abandons it; every
//! other fault goes to HotSpot's own handler. Below the modules that read: it names none of them.

use std::ffi::{c_int, c_ulong, c_void};
use std::sync::atomic::{AtomicBool, Ordering};

extern "C" {
    pub(crate) fn hpm_guarded_call(f: AsgctFn, trace: *mut c_void, depth: c_int, ucontext: *mut c_void) -> c_int;
    fn hpm_install_fault_guard() -> c_int;
    fn hpm_faults_caught() -> c_ulong;
}

/// What the guard calls: AsyncGetCallTrace's signature (trace, depth, signal context).
pub(crate) type AsgctFn = unsafe extern "C" fn(trace: *mut c_void, depth: c_int, ucontext: *mut c_void);

/// Runs `f(arg, 0, null)` under the fault guard: 0, or -1 if it faulted and was abandoned.
///
/// # Safety
/// `f` must be safe to abandon at any instruction: it holds no lock and nothing with a destructor.
pub(crate) unsafe fn guarded(f: AsgctFn, arg: *mut c_void) -> c_int {
    // SAFETY: the caller's contract; see native/fault_guard.c.
    unsafe { hpm_guarded_call(f, arg, 0, std::ptr::null_mut()) }
}

/// The code of a walk abandoned by the fault guard (below AGCT's own codes).
pub const WALK_FAULTED: i32 = -100;
/// The code of a sample taken before the fault guard was in place: not walked.
pub const WALK_UNGUARDED: i32 = -101;

/// The fault guard is installed: walks may run. Threads can be sampled before (the probes start
/// the initial thread's sampler at VMInit before the guard goes in, and a guard that cannot be
/// installed never goes in); their samples are not walked.
static GUARD_READY: AtomicBool = AtomicBool::new(false);

/// Whether guarded calls may run (the fault guard is installed).
pub(crate) fn guard_ready() -> bool {
    GUARD_READY.load(Ordering::Acquire)
}

/// Installs the fault guard's SIGSEGV/SIGBUS handler in front of HotSpot's: after VMInit, when
/// HotSpot's own handlers are in place.
pub(crate) fn install_fault_guard() -> Result<(), String> {
    // SAFETY: installs a handler with sigaction; see native/fault_guard.c.
    if unsafe { hpm_install_fault_guard() } != 0 {
        return Err(format!("cannot install the stack walks' fault handler: {}", std::io::Error::last_os_error()));
    }
    GUARD_READY.store(true, Ordering::Release);
    Ok(())
}

/// Walks abandoned because they faulted.
pub fn faults_caught() -> u64 {
    // SAFETY: reads a counter.
    unsafe { hpm_faults_caught() as u64 }
}

/// The name of a failed walk's pseudo-frame: AGCT's codes (`forte.cpp`), and the guard's.
pub(crate) fn walk_failure_name(code: i32) -> String {
    let what = match code {
        0 => "no Java frame",
        -1 => "no class load",
        -2 => "GC active",
        -3 => "unknown, not Java",
        -4 => "not walkable, not Java",
        -5 => "unknown Java",
        -6 => "not walkable Java",
        -7 => "unknown thread state",
        -8 => "thread exit",
        -9 => "deoptimisation",
        -10 => "safepoint",
        WALK_FAULTED => "walk faulted",
        WALK_UNGUARDED => "not walked: no fault guard",
        _ => return format!("(stack not walked: code {code})"),
    };
    format!("({what})")
}

/// Runs `f` under the fault guard: its value, or None if a read faulted (the fault guard must
/// be installed: see [`guard_ready`]). `f` must not allocate, lock or own anything with a
/// destructor: a fault jumps out of it at any instruction.
pub(crate) fn guarded_read<T: Copy>(f: &mut dyn FnMut() -> T) -> Option<T> {
    if !guard_ready() {
        return None;
    }
    struct Call<'a, T> {
        f: &'a mut dyn FnMut() -> T,
        out: Option<T>,
    }
    unsafe extern "C" fn run<T: Copy>(arg: *mut c_void, _depth: c_int, _ucontext: *mut c_void) {
        // SAFETY: `arg` is the `Call` below, alive for the guarded call.
        let c = unsafe { &mut *(arg as *mut Call<T>) };
        c.out = Some((c.f)());
    }
    let mut call = Call { f, out: None };
    // SAFETY: `run` calls `f`, which the caller keeps free of destructors, locks and allocation.
    let rc = unsafe { guarded(run::<T>, &mut call as *mut Call<T> as *mut c_void) };
    if rc != 0 {
        return None;
    }
    call.out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failed_walks_are_named() {
        assert_eq!(walk_failure_name(-2), "(GC active)");
        assert_eq!(walk_failure_name(WALK_FAULTED), "(walk faulted)");
        assert_eq!(walk_failure_name(WALK_UNGUARDED), "(not walked: no fault guard)");
        assert_eq!(walk_failure_name(-42), "(stack not walked: code -42)");
    }
}
