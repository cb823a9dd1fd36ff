//! Park wrappers: `java.util.concurrent.locks.LockSupport`'s `park*` methods call two static
//! natives of the agent, one at entry with the blocker and the time argument, one at every exit
//! (normal or by exception), so that the agent can time each park of a thread with its blocker.
//!
//! ```text
//!  aload_0 | aconst_null                     ← new, at offset 0: the blocker (null without one)
//!  lload_N | lconst_0                           the time argument (0 for park())
//!  invokestatic N.untimed|nanos|until(Ljava/lang/Object;J)V
//!  ... original code ...
//!  bipush K invokestatic N.exit(I)V           ← new, before every return
//!  return
//!  ... original code ...
//!  bipush K invokestatic N.exit(I)V           ← new catch-all handler over all the original code
//!  athrow
//! ```
//!
//! The exits and the catch-all handler are the probe pass's ([`crate::instrument`], with
//! `N.enter`/`N.exit` as its probes and an id `K` of the method that is pushed with `bipush`). Its
//! entry sequence `bipush K; invokestatic N.enter(I)V` is five bytes, as is each entry sequence
//! above, so it is overwritten in place: no offset moves, and the pass's remapping of branches,
//! exception ranges, stack maps and line numbers stays as it is. The verifier accepts the new
//! entry: at offset 0 the locals are the parameters, the operand stack is empty, and `max_stack`
//! is raised to at least 3 (a reference and a long). The three entry natives get their own
//! Methodrefs, appended to the constant pool of the pass's output; `N.enter(I)V` stays in the
//! pool, unreferenced.
//!
//! The patch checks that each method starts with exactly the pass's entry sequence and fails
//! otherwise (the class is then left unchanged by the caller), so a change of the probe pass's
//! entry code cannot silently produce a wrong class.

use crate::classfile::{self, class_name_at, mutf8, PoolAdd};
use crate::{instrument, Error, MethodInfo, Probes, ACC_STATIC};
use ristretto_classfile::Constant;

/// The internal name of the class whose methods [`wrap_park`] wraps on HotSpot.
pub const LOCK_SUPPORT: &str = "java/util/concurrent/locks/LockSupport";

/// The natives the class named in [`wrap_park`] must declare (static, public), as name and
/// descriptor: the entry of an untimed park (`park()`, `park(Object)`), of `parkNanos` (the time is
/// the nanoseconds asked for), of `parkUntil` (the time is the deadline in milliseconds since the
/// epoch), and the exit (the argument identifies the method, see [`ParkMethod::of_id`]).
pub const PARK_NATIVES: [(&str, &str); 4] = [
    ("untimed", ENTRY_DESCRIPTOR),
    ("nanos", ENTRY_DESCRIPTOR),
    ("until", ENTRY_DESCRIPTOR),
    ("exit", "(I)V"),
];

const ENTRY_DESCRIPTOR: &str = "(Ljava/lang/Object;J)V";

/// How a wrapped method parks, which says which entry native it calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParkMethod {
    /// `park()`, `park(Object)`: until unparked.
    Untimed,
    /// `parkNanos(long)`, `parkNanos(Object, long)`: at most that many nanoseconds.
    Nanos,
    /// `parkUntil(long)`, `parkUntil(Object, long)`: until a deadline (ms since the epoch).
    Until,
}

/// The wrapped methods: name, descriptor, how they park, and the entry sequence's first two
/// instructions (the blocker, then the time argument).
const METHODS: [(&str, &str, ParkMethod, [u8; 2]); 6] = [
    ("park", "()V", ParkMethod::Untimed, [ACONST_NULL, LCONST_0]),
    ("park", "(Ljava/lang/Object;)V", ParkMethod::Untimed, [ALOAD_0, LCONST_0]),
    ("parkNanos", "(J)V", ParkMethod::Nanos, [ACONST_NULL, LLOAD_0]),
    ("parkNanos", "(Ljava/lang/Object;J)V", ParkMethod::Nanos, [ALOAD_0, LLOAD_1]),
    ("parkUntil", "(J)V", ParkMethod::Until, [ACONST_NULL, LLOAD_0]),
    ("parkUntil", "(Ljava/lang/Object;J)V", ParkMethod::Until, [ALOAD_0, LLOAD_1]),
];

const ACONST_NULL: u8 = 0x01;
const LCONST_0: u8 = 0x09;
const LLOAD_0: u8 = 0x1e;
const LLOAD_1: u8 = 0x1f;
const ALOAD_0: u8 = 0x2a;
const BIPUSH: u8 = 0x10;
const INVOKESTATIC: u8 = 0xb8;

/// Ids handed to the probe pass start here, so that it pushes them with `bipush` (two bytes):
/// its entry sequence is then five bytes long, as the one that replaces it.
const FIRST_ID: u32 = 0x40;

impl ParkMethod {
    /// The method the exit native's argument names, or `None` for an id no wrapper passes.
    pub fn of_id(id: i32) -> Option<(ParkMethod, &'static str, &'static str)> {
        let k = usize::try_from(id).ok()?.checked_sub(FIRST_ID as usize)?;
        METHODS.get(k).map(|&(name, desc, how, _)| (how, name, desc))
    }

    fn native(self) -> &'static str {
        match self {
            ParkMethod::Untimed => PARK_NATIVES[0].0,
            ParkMethod::Nanos => PARK_NATIVES[1].0,
            ParkMethod::Until => PARK_NATIVES[2].0,
        }
    }
}

/// A class whose park methods were wrapped.
#[derive(Debug, Clone)]
pub struct ParkWrapped {
    /// The new class file.
    pub bytes: Vec<u8>,
    /// The methods wrapped.
    pub wrapped: Vec<MethodInfo>,
    /// Park methods found but left unchanged, with a one-line reason.
    pub skipped: Vec<(MethodInfo, String)>,
}

/// Wraps the static `park`, `parkNanos` and `parkUntil` methods of `class_file` (the six of
/// `LockSupport`, by name and descriptor) with calls to the natives of `natives_class` (internal
/// name, declaring [`PARK_NATIVES`]). `Ok(None)`: the class has none of them, or none could be
/// wrapped (see [`crate::instrument`] for what the pass skips).
pub fn wrap_park(class_file: &[u8], natives_class: &str) -> Result<Option<ParkWrapped>, Error> {
    let probes = Probes::new(natives_class, "enter", PARK_NATIVES[3].0);
    let mut select = |m: &MethodInfo| {
        if m.access & ACC_STATIC == 0 {
            return None;
        }
        METHODS.iter().position(|&(n, d, _, _)| n == m.name && d == m.descriptor).map(|k| FIRST_ID + k as u32)
    };
    let Some(probed) = instrument(class_file, &probes, &mut select)? else { return Ok(None) };
    let fail = |cause: String| Error { class: Some(probed.class_name.clone()), cause };
    let class = classfile::parse(&probed.bytes).map_err(|(class, cause)| Error { class, cause })?;
    let mut pool = PoolAdd::new(&class.pool, class.pool_count);
    let full = |_| fail("constant pool full".into());
    let natives = pool.class(&mutf8(natives_class)).map_err(full)?;
    let mut refs = Vec::new();
    for how in [ParkMethod::Untimed, ParkMethod::Nanos, ParkMethod::Until] {
        refs.push((how, pool.probe_ref(natives, how.native(), ENTRY_DESCRIPTOR.as_bytes()).map_err(full)?));
    }
    // (position of the Code attribute's max_stack, of its code, the new entry sequence)
    let mut patches: Vec<(usize, usize, [u8; 5])> = Vec::new();
    let mut wrapped = Vec::new();
    for (info, id) in &probed.probed {
        let k = (id - FIRST_ID) as usize;
        let (_, _, how, loads) = METHODS[k];
        let m = class
            .methods
            .iter()
            .find(|m| m.name == info.name && m.descriptor == info.descriptor)
            .ok_or_else(|| fail(format!("{}{} is missing after the probe pass", info.name, info.descriptor)))?;
        let (start, _) = m.code.ok_or_else(|| fail(format!("{}{} has no code after the probe pass", info.name, info.descriptor)))?;
        // Code attribute: name (2), length (4), max_stack (2), max_locals (2), code_length (4), code.
        let code_at = start + 14;
        let entry = probed.bytes.get(code_at..code_at + 5).ok_or_else(|| fail("truncated Code attribute".into()))?;
        let enter_ref = u16::from_be_bytes([entry[3], entry[4]]);
        let is_enter = entry[..3] == [BIPUSH, *id as u8, INVOKESTATIC] && names_method(&class.pool, enter_ref, natives_class, "enter");
        if !is_enter {
            return Err(fail(format!("{}{} does not start with the probe pass's entry call", info.name, info.descriptor)));
        }
        let r = refs.iter().find(|(h, _)| *h == how).map(|&(_, r)| r).unwrap_or(0).to_be_bytes();
        patches.push((start + 6, code_at, [loads[0], loads[1], INVOKESTATIC, r[0], r[1]]));
        wrapped.push(info.clone());
    }
    let b = &probed.bytes;
    let shift = pool.bytes.len();
    let mut out = Vec::with_capacity(b.len() + shift);
    out.extend_from_slice(&b[..8]);
    out.extend_from_slice(&pool.count().to_be_bytes());
    out.extend_from_slice(&b[10..class.pool_end]);
    out.extend_from_slice(&pool.bytes);
    out.extend_from_slice(&b[class.pool_end..]);
    for (stack_at, code_at, entry) in patches {
        let (s, c) = (stack_at + shift, code_at + shift);
        let max_stack = u16::from_be_bytes([out[s], out[s + 1]]).max(3);
        out[s..s + 2].copy_from_slice(&max_stack.to_be_bytes());
        out[c..c + 5].copy_from_slice(&entry);
    }
    Ok(Some(ParkWrapped { bytes: out, wrapped, skipped: probed.skipped }))
}

/// Whether constant `index` is a Methodref to `class.name`.
fn names_method(pool: &ristretto_classfile::ConstantPool<'_>, index: u16, class: &str, name: &str) -> bool {
    let Some(Constant::MethodRef { class_index, name_and_type_index }) = pool.get(index) else { return false };
    let Ok((n, _)) = pool.try_get_name_and_type(*name_and_type_index) else { return false };
    class_name_at(pool, *class_index).as_deref() == Some(class) && classfile::utf8(pool, *n).is_some_and(|s| s.as_bytes() == name.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_name_the_six_methods_and_nothing_else() {
        assert_eq!(ParkMethod::of_id(FIRST_ID as i32), Some((ParkMethod::Untimed, "park", "()V")));
        assert_eq!(ParkMethod::of_id(FIRST_ID as i32 + 3), Some((ParkMethod::Nanos, "parkNanos", "(Ljava/lang/Object;J)V")));
        assert_eq!(ParkMethod::of_id(FIRST_ID as i32 + 5).map(|m| m.0), Some(ParkMethod::Until));
        assert_eq!(ParkMethod::of_id(FIRST_ID as i32 + 6), None);
        assert_eq!(ParkMethod::of_id(FIRST_ID as i32 - 1), None);
        assert_eq!(ParkMethod::of_id(-1), None);
    }

    #[test]
    fn every_id_is_pushed_with_bipush() {
        assert!(FIRST_ID + METHODS.len() as u32 <= 127);
    }
}
