//! The bytecode interpreter. `run` executes one Java thread on one virtual processor until the
//! thread yields (a yieldpoint found the processor's flag set), blocks, needs a collection, or ends.
//!
//! Yieldpoints: method prologues (in `invoke`), epilogues (after a return) and backward branches.
//! Method entry and exit each go through one function (`push_frame`, `pop_frame`) where the agent
//! hooks are called (plus around native calls, which have no frame, and the deferred entries of a
//! thread's first run, see `announce_start`).

use crate::class::{Class, InitState, Kind, Method};
use crate::code::{Code, Insn};
use crate::heap::{Ref, Space};
use crate::hooks::{hook, is_marker, JavaStack};
use crate::native::{NCtx, NRes};
use crate::vm::{Alloc, Frame, JThread, Reacquire, Value, Vm};
use rvm_abi::NO_METHOD;
use std::sync::atomic::Ordering::*;
use std::sync::Arc;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Stopped at a yieldpoint (quantum expired or a collection requested); can continue at once.
    Yield,
    /// Gave up the processor voluntarily (`Thread.yield`, waiting for another thread's class
    /// initialisation); can continue at once.
    Yielded,
    /// Parked (monitor, wait, sleep, join): someone else makes it ready again.
    Blocked,
    /// An allocation failed: the current instruction runs again after a collection.
    NeedGc,
    /// The thread's last frame returned.
    Finished,
    /// `System.exit`.
    Exit(i32),
}

/// How an instruction ends when it leaves the fast path.
enum Flow {
    Throw(Ref),
    ThrowNew(&'static str, String),
    /// Re-execute the current instruction later (after a yield, block or collection).
    Redo(Outcome),
    /// The instruction completed, then the thread stops.
    After(Outcome),
    Fatal(String),
}

/// Deepest Java call stack (HotSpot's default 1 MB stack allows roughly 10k-20k simple frames).
const MAX_FRAMES: usize = 20_000;

/// An instruction found an operand of the wrong type: its class fails verification (rvm checks
/// operand types as it executes, not when it loads a class). Raised as a panic with this payload
/// from deep in the operand pops, and turned into a VerifyError that ends the VM where the
/// scheduler runs the thread ([`crate::sched`]), with the method named.
pub struct VerifyFailure(pub String);

fn bad(v: Value) -> ! {
    std::panic::panic_any(VerifyFailure(format!("operand type mismatch ({v:?})")))
}

pub fn code_of(vm: &Vm, m: &'static Method) -> Result<&'static Code, String> {
    if let Some(Ok(c)) = m.code.get() {
        return Ok(c);
    }
    m.code
        .get_or_init(|| crate::code::translate(vm, m).map(|c| &*Box::leak(Box::new(c))))
        .clone()
}

/// Pushes a frame for `m` whose arguments are the top `m.arg_slots` slots of the stack.
fn push_frame(vm: &Vm, th: &mut JThread, stack: &mut Vec<Value>, sp: usize, m: &'static Method, code: &'static Code, sync: Ref) -> Result<usize, Flow> {
    if th.frames.len() >= MAX_FRAMES {
        return Err(Flow::ThrowNew("java/lang/StackOverflowError", String::new()));
    }
    let bp = sp - m.arg_slots;
    let need = bp + code.max_locals.max(m.arg_slots) + code.max_stack + 4;
    if need > stack.len() {
        if need > 2 << 20 {
            return Err(Flow::ThrowNew("java/lang/StackOverflowError", String::new()));
        }
        stack.resize(need.max(stack.len() * 2), Value::Top);
    }
    for s in &mut stack[sp..bp + code.max_locals.max(m.arg_slots)] {
        *s = Value::Top;
    }
    th.frames.push(Frame { method: m, code, pc: 0, bp, sp: 0, sync });
    // (frames pushed before the thread first runs are announced then, by `announce_start`)
    hook!(vm, method_entry(th.id, m.id, JavaStack::of(&th.frames)) if th.started && m.has_events());
    Ok(bp + code_max_locals(th))
}

fn code_max_locals(th: &JThread) -> usize {
    let f = th.frames.last().unwrap();
    f.code.max_locals.max(f.method.arg_slots)
}

/// Pops the top frame (method exit; `by_exception`: unwinding): releases a synchronized method's
/// monitor. The exit event comes first, so its stack still ends with the method.
fn pop_frame(vm: &Vm, th: &mut JThread, by_exception: bool) -> Frame {
    // (class-initialisation marker frames are not method activations)
    let top = th.frames.last().unwrap();
    hook!(vm, method_exit(th.id, top.method.id, by_exception, JavaStack::of(&th.frames)) if !is_marker(top) && top.method.has_events());
    let f = th.frames.pop().unwrap();
    if f.sync != 0 {
        let _ = crate::sched::monitor_exit(vm, th.id, f.sync);
    }
    f
}

/// Starts the initialisation of `c` (JVMS 5.5). `Ok(true)`: ready to use. `Ok(false)`: frames were
/// pushed (or another thread is initialising it): re-execute the instruction later.
fn start_init(vm: &Vm, th: &mut JThread, stack: &mut Vec<Value>, sp: usize, c: &Arc<Class>) -> Result<Option<usize>, Flow> {
    if c.initialized.load(Acquire) {
        return Ok(None);
    }
    if let Some(s) = &c.super_class {
        if !s.initialized.load(Acquire) {
            if let Some(n) = start_init(vm, th, stack, sp, s)? {
                return Ok(Some(n));
            }
        }
    }
    let mut st = c.init.lock().unwrap();
    match *st {
        InitState::Done => return Ok(None),
        InitState::InProgress(t) if t == th.id => return Ok(None),
        InitState::InProgress(_) => return Err(Flow::Redo(Outcome::Yielded)),
        InitState::Failed => {
            return Err(Flow::ThrowNew("java/lang/NoClassDefFoundError", format!("Could not initialize class {}", c.java_name())))
        }
        InitState::Uninit => {}
    }
    // Constant static fields.
    for f in c.fields.iter().filter(|f| f.is_static) {
        if let Some(cv) = &f.constant {
            use crate::class::ConstVal::*;
            match cv {
                Int(i) => c.statics[f.offset].store(*i as u32, Relaxed),
                Float(v) => c.statics[f.offset].store(v.to_bits(), Relaxed),
                Long(v) => {
                    c.statics[f.offset].store(*v as u32, Relaxed);
                    c.statics[f.offset + 1].store((*v as u64 >> 32) as u32, Relaxed);
                }
                Double(v) => {
                    let b = v.to_bits();
                    c.statics[f.offset].store(b as u32, Relaxed);
                    c.statics[f.offset + 1].store((b >> 32) as u32, Relaxed);
                }
                Str(s) => {
                    let i = vm.intern_constant(s).map_err(Flow::Fatal)?;
                    c.statics[f.offset].store(vm.root(i), Relaxed);
                }
                StrBytes(b) => {
                    let i = vm.intern_modified_utf8(b).map_err(Flow::Fatal)?;
                    c.statics[f.offset].store(vm.root(i), Relaxed);
                }
            }
        }
    }
    let Some(clinit) = c.clinit() else {
        *st = InitState::Done;
        c.initialized.store(true, Release);
        return Ok(None);
    };
    *st = InitState::InProgress(th.id);
    drop(st);
    let code = code_of(vm, clinit).map_err(Flow::Fatal)?;
    // A marker frame that completes the initialisation when <clinit> returns into it.
    let marker: &'static Code = Box::leak(Box::new(Code::synthetic(vec![Insn::InitDone(c.id)])));
    th.frames.push(Frame { method: marker_method(vm), code: marker, pc: 0, bp: sp, sp, sync: 0 });
    let n = push_frame(vm, th, stack, sp, clinit, code, 0)?;
    Ok(Some(n))
}

fn marker_method(vm: &Vm) -> &'static Method {
    let c = vm.reg.load("java/lang/Object").unwrap();
    c.find_method("<clinit>", "()V").or_else(|| c.find_method("<init>", "()V")).unwrap()
}

fn finish_init(c: &Class, ok: bool) {
    let mut st = c.init.lock().unwrap();
    *st = if ok { InitState::Done } else { InitState::Failed };
    if ok {
        c.initialized.store(true, Release);
    }
}

/// Creates an exception object of class `cname` with `msg` (not running Java constructors: the
/// bundled Throwable constructors only store these fields) and fills its backtrace.
pub fn make_exception(vm: &Vm, sp: &Space, th: &JThread, cname: &str, msg: Option<&str>) -> Option<Ref> {
    let c = vm.reg.load(cname).unwrap_or_else(|e| panic!("rvm: {e}"));
    if !c.initialized.load(Acquire) && c.clinit().is_none() {
        finish_init(&c, true);
    }
    let m = match msg {
        Some(s) => Some(vm.new_string(sp, s, Alloc::Vm)?),
        None => None,
    };
    let bt = backtrace(vm, sp, th, Alloc::Vm)?;
    let e = vm.alloc_object(sp, &c, Alloc::Vm)?;
    if let Some(m) = m {
        sp.set(e as usize + vm.field_offset("java/lang/Throwable", "detailMessage", "Ljava/lang/String;"), m);
    }
    sp.set(e as usize + vm.field_offset("java/lang/Throwable", "backtrace", "Ljava/lang/Object;"), bt);
    sp.set(e as usize + vm.field_offset("java/lang/Throwable", "cause", "Ljava/lang/Throwable;"), e);
    Some(e)
}

/// An `int[]` of (method id, line) pairs for the thread's frames, innermost first.
pub fn backtrace(vm: &Vm, sp: &Space, th: &JThread, by: Alloc) -> Option<Ref> {
    let mut pairs = Vec::new();
    let mut skipping = true;
    for f in th.frames.iter().rev() {
        if is_marker(f) {
            continue;
        }
        let m = &f.method;
        if vm.reg.class(m.class_id).hidden {
            // (invokedynamic call sites' classes, which HotSpot's backtraces leave out too)
            continue;
        }
        if skipping {
            if m.name == "fillInStackTrace" || m.name == "fillInStackTrace0" {
                continue;
            }
            if m.name == "<init>" && vm.reg.class(m.class_id).supertypes.contains(&vm.reg.load("java/lang/Throwable").unwrap().id) {
                continue;
            }
        }
        skipping = false;
        let line = f.code.lines.get(f.pc.saturating_sub(1).min(f.code.lines.len().saturating_sub(1))).copied().unwrap_or(0);
        pairs.push(m.id as i32);
        pairs.push(if m.is_native { -2 } else { line as i32 });
    }
    let ia = vm.reg.load("[I").unwrap();
    let a = vm.alloc_array(sp, &ia, pairs.len(), by)?;
    for (i, v) in pairs.iter().enumerate() {
        sp.array_set(a, 4, i, *v as u32 as u64);
    }
    Some(a)
}

pub fn is_instance(vm: &Vm, sp: &Space, r: Ref, c: &Class) -> bool {
    let id = sp.class_id(r);
    id == c.id || vm.reg.class(id).is_subtype_of(c)
}

fn ensure_stack(stack: &mut Vec<Value>, need: usize) {
    if need > stack.len() {
        stack.resize(need.max(stack.len() * 2), Value::Top);
    }
}

/// Allocates a multi-dimensional array (JVMS multianewarray).
fn multi_array(vm: &Vm, sp: &Space, c: &Arc<Class>, dims: &[i32], by: Alloc) -> Option<Ref> {
    let a = vm.alloc_array(sp, c, dims[0] as usize, by)?;
    if dims.len() > 1 {
        let comp = c.component.as_ref().unwrap();
        for i in 0..dims[0] as usize {
            let sub = multi_array(vm, sp, comp, &dims[1..], by)?;
            sp.array_set(a, 4, i, sub as u64);
        }
    }
    Some(a)
}

/// A thread's first run: reports the entries of the frames pushed for it before it started (its
/// bottom frame; `main`'s launcher frame is not reported), each with the stack as it was then.
#[cold]
fn announce_start(vm: &Vm, th: &mut JThread) {
    th.started = true;
    for i in 0..th.frames.len() {
        let f = &th.frames[i];
        hook!(vm, method_entry(th.id, f.method.id, JavaStack::of(&th.frames[..=i])) if !is_marker(f) && f.method.has_events());
    }
}

pub fn run(vm: &Vm, vp: usize, th: &mut JThread) -> Outcome {
    let flag = &vm.sched.vps[vp].flag;
    let space = vm.heap.current();
    let sp_h: &Space = &space;
    let mut stack = std::mem::take(&mut th.stack);
    let mut sp = th.sp;

    if !th.started {
        announce_start(vm, th);
    }
    // Resuming after wait(): re-enter the monitor first.
    if let Reacquire::Monitor { monitor, count } = th.reacquire {
        if std::mem::take(&mut th.waiting) {
            let timed_out = crate::sched::wait_timed_out(vm, th.id);
            hook!(vm, monitor_waited(th.id, timed_out, JavaStack::of(&th.frames)));
        }
        if !crate::sched::reacquire(vm, th.id, monitor, count) {
            th.stack = stack;
            return Outcome::Blocked;
        }
        th.reacquire = Reacquire::None;
    }

    let mut pending: Option<Flow> = None;
    if th.pending != 0 {
        let p = th.pending;
        th.pending = 0;
        // Thrown at the instruction that blocked (the pc was already advanced past it).
        pending = Some(Flow::Throw(p));
    }

    'frames: loop {
        if th.frames.is_empty() {
            th.stack = stack;
            th.sp = 0;
            return Outcome::Finished;
        }
        let (code, mut pc, bp) = {
            let f = th.frames.last().unwrap();
            (f.code, f.pc, f.bp)
        };
        let insns: &[Insn] = &code.insns;

        macro_rules! push {
            ($v:expr) => {{
                let v = $v;
                stack[sp] = v;
                sp += 1;
            }};
        }
        macro_rules! pop {
            () => {{
                sp -= 1;
                stack[sp]
            }};
        }
        macro_rules! pop_i {
            () => {
                match pop!() {
                    Value::Int(i) => i,
                    v => bad(v),
                }
            };
        }
        macro_rules! pop_f {
            () => {
                match pop!() {
                    Value::Float(i) => i,
                    v => bad(v),
                }
            };
        }
        macro_rules! pop_l {
            () => {{
                sp -= 2;
                match stack[sp] {
                    Value::Long(i) => i,
                    v => bad(v),
                }
            }};
        }
        macro_rules! pop_d {
            () => {{
                sp -= 2;
                match stack[sp] {
                    Value::Double(i) => i,
                    v => bad(v),
                }
            }};
        }
        macro_rules! pop_r {
            () => {
                match pop!() {
                    Value::Ref(r) => r,
                    v => bad(v),
                }
            };
        }
        macro_rules! push_l {
            ($v:expr) => {{
                stack[sp] = Value::Long($v);
                stack[sp + 1] = Value::Top;
                sp += 2;
            }};
        }
        macro_rules! push_d {
            ($v:expr) => {{
                stack[sp] = Value::Double($v);
                stack[sp + 1] = Value::Top;
                sp += 2;
            }};
        }
        macro_rules! save {
            () => {{
                let f = th.frames.last_mut().unwrap();
                f.pc = pc;
            }};
        }

        let flow: Flow = 'exec: {
            if let Some(p) = pending.take() {
                // pc is already past the blocking instruction
                break 'exec p;
            }
            loop {
                let (npc, nsp) = crate::fast::fast(insns, &mut stack, pc, sp, bp, flag, sp_h, &vm.roots_fast);
                pc = npc;
                sp = nsp;
                let insn = &insns[pc];
                pc += 1;
                match insn {
                    Insn::Nop => {}
                    Insn::AconstNull => push!(Value::Ref(0)),
                    Insn::Iconst(i) => push!(Value::Int(*i)),
                    Insn::Lconst(i) => push_l!(*i),
                    Insn::Fconst(f) => push!(Value::Float(*f)),
                    Insn::Dconst(f) => push_d!(*f),
                    Insn::Ldc(i) => push!(Value::Ref(vm.root(*i))),
                    Insn::LdcClass(c) => push!(Value::Ref(vm.mirror(c))),
                    Insn::Load(i) => push!(stack[bp + *i as usize]),
                    Insn::Load2(i) => {
                        let j = bp + *i as usize;
                        stack[sp] = stack[j];
                        stack[sp + 1] = Value::Top;
                        sp += 2;
                    }
                    Insn::Store(i) => {
                        let v = pop!();
                        stack[bp + *i as usize] = v;
                    }
                    Insn::Store2(i) => {
                        sp -= 2;
                        let j = bp + *i as usize;
                        stack[j] = stack[sp];
                        stack[j + 1] = Value::Top;
                    }
                    Insn::ArrLoad(k) => {
                        let i = pop_i!();
                        let a = pop_r!();
                        if a == 0 {
                            break 'exec Flow::ThrowNew("java/lang/NullPointerException", String::new());
                        }
                        let len = sp_h.array_len(a);
                        if i < 0 || i as usize >= len {
                            break 'exec Flow::ThrowNew(
                                "java/lang/ArrayIndexOutOfBoundsException",
                                format!("Index {i} out of bounds for length {len}"),
                            );
                        }
                        let i = i as usize;
                        match k {
                            Kind::I => push!(Value::Int(sp_h.array_get(a, 4, i) as u32 as i32)),
                            Kind::L => push!(Value::Ref(sp_h.array_get(a, 4, i) as u32)),
                            Kind::F => push!(Value::Float(f32::from_bits(sp_h.array_get(a, 4, i) as u32))),
                            Kind::B | Kind::Z => push!(Value::Int(sp_h.array_get(a, 1, i) as u8 as i8 as i32)),
                            Kind::C => push!(Value::Int(sp_h.array_get(a, 2, i) as u16 as i32)),
                            Kind::S => push!(Value::Int(sp_h.array_get(a, 2, i) as u16 as i16 as i32)),
                            Kind::J => push_l!(sp_h.array_get(a, 8, i) as i64),
                            Kind::D => push_d!(f64::from_bits(sp_h.array_get(a, 8, i))),
                        }
                    }
                    Insn::ArrStore(k) => {
                        let v = if k.words() == 2 {
                            sp -= 2;
                            stack[sp]
                        } else {
                            pop!()
                        };
                        let i = pop_i!();
                        let a = pop_r!();
                        if a == 0 {
                            break 'exec Flow::ThrowNew("java/lang/NullPointerException", String::new());
                        }
                        let len = sp_h.array_len(a);
                        if i < 0 || i as usize >= len {
                            break 'exec Flow::ThrowNew(
                                "java/lang/ArrayIndexOutOfBoundsException",
                                format!("Index {i} out of bounds for length {len}"),
                            );
                        }
                        let i = i as usize;
                        match (k, v) {
                            (Kind::I, Value::Int(x)) => sp_h.array_set(a, 4, i, x as u32 as u64),
                            (Kind::L, Value::Ref(x)) => {
                                if x != 0 {
                                    let ac = vm.class_of(sp_h, a);
                                    let comp = ac.component.as_ref().unwrap();
                                    if !is_instance(vm, sp_h, x, comp) {
                                        let n = vm.class_of(sp_h, x).java_name();
                                        break 'exec Flow::ThrowNew("java/lang/ArrayStoreException", n);
                                    }
                                }
                                sp_h.array_set(a, 4, i, x as u64)
                            }
                            (Kind::F, Value::Float(x)) => sp_h.array_set(a, 4, i, x.to_bits() as u64),
                            (Kind::Z, Value::Int(x)) => {
                                // baload/bastore serve both boolean and byte arrays
                                sp_h.array_set(a, 1, i, x as u8 as u64)
                            }
                            (Kind::B, Value::Int(x)) => {
                                let ac = sp_h.class_id(a);
                                let is_bool = vm.reg.class(ac).elem == Some(Kind::Z);
                                sp_h.array_set(a, 1, i, if is_bool { (x & 1) as u64 } else { x as u8 as u64 })
                            }
                            (Kind::C | Kind::S, Value::Int(x)) => sp_h.array_set(a, 2, i, x as u16 as u64),
                            (Kind::J, Value::Long(x)) => sp_h.array_set(a, 8, i, x as u64),
                            (Kind::D, Value::Double(x)) => sp_h.array_set(a, 8, i, x.to_bits()),
                            (_, v) => bad(v),
                        }
                    }
                    Insn::Pop => sp -= 1,
                    Insn::Pop2 => sp -= 2,
                    Insn::Dup => {
                        stack[sp] = stack[sp - 1];
                        sp += 1;
                    }
                    Insn::DupX1 => {
                        let (v1, v2) = (stack[sp - 1], stack[sp - 2]);
                        stack[sp - 2] = v1;
                        stack[sp - 1] = v2;
                        stack[sp] = v1;
                        sp += 1;
                    }
                    Insn::DupX2 => {
                        let (v1, v2, v3) = (stack[sp - 1], stack[sp - 2], stack[sp - 3]);
                        stack[sp - 3] = v1;
                        stack[sp - 2] = v3;
                        stack[sp - 1] = v2;
                        stack[sp] = v1;
                        sp += 1;
                    }
                    Insn::Dup2 => {
                        stack[sp] = stack[sp - 2];
                        stack[sp + 1] = stack[sp - 1];
                        sp += 2;
                    }
                    Insn::Dup2X1 => {
                        let (v1, v2, v3) = (stack[sp - 1], stack[sp - 2], stack[sp - 3]);
                        stack[sp - 3] = v2;
                        stack[sp - 2] = v1;
                        stack[sp - 1] = v3;
                        stack[sp] = v2;
                        stack[sp + 1] = v1;
                        sp += 2;
                    }
                    Insn::Dup2X2 => {
                        let (v1, v2, v3, v4) = (stack[sp - 1], stack[sp - 2], stack[sp - 3], stack[sp - 4]);
                        stack[sp - 4] = v2;
                        stack[sp - 3] = v1;
                        stack[sp - 2] = v4;
                        stack[sp - 1] = v3;
                        stack[sp] = v2;
                        stack[sp + 1] = v1;
                        sp += 2;
                    }
                    Insn::Swap => stack.swap(sp - 1, sp - 2),
                    Insn::Iadd => {
                        let b = pop_i!();
                        let a = pop_i!();
                        push!(Value::Int(a.wrapping_add(b)))
                    }
                    Insn::Isub => {
                        let b = pop_i!();
                        let a = pop_i!();
                        push!(Value::Int(a.wrapping_sub(b)))
                    }
                    Insn::Imul => {
                        let b = pop_i!();
                        let a = pop_i!();
                        push!(Value::Int(a.wrapping_mul(b)))
                    }
                    Insn::Idiv | Insn::Irem => {
                        let b = pop_i!();
                        let a = pop_i!();
                        if b == 0 {
                            break 'exec Flow::ThrowNew("java/lang/ArithmeticException", "/ by zero".into());
                        }
                        push!(Value::Int(if matches!(insn, Insn::Idiv) { a.wrapping_div(b) } else { a.wrapping_rem(b) }))
                    }
                    Insn::Ladd => {
                        let b = pop_l!();
                        let a = pop_l!();
                        push_l!(a.wrapping_add(b))
                    }
                    Insn::Lsub => {
                        let b = pop_l!();
                        let a = pop_l!();
                        push_l!(a.wrapping_sub(b))
                    }
                    Insn::Lmul => {
                        let b = pop_l!();
                        let a = pop_l!();
                        push_l!(a.wrapping_mul(b))
                    }
                    Insn::Ldiv | Insn::Lrem => {
                        let b = pop_l!();
                        let a = pop_l!();
                        if b == 0 {
                            break 'exec Flow::ThrowNew("java/lang/ArithmeticException", "/ by zero".into());
                        }
                        push_l!(if matches!(insn, Insn::Ldiv) { a.wrapping_div(b) } else { a.wrapping_rem(b) })
                    }
                    Insn::Fadd => {
                        let b = pop_f!();
                        let a = pop_f!();
                        push!(Value::Float(a + b))
                    }
                    Insn::Fsub => {
                        let b = pop_f!();
                        let a = pop_f!();
                        push!(Value::Float(a - b))
                    }
                    Insn::Fmul => {
                        let b = pop_f!();
                        let a = pop_f!();
                        push!(Value::Float(a * b))
                    }
                    Insn::Fdiv => {
                        let b = pop_f!();
                        let a = pop_f!();
                        push!(Value::Float(a / b))
                    }
                    Insn::Frem => {
                        let b = pop_f!();
                        let a = pop_f!();
                        push!(Value::Float(a % b))
                    }
                    Insn::Dadd => {
                        let b = pop_d!();
                        let a = pop_d!();
                        push_d!(a + b)
                    }
                    Insn::Dsub => {
                        let b = pop_d!();
                        let a = pop_d!();
                        push_d!(a - b)
                    }
                    Insn::Dmul => {
                        let b = pop_d!();
                        let a = pop_d!();
                        push_d!(a * b)
                    }
                    Insn::Ddiv => {
                        let b = pop_d!();
                        let a = pop_d!();
                        push_d!(a / b)
                    }
                    Insn::Drem => {
                        let b = pop_d!();
                        let a = pop_d!();
                        push_d!(a % b)
                    }
                    Insn::Ineg => {
                        let a = pop_i!();
                        push!(Value::Int(a.wrapping_neg()))
                    }
                    Insn::Lneg => {
                        let a = pop_l!();
                        push_l!(a.wrapping_neg())
                    }
                    Insn::Fneg => {
                        let a = pop_f!();
                        push!(Value::Float(-a))
                    }
                    Insn::Dneg => {
                        let a = pop_d!();
                        push_d!(-a)
                    }
                    Insn::Ishl => {
                        let b = pop_i!();
                        let a = pop_i!();
                        push!(Value::Int(a.wrapping_shl(b as u32 & 31)))
                    }
                    Insn::Ishr => {
                        let b = pop_i!();
                        let a = pop_i!();
                        push!(Value::Int(a >> (b & 31)))
                    }
                    Insn::Iushr => {
                        let b = pop_i!();
                        let a = pop_i!();
                        push!(Value::Int(((a as u32) >> (b & 31)) as i32))
                    }
                    Insn::Lshl => {
                        let b = pop_i!();
                        let a = pop_l!();
                        push_l!(a.wrapping_shl(b as u32 & 63))
                    }
                    Insn::Lshr => {
                        let b = pop_i!();
                        let a = pop_l!();
                        push_l!(a >> (b & 63))
                    }
                    Insn::Lushr => {
                        let b = pop_i!();
                        let a = pop_l!();
                        push_l!(((a as u64) >> (b & 63)) as i64)
                    }
                    Insn::Iand => {
                        let b = pop_i!();
                        let a = pop_i!();
                        push!(Value::Int(a & b))
                    }
                    Insn::Ior => {
                        let b = pop_i!();
                        let a = pop_i!();
                        push!(Value::Int(a | b))
                    }
                    Insn::Ixor => {
                        let b = pop_i!();
                        let a = pop_i!();
                        push!(Value::Int(a ^ b))
                    }
                    Insn::Land => {
                        let b = pop_l!();
                        let a = pop_l!();
                        push_l!(a & b)
                    }
                    Insn::Lor => {
                        let b = pop_l!();
                        let a = pop_l!();
                        push_l!(a | b)
                    }
                    Insn::Lxor => {
                        let b = pop_l!();
                        let a = pop_l!();
                        push_l!(a ^ b)
                    }
                    Insn::Iinc(i, c) => {
                        let j = bp + *i as usize;
                        match stack[j] {
                            Value::Int(v) => stack[j] = Value::Int(v.wrapping_add(*c)),
                            v => bad(v),
                        }
                    }
                    Insn::I2l => {
                        let a = pop_i!();
                        push_l!(a as i64)
                    }
                    Insn::I2f => {
                        let a = pop_i!();
                        push!(Value::Float(a as f32))
                    }
                    Insn::I2d => {
                        let a = pop_i!();
                        push_d!(a as f64)
                    }
                    Insn::L2i => {
                        let a = pop_l!();
                        push!(Value::Int(a as i32))
                    }
                    Insn::L2f => {
                        let a = pop_l!();
                        push!(Value::Float(a as f32))
                    }
                    Insn::L2d => {
                        let a = pop_l!();
                        push_d!(a as f64)
                    }
                    // Rust's float-to-int casts saturate and map NaN to 0, exactly as the JVMS.
                    Insn::F2i => {
                        let a = pop_f!();
                        push!(Value::Int(a as i32))
                    }
                    Insn::F2l => {
                        let a = pop_f!();
                        push_l!(a as i64)
                    }
                    Insn::F2d => {
                        let a = pop_f!();
                        push_d!(a as f64)
                    }
                    Insn::D2i => {
                        let a = pop_d!();
                        push!(Value::Int(a as i32))
                    }
                    Insn::D2l => {
                        let a = pop_d!();
                        push_l!(a as i64)
                    }
                    Insn::D2f => {
                        let a = pop_d!();
                        push!(Value::Float(a as f32))
                    }
                    Insn::I2b => {
                        let a = pop_i!();
                        push!(Value::Int(a as i8 as i32))
                    }
                    Insn::I2c => {
                        let a = pop_i!();
                        push!(Value::Int(a as u16 as i32))
                    }
                    Insn::I2s => {
                        let a = pop_i!();
                        push!(Value::Int(a as i16 as i32))
                    }
                    Insn::Lcmp => {
                        let b = pop_l!();
                        let a = pop_l!();
                        push!(Value::Int((a > b) as i32 - (a < b) as i32))
                    }
                    Insn::Fcmpl | Insn::Fcmpg => {
                        let b = pop_f!();
                        let a = pop_f!();
                        let r = if a.is_nan() || b.is_nan() {
                            if matches!(insn, Insn::Fcmpg) { 1 } else { -1 }
                        } else {
                            (a > b) as i32 - (a < b) as i32
                        };
                        push!(Value::Int(r))
                    }
                    Insn::Dcmpl | Insn::Dcmpg => {
                        let b = pop_d!();
                        let a = pop_d!();
                        let r = if a.is_nan() || b.is_nan() {
                            if matches!(insn, Insn::Dcmpg) { 1 } else { -1 }
                        } else {
                            (a > b) as i32 - (a < b) as i32
                        };
                        push!(Value::Int(r))
                    }
                    Insn::If(c, t) => {
                        let a = pop_i!();
                        if c.test(a, 0) {
                            let t = *t as usize;
                            if t < pc && flag.load(Relaxed) {
                                pc = t;
                                save!();
                                break 'exec Flow::After(Outcome::Yield);
                            }
                            pc = t;
                        }
                    }
                    Insn::IfIcmp(c, t) => {
                        let b = pop_i!();
                        let a = pop_i!();
                        if c.test(a, b) {
                            let t = *t as usize;
                            if t < pc && flag.load(Relaxed) {
                                pc = t;
                                save!();
                                break 'exec Flow::After(Outcome::Yield);
                            }
                            pc = t;
                        }
                    }
                    Insn::IfAcmpEq(t) | Insn::IfAcmpNe(t) => {
                        let b = pop_r!();
                        let a = pop_r!();
                        if (a == b) == matches!(insn, Insn::IfAcmpEq(_)) {
                            let t = *t as usize;
                            if t < pc && flag.load(Relaxed) {
                                pc = t;
                                save!();
                                break 'exec Flow::After(Outcome::Yield);
                            }
                            pc = t;
                        }
                    }
                    Insn::IfNull(t) | Insn::IfNonNull(t) => {
                        let a = pop_r!();
                        if (a == 0) == matches!(insn, Insn::IfNull(_)) {
                            let t = *t as usize;
                            if t < pc && flag.load(Relaxed) {
                                pc = t;
                                save!();
                                break 'exec Flow::After(Outcome::Yield);
                            }
                            pc = t;
                        }
                    }
                    Insn::Goto(t) => {
                        let t = *t as usize;
                        if t < pc && flag.load(Relaxed) {
                            pc = t;
                            save!();
                            break 'exec Flow::After(Outcome::Yield);
                        }
                        pc = t;
                    }
                    Insn::TableSwitch(b) => {
                        let (low, default, targets) = (&b.0, b.1, &b.2);
                        let k = pop_i!();
                        let off = (k as i64) - (*low as i64);
                        let t = if off >= 0 && (off as usize) < targets.len() { targets[off as usize] } else { default } as usize;
                        if t < pc && flag.load(Relaxed) {
                            pc = t;
                            save!();
                            break 'exec Flow::After(Outcome::Yield);
                        }
                        pc = t;
                    }
                    Insn::LookupSwitch(b) => {
                        let k = pop_i!();
                        let t = match b.1.binary_search_by_key(&k, |x| x.0) {
                            Ok(i) => b.1[i].1,
                            Err(_) => b.0,
                        } as usize;
                        if t < pc && flag.load(Relaxed) {
                            pc = t;
                            save!();
                            break 'exec Flow::After(Outcome::Yield);
                        }
                        pc = t;
                    }
                    Insn::Return | Insn::Return1 | Insn::Return2 => {
                        let n = match insn {
                            Insn::Return => 0,
                            Insn::Return1 => 1,
                            _ => 2,
                        };
                        for i in 0..n {
                            stack[bp + i] = stack[sp - n + i];
                        }
                        pop_frame(vm, th, false);
                        sp = bp + n;
                        if let Some(caller) = th.frames.last() {
                            if let Some(Insn::InitDone(cid)) = caller.code.insns.first() {
                                // <clinit> returned into its marker frame
                                finish_init(vm.reg.class(*cid), true);
                                let m = pop_frame(vm, th, false);
                                sp = m.sp;
                            }
                        }
                        if th.frames.is_empty() {
                            th.stack = stack;
                            th.sp = 0;
                            return Outcome::Finished;
                        }
                        // (no epilogue yieldpoint on returning into `main`'s launcher frame)
                        if flag.load(Relaxed) && !is_marker(th.frames.last().unwrap()) {
                            th.stack = stack;
                            th.sp = sp;
                            return Outcome::Yield;
                        }
                        continue 'frames;
                    }
                    Insn::GetStatic(c, off, k) => {
                        if !c.initialized.load(Acquire) {
                            pc -= 1;
                            save!();
                            match start_init(vm, th, &mut stack, sp, c) {
                                Ok(None) => pc += 1,
                                Ok(Some(n)) => {
                                    sp = n;
                                    continue 'frames;
                                }
                                Err(f @ Flow::Redo(_)) => break 'exec f,
                                Err(f) => {
                                    pc += 1;
                                    break 'exec f;
                                }
                            }
                        }
                        let o = *off as usize;
                        let s = &c.statics;
                        match k {
                            Kind::J => push_l!(((s[o].load(Relaxed) as u64) | ((s[o + 1].load(Relaxed) as u64) << 32)) as i64),
                            Kind::D => push_d!(f64::from_bits((s[o].load(Relaxed) as u64) | ((s[o + 1].load(Relaxed) as u64) << 32))),
                            Kind::F => push!(Value::Float(f32::from_bits(s[o].load(Relaxed)))),
                            Kind::L => push!(Value::Ref(s[o].load(Relaxed))),
                            _ => push!(Value::Int(s[o].load(Relaxed) as i32)),
                        }
                    }
                    Insn::PutStatic(c, off, k) => {
                        if !c.initialized.load(Acquire) {
                            pc -= 1;
                            save!();
                            match start_init(vm, th, &mut stack, sp, c) {
                                Ok(None) => pc += 1,
                                Ok(Some(n)) => {
                                    sp = n;
                                    continue 'frames;
                                }
                                Err(f @ Flow::Redo(_)) => break 'exec f,
                                Err(f) => {
                                    pc += 1;
                                    break 'exec f;
                                }
                            }
                        }
                        let o = *off as usize;
                        let s = &c.statics;
                        let bits: u64 = match k {
                            Kind::J => pop_l!() as u64,
                            Kind::D => pop_d!().to_bits(),
                            Kind::F => pop_f!().to_bits() as u64,
                            Kind::L => pop_r!() as u64,
                            k => narrow(*k, pop_i!()) as u32 as u64,
                        };
                        s[o].store(bits as u32, Relaxed);
                        if k.words() == 2 {
                            s[o + 1].store((bits >> 32) as u32, Relaxed);
                        }
                    }
                    Insn::GetField(off, k) => {
                        let r = pop_r!();
                        if r == 0 {
                            break 'exec Flow::ThrowNew("java/lang/NullPointerException", String::new());
                        }
                        let o = r as usize + *off as usize;
                        match k {
                            Kind::J => push_l!(sp_h.get64(o) as i64),
                            Kind::D => push_d!(f64::from_bits(sp_h.get64(o))),
                            Kind::F => push!(Value::Float(f32::from_bits(sp_h.get(o)))),
                            Kind::L => push!(Value::Ref(sp_h.get(o))),
                            _ => push!(Value::Int(sp_h.get(o) as i32)),
                        }
                    }
                    Insn::PutField(off, k) => {
                        let bits: u64 = match k {
                            Kind::J => pop_l!() as u64,
                            Kind::D => pop_d!().to_bits(),
                            Kind::F => pop_f!().to_bits() as u64,
                            Kind::L => pop_r!() as u64,
                            k => narrow(*k, pop_i!()) as u32 as u64,
                        };
                        let r = pop_r!();
                        if r == 0 {
                            break 'exec Flow::ThrowNew("java/lang/NullPointerException", String::new());
                        }
                        let o = r as usize + *off as usize;
                        if k.words() == 2 {
                            sp_h.set64(o, bits)
                        } else {
                            sp_h.set(o, bits as u32)
                        }
                    }
                    Insn::InvokeVirtual(m, _) | Insn::InvokeInterface(m) | Insn::InvokeDirect(m) | Insn::InvokeStatic(_, m) => {
                        // Prologue yieldpoint (not in `main`'s launcher frame, which is no method).
                        if flag.load(Relaxed) && !is_marker(th.frames.last().unwrap()) {
                            pc -= 1;
                            save!();
                            break 'exec Flow::Redo(Outcome::Yield);
                        }
                        let target: &'static Method = match insn {
                            Insn::InvokeStatic(c, m) => {
                                if !c.initialized.load(Acquire) {
                                    pc -= 1;
                                    save!();
                                    match start_init(vm, th, &mut stack, sp, c) {
                                        Ok(None) => pc += 1,
                                        Ok(Some(n)) => {
                                            sp = n;
                                            continue 'frames;
                                        }
                                        Err(f @ Flow::Redo(_)) => break 'exec f,
                                        Err(f) => {
                                            pc += 1;
                                            break 'exec f;
                                        }
                                    }
                                }
                                m
                            }
                            _ => {
                                let recv = match stack[sp - m.arg_slots] {
                                    Value::Ref(r) => r,
                                    v => bad(v),
                                };
                                if recv == 0 {
                                    break 'exec Flow::ThrowNew("java/lang/NullPointerException", String::new());
                                }
                                match insn {
                                    Insn::InvokeVirtual(_, vi) => {
                                        let c = vm.reg.class(sp_h.class_id(recv));
                                        c.vtable[*vi as usize]
                                    }
                                    Insn::InvokeInterface(m) => {
                                        let c = vm.reg.class(sp_h.class_id(recv));
                                        match c.dispatch.get(&m.selector) {
                                            Some(t) => t,
                                            None => {
                                                break 'exec Flow::ThrowNew(
                                                    "java/lang/IncompatibleClassChangeError",
                                                    format!("Class {} does not implement the requested interface {}", c.java_name(), m.class_name.replace('/', ".")),
                                                )
                                            }
                                        }
                                    }
                                    _ => m,
                                }
                            }
                        };
                        if target.is_abstract {
                            break 'exec Flow::ThrowNew("java/lang/AbstractMethodError", target.full_name());
                        }
                        // Synchronized methods enter the monitor before the frame exists.
                        let mut sync = 0;
                        if target.is_sync {
                            let obj = if target.is_static {
                                vm.mirror(vm.reg.class(target.class_id))
                            } else {
                                match stack[sp - target.arg_slots] {
                                    Value::Ref(r) => r,
                                    v => bad(v),
                                }
                            };
                            if !crate::sched::monitor_enter(vm, th, obj) {
                                pc -= 1;
                                save!();
                                break 'exec Flow::Redo(Outcome::Blocked);
                            }
                            sync = obj;
                        }
                        if target.is_native {
                            save!();
                            let nf = *target.native.get_or_init(|| vm.natives.get(&*format!("{}.{}{}", target.class_name, target.name, target.desc)).copied());
                            let Some(nf) = nf else {
                                if sync != 0 {
                                    let _ = crate::sched::monitor_exit(vm, th.id, sync);
                                }
                                break 'exec Flow::ThrowNew("java/lang/UnsatisfiedLinkError", target.full_name());
                            };
                            hook!(vm, method_entry(th.id, target.id, JavaStack::with_native(&th.frames, target.id)) if target.has_events());
                            let n = target.arg_slots;
                            let res = {
                                let mut ctx = NCtx { vm, vp, th: &mut *th, space: sp_h, method: target.id };
                                nf(&mut ctx, &stack[sp - n..sp])
                            };
                            hook!(vm, method_exit(
                                th.id,
                                target.id,
                                matches!(res, NRes::Throw(_) | NRes::ThrowNew(..)),
                                JavaStack::with_native(&th.frames, target.id)
                            ) if target.has_events());
                            if sync != 0 && !matches!(res, NRes::NeedGc) {
                                let _ = crate::sched::monitor_exit(vm, th.id, sync);
                            }
                            match res {
                                NRes::Ret(v) => {
                                    sp -= n;
                                    match v {
                                        None => {}
                                        Some(v @ (Value::Long(_) | Value::Double(_))) => {
                                            stack[sp] = v;
                                            stack[sp + 1] = Value::Top;
                                            sp += 2;
                                        }
                                        Some(v) => push!(v),
                                    }
                                }
                                NRes::Throw(e) => break 'exec Flow::Throw(e),
                                NRes::ThrowNew(c, m) => break 'exec Flow::ThrowNew(c, m),
                                NRes::NeedGc => {
                                    if sync != 0 {
                                        let _ = crate::sched::monitor_exit(vm, th.id, sync);
                                    }
                                    pc -= 1;
                                    save!();
                                    break 'exec Flow::Redo(Outcome::NeedGc);
                                }
                                NRes::Block | NRes::Yield => {
                                    sp -= n;
                                    save!();
                                    th.stack = stack;
                                    th.sp = sp;
                                    return if matches!(res, NRes::Block) { Outcome::Blocked } else { Outcome::Yielded };
                                }
                                NRes::Exit(c) => {
                                    th.stack = stack;
                                    th.sp = sp;
                                    return Outcome::Exit(c);
                                }
                                NRes::StartFrames => {
                                    // the native pushed frames (e.g. Thread start helpers)
                                    sp -= n;
                                    continue 'frames;
                                }
                            }
                        } else {
                            let code = match code_of(vm, target) {
                                Ok(c) => c,
                                Err(e) => break 'exec Flow::Fatal(e),
                            };
                            th.frames.last_mut().unwrap().pc = pc;
                            th.frames.last_mut().unwrap().sp = sp - target.arg_slots;
                            match push_frame(vm, th, &mut stack, sp, target, code, sync) {
                                Ok(nsp) => {
                                    sp = nsp;
                                    continue 'frames;
                                }
                                Err(f) => {
                                    if sync != 0 {
                                        let _ = crate::sched::monitor_exit(vm, th.id, sync);
                                    }
                                    break 'exec f;
                                }
                            }
                        }
                    }
                    Insn::InitClass(c) => {
                        if !c.initialized.load(Acquire) {
                            pc -= 1;
                            save!();
                            match start_init(vm, th, &mut stack, sp, c) {
                                Ok(None) => pc += 1,
                                Ok(Some(n)) => {
                                    sp = n;
                                    continue 'frames;
                                }
                                Err(f @ Flow::Redo(_)) => break 'exec f,
                                Err(f) => {
                                    pc += 1;
                                    break 'exec f;
                                }
                            }
                        }
                    }
                    Insn::New(c) => {
                        if !c.initialized.load(Acquire) {
                            pc -= 1;
                            save!();
                            match start_init(vm, th, &mut stack, sp, c) {
                                Ok(None) => pc += 1,
                                Ok(Some(n)) => {
                                    sp = n;
                                    continue 'frames;
                                }
                                Err(f @ Flow::Redo(_)) => break 'exec f,
                                Err(f) => {
                                    pc += 1;
                                    break 'exec f;
                                }
                            }
                        }
                        match vm.alloc_object(sp_h, c, Alloc::Java(th, NO_METHOD)) {
                            Some(r) => push!(Value::Ref(r)),
                            None => {
                                pc -= 1;
                                save!();
                                break 'exec Flow::Redo(Outcome::NeedGc);
                            }
                        }
                    }
                    Insn::NewArray(c) => {
                        let n = match stack[sp - 1] {
                            Value::Int(i) => i,
                            v => bad(v),
                        };
                        if n < 0 {
                            break 'exec Flow::ThrowNew("java/lang/NegativeArraySizeException", n.to_string());
                        }
                        if crate::heap::array_words(c.elem.unwrap().elem_size(), n as usize) > vm.heap.max_semi_words {
                            break 'exec Flow::Throw(vm.root(vm.oom_root.load(Relaxed)));
                        }
                        match vm.alloc_array(sp_h, c, n as usize, Alloc::Java(th, NO_METHOD)) {
                            Some(r) => stack[sp - 1] = Value::Ref(r),
                            None => {
                                pc -= 1;
                                save!();
                                break 'exec Flow::Redo(Outcome::NeedGc);
                            }
                        }
                    }
                    Insn::MultiNewArray(c, d) => {
                        let d = *d as usize;
                        let mut dims = Vec::with_capacity(d);
                        for i in 0..d {
                            match stack[sp - d + i] {
                                Value::Int(x) => dims.push(x),
                                v => bad(v),
                            }
                        }
                        if let Some(n) = dims.iter().find(|x| **x < 0) {
                            break 'exec Flow::ThrowNew("java/lang/NegativeArraySizeException", n.to_string());
                        }
                        match multi_array(vm, sp_h, c, &dims, Alloc::Java(th, NO_METHOD)) {
                            Some(r) => {
                                sp -= d;
                                push!(Value::Ref(r));
                            }
                            None => {
                                pc -= 1;
                                save!();
                                break 'exec Flow::Redo(Outcome::NeedGc);
                            }
                        }
                    }
                    Insn::ArrayLength => {
                        let a = pop_r!();
                        if a == 0 {
                            break 'exec Flow::ThrowNew("java/lang/NullPointerException", String::new());
                        }
                        push!(Value::Int(sp_h.array_len(a) as i32))
                    }
                    Insn::Athrow => {
                        let e = pop_r!();
                        if e == 0 {
                            break 'exec Flow::ThrowNew("java/lang/NullPointerException", String::new());
                        }
                        break 'exec Flow::Throw(e);
                    }
                    Insn::CheckCast(c) => {
                        if let Value::Ref(r) = stack[sp - 1] {
                            if r != 0 && !is_instance(vm, sp_h, r, c) {
                                let from = vm.class_of(sp_h, r);
                                break 'exec Flow::ThrowNew(
                                    "java/lang/ClassCastException",
                                    format!("class {} cannot be cast to class {}", from.java_name(), c.java_name()),
                                );
                            }
                        }
                    }
                    Insn::InstanceOf(c) => {
                        let r = pop_r!();
                        push!(Value::Int((r != 0 && is_instance(vm, sp_h, r, c)) as i32))
                    }
                    Insn::MonitorEnter => {
                        let r = match stack[sp - 1] {
                            Value::Ref(r) => r,
                            v => bad(v),
                        };
                        if r == 0 {
                            break 'exec Flow::ThrowNew("java/lang/NullPointerException", String::new());
                        }
                        if !crate::sched::monitor_enter(vm, th, r) {
                            pc -= 1;
                            save!();
                            break 'exec Flow::Redo(Outcome::Blocked);
                        }
                        sp -= 1;
                    }
                    Insn::MonitorExit => {
                        let r = pop_r!();
                        if r == 0 {
                            break 'exec Flow::ThrowNew("java/lang/NullPointerException", String::new());
                        }
                        if crate::sched::monitor_exit(vm, th.id, r).is_err() {
                            break 'exec Flow::ThrowNew("java/lang/IllegalMonitorStateException", String::new());
                        }
                    }
                    Insn::Error(e) => {
                        let (c, m) = &**e;
                        let c: &'static str = leak_name(c);
                        break 'exec Flow::ThrowNew(c, m.to_string());
                    }
                    Insn::Fatal(msg) => break 'exec Flow::Fatal(msg.to_string()),
                    Insn::InitDone(cid) => {
                        finish_init(vm.reg.class(*cid), true);
                        let m = pop_frame(vm, th, false);
                        sp = m.sp;
                        continue 'frames;
                    }
                }
            }
        };

        // Slow paths.
        match flow {
            Flow::Redo(Outcome::NeedGc) => {
                let cols = vm.heap.collections.load(Relaxed);
                let at = (th.frames.len(), pc);
                let full = vm.heap.current().w.len() >= vm.heap.max_semi_words;
                if th.gc_at == at
                    && th.gc_seen != usize::MAX
                    && cols > th.gc_seen
                    && full
                    && (vm.heap.last_fail.load(Relaxed) > vm.heap.free_after_gc.load(Relaxed)
                        || vm.heap.free_after_gc.load(Relaxed) < vm.heap.max_semi_words / 64)
                {
                    th.gc_seen = usize::MAX;
                    th.frames.last_mut().unwrap().pc = pc + 1;
                    let e = vm.root(vm.oom_root.load(Relaxed));
                    if let Some(o) = unwind(vm, th, &mut stack, &mut sp, sp_h, e) {
                        th.stack = stack;
                        th.sp = sp;
                        return o;
                    }
                    continue 'frames;
                }
                th.gc_seen = cols;
                th.gc_at = at;
                th.stack = stack;
                th.sp = sp;
                return Outcome::NeedGc;
            }
            Flow::Redo(o) | Flow::After(o) => {
                th.stack = stack;
                th.sp = sp;
                return o;
            }
            Flow::Fatal(msg) => {
                vm.flush_out();
                eprintln!("{msg}");
                th.stack = stack;
                th.sp = sp;
                return Outcome::Exit(1);
            }
            Flow::ThrowNew(cname, msg) => {
                save!();
                let m = if msg.is_empty() && cname != "java/lang/ArithmeticException" { None } else { Some(msg.as_str()) };
                match make_exception(vm, sp_h, th, cname, m) {
                    Some(e) => {
                        pending = Some(Flow::Throw(e));
                        // fall through to unwinding on the next iteration
                        if let Some(Flow::Throw(e)) = pending.take() {
                            if let Some(o) = unwind(vm, th, &mut stack, &mut sp, sp_h, e) {
                                th.stack = stack;
                                th.sp = sp;
                                return o;
                            }
                        }
                        continue 'frames;
                    }
                    None => {
                        // Not even room for the exception: collect, then re-execute.
                        let f = th.frames.last_mut().unwrap();
                        f.pc = pc - 1;
                        th.stack = stack;
                        th.sp = sp;
                        return Outcome::NeedGc;
                    }
                }
            }
            Flow::Throw(e) => {
                save!();
                if let Some(o) = unwind(vm, th, &mut stack, &mut sp, sp_h, e) {
                    th.stack = stack;
                    th.sp = sp;
                    return o;
                }
                continue 'frames;
            }
        }
    }
}

fn leak_name(s: &Arc<str>) -> &'static str {
    // Linkage error class names are few; keep them for the VM's lifetime.
    static NAMES: std::sync::Mutex<Vec<&'static str>> = std::sync::Mutex::new(Vec::new());
    let mut n = NAMES.lock().unwrap();
    if let Some(x) = n.iter().find(|x| ***x == **s) {
        return x;
    }
    let l: &'static str = Box::leak(s.to_string().into_boxed_str());
    n.push(l);
    l
}

#[inline(always)]
fn narrow(k: Kind, v: i32) -> i32 {
    match k {
        Kind::Z => v & 1,
        Kind::B => v as i8 as i32,
        Kind::C => v as u16 as i32,
        Kind::S => v as i16 as i32,
        _ => v,
    }
}

/// Unwinds to a handler for exception `e` (the top frame's pc is one past the throwing
/// instruction). Returns `Some` when the thread has no frame left.
fn unwind(vm: &Vm, th: &mut JThread, stack: &mut Vec<Value>, sp: &mut usize, sph: &Space, e: Ref) -> Option<Outcome> {
    unwind_from(vm, th, stack, sp, sph, e, false)
}

/// [`unwind`] where the top frame is the one a failed class initialisation returns to.
fn unwind_below_init(vm: &Vm, th: &mut JThread, stack: &mut Vec<Value>, sp: &mut usize, sph: &Space, e: Ref) -> Option<Outcome> {
    unwind_from(vm, th, stack, sp, sph, e, true)
}

fn unwind_from(vm: &Vm, th: &mut JThread, stack: &mut Vec<Value>, sp: &mut usize, sph: &Space, e: Ref, mut below_init: bool) -> Option<Outcome> {
    // The frame under a class-initialisation marker stopped *at* the instruction that started
    // the initialisation (`new`, `getstatic`, …: it runs again afterwards), not one past it.
    loop {
        let Some(f) = th.frames.last() else {
            return Some(uncaught(vm, th, stack, sp, e));
        };
        if let Some(Insn::InitDone(cid)) = f.code.insns.first() {
            let c = vm.reg.class(*cid);
            finish_init(c, false);
            pop_frame(vm, th, true);
            let err = vm.reg.load("java/lang/Error").unwrap();
            if !is_instance(vm, sph, e, &err) {
                if let Some(x) = make_exception(vm, sph, th, "java/lang/ExceptionInInitializerError", None) {
                    sph.set(x as usize + vm.field_offset("java/lang/Throwable", "cause", "Ljava/lang/Throwable;"), e);
                    return unwind_below_init(vm, th, stack, sp, sph, x);
                }
            }
            below_init = true;
            continue;
        }
        let at = if below_init { f.pc as u32 } else { f.pc.saturating_sub(1) as u32 };
        below_init = false;
        let mut target = None;
        for h in &f.code.handlers {
            if at >= h.start && at < h.end {
                let ok = match &h.catch {
                    None => true,
                    Some(c) => is_instance(vm, sph, e, c),
                };
                if ok {
                    target = Some(h.target as usize);
                    break;
                }
            }
        }
        if let Some(t) = target {
            let f = th.frames.last_mut().unwrap();
            f.pc = t;
            let base = f.bp + f.code.max_locals.max(f.method.arg_slots);
            ensure_stack(stack, base + f.code.max_stack + 2);
            stack[base] = Value::Ref(e);
            *sp = base + 1;
            return None;
        }
        let f = pop_frame(vm, th, true);
        *sp = f.bp;
    }
}

/// No handler: run `Thread.uncaughtFromVm(Throwable)` on the thread object (prints the stack
/// trace as HotSpot does), after which the thread ends.
fn uncaught(vm: &Vm, th: &mut JThread, stack: &mut Vec<Value>, sp: &mut usize, e: Ref) -> Outcome {
    // A second uncaught exception (thrown while reporting the first, e.g. OutOfMemoryError) ends
    // the thread without another report.
    if th.obj == 0 || th.uncaught {
        th.uncaught = true;
        return Outcome::Finished;
    }
    th.uncaught = true;
    let tc = vm.reg.load("java/lang/Thread").unwrap();
    let m = tc.find_method("uncaughtFromVm", "(Ljava/lang/Throwable;)V").expect("Thread.uncaughtFromVm");
    let code = code_of(vm, m).expect("translate uncaughtFromVm");
    ensure_stack(stack, 16);
    stack[0] = Value::Ref(th.obj);
    stack[1] = Value::Ref(e);
    *sp = 2;
    match push_frame(vm, th, stack, 2, m, code, 0) {
        Ok(n) => {
            *sp = n;
            Outcome::Yield
        }
        Err(_) => Outcome::Finished,
    }
}

/// Prepares `th` to call `m` with `args` as its bottom frame (thread start, main).
pub fn call_bottom(vm: &Vm, th: &mut JThread, m: &'static Method, args: &[Value]) -> Result<(), String> {
    let code = code_of(vm, m)?;
    let mut stack = std::mem::take(&mut th.stack);
    ensure_stack(&mut stack, args.len() + 8);
    stack[..args.len()].copy_from_slice(args);
    let r = push_frame(vm, th, &mut stack, args.len(), m, code, 0);
    th.stack = stack;
    match r {
        Ok(n) => {
            th.sp = n;
            Ok(())
        }
        Err(_) => Err("cannot start thread".into()),
    }
}

/// Prepares `th` (the main thread, not yet started) to call `main_class.main(args)` the way
/// HotSpot's launcher does: the class is initialised first (superclasses' `<clinit>` first), and only
/// then is `main`'s frame pushed, so `<clinit>` and `main` are siblings at the root of the thread's
/// call tree and `main` is not on the stack while `<clinit>` runs.
///
/// The thread starts with a single launcher frame, a VM frame like the class-initialisation
/// markers (`Code::synthetic`: no events, not in stacks or backtraces, no yieldpoints) whose code
/// is `invokestatic main; return` with `args` on its operand stack. The `invokestatic` initialises
/// the class as any other does (pushing `<clinit>` frames and re-executing when they are done,
/// waiting for another thread's initialisation, wrapping an exception in
/// `ExceptionInInitializerError`, which then ends the thread as an uncaught exception), then calls
/// `main`; the `return` ends the thread.
pub fn launch_main(vm: &Vm, th: &mut JThread, main_class: &Arc<Class>, main: &'static Method, args: &[Value]) {
    let code: &'static Code = Box::leak(Box::new(Code::synthetic(vec![Insn::InvokeStatic(main_class.clone(), main), Insn::Return])));
    ensure_stack(&mut th.stack, args.len() + 8);
    th.stack[..args.len()].copy_from_slice(args);
    th.sp = args.len();
    th.frames.push(Frame { method: marker_method(vm), code, pc: 0, bp: 0, sp: 0, sync: 0 });
}
