//! The interpreter's fast path: a small loop over the simple instructions (constants, locals,
//! arithmetic, comparisons, branches, field and array accesses that cannot fail) that keeps the
//! program counter and stack pointer in registers. It stops, without executing it, at the first
//! instruction it does not handle — calls, allocation, anything that may throw or block, and a
//! backward branch when the processor's yield flag is set — and the full interpreter loop in
//! `interp::run` takes over from there. (In the large `run` function these locals end up in
//! memory, which costs a store-to-load round trip per instruction.)

use crate::class::Kind;
use crate::code::Insn;
use crate::heap::Space;
use crate::vm::Value;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering::{Acquire, Relaxed}};

/// Runs from `pc` until an instruction that the full loop must execute; returns `(pc, sp)` with
/// `pc` at that instruction.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
pub fn fast(insns: &[Insn], stack: &mut [Value], mut pc: usize, mut sp: usize, bp: usize, flag: &AtomicBool, heap: &Space, roots: &[AtomicU32]) -> (usize, usize) {
    macro_rules! int {
        ($v:expr) => {
            match $v {
                Value::Int(i) => i,
                _ => return (pc, sp),
            }
        };
    }
    macro_rules! long {
        ($v:expr) => {
            match $v {
                Value::Long(i) => i,
                _ => return (pc, sp),
            }
        };
    }
    macro_rules! dbl {
        ($v:expr) => {
            match $v {
                Value::Double(i) => i,
                _ => return (pc, sp),
            }
        };
    }
    macro_rules! flt {
        ($v:expr) => {
            match $v {
                Value::Float(i) => i,
                _ => return (pc, sp),
            }
        };
    }
    macro_rules! reference {
        ($v:expr) => {
            match $v {
                Value::Ref(i) => i,
                _ => return (pc, sp),
            }
        };
    }
    macro_rules! int2 {
        ($op:expr) => {{
            let b = int!(stack[sp - 1]);
            let a = int!(stack[sp - 2]);
            stack[sp - 2] = Value::Int($op(a, b));
            sp -= 1;
        }};
    }
    macro_rules! long2 {
        ($op:expr) => {{
            let b = long!(stack[sp - 2]);
            let a = long!(stack[sp - 4]);
            stack[sp - 4] = Value::Long($op(a, b));
            sp -= 2;
        }};
    }
    macro_rules! dbl2 {
        ($op:expr) => {{
            let b = dbl!(stack[sp - 2]);
            let a = dbl!(stack[sp - 4]);
            stack[sp - 4] = Value::Double($op(a, b));
            sp -= 2;
        }};
    }
    macro_rules! flt2 {
        ($op:expr) => {{
            let b = flt!(stack[sp - 1]);
            let a = flt!(stack[sp - 2]);
            stack[sp - 2] = Value::Float($op(a, b));
            sp -= 1;
        }};
    }
    // Pops `$n` operands and jumps; at a backward branch with the yield flag set it returns
    // instead, leaving the branch (operands included) for the full loop's yieldpoint.
    macro_rules! jump {
        ($t:expr, $n:expr) => {{
            let t = $t as usize;
            if t <= pc && flag.load(Relaxed) {
                return (pc, sp);
            }
            sp -= $n;
            pc = t;
            continue;
        }};
    }
    loop {
        let insn = &insns[pc];
        match insn {
            Insn::Nop => {}
            Insn::AconstNull => {
                stack[sp] = Value::Ref(0);
                sp += 1;
            }
            Insn::Iconst(i) => {
                stack[sp] = Value::Int(*i);
                sp += 1;
            }
            Insn::Lconst(i) => {
                stack[sp] = Value::Long(*i);
                stack[sp + 1] = Value::Top;
                sp += 2;
            }
            Insn::Fconst(f) => {
                stack[sp] = Value::Float(*f);
                sp += 1;
            }
            Insn::Dconst(f) => {
                stack[sp] = Value::Double(*f);
                stack[sp + 1] = Value::Top;
                sp += 2;
            }
            Insn::Load(i) => {
                stack[sp] = stack[bp + *i as usize];
                sp += 1;
            }
            Insn::Load2(i) => {
                stack[sp] = stack[bp + *i as usize];
                stack[sp + 1] = Value::Top;
                sp += 2;
            }
            Insn::Store(i) => {
                sp -= 1;
                stack[bp + *i as usize] = stack[sp];
            }
            Insn::Store2(i) => {
                sp -= 2;
                let j = bp + *i as usize;
                stack[j] = stack[sp];
                stack[j + 1] = Value::Top;
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
            Insn::Dup2 => {
                stack[sp] = stack[sp - 2];
                stack[sp + 1] = stack[sp - 1];
                sp += 2;
            }
            Insn::Swap => stack.swap(sp - 1, sp - 2),
            Insn::Iadd => int2!(|a: i32, b: i32| a.wrapping_add(b)),
            Insn::Isub => int2!(|a: i32, b: i32| a.wrapping_sub(b)),
            Insn::Imul => int2!(|a: i32, b: i32| a.wrapping_mul(b)),
            Insn::Iand => int2!(|a: i32, b: i32| a & b),
            Insn::Ior => int2!(|a: i32, b: i32| a | b),
            Insn::Ixor => int2!(|a: i32, b: i32| a ^ b),
            Insn::Ishl => int2!(|a: i32, b: i32| a.wrapping_shl(b as u32 & 31)),
            Insn::Ishr => int2!(|a: i32, b: i32| a >> (b & 31)),
            Insn::Iushr => int2!(|a: i32, b: i32| ((a as u32) >> (b & 31)) as i32),
            Insn::Idiv | Insn::Irem => {
                let b = int!(stack[sp - 1]);
                let a = int!(stack[sp - 2]);
                if b == 0 {
                    return (pc, sp);
                }
                stack[sp - 2] = Value::Int(if matches!(insn, Insn::Idiv) { a.wrapping_div(b) } else { a.wrapping_rem(b) });
                sp -= 1;
            }
            Insn::Ladd => long2!(|a: i64, b: i64| a.wrapping_add(b)),
            Insn::Lsub => long2!(|a: i64, b: i64| a.wrapping_sub(b)),
            Insn::Lmul => long2!(|a: i64, b: i64| a.wrapping_mul(b)),
            Insn::Land => long2!(|a: i64, b: i64| a & b),
            Insn::Lor => long2!(|a: i64, b: i64| a | b),
            Insn::Lxor => long2!(|a: i64, b: i64| a ^ b),
            Insn::Dadd => dbl2!(|a: f64, b: f64| a + b),
            Insn::Dsub => dbl2!(|a: f64, b: f64| a - b),
            Insn::Dmul => dbl2!(|a: f64, b: f64| a * b),
            Insn::Ddiv => dbl2!(|a: f64, b: f64| a / b),
            Insn::Fadd => flt2!(|a: f32, b: f32| a + b),
            Insn::Fsub => flt2!(|a: f32, b: f32| a - b),
            Insn::Fmul => flt2!(|a: f32, b: f32| a * b),
            Insn::Fdiv => flt2!(|a: f32, b: f32| a / b),
            Insn::Ldc(i) => {
                stack[sp] = Value::Ref(roots[*i as usize].load(Relaxed));
                sp += 1;
            }
            Insn::GetStatic(c, off, k) if c.initialized.load(Acquire) => {
                let o = *off as usize;
                let st = &c.statics;
                match k {
                    Kind::L => stack[sp] = Value::Ref(st[o].load(Relaxed)),
                    Kind::F => stack[sp] = Value::Float(f32::from_bits(st[o].load(Relaxed))),
                    Kind::J | Kind::D => {
                        let bits = (st[o].load(Relaxed) as u64) | ((st[o + 1].load(Relaxed) as u64) << 32);
                        stack[sp] = if *k == Kind::J { Value::Long(bits as i64) } else { Value::Double(f64::from_bits(bits)) };
                        stack[sp + 1] = Value::Top;
                        sp += 1;
                    }
                    _ => stack[sp] = Value::Int(st[o].load(Relaxed) as i32),
                }
                sp += 1;
            }
            Insn::PutStatic(c, off, k @ (Kind::I | Kind::L | Kind::J)) if c.initialized.load(Acquire) => {
                let o = *off as usize;
                let st = &c.statics;
                match (k, stack[sp - 1]) {
                    (Kind::I, Value::Int(x)) => {
                        st[o].store(x as u32, Relaxed);
                        sp -= 1;
                    }
                    (Kind::L, Value::Ref(x)) => {
                        st[o].store(x, Relaxed);
                        sp -= 1;
                    }
                    (Kind::J, Value::Top) => {
                        let x = long!(stack[sp - 2]) as u64;
                        st[o].store(x as u32, Relaxed);
                        st[o + 1].store((x >> 32) as u32, Relaxed);
                        sp -= 2;
                    }
                    _ => return (pc, sp),
                }
            }
            Insn::Lshl | Insn::Lshr | Insn::Lushr => {
                let b = int!(stack[sp - 1]);
                let a = long!(stack[sp - 3]);
                stack[sp - 3] = Value::Long(match insn {
                    Insn::Lshl => a.wrapping_shl(b as u32 & 63),
                    Insn::Lshr => a >> (b & 63),
                    _ => ((a as u64) >> (b & 63)) as i64,
                });
                sp -= 1;
            }
            Insn::Lneg => {
                let a = long!(stack[sp - 2]);
                stack[sp - 2] = Value::Long(a.wrapping_neg());
            }
            Insn::Dneg => {
                let a = dbl!(stack[sp - 2]);
                stack[sp - 2] = Value::Double(-a);
            }
            Insn::L2d => {
                let a = long!(stack[sp - 2]);
                stack[sp - 2] = Value::Double(a as f64);
            }
            Insn::D2l => {
                let a = dbl!(stack[sp - 2]);
                stack[sp - 2] = Value::Long(a as i64);
            }
            Insn::I2s => {
                let a = int!(stack[sp - 1]);
                stack[sp - 1] = Value::Int(a as i16 as i32);
            }
            Insn::I2f => {
                let a = int!(stack[sp - 1]);
                stack[sp - 1] = Value::Float(a as f32);
            }
            Insn::F2d => {
                let a = flt!(stack[sp - 1]);
                stack[sp - 1] = Value::Double(a as f64);
                stack[sp] = Value::Top;
                sp += 1;
            }
            Insn::D2f => {
                let a = dbl!(stack[sp - 2]);
                stack[sp - 2] = Value::Float(a as f32);
                sp -= 1;
            }
            Insn::Dcmpl | Insn::Dcmpg => {
                let b = dbl!(stack[sp - 2]);
                let a = dbl!(stack[sp - 4]);
                let r = if a.is_nan() || b.is_nan() {
                    if matches!(insn, Insn::Dcmpg) { 1 } else { -1 }
                } else {
                    (a > b) as i32 - (a < b) as i32
                };
                stack[sp - 4] = Value::Int(r);
                sp -= 3;
            }
            Insn::Fcmpl | Insn::Fcmpg => {
                let b = flt!(stack[sp - 1]);
                let a = flt!(stack[sp - 2]);
                let r = if a.is_nan() || b.is_nan() {
                    if matches!(insn, Insn::Fcmpg) { 1 } else { -1 }
                } else {
                    (a > b) as i32 - (a < b) as i32
                };
                stack[sp - 2] = Value::Int(r);
                sp -= 1;
            }
            Insn::Ineg => {
                let a = int!(stack[sp - 1]);
                stack[sp - 1] = Value::Int(a.wrapping_neg());
            }
            Insn::Iinc(i, c) => {
                let j = bp + *i as usize;
                let v = int!(stack[j]);
                stack[j] = Value::Int(v.wrapping_add(*c));
            }
            Insn::I2l => {
                let a = int!(stack[sp - 1]);
                stack[sp - 1] = Value::Long(a as i64);
                stack[sp] = Value::Top;
                sp += 1;
            }
            Insn::I2d => {
                let a = int!(stack[sp - 1]);
                stack[sp - 1] = Value::Double(a as f64);
                stack[sp] = Value::Top;
                sp += 1;
            }
            Insn::L2i => {
                let a = long!(stack[sp - 2]);
                stack[sp - 2] = Value::Int(a as i32);
                sp -= 1;
            }
            Insn::D2i => {
                let a = dbl!(stack[sp - 2]);
                stack[sp - 2] = Value::Int(a as i32);
                sp -= 1;
            }
            Insn::I2c => {
                let a = int!(stack[sp - 1]);
                stack[sp - 1] = Value::Int(a as u16 as i32);
            }
            Insn::I2b => {
                let a = int!(stack[sp - 1]);
                stack[sp - 1] = Value::Int(a as i8 as i32);
            }
            Insn::Lcmp => {
                let b = long!(stack[sp - 2]);
                let a = long!(stack[sp - 4]);
                stack[sp - 4] = Value::Int((a > b) as i32 - (a < b) as i32);
                sp -= 3;
            }
            Insn::If(c, t) => {
                let a = int!(stack[sp - 1]);
                if c.test(a, 0) {
                    jump!(*t, 1);
                }
                sp -= 1;
            }
            Insn::IfIcmp(c, t) => {
                let b = int!(stack[sp - 1]);
                let a = int!(stack[sp - 2]);
                if c.test(a, b) {
                    jump!(*t, 2);
                }
                sp -= 2;
            }
            Insn::IfAcmpEq(t) | Insn::IfAcmpNe(t) => {
                let b = reference!(stack[sp - 1]);
                let a = reference!(stack[sp - 2]);
                if (a == b) == matches!(insn, Insn::IfAcmpEq(_)) {
                    jump!(*t, 2);
                }
                sp -= 2;
            }
            Insn::IfNull(t) | Insn::IfNonNull(t) => {
                let a = reference!(stack[sp - 1]);
                if (a == 0) == matches!(insn, Insn::IfNull(_)) {
                    jump!(*t, 1);
                }
                sp -= 1;
            }
            Insn::Goto(t) => jump!(*t, 0),
            Insn::GetField(off, k) => {
                let r = reference!(stack[sp - 1]);
                if r == 0 {
                    return (pc, sp);
                }
                let o = r as usize + *off as usize;
                match k {
                    Kind::L => stack[sp - 1] = Value::Ref(heap.get(o)),
                    Kind::I | Kind::Z | Kind::B | Kind::C | Kind::S => stack[sp - 1] = Value::Int(heap.get(o) as i32),
                    Kind::F => stack[sp - 1] = Value::Float(f32::from_bits(heap.get(o))),
                    Kind::J => {
                        stack[sp - 1] = Value::Long(heap.get64(o) as i64);
                        stack[sp] = Value::Top;
                        sp += 1;
                    }
                    Kind::D => {
                        stack[sp - 1] = Value::Double(f64::from_bits(heap.get64(o)));
                        stack[sp] = Value::Top;
                        sp += 1;
                    }
                }
            }
            Insn::PutField(off, k) => match k {
                Kind::L | Kind::I | Kind::F => {
                    let r = reference!(stack[sp - 2]);
                    if r == 0 {
                        return (pc, sp);
                    }
                    let bits = match (k, stack[sp - 1]) {
                        (Kind::L, Value::Ref(x)) => x,
                        (Kind::I, Value::Int(x)) => x as u32,
                        (Kind::F, Value::Float(x)) => x.to_bits(),
                        _ => return (pc, sp),
                    };
                    heap.set(r as usize + *off as usize, bits);
                    sp -= 2;
                }
                _ => return (pc, sp),
            },
            Insn::ArrayLength => {
                let a = reference!(stack[sp - 1]);
                if a == 0 {
                    return (pc, sp);
                }
                stack[sp - 1] = Value::Int(heap.array_len(a) as i32);
            }
            Insn::ArrLoad(k @ (Kind::J | Kind::D)) => {
                let i = int!(stack[sp - 1]);
                let a = reference!(stack[sp - 2]);
                if a == 0 || i < 0 || i as usize >= heap.array_len(a) {
                    return (pc, sp);
                }
                let bits = heap.array_get(a, 8, i as usize);
                stack[sp - 2] = if *k == Kind::J { Value::Long(bits as i64) } else { Value::Double(f64::from_bits(bits)) };
                stack[sp - 1] = Value::Top;
            }
            Insn::ArrStore(k @ (Kind::J | Kind::D)) => {
                let bits = match (k, stack[sp - 2]) {
                    (Kind::J, Value::Long(x)) => x as u64,
                    (Kind::D, Value::Double(x)) => x.to_bits(),
                    _ => return (pc, sp),
                };
                let i = int!(stack[sp - 3]);
                let a = reference!(stack[sp - 4]);
                if a == 0 || i < 0 || i as usize >= heap.array_len(a) {
                    return (pc, sp);
                }
                heap.array_set(a, 8, i as usize, bits);
                sp -= 4;
            }
            Insn::ArrLoad(k @ (Kind::I | Kind::L | Kind::C | Kind::B | Kind::Z | Kind::S | Kind::F)) => {
                let i = int!(stack[sp - 1]);
                let a = reference!(stack[sp - 2]);
                if a == 0 || i < 0 || i as usize >= heap.array_len(a) {
                    return (pc, sp);
                }
                let i = i as usize;
                stack[sp - 2] = match k {
                    Kind::I => Value::Int(heap.array_get(a, 4, i) as u32 as i32),
                    Kind::L => Value::Ref(heap.array_get(a, 4, i) as u32),
                    Kind::C => Value::Int(heap.array_get(a, 2, i) as u16 as i32),
                    Kind::S => Value::Int(heap.array_get(a, 2, i) as u16 as i16 as i32),
                    Kind::F => Value::Float(f32::from_bits(heap.array_get(a, 4, i) as u32)),
                    _ => Value::Int(heap.array_get(a, 1, i) as u8 as i8 as i32),
                };
                sp -= 1;
            }
            Insn::ArrStore(k @ (Kind::I | Kind::C)) => {
                let v = int!(stack[sp - 1]);
                let i = int!(stack[sp - 2]);
                let a = reference!(stack[sp - 3]);
                if a == 0 || i < 0 || i as usize >= heap.array_len(a) {
                    return (pc, sp);
                }
                if *k == Kind::I {
                    heap.array_set(a, 4, i as usize, v as u32 as u64);
                } else {
                    heap.array_set(a, 2, i as usize, v as u16 as u64);
                }
                sp -= 3;
            }
            _ => return (pc, sp),
        }
        pc += 1;
    }
}
