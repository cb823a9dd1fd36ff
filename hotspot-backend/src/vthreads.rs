//! Virtual threads (JDK 21+): each one is a thread of its own for the recorder, with its own call
//! tree, although it runs on whichever carrier (a platform thread of the virtual-thread
//! scheduler) mounts it.
//!
//! HotSpot tells an agent that holds `can_support_virtual_threads` when a virtual thread starts
//! and ends (VirtualThreadStart/End) and, through two extension events
//! (`com.sun.hotspot.events.VirtualThreadMount`/`Unmount`), every time a carrier mounts or
//! unmounts one. All four are posted on the carrier with the virtual thread current, outside the
//! VM's mount transition (JNI and JVMTI may be called). At each of them the carrier's OS thread
//! changes which thread it works for:
//!
//! - the carrier's thread-local recorder (`CURRENT`) becomes the virtual thread's, so every
//!   event the carrier posts meanwhile (method events with `calls=jvmti`, monitors, allocation)
//!   is the virtual thread's;
//! - with bytecode probes, the carrier's sampler is pointed at the virtual thread's context cell
//!   ([`hpm_collectors::sampling::SampledThread::retarget`]), so samples of the carrier's CPU time
//!   and counters go to the virtual thread's context (`probes.rs`);
//! - with `calls=jvmti`, metrics are read per event: the carrier is a green-thread processor
//!   ([`hpm_collectors::green`]) and each virtual thread (and the carrier itself) an account
//!   that counts only while it runs on it;
//! - the agent's hooks hear of it ([`crate::Hooks::vthread_mounted`]): the quantum trace of
//!   mounts.
//!
//! The virtual thread's state lives behind its JVMTI thread-local storage (an `Arc` turned into a
//! raw pointer at its start and taken back at its end).

use std::cell::RefCell;
use std::ffi::{c_void, CStr};
use std::ptr;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, OnceLock};

use hpm_collectors::green::{self, Account, GreenConfig, GreenThreadMetrics, Processor};
use hpm_model::metrics::ThreadMetrics;
use hpm_collectors::recorder::{ThreadInfo, ThreadRecorder};
use hpm_support::{guard, log};

use crate::sys::jvmti::*;
use crate::{jni_fn, jvmti_fn, names, probes, take_string, Backend, ThreadStack, BACKEND, CURRENT};

/// HotSpot's extension events for mounts, by id.
const MOUNT_EVENT: &str = "com.sun.hotspot.events.VirtualThreadMount";
const UNMOUNT_EVENT: &str = "com.sun.hotspot.events.VirtualThreadUnmount";

/// One virtual thread, from its start to its end.
pub(crate) struct VThread {
    /// Its id among the agent's virtual threads (1, 2, …; 0 stands for a carrier itself).
    pub(crate) id: u32,
    pub(crate) recorder: Arc<ThreadRecorder>,
    /// With `calls=jvmti`: what it used on its carriers (read at every event).
    account: Option<Arc<Account>>,
    /// With bytecode probes: its context cell and credits.
    pub(crate) probes: OnceLock<probes::Local>,
}

/// A mounted virtual thread, and the carrier's own recorder (put aside while the virtual
/// thread's is current).
type Mount = (Arc<VThread>, Option<Arc<ThreadRecorder>>);

thread_local! {
    /// On a carrier: the virtual thread mounted now.
    static MOUNTED: RefCell<Option<Mount>> = const { RefCell::new(None) };
    /// With `calls=jvmti`, on a carrier: its own account, current while it runs no virtual thread.
    static CARRIER_ACCOUNT: RefCell<Option<Arc<Account>>> = const { RefCell::new(None) };
}

static NEXT_ID: AtomicU32 = AtomicU32::new(1);

/// What was set up at load: whether virtual threads are told apart, and the green-thread
/// configuration of `calls=jvmti` (None with probes).
struct Support {
    green: Option<GreenConfig>,
}

static SUPPORT: OnceLock<Support> = OnceLock::new();

/// Whether virtual threads are recorded apart (the VM granted what it takes).
pub(crate) fn supported() -> bool {
    SUPPORT.get().is_some()
}

/// At load, after AddCapabilities granted `can_support_virtual_threads`: remembers how metrics
/// follow virtual threads (`green`: with JVMTI method events, read per event).
pub(crate) fn install(green: Option<GreenConfig>) {
    let _ = SUPPORT.set(Support { green });
    names::virtual_threads_recorded_apart();
}

/// In the live phase: turns on VirtualThreadStart/End and the mount extension events. Without
/// the mount events virtual threads cannot be told apart on their carriers: one warning, and
/// they are recorded on their carriers as before.
pub(crate) fn go_live(env: *mut jvmtiEnv) {
    if !supported() {
        return;
    }
    let (mount, unmount) = match extension_events(env) {
        Ok(found) => found,
        Err(e) => {
            log::warn(&format!("virtual threads are recorded on their carriers: {e}"));
            return;
        }
    };
    for ev in [JVMTI_EVENT_VIRTUAL_THREAD_START, JVMTI_EVENT_VIRTUAL_THREAD_END] {
        if let Err(e) = crate::enable(env, ev, true) {
            log::warn(&format!("virtual threads are recorded on their carriers: {e}"));
            return;
        }
    }
    let mount_cb: unsafe extern "C" fn(*mut jvmtiEnv, *mut JNIEnv, jthread) = on_mount;
    let unmount_cb: unsafe extern "C" fn(*mut jvmtiEnv, *mut JNIEnv, jthread) = on_unmount;
    for (index, f) in [(mount, mount_cb), (unmount, unmount_cb)] {
        // SAFETY: HotSpot calls these extension events as `(jvmtiEnv*, JNIEnv*, jthread)` through
        // the variadic `jvmtiExtensionEvent` type; on the C ABIs HotSpot runs on, calling a
        // function with fixed pointer parameters through a variadic pointer passes them in the
        // same registers.
        let err = unsafe {
            let cb: jvmtiExtensionEvent = Some(std::mem::transmute::<unsafe extern "C" fn(*mut jvmtiEnv, *mut JNIEnv, jthread), unsafe extern "C" fn(*mut jvmtiEnv, ...)>(f));
            jvmti_fn!(env, SetExtensionEventCallback)(env, index, cb)
        };
        if err != JVMTI_ERROR_NONE {
            log::warn(&format!("virtual threads are recorded on their carriers: SetExtensionEventCallback: {}", crate::jvmti_error_text(err)));
            return;
        }
        // The callback alone enables the event for the environment; HotSpot posts it only to
        // threads it is enabled for, which needs the notification mode too.
        if let Err(e) = crate::enable(env, index as jvmtiEvent, true) {
            log::warn(&format!("virtual threads are recorded on their carriers: {e}"));
            return;
        }
    }
}

/// The indexes of the mount and unmount extension events.
fn extension_events(env: *mut jvmtiEnv) -> Result<(jint, jint), String> {
    let mut count: jint = 0;
    let mut infos: *mut jvmtiExtensionEventInfo = ptr::null_mut();
    // SAFETY: env valid; both out-pointers are valid.
    let err = unsafe { jvmti_fn!(env, GetExtensionEvents)(env, &mut count, &mut infos) };
    if err != JVMTI_ERROR_NONE {
        return Err(format!("GetExtensionEvents: {}", crate::jvmti_error_text(err)));
    }
    let (mut mount, mut unmount) = (None, None);
    for i in 0..count.max(0) as usize {
        // SAFETY: JVMTI returned `count` entries at `infos`, each with JVMTI-allocated strings and
        // parameter arrays, which we read and free once.
        unsafe {
            let info = &*infos.add(i);
            let id = (!info.id.is_null()).then(|| CStr::from_ptr(info.id).to_string_lossy().into_owned());
            match id.as_deref() {
                Some(MOUNT_EVENT) => mount = Some(info.extension_event_index),
                Some(UNMOUNT_EVENT) => unmount = Some(info.extension_event_index),
                _ => {}
            }
            crate::deallocate(env, info.id as *mut u8);
            crate::deallocate(env, info.short_description as *mut u8);
            for p in 0..info.param_count.max(0) as usize {
                crate::deallocate(env, (*info.params.add(p)).name as *mut u8);
            }
            crate::deallocate(env, info.params as *mut u8);
        }
    }
    crate::deallocate(env, infos as *mut u8);
    match (mount, unmount) {
        (Some(m), Some(u)) => Ok((m, u)),
        _ => Err(format!("this VM has no {MOUNT_EVENT} and {UNMOUNT_EVENT} extension events")),
    }
}

/// A reader for threads whose metrics the probes' sampler credits: nothing to read per event.
struct CreditedBySampler;

impl ThreadMetrics for CreditedBySampler {
    fn read(&mut self, out: &mut [u64]) {
        out.fill(0);
    }
}

/// The virtual thread in `thread`'s JVMTI thread-local storage (a new reference to it).
fn stored(env: *mut jvmtiEnv, thread: jthread) -> Option<Arc<VThread>> {
    let mut data: *mut c_void = ptr::null_mut();
    // SAFETY: env valid; `thread` is the callback's live virtual thread; data a valid out-pointer.
    let err = unsafe { jvmti_fn!(env, GetThreadLocalStorage)(env, thread, &mut data) };
    if err != JVMTI_ERROR_NONE || data.is_null() {
        return None;
    }
    let p = data as *const VThread;
    // SAFETY: the storage holds a pointer from `Arc::into_raw` (set at the thread's start and
    // cleared before the reference is released at its end), so the VThread is alive; this adds
    // the reference the returned Arc releases.
    unsafe {
        Arc::increment_strong_count(p);
        Some(Arc::from_raw(p))
    }
}

/// The name a virtual thread goes by: its own, or `virtual-<thread id>` (most are unnamed).
fn name_of(env: *mut jvmtiEnv, jni: *mut JNIEnv, thread: jthread) -> String {
    // SAFETY: zeroed jvmtiThreadInfo is a valid out-struct.
    let mut ti: jvmtiThreadInfo = unsafe { std::mem::zeroed() };
    // SAFETY: env valid; `thread` the callback's virtual thread.
    let name = if unsafe { jvmti_fn!(env, GetThreadInfo)(env, thread, &mut ti) } == JVMTI_ERROR_NONE {
        // SAFETY: a JVMTI-allocated string (or null).
        unsafe { take_string(env, ti.name) }.unwrap_or_default()
    } else {
        String::new()
    };
    if !name.is_empty() {
        return name;
    }
    match java_thread_id(jni, thread) {
        Some(id) => format!("virtual-{id}"),
        None => "virtual".to_string(),
    }
}

/// A local reference to the class `name` (JNI form), or None (the exception cleared).
fn find_class(jni: *mut JNIEnv, name: &CStr) -> Option<jclass> {
    // SAFETY: jni is the calling thread's env; the name is NUL-terminated.
    unsafe {
        let class = jni_fn!(jni, FindClass)(jni, name.as_ptr());
        if class.is_null() {
            jni_fn!(jni, ExceptionClear)(jni);
            return None;
        }
        Some(class)
    }
}

/// `Thread.threadId()` of `thread` (JDK 19+), through JNI.
fn java_thread_id(jni: *mut JNIEnv, thread: jthread) -> Option<i64> {
    static METHOD: OnceLock<usize> = OnceLock::new();
    let m = *METHOD.get_or_init(|| {
        let Some(class) = find_class(jni, c"java/lang/Thread") else { return 0 };
        // SAFETY: jni is the calling thread's env; `class` a live local reference; the method
        // name and signature are NUL-terminated.
        unsafe {
            let m = jni_fn!(jni, GetMethodID)(jni, class, c"threadId".as_ptr(), c"()J".as_ptr());
            if m.is_null() {
                jni_fn!(jni, ExceptionClear)(jni);
            }
            jni_fn!(jni, DeleteLocalRef)(jni, class);
            m as usize
        }
    });
    if m == 0 {
        return None;
    }
    // SAFETY: `thread` is a live java.lang.Thread; the method takes no argument and returns long.
    let id = unsafe { jni_fn!(jni, CallLongMethodA)(jni, thread, m as jmethodID, ptr::null()) };
    // SAFETY: as above.
    if unsafe { jni_fn!(jni, ExceptionCheck)(jni) } != 0 {
        // SAFETY: as above.
        unsafe { jni_fn!(jni, ExceptionClear)(jni) };
        return None;
    }
    Some(id)
}

/// With `calls=jvmti`, on a platform thread at its start: makes it a processor of green threads
/// (virtual threads may run on it) and returns the reader of its own share, for its recorder.
/// None with probes (the sampler is retargeted instead) or without virtual-thread support.
pub(crate) fn carrier_reader(b: &Backend, thread: jthread) -> Option<Box<dyn ThreadMetrics>> {
    let cfg = SUPPORT.get()?.green.clone()?;
    if !is_carrier(thread) {
        return None;
    }
    let mut p = Processor::open(0, cfg.clone(), b.recorder.metric_set());
    let own = Account::new(&cfg);
    p.switch(Some(own.clone()));
    green::install(p);
    CARRIER_ACCOUNT.with(|a| *a.borrow_mut() = Some(own.clone()));
    Some(Box::new(GreenThreadMetrics::new(own, cfg)))
}

/// Whether `thread` (null: the calling thread) is a carrier of virtual threads
/// (`jdk.internal.misc.CarrierThread`, the default scheduler's worker threads).
fn is_carrier(thread: jthread) -> bool {
    static CARRIER: OnceLock<usize> = OnceLock::new();
    let Ok(jni) = crate::current_jni() else { return false };
    let class = *CARRIER.get_or_init(|| {
        let Some(local) = find_class(jni, c"jdk/internal/misc/CarrierThread") else { return 0 };
        // SAFETY: jni is the calling thread's env, `local` a live local reference. The global
        // reference is kept for the VM's life.
        unsafe {
            let global = jni_fn!(jni, NewGlobalRef)(jni, local);
            jni_fn!(jni, DeleteLocalRef)(jni, local);
            global as usize
        }
    });
    if class == 0 {
        return false;
    }
    let mut local = thread;
    if local.is_null() {
        let Some(b) = BACKEND.get() else { return false };
        let env = b.env as *mut jvmtiEnv;
        // SAFETY: env valid; `local` a valid out-pointer.
        if unsafe { jvmti_fn!(env, GetCurrentThread)(env, &mut local) } != JVMTI_ERROR_NONE || local.is_null() {
            return false;
        }
    }
    // SAFETY: `local` is a live Thread reference and `class` a global class reference.
    let is = unsafe { jni_fn!(jni, IsInstanceOf)(jni, local, class as jclass) } != 0;
    if local != thread {
        // SAFETY: the local reference GetCurrentThread made above.
        unsafe { jni_fn!(jni, DeleteLocalRef)(jni, local) };
    }
    is
}

/// The carrier's processor switches to `to` (with `calls=jvmti`).
fn switch_account(to: Option<Arc<Account>>) {
    let to = to.or_else(|| CARRIER_ACCOUNT.with(|a| a.borrow().clone()));
    green::with_processor(|p| {
        p.switch(to);
    });
}

fn started(b: &Backend, env: *mut jvmtiEnv, jni: *mut JNIEnv, thread: jthread) -> Option<Arc<VThread>> {
    let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
    let info = ThreadInfo { name: name_of(env, jni, thread), kind: Some("virtual".into()), os_tid: None };
    let green = SUPPORT.get().and_then(|s| s.green.clone());
    let account = green.as_ref().map(Account::new);
    let recorder = match (&account, green) {
        // A green account reads from anywhere (its finished intervals).
        (Some(a), Some(cfg)) => b.recorder.register_thread_readable_anywhere(info.clone(), Box::new(GreenThreadMetrics::new(a.clone(), cfg))),
        _ => b.recorder.register_thread(info.clone(), Box::new(CreditedBySampler)),
    };
    if b.can_method_events {
        if let Some(stack) = ThreadStack::new(env, jni, thread) {
            b.recorder.set_remote_stack(&recorder, Box::new(stack));
        }
    }
    let v = Arc::new(VThread { id, recorder, account, probes: OnceLock::new() });
    if let Some(rt) = probes::runtime() {
        rt.vthread_started(jni, thread, v.id, &v.recorder, &v.probes);
    }
    b.hooks.vthread_started(id, &info);
    let raw = Arc::into_raw(v.clone()) as *const c_void;
    // SAFETY: env valid; `thread` the callback's virtual thread. The storage keeps the reference
    // made by `into_raw` until `ended` takes it back.
    let err = unsafe { jvmti_fn!(env, SetThreadLocalStorage)(env, thread, raw) };
    if err != JVMTI_ERROR_NONE {
        // SAFETY: the reference made just above, not stored.
        unsafe { drop(Arc::from_raw(raw as *const VThread)) };
        log::debug(&format!("SetThreadLocalStorage on a virtual thread: {}", crate::jvmti_error_text(err)));
    }
    Some(v)
}

/// The carrier (the calling OS thread) now runs `v`.
fn mount(b: &Backend, v: Arc<VThread>) {
    match MOUNTED.with(|m| m.borrow().as_ref().map(|(w, _)| w.id)) {
        // HotSpot posts both VirtualThreadStart and a mount at a thread's first mount.
        Some(id) if id == v.id => return,
        Some(id) => {
            log::debug(&format!("virtual thread {} mounted over {id}: an unmount was not posted", v.id));
            unmount(b);
        }
        None => {}
    }
    let own = CURRENT.with(|c| c.try_borrow_mut().ok().map(|mut s| s.replace(v.recorder.clone())));
    let Some(own) = own else { return };
    MOUNTED.with(|m| *m.borrow_mut() = Some((v.clone(), own)));
    if let Some(rt) = probes::runtime() {
        rt.mount(v.id, &v.probes);
    }
    if v.account.is_some() {
        switch_account(v.account.clone());
    }
    b.hooks.vthread_mounted(v.id);
}

/// The carrier leaves the virtual thread it runs (if any): it works for itself again.
fn unmount(b: &Backend) -> Option<Arc<VThread>> {
    let (v, own) = MOUNTED.with(|m| m.borrow_mut().take())?;
    b.hooks.vthread_unmounted(v.id);
    if let Some(rt) = probes::runtime() {
        rt.unmount(v.id, &v.probes);
    }
    if v.account.is_some() {
        switch_account(None);
    }
    CURRENT.with(|c| {
        if let Ok(mut s) = c.try_borrow_mut() {
            *s = own;
        }
    });
    Some(v)
}

fn live(b: &Backend) -> bool {
    !b.dead.load(Ordering::Acquire) && b.live.load(Ordering::Acquire)
}

/// VirtualThreadStart: on the carrier, the virtual thread current (its first mount).
pub(crate) unsafe extern "C" fn on_start(env: *mut jvmtiEnv, jni: *mut JNIEnv, thread: jthread) {
    guard("VirtualThreadStart", || {
        let Some(b) = BACKEND.get().filter(|b| live(b)) else { return };
        if let Some(v) = started(b, env, jni, thread) {
            mount(b, v);
        }
    })
}

/// VirtualThreadEnd: on the carrier, the virtual thread still current (no unmount follows).
pub(crate) unsafe extern "C" fn on_end(env: *mut jvmtiEnv, jni: *mut JNIEnv, thread: jthread) {
    guard("VirtualThreadEnd", || {
        let Some(b) = BACKEND.get() else { return };
        let mounted = unmount(b);
        let v = match stored(env, thread) {
            Some(v) => {
                // SAFETY: env valid; clears the storage before its reference is released below.
                let err = unsafe { jvmti_fn!(env, SetThreadLocalStorage)(env, thread, ptr::null()) };
                if err == JVMTI_ERROR_NONE {
                    // SAFETY: the reference `started` stored (the pointer `into_raw` gave), no
                    // longer reachable through the storage; `v` holds another.
                    unsafe { drop(Arc::from_raw(Arc::as_ptr(&v))) };
                }
                v
            }
            None => match mounted {
                Some(v) => v,
                None => return,
            },
        };
        if b.dead.load(Ordering::Acquire) {
            return;
        }
        if let Some(rt) = probes::runtime() {
            rt.vthread_ended(jni, v.id);
        }
        b.recorder.end_thread(&v.recorder);
    })
}

/// VirtualThreadMount (extension event): on the carrier, after the mount.
unsafe extern "C" fn on_mount(env: *mut jvmtiEnv, jni: *mut JNIEnv, thread: jthread) {
    guard("VirtualThreadMount", || {
        let Some(b) = BACKEND.get().filter(|b| live(b)) else { return };
        // A virtual thread started before recording could see it is taken at its next mount.
        let v = stored(env, thread).or_else(|| started(b, env, jni, thread));
        if let Some(v) = v {
            mount(b, v);
        }
    })
}

/// VirtualThreadUnmount (extension event): on the carrier, before the unmount.
unsafe extern "C" fn on_unmount(_env: *mut jvmtiEnv, _jni: *mut JNIEnv, _thread: jthread) {
    guard("VirtualThreadUnmount", || {
        let Some(b) = BACKEND.get().filter(|b| !b.dead.load(Ordering::Acquire)) else { return };
        unmount(b);
    })
}
