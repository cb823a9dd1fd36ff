//! Rewriting one method's Code attribute: probes in, offsets out.
//!
//! New code = entry probe, then each original instruction (the start of one of the method's
//! exception handlers preceded by the caught probe if there is one, a return preceded by its exit
//! probe), then the catch-all handler(s). Every original offset is mapped through the new position
//! of its instruction: branch targets, exception ranges and handlers, stack map frames and line
//! numbers go to the start of the probes before the instruction when it has some (so a jump to a
//! return runs the exit probe, and an exception entry lands on the caught probe), and to the
//! instruction right after the entry probe for offset 0 (so a loop back to offset 0 does not
//! re-enter). uninitialized(offset) types and type annotations that name an instruction go to the
//! instruction itself.
//!
//! A native method's wrapper ([`wrapper_code`]) is written as a Code attribute without probes and
//! then goes through the same rewrite as any method.

use crate::classfile::{ClassLayout, MethodLayout, PoolAdd, PoolFull, Reader};
use crate::ctor::{self, Region};
use crate::frames::{self, Frame, VType};
use crate::insn::{self, Decoded, Flow, Insn};
use ristretto_classfile::attributes::{TargetType, TypeAnnotation};
use ristretto_classfile::byte_reader::ByteReader;

const ACC_STATIC: u16 = 0x0008;
const GOTO_W: u8 = 0xc8;
const INVOKESTATIC: u8 = 0xb8;
const ATHROW: u8 = 0xbf;
const MAX_CODE: u32 = 65535;

/// Why a selected method was left unchanged.
pub(crate) enum Skip {
    Reason(String),
    PoolFull,
}

impl From<String> for Skip {
    fn from(s: String) -> Self {
        Skip::Reason(s)
    }
}

impl From<&str> for Skip {
    fn from(s: &str) -> Self {
        Skip::Reason(s.to_string())
    }
}

impl From<PoolFull> for Skip {
    fn from(_: PoolFull) -> Self {
        Skip::PoolFull
    }
}

impl From<frames::Encode> for Skip {
    fn from(e: frames::Encode) -> Self {
        match e {
            frames::Encode::PoolFull => Skip::PoolFull,
            frames::Encode::TooBig => Skip::Reason("StackMapTable offsets exceed the class-file limits".into()),
        }
    }
}

/// The constant pool's Methodrefs to the probes.
pub(crate) struct ProbeRefs {
    /// The probe class.
    pub class: u16,
    pub enter: u16,
    pub exit: u16,
    /// Called by the catch-all handlers (`exit` unless a `thrown` probe is configured).
    pub thrown: u16,
}

/// The descriptor of the probes without a carried context: `static void m(int)`.
pub(crate) const PROBE_DESCRIPTOR: &[u8] = b"(I)V";

/// A context carried in a local variable from the entry probe to the others
/// ([`crate::Probes::with_carried_context`]).
pub(crate) struct Carried {
    /// The context's verification type: an internal class name or an array descriptor, in
    /// modified UTF-8.
    pub class: Vec<u8>,
    /// The entry probe's descriptor, `(I)C`.
    pub enter: Vec<u8>,
    /// The descriptor of the exit, thrown and caught probes, `(CI)V`.
    pub other: Vec<u8>,
}

impl Carried {
    /// `None` unless `descriptor` is one reference type (`Lname;` or an array).
    pub fn new(descriptor: &str) -> Option<Carried> {
        let d = descriptor.as_bytes();
        if insn::skip_field_type(d, 0) != Some(d.len()) {
            return None;
        }
        let class = match d[0] {
            b'L' if d.len() > 2 && !descriptor.contains(['.', '[']) => &descriptor[1..d.len() - 1],
            b'[' => descriptor,
            _ => return None,
        };
        let mutf8 = crate::classfile::mutf8;
        Some(Carried { class: mutf8(class), enter: mutf8(&format!("(I){descriptor}")), other: mutf8(&format!("({descriptor}I)V")) })
    }
}

/// What stays the same for all methods of a class.
pub(crate) struct Ctx<'c, 'p, 'a> {
    pub class: &'c ClassLayout<'a>,
    pub pool: PoolAdd<'p, 'a>,
    pub refs: ProbeRefs,
    /// The caught probe's name, if configured; its Methodref is added when a method first needs it.
    caught_name: Option<&'c str>,
    caught: Option<u16>,
    /// The context carried from the entry probe to the others, if configured.
    carried: Option<&'c Carried>,
    stack_map_name: Option<u16>,
    code_name: Option<u16>,
}

impl<'c, 'p, 'a> Ctx<'c, 'p, 'a> {
    pub fn new(
        class: &'c ClassLayout<'a>,
        pool: PoolAdd<'p, 'a>,
        refs: ProbeRefs,
        caught_name: Option<&'c str>,
        carried: Option<&'c Carried>,
    ) -> Self {
        Ctx { class, pool, refs, caught_name, caught: None, carried, stack_map_name: None, code_name: None }
    }

    /// The caught probe's Methodref, `None` when there is no caught probe.
    fn caught(&mut self) -> Result<Option<u16>, PoolFull> {
        if self.caught.is_none() {
            if let Some(name) = self.caught_name {
                let descriptor = self.carried.map_or(PROBE_DESCRIPTOR, |c| &c.other);
                self.caught = Some(self.pool.probe_ref(self.refs.class, name, descriptor)?);
            }
        }
        Ok(self.caught)
    }

    /// A Utf8 entry with this name (an existing one if any), looked up once per class.
    fn attribute_name(pool: &mut PoolAdd<'p, 'a>, cached: &mut Option<u16>, name: &[u8]) -> Result<u16, PoolFull> {
        if let Some(i) = *cached {
            return Ok(i);
        }
        let i = pool.existing_or_new_utf8(name)?;
        *cached = Some(i);
        Ok(i)
    }

    /// The Utf8 entry `Code`, for the attributes of new methods.
    pub fn code_name(&mut self) -> Result<u16, PoolFull> {
        Self::attribute_name(&mut self.pool, &mut self.code_name, b"Code")
    }
}

pub(crate) struct CodeAttr<'a> {
    name_index: u16,
    max_stack: u16,
    max_locals: u16,
    pub(crate) code: &'a [u8],
    /// start, end, handler, catch type (byte offsets, as in the file)
    pub(crate) exceptions: Vec<[u16; 4]>,
    /// name index, kind, body
    attributes: Vec<(u16, Attr, &'a [u8])>,
}

/// The Code attributes the pass reads or rewrites; all others are dropped.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Attr {
    StackMapTable,
    LineNumberTable,
    LocalVariables,
    TypeAnnotations,
    Other,
}

fn attribute_kind(class: &ClassLayout<'_>, name: u16) -> Attr {
    match crate::classfile::utf8(&class.pool, name).map(|s| s.as_bytes()) {
        Some(b"StackMapTable") => Attr::StackMapTable,
        Some(b"LineNumberTable") => Attr::LineNumberTable,
        Some(b"LocalVariableTable" | b"LocalVariableTypeTable") => Attr::LocalVariables,
        Some(b"RuntimeVisibleTypeAnnotations" | b"RuntimeInvisibleTypeAnnotations") => Attr::TypeAnnotations,
        _ => Attr::Other,
    }
}

pub(crate) fn parse_code<'a>(class: &ClassLayout<'_>, bytes: &'a [u8]) -> Result<CodeAttr<'a>, String> {
    let end = bytes.len();
    let mut r = Reader::new(bytes, 0);
    let name_index = r.u16("Code")?;
    r.u32("Code")?;
    let max_stack = r.u16("Code")?;
    let max_locals = r.u16("Code")?;
    let len = r.u32("Code")?;
    if len == 0 || len > MAX_CODE {
        return Err(format!("code length {len} is outside 1..=65535"));
    }
    let code = r.take(len as usize, "code")?;
    let n = r.u16("exception table")?;
    let mut exceptions = Vec::with_capacity(usize::from(n));
    for _ in 0..n {
        exceptions.push([r.u16("exception table")?, r.u16("exception table")?, r.u16("exception table")?, r.u16("exception table")?]);
    }
    let n = r.u16("Code attributes")?;
    let mut attributes = Vec::with_capacity(usize::from(n));
    for _ in 0..n {
        let name = r.u16("Code attribute")?;
        let len = r.u32("Code attribute")?;
        let body = r.take(len as usize, "Code attribute")?;
        attributes.push((name, attribute_kind(class, name), body));
    }
    if r.pos != end {
        return Err("Code attribute length does not match its contents".into());
    }
    Ok(CodeAttr { name_index, max_stack, max_locals, code, exceptions, attributes })
}

/// How a short branch is encoded.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Br {
    Short,
    /// goto → goto_w
    Wide,
    /// if<c> L → if<!c> +8; goto_w L
    Inverted,
    /// if<c> L → if<c> T, where T: goto_w L sits in the island after instruction `slot`
    Tramp(u32),
}

/// New positions of everything.
struct Layout {
    entry_len: u32,
    exit_len: u32,
    /// Length of the caught probe, at the instructions marked in `handler`.
    caught_len: u32,
    /// Whether instruction i starts one of the method's exception handlers (empty: no caught probes).
    handler: Vec<bool>,
    /// Start of instruction i including the probes before it (caught, exit).
    prefix: Vec<u32>,
    /// Start of instruction i itself.
    at: Vec<u32>,
    /// Start of the trampoline island after instruction i (= end of instruction i).
    island: Vec<u32>,
    /// End of the original code (and its islands); the handlers follow.
    end: u32,
}

fn switch_size(sw: &insn::Switch) -> u32 {
    match sw.keys {
        None => 12 + 4 * sw.targets.len() as u32,
        Some(_) => 8 + 8 * sw.targets.len() as u32,
    }
}

fn pad(at: u32) -> u32 {
    (4 - (at + 1) % 4) % 4
}

impl Layout {
    fn compute(&mut self, d: &Decoded, br: &[Br], tramps: &[Vec<u32>]) {
        let mut p = self.entry_len;
        for (i, ins) in d.insns.iter().enumerate() {
            self.prefix[i] = p;
            if self.handler.get(i) == Some(&true) {
                p += self.caught_len;
            }
            if insn::flow(&ins.op) == Flow::Return {
                p += self.exit_len;
            }
            self.at[i] = p;
            p += match (insn::flow(&ins.op), br[i]) {
                (Flow::Cond(_), Br::Inverted) => 8,
                (Flow::Cond(_), _) => 3,
                (Flow::Goto, Br::Wide) | (Flow::GotoW, _) => 5,
                (Flow::Goto, _) => 3,
                (Flow::Switch, _) => 1 + pad(p) + switch_size(&d.switches[ins.switch as usize]),
                _ => ins.len,
            };
            self.island[i] = p;
            p += 5 * tramps.get(i).map_or(0, |t| t.len() as u32);
        }
        self.end = p;
    }

    /// Where a jump to instruction t lands.
    fn target(&self, t: u32) -> u32 {
        self.prefix[t as usize]
    }

    fn tramp_at(&self, slot: u32, k: usize) -> u32 {
        self.island[slot as usize] + 5 * k as u32
    }
}

fn fits_i16(d: i64) -> bool {
    (i64::from(i16::MIN)..=i64::from(i16::MAX)).contains(&d)
}

/// Chooses branch encodings until every short branch reaches its target. Widening only grows the
/// code, so the loop ends; a bound guards against pathological oscillation of switch padding.
fn plan(
    d: &Decoded,
    layout: &mut Layout,
    frame_at: &dyn Fn(u32) -> bool,
    maps: bool,
    handlers: &[(u32, u32, u32)],
) -> Result<(Vec<Br>, Vec<Vec<u32>>), String> {
    let n = d.insns.len();
    let mut br = vec![Br::Short; n];
    let mut tramps: Vec<Vec<u32>> = Vec::new();
    for _round in 0..64 {
        layout.compute(d, &br, &tramps);
        if layout.end > MAX_CODE {
            return Err(format!("code would grow to over {MAX_CODE} bytes"));
        }
        let mut changed = false;
        for (i, ins) in d.insns.iter().enumerate() {
            let f = insn::flow(&ins.op);
            if !matches!(f, Flow::Cond(_) | Flow::Goto) || br[i] == Br::Wide || br[i] == Br::Inverted {
                continue;
            }
            let from = i64::from(layout.at[i]);
            let to = match br[i] {
                Br::Tramp(slot) => {
                    let k = tramps[slot as usize].iter().position(|&b| b as usize == i).unwrap_or(0);
                    layout.tramp_at(slot, k)
                }
                _ => layout.target(ins.target),
            };
            if fits_i16(i64::from(to) - from) {
                continue;
            }
            changed = true;
            if f == Flow::Goto {
                br[i] = Br::Wide;
            } else if !maps || frame_at(i as u32 + 1) {
                // Without a StackMapTable, or with a frame already at the fall-through, the
                // inverted branch's new target needs nothing else.
                br[i] = Br::Inverted;
            } else {
                // The fall-through has no frame and inventing one needs full type inference: jump
                // instead to a goto_w placed where no code falls through, whose frame is a copy
                // of the target's (which must exist, the target being a branch target).
                if !frame_at(ins.target) {
                    return Err(format!("branch target at offset {} has no stack map frame", d.insns[ins.target as usize].off));
                }
                if let Br::Tramp(slot) = br[i] {
                    tramps[slot as usize].retain(|&b| b as usize != i);
                }
                if tramps.is_empty() {
                    tramps = vec![Vec::new(); n];
                }
                let slot = nearest_slot(d, layout, i, ins.target, handlers).ok_or("no place for a branch trampoline within reach")?;
                tramps[slot as usize].push(i as u32);
                br[i] = Br::Tramp(slot);
            }
        }
        if !changed {
            return Ok((br, tramps));
        }
    }
    Err("branch widening did not converge".into())
}

/// The instruction without fall-through whose island is closest to the branch at instruction
/// `from` and within a short branch's reach, among those whose island a trampoline to `target` may
/// occupy: every exception handler of the method that covers the island must also cover the
/// target, as the verifier checks the trampoline (whose frame is the target's) against those
/// handlers' frames. Searches outwards from the branch, so the cost does not grow with the method.
fn nearest_slot(d: &Decoded, layout: &Layout, from: usize, target: u32, handlers: &[(u32, u32, u32)]) -> Option<u32> {
    let covers = |h: &(u32, u32, u32), i: u32| h.0 <= i && i < h.1;
    let usable = |j: usize| {
        insn::flow(&d.insns[j].op).is_unconditional() && handlers.iter().all(|h| !covers(h, j as u32) || covers(h, target))
    };
    let here = i64::from(layout.at[from]);
    let distance = |j: usize| (i64::from(layout.island[j]) - here).abs();
    let (mut down, mut up) = (Some(from), from + 1);
    loop {
        let below = down.map(|j| (distance(j), j));
        let above = (up < d.insns.len()).then(|| (distance(up), up));
        let (dist, j) = match (below, above) {
            (Some(b), Some(a)) => b.min(a),
            (Some(b), None) => b,
            (None, Some(a)) => a,
            (None, None) => return None,
        };
        if !fits_i16(dist) {
            return None;
        }
        if usable(j) {
            return Some(j as u32);
        }
        if Some(j) == down {
            down = j.checked_sub(1);
        } else {
            up += 1;
        }
    }
}

fn push_id(id: u32, pool: &mut PoolAdd<'_, '_>) -> Result<Vec<u8>, PoolFull> {
    let v = id as i32; // the probe receives the id's bits as a Java int
    Ok(match v {
        -1..=5 => vec![(0x03 + v) as u8],
        -128..=127 => vec![0x10, v as u8],
        -32768..=32767 => {
            let b = (v as i16).to_be_bytes();
            vec![0x11, b[0], b[1]]
        }
        _ => {
            let i = pool.integer(v)?;
            match u8::try_from(i) {
                Ok(small) => vec![0x12, small],
                Err(_) => {
                    let b = i.to_be_bytes();
                    vec![0x13, b[0], b[1]]
                }
            }
        }
    })
}

fn put_u16(out: &mut Vec<u8>, v: u16) {
    out.extend_from_slice(&v.to_be_bytes());
}

fn put_i32(out: &mut Vec<u8>, v: i64) {
    out.extend_from_slice(&(v as i32).to_be_bytes());
}

/// aload and its `aload_0` form.
const ALOAD: (u8, u8) = (0x19, 0x2a);
/// astore and its `astore_0` form.
const ASTORE: (u8, u8) = (0x3a, 0x4b);

/// A load or store (`op`: the opcode with a one-byte index and its `_0` form) of local `slot`:
/// the `_<n>` form for slots 0 to 3, the one-byte index up to 255, `wide` beyond.
fn local_insn(code: &mut Vec<u8>, (op, op_0): (u8, u8), slot: u16) {
    match slot {
        0..=3 => code.push(op_0 + slot as u8),
        4..=255 => code.extend_from_slice(&[op, slot as u8]),
        _ => {
            code.extend_from_slice(&[0xc4, op]); // wide
            put_u16(code, slot);
        }
    }
}

/// The Code attribute (header included, no probes yet) of the wrapper of a native method with
/// this descriptor: `this` (unless static) and the arguments loaded in order, the renamed native
/// `target` (a Methodref of this class) called with `invokestatic` or, for an instance method,
/// `invokespecial` (it is private), and its result returned.
pub(crate) fn wrapper_code(code_name: u16, descriptor: &str, is_static: bool, target: u16) -> Result<Vec<u8>, String> {
    let bad = || format!("malformed method descriptor {descriptor}");
    let d = descriptor.as_bytes();
    if d.first() != Some(&b'(') {
        return Err(bad());
    }
    let mut code = Vec::with_capacity(16);
    let mut slot: u16 = 0;
    if !is_static {
        code.push(0x2a); // aload_0
        slot = 1;
    }
    let mut i = 1;
    while *d.get(i).ok_or_else(bad)? != b')' {
        let end = insn::skip_field_type(d, i).ok_or_else(bad)?;
        // (load, load_0, slots) of iload, lload, fload, dload, aload
        let (load, load_0, size) = match d[i] {
            b'J' => (0x16, 0x1e, 2),
            b'F' => (0x17, 0x22, 1),
            b'D' => (0x18, 0x26, 2),
            b'L' | b'[' => (0x19, 0x2a, 1),
            _ => (0x15, 0x1a, 1),
        };
        local_insn(&mut code, (load, load_0), slot);
        slot = slot.checked_add(size).ok_or_else(bad)?;
        i = end;
    }
    if slot > 255 {
        return Err(format!("{slot} parameter slots: more than the 255 a method may have"));
    }
    code.push(if is_static { INVOKESTATIC } else { 0xb7 });
    put_u16(&mut code, target);
    let ret = &d[i + 1..];
    let (op, ret_slots) = match ret {
        b"V" => (0xb1, 0),
        b"J" => (0xad, 2),
        b"F" => (0xae, 1),
        b"D" => (0xaf, 2),
        [b'L' | b'[', ..] if insn::skip_field_type(ret, 0) == Some(ret.len()) => (0xb0, 1),
        [b'B' | b'C' | b'I' | b'S' | b'Z'] => (0xac, 1),
        _ => return Err(bad()),
    };
    code.push(op);
    let mut out = Vec::with_capacity(code.len() + 18);
    put_u16(&mut out, code_name);
    out.extend_from_slice(&(code.len() as u32 + 12).to_be_bytes());
    put_u16(&mut out, slot.max(ret_slots)); // max_stack
    put_u16(&mut out, slot); // max_locals
    out.extend_from_slice(&(code.len() as u32).to_be_bytes());
    out.extend_from_slice(&code);
    out.extend_from_slice(&[0, 0, 0, 0]); // no exception table, no attributes
    Ok(out)
}

/// Rewrites the method's Code attribute; returns the new attribute, header included.
pub(crate) fn rewrite(ctx: &mut Ctx<'_, '_, '_>, m: &MethodLayout, id: u32) -> Result<Vec<u8>, Skip> {
    let (start, end) = m.code.ok_or("no code")?;
    let bytes = ctx.class.bytes;
    rewrite_code(ctx, &bytes[start..end], &m.name, &m.descriptor, m.access, id)
}

/// Rewrites a Code attribute (`code_attr`, header included) of the method with this name,
/// descriptor and access flags; returns the new attribute.
pub(crate) fn rewrite_code(ctx: &mut Ctx<'_, '_, '_>, code_attr: &[u8], name: &str, descriptor: &str, access: u16, id: u32) -> Result<Vec<u8>, Skip> {
    let class = ctx.class;
    let ca = parse_code(class, code_attr)?;
    if name == "finalize" && descriptor == "()V" && ca.code == [0xb1] {
        // HotSpot registers objects for finalization only if their class's finalize() is not a
        // lone `return`; a probed one would make every object of the class (for Object: every
        // object) finalizable.
        return Err("empty finalize(): probes would make its objects finalizable".into());
    }
    let d = insn::decode(ca.code)?;
    let n = d.insns.len();
    let flows: Vec<Flow> = d.insns.iter().map(|i| insn::flow(&i.op)).collect();
    if flows.contains(&Flow::Subroutine) {
        return Err(format!("jsr/ret subroutines (class version {}) are not supported", class.major).into());
    }
    if flows.contains(&Flow::Reserved) {
        return Err("reserved opcode in code".into());
    }
    if flows.last().is_some_and(|f| !f.is_unconditional()) {
        return Err("code falls off its end".into());
    }
    // The probes push the id (and with a carried context the context under it) over a return
    // value or a handler's exception; the carried context takes a new local after all others.
    let carried = ctx.carried;
    let (max_stack, max_locals) = match carried {
        None => (ca.max_stack.checked_add(1).ok_or("max_stack is already 65535")?.max(2), ca.max_locals),
        Some(_) => (
            ca.max_stack.checked_add(2).ok_or("max_stack is already over 65533")?.max(3),
            ca.max_locals.checked_add(1).ok_or("max_locals is already 65535")?,
        ),
    };
    // The carried context's local and its type, in every frame after the entry probe.
    let context = carried.map(|c| (ca.max_locals, VType::Named(&c.class)));

    // Exception table as instruction indices.
    let code_len = ca.code.len() as i64;
    let idx = |off: u16| insn::index_at(&d.insns, i64::from(off));
    let mut handlers = Vec::with_capacity(ca.exceptions.len());
    for &[s, e, h, _] in &ca.exceptions {
        let s_i = idx(s).ok_or_else(|| format!("exception range start {s} is not at an instruction"))?;
        let e_i = if i64::from(e) == code_len { n as u32 } else { idx(e).ok_or_else(|| format!("exception range end {e} is not at an instruction"))? };
        let h_i = idx(h).ok_or_else(|| format!("exception handler {h} is not at an instruction"))?;
        if s_i >= e_i {
            return Err(format!("empty exception range {s}..{e}").into());
        }
        handlers.push((s_i, e_i, h_i));
    }

    let is_ctor = name == "<init>" && class.name != "java/lang/Object";
    let regions = if is_ctor { ctor::regions(&d, &handlers, &class.pool).map_err(|e| format!("constructor analysis: {e}"))? } else { Vec::new() };
    let region = |i: u32| if is_ctor { regions[i as usize] } else { Region::Post };

    // Stack maps: version 51+ must have them; 50 keeps them if it had them (else the JVM falls
    // back to the old verifier for the class); older versions ignore them, so they are dropped.
    let old_smt = ca.attributes.iter().find(|(_, kind, _)| *kind == Attr::StackMapTable).map(|(_, _, b)| *b);
    let branches = flows.iter().any(|f| matches!(f, Flow::Cond(_) | Flow::Goto | Flow::GotoW | Flow::Switch));
    let maps = class.major >= 51 || (class.major == 50 && (old_smt.is_some() || (!branches && handlers.is_empty())));
    let initial = if maps {
        frames::initial_locals(descriptor.as_bytes(), access & ACC_STATIC != 0, is_ctor, class.this_class)
    } else {
        None
    };
    let mut old_frames: Vec<(u32, Frame<'_>)> = match (maps, old_smt) {
        (true, Some(body)) => {
            let init = initial.clone().ok_or("malformed method descriptor")?;
            frames::decode(body, &d.insns, init)?
        }
        _ => Vec::new(),
    };
    if let Some((slot, t)) = &context {
        for (_, f) in &mut old_frames {
            frames::set_local(&mut f.locals, *slot, t.clone())?;
        }
    }
    let frame_of = |i: u32| old_frames.binary_search_by_key(&i, |(at, _)| *at).ok().map(|k| &old_frames[k].1);
    let frame_at = |i: u32| frame_of(i).is_some();

    let id_bytes = push_id(id, &mut ctx.pool)?;
    let probe_len = id_bytes.len() as u32 + 3;
    // With a carried context: the store after the entry probe, the load before the others.
    let (store, load) = match &context {
        Some((slot, _)) => {
            let (mut store, mut load) = (Vec::new(), Vec::new());
            local_insn(&mut store, ASTORE, *slot);
            local_insn(&mut load, ALOAD, *slot);
            (store, load)
        }
        None => (Vec::new(), Vec::new()),
    };
    let other_len = load.len() as u32 + probe_len;
    // The caught probe goes at the start of every handler of the method's own table (the frame
    // there has the exception alone on the stack: the id, and the context under it, fit in the
    // max_stack of at least 2, or 3 with a carried context).
    let caught = if handlers.is_empty() { None } else { ctx.caught()? };
    let mut handler = Vec::new();
    if caught.is_some() {
        handler = vec![false; n];
        for &(_, _, h) in &handlers {
            handler[h as usize] = true;
        }
    }
    let mut layout = Layout {
        entry_len: probe_len + store.len() as u32,
        exit_len: other_len,
        caught_len: other_len,
        handler,
        prefix: vec![0; n],
        at: vec![0; n],
        island: vec![0; n],
        end: 0,
    };
    let (br, tramps) = plan(&d, &mut layout, &frame_at, maps, &handlers)?;

    // Catch-all coverage: runs of code whose region allows the same handler.
    let mut units: Vec<(u32, u32, Region)> = Vec::with_capacity(n);
    for i in 0..n {
        units.push((layout.prefix[i], layout.island[i], region(i as u32)));
        for (k, &b) in tramps.get(i).map(Vec::as_slice).unwrap_or(&[]).iter().enumerate() {
            let t = layout.tramp_at(i as u32, k);
            units.push((t, t + 5, region(d.insns[b as usize].target)));
        }
    }
    let mut runs: Vec<(u32, u32, Region)> = Vec::new();
    for (s, e, r) in units {
        match runs.last_mut() {
            Some(last) if last.2 == r && last.1 == s => last.1 = e,
            _ => runs.push((s, e, r)),
        }
    }
    runs.retain(|r| r.2 != Region::Uncovered);
    let handler_len = other_len + 1;
    let post_handler = layout.end;
    let needs_post = runs.iter().any(|r| r.2 == Region::Post);
    let pre_handler = layout.end + if needs_post { handler_len } else { 0 };
    let needs_pre = runs.iter().any(|r| r.2 == Region::Pre);
    let code_end = pre_handler + if needs_pre { handler_len } else { 0 };
    if code_end > MAX_CODE {
        return Err(format!("code would grow to over {MAX_CODE} bytes").into());
    }

    // The code.
    let mut code = Vec::with_capacity(code_end as usize);
    let probe = |out: &mut Vec<u8>, method: u16| {
        out.extend_from_slice(&id_bytes);
        out.push(INVOKESTATIC);
        put_u16(out, method);
    };
    // Every probe but the entry gets the carried context first.
    let other = |out: &mut Vec<u8>, method: u16| {
        out.extend_from_slice(&load);
        probe(out, method);
    };
    probe(&mut code, ctx.refs.enter);
    code.extend_from_slice(&store);
    for (i, ins) in d.insns.iter().enumerate() {
        if let (Some(caught), Some(true)) = (caught, layout.handler.get(i)) {
            other(&mut code, caught);
        }
        if flows[i] == Flow::Return {
            other(&mut code, ctx.refs.exit);
        }
        debug_assert_eq!(code.len() as u32, layout.at[i]);
        let here = i64::from(layout.at[i]);
        let target = |t: u32| i64::from(layout.target(t)) - here;
        match (flows[i], br[i]) {
            (Flow::Cond(op), Br::Short) => {
                code.push(op);
                code.extend_from_slice(&(target(ins.target) as i16).to_be_bytes());
            }
            (Flow::Cond(op), Br::Tramp(slot)) => {
                let k = tramps[slot as usize].iter().position(|&b| b as usize == i).unwrap_or(0);
                code.push(op);
                code.extend_from_slice(&((i64::from(layout.tramp_at(slot, k)) - here) as i16).to_be_bytes());
            }
            (Flow::Cond(op), _) => {
                code.extend_from_slice(&[insn::inverted(op), 0, 8, GOTO_W]);
                put_i32(&mut code, target(ins.target) - 3);
            }
            (Flow::Goto, Br::Short) => {
                code.push(0xa7);
                code.extend_from_slice(&(target(ins.target) as i16).to_be_bytes());
            }
            (Flow::Goto | Flow::GotoW, _) => {
                code.push(GOTO_W);
                put_i32(&mut code, target(ins.target));
            }
            (Flow::Switch, _) => {
                let sw = &d.switches[ins.switch as usize];
                code.push(ca.code[ins.off as usize]);
                code.resize(code.len() + pad(layout.at[i]) as usize, 0);
                put_i32(&mut code, target(sw.default));
                match &sw.keys {
                    None => {
                        put_i32(&mut code, i64::from(sw.low));
                        put_i32(&mut code, i64::from(sw.high));
                        for &t in &sw.targets {
                            put_i32(&mut code, target(t));
                        }
                    }
                    Some(keys) => {
                        put_i32(&mut code, keys.len() as i64);
                        for (&k, &t) in keys.iter().zip(&sw.targets) {
                            put_i32(&mut code, i64::from(k));
                            put_i32(&mut code, target(t));
                        }
                    }
                }
            }
            _ => code.extend_from_slice(&ca.code[ins.off as usize..(ins.off + ins.len) as usize]),
        }
        for &b in tramps.get(i).map(Vec::as_slice).unwrap_or(&[]) {
            let t = d.insns[b as usize].target;
            code.push(GOTO_W);
            let here = code.len() as i64 - 1;
            put_i32(&mut code, i64::from(layout.target(t)) - here);
        }
    }
    for needed in [needs_post, needs_pre] {
        if needed {
            other(&mut code, ctx.refs.thrown);
            code.push(ATHROW);
        }
    }
    debug_assert_eq!(code.len() as u32, code_end);

    // Exception table: the method's own entries first, so they keep precedence; ours last.
    let map = OffsetMap { insns: &d.insns, code_len, layout: &layout };
    let mut table: Vec<[u16; 4]> = Vec::with_capacity(ca.exceptions.len() + runs.len());
    for (k, &(s, e, h)) in handlers.iter().enumerate() {
        table.push([layout.target(s) as u16, map.end(e) as u16, layout.target(h) as u16, ca.exceptions[k][3]]);
    }
    for &(s, e, r) in &runs {
        table.push([s as u16, e as u16, if r == Region::Pre { pre_handler } else { post_handler } as u16, 0]);
    }
    let table_len = u16::try_from(table.len()).map_err(|_| "exception table would exceed 65535 entries")?;

    // Attributes.
    let mut attrs: Vec<(u16, Vec<u8>)> = Vec::new();
    for &(name_index, kind, body) in &ca.attributes {
        let remapped = match kind {
            Attr::LineNumberTable => Some(line_numbers(body, &map)?),
            Attr::LocalVariables => Some(local_variables(body, &map)?),
            Attr::TypeAnnotations => type_annotations(body, &map),
            // StackMapTable is rebuilt below; attributes unknown to the pass may hold code offsets
            // it cannot remap, so they are dropped (see the crate docs).
            Attr::StackMapTable | Attr::Other => None,
        };
        if let Some(b) = remapped {
            attrs.push((name_index, b));
        }
    }
    if maps {
        let mut post = Frame { locals: Vec::new(), stack: vec![VType::Named(b"java/lang/Throwable")] };
        let mut pre = Frame { locals: vec![VType::UninitializedThis], stack: post.stack.clone() };
        if let Some((slot, t)) = &context {
            frames::set_local(&mut post.locals, *slot, t.clone())?;
            if needs_pre {
                frames::set_local(&mut pre.locals, *slot, t.clone())?;
            }
        }
        let mut all: Vec<(u32, &Frame<'_>)> = old_frames.iter().map(|(i, f)| (layout.target(*i), f)).collect();
        for (slot, list) in tramps.iter().enumerate() {
            for (k, &b) in list.iter().enumerate() {
                let t = d.insns[b as usize].target;
                let f = frame_of(t).ok_or("trampoline target has no frame")?;
                all.push((layout.tramp_at(slot as u32, k), f));
            }
        }
        if needs_post {
            all.push((post_handler, &post));
        }
        if needs_pre {
            all.push((pre_handler, &pre));
        }
        all.sort_by_key(|(off, _)| *off);
        let at = |i: u32| layout.at[i as usize];
        let body = frames::encode(&all, if old_smt.is_some() { initial.as_deref() } else { None }, &at, &mut ctx.pool)?;
        let name = Ctx::attribute_name(&mut ctx.pool, &mut ctx.stack_map_name, b"StackMapTable")?;
        attrs.push((name, body));
    }

    let mut out = Vec::with_capacity(code.len() + 64);
    put_u16(&mut out, ca.name_index);
    out.extend_from_slice(&[0; 4]); // length, patched below
    put_u16(&mut out, max_stack);
    put_u16(&mut out, max_locals);
    out.extend_from_slice(&(code.len() as u32).to_be_bytes());
    out.extend_from_slice(&code);
    put_u16(&mut out, table_len);
    for e in &table {
        for v in e {
            put_u16(&mut out, *v);
        }
    }
    put_u16(&mut out, attrs.len() as u16);
    for (name, body) in &attrs {
        put_u16(&mut out, *name);
        out.extend_from_slice(&(body.len() as u32).to_be_bytes());
        out.extend_from_slice(body);
    }
    let len = (out.len() - 6) as u32;
    out[2..6].copy_from_slice(&len.to_be_bytes());
    Ok(out)
}

/// Original code offsets to new ones, for the debug attributes.
struct OffsetMap<'m> {
    insns: &'m [Insn],
    code_len: i64,
    layout: &'m Layout,
}

impl OffsetMap<'_> {
    fn index(&self, off: i64) -> Option<u32> {
        insn::index_at(self.insns, off)
    }

    /// Where something that starts at instruction i starts now: offset 0 stays 0 (the entry probe
    /// belongs to the first line and the parameters are live in it).
    fn start(&self, i: u32) -> u32 {
        if i == 0 {
            0
        } else {
            self.layout.target(i)
        }
    }

    /// Where a range that ends before instruction e (or at the end of the code) ends now.
    fn end(&self, e: u32) -> u32 {
        if e as usize == self.insns.len() {
            self.layout.end
        } else {
            self.layout.target(e)
        }
    }

    /// A local variable's range [start, start + length) as new (start, length).
    fn var_range(&self, start: u16, length: u16) -> Option<(u16, u16)> {
        let s = self.index(i64::from(start))?;
        let e_off = i64::from(start) + i64::from(length);
        let e = if e_off == self.code_len { self.insns.len() as u32 } else { self.index(e_off)? };
        let (ns, ne) = (self.start(s), self.end(e));
        Some((ns as u16, ne.checked_sub(ns)? as u16))
    }
}

/// Rewrites a table of `u2 count` entries, each passed to `entry` to copy with remapped offsets.
fn remap_table(body: &[u8], what: &str, mut entry: impl FnMut(&mut Reader<'_>, &mut Vec<u8>) -> Result<(), String>) -> Result<Vec<u8>, String> {
    let mut r = Reader::new(body, 0);
    let n = r.u16(what)?;
    let mut out = Vec::with_capacity(body.len());
    put_u16(&mut out, n);
    for _ in 0..n {
        entry(&mut r, &mut out)?;
    }
    if r.pos != body.len() {
        return Err(format!("{what} length does not match its entries"));
    }
    Ok(out)
}

fn line_numbers(body: &[u8], map: &OffsetMap<'_>) -> Result<Vec<u8>, String> {
    remap_table(body, "LineNumberTable", |r, out| {
        let pc = r.u16("LineNumberTable")?;
        let line = r.u16("LineNumberTable")?;
        let i = map.index(i64::from(pc)).ok_or_else(|| format!("line number entry at {pc} is not at an instruction"))?;
        put_u16(out, map.start(i) as u16);
        put_u16(out, line);
        Ok(())
    })
}

fn local_variables(body: &[u8], map: &OffsetMap<'_>) -> Result<Vec<u8>, String> {
    remap_table(body, "LocalVariableTable", |r, out| {
        let start = r.u16("LocalVariableTable")?;
        let length = r.u16("LocalVariableTable")?;
        let rest = r.take(6, "LocalVariableTable")?;
        let (s, l) =
            map.var_range(start, length).ok_or_else(|| format!("local variable range {start}+{length} does not fit the instructions"))?;
        put_u16(out, s);
        put_u16(out, l);
        out.extend_from_slice(rest);
        Ok(())
    })
}

/// Remaps the code offsets in a type-annotation attribute; `None` (the attribute is dropped) if it
/// cannot be parsed or names an offset that is not an instruction.
fn type_annotations(body: &[u8], map: &OffsetMap<'_>) -> Option<Vec<u8>> {
    let mut r = ByteReader::new(body);
    let n = r.read_u16().ok()?;
    let mut out = Vec::with_capacity(body.len());
    put_u16(&mut out, n);
    for _ in 0..n {
        let mut a = TypeAnnotation::from_bytes(&mut r).ok()?;
        match &mut a.target_type {
            TargetType::LocalVar { local_variable_targets, .. } => {
                for t in local_variable_targets.iter_mut() {
                    (t.start_pc, t.length) = map.var_range(t.start_pc, t.length)?;
                }
            }
            TargetType::Offset { offset, .. } | TargetType::TypeArgument { offset, .. } => {
                // The instruction itself, not its exit probe.
                *offset = u16::try_from(map.layout.at[map.index(i64::from(*offset))? as usize]).ok()?;
            }
            _ => {}
        }
        a.to_bytes(&mut out).ok()?;
    }
    (r.position() == body.len()).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn id_encodings() {
        let pool = ristretto_classfile::ConstantPool::new();
        let mut add = PoolAdd::new(&pool, 1);
        assert_eq!(push_id(0, &mut add).unwrap(), vec![0x03]);
        assert_eq!(push_id(5, &mut add).unwrap(), vec![0x08]);
        assert_eq!(push_id(u32::MAX, &mut add).unwrap(), vec![0x02]); // -1
        assert_eq!(push_id(6, &mut add).unwrap(), vec![0x10, 6]);
        assert_eq!(push_id(300, &mut add).unwrap(), vec![0x11, 1, 44]);
        assert_eq!(push_id(70000, &mut add).unwrap(), vec![0x12, 1]);
        assert_eq!(push_id(70000, &mut add).unwrap(), vec![0x12, 1]); // one constant per value
        assert_eq!(add.added(), 1);
    }

    #[test]
    fn switch_padding() {
        assert_eq!(pad(0), 3);
        assert_eq!(pad(3), 0);
        assert_eq!(pad(5), 2);
    }
}
