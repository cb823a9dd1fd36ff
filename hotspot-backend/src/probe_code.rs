//! Where the bytecode probes' own code runs, for the sampler's signal handler: a CPU-time sample
//! whose program counter is in a compiled method of the probe runtime's classes, or in the
//! interpreter running one of them, is the probes' cost, not the program's, and is credited to no
//! context ([`ProbeCode`]). HotSpot's code cache and frames are read as the stack walker reads
//! them (`vmstructs.rs`, `frames.rs`, under the fault guard).
//!
//! Why: the probes' cost per call is not the same everywhere (a large tree misses the cache, a
//! probed method loses registers), and a calibrated cost per call subtracted from each context
//! moved several points of self time from small callees to their callers. Measured where it lands,
//! it leaves each context what ran in the context's own code.

use std::ffi::c_void;

use hpm_collectors::sampling::ProbeCode;

use crate::fault_guard::guarded_read;
use crate::frames::{word, INTERPRETER_METHOD};
use crate::stacks::{code_layout, registers};
use crate::sys::jvmti::*;
use crate::vmstructs::CodeKind;
use crate::{deallocate, jvmti_fn};

/// The probe runtime's methods, as `Method*`s (its classes are in the boot loader and never
/// redefined, so a method's `Method*` stays what it was).
pub(crate) struct ProbeMethods {
    methods: Vec<usize>,
}

impl ProbeMethods {
    /// The methods of `classes` (live references to the probe runtime's classes). None if JVMTI
    /// gives none.
    pub(crate) fn of(env: *mut jvmtiEnv, classes: &[jclass]) -> Option<ProbeMethods> {
        let mut methods = Vec::new();
        for &k in classes {
            let mut count: jint = 0;
            let mut ids: *mut jmethodID = std::ptr::null_mut();
            // SAFETY: env valid in the live phase; k a live class reference; out-pointers valid.
            if unsafe { jvmti_fn!(env, GetClassMethods)(env, k, &mut count, &mut ids) } != JVMTI_ERROR_NONE || ids.is_null() {
                continue;
            }
            // SAFETY: GetClassMethods returned `count` method ids at `ids`.
            let slice = unsafe { std::slice::from_raw_parts(ids, count.max(0) as usize) };
            for &id in slice {
                if !id.is_null() {
                    // SAFETY: a jmethodID HotSpot just made is a pointer to a slot holding the
                    // method's `Method*`, valid while the class is loaded (the boot loader's: always).
                    methods.push(unsafe { *(id as *const usize) });
                }
            }
            deallocate(env, ids as *mut u8);
        }
        methods.retain(|&m| m != 0);
        (!methods.is_empty()).then_some(ProbeMethods { methods })
    }

    /// Whether `method` (a `Method*`) is one of them.
    fn holds(&self, method: usize) -> bool {
        self.methods.contains(&method)
    }
}

impl ProbeCode for ProbeMethods {
    unsafe fn contains(&self, ucontext: *mut c_void, pc: u64) -> bool {
        let Some(layout) = code_layout() else { return false };
        // A compiled method whose `Method*` is a probe's, or the interpreter running a probe
        // (before it is compiled: all of a short run's probes): its frame holds the `Method*`
        // (read as `frames.rs` reads interpreted frames; from a frame pointer that is not the
        // interpreter's the word is some other value, or the read faults into the guard).
        guarded_read(&mut || {
            // SAFETY: under the fault guard (guarded_read), as the stack walker reads the cache
            // and the frames; `ucontext` is this signal's (the trait's contract).
            unsafe {
                match layout.kind_at(pc as usize) {
                    CodeKind::Blob(blob) => layout.is_compiled_method(blob) && self.holds(layout.blob_method(blob)),
                    CodeKind::Interpreter => {
                        // The frame pointer only here: most samples are in compiled code.
                        let fp = registers(ucontext, pc).map_or(0, |r| r.fp);
                        fp > 4096 && self.holds(word(fp, INTERPRETER_METHOD))
                    }
                    _ => false,
                }
            }
        })
        .unwrap_or(false)
    }
}
