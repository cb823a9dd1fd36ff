//! Stack sampling on HotSpot (`sample=cpu`): the sampler's SIGPROF handler walks the interrupted
//! Java stack with HotSpot's `AsyncGetCallTrace` (AGCT), guarded against faults, and stores the
//! raw frames (jmethodIDs and bytecode indexes) in the thread's ring; a drain names them and adds
//! them to the thread's sampled tree in the recorder.
//!
//! - **The walker**: AGCT is exported by libjvm.so but not declared in any header; it is found with
//!   `dlsym`. It needs the thread's `JNIEnv` (the handle each thread's sampling starts with) and
//!   jmethodIDs that already exist (it cannot make one in a signal handler), so every class gets
//!   its ids made at ClassPrepare, and the classes loaded before sampling started when it starts.
//! - **Faults**: each walk runs inside `hpm_guarded_call` (`native/fault_guard.c`): a SIGSEGV or
//!   SIGBUS during the walk abandons it (the sample becomes a failed walk, counted), every other
//!   fault goes to HotSpot's own handler, which uses them for null checks and safepoint polls.
//! - **Drains**: a daemon thread of the agent's own (`hpm-stack-drain`, attached to the VM, never
//!   recorded) drains every thread's ring every 100 ms; dumps drain first too, and a thread's
//!   last samples are drained on the thread itself at its ThreadEnd.
//! - **Shared with the probes**: with bytecode probes the same sampler (one per process: one
//!   SIGPROF handler) also credits time to their exact contexts; each thread is started once, by
//!   the probes' runtime, and handed over here.

use std::ffi::{c_int, c_void};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::Duration;

use hpm_collectors::recorder::ThreadRecorder;
use hpm_model::sampling::FrameForm;
use hpm_collectors::sampling::{CodeAt, ContextSampler, RawFrame, SampledThread, StackWalker};
use hpm_support::{lock, log};

use crate::fault_guard::{faults_caught, hpm_guarded_call, install_fault_guard, AsgctFn, WALK_FAULTED, WALK_UNGUARDED};
use crate::method_ids::make_method_ids;
use crate::names::Resolver;
use crate::sys::jvmti::*;
use crate::compilers::{CompilerLayout, CompilerWatch};
use crate::frames::{Anchor, FrameLayout, Regs, THREAD_IN_VM};
use crate::vmstructs::{self, CodeLayout};
use crate::{deallocate, jvmti_fn, AgentThread, BACKEND};

/// `ASGCT_CallTrace` of HotSpot's `forte.cpp`: the thread's JNIEnv in, the frame count (or a
/// negative failure code) out, frames written to `frames` (laid out as [`RawFrame`]).
#[repr(C)]
struct CallTrace {
    env: *mut JNIEnv,
    num_frames: c_int,
    frames: *mut RawFrame,
}

/// HotSpot's code cache as VMStructs describe it, read at VMInit; the walker classifies each
/// sample's program counter with it. Unset (forms come from the code map, if any) where the
/// tables lack a field it needs.
static CODE_LAYOUT: OnceLock<CodeLayout> = OnceLock::new();

/// The frame layout for placing every frame of a sample (`frames.rs`); unset where the tables
/// lack a field, or off x86-64: then only the innermost frames get a form.
static FRAME_LAYOUT: OnceLock<FrameLayout> = OnceLock::new();

/// How far a thread's `JNIEnv` lies after its `JavaThread` (HotSpot embeds the one in the other);
/// 0 while not known. The walker needs the `JavaThread` for its last Java frame.
static JNI_ENV_OFFSET: AtomicUsize = AtomicUsize::new(0);

/// Reads the code cache's layout and the frame layout (VMInit, before sampling goes live), and
/// finds the `JNIEnv`'s place in `JavaThread` from the initial thread (`jni`).
pub(crate) fn read_code_layout(env: *mut jvmtiEnv, jni: *mut JNIEnv) {
    let Some(vs) = vmstructs::tables() else { return };
    if let Err(e) = read_code_cache(vs) {
        log::info(&format!("{e}: execution forms come from the code map (collect=code) only"));
        return;
    }
    match FrameLayout::read(vs) {
        Ok(l) => {
            let _ = FRAME_LAYOUT.set(l);
        }
        Err(e) => log::info(&format!("{e}: only the innermost frames of stack samples get an execution form")),
    }
    match jni_env_offset(env, jni, vs) {
        Ok(off) => JNI_ENV_OFFSET.store(off, Ordering::Release),
        Err(e) => log::info(&format!("{e}: samples in native or VM code get no forms for their Java frames")),
    }
}

/// Reads the code cache's layout once (VMInit or later, once the code cache exists).
pub(crate) fn read_code_cache(vs: &vmstructs::VmStructs) -> Result<&'static CodeLayout, String> {
    if let Some(l) = CODE_LAYOUT.get() {
        return Ok(l);
    }
    let l = CodeLayout::read(vs)?;
    Ok(CODE_LAYOUT.get_or_init(|| l))
}

/// The code cache's layout, once read.
pub(crate) fn code_layout() -> Option<&'static CodeLayout> {
    CODE_LAYOUT.get()
}

/// The offset of `JavaThread::_jni_environment` (not in HotSpot's tables): the calling thread's
/// `JNIEnv` minus its `JavaThread`, which `java.lang.Thread.eetop` holds.
fn jni_env_offset(env: *mut jvmtiEnv, jni: *mut JNIEnv, vs: &vmstructs::VmStructs) -> Result<usize, String> {
    let mut thread: jthread = std::ptr::null_mut();
    // SAFETY: env valid in the live phase; out-pointer valid.
    if unsafe { jvmti_fn!(env, GetCurrentThread)(env, &mut thread) } != JVMTI_ERROR_NONE || thread.is_null() {
        return Err("GetCurrentThread failed".into());
    }
    let java_thread = eetop(jni, thread);
    crate::names::delete_local(jni, thread);
    let size = vs.size("JavaThread")?;
    let off = (jni as usize).wrapping_sub(java_thread);
    if java_thread == 0 || off == 0 || off >= size {
        return Err(format!("java.lang.Thread.eetop does not locate this thread's JNIEnv (offset {off:#x})"));
    }
    Ok(off)
}

/// `thread.eetop`: the address of the `JavaThread` of a live platform thread (`thread` a reference
/// to its `java.lang.Thread`), 0 before its start and after its end, or where there is no such field.
fn eetop(jni: *mut JNIEnv, thread: jthread) -> usize {
    // SAFETY: jni is the calling thread's; the class and field are checked before use, and a
    // pending NoSuchFieldError is cleared.
    unsafe {
        let k = crate::jni_fn!(jni, GetObjectClass)(jni, thread);
        let id = crate::jni_fn!(jni, GetFieldID)(jni, k, c"eetop".as_ptr(), c"J".as_ptr());
        if crate::jni_fn!(jni, ExceptionCheck)(jni) != 0 {
            crate::jni_fn!(jni, ExceptionClear)(jni);
        }
        let v = if id.is_null() { 0 } else { crate::jni_fn!(jni, GetLongField)(jni, thread, id) };
        crate::names::delete_local(jni, k);
        v as usize
    }
}

/// The OS thread id and the JNIEnv of a live platform thread (`thread` a reference to its
/// `java.lang.Thread`), from its `eetop` (the `JavaThread`) through HotSpot's tables: for threads
/// that run no code of the agent's (a late attach). None where the tables or the offset of the
/// JNIEnv are not known, or the thread has ended.
pub(crate) fn os_thread_of(jni: *mut JNIEnv, thread: jthread) -> Option<(i32, usize)> {
    let offset = JNI_ENV_OFFSET.load(Ordering::Acquire);
    let vs = vmstructs::tables()?;
    let osthread = vs.offset_of_any(&[("JavaThread", "_osthread"), ("Thread", "_osthread")]).ok()?;
    let thread_id = vs.offset("OSThread", "_thread_id").ok()?;
    if offset == 0 {
        return None;
    }
    let java_thread = eetop(jni, thread);
    if java_thread == 0 {
        return None; // not started, or ended
    }
    let tid = crate::fault_guard::guarded_read(&mut || {
        // SAFETY: inside the fault guard; a JavaThread that ends meanwhile faults at worst.
        unsafe {
            let os: usize = std::ptr::read_volatile((java_thread + osthread) as *const usize);
            if os == 0 {
                0
            } else {
                std::ptr::read_volatile((os + thread_id) as *const i32)
            }
        }
    })?;
    (tid > 0).then_some((tid, java_thread + offset))
}

/// The interrupted registers of a signal's `ucontext` (x86-64 only: elsewhere no frame layout is
/// read, so they are not needed).
///
/// # Safety
/// `ucontext` is the `ucontext_t` of the signal being handled, or null.
pub(crate) unsafe fn registers(ucontext: *mut c_void, pc: u64) -> Option<Regs> {
    #[cfg(target_arch = "x86_64")]
    if !ucontext.is_null() {
        // SAFETY: the caller's contract.
        let g = unsafe { &(*(ucontext as *const libc::ucontext_t)).uc_mcontext.gregs };
        return Some(Regs { pc: pc as usize, sp: g[libc::REG_RSP as usize] as usize, fp: g[libc::REG_RBP as usize] as usize });
    }
    let _ = (ucontext, pc);
    None
}

/// Whether stack samples keep their native code frames (`sample-native=on`).
static NATIVE_FRAMES: AtomicBool = AtomicBool::new(false);

/// The most native code frames one sample keeps above its Java frames.
const MAX_NATIVE_FRAMES: usize = 32;

/// Stack samples keep the native code frames above their Java frames, followed by frame pointers
/// from the interrupted registers (`sample-native=on`).
pub(crate) fn keep_native_frames(on: bool) {
    NATIVE_FRAMES.store(on, Ordering::Relaxed);
}

/// AGCT's codes for a thread in Java whose interrupted frame it could not start from, or not
/// walk from (`forte.cpp`: `ticks_unknown_Java`, `ticks_not_walkable_Java`).
const TICKS_UNKNOWN_JAVA: c_int = -5;
const TICKS_NOT_WALKABLE_JAVA: c_int = -6;
/// AGCT's codes for a thread in VM or native code: no walkable last Java frame, or none found
/// from it (`ticks_unknown_not_Java`, `ticks_not_walkable_not_Java`); and no Java frame at all.
const TICKS_UNKNOWN_NOT_JAVA: c_int = -3;
const TICKS_NOT_WALKABLE_NOT_JAVA: c_int = -4;
const TICKS_NO_JAVA_FRAME: c_int = 0;

/// Puts `regs` into a signal context (a copy: the signal's own is the thread's to resume).
#[cfg(target_arch = "x86_64")]
fn set_registers(context: &mut libc::ucontext_t, regs: Regs) {
    let g = &mut context.uc_mcontext.gregs;
    g[libc::REG_RIP as usize] = regs.pc as i64;
    g[libc::REG_RSP as usize] = regs.sp as i64;
    g[libc::REG_RBP as usize] = regs.fp as i64;
}
#[cfg(not(target_arch = "x86_64"))]
fn set_registers(_context: &mut libc::ucontext_t, _regs: Regs) {}

/// A frame whose method has no jmethodID (AGCT writes null): a key no method has, so the
/// resolver leaves it out and its cost goes to its caller.
const NO_METHOD_ID: u64 = 1;

/// HotSpot's `AsyncGetCallTrace`, run under the fault guard.
pub struct AsgctWalker {
    asgct: AsgctFn,
}

impl AsgctWalker {
    /// Finds AGCT in the process (libjvm.so is loaded with RTLD_GLOBAL by the launcher) and
    /// installs the fault guard. The error says what is missing.
    pub fn find() -> Result<AsgctWalker, String> {
        // SAFETY: dlsym with RTLD_DEFAULT and a NUL-terminated name only looks a symbol up.
        let p = unsafe { libc::dlsym(libc::RTLD_DEFAULT, c"AsyncGetCallTrace".as_ptr()) };
        if p.is_null() {
            return Err("this JVM does not export AsyncGetCallTrace (not HotSpot?); stack sampling needs it".into());
        }
        // SAFETY: AsyncGetCallTrace has this signature in every HotSpot since JDK 6 (forte.cpp).
        let asgct: AsgctFn = unsafe { std::mem::transmute::<*mut c_void, AsgctFn>(p) };
        Ok(AsgctWalker { asgct })
    }
}

impl StackWalker for AsgctWalker {
    unsafe fn walk(&self, thread: usize, ucontext: *mut c_void, pc: u64, out: &mut [RawFrame], code: &mut CodeAt) -> i32 {
        if !crate::fault_guard::guard_ready() {
            return WALK_UNGUARDED;
        }
        /// One guarded call does both the walk and the code lookup (each guarded call saves the
        /// signal mask: a system call).
        struct Walk<'a> {
            asgct: AsgctFn,
            trace: CallTrace,
            depth: c_int,
            pc: usize,
            regs: Option<Regs>,
            java_thread: usize,
            code: &'a mut CodeAt,
            /// Set once AGCT and the code lookup are done: a fault after it (while placing frames
            /// on the physical stack) keeps their answers, with the forms placed so far.
            walked: bool,
            /// The thread's anchor as it was, while `walk_from_anchor` has changed it.
            anchor_saved: Option<Anchor>,
            /// Native code frames put before AGCT's (`sample-native=on`).
            native: usize,
        }
        unsafe extern "C" fn walk_then_locate(arg: *mut c_void, _depth: c_int, ucontext: *mut c_void) {
            // SAFETY: `arg` is the `Walk` below, alive for the guarded call; AGCT writes at most
            // `depth` frames; the lookup reads VM memory under the same guard. Nothing here has
            // a destructor, so a fault's jump back over this frame skips nothing.
            unsafe {
                let w = &mut *(arg as *mut Walk);
                if let (true, Some(layout), Some(frame_layout), Some(regs)) = (NATIVE_FRAMES.load(Ordering::Relaxed), CODE_LAYOUT.get(), FRAME_LAYOUT.get(), w.regs) {
                    // Native code frames first (innermost first), then AGCT's Java frames.
                    let mut pcs = [0usize; MAX_NATIVE_FRAMES];
                    let k = frame_layout.native_frames(layout, regs, &mut pcs).min(w.depth.max(1) as usize - 1);
                    for (i, pc) in pcs[..k].iter().enumerate() {
                        std::ptr::write(w.trace.frames.add(i), RawFrame::new(RawFrame::NATIVE_CODE, *pc as u64));
                    }
                    w.trace.frames = w.trace.frames.add(k);
                    w.depth -= k as c_int;
                    std::ptr::write_volatile(&mut w.native, k);
                }
                (w.asgct)(&mut w.trace as *mut CallTrace as *mut c_void, w.depth, ucontext);
                let mut caller = None;
                if matches!(w.trace.num_frames, TICKS_UNKNOWN_JAVA | TICKS_NOT_WALKABLE_JAVA) {
                    caller = walk_from_caller(w, ucontext);
                }
                if matches!(w.trace.num_frames, TICKS_UNKNOWN_NOT_JAVA | TICKS_NOT_WALKABLE_NOT_JAVA) {
                    walk_from_anchor(w, ucontext);
                }
                let n = w.trace.num_frames.min(w.depth);
                if let (true, Some(layout)) = (n > 0, CODE_LAYOUT.get()) {
                    let frames = std::slice::from_raw_parts_mut(w.trace.frames, n as usize);
                    // Volatile: the caller reads these after a fault's jump back.
                    std::ptr::write_volatile(w.code, layout.code_at(w.pc, frames));
                    if let (Some(frame_layout), Some(regs)) = (FRAME_LAYOUT.get(), w.regs) {
                        std::ptr::write_volatile(&mut w.walked, true);
                        match caller {
                            // The interrupted compiled method's own frame, then its callers'.
                            Some((caller_regs, first)) => {
                                frame_layout.place(layout, regs, w.java_thread, &mut frames[..first]);
                                frame_layout.place(layout, caller_regs, w.java_thread, &mut frames[first..]);
                            }
                            None => frame_layout.place(layout, regs, w.java_thread, frames),
                        }
                    }
                }
            }
        }
        /// Where AGCT refused to start from the interrupted frame (HotSpot's frame checks
        /// refuse a compiled method in its prologue or epilogue, a stub without a frame, a leaf
        /// call out of Java), walks again from its caller ([`FrameLayout::caller_of_top`]),
        /// with a copy of the signal's context whose registers are the caller's; the
        /// interrupted compiled method, where there is one, goes first with an unknown
        /// position. The caller's registers and the number of frames put before AGCT's, if
        /// that walk succeeded.
        ///
        /// # Safety
        /// Under the fault guard, in `walk_then_locate`.
        unsafe fn walk_from_caller(w: &mut Walk, ucontext: *mut c_void) -> Option<(Regs, usize)> {
            let (Some(layout), Some(frame_layout), Some(regs)) = (CODE_LAYOUT.get(), FRAME_LAYOUT.get(), w.regs) else { return None };
            if ucontext.is_null() {
                return None;
            }
            // SAFETY (all): the caller's contract; the copy lives on this stack for AGCT's call.
            unsafe {
                let (caller, top) = frame_layout.caller_of_top(layout, regs)?;
                let id = layout.method_id(top);
                let first = usize::from(id != 0);
                if w.depth <= first as c_int {
                    return None;
                }
                let mut context = std::ptr::read(ucontext as *const libc::ucontext_t);
                set_registers(&mut context, caller);
                let mut retry = CallTrace { env: w.trace.env, num_frames: 0, frames: w.trace.frames.add(first) };
                (w.asgct)(&mut retry as *mut CallTrace as *mut c_void, w.depth - first as c_int, &mut context as *mut libc::ucontext_t as *mut c_void);
                if retry.num_frames <= 0 {
                    return None;
                }
                if first == 1 {
                    std::ptr::write(w.trace.frames, RawFrame::new(-1, id));
                }
                w.trace.num_frames = retry.num_frames + first as c_int;
                Some((caller, first))
            }
        }
        /// Where AGCT found no walkable last Java frame for a thread in the VM (HotSpot records
        /// the frame without its return address until someone needs it, or the frame is a
        /// runtime stub's that AGCT does not step over), walks again with the thread's anchor
        /// pointing at the Java frame under it ([`FrameLayout::walkable_anchor`]), and puts the
        /// anchor back. A thread without a last Java frame has no Java frame at all: said so.
        ///
        /// Only a thread in the VM, whose stack no other thread walks until it leaves the VM
        /// (safepoints and handshakes wait for it), is changed, and only for the walk: the
        /// anchor is restored before the signal handler returns, also after a fault (`walk`).
        ///
        /// # Safety
        /// Under the fault guard, in `walk_then_locate`.
        unsafe fn walk_from_anchor(w: &mut Walk, ucontext: *mut c_void) {
            let (Some(layout), Some(frame_layout)) = (CODE_LAYOUT.get(), FRAME_LAYOUT.get()) else { return };
            if w.java_thread == 0 {
                return;
            }
            // SAFETY (all): the caller's contract; `java_thread` is the sampled (this) thread's.
            unsafe {
                let saved = frame_layout.anchor(w.java_thread);
                if saved.sp == 0 {
                    w.trace.num_frames = TICKS_NO_JAVA_FRAME;
                    return;
                }
                if frame_layout.thread_state(w.java_thread) != THREAD_IN_VM {
                    return;
                }
                let Some(patched) = frame_layout.walkable_anchor(layout, saved) else { return };
                std::ptr::write_volatile(&mut w.anchor_saved, Some(saved));
                frame_layout.set_anchor(w.java_thread, patched);
                (w.asgct)(&mut w.trace as *mut CallTrace as *mut c_void, w.depth, ucontext);
                frame_layout.set_anchor(w.java_thread, saved);
                std::ptr::write_volatile(&mut w.anchor_saved, None);
            }
        }
        let depth = out.len().min(i32::MAX as usize) as c_int;
        // AGCT writes methods and positions only: forms left from an earlier sample go.
        for f in out.iter_mut() {
            f.form = FrameForm::Unknown;
        }
        let offset = JNI_ENV_OFFSET.load(Ordering::Acquire);
        let java_thread = if offset == 0 { 0 } else { thread.wrapping_sub(offset) };
        // SAFETY: `ucontext` is this signal's (the caller's contract).
        let regs = unsafe { registers(ucontext, pc) };
        let mut w = Walk {
            asgct: self.asgct,
            trace: CallTrace { env: thread as *mut JNIEnv, num_frames: 0, frames: out.as_mut_ptr() },
            depth,
            pc: pc as usize,
            regs,
            java_thread,
            code,
            walked: false,
            anchor_saved: None,
            native: 0,
        };
        // SAFETY: AGCT reads the signal's ucontext and the thread's own JNIEnv (`thread`): both
        // valid by this function's contract; `out` has room for `depth` frames. The guard abandons
        // the call on a fault.
        let rc = unsafe { hpm_guarded_call(walk_then_locate, &mut w as *mut Walk as *mut c_void, depth, ucontext) };
        // SAFETY: `w` is alive; a walk that faulted with the anchor changed left it here. The
        // anchor is this (live) thread's own.
        if let (Some(saved), Some(frame_layout)) = (unsafe { std::ptr::read_volatile(&w.anchor_saved) }, FRAME_LAYOUT.get()) {
            unsafe { frame_layout.set_anchor(w.java_thread, saved) };
        }
        // SAFETY: `w` is alive; the guarded call has returned.
        if rc != 0 && !unsafe { std::ptr::read_volatile(&w.walked) } {
            *w.code = CodeAt::unknown();
            return WALK_FAULTED;
        }
        let n = w.trace.num_frames;
        // SAFETY: `w` is alive; the guarded call has returned.
        let native = unsafe { std::ptr::read_volatile(&w.native) };
        let java = out.get_mut(native..).unwrap_or_default();
        for f in java.iter_mut().take(n.max(0) as usize) {
            if f.method == 0 {
                f.method = NO_METHOD_ID;
            }
        }
        // SAFETY: this thread's own JavaThread, in its signal handler.
        let state = unsafe { crate::states::sample_state(java_thread, java.get(..n.max(0) as usize).and_then(<[RawFrame]>::first)) };
        *w.code = w.code.with_state(state);
        // A failed walk is its code alone: its native frames are dropped.
        if n > 0 {
            n + native as c_int
        } else {
            n
        }
    }
}

/// The sampler's threads and the recorder's, paired; drained together.
pub(crate) struct StackRuntime {
    sampler: Arc<ContextSampler>,
    /// Whether this runtime starts threads' sampling itself (no bytecode probes to do it).
    own_threads: bool,
    threads: Mutex<Vec<Sampled>>,
    /// Stored, failed and put-off stack samples of threads that ended (for the summary).
    ended: Mutex<[u64; 3]>,
    drain_thread: Mutex<Option<DrainThread>>,
    /// The JIT compiler threads, looked at by the drain thread (None where HotSpot's structures
    /// cannot be read); stop and start look and rebase them at the window's edges.
    compilers: Mutex<Option<CompilerWatch>>,
}

#[derive(Clone)]
struct Sampled {
    sampled: Arc<SampledThread>,
    recorder: Arc<ThreadRecorder>,
}

static RUNTIME: OnceLock<StackRuntime> = OnceLock::new();

pub(crate) fn runtime() -> Option<&'static StackRuntime> {
    RUNTIME.get()
}

/// Sets the stack sampler up (before `init`); `own_threads` when no probe runtime starts threads.
pub(crate) fn install(sampler: Arc<ContextSampler>, own_threads: bool) {
    let _ = RUNTIME.set(StackRuntime { sampler, own_threads, threads: Mutex::new(Vec::new()), ended: Mutex::new([0; 3]), drain_thread: Mutex::new(None), compilers: Mutex::new(None) });
}

impl StackRuntime {
    /// VMInit: the fault guard in front of HotSpot's handlers, jmethodIDs for every loaded class,
    /// the drain thread; sampling held off if recording starts paused.
    pub(crate) fn go_live(&self, env: *mut jvmtiEnv, jni: *mut JNIEnv, vm: usize, paused: bool) {
        if let Err(e) = install_fault_guard() {
            // With probes the sampler still serves them; its samples are never walked.
            log::warn(&format!("{e}; stacks are not walked"));
            if self.own_threads {
                self.set_active(false);
            }
            return;
        }
        read_code_layout(env, jni);
        make_method_ids_of_loaded_classes(env, jni);
        // With probes their runtime holds the shared sampler off while paused.
        if paused && self.own_threads {
            self.set_active(false);
        }
        match DrainThread::start(vm) {
            Ok(d) => *lock(&self.drain_thread) = Some(d),
            Err(e) => log::warn(&format!("cannot start the stack drain thread ({e}): samples are drained only at dumps")),
        }
    }

    /// Starts sampling the calling thread (ThreadStart, or VMInit for the initial thread): by this
    /// runtime, or, with probes, handed over from theirs (`sampled`).
    pub(crate) fn thread_started(&self, jni: *mut JNIEnv, t: &Arc<ThreadRecorder>, sampled: Option<Arc<SampledThread>>) {
        let sampled = match sampled {
            Some(s) => Some(s),
            None if self.own_threads => {
                // No probes: the context cell stays 0 (the sampler's credits are not used).
                let cell = hpm_collectors::lines::new_cell();
                match self.sampler.start_current_thread_walked(cell, jni as usize) {
                    Ok(s) => Some(s),
                    Err(e) => {
                        log::debug(&format!("thread not sampled: {e}"));
                        None
                    }
                }
            }
            None => None,
        };
        if let Some(sampled) = sampled {
            lock(&self.threads).push(Sampled { sampled, recorder: t.clone() });
        }
    }

    /// Whether this runtime starts the threads' samplers itself (no probes: with probes their
    /// runtime starts them at a thread's start or first probe, and hands them over).
    pub(crate) fn owns_threads(&self) -> bool {
        self.own_threads
    }

    /// After a late attach: starts sampling thread `tid`, which ran before the agent came (it
    /// gets no ThreadStart), from the calling thread; `thread_env` is its JNIEnv, which the walker
    /// is given ([`os_thread_of`]).
    pub(crate) fn adopt(&self, tid: i32, thread_env: usize, t: &Arc<ThreadRecorder>) -> Result<(), String> {
        let cell = hpm_collectors::lines::new_cell();
        let sampled = self.sampler.start_thread_walked(tid, cell, thread_env)?;
        lock(&self.threads).push(Sampled { sampled, recorder: t.clone() });
        Ok(())
    }

    /// ThreadEnd, on the thread: its last samples go to the recorder now.
    pub(crate) fn thread_ended(&self, env: *mut jvmtiEnv, jni: *mut JNIEnv, t: &Arc<ThreadRecorder>) {
        let mine: Vec<Sampled> = {
            let mut all = lock(&self.threads);
            let (mine, rest) = std::mem::take(&mut *all).into_iter().partition(|s| Arc::ptr_eq(&s.recorder, t));
            *all = rest;
            mine
        };
        for s in mine {
            if self.own_threads {
                s.sampled.stop();
            }
            drain_one(env, jni, &s);
            let st = s.sampled.stats();
            let mut e = lock(&self.ended);
            e[0] += st.stacks;
            e[1] += st.walk_failures;
            e[2] += st.stacks_full;
        }
    }

    /// Moves every thread's samples into the recorder (the drain thread, and before snapshots).
    /// The calling thread must be attached to the VM.
    pub(crate) fn drain_all(&self, env: *mut jvmtiEnv, jni: *mut JNIEnv) {
        // A copy of the list: threads start and end while names are resolved.
        let threads = lock(&self.threads).clone();
        for s in &threads {
            drain_one(env, jni, s);
        }
    }

    fn set_active(&self, on: bool) {
        if let Err(e) = self.sampler.set_active(on) {
            log::warn(&format!("stack sampling: {e}"));
        }
    }

    /// Recording stops: without probes (whose runtime holds the shared sampler off itself) the
    /// sampler is held off; then every sample taken so far goes to the recorder, still recording.
    pub(crate) fn stop(&self, env: *mut jvmtiEnv, jni: *mut JNIEnv) {
        if self.own_threads {
            self.set_active(false);
        }
        self.drain_all(env, jni);
        // The compilers' time up to now belongs to the window that closes.
        if let (Some(w), Some(b)) = (lock(&self.compilers).as_mut(), BACKEND.get()) {
            w.look(&b.recorder);
        }
    }

    /// Recording starts again: every thread's next sample counts from now (without probes; their
    /// runtime rebases the shared sampler's threads itself), then the sampler runs.
    pub(crate) fn start(&self) {
        // What the compilers used while recording was stopped is not the next window's.
        if let Some(w) = lock(&self.compilers).as_mut() {
            w.rebase();
        }
        if self.own_threads {
            for s in lock(&self.threads).iter() {
                s.sampled.rebase();
            }
            self.set_active(true);
        }
    }

    /// Drops the samples not drained yet (reset).
    pub(crate) fn discard_all(&self) {
        for s in lock(&self.threads).iter() {
            s.sampled.drain_stacks(&mut |_, _, _| {});
        }
    }

    /// VMDeath: the drain thread stops (the final dump drains what is left).
    pub(crate) fn stop_draining(&self) {
        if let Some(d) = lock(&self.drain_thread).take() {
            d.stop();
        }
    }

    /// One line for `log=info` and the reports: walks, failures, faults.
    pub(crate) fn summary(&self) -> String {
        let [mut stacks, mut failures, mut full] = *lock(&self.ended);
        for s in lock(&self.threads).iter() {
            let st = s.sampled.stats();
            stacks += st.stacks;
            failures += st.walk_failures;
            full += st.stacks_full;
        }
        format!(
            "stack samples: {stacks} stored, {failures} of them without a Java stack, {full} put off by a full ring; {} walk(s) faulted and were abandoned",
            faults_caught()
        )
    }
}

fn drain_one(env: *mut jvmtiEnv, jni: *mut JNIEnv, s: &Sampled) {
    let Some(b) = BACKEND.get() else { return };
    let mut r = Resolver::for_sampled_frames(env, jni);
    s.sampled.drain_stacks(&mut |weights, site, frames| b.recorder.add_stack_sample(&s.recorder, frames, site, weights, &mut r));
}

/// The deepest allocating stack an allocation sample keeps (the outermost frames are cut).
const ALLOC_SAMPLE_DEPTH: usize = 256;

/// One allocation sample (SampledObjectAlloc, on the allocating thread): its stack through
/// JVMTI's GetStackTrace (allowed in this callback), its class, into the recorder.
pub(crate) fn alloc_sample(env: *mut jvmtiEnv, jni: *mut JNIEnv, t: &ThreadRecorder, klass: jclass, bytes: u64) {
    let Some(b) = BACKEND.get() else { return };
    let mut frames: [jvmtiFrameInfo; ALLOC_SAMPLE_DEPTH] = [jvmtiFrameInfo { method: std::ptr::null_mut(), location: 0 }; ALLOC_SAMPLE_DEPTH];
    let mut count: jint = 0;
    // SAFETY: env valid (live phase, the callback's thread); null thread = the current one; the
    // buffer holds ALLOC_SAMPLE_DEPTH frames.
    let err = unsafe { jvmti_fn!(env, GetStackTrace)(env, std::ptr::null_mut(), 0, ALLOC_SAMPLE_DEPTH as jint, frames.as_mut_ptr(), &mut count) };
    if err != JVMTI_ERROR_NONE {
        return;
    }
    let raw: Vec<RawFrame> = frames[..count.max(0) as usize]
        .iter()
        .map(|f| RawFrame::new(f.location.clamp(-1, i32::MAX as jlong) as i32, f.method as u64))
        .collect();
    let class = crate::names::class_signature(env, klass).map(|s| crate::names::distinct_class_name(&s)).unwrap_or_else(|| "(unknown class)".into());
    let mut r = Resolver::new(env, jni);
    b.recorder.add_alloc_sample(t, &raw, &class, bytes, &mut r);
}

fn make_method_ids_of_loaded_classes(env: *mut jvmtiEnv, jni: *mut JNIEnv) {
    let mut count: jint = 0;
    let mut classes: *mut jclass = std::ptr::null_mut();
    // SAFETY: env valid (live phase); out-pointers valid.
    let err = unsafe { jvmti_fn!(env, GetLoadedClasses)(env, &mut count, &mut classes) };
    if err != JVMTI_ERROR_NONE || classes.is_null() {
        log::debug("GetLoadedClasses failed: classes loaded before VMInit may show as frames without a method");
        return;
    }
    for i in 0..count.max(0) as usize {
        // SAFETY: GetLoadedClasses returned `count` local references at `classes`.
        let k = unsafe { *classes.add(i) };
        make_method_ids(env, k);
        crate::names::delete_local(jni, k);
    }
    deallocate(env, classes as *mut u8);
}

/// How often the drain thread drains the rings.
const DRAIN_INTERVAL: Duration = Duration::from_millis(100);
/// How often it looks at the JIT compiler threads (`compilers.rs`).
const COMPILER_LOOK_INTERVAL: Duration = Duration::from_millis(10);

/// The thread that drains every sampled thread's ring into the recorder every 100 ms (rings
/// stay small, and names are resolved off the sampled threads), and looks at the JIT compiler
/// threads every 10 ms.
struct DrainThread {
    control: Arc<(Mutex<bool>, Condvar)>,
    handle: std::thread::JoinHandle<()>,
}

impl DrainThread {
    fn start(vm: usize) -> std::io::Result<DrainThread> {
        let control = Arc::new((Mutex::new(false), Condvar::new()));
        let c = control.clone();
        let handle = std::thread::Builder::new()
            .name("hpm-stack-drain".into())
            .spawn(move || {
                // SAFETY: vm is the process's JavaVM (stored at init); the AgentThread is dropped
                // on this thread, at the end of this closure.
                let attached = match unsafe { AgentThread::attach(vm as *mut JavaVM, "hpm-stack-drain") } {
                    Ok(a) => a,
                    Err(e) => {
                        log::warn(&format!("stack samples are drained only at dumps: {e}"));
                        return;
                    }
                };
                let (Some(rt), Some(b), Ok(jni)) = (runtime(), BACKEND.get(), crate::current_jni()) else { return };
                let env = b.env as *mut jvmtiEnv;
                let watch = match vmstructs::tables().map(CompilerLayout::read) {
                    Some(Ok(l)) => Some(CompilerWatch::new(l)),
                    Some(Err(e)) => {
                        log::info(&format!("{e}: no compile times per method (sampled/jit.txt)"));
                        None
                    }
                    None => None,
                };
                let looking = watch.is_some();
                *lock(&rt.compilers) = watch;
                let mut last_drain = std::time::Instant::now();
                let (stop, cv) = &*c;
                loop {
                    // While recording is stopped the looks would be dropped: no need to wake for them.
                    let tick = if looking && !b.recorder.is_paused() { COMPILER_LOOK_INTERVAL } else { DRAIN_INTERVAL };
                    let s = cv.wait_timeout(lock(stop), tick).unwrap_or_else(|e| e.into_inner()).0;
                    if *s || b.dead.load(Ordering::Acquire) {
                        break;
                    }
                    drop(s);
                    if looking && !b.recorder.is_paused() {
                        if let Some(w) = lock(&rt.compilers).as_mut() {
                            w.look(&b.recorder);
                        }
                    }
                    if last_drain.elapsed() >= DRAIN_INTERVAL {
                        rt.drain_all(env, jni);
                        last_drain = std::time::Instant::now();
                    }
                }
                drop(attached);
            })?;
        Ok(DrainThread { control, handle })
    }

    fn stop(self) {
        *lock(&self.control.0) = true;
        self.control.1.notify_all();
        let _ = self.handle.join();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    static PREVIOUS_HANDLER_RAN: AtomicU64 = AtomicU64::new(0);

    extern "C" fn previous_handler(_sig: c_int, _info: *mut libc::siginfo_t, _uc: *mut c_void) {
        PREVIOUS_HANDLER_RAN.fetch_add(1, Ordering::Relaxed);
    }

    /// A walk that reads a page it may not read (as AGCT can on a frame it misreads).
    unsafe extern "C" fn faulting_walk(trace: *mut c_void, _depth: c_int, _uc: *mut c_void) {
        // SAFETY (of the test): `trace` points at a PROT_NONE page: the read faults, and the guard
        // abandons this function there.
        unsafe { std::ptr::read_volatile(trace as *const u64) };
    }

    unsafe extern "C" fn raising_walk(_trace: *mut c_void, _depth: c_int, _uc: *mut c_void) {
        // SAFETY: raise is async-signal-safe; SIGSEGV's handler is the guard's.
        unsafe { libc::raise(libc::SIGSEGV) };
    }

    unsafe extern "C" fn good_walk(trace: *mut c_void, depth: c_int, _uc: *mut c_void) {
        // SAFETY: `trace` is the test's own u64.
        unsafe { *(trace as *mut u64) = depth as u64 };
    }

    static WALKED: AtomicU64 = AtomicU64::new(0);

    unsafe extern "C" fn counting_walk(_trace: *mut c_void, _depth: c_int, _uc: *mut c_void) {
        WALKED.fetch_add(1, Ordering::Relaxed);
    }

    /// One test: the handlers are process-wide.
    #[test]
    fn a_fault_inside_a_guarded_walk_abandons_it_and_others_reach_the_previous_handler() {
        // Before the guard is in, a sample is not walked at all.
        let walker = AsgctWalker { asgct: counting_walk };
        let mut frames = [RawFrame::default(); 4];
        // SAFETY: the walker returns before touching `thread` or `ucontext`.
        assert_eq!(unsafe { walker.walk(0, std::ptr::null_mut(), 0, &mut frames, &mut CodeAt::unknown()) }, WALK_UNGUARDED);
        assert_eq!(WALKED.load(Ordering::Relaxed), 0);
        // SAFETY: installs a plain SA_SIGINFO handler in place of the test runtime's SIGSEGV
        // handler (for stack overflows), so that a SIGSEGV passed on is counted, not fatal.
        unsafe {
            let mut sa: libc::sigaction = std::mem::zeroed();
            sa.sa_sigaction = previous_handler as extern "C" fn(c_int, *mut libc::siginfo_t, *mut c_void) as usize;
            sa.sa_flags = libc::SA_SIGINFO;
            libc::sigemptyset(&mut sa.sa_mask);
            assert_eq!(libc::sigaction(libc::SIGSEGV, &sa, std::ptr::null_mut()), 0);
        }
        install_fault_guard().unwrap();
        install_fault_guard().unwrap(); // idempotent

        // SAFETY: one anonymous PROT_NONE page, unmapped at the end.
        let page = unsafe { libc::mmap(std::ptr::null_mut(), 4096, libc::PROT_NONE, libc::MAP_PRIVATE | libc::MAP_ANONYMOUS, -1, 0) };
        assert_ne!(page, libc::MAP_FAILED);
        let before = faults_caught();
        for _ in 0..3 {
            // SAFETY: the walk faults on the page; the guard returns here with -1.
            assert_eq!(unsafe { hpm_guarded_call(faulting_walk, page, 1, std::ptr::null_mut()) }, -1);
        }
        // SAFETY: as above, with a SIGSEGV raised inside the walk.
        assert_eq!(unsafe { hpm_guarded_call(raising_walk, std::ptr::null_mut(), 1, std::ptr::null_mut()) }, -1);
        assert_eq!(faults_caught() - before, 4);
        assert_eq!(PREVIOUS_HANDLER_RAN.load(Ordering::Relaxed), 0, "faults inside walks are the guard's");

        // A walk that does not fault runs to its end.
        let mut out = 0u64;
        // SAFETY: good_walk writes the test's u64.
        assert_eq!(unsafe { hpm_guarded_call(good_walk, &mut out as *mut u64 as *mut c_void, 7, std::ptr::null_mut()) }, 0);
        assert_eq!(out, 7);

        // Outside a walk, SIGSEGV goes to the handler installed before the guard.
        // SAFETY: raise with a handler installed that returns.
        unsafe { libc::raise(libc::SIGSEGV) };
        assert_eq!(PREVIOUS_HANDLER_RAN.load(Ordering::Relaxed), 1);
        assert_eq!(faults_caught() - before, 4);
        // SAFETY: the page mapped above.
        unsafe { libc::munmap(page, 4096) };
    }

}
