//! Where a constructor's `this` is still uninitialized.
//!
//! The verifier checks every instruction inside an exception handler's range against the
//! handler's stack map frame, and a frame whose locals lack `uninitializedThis` does not accept an
//! instruction that runs before `super(...)`/`this(...)` (flagThisUninit). So a constructor gets two
//! catch-all handlers: one for the instructions before the initializing call, with the frame
//! `[uninitializedThis] [Throwable]`, and one for those after it, with `[] [Throwable]`. This module
//! finds, for each instruction, which of the two can cover it, by an abstract interpretation that
//! follows the `uninitializedThis` value through locals and stack (loads, stores, dup*, swap) over
//! the control-flow graph, exception edges included.

use crate::insn::{self, Decoded, Flow, NONE};
use ristretto_classfile::attributes::Instruction;
use ristretto_classfile::{Constant, ConstantPool};

/// Which catch-all handler may cover an instruction.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Region {
    /// `this` is uninitialized before and after the instruction, and local 0 holds it.
    Pre,
    /// `this` is initialized (or the method is not a constructor).
    Post,
    /// Neither handler's frame fits: the initializing call itself, unreachable code, or code where
    /// paths with and without an initialized `this` meet.
    Uncovered,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Flag {
    Uninit,
    Init,
    Mixed,
}

/// What is known before or after an instruction: whether `this` is initialized, which local slots
/// and which stack slots (counted from the bottom) hold `uninitializedThis`, and the stack depth.
#[derive(Clone, PartialEq, Eq, Debug)]
struct State {
    flag: Flag,
    depth: u32,
    locals: Vec<u16>,
    stack: Vec<u32>,
}

impl State {
    fn push(&mut self, n: u32) {
        self.depth += n;
    }

    fn pop(&mut self, n: u32) -> Result<(), String> {
        self.depth = self.depth.checked_sub(n).ok_or("operand stack underflow")?;
        let d = self.depth;
        self.stack.retain(|&s| s < d);
        Ok(())
    }

    /// Removes the top `n` slots and returns which of them (bottom first) held `this`.
    fn take(&mut self, n: u32) -> Result<Vec<bool>, String> {
        let base = self.depth.checked_sub(n).ok_or("operand stack underflow")?;
        let bits = (base..self.depth).map(|s| self.stack.contains(&s)).collect();
        self.pop(n)?;
        Ok(bits)
    }

    fn put(&mut self, bits: &[bool]) {
        for &b in bits {
            if b {
                self.stack.push(self.depth);
            }
            self.depth += 1;
        }
    }

    fn set_local(&mut self, slot: u16, this: bool) {
        self.locals.retain(|&l| l != slot);
        if this {
            self.locals.push(slot);
            self.locals.sort_unstable();
        }
    }

    fn local0_is_this(&self) -> bool {
        self.locals.first() == Some(&0)
    }

    fn merge(&mut self, other: &State) -> Result<bool, String> {
        if self.depth != other.depth {
            return Err("stack depths differ where control flow joins".into());
        }
        let old = self.clone();
        // A local that holds `this` on one path only is unusable after the join (the verifier
        // makes it top); disagreement about initialization or the stack leaves no handler usable.
        self.locals.retain(|l| other.locals.contains(l));
        if self.flag != other.flag || self.stack != other.stack {
            self.flag = Flag::Mixed;
            self.stack.retain(|s| other.stack.contains(s));
        }
        Ok(*self != old)
    }
}

fn member_descriptor<'p>(pool: &'p ConstantPool<'_>, index: u16) -> Option<(&'p [u8], &'p [u8])> {
    let nat = match pool.get(index)? {
        Constant::FieldRef { name_and_type_index, .. }
        | Constant::MethodRef { name_and_type_index, .. }
        | Constant::InterfaceMethodRef { name_and_type_index, .. }
        | Constant::InvokeDynamic { name_and_type_index, .. } => *name_and_type_index,
        _ => return None,
    };
    let (name, desc) = pool.try_get_name_and_type(nat).ok()?;
    Some((pool.try_get_utf8(*name).ok()?.as_bytes(), pool.try_get_utf8(*desc).ok()?.as_bytes()))
}

fn bad_ref(index: u16) -> String {
    format!("constant #{index} is not a usable member reference")
}

/// Applies one instruction. Only `this` is tracked; every other value is "not this".
fn step(op: &Instruction, s: &mut State, pool: &ConstantPool<'_>) -> Result<(), String> {
    use Instruction as I;
    let (pops, pushes): (u32, u32) = match op {
        I::Aload(n) => return load(s, u16::from(*n)),
        I::Aload_w(n) => return load(s, *n),
        I::Aload_0 => return load(s, 0),
        I::Aload_1 => return load(s, 1),
        I::Aload_2 => return load(s, 2),
        I::Aload_3 => return load(s, 3),
        I::Astore(n) => return store(s, u16::from(*n), 1),
        I::Astore_w(n) => return store(s, *n, 1),
        I::Astore_0 => return store(s, 0, 1),
        I::Astore_1 => return store(s, 1, 1),
        I::Astore_2 => return store(s, 2, 1),
        I::Astore_3 => return store(s, 3, 1),
        I::Istore(n) | I::Fstore(n) => return store(s, u16::from(*n), 1),
        I::Istore_w(n) | I::Fstore_w(n) => return store(s, *n, 1),
        I::Lstore(n) | I::Dstore(n) => return store(s, u16::from(*n), 2),
        I::Lstore_w(n) | I::Dstore_w(n) => return store(s, *n, 2),
        I::Istore_0 | I::Fstore_0 => return store(s, 0, 1),
        I::Istore_1 | I::Fstore_1 => return store(s, 1, 1),
        I::Istore_2 | I::Fstore_2 => return store(s, 2, 1),
        I::Istore_3 | I::Fstore_3 => return store(s, 3, 1),
        I::Lstore_0 | I::Dstore_0 => return store(s, 0, 2),
        I::Lstore_1 | I::Dstore_1 => return store(s, 1, 2),
        I::Lstore_2 | I::Dstore_2 => return store(s, 2, 2),
        I::Lstore_3 | I::Dstore_3 => return store(s, 3, 2),
        I::Dup => return shuffle(s, 1, &[0, 0]),
        I::Dup_x1 => return shuffle(s, 2, &[1, 0, 1]),
        I::Dup_x2 => return shuffle(s, 3, &[2, 0, 1, 2]),
        I::Dup2 => return shuffle(s, 2, &[0, 1, 0, 1]),
        I::Dup2_x1 => return shuffle(s, 3, &[1, 2, 0, 1, 2]),
        I::Dup2_x2 => return shuffle(s, 4, &[2, 3, 0, 1, 2, 3]),
        I::Swap => return shuffle(s, 2, &[1, 0]),
        I::Invokespecial(index) => {
            let (name, desc) = member_descriptor(pool, *index).ok_or_else(|| bad_ref(*index))?;
            let (args, ret) = insn::method_slots(desc).ok_or_else(|| bad_ref(*index))?;
            s.pop(u32::from(args))?;
            let receiver = s.take(1)?;
            if name == b"<init>" && receiver == [true] {
                // Every copy of uninitializedThis becomes the initialized class type.
                s.locals.clear();
                s.stack.clear();
                if s.flag == Flag::Uninit {
                    s.flag = Flag::Init;
                }
            }
            s.push(u32::from(ret));
            return Ok(());
        }
        I::Nop | I::Iinc(..) | I::Iinc_w(..) | I::Goto(_) | I::Goto_w(_) => (0, 0),
        I::Aconst_null
        | I::Iconst_m1
        | I::Iconst_0
        | I::Iconst_1
        | I::Iconst_2
        | I::Iconst_3
        | I::Iconst_4
        | I::Iconst_5
        | I::Fconst_0
        | I::Fconst_1
        | I::Fconst_2
        | I::Bipush(_)
        | I::Sipush(_)
        | I::Ldc(_)
        | I::Ldc_w(_)
        | I::Iload(_)
        | I::Fload(_)
        | I::Iload_w(_)
        | I::Fload_w(_)
        | I::Iload_0
        | I::Iload_1
        | I::Iload_2
        | I::Iload_3
        | I::Fload_0
        | I::Fload_1
        | I::Fload_2
        | I::Fload_3
        | I::New(_) => (0, 1),
        I::Lconst_0
        | I::Lconst_1
        | I::Dconst_0
        | I::Dconst_1
        | I::Ldc2_w(_)
        | I::Lload(_)
        | I::Dload(_)
        | I::Lload_w(_)
        | I::Dload_w(_)
        | I::Lload_0
        | I::Lload_1
        | I::Lload_2
        | I::Lload_3
        | I::Dload_0
        | I::Dload_1
        | I::Dload_2
        | I::Dload_3 => (0, 2),
        I::Iaload | I::Faload | I::Aaload | I::Baload | I::Caload | I::Saload => (2, 1),
        I::Laload | I::Daload => (2, 2),
        I::Iastore | I::Fastore | I::Aastore | I::Bastore | I::Castore | I::Sastore => (3, 0),
        I::Lastore | I::Dastore => (4, 0),
        I::Pop => (1, 0),
        I::Pop2 => (2, 0),
        I::Iadd
        | I::Isub
        | I::Imul
        | I::Idiv
        | I::Irem
        | I::Ishl
        | I::Ishr
        | I::Iushr
        | I::Iand
        | I::Ior
        | I::Ixor
        | I::Fadd
        | I::Fsub
        | I::Fmul
        | I::Fdiv
        | I::Frem
        | I::Fcmpl
        | I::Fcmpg => (2, 1),
        I::Ladd
        | I::Lsub
        | I::Lmul
        | I::Ldiv
        | I::Lrem
        | I::Land
        | I::Lor
        | I::Lxor
        | I::Dadd
        | I::Dsub
        | I::Dmul
        | I::Ddiv
        | I::Drem => (4, 2),
        I::Lshl | I::Lshr | I::Lushr => (3, 2),
        I::Lcmp | I::Dcmpl | I::Dcmpg => (4, 1),
        I::Ineg | I::Fneg | I::I2f | I::F2i | I::I2b | I::I2c | I::I2s => (1, 1),
        I::Lneg | I::Dneg | I::L2d | I::D2l => (2, 2),
        I::I2l | I::I2d | I::F2l | I::F2d => (1, 2),
        I::L2i | I::L2f | I::D2i | I::D2f => (2, 1),
        I::Ifeq(_) | I::Ifne(_) | I::Iflt(_) | I::Ifge(_) | I::Ifgt(_) | I::Ifle(_) => (1, 0),
        I::Ifnull(_) | I::Ifnonnull(_) => (1, 0),
        I::If_icmpeq(_)
        | I::If_icmpne(_)
        | I::If_icmplt(_)
        | I::If_icmpge(_)
        | I::If_icmpgt(_)
        | I::If_icmple(_)
        | I::If_acmpeq(_)
        | I::If_acmpne(_) => (2, 0),
        I::Tableswitch(_) | I::Lookupswitch(_) => (1, 0),
        // Returns and athrow end the path; what they pop does not matter.
        I::Ireturn | I::Lreturn | I::Freturn | I::Dreturn | I::Areturn | I::Return | I::Athrow => (0, 0),
        I::Getstatic(index) | I::Putstatic(index) | I::Getfield(index) | I::Putfield(index) => {
            let (_, desc) = member_descriptor(pool, *index).ok_or_else(|| bad_ref(*index))?;
            let size = u32::from(insn::field_slots(desc));
            match op {
                I::Getstatic(_) => (0, size),
                I::Putstatic(_) => (size, 0),
                I::Getfield(_) => (1, size),
                _ => (1 + size, 0),
            }
        }
        I::Invokevirtual(index) | I::Invokeinterface(index, _) | I::Invokestatic(index) | I::Invokedynamic(index) => {
            let (_, desc) = member_descriptor(pool, *index).ok_or_else(|| bad_ref(*index))?;
            let (args, ret) = insn::method_slots(desc).ok_or_else(|| bad_ref(*index))?;
            let receiver = u32::from(matches!(op, I::Invokevirtual(_) | I::Invokeinterface(..)));
            (u32::from(args) + receiver, u32::from(ret))
        }
        I::Newarray(_) | I::Anewarray(_) | I::Arraylength | I::Checkcast(_) | I::Instanceof(_) => (1, 1),
        I::Monitorenter | I::Monitorexit => (1, 0),
        I::Multianewarray(_, dims) => (u32::from(*dims), 1),
        I::Jsr(_) | I::Jsr_w(_) | I::Ret(_) | I::Ret_w(_) | I::Wide | I::Breakpoint | I::Impdep1 | I::Impdep2 => {
            return Err("unsupported instruction in a constructor".into())
        }
    };
    s.pop(pops)?;
    s.push(pushes);
    Ok(())
}

fn load(s: &mut State, slot: u16) -> Result<(), String> {
    let this = s.locals.contains(&slot);
    s.put(&[this]);
    Ok(())
}

fn store(s: &mut State, slot: u16, size: u32) -> Result<(), String> {
    let bits = s.take(size)?;
    s.set_local(slot, size == 1 && bits == [true]);
    if size == 2 {
        s.set_local(slot.saturating_add(1), false);
    }
    Ok(())
}

/// Takes the top `n` slots and pushes them again in the order `pattern` gives (indices into the
/// taken slots, bottom first): dup is `1, [0, 0]`, swap `2, [1, 0]`.
fn shuffle(s: &mut State, n: u32, pattern: &[usize]) -> Result<(), String> {
    let bits = s.take(n)?;
    let out: Vec<bool> = pattern.iter().map(|&i| bits[i]).collect();
    s.put(&out);
    Ok(())
}

/// The handler region of each instruction of a constructor. `handlers` are the method's exception
/// table entries as instruction indices (start, end exclusive, handler).
pub(crate) fn regions(code: &Decoded, handlers: &[(u32, u32, u32)], pool: &ConstantPool<'_>) -> Result<Vec<Region>, String> {
    let n = code.insns.len();
    let mut before: Vec<Option<State>> = vec![None; n];
    let mut after: Vec<Option<State>> = vec![None; n];
    let mut work = vec![0u32];
    let mut queued = vec![false; n];
    before[0] = Some(State { flag: Flag::Uninit, depth: 0, locals: vec![0], stack: Vec::new() });
    let join = |before: &mut Vec<Option<State>>, work: &mut Vec<u32>, queued: &mut Vec<bool>, at: u32, st: &State| -> Result<(), String> {
        let slot = before.get_mut(at as usize).ok_or("control flow leaves the code")?;
        let changed = match slot {
            None => {
                *slot = Some(st.clone());
                true
            }
            Some(old) => old.merge(st)?,
        };
        if changed && !queued[at as usize] {
            queued[at as usize] = true;
            work.push(at);
        }
        Ok(())
    };
    queued[0] = true;
    while let Some(i) = work.pop() {
        let iu = i as usize;
        queued[iu] = false;
        let Some(inp) = before[iu].clone() else { continue };
        let ins = &code.insns[iu];
        let mut out = inp.clone();
        step(&ins.op, &mut out, pool).map_err(|e| format!("at offset {}: {e}", ins.off))?;
        for &(start, end, handler) in handlers {
            if start <= i && i < end {
                for st in [&inp, &out] {
                    let h = State { flag: st.flag, depth: 1, locals: st.locals.clone(), stack: Vec::new() };
                    join(&mut before, &mut work, &mut queued, handler, &h)?;
                }
            }
        }
        let f = insn::flow(&ins.op);
        if !f.is_unconditional() {
            join(&mut before, &mut work, &mut queued, i + 1, &out)?;
        }
        if ins.target != NONE {
            join(&mut before, &mut work, &mut queued, ins.target, &out)?;
        }
        if ins.switch != NONE {
            let sw = &code.switches[ins.switch as usize];
            for &t in sw.targets.iter().chain([&sw.default]) {
                join(&mut before, &mut work, &mut queued, t, &out)?;
            }
        }
        if f == Flow::Subroutine {
            return Err("subroutine in a constructor".into());
        }
        after[iu] = Some(out);
    }
    Ok(before
        .iter()
        .zip(&after)
        .map(|(b, a)| match (b, a) {
            (Some(b), Some(a)) if b.flag == Flag::Init => {
                debug_assert_eq!(a.flag, Flag::Init);
                Region::Post
            }
            (Some(b), Some(a)) if b.flag == Flag::Uninit && a.flag == Flag::Uninit && b.local0_is_this() && a.local0_is_this() => {
                Region::Pre
            }
            _ => Region::Uncovered,
        })
        .collect())
}
