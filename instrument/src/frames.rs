//! StackMapTable: decoding the original frames into full states, and encoding the new table.
//!
//! Frames are delta-encoded against the previous frame's locals, and the pass inserts frames of its
//! own (handlers, branch trampolines) between original ones, so every original frame is first
//! expanded to its full locals and stack, positioned at an instruction, and the new table is
//! compressed again from scratch. Frame and verification-type bytes are read and written by
//! `ristretto_classfile`.

use crate::classfile::{PoolAdd, PoolFull};
use crate::insn::{self, Insn};
use ristretto_classfile::attributes::{StackFrame, VerificationType};
use ristretto_classfile::byte_reader::ByteReader;

/// A verification type. Class types from the method descriptor stay by name until a frame that
/// lists them explicitly is written, so no constant is added for a parameter type that never
/// appears in a written frame.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) enum VType<'a> {
    Top,
    Integer,
    Float,
    Long,
    Double,
    Null,
    UninitializedThis,
    Class(u16),
    Named(&'a [u8]),
    /// The result of the `new` at this instruction index.
    Uninitialized(u32),
}

#[derive(Clone, Debug)]
pub(crate) struct Frame<'a> {
    pub locals: Vec<VType<'a>>,
    pub stack: Vec<VType<'a>>,
}

/// The implicit frame at offset 0 (JVMS 4.10.1.6): `this` (uninitialized in a constructor of a
/// class other than Object) and the parameters.
pub(crate) fn initial_locals<'a>(descriptor: &'a [u8], is_static: bool, ctor: bool, this_class: u16) -> Option<Vec<VType<'a>>> {
    let mut locals = Vec::new();
    if !is_static {
        locals.push(if ctor { VType::UninitializedThis } else { VType::Class(this_class) });
    }
    if descriptor.first() != Some(&b'(') {
        return None;
    }
    let mut i = 1;
    while *descriptor.get(i)? != b')' {
        let end = insn::skip_field_type(descriptor, i)?;
        locals.push(match descriptor[i] {
            b'B' | b'C' | b'I' | b'S' | b'Z' => VType::Integer,
            b'F' => VType::Float,
            b'J' => VType::Long,
            b'D' => VType::Double,
            b'L' => VType::Named(&descriptor[i + 1..end - 1]),
            _ => VType::Named(&descriptor[i..end]), // an array: its descriptor is its class name
        });
        i = end;
    }
    Some(locals)
}

/// Puts `t` (a type of one slot) into local `slot` of a frame's locals, after Top up to that slot
/// (long and double take two); an error if the locals already reach the slot.
pub(crate) fn set_local<'a>(locals: &mut Vec<VType<'a>>, slot: u16, t: VType<'a>) -> Result<(), String> {
    let used: usize = locals.iter().map(|l| if matches!(l, VType::Long | VType::Double) { 2 } else { 1 }).sum();
    let slot = usize::from(slot);
    if used > slot {
        return Err(format!("a stack map frame has {used} local slots, more than max_locals ({slot})"));
    }
    locals.resize(locals.len() + slot - used, VType::Top);
    locals.push(t);
    Ok(())
}

fn vtype<'a>(t: &VerificationType, insns: &[Insn]) -> Result<VType<'a>, String> {
    Ok(match t {
        VerificationType::Top => VType::Top,
        VerificationType::Integer => VType::Integer,
        VerificationType::Float => VType::Float,
        VerificationType::Long => VType::Long,
        VerificationType::Double => VType::Double,
        VerificationType::Null => VType::Null,
        VerificationType::UninitializedThis => VType::UninitializedThis,
        VerificationType::Object { cpool_index } => VType::Class(*cpool_index),
        VerificationType::Uninitialized { offset } => VType::Uninitialized(
            insn::index_at(insns, i64::from(*offset))
                .ok_or_else(|| format!("stack map type uninitialized({offset}) is not at an instruction"))?,
        ),
    })
}

fn vtypes<'a>(ts: &[VerificationType], insns: &[Insn]) -> Result<Vec<VType<'a>>, String> {
    ts.iter().map(|t| vtype(t, insns)).collect()
}

/// The original frames, each with the index of the instruction it describes, in code order.
pub(crate) fn decode<'a>(body: &[u8], insns: &[Insn], initial: Vec<VType<'a>>) -> Result<Vec<(u32, Frame<'a>)>, String> {
    let mut r = ByteReader::new(body);
    let bad = |e: ristretto_classfile::Error| format!("bad StackMapTable: {e}");
    let count = r.read_u16().map_err(bad)?;
    let mut out: Vec<(u32, Frame<'a>)> = Vec::with_capacity(usize::from(count));
    let mut locals = initial;
    let mut offset: i64 = -1;
    for _ in 0..count {
        let f = StackFrame::from_bytes(&mut r).map_err(bad)?;
        offset += i64::from(f.offset_delta()) + 1;
        let at = insn::index_at(insns, offset).ok_or_else(|| format!("stack map frame at {offset} is not at an instruction"))?;
        let stack = match &f {
            StackFrame::SameFrame { .. } | StackFrame::SameFrameExtended { .. } => Vec::new(),
            StackFrame::SameLocals1StackItemFrame { stack, .. } | StackFrame::SameLocals1StackItemFrameExtended { stack, .. } => {
                vtypes(stack, insns)?
            }
            StackFrame::ChopFrame { frame_type, .. } => {
                let k = usize::from(251 - frame_type);
                let keep = locals.len().checked_sub(k).ok_or("stack map chop_frame removes more locals than there are")?;
                locals.truncate(keep);
                Vec::new()
            }
            StackFrame::AppendFrame { locals: more, .. } => {
                locals.extend(vtypes(more, insns)?);
                Vec::new()
            }
            StackFrame::FullFrame { locals: all, stack, .. } => {
                locals = vtypes(all, insns)?;
                vtypes(stack, insns)?
            }
        };
        out.push((at, Frame { locals: locals.clone(), stack }));
    }
    if r.position() != body.len() {
        return Err("bad StackMapTable: bytes after the last frame".into());
    }
    Ok(out)
}

/// Writes `frames` (new code offset, frame), sorted by offset, as a StackMapTable body.
/// `initial` is the implicit first frame's locals when known (else the first frame is written
/// in full); `at` gives the new offset of an instruction (for uninitialized(offset) types).
pub(crate) fn encode(
    frames: &[(u32, &Frame<'_>)],
    initial: Option<&[VType<'_>]>,
    at: &dyn Fn(u32) -> u32,
    pool: &mut PoolAdd<'_, '_>,
) -> Result<Vec<u8>, Encode> {
    let mut out = Vec::new();
    out.extend_from_slice(&u16::try_from(frames.len()).map_err(|_| Encode::TooBig)?.to_be_bytes());
    let mut prev: Option<&[VType<'_>]> = initial;
    let mut last: i64 = -1;
    for (off, frame) in frames {
        let delta = i64::from(*off) - last - 1;
        let delta = u16::try_from(delta).map_err(|_| Encode::TooBig)?;
        last = i64::from(*off);
        let locals = frame.locals.as_slice();
        let stack = frame.stack.as_slice();
        let sf = match prev {
            Some(p) if p == locals && stack.is_empty() => {
                if delta <= 63 {
                    StackFrame::SameFrame { frame_type: delta as u8 }
                } else {
                    StackFrame::SameFrameExtended { frame_type: 251, offset_delta: delta }
                }
            }
            Some(p) if p == locals && stack.len() == 1 => {
                let stack = vec![resolve(&stack[0], at, pool)?];
                if delta <= 63 {
                    StackFrame::SameLocals1StackItemFrame { frame_type: 64 + delta as u8, stack }
                } else {
                    StackFrame::SameLocals1StackItemFrameExtended { frame_type: 247, offset_delta: delta, stack }
                }
            }
            Some(p) if stack.is_empty() && p.len() > locals.len() && p.len() - locals.len() <= 3 && p.starts_with(locals) => {
                StackFrame::ChopFrame { frame_type: 251 - (p.len() - locals.len()) as u8, offset_delta: delta }
            }
            Some(p) if stack.is_empty() && locals.len() > p.len() && locals.len() - p.len() <= 3 && locals.starts_with(p) => {
                let more = locals[p.len()..].iter().map(|t| resolve(t, at, pool)).collect::<Result<Vec<_>, _>>()?;
                StackFrame::AppendFrame { frame_type: 251 + more.len() as u8, offset_delta: delta, locals: more }
            }
            _ => StackFrame::FullFrame {
                frame_type: 255,
                offset_delta: delta,
                locals: locals.iter().map(|t| resolve(t, at, pool)).collect::<Result<_, _>>()?,
                stack: stack.iter().map(|t| resolve(t, at, pool)).collect::<Result<_, _>>()?,
            },
        };
        sf.to_bytes(&mut out).map_err(|_| Encode::TooBig)?;
        prev = Some(locals);
    }
    Ok(out)
}

pub(crate) enum Encode {
    TooBig,
    PoolFull,
}

impl From<PoolFull> for Encode {
    fn from(_: PoolFull) -> Self {
        Encode::PoolFull
    }
}

fn resolve(t: &VType<'_>, at: &dyn Fn(u32) -> u32, pool: &mut PoolAdd<'_, '_>) -> Result<VerificationType, Encode> {
    Ok(match t {
        VType::Top => VerificationType::Top,
        VType::Integer => VerificationType::Integer,
        VType::Float => VerificationType::Float,
        VType::Long => VerificationType::Long,
        VType::Double => VerificationType::Double,
        VType::Null => VerificationType::Null,
        VType::UninitializedThis => VerificationType::UninitializedThis,
        VType::Class(i) => VerificationType::Object { cpool_index: *i },
        VType::Named(name) => VerificationType::Object { cpool_index: pool.class(name)? },
        VType::Uninitialized(i) => {
            VerificationType::Uninitialized { offset: u16::try_from(at(*i)).map_err(|_| Encode::TooBig)? }
        }
    })
}
