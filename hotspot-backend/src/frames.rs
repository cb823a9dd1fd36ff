//! The execution form of every frame of a stack sample, not only the innermost one.
//!
//! `AsyncGetCallTrace` gives a sample's virtual frames (methods, inlined ones included) but not
//! how each of them ran. Here the walker follows the physical frames from the signal's registers,
//! as HotSpot's own `frame::sender` does on x86-64, and places AGCT's frames on them:
//!
//! - an **interpreter frame** holds its `Method*` at a fixed slot below its frame pointer: it is
//!   the next virtual frame, interpreted;
//! - a **compiled method** (found through the code cache's segment map) owns the next virtual
//!   frame with its `Method*`; the frames above that one were inlined into its code, and its
//!   compilation level gives C1 or C2 (or native, for a native method's wrapper);
//! - a **stub** with a known frame size (runtime stubs) is stepped over;
//! - **native or VM code** at the top: the walk starts again at the thread's last Java frame,
//!   which HotSpot records (`JavaThread::_anchor`) whenever Java code calls out.
//!
//! Every step is checked against AGCT's frames: a physical frame whose method is not the next
//! virtual frame's (or within the inlining depth) ends the walk, and the frames not placed stay
//! `Unknown`. So a frame the walk misreads (a prologue or epilogue at the top, a frame layout this
//! code does not know) costs a form, never a wrong one. All reads run under the fault guard.

use hpm_model::sampling::FrameForm;
use hpm_collectors::sampling::RawFrame;

use crate::vmstructs::{method_of_frame, tier_of_level, CodeKind, CodeLayout, VmStructs};

const WORD: usize = std::mem::size_of::<usize>();

/// Inlined frames searched for a compiled method's own frame (HotSpot's `MaxInlineLevel` is 15;
/// method handle chains add a few).
const MAX_INLINED: usize = 64;

/// C frames followed up the frame-pointer chain from a leaf to its Java caller, and how far above
/// the stack pointer that chain may go.
const MAX_LEAF_FRAMES: usize = 16;
const MAX_LEAF_STACK: usize = 1 << 20;

/// x86-64 interpreter frame slots, in words from the frame pointer (`frame_x86.hpp`): the
/// sender's stack pointer before the callee extended it, and the `Method*`.
const INTERPRETER_SENDER_SP: isize = -1;
pub(crate) const INTERPRETER_METHOD: isize = -3;
/// The x86-64 (not Windows) entry frame's slot of its `JavaCallWrapper*`, in words from its frame
/// pointer (`entry_frame_call_wrapper_offset`).
const ENTRY_FRAME_CALL_WRAPPER: isize = -6;
/// x86's `call rel32` opcode: compiled code calls compiled methods and stubs with it.
const CALL_REL32: u8 = 0xe8;

/// HotSpot's `_thread_in_vm` (`JavaThreadState`, globalDefinitions.hpp; the same value in every
/// release since JDK 6).
pub(crate) const THREAD_IN_VM: i32 = 6;

/// A thread's last Java frame as HotSpot records it (`JavaFrameAnchor`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Anchor {
    pub sp: usize,
    pub pc: usize,
    pub fp: usize,
}

/// The interrupted thread's registers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Regs {
    pub pc: usize,
    pub sp: usize,
    pub fp: usize,
}

/// Where `CodeBlob::code_begin()` is: a pointer field (JDK 17) or an offset from the blob
/// (later releases).
#[derive(Debug, Clone, Copy)]
enum CodeBegin {
    Pointer(usize),
    Offset(usize),
}

/// The offsets of the fields a physical walk reads.
pub(crate) struct FrameLayout {
    /// `CodeBlob::_frame_size`, in words (an int).
    frame_size: usize,
    /// `CodeBlob::_frame_complete_offset`, from `code_begin()`, and its size (4 or 2 bytes).
    frame_complete: (usize, usize),
    code_begin: CodeBegin,
    /// `JavaThread::_anchor` and `JavaCallWrapper::_anchor`: a `JavaFrameAnchor`, whose
    /// `_last_Java_sp`, `_last_Java_pc` and `_last_Java_fp` are at `anchor_fields`.
    thread_anchor: usize,
    wrapper_anchor: usize,
    anchor_fields: (usize, usize, usize),
    /// `StubRoutines::_call_stub_return_address`: the return address of every entry frame.
    call_stub_return: usize,
    /// `JavaThread::_thread_state` (an int-sized enum).
    thread_state: usize,
}

/// The size in bytes of an integer field's C type.
fn int_size(type_string: &str) -> Option<usize> {
    match type_string {
        "int" | "jint" | "int32_t" | "uint32_t" => Some(4),
        "int16_t" | "uint16_t" | "short" | "u2" => Some(2),
        _ => None,
    }
}

impl FrameLayout {
    pub(crate) fn read(vs: &VmStructs) -> Result<FrameLayout, String> {
        if !cfg!(target_arch = "x86_64") {
            return Err("frames under the innermost are placed on x86-64 only".into());
        }
        let complete = vs.field_type("CodeBlob", "_frame_complete_offset")?;
        let complete_size = int_size(&complete).ok_or_else(|| format!("CodeBlob::_frame_complete_offset has an unexpected type ({complete})"))?;
        let code_begin = match vs.offset("CodeBlob", "_code_begin") {
            Ok(o) => CodeBegin::Pointer(o),
            Err(_) => CodeBegin::Offset(vs.offset_of_any(&[("CodeBlob", "_code_offset")])?),
        };
        let call_stub_return = vs.address("StubRoutines", "_call_stub_return_address")?;
        Ok(FrameLayout {
            frame_size: vs.offset("CodeBlob", "_frame_size")?,
            frame_complete: (vs.offset("CodeBlob", "_frame_complete_offset")?, complete_size),
            code_begin,
            thread_anchor: vs.offset("JavaThread", "_anchor")?,
            wrapper_anchor: vs.offset("JavaCallWrapper", "_anchor")?,
            anchor_fields: (
                vs.offset("JavaFrameAnchor", "_last_Java_sp")?,
                vs.offset("JavaFrameAnchor", "_last_Java_pc")?,
                vs.offset("JavaFrameAnchor", "_last_Java_fp")?,
            ),
            // SAFETY: the address of a static `address` of libjvm.so, set when the stubs are
            // generated (before VMInit, when this is read).
            call_stub_return: unsafe { *(call_stub_return as *const usize) },
            thread_state: vs.offset("JavaThread", "_thread_state")?,
        })
    }

    /// Marks the form of each of `frames` (innermost first, AGCT's) that the physical frames
    /// from `regs` place; the others are left as they are (`Unknown`). `java_thread` is the
    /// sampled thread's `JavaThread*`, or 0 where not known (then a sample in native or VM code
    /// places nothing).
    ///
    /// # Safety
    /// Under the fault guard, on the sampled thread; `frames` hold jmethodIDs or small codes.
    pub(crate) unsafe fn place(&self, code: &CodeLayout, regs: Regs, java_thread: usize, frames: &mut [RawFrame]) {
        let n = frames.len();
        let Regs { mut pc, mut sp, mut fp } = regs;
        let mut i = 0; // the next virtual frame to place
        let mut top = true; // the interrupted frame: it may be half built
        for _ in 0..4 * n + 8 {
            if i >= n {
                return;
            }
            let last_sp = sp;
            // SAFETY (all reads below): the caller's contract; every address is either VM data
            // from the tables or a stack slot of this thread, and a bad one faults into the guard.
            match unsafe { code.kind_at(pc) } {
                CodeKind::Interpreter => {
                    let method = unsafe { word(fp, INTERPRETER_METHOD) };
                    if method == 0 || method != unsafe { method_of_frame(&frames[i]) } {
                        return;
                    }
                    frames[i].form = FrameForm::Interpreted;
                    i += 1;
                    (sp, pc, fp) = unsafe { (word(fp, INTERPRETER_SENDER_SP), word(fp, 1), word(fp, 0)) };
                }
                CodeKind::Blob(_) if pc == self.call_stub_return && !top => {
                    // An entry frame: Java called from native or VM code (JNI, reflection, class
                    // loading). Its JavaCallWrapper holds the last Java frame before that call.
                    let anchor = unsafe { word(fp, ENTRY_FRAME_CALL_WRAPPER) } + self.wrapper_anchor;
                    let anchor_sp = unsafe { word(anchor + self.anchor_fields.0, 0) };
                    if anchor_sp == 0 {
                        return; // the thread's first Java frame
                    }
                    let anchor_pc = unsafe { word(anchor + self.anchor_fields.1, 0) };
                    pc = if anchor_pc != 0 { anchor_pc } else { unsafe { word(anchor_sp, -1) } };
                    fp = unsafe { word(anchor + self.anchor_fields.2, 0) };
                    sp = anchor_sp;
                    continue;
                }
                CodeKind::Blob(blob) => {
                    // A stub, adapter or runtime blob is stepped over by its frame size.
                    if unsafe { code.is_compiled_method(blob) } {
                        let method = unsafe { code.blob_method(blob) };
                        let owner = (i..n.min(i + MAX_INLINED)).find(|&j| unsafe { method_of_frame(&frames[j]) } == method);
                        // None: a compiled method of another stack than AGCT's.
                        let Some(j) = owner else { return };
                        for f in &mut frames[i..j] {
                            f.form = FrameForm::Inlined;
                        }
                        frames[j].form = if frames[j].pos == RawFrame::NATIVE {
                            FrameForm::Native
                        } else {
                            FrameForm::compiled(tier_of_level(unsafe { code.blob_level(blob) }))
                        };
                        i = j + 1;
                    }
                    let size = unsafe { *((blob + self.frame_size) as *const i32) };
                    if size > 0 && (!top || unsafe { self.frame_complete_at(blob, pc) }) {
                        let sender_sp = sp + size as usize * WORD;
                        (sp, pc, fp) = unsafe { (sender_sp, word(sender_sp, -1), word(sender_sp, -2)) };
                    } else if top && i == 0 {
                        // A stub without a frame size of its own (most of StubRoutines), or one
                        // still building its frame.
                        let Some(caller) = (unsafe { self.caller_of_leaf(code, sp, fp, frames) }) else { return };
                        (pc, sp, fp) = caller;
                    } else {
                        return;
                    }
                }
                CodeKind::Outside if top => {
                    // Native or VM code: continue from the last Java frame, which HotSpot records
                    // when Java calls out (0 while the thread is in Java: a leaf call).
                    let anchor = java_thread + self.thread_anchor;
                    let anchor_sp = if java_thread == 0 { 0 } else { unsafe { word(anchor + self.anchor_fields.0, 0) } };
                    if anchor_sp != 0 {
                        let anchor_pc = unsafe { word(anchor + self.anchor_fields.1, 0) };
                        pc = if anchor_pc != 0 { anchor_pc } else { unsafe { word(anchor_sp, -1) } };
                        fp = unsafe { word(anchor + self.anchor_fields.2, 0) };
                        sp = anchor_sp;
                    } else {
                        let Some(caller) = (unsafe { self.caller_of_leaf(code, sp, fp, frames) }) else { return };
                        (pc, sp, fp) = caller;
                    }
                    top = false; // a frame that called out is complete
                    continue;
                }
                _ => return,
            }
            top = false;
            if sp <= last_sp || pc == 0 {
                return;
            }
        }
    }

    /// The Java caller `(pc, sp, fp)` of a leaf the thread is in (a stub without a known frame
    /// size, or native or VM code called without recording the last Java frame): the return
    /// address on top of the stack (a leaf not yet in its frame), or else the first one along the
    /// frame-pointer chain (leaves that build frames, and libjvm's C++ code, keep one). Taken only
    /// if it is code of the innermost frames, so a wrong guess places nothing.
    ///
    /// # Safety
    /// Under the fault guard, with the interrupted `sp` and `fp`.
    unsafe fn caller_of_leaf(&self, code: &CodeLayout, sp: usize, fp: usize, frames: &[RawFrame]) -> Option<(usize, usize, usize)> {
        // SAFETY (all): the caller's contract.
        let ret = unsafe { word(sp, 0) };
        if unsafe { self.is_code_of(code, ret, fp, frames) } {
            return Some((ret, sp + WORD, fp));
        }
        let mut fp = fp;
        for _ in 0..MAX_LEAF_FRAMES {
            if fp <= sp || fp - sp > MAX_LEAF_STACK || !fp.is_multiple_of(WORD) {
                return None;
            }
            let (ret, caller_fp) = unsafe { (word(fp, 1), word(fp, 0)) };
            if unsafe { self.is_code_of(code, ret, caller_fp, frames) } {
                return Some((ret, fp + 2 * WORD, caller_fp));
            }
            if unsafe { code.kind_at(ret) } != CodeKind::Outside || caller_fp <= fp {
                return None;
            }
            fp = caller_fp;
        }
        None
    }

    /// The thread's last Java frame as HotSpot records it when Java calls out (its anchor).
    ///
    /// # Safety
    /// Under the fault guard; `java_thread` a live `JavaThread*`.
    pub(crate) unsafe fn anchor(&self, java_thread: usize) -> Anchor {
        let at = java_thread + self.thread_anchor;
        let (sp, pc, fp) = self.anchor_fields;
        // SAFETY: the caller's contract.
        unsafe { Anchor { sp: word(at + sp, 0), pc: word(at + pc, 0), fp: word(at + fp, 0) } }
    }

    /// Writes the thread's anchor (for [`FrameLayout::walkable_anchor`], and back).
    ///
    /// # Safety
    /// `java_thread` is the calling thread's own `JavaThread*`, in the VM.
    pub(crate) unsafe fn set_anchor(&self, java_thread: usize, a: Anchor) {
        let at = java_thread + self.thread_anchor;
        let (sp, pc, fp) = self.anchor_fields;
        // SAFETY: the caller's contract; word-sized fields of the thread's own anchor.
        unsafe {
            std::ptr::write_volatile((at + sp) as *mut usize, a.sp);
            std::ptr::write_volatile((at + pc) as *mut usize, a.pc);
            std::ptr::write_volatile((at + fp) as *mut usize, a.fp);
        }
    }

    /// An anchor AGCT can walk from, for a thread in the VM whose own it could not: one without
    /// its return address gets it from the top of the frame's stack (as HotSpot's
    /// `make_walkable` does), and one at a runtime stub's frame (C1's counter overflow and
    /// allocation stubs) moves to the stub's Java caller by the stub's frame size. None where
    /// neither applies or the result is not Java code.
    ///
    /// # Safety
    /// Under the fault guard.
    pub(crate) unsafe fn walkable_anchor(&self, code: &CodeLayout, a: Anchor) -> Option<Anchor> {
        // SAFETY (all): the caller's contract; `a.sp` is a stack address of the thread's.
        unsafe {
            let pc = if a.pc == 0 { word(a.sp, -1) } else { a.pc };
            if let CodeKind::Blob(blob) = code.kind_at(pc) {
                let size = *((blob + self.frame_size) as *const i32);
                if !code.is_compiled_method(blob) && size > 0 {
                    let sender_sp = a.sp + size as usize * WORD;
                    let ret = word(sender_sp, -1);
                    return self.is_java_code(code, ret).then_some(Anchor { sp: sender_sp, pc: ret, fp: word(sender_sp, -2) });
                }
            }
            (a.pc == 0 && self.is_java_code(code, pc)).then_some(Anchor { pc, ..a })
        }
    }

    /// The native code frames of a sample taken in native or VM code (outside the code HotSpot
    /// generates): the interrupted program counter, then the return addresses up the
    /// frame-pointer chain (C and C++ code built with frame pointers keeps one: libjvm does)
    /// until one returns into the VM's code (a Java frame, a stub), the chain ends or `out` is
    /// full. Return addresses are stored one byte back, inside the call, so that each names the
    /// function that called. The number of frames written; 0 where `regs.pc` is the VM's code.
    ///
    /// # Safety
    /// Under the fault guard, with the interrupted registers.
    pub(crate) unsafe fn native_frames(&self, code: &CodeLayout, regs: Regs, out: &mut [usize]) -> usize {
        // SAFETY (all): the caller's contract.
        unsafe {
            if out.is_empty() || code.kind_at(regs.pc) != CodeKind::Outside {
                return 0;
            }
            out[0] = regs.pc;
            let mut n = 1;
            for (_, ret, _) in frame_pointer_chain(regs.sp, regs.fp, out.len() - 1) {
                if ret == 0 || code.kind_at(ret) != CodeKind::Outside {
                    break;
                }
                out[n] = ret - 1;
                n += 1;
            }
            n
        }
    }

    /// The thread's state (HotSpot's `JavaThreadState`).
    ///
    /// # Safety
    /// Under the fault guard; `java_thread` a live `JavaThread*`.
    pub(crate) unsafe fn thread_state(&self, java_thread: usize) -> i32 {
        // SAFETY: the caller's contract.
        unsafe { *((java_thread + self.thread_state) as *const i32) }
    }

    /// The caller of the interrupted frame, where AGCT could not start from the registers
    /// (HotSpot's `safe_for_sender` refuses a compiled method in its prologue or epilogue, a stub
    /// without a frame of its own, a leaf call out of Java): the caller's registers, and the
    /// `Method*` of the compiled method interrupted (0 for a stub, the interpreter or a leaf),
    /// so that a second walk can start there. Every candidate return address must be Java code
    /// (the interpreter, or a compiled method past its prologue), and AGCT checks the caller's
    /// frame again, so a wrong guess costs the sample, not a wrong stack.
    ///
    /// # Safety
    /// Under the fault guard, with the interrupted registers.
    pub(crate) unsafe fn caller_of_top(&self, code: &CodeLayout, regs: Regs) -> Option<(Regs, usize)> {
        let Regs { pc, sp, fp } = regs;
        // SAFETY (all reads): the caller's contract.
        match unsafe { code.kind_at(pc) } {
            CodeKind::Blob(blob) => {
                let method = if unsafe { code.is_compiled_method(blob) } { unsafe { code.blob_method(blob) } } else { 0 };
                // Where the return address can be:
                // - the frame allocated (a method's body, its prologue past `sub rsp`): by frame
                //   size;
                // - nothing pushed yet (a prologue's first instructions, an epilogue after
                //   `pop rbp`, a stub that pushes nothing): on top of the stack;
                // - the frame pointer pushed (prologue) or the frame released (epilogue): one word
                //   above the saved frame pointer.
                // Which one holds is not known without decoding the code, and the others hold
                // stale words (the top of a frame just allocated is what earlier calls left,
                // often return addresses), so the caller is taken only if exactly one of them is
                // a return address into Java code: an ambiguous sample stays unplaced rather
                // than get a wrong caller.
                let size = unsafe { *((blob + self.frame_size) as *const i32) };
                let by_size = (size > 0).then(|| {
                    let sender_sp = sp + size as usize * WORD;
                    (sender_sp - WORD, unsafe { word(sender_sp, -2) })
                });
                let mut found = None;
                for (ret_at, caller_fp) in by_size.into_iter().chain([(sp, fp), (sp + WORD, unsafe { word(sp, 0) })]) {
                    let ret = unsafe { word(ret_at, 0) };
                    let caller = Regs { pc: ret, sp: ret_at + WORD, fp: caller_fp };
                    if unsafe { self.is_return_into_java(code, ret, blob) && self.returns_into_java(code, caller) } {
                        match found {
                            Some((at, _)) if at != ret_at => return None,
                            _ => found = Some((ret_at, caller)),
                        }
                    }
                }
                if let Some((_, caller)) = found {
                    return Some((caller, method));
                }
                // A stub that keeps a frame pointer (the array copies).
                if method == 0 {
                    return unsafe { self.java_caller_by_frame_pointer(code, sp, fp) }.map(|r| (r, 0));
                }
                None
            }
            CodeKind::Interpreter => {
                // The interpreter's frame, complete (its sender) or not yet pushed (a return
                // address on top).
                if fp > sp && fp - sp <= MAX_LEAF_STACK {
                    let ret = unsafe { word(fp, 1) };
                    if unsafe { self.is_java_code(code, ret) } {
                        return Some((Regs { pc: ret, sp: unsafe { word(fp, INTERPRETER_SENDER_SP) }, fp: unsafe { word(fp, 0) } }, 0));
                    }
                }
                let ret = unsafe { word(sp, 0) };
                unsafe { self.is_java_code(code, ret) }.then_some((Regs { pc: ret, sp: sp + WORD, fp }, 0))
            }
            // A leaf call into the VM's C code (a write barrier's, a math routine) that did not
            // record the last Java frame: its frame-pointer chain (libjvm keeps one), else the
            // return address on top (a leaf not yet in its frame).
            CodeKind::Outside => {
                if let Some(caller) = unsafe { self.java_caller_by_frame_pointer(code, sp, fp) } {
                    return Some((caller, 0));
                }
                let ret = unsafe { word(sp, 0) };
                unsafe { self.is_java_code(code, ret) }.then_some((Regs { pc: ret, sp: sp + WORD, fp }, 0))
            }
            CodeKind::Unused => None,
        }
    }

    /// Whether a candidate caller's frame returns into Java code in its turn (or into the call
    /// stub, from the thread's first Java frame): an interpreter frame by its frame pointer (its
    /// `Method*` slot set), a compiled frame by its size. A stale return address seldom has a
    /// frame like that above it.
    ///
    /// # Safety
    /// Under the fault guard.
    unsafe fn returns_into_java(&self, code: &CodeLayout, caller: Regs) -> bool {
        let Regs { pc, sp, fp } = caller;
        // SAFETY (all): the caller's contract.
        unsafe {
            let ret = match code.kind_at(pc) {
                CodeKind::Interpreter => {
                    if fp <= sp || fp - sp > MAX_LEAF_STACK || word(fp, INTERPRETER_METHOD) == 0 {
                        return false;
                    }
                    word(fp, 1)
                }
                CodeKind::Blob(blob) => {
                    let size = *((blob + self.frame_size) as *const i32);
                    if size <= 0 {
                        return false;
                    }
                    word(sp + size as usize * WORD, -1)
                }
                _ => return false,
            };
            ret == self.call_stub_return || self.is_java_code(code, ret)
        }
    }

    /// Whether `ret` can be the return address of a call into `callee` (a blob): Java code, and
    /// not right after a direct call into another compiled method (a stale return address left
    /// below the stack pointer by an earlier call).
    ///
    /// # Safety
    /// Under the fault guard.
    unsafe fn is_return_into_java(&self, code: &CodeLayout, ret: usize, callee: usize) -> bool {
        // SAFETY (all): the caller's contract; the code before a return address into a compiled
        // method is that method's.
        unsafe {
            if !self.is_java_code(code, ret) {
                return false;
            }
            if code.kind_at(ret) == CodeKind::Interpreter || *((ret - 5) as *const u8) != CALL_REL32 {
                return true;
            }
            let target = ret.wrapping_add_signed(((ret - 4) as *const i32).read_unaligned() as isize);
            !matches!(code.kind_at(target), CodeKind::Blob(b) if b != callee && code.is_compiled_method(b))
        }
    }

    /// The first Java return address up the frame-pointer chain from `fp` (C code and stubs keep
    /// one), as the caller's registers.
    ///
    /// # Safety
    /// Under the fault guard, with the interrupted `sp` and `fp`.
    unsafe fn java_caller_by_frame_pointer(&self, code: &CodeLayout, sp: usize, fp: usize) -> Option<Regs> {
        // SAFETY (all): the caller's contract.
        unsafe { frame_pointer_chain(sp, fp, MAX_LEAF_FRAMES) }
            .find(|&(_, ret, _)| unsafe { self.is_java_code(code, ret) })
            .map(|(at, ret, caller_fp)| Regs { pc: ret, sp: at + 2 * WORD, fp: caller_fp })
    }

    /// Whether `pc` can be a return address into Java code: the interpreter, or a compiled
    /// method past its prologue.
    ///
    /// # Safety
    /// Under the fault guard.
    unsafe fn is_java_code(&self, code: &CodeLayout, pc: usize) -> bool {
        // SAFETY (all): the caller's contract.
        match unsafe { code.kind_at(pc) } {
            CodeKind::Interpreter => true,
            CodeKind::Blob(blob) => unsafe { code.is_compiled_method(blob) && self.frame_complete_at(blob, pc) },
            _ => false,
        }
    }

    /// Whether `pc` (with frame pointer `fp`) is the code of one of the innermost of `frames`: the
    /// interpreter running the first, or a compiled method owning one of the first
    /// [`MAX_INLINED`].
    ///
    /// # Safety
    /// Under the fault guard.
    unsafe fn is_code_of(&self, code: &CodeLayout, pc: usize, fp: usize, frames: &[RawFrame]) -> bool {
        let Some(first) = frames.first() else { return false };
        // SAFETY (all): the caller's contract.
        match unsafe { code.kind_at(pc) } {
            CodeKind::Interpreter => fp > WORD * 3 && unsafe { word(fp, INTERPRETER_METHOD) } == unsafe { method_of_frame(first) },
            CodeKind::Blob(blob) if unsafe { code.is_compiled_method(blob) } => {
                let method = unsafe { code.blob_method(blob) };
                frames.iter().take(MAX_INLINED).any(|f| unsafe { method_of_frame(f) } == method)
            }
            _ => false,
        }
    }

    /// Whether the blob's code at `pc` runs with its frame built (past the prologue).
    ///
    /// # Safety
    /// Under the fault guard, `blob` from [`CodeLayout::kind_at`].
    unsafe fn frame_complete_at(&self, blob: usize, pc: usize) -> bool {
        // SAFETY: the caller's contract.
        unsafe {
            let (at, size) = self.frame_complete;
            let offset = if size == 2 { *((blob + at) as *const i16) as i32 } else { *((blob + at) as *const i32) };
            if offset < 0 {
                return false; // CodeOffsets::frame_never_safe
            }
            let begin = match self.code_begin {
                CodeBegin::Pointer(at) => *((blob + at) as *const usize),
                CodeBegin::Offset(at) => blob + *((blob + at) as *const i32) as usize,
            };
            pc >= begin + offset as usize
        }
    }
}

/// The frames up the frame-pointer chain from `fp`, innermost first, at most `max`: each one's
/// frame pointer, return address and caller's frame pointer. The chain ends where a frame pointer
/// leaves the stack above `sp` (by more than [`MAX_LEAF_STACK`], or misaligned) or stops going up.
///
/// # Safety
/// Iterated under the fault guard, with the interrupted `sp`.
unsafe fn frame_pointer_chain(sp: usize, fp: usize, max: usize) -> impl Iterator<Item = (usize, usize, usize)> {
    let mut next = Some(fp);
    std::iter::from_fn(move || {
        let at = next.take()?;
        if at < sp || at - sp > MAX_LEAF_STACK || !at.is_multiple_of(WORD) {
            return None;
        }
        // SAFETY: the function's contract; `at` is a stack slot of the thread's.
        let (ret, caller_fp) = unsafe { (word(at, 1), word(at, 0)) };
        if caller_fp > at {
            next = Some(caller_fp);
        }
        Some((at, ret, caller_fp))
    })
    .take(max)
}

/// The word `slot` words away from `at`.
///
/// # Safety
/// Under the fault guard.
pub(crate) unsafe fn word(at: usize, slot: isize) -> usize {
    // SAFETY: the caller's contract.
    unsafe { *((at as isize + slot * WORD as isize) as *const usize) }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SEG: usize = 64;

    /// A code heap of 8 segments in the test's memory: a C2-compiled method in segments 0..2,
    /// a stub without a frame size in 2..3, the call stub (entry frames return into it) in
    /// 3..4. Blobs: `_name` at 0, `_method` at 8, `_comp_level` at 16, `_frame_size` at 20,
    /// `_frame_complete_offset` at 24, `_code_begin` at 32, code from 40.
    struct Heap {
        words: Vec<usize>,
        segmap: Vec<u8>,
        high: usize,
        interpreter: Vec<u8>,
    }

    impl Heap {
        fn new() -> Heap {
            let mut h = Heap { words: vec![0; 8 * SEG / WORD], segmap: vec![0, 1, 0, 0, 0xff, 0xff, 0xff, 0xff], high: 0, interpreter: vec![0; 64] };
            h.high = h.low() + 8 * SEG;
            h
        }
        fn low(&self) -> usize {
            self.words.as_ptr() as usize
        }
        /// A used block at segment `seg` whose blob is `name`, for `method` at `level`, with a
        /// frame of `frame_size` words complete 8 bytes into its code.
        fn blob(&mut self, seg: usize, name: &'static std::ffi::CStr, method: usize, level: usize, frame_size: i32) -> usize {
            let w = seg * SEG / WORD;
            let blob = self.low() + seg * SEG + 16;
            self.words[w + 1] = 1;
            self.words[w + 2] = name.as_ptr() as usize;
            self.words[w + 3] = method;
            self.words[w + 4] = level | ((frame_size as u32 as usize) << 32);
            self.words[w + 5] = 8;
            self.words[w + 6] = blob + 40;
            blob + 40
        }
        fn layouts(&self, call_stub_return: usize) -> (CodeLayout, FrameLayout) {
            let interp = self.interpreter.as_ptr() as usize;
            let code = CodeLayout::for_test((interp, interp + 64), self.low(), &self.high as *const usize as usize, self.segmap.as_ptr() as usize, 6);
            let frames = FrameLayout {
                frame_size: 20,
                frame_complete: (24, 4),
                code_begin: CodeBegin::Pointer(32),
                thread_anchor: 8,
                wrapper_anchor: 16,
                anchor_fields: (0, 8, 16),
                call_stub_return,
                thread_state: 32,
            };
            (code, frames)
        }
    }

    /// jmethodIDs: each frame's key points at a slot holding its `Method*`.
    fn frames(slots: &[usize]) -> Vec<RawFrame> {
        slots.iter().map(|s| RawFrame::new(1, s as *const usize as u64)).collect()
    }

    fn forms(f: &[RawFrame]) -> Vec<FrameForm> {
        f.iter().map(|f| f.form).collect()
    }

    const INLINED: usize = 0x1111;
    const COMPILED: usize = 0x2222;
    const INTERPRETED: usize = 0x3333;
    const CALLER: usize = 0x4444;

    /// A stack (innermost at index 0) whose C2 frame of `COMPILED` (4 words) returns into an
    /// interpreter frame of `INTERPRETED` (frame pointer at word 8) that returns to `ret`;
    /// `stack[2]` (the compiled frame's saved frame pointer) points at word 8.
    fn stack_under_compiled(heap: &Heap, ret: usize) -> Vec<usize> {
        let mut stack = vec![0usize; 32];
        let base = stack.as_ptr() as usize;
        let interp = heap.interpreter.as_ptr() as usize;
        stack[3] = interp + 16; // return into the interpreter
        stack[2] = base + 8 * WORD; // the interpreter frame's fp
        stack[8 - 3] = INTERPRETED; // its Method*
        stack[8 - 1] = base + 12 * WORD; // its sender's sp
        stack[8] = base + 20 * WORD; // the caller's fp
        stack[9] = ret;
        stack
    }

    #[test]
    fn frames_are_placed_through_compiled_and_interpreted_frames() {
        let mut heap = Heap::new();
        let code = heap.blob(0, c"nmethod", COMPILED, 4, 4);
        let (cl, fl) = heap.layouts(0);
        let slots = [INLINED, COMPILED, INTERPRETED, CALLER];
        let stack = stack_under_compiled(&heap, 0);
        let sp = stack.as_ptr() as usize;
        let mut f = frames(&slots);
        // SAFETY (all `place` calls): every address read is in this test's vectors.
        unsafe { fl.place(&cl, Regs { pc: code + 20, sp, fp: 0 }, 0, &mut f) };
        assert_eq!(forms(&f), [FrameForm::Inlined, FrameForm::C2, FrameForm::Interpreted, FrameForm::Unknown], "the caller's return address is 0: not placed");

        // In the compiled method's prologue the frame is not built: only its own frames.
        let mut f = frames(&slots);
        unsafe { fl.place(&cl, Regs { pc: code + 4, sp, fp: 0 }, 0, &mut f) };
        assert_eq!(forms(&f), [FrameForm::Inlined, FrameForm::C2, FrameForm::Unknown, FrameForm::Unknown]);

        // An interpreter frame of another method than AGCT's next frame ends the walk.
        let mut f = frames(&[INLINED, COMPILED, CALLER, CALLER]);
        unsafe { fl.place(&cl, Regs { pc: code + 20, sp, fp: 0 }, 0, &mut f) };
        assert_eq!(forms(&f), [FrameForm::Inlined, FrameForm::C2, FrameForm::Unknown, FrameForm::Unknown]);

        // A compiled method that owns none of the innermost frames places nothing.
        let mut f = frames(&[CALLER, INTERPRETED]);
        unsafe { fl.place(&cl, Regs { pc: code + 20, sp, fp: 0 }, 0, &mut f) };
        assert_eq!(forms(&f), [FrameForm::Unknown, FrameForm::Unknown]);
    }

    #[test]
    fn leaves_without_frames_of_their_own_are_stepped_over() {
        let mut heap = Heap::new();
        let code = heap.blob(0, c"nmethod", COMPILED, 3, 4);
        let stub = heap.blob(2, c"StubRoutines (1)", 0, 0, 0);
        let (cl, fl) = heap.layouts(0);
        let slots = [COMPILED, INTERPRETED];
        // A stub called from the compiled method, before it pushed anything: the return address
        // is on top of the stack, and the compiled frame starts one word above it.
        let mut stack = vec![0usize; 40];
        stack[0] = code + 30;
        let rest = stack_under_compiled(&heap, 0);
        stack[1..33].copy_from_slice(&rest);
        stack[1 + 2] = stack.as_ptr() as usize + (1 + 8) * WORD;
        stack[1 + 8 - 1] = stack.as_ptr() as usize + 13 * WORD;
        let sp = stack.as_ptr() as usize;
        let mut f = frames(&slots);
        // SAFETY (all `place` calls): every address read is in this test's vectors.
        unsafe { fl.place(&cl, Regs { pc: stub + 4, sp, fp: 0 }, 0, &mut f) };
        assert_eq!(forms(&f), [FrameForm::C1, FrameForm::Interpreted]);

        // Native or VM code called without recording the last Java frame (a leaf call), with a
        // frame pointer chain: two C frames, the second returning into the compiled method, whose
        // 4-word frame returns into an interpreter frame (fp at word 16).
        // A Vec: the walker reads it through raw addresses only, and writes to it after its
        // address was taken must stay.
        #[allow(clippy::useless_vec)]
        let mut stack = vec![0usize; 24];
        let base = stack.as_ptr() as usize;
        stack[2] = base + 6 * WORD; // the first C frame's saved fp
        stack[3] = 0x10; // it returns into C code
        stack[7] = code + 30; // the second returns into the compiled method
        stack[11] = heap.interpreter.as_ptr() as usize + 8;
        stack[10] = base + 16 * WORD;
        stack[16 - 3] = INTERPRETED;
        stack[16 - 1] = base + 20 * WORD;
        let mut f = frames(&slots);
        unsafe { fl.place(&cl, Regs { pc: 0x20, sp: base, fp: base + 2 * WORD }, 0, &mut f) };
        assert_eq!(forms(&f), [FrameForm::C1, FrameForm::Interpreted]);

        // A chain that leads nowhere in Java places nothing.
        stack[7] = 0x30;
        let mut f = frames(&slots);
        unsafe { fl.place(&cl, Regs { pc: 0x20, sp: base, fp: base + 2 * WORD }, 0, &mut f) };
        assert_eq!(forms(&f), [FrameForm::Unknown, FrameForm::Unknown]);
    }

    #[test]
    fn the_caller_of_a_frame_agct_cannot_start_from_is_found_only_where_one_place_holds_it() {
        let mut heap = Heap::new();
        heap.segmap[4] = 1; // segments 3 and 4: one block
        let code = heap.blob(0, c"nmethod", COMPILED, 4, 4);
        let other = heap.blob(2, c"nmethod", CALLER, 4, 4);
        let third = heap.blob(3, c"nmethod", INTERPRETED, 4, 4);
        // The third method calls `other` (a direct `call rel32` at 16 bytes into its code): the
        // address after it is a return address, but never one into `code`'s callers.
        let stale_ret = third + 21;
        // SAFETY: the heap's words hold the code; these bytes are inside the third blob.
        unsafe {
            let at = (third + 16) as *mut u8;
            *at = CALL_REL32;
            (at.add(1) as *mut i32).write_unaligned((other + 8) as i32 - stale_ret as i32);
        }
        let (cl, fl) = heap.layouts(0x5151);
        let interp_ret = heap.interpreter.as_ptr() as usize + 16;
        // The caller: an interpreter frame (fp at word 10, its Method* set) whose own caller is
        // the call stub.
        let mut stack = [0usize; 16];
        let sp = stack.as_mut_ptr() as usize;
        let caller_fp = sp + 10 * WORD;
        let fresh = || {
            let mut s = [0usize; 16];
            s[10 - 3] = INTERPRETED;
            s[11] = 0x5151;
            s
        };
        // SAFETY (all calls): every address read is in this test's memory.
        let caller = |stack: &mut [usize; 16], pc: usize, fp: usize| unsafe { fl.caller_of_top(&cl, Regs { pc, sp: stack.as_ptr() as usize, fp }) };

        // In the prologue, nothing pushed: the return address on top.
        stack = fresh();
        stack[0] = interp_ret;
        assert_eq!(caller(&mut stack, code + 4, caller_fp), Some((Regs { pc: interp_ret, sp: sp + WORD, fp: caller_fp }, COMPILED)));
        // The frame allocated (4 words): the return address at its end, the saved fp below it.
        stack = fresh();
        stack[3] = interp_ret;
        stack[2] = caller_fp;
        assert_eq!(caller(&mut stack, code + 20, 0x77), Some((Regs { pc: interp_ret, sp: sp + 4 * WORD, fp: caller_fp }, COMPILED)));
        // Both places hold a return address into Java code with a frame above it: which one is
        // stale is not known.
        stack[0] = interp_ret;
        assert_eq!(caller(&mut stack, code + 20, caller_fp), None);
        // ... unless the frame above one of them is no Java frame.
        assert_eq!(caller(&mut stack, code + 20, 0x77), Some((Regs { pc: interp_ret, sp: sp + 4 * WORD, fp: caller_fp }, COMPILED)));
        // A stale return address after a call into another compiled method is no candidate.
        stack[0] = stale_ret;
        assert_eq!(caller(&mut stack, code + 20, caller_fp), Some((Regs { pc: interp_ret, sp: sp + 4 * WORD, fp: caller_fp }, COMPILED)));
        // Nothing that returns into Java code: no caller.
        stack = fresh();
        assert_eq!(caller(&mut stack, code + 20, caller_fp), None);
    }

    #[test]
    fn native_code_continues_at_the_threads_last_java_frame_and_entry_frames_are_crossed() {
        let mut heap = Heap::new();
        let code = heap.blob(0, c"nmethod", COMPILED, 4, 4);
        let call_stub = heap.blob(3, c"StubRoutines (1)", 0, 0, 0);
        let (cl, fl) = heap.layouts(call_stub + 4);
        // The interpreter frame under the compiled one returns into the call stub: an entry
        // frame (fp at word 20) whose JavaCallWrapper's anchor names the Java frame before the
        // call out, an interpreter frame of CALLER (fp at word 28).
        let mut stack = stack_under_compiled(&heap, call_stub + 4);
        let base = stack.as_ptr() as usize;
        let mut wrapper = vec![0usize; 6];
        let at = wrapper.as_mut_ptr() as usize;
        // The wrapper's anchor (at 16): last_Java_sp, last_Java_pc, last_Java_fp.
        stack[20 - 6] = at;
        wrapper[2] = base + 26 * WORD;
        wrapper[3] = heap.interpreter.as_ptr() as usize + 40;
        wrapper[4] = base + 28 * WORD;
        stack[28 - 3] = CALLER;
        stack[28 - 1] = base + 30 * WORD;
        stack[28] = 0;
        stack[29] = 0;
        // The thread is in native code: its anchor (at 8 in the JavaThread) names the compiled
        // frame's sp, and its pc.
        let thread = [0usize, stack.as_ptr() as usize, code + 20, 0];
        let mut f = frames(&[INLINED, COMPILED, INTERPRETED, CALLER]);
        // SAFETY: every address read is in this test's vectors.
        unsafe { fl.place(&cl, Regs { pc: 0x30, sp: 0x1000, fp: 0x2000 }, thread.as_ptr() as usize, &mut f) };
        assert_eq!(forms(&f), [FrameForm::Inlined, FrameForm::C2, FrameForm::Interpreted, FrameForm::Interpreted]);
    }
}
