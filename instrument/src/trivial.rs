//! Trivial methods: code so small and straight that its own time is a few instructions, far below
//! what a pair of probes costs. A caller may leave them without probes (the agent's
//! `trivial=skip`): their calls are then not counted and their time is their callers'.
//!
//! Trivial: at most [`TRIVIAL_MAX_BYTES`] bytes of bytecode, not `synchronized`, no exception
//! handler, and no instruction that calls (any `invoke*`), allocates (`new`, the array
//! allocations), throws (`athrow`), takes a monitor, runs a subroutine, or branches backwards (a
//! loop). Getters, setters, `return CONSTANT`, small arithmetic and comparisons are; anything that
//! can run for long, or run other code, is not. A method whose code cannot be decoded is not.

use crate::classfile::{ClassLayout, MethodLayout};
use crate::code::parse_code;
use crate::insn::{decode, NONE};
use ristretto_classfile::attributes::Instruction as I;

/// At most this many bytes of bytecode: HotSpot's `MaxInlineSize`, below which its JIT compilers
/// inline a method wherever it is called, however rarely.
const TRIVIAL_MAX_BYTES: usize = 35;

const ACC_SYNCHRONIZED: u16 = 0x0020;

/// Whether `m`, a method of `class`, is trivial. A Code attribute the probe pass could not read
/// is not.
pub(crate) fn is_trivial(class: &ClassLayout<'_>, m: &MethodLayout) -> bool {
    let Some((start, end)) = m.code else { return false };
    m.access & ACC_SYNCHRONIZED == 0
        && class.bytes.get(start..end).and_then(|attr| parse_code(class, attr).ok()).is_some_and(|c| c.exceptions.is_empty() && is_trivial_code(c.code))
}

/// Whether `code` (a method's bytecode) is trivial, leaving aside its handlers and flags.
fn is_trivial_code(code: &[u8]) -> bool {
    if code.len() > TRIVIAL_MAX_BYTES {
        return false;
    }
    let Ok(decoded) = decode(code) else { return false };
    decoded.insns.iter().enumerate().all(|(i, insn)| {
        let forward = |t: u32| t == NONE || t as usize > i;
        let switch_forward =
            insn.switch == NONE || decoded.switches.get(insn.switch as usize).is_some_and(|s| forward(s.default) && s.targets.iter().all(|&t| forward(t)));
        forward(insn.target) && switch_forward && !runs_long_or_other_code(&insn.op)
    })
}

fn runs_long_or_other_code(op: &I) -> bool {
    matches!(
        op,
        I::Invokevirtual(_)
            | I::Invokespecial(_)
            | I::Invokestatic(_)
            | I::Invokeinterface(..)
            | I::Invokedynamic(_)
            | I::New(_)
            | I::Newarray(_)
            | I::Anewarray(_)
            | I::Multianewarray(..)
            | I::Athrow
            | I::Monitorenter
            | I::Monitorexit
            | I::Jsr(_)
            | I::Jsr_w(_)
            | I::Ret(_)
            | I::Ret_w(_)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// aload_0, getfield #2, ireturn: a getter.
    const GETTER: &[u8] = &[0x2a, 0xb4, 0x00, 0x02, 0xac];

    #[test]
    fn getters_and_straight_arithmetic_are_trivial() {
        assert!(is_trivial_code(GETTER));
        // iload_0, iload_1, iadd, ireturn: add(a, b).
        assert!(is_trivial_code(&[0x1a, 0x1b, 0x60, 0xac]));
        // iload_0, ifle +5, iconst_1, ireturn, iconst_0, ireturn: a forward branch.
        assert!(is_trivial_code(&[0x1a, 0x9e, 0x00, 0x05, 0x04, 0xac, 0x03, 0xac]));
    }

    #[test]
    fn calls_loops_allocations_throws_and_monitors_are_not() {
        // aload_0, invokevirtual #2, ireturn.
        assert!(!is_trivial_code(&[0x2a, 0xb6, 0x00, 0x02, 0xac]));
        // iinc 0 1, goto -3: a loop.
        assert!(!is_trivial_code(&[0x84, 0x00, 0x01, 0xa7, 0xff, 0xfd]));
        // new #2, areturn.
        assert!(!is_trivial_code(&[0xbb, 0x00, 0x02, 0xb0]));
        // iload_0, newarray int, areturn.
        assert!(!is_trivial_code(&[0x1a, 0xbc, 0x0a, 0xb0]));
        // aload_0, athrow.
        assert!(!is_trivial_code(&[0x2a, 0xbf]));
        // aload_0, monitorenter, return.
        assert!(!is_trivial_code(&[0x2a, 0xc2, 0xb1]));
        // Undecodable (a branch into the middle of nowhere).
        assert!(!is_trivial_code(&[0xa7, 0x00, 0x40]));
    }

    #[test]
    fn more_than_35_bytes_is_not() {
        // 36 bytes of straight code: iconst_0 / pop pairs, then nop, return.
        let mut long = [0x03, 0x57].repeat(17);
        long.extend_from_slice(&[0x00, 0xb1]);
        assert_eq!(long.len(), TRIVIAL_MAX_BYTES + 1);
        assert!(!is_trivial_code(&long));
        assert!(is_trivial_code(&long[2..]));
    }
}
