//! Decoding a method's code into instructions with resolved branch targets.
//!
//! The opcodes are decoded by `ristretto_classfile`; this module adds what the insertion pass
//! needs on top: each instruction's byte offset and length, branch and switch targets as
//! instruction indices, and the raw switch tables (read from the bytes so that they are re-encoded
//! exactly, whatever the crate's own switch representation keeps).

use ristretto_classfile::attributes::Instruction;
use ristretto_classfile::byte_reader::ByteReader;

/// "No such instruction" in the index fields of [`Insn`].
pub(crate) const NONE: u32 = u32::MAX;

pub(crate) struct Insn {
    pub off: u32,
    /// Length in the original code, switch padding included.
    pub len: u32,
    pub op: Instruction,
    /// Branch target (instruction index) of if*, goto, goto_w, jsr, jsr_w; [`NONE`] otherwise.
    pub target: u32,
    /// Index into [`Decoded::switches`] for tableswitch and lookupswitch; [`NONE`] otherwise.
    pub switch: u32,
}

pub(crate) struct Switch {
    pub default: u32,
    /// Targets (instruction indices) in table order.
    pub targets: Vec<u32>,
    /// lookupswitch match values, in file order; `None` for a tableswitch.
    pub keys: Option<Vec<i32>>,
    pub low: i32,
    pub high: i32,
}

pub(crate) struct Decoded {
    pub insns: Vec<Insn>,
    pub switches: Vec<Switch>,
}

/// What an instruction does to control flow.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Flow {
    Next,
    /// if*, ifnull, ifnonnull (opcode kept for re-encoding)
    Cond(u8),
    Goto,
    GotoW,
    Switch,
    Return,
    Athrow,
    /// jsr, jsr_w, ret, wide ret: subroutines are not supported by the pass.
    Subroutine,
    /// Opcodes that are not allowed in class files (breakpoint, impdep1/2).
    Reserved,
}

pub(crate) fn flow(op: &Instruction) -> Flow {
    use Instruction as I;
    match op {
        I::Ifeq(_) => Flow::Cond(0x99),
        I::Ifne(_) => Flow::Cond(0x9a),
        I::Iflt(_) => Flow::Cond(0x9b),
        I::Ifge(_) => Flow::Cond(0x9c),
        I::Ifgt(_) => Flow::Cond(0x9d),
        I::Ifle(_) => Flow::Cond(0x9e),
        I::If_icmpeq(_) => Flow::Cond(0x9f),
        I::If_icmpne(_) => Flow::Cond(0xa0),
        I::If_icmplt(_) => Flow::Cond(0xa1),
        I::If_icmpge(_) => Flow::Cond(0xa2),
        I::If_icmpgt(_) => Flow::Cond(0xa3),
        I::If_icmple(_) => Flow::Cond(0xa4),
        I::If_acmpeq(_) => Flow::Cond(0xa5),
        I::If_acmpne(_) => Flow::Cond(0xa6),
        I::Ifnull(_) => Flow::Cond(0xc6),
        I::Ifnonnull(_) => Flow::Cond(0xc7),
        I::Goto(_) => Flow::Goto,
        I::Goto_w(_) => Flow::GotoW,
        I::Tableswitch(_) | I::Lookupswitch(_) => Flow::Switch,
        I::Ireturn | I::Lreturn | I::Freturn | I::Dreturn | I::Areturn | I::Return => Flow::Return,
        I::Athrow => Flow::Athrow,
        I::Jsr(_) | I::Jsr_w(_) | I::Ret(_) | I::Ret_w(_) => Flow::Subroutine,
        I::Breakpoint | I::Impdep1 | I::Impdep2 | I::Wide => Flow::Reserved,
        _ => Flow::Next,
    }
}

/// The opcode testing the opposite condition.
pub(crate) fn inverted(opcode: u8) -> u8 {
    match opcode {
        0xc6 => 0xc7,
        0xc7 => 0xc6,
        // ifeq/ifne, iflt/ifge, ifgt/ifle, if_icmpeq/ne, lt/ge, gt/le, if_acmpeq/ne pair up.
        op if (op - 0x99) % 2 == 0 => op + 1,
        op => op - 1,
    }
}

impl Flow {
    /// No fall-through to the next instruction.
    pub(crate) fn is_unconditional(self) -> bool {
        matches!(self, Flow::Goto | Flow::GotoW | Flow::Switch | Flow::Return | Flow::Athrow)
    }
}

/// Index of the instruction starting at byte offset `off`.
pub(crate) fn index_at(insns: &[Insn], off: i64) -> Option<u32> {
    let off = u32::try_from(off).ok()?;
    insns.binary_search_by_key(&off, |i| i.off).ok().and_then(|i| u32::try_from(i).ok())
}

fn be_i32(code: &[u8], at: usize) -> Result<i32, String> {
    code.get(at..at + 4)
        .map(|b| i32::from_be_bytes([b[0], b[1], b[2], b[3]]))
        .ok_or_else(|| format!("truncated instruction operand at {at}"))
}

pub(crate) fn decode(code: &[u8]) -> Result<Decoded, String> {
    let mut insns = Vec::with_capacity(code.len() / 2 + 1);
    let mut reader = ByteReader::new(code);
    while reader.position() < code.len() {
        let off = reader.position();
        // The crate adds goto_w/jsr_w offsets in i32 without a check; reject what would overflow.
        if matches!(code[off], 200 | 201) {
            let target = off as i64 + i64::from(be_i32(code, off + 1)?);
            if target < 0 || target >= code.len() as i64 {
                return Err(format!("branch at {off} targets {target}, outside the code"));
            }
        }
        let op = Instruction::from_bytes(&mut reader)
            .map_err(|e| format!("undecodable instruction at offset {off}: {e}"))?;
        let len = reader.position() - off;
        insns.push(Insn { off: off as u32, len: len as u32, op, target: NONE, switch: NONE });
    }
    let mut switches = Vec::new();
    for i in 0..insns.len() {
        let off = insns[i].off;
        let absolute = match &insns[i].op {
            Instruction::Ifeq(t)
            | Instruction::Ifne(t)
            | Instruction::Iflt(t)
            | Instruction::Ifge(t)
            | Instruction::Ifgt(t)
            | Instruction::Ifle(t)
            | Instruction::If_icmpeq(t)
            | Instruction::If_icmpne(t)
            | Instruction::If_icmplt(t)
            | Instruction::If_icmpge(t)
            | Instruction::If_icmpgt(t)
            | Instruction::If_icmple(t)
            | Instruction::If_acmpeq(t)
            | Instruction::If_acmpne(t)
            | Instruction::Goto(t)
            | Instruction::Jsr(t)
            | Instruction::Ifnull(t)
            | Instruction::Ifnonnull(t) => Some(i64::from(*t)),
            Instruction::Goto_w(t) | Instruction::Jsr_w(t) => Some(i64::from(*t)),
            Instruction::Tableswitch(_) | Instruction::Lookupswitch(_) => {
                let sw = read_switch(code, &insns, off as usize)?;
                insns[i].switch = switches.len() as u32;
                switches.push(sw);
                None
            }
            _ => None,
        };
        if let Some(t) = absolute {
            insns[i].target =
                index_at(&insns, t).ok_or_else(|| format!("branch at {off} targets {t}, not an instruction start"))?;
        }
    }
    Ok(Decoded { insns, switches })
}

fn read_switch(code: &[u8], insns: &[Insn], off: usize) -> Result<Switch, String> {
    let resolve = |rel: i32| {
        let t = off as i64 + i64::from(rel);
        index_at(insns, t).ok_or_else(|| format!("switch at {off} targets {t}, not an instruction start"))
    };
    let tableswitch = code[off] == 170;
    let mut p = off + 1;
    p += (4 - p % 4) % 4;
    let default = resolve(be_i32(code, p)?)?;
    if tableswitch {
        let low = be_i32(code, p + 4)?;
        let high = be_i32(code, p + 8)?;
        let n = (i64::from(high) - i64::from(low) + 1).max(0) as usize;
        let mut targets = Vec::with_capacity(n.min(code.len() / 4));
        for k in 0..n {
            targets.push(resolve(be_i32(code, p + 12 + 4 * k)?)?);
        }
        Ok(Switch { default, targets, keys: None, low, high })
    } else {
        let n = be_i32(code, p + 4)?.max(0) as usize;
        let mut keys = Vec::with_capacity(n.min(code.len() / 8));
        let mut targets = Vec::with_capacity(n.min(code.len() / 8));
        for k in 0..n {
            keys.push(be_i32(code, p + 8 + 8 * k)?);
            targets.push(resolve(be_i32(code, p + 12 + 8 * k)?)?);
        }
        Ok(Switch { default, targets, keys: Some(keys), low: 0, high: 0 })
    }
}

/// Slots taken by a value of the given field descriptor.
pub(crate) fn field_slots(desc: &[u8]) -> u16 {
    match desc.first() {
        Some(b'J' | b'D') => 2,
        _ => 1,
    }
}

/// Argument slots and return slots of a method descriptor.
pub(crate) fn method_slots(desc: &[u8]) -> Option<(u16, u16)> {
    if desc.first() != Some(&b'(') {
        return None;
    }
    let mut i = 1;
    let mut args: u16 = 0;
    loop {
        match *desc.get(i)? {
            b')' => break,
            b'J' | b'D' => {
                args = args.checked_add(2)?;
                i += 1;
            }
            _ => {
                i = skip_field_type(desc, i)?;
                args = args.checked_add(1)?;
            }
        }
    }
    let ret = match desc.get(i + 1)? {
        b'V' => 0,
        b'J' | b'D' => 2,
        _ => 1,
    };
    Some((args, ret))
}

/// The index just past the field type that starts at `i`.
pub(crate) fn skip_field_type(desc: &[u8], mut i: usize) -> Option<usize> {
    while desc.get(i) == Some(&b'[') {
        i += 1;
    }
    match desc.get(i)? {
        b'L' => Some(i + desc.get(i..)?.iter().position(|&c| c == b';')? + 1),
        b'B' | b'C' | b'D' | b'F' | b'I' | b'J' | b'S' | b'Z' => Some(i + 1),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptors() {
        assert_eq!(method_slots(b"()V"), Some((0, 0)));
        assert_eq!(method_slots(b"(IJ[[Ljava/lang/String;D)J"), Some((6, 2)));
        assert_eq!(method_slots(b"(Ljava/lang/Object;)[I"), Some((1, 1)));
        assert_eq!(method_slots(b"(L"), None);
        assert_eq!(method_slots(b"(X)V"), None);
        assert_eq!(method_slots(b"I"), None);
    }

    #[test]
    fn inversions_pair_up() {
        for op in (0x99u8..=0xa6).chain([0xc6, 0xc7]) {
            assert_ne!(inverted(op), op);
            assert_eq!(inverted(inverted(op)), op);
        }
        assert_eq!(inverted(0x99), 0x9a); // ifeq -> ifne
        assert_eq!(inverted(0xa2), 0xa1); // if_icmpge -> if_icmplt
    }

    #[test]
    fn decodes_switch_and_branches() {
        // 0: iload_0; 1: tableswitch (pad 2) default->32, 0..1 -> 30,31 ; 30: nop 31: nop 32: return
        let mut code = vec![0x1a, 0xaa, 0, 0];
        for v in [31i32, 0, 1, 29, 30] {
            code.extend_from_slice(&v.to_be_bytes());
        }
        assert_eq!(code.len(), 24);
        code.extend_from_slice(&[0xa7, 0, 6]); // 24: goto 30
        code.extend_from_slice(&[0, 0, 0]); // 27..29: nop
        code.extend_from_slice(&[0, 0, 0xb1]); // 30, 31: nop, 32: return
        let d = decode(&code).unwrap();
        let sw = &d.switches[d.insns[1].switch as usize];
        assert_eq!(d.insns[sw.default as usize].off, 32);
        assert_eq!(sw.targets.iter().map(|&t| d.insns[t as usize].off).collect::<Vec<_>>(), vec![30, 31]);
        assert_eq!(d.insns[d.insns[2].target as usize].off, 30);
        // A branch into the middle of an instruction is refused.
        let bad = [0xa7, 0, 4, 0x11, 0, 0, 0xb1];
        assert!(decode(&bad).err().unwrap().contains("not an instruction start"));
        let wide_out = [0xc8, 0x7f, 0xff, 0xff, 0xff];
        assert!(decode(&wide_out).is_err());
    }
}
