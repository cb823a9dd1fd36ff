//! libhpmagent.so: the entry points the VMs call. `java -agentpath:/path/libhpmagent.so=OPTIONS`
//! calls [`Agent_OnLoad`] (or, attached later, [`Agent_OnAttach`]), which loads the agent's core
//! (`hpm-agent-core`) on HotSpot; `rvm -agentpath:…` calls `Agent_OnLoad_rvm`, the research VM's
//! adapter (`hpm-rvm-agent`), re-exported here so that both VMs load the same library. Java code
//! controls the agent through the `hpmagent.Agent` and `hpmagent.Trace` natives below.

use std::ffi::{c_char, c_void, CStr};
use std::panic::{catch_unwind, AssertUnwindSafe};

use hotspot_backend::sys::jvmti::{jint, JavaVM, JNI_ERR, JNI_OK};
use hpm_agent_core::{agent, control, AgentState};
use hpm_support::log;

mod hotspot;
mod quanta;
use hotspot::{load, on_load};

pub use hpm_rvm_agent::Agent_OnLoad_rvm;

/// Called by the JVM for `-agentpath:libhpmagent.so=OPTIONS`.
///
/// # Safety
/// Called by the JVM with its JavaVM and the option string.
#[no_mangle]
pub unsafe extern "C" fn Agent_OnLoad(vm: *mut JavaVM, options: *mut c_char, _reserved: *mut c_void) -> jint {
    // SAFETY: forwarded from the JVM's call.
    match catch_unwind(AssertUnwindSafe(|| unsafe { on_load(vm, options) })) {
        Ok(Ok(())) => JNI_OK as jint,
        Ok(Err(msg)) => {
            log::line(&format!("hpmagent: error: {msg}"));
            JNI_ERR as jint
        }
        Err(_) => {
            log::line("hpmagent: error: internal error while loading; the JVM does not start");
            JNI_ERR as jint
        }
    }
}

/// Called for dynamic attach (`jcmd <pid> JVMTI.agent_load`). Loads the agent into a running JVM;
/// what attach can and cannot record is in `docs/agent.md`.
///
/// # Safety
/// Called by the JVM.
#[no_mangle]
pub unsafe extern "C" fn Agent_OnAttach(vm: *mut JavaVM, options: *mut c_char, _reserved: *mut c_void) -> jint {
    // SAFETY: forwarded from the JVM's call.
    match catch_unwind(AssertUnwindSafe(|| unsafe { load(vm, options, true) })) {
        Ok(Ok(())) => {
            log::line(&format!("hpmagent: attached; control with `hpm ctl {} status`", std::process::id()));
            JNI_OK as jint
        }
        // The JVM keeps running: a failed attach only means no agent.
        Ok(Err(msg)) => {
            log::line(&format!("hpmagent: error: {msg}"));
            JNI_ERR as jint
        }
        Err(_) => {
            log::line("hpmagent: error: internal error while attaching; the JVM continues without the agent");
            JNI_ERR as jint
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Control from Java code: `hpmagent.Agent`'s native methods.
//
// A program (or a test) may declare
//
//     package hpmagent;
//     public final class Agent {
//         public static native boolean pause();
//         public static native boolean resume();
//         public static native void reset();
//         public static native boolean dump();
//         public static native String status();
//     }
//
// HotSpot looks native methods up in the JVMTI agent libraries too, so these symbols bind to it
// when the agent is loaded (and calls throw UnsatisfiedLinkError when it is not).

use hotspot_backend::sys::jvmti::{jboolean, jclass, jstring, JNIEnv};

fn java_call<T>(what: &str, default: T, f: impl FnOnce(&AgentState) -> T) -> T {
    match catch_unwind(AssertUnwindSafe(|| agent().map(|a| f(a)))) {
        Ok(Some(v)) => v,
        Ok(None) => default,
        Err(_) => {
            log::error(&format!("internal error in hpmagent.Agent.{what}"));
            default
        }
    }
}

fn report_err(what: &str, r: Result<bool, String>) -> jboolean {
    match r {
        Ok(b) => b as jboolean,
        Err(e) => {
            log::error(&format!("{what}: {e}"));
            0
        }
    }
}

/// `hpmagent.Agent.pause()`: true if recording was running.
///
/// # Safety
/// Called by the JVM as a JNI native method.
#[no_mangle]
pub unsafe extern "C" fn Java_hpmagent_Agent_pause(_env: *mut JNIEnv, _cls: jclass) -> jboolean {
    java_call("pause", 0, |a| report_err("pause", a.pause()))
}

/// `hpmagent.Agent.resume()`: true if recording was paused.
///
/// # Safety
/// Called by the JVM as a JNI native method.
#[no_mangle]
pub unsafe extern "C" fn Java_hpmagent_Agent_resume(_env: *mut JNIEnv, _cls: jclass) -> jboolean {
    java_call("resume", 0, |a| report_err("resume", a.resume()))
}

/// `hpmagent.Agent.reset()`.
///
/// # Safety
/// Called by the JVM as a JNI native method.
#[no_mangle]
pub unsafe extern "C" fn Java_hpmagent_Agent_reset(_env: *mut JNIEnv, _cls: jclass) {
    java_call("reset", (), |a| a.reset())
}

/// `hpmagent.Agent.dump()`: writes the reports into `out=` now; false (and one error line) on failure.
///
/// # Safety
/// Called by the JVM as a JNI native method.
#[no_mangle]
pub unsafe extern "C" fn Java_hpmagent_Agent_dump(_env: *mut JNIEnv, _cls: jclass) -> jboolean {
    java_call("dump", 0, |a| match a.dump(None) {
        Ok(_) => {
            log::line(&format!("hpmagent: reports written to {} (dump on request)", a.out.display()));
            1
        }
        Err(e) => {
            log::line(&format!("hpmagent: error: cannot write reports to {}: {e}", a.out.display()));
            0
        }
    })
}

/// `hpmagent.Agent.status()`: one line, `key=value` pairs.
///
/// # Safety
/// Called by the JVM as a JNI native method with a valid JNIEnv.
#[no_mangle]
pub unsafe extern "C" fn Java_hpmagent_Agent_status(env: *mut JNIEnv, _cls: jclass) -> jstring {
    let text = java_call("status", String::new(), |a| {
        let s = a.status();
        format!(
            "paused={} live_threads={} finished_threads={} methods_known={} method_events={} gc_count={} classes_loaded={} code_blobs={} uptime_ms={}",
            s.paused, s.live_threads, s.finished_threads, s.methods_known, s.method_events, s.gc_count, s.classes_loaded, s.code_blobs, s.uptime_ns / 1_000_000
        )
    });
    let Ok(c) = std::ffi::CString::new(text) else { return std::ptr::null_mut() };
    // SAFETY: env is the calling thread's JNIEnv; NewStringUTF copies the NUL-terminated string.
    unsafe { ((**env).NewStringUTF.expect("JNI NewStringUTF"))(env, c.as_ptr()) }
}

/// `hpmagent.Trace.mark0(kind, run, text)`: the native behind `hpmagent.Trace.appStart`,
/// `appComplete`, `runStart`, `runComplete` and `note`. The marker joins the control socket's
/// markers (`marks.txt`, e.g. `run-start 1: warmup`) and, with `quantum`, the quantum trace; on
/// the research VM the same Java call reaches the agent's `marker` callback instead.
///
/// # Safety
/// Called by the JVM as a JNI native method with a valid JNIEnv; `text` is a `java.lang.String`
/// reference or null.
#[no_mangle]
pub unsafe extern "C" fn Java_hpmagent_Trace_mark0(env: *mut JNIEnv, _cls: jclass, kind: jint, run: jint, text: jstring) {
    let text = if text.is_null() || env.is_null() {
        String::new()
    } else {
        // SAFETY: env is the calling thread's JNIEnv and text a live local reference to a String;
        // the UTF chars are released below on the same thread, before the reference goes away.
        unsafe {
            match ((**env).GetStringUTFChars, (**env).ReleaseStringUTFChars) {
                (Some(get), Some(release)) => {
                    let chars = get(env, text, std::ptr::null_mut());
                    if chars.is_null() {
                        String::new()
                    } else {
                        let s = CStr::from_ptr(chars).to_string_lossy().into_owned();
                        release(env, text, chars);
                        s
                    }
                }
                _ => String::new(),
            }
        }
    };
    crate::quanta::marker(kind as u32, run as u32, &text);
    java_call("Trace.mark0", (), |a| {
        control::add_mark(a, control::trace_mark_text(kind as u32, run as u32, &text));
    })
}

