//! The state of a sampled thread, read in the sampling signal handler on the thread itself:
//! HotSpot's `JavaThread::_thread_state` (in Java, in the VM, in native, blocked; its offset from
//! HotSpot's VMStructs tables), and for a blocked thread what its innermost frame blocks in: a
//! park (`Unsafe.park`), a sleep (`Thread`'s sleep natives) or an `Object.wait` (`Object`'s wait
//! natives), told by the frame's `jmethodID`, else a monitor entry. Both are plain reads of the
//! thread's own memory and of atomics written before sampling starts ([`prepare`]):
//! async-signal-safe.
//!
//! `java.lang.Thread`'s `threadStatus` says the same, but it lives in the Java heap (a `holder`
//! object from JDK 19 on, compressed references to decode): more reads, none of them safer.

use std::ffi::CString;
use std::ptr;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use hpm_model::sampling::SampleState;
use hpm_collectors::sampling::RawFrame;
use hpm_support::log;

use crate::sys::jvmti::*;
use crate::{jni_fn, jvmti_fn, names, take_string, vmstructs};

/// `JavaThread::_thread_state`'s offset, 0 until known.
static STATE_OFFSET: AtomicUsize = AtomicUsize::new(0);

/// The `jmethodID`s a blocked thread's innermost frame is told by (0: empty slot).
static PARK: [AtomicU64; 2] = [const { AtomicU64::new(0) }; 2];
static SLEEP: [AtomicU64; 4] = [const { AtomicU64::new(0) }; 4];
static WAIT: [AtomicU64; 4] = [const { AtomicU64::new(0) }; 4];

// HotSpot's JavaThreadState (globalDefinitions.hpp; `_thread_in_vm` is the frame walker's
// THREAD_IN_VM), the same values in JDK 17 and 25; each `_trans` state is one more.
const IN_NATIVE: i32 = 4;
const IN_VM: i32 = crate::frames::THREAD_IN_VM;
const IN_JAVA: i32 = 8;
const BLOCKED: i32 = 10;

const ACC_NATIVE: jint = 0x0100;

/// Finds the state's offset and the methods that block: once, when the backend goes live, before
/// the samplers start (a sample before it has an unknown state).
pub(crate) fn prepare(env: *mut jvmtiEnv, jni: *mut JNIEnv) {
    match vmstructs::tables().ok_or_else(|| "HotSpot's VMStructs tables were not found".to_string()).and_then(|vs| vs.offset("JavaThread", "_thread_state")) {
        Ok(off) => STATE_OFFSET.store(off, Ordering::Release),
        Err(e) => {
            log::info(&format!("samples carry no thread state: {e}"));
            return;
        }
    }
    natives(env, jni, "jdk/internal/misc/Unsafe", "park", &PARK);
    natives(env, jni, "java/lang/Thread", "sleep", &SLEEP);
    natives(env, jni, "java/lang/Object", "wait", &WAIT);
}

/// Stores the ids of `class`'s native methods whose names start with `prefix` into `slots`.
fn natives(env: *mut jvmtiEnv, jni: *mut JNIEnv, class: &str, prefix: &str, slots: &[AtomicU64]) {
    let cname = CString::new(class).unwrap();
    // SAFETY: jni is the calling thread's env; a boot class, loaded early.
    let k = unsafe { jni_fn!(jni, FindClass)(jni, cname.as_ptr()) };
    if k.is_null() {
        // SAFETY: as above.
        unsafe { jni_fn!(jni, ExceptionClear)(jni) };
        log::debug(&format!("thread states: {class} not found"));
        return;
    }
    let mut count: jint = 0;
    let mut methods: *mut jmethodID = ptr::null_mut();
    // SAFETY: env valid (live phase); k a live class reference; out-pointers valid.
    if unsafe { jvmti_fn!(env, GetClassMethods)(env, k, &mut count, &mut methods) } == JVMTI_ERROR_NONE && !methods.is_null() {
        // SAFETY: GetClassMethods returned `count` ids at `methods`.
        let ids = unsafe { std::slice::from_raw_parts(methods, count.max(0) as usize) }.to_vec();
        crate::deallocate(env, methods as *mut u8);
        let mut next = 0;
        for m in ids {
            let mut modifiers: jint = 0;
            // SAFETY: env valid; m a method id of a loaded class.
            if unsafe { jvmti_fn!(env, GetMethodModifiers)(env, m, &mut modifiers) } != JVMTI_ERROR_NONE || modifiers & ACC_NATIVE == 0 {
                continue;
            }
            let mut name = ptr::null_mut();
            // SAFETY: as above; only the name is asked for.
            if unsafe { jvmti_fn!(env, GetMethodName)(env, m, &mut name, ptr::null_mut(), ptr::null_mut()) } != JVMTI_ERROR_NONE {
                continue;
            }
            // SAFETY: allocated by JVMTI just now.
            let Some(name) = (unsafe { take_string(env, name) }) else { continue };
            if name.starts_with(prefix) && next < slots.len() {
                slots[next].store(m as u64, Ordering::Release);
                next += 1;
            }
        }
        if next == 0 {
            log::debug(&format!("thread states: no native {class}.{prefix}*"));
        }
    }
    names::delete_local(jni, k);
}

fn is_in(slots: &[AtomicU64], method: u64) -> bool {
    method != 0 && slots.iter().any(|s| s.load(Ordering::Relaxed) == method)
}

/// The state of the calling thread, whose `JavaThread` is `java_thread` (0: not known), with
/// `top` the innermost frame of its sampled stack. Async-signal-safe.
///
/// # Safety
/// In the sampling signal handler of the thread `java_thread` belongs to (its own, live
/// `JavaThread`).
pub(crate) unsafe fn sample_state(java_thread: usize, top: Option<&RawFrame>) -> SampleState {
    let off = STATE_OFFSET.load(Ordering::Relaxed);
    if java_thread == 0 || off == 0 {
        return SampleState::Unknown;
    }
    // SAFETY: the calling thread's own JavaThread (the caller's contract); an int-sized enum.
    let state = unsafe { ptr::read_volatile((java_thread + off) as *const i32) };
    let top = top.map_or(0, |f| f.method);
    match state & !1 {
        IN_JAVA | IN_VM => SampleState::Running,
        IN_NATIVE => SampleState::Native,
        BLOCKED if is_in(&PARK, top) => SampleState::Parked,
        BLOCKED if is_in(&SLEEP, top) => SampleState::Sleeping,
        BLOCKED if is_in(&WAIT, top) => SampleState::Waiting,
        BLOCKED => SampleState::Blocked,
        _ => SampleState::Unknown,
    }
}
