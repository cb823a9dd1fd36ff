//! Park waits: every `LockSupport.park*` of a Java thread, timed, with its blocker's class, into
//! the wait tree beside `Object.wait` ([`Recorder::park`], [`Recorder::parked`]).
//!
//! JVMTI has no park event, and `Unsafe.park` (a native, which a native-method prefix could wrap)
//! is neither where the blocker is known nor what a virtual thread calls. So the agent wraps
//! `LockSupport`'s six park methods in their bytecode (`hpm_instrument::wrap_park`): an entry
//! native with the blocker and the time argument, an exit native at every return and at the
//! exceptional exit. `LockSupport` is loaded before VMInit on JDK 17 and 25, so it is always
//! wrapped by retransformation, once the natives' class (`java-park/`, `hpmagent.park.Park`) is
//! defined in the boot loader and its natives are registered: at VMInit, or at once after a late
//! attach. A park under way then (its frame runs the old code) is not recorded; a thread parked
//! in a wrapper when recording stops is not either. Nothing runs for a program that does not park.
//!
//! Without the probes the class-load hook is on only while `LockSupport` is retransformed (with it
//! on, HotSpot reads the class file of every class it later maps from its archive); the wrappers
//! then stay until something else retransforms `LockSupport` (another agent), which brings the
//! original back. With the probes the hook is on for good and passes the probes' output on here.

use std::cell::Cell;
use std::ffi::{c_char, c_void, CStr, CString};
use std::ptr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

use hpm_model::arcflow::ConsumerId;
use hpm_model::snapshot::NO_BLOCKER;
use hpm_collectors::sampling::RawFrame;
use hpm_instrument::{wrap_park, LOCK_SUPPORT, PARK_NATIVES};
use hpm_support::{guard, log};

use crate::sys::jvmti::*;
use crate::{check, enable, jni_fn, jvmti_fn, names, probes, with_thread, Backend, Resolver, BACKEND};

include!(concat!(env!("OUT_DIR"), "/park_classes.rs"));

/// The natives' class, internal name, and its package.
const PARK_CLASS: &str = "hpmagent/park/Park";
const PARK_PACKAGE: &str = "hpmagent/park/";

/// Parks are recorded in this run ([`add_capabilities`]).
static WANTED: AtomicBool = AtomicBool::new(false);

/// The natives are registered: `LockSupport` may be wrapped from now on.
static READY: AtomicBool = AtomicBool::new(false);

/// Frames of a park's (or wait's) stack read for its context when calls are not recorded.
const PARK_STACK_DEPTH: usize = 256;

/// Whether parks are recorded in this run: with waits, where the VM can retransform classes.
/// Adds that capability to `caps`; else says why not in `missing`.
pub(crate) fn add_capabilities(waits: bool, potential: &jvmtiCapabilities, caps: &mut jvmtiCapabilities, missing: &mut Vec<String>) -> bool {
    if !waits {
        return false;
    }
    if potential.can_retransform_classes() == 0 {
        missing.push("park waits (LockSupport.park): retransforming classes is not offered by this VM now".to_string());
        return false;
    }
    caps.set_can_retransform_classes(1);
    WANTED.store(true, Ordering::Release);
    true
}

/// Whether parks are recorded in this run.
pub(crate) fn wanted() -> bool {
    WANTED.load(Ordering::Acquire)
}

/// ClassFileLoadHook: the probes' hook first, then `LockSupport` (the boot loader's) gets its park
/// wrappers, over what the probes made of it (with `include=` selecting JDK classes).
pub(crate) unsafe extern "C" fn class_file_load_hook(
    env: *mut jvmtiEnv,
    jni: *mut JNIEnv,
    class_being_redefined: jclass,
    loader: jobject,
    name: *const c_char,
    protection_domain: jobject,
    class_data_len: jint,
    class_data: *const u8,
    new_class_data_len: *mut jint,
    new_class_data: *mut *mut u8,
) {
    // The natives' own class is never probed (its natives would get probed wrappers).
    // SAFETY: null or a NUL-terminated name valid for the callback.
    if loader.is_null() && !name.is_null() && unsafe { CStr::from_ptr(name) }.to_bytes().starts_with(PARK_PACKAGE.as_bytes()) {
        return;
    }
    // SAFETY: forwarded as received from the VM.
    unsafe {
        probes::class_file_load_hook(env, jni, class_being_redefined, loader, name, protection_domain, class_data_len, class_data, new_class_data_len, new_class_data)
    };
    guard("ClassFileLoadHook (park)", || {
        if !READY.load(Ordering::Acquire) || !loader.is_null() || name.is_null() || new_class_data.is_null() || new_class_data_len.is_null() {
            return;
        }
        // SAFETY: a NUL-terminated name valid for the callback.
        if unsafe { CStr::from_ptr(name) }.to_bytes() != LOCK_SUPPORT.as_bytes() {
            return;
        }
        // SAFETY: the out-pointers are the VM's; what the probes' hook set (if anything) is a
        // buffer from Allocate of that length, else the VM's bytes valid for the callback.
        let (earlier, input) = unsafe {
            let earlier = *new_class_data;
            if !earlier.is_null() && *new_class_data_len > 0 {
                (earlier, std::slice::from_raw_parts(earlier as *const u8, *new_class_data_len as usize))
            } else if !class_data.is_null() && class_data_len > 0 {
                (ptr::null_mut(), std::slice::from_raw_parts(class_data, class_data_len as usize))
            } else {
                return;
            }
        };
        let bytes = match wrap_park(input, PARK_CLASS) {
            Ok(Some(w)) => {
                for (m, why) in &w.skipped {
                    log::warn(&format!("park waits: LockSupport.{}{} not wrapped: {why}", m.name, m.descriptor));
                }
                log::debug(&format!("park waits: {} LockSupport methods wrapped", w.wrapped.len()));
                w.bytes
            }
            Ok(None) => {
                log::warn("park waits are not recorded: LockSupport has none of the park methods the agent wraps");
                return;
            }
            Err(e) => {
                log::warn(&format!("park waits are not recorded: {e}"));
                return;
            }
        };
        let mut mem: *mut u8 = ptr::null_mut();
        // SAFETY: env valid; the VM frees what we hand back through Allocate's allocator.
        if unsafe { jvmti_fn!(env, Allocate)(env, bytes.len() as jlong, &mut mem) } != JVMTI_ERROR_NONE || mem.is_null() {
            return;
        }
        // SAFETY: mem has bytes.len() bytes; the out-pointers are the VM's; `earlier` came from
        // Allocate (the probes' hook) and is replaced, so it is ours to free.
        unsafe {
            ptr::copy_nonoverlapping(bytes.as_ptr(), mem, bytes.len());
            *new_class_data_len = bytes.len() as jint;
            *new_class_data = mem;
        }
        if !earlier.is_null() {
            crate::deallocate(env, earlier);
        }
    })
}

/// Defines the natives' class, registers its natives and wraps `LockSupport` (retransforming it):
/// at VMInit or after a late attach, on a thread with `jni`. `hook_on`: the class-load hook stays
/// on anyway (the probes'); else it is on only for the retransformation.
pub(crate) fn go_live(env: *mut jvmtiEnv, jni: *mut JNIEnv, hook_on: bool) {
    if let Err(e) = define_natives(jni) {
        log::warn(&format!("park waits are not recorded: {e}"));
        return;
    }
    READY.store(true, Ordering::Release);
    if !hook_on {
        if let Err(e) = enable(env, JVMTI_EVENT_CLASS_FILE_LOAD_HOOK, true) {
            log::warn(&format!("park waits are not recorded: {e}"));
            return;
        }
    }
    let cname = CString::new(LOCK_SUPPORT).unwrap();
    // SAFETY: jni valid; a boot class (loaded before VMInit on the JDKs supported).
    let k = unsafe { jni_fn!(jni, FindClass)(jni, cname.as_ptr()) };
    if k.is_null() {
        clear_exception(jni);
        log::warn("park waits are not recorded: LockSupport was not found");
    } else {
        // SAFETY: env valid, live phase; k a live class reference.
        let err = unsafe { jvmti_fn!(env, RetransformClasses)(env, 1, &k) };
        if err != JVMTI_ERROR_NONE {
            log::warn(&format!("park waits are not recorded: RetransformClasses(LockSupport) failed: {}", crate::jvmti_error_text(err)));
        }
        names::delete_local(jni, k);
    }
    if !hook_on {
        if let Err(e) = enable(env, JVMTI_EVENT_CLASS_FILE_LOAD_HOOK, false) {
            log::debug(&format!("class-load hook left on: {e}"));
        }
    }
}

fn clear_exception(jni: *mut JNIEnv) {
    // SAFETY: jni is the calling thread's env.
    unsafe {
        if jni_fn!(jni, ExceptionCheck)(jni) != 0 {
            jni_fn!(jni, ExceptionDescribe)(jni);
            jni_fn!(jni, ExceptionClear)(jni);
        }
    }
}

/// Defines `hpmagent.park.Park` in the boot loader and binds its natives.
fn define_natives(jni: *mut JNIEnv) -> Result<(), String> {
    let mut park: jclass = ptr::null_mut();
    for (name, bytes) in PARK_CLASSES {
        let cname = CString::new(*name).map_err(|_| "bad class name")?;
        // SAFETY: jni is the calling thread's env; a null loader defines in the boot loader; the
        // bytes are a class file compiled at build time.
        let k = unsafe { jni_fn!(jni, DefineClass)(jni, cname.as_ptr(), ptr::null_mut(), bytes.as_ptr() as *const jbyte, bytes.len() as jsize) };
        if k.is_null() {
            clear_exception(jni);
            return Err(format!("cannot define {name} in the boot loader"));
        }
        if *name == PARK_CLASS {
            park = k;
        }
    }
    if park.is_null() {
        return Err(format!("{PARK_CLASS} was not built"));
    }
    let functions: [*mut c_void; 4] = [park_untimed as *mut c_void, park_nanos as *mut c_void, park_until as *mut c_void, park_exit as *mut c_void];
    let strings: Vec<(CString, CString)> = PARK_NATIVES.iter().map(|(n, d)| (CString::new(*n).unwrap(), CString::new(*d).unwrap())).collect();
    let methods: Vec<JNINativeMethod> = strings
        .iter()
        .zip(functions)
        .map(|((n, d), f)| JNINativeMethod { name: n.as_ptr() as *mut c_char, signature: d.as_ptr() as *mut c_char, fnPtr: f })
        .collect();
    // SAFETY: jni valid; park is the class declaring these natives with these signatures.
    if unsafe { jni_fn!(jni, RegisterNatives)(jni, park, methods.as_ptr(), methods.len() as jint) } != 0 {
        clear_exception(jni);
        return Err("cannot register the park natives".into());
    }
    names::delete_local(jni, park);
    Ok(())
}

/// A park begins on the calling thread: `blocker` may be null, `limit` its time limit if timed.
/// Wrapped methods may nest (JDK 25's `parkUntil(Object, long)` calls `parkUntil(long)` with its
/// blocker set): the inner entry starts the park again, finds the outer's blocker through
/// `parkBlocker`, and its exit ends the park; the outer exit then finds none and records nothing.
fn enter(jni: *mut JNIEnv, blocker: jobject, limit: Limit) {
    let Some(b) = BACKEND.get() else { return };
    if b.recorder.is_paused() {
        return;
    }
    let env = b.env as *mut jvmtiEnv;
    let class = if !blocker.is_null() {
        blocker_class(b, env, jni, blocker)
    } else {
        // park() without a blocker: the one its caller set (`LockSupport.setCurrentBlocker`, as
        // AQS's condition waits do), read as `LockSupport.getBlocker` does.
        match current_blocker(env, jni) {
            Some(o) => {
                let c = blocker_class(b, env, jni, o);
                names::delete_local(jni, o);
                c
            }
            None => b.recorder.consumer(NO_BLOCKER),
        }
    };
    with_thread(b, ptr::null_mut(), |t| b.recorder.park_of(t, class, limit.left_ns()));
}

/// A park's time limit.
#[derive(Clone, Copy)]
enum Limit {
    None,
    Nanos(u64),
    /// `parkUntil`'s deadline, in ms since the epoch.
    UntilMs(i64),
}

impl Limit {
    /// The timeout to record, in ns: a deadline's is what is left of it now, read just before the
    /// park's start is (after the blocker's class is looked up, which can take a while on a busy
    /// machine: a park that lasted to its deadline must not look shorter than its timeout).
    fn left_ns(self) -> Option<u64> {
        match self {
            Limit::None => None,
            Limit::Nanos(n) => Some(n),
            Limit::UntilMs(deadline_ms) => {
                let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as i128);
                Some((i128::from(deadline_ms) * 1_000_000 - now).clamp(0, i128::from(u64::MAX)) as u64)
            }
        }
    }
}

thread_local! {
    /// The class of the thread's last blocker (a weak global reference, which keeps no class
    /// loaded) and its consumer: a thread parks on few classes, mostly on the same one again,
    /// which then costs one JNI comparison instead of naming the class. One weak reference per
    /// OS thread that parked outlives its thread (a thread-local destructor cannot call JNI).
    static LAST_BLOCKER: Cell<(usize, ConsumerId)> = const { Cell::new((0, 0)) };
}

/// The consumer of `blocker`'s class.
fn blocker_class(b: &Backend, env: *mut jvmtiEnv, jni: *mut JNIEnv, blocker: jobject) -> ConsumerId {
    // SAFETY: jni is the calling thread's env; blocker a live reference from the native's caller.
    let k = unsafe { jni_fn!(jni, GetObjectClass)(jni, blocker) };
    if k.is_null() {
        return b.recorder.consumer("<unknown>");
    }
    let (last, consumer) = LAST_BLOCKER.with(Cell::get);
    // SAFETY: as above; `last` is null or a weak global reference made below on this thread.
    if last != 0 && unsafe { jni_fn!(jni, IsSameObject)(jni, k, last as jobject) } != 0 {
        names::delete_local(jni, k);
        return consumer;
    }
    let name = names::object_class_name(env, jni, blocker);
    let consumer = b.recorder.consumer(&name);
    // SAFETY: as above; the old weak reference is this thread's, replaced here.
    let weak = unsafe {
        if last != 0 {
            jni_fn!(jni, DeleteWeakGlobalRef)(jni, last as jweak);
        }
        jni_fn!(jni, NewWeakGlobalRef)(jni, k)
    };
    LAST_BLOCKER.with(|c| c.set((weak as usize, consumer)));
    names::delete_local(jni, k);
    consumer
}

/// The calling thread's `Thread.parkBlocker` (a new local reference), if set.
fn current_blocker(env: *mut jvmtiEnv, jni: *mut JNIEnv) -> Option<jobject> {
    static FIELD: OnceLock<usize> = OnceLock::new();
    let mut thread: jthread = ptr::null_mut();
    // SAFETY: env valid (live phase); thread a valid out-pointer.
    if unsafe { jvmti_fn!(env, GetCurrentThread)(env, &mut thread) } != JVMTI_ERROR_NONE || thread.is_null() {
        return None;
    }
    let field = *FIELD.get_or_init(|| {
        let (class, name, sig) = (CString::new("java/lang/Thread").unwrap(), CString::new("parkBlocker").unwrap(), CString::new("Ljava/lang/Object;").unwrap());
        // SAFETY: jni is the calling thread's env; java.lang.Thread is loaded.
        let k = unsafe { jni_fn!(jni, FindClass)(jni, class.as_ptr()) };
        if k.is_null() {
            clear_exception(jni);
            return 0;
        }
        // SAFETY: as above; k a live class reference.
        let f = unsafe { jni_fn!(jni, GetFieldID)(jni, k, name.as_ptr(), sig.as_ptr()) };
        clear_exception(jni);
        names::delete_local(jni, k);
        f as usize
    });
    let blocker = if field == 0 {
        ptr::null_mut()
    } else {
        // SAFETY: thread a live local reference to a Thread; field its Object field parkBlocker.
        unsafe { jni_fn!(jni, GetObjectField)(jni, thread, field as jfieldID) }
    };
    names::delete_local(jni, thread);
    (!blocker.is_null()).then_some(blocker)
}

/// `Park.untimed(Object, long)`: `park()`, `park(Object)`.
unsafe extern "C" fn park_untimed(jni: *mut JNIEnv, _class: jclass, blocker: jobject, _time: jlong) {
    guard("Park.untimed", || enter(jni, blocker, Limit::None));
}

/// `Park.nanos(Object, long)`: `parkNanos`; one of at most 0 ns returns at once and is no park.
unsafe extern "C" fn park_nanos(jni: *mut JNIEnv, _class: jclass, blocker: jobject, nanos: jlong) {
    guard("Park.nanos", || {
        if nanos > 0 {
            enter(jni, blocker, Limit::Nanos(nanos as u64))
        }
    });
}

/// `Park.until(Object, long)`: `parkUntil`, the deadline in ms since the epoch.
unsafe extern "C" fn park_until(jni: *mut JNIEnv, _class: jclass, blocker: jobject, deadline_ms: jlong) {
    guard("Park.until", || enter(jni, blocker, Limit::UntilMs(deadline_ms)));
}

/// `Park.exit(int)`: the wrapped method returns (or throws). The park's context: the probes'
/// call path, the calls tree's with JVMTI method events, else the thread's stack.
unsafe extern "C" fn park_exit(jni: *mut JNIEnv, _class: jclass, _method: jint) {
    guard("Park.exit", || {
        let Some(b) = BACKEND.get() else { return };
        with_thread(b, ptr::null_mut(), |t| {
            // A return without a recorded park (a parkNanos of at most 0 ns, a park begun while
            // recording was stopped or before the wrappers) reads no stack.
            if !b.recorder.is_parked(t) {
                return;
            }
            if let Some(rt) = probes::context_runtime() {
                b.recorder.move_to_context(t, &rt.context_path());
                b.recorder.parked(t, None);
            } else if b.recorder.config().calls && b.can_method_events {
                b.recorder.parked(t, None);
            } else {
                let frames = current_frames(b, 1);
                let mut r = Resolver::new(b.env as *mut jvmtiEnv, jni);
                b.recorder.parked(t, Some((&frames, &mut r)));
            }
        });
    });
}

/// The calling thread's stack below its `skip` innermost frames (1: below `Park.exit`),
/// innermost first (empty if it cannot be read).
pub(crate) fn current_frames(b: &Backend, skip: jint) -> Vec<RawFrame> {
    let env = b.env as *mut jvmtiEnv;
    let mut frames = [jvmtiFrameInfo { method: ptr::null_mut(), location: 0 }; PARK_STACK_DEPTH];
    let mut count: jint = 0;
    // SAFETY: env valid (live phase, a Java thread in a native method or a JVMTI callback);
    // null = the current thread; the buffer holds PARK_STACK_DEPTH frames.
    let err = unsafe { jvmti_fn!(env, GetStackTrace)(env, ptr::null_mut(), skip, PARK_STACK_DEPTH as jint, frames.as_mut_ptr(), &mut count) };
    if check(err, "GetStackTrace").is_err() {
        return Vec::new();
    }
    frames[..count.max(0) as usize].iter().map(|f| RawFrame::new(f.location.clamp(-1, i32::MAX as jlong) as i32, f.method as u64)).collect()
}
