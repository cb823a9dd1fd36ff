//! Translation of a method's bytecode (parsed by cafebabe) into the interpreter's own instruction
//! array: jump targets become instruction indices, and class, field and method references are
//! resolved once, at the method's first invocation (loading, but not initialising, classes).

use crate::class::{Class, Kind, Method};
use crate::vm::Vm;
use cafebabe::bytecode::{Opcode, PrimitiveArrayType};
use cafebabe::constant_pool::{Loadable, LiteralConstant, MemberRef, ObjectArrayType};
use std::sync::Arc;

#[derive(Clone, Copy, Debug)]
pub enum Cond {
    Eq,
    Ne,
    Lt,
    Ge,
    Gt,
    Le,
}

impl Cond {
    #[inline(always)]
    pub fn test(self, a: i32, b: i32) -> bool {
        match self {
            Cond::Eq => a == b,
            Cond::Ne => a != b,
            Cond::Lt => a < b,
            Cond::Ge => a >= b,
            Cond::Gt => a > b,
            Cond::Le => a <= b,
        }
    }
}

#[derive(Clone, Debug)]
pub enum Insn {
    Nop,
    AconstNull,
    Iconst(i32),
    Lconst(i64),
    Fconst(f32),
    Dconst(f64),
    /// A string constant: index into the VM's global roots.
    Ldc(u32),
    Load(u16),
    Load2(u16),
    Store(u16),
    Store2(u16),
    ArrLoad(Kind),
    ArrStore(Kind),
    Pop,
    Pop2,
    Dup,
    DupX1,
    DupX2,
    Dup2,
    Dup2X1,
    Dup2X2,
    Swap,
    Iadd, Ladd, Fadd, Dadd,
    Isub, Lsub, Fsub, Dsub,
    Imul, Lmul, Fmul, Dmul,
    Idiv, Ldiv, Fdiv, Ddiv,
    Irem, Lrem, Frem, Drem,
    Ineg, Lneg, Fneg, Dneg,
    Ishl, Lshl, Ishr, Lshr, Iushr, Lushr,
    Iand, Land, Ior, Lor, Ixor, Lxor,
    Iinc(u16, i32),
    I2l, I2f, I2d, L2i, L2f, L2d, F2i, F2l, F2d, D2i, D2l, D2f, I2b, I2c, I2s,
    Lcmp, Fcmpl, Fcmpg, Dcmpl, Dcmpg,
    If(Cond, u32),
    IfIcmp(Cond, u32),
    IfAcmpEq(u32),
    IfAcmpNe(u32),
    IfNull(u32),
    IfNonNull(u32),
    Goto(u32),
    TableSwitch(Box<(i32, u32, Vec<u32>)>),
    LookupSwitch(Box<(u32, Vec<(i32, u32)>)>),
    Return,
    Return1,
    Return2,
    GetStatic(Arc<Class>, u32, Kind),
    PutStatic(Arc<Class>, u32, Kind),
    GetField(u32, Kind),
    PutField(u32, Kind),
    InvokeVirtual(&'static Method, u32),
    /// invokevirtual/invokeinterface dispatched by selector.
    InvokeInterface(&'static Method),
    /// invokespecial, and invokevirtual of private or final methods.
    InvokeDirect(&'static Method),
    InvokeStatic(Arc<Class>, &'static Method),
    New(Arc<Class>),
    /// newarray and anewarray: the array class.
    NewArray(Arc<Class>),
    MultiNewArray(Arc<Class>, u8),
    ArrayLength,
    Athrow,
    CheckCast(Arc<Class>),
    InstanceOf(Arc<Class>),
    MonitorEnter,
    MonitorExit,
    /// Push the `java.lang.Class` mirror of a class.
    LdcClass(Arc<Class>),
    /// Throws `class` with `message` when executed (a linkage error found while translating).
    Error(Box<(Arc<str>, Arc<str>)>),
    /// Stops the VM with this message (an unsupported feature such as invokedynamic).
    Fatal(Arc<str>),
    /// Marks the end of a class initialisation (a synthetic frame, see `interp::start_init`).
    InitDone(u32),
    /// Initialises a class if it is not (reflection's `Class.forName`, `reflect.rs`).
    InitClass(Arc<Class>),
}

#[derive(Debug)]
pub struct Handler {
    pub start: u32,
    pub end: u32,
    pub target: u32,
    pub catch: Option<Arc<Class>>,
}

#[derive(Debug)]
pub struct Code {
    pub insns: Vec<Insn>,
    pub handlers: Vec<Handler>,
    /// Source line of each instruction (0 when unknown).
    pub lines: Vec<u16>,
    pub max_locals: usize,
    pub max_stack: usize,
    /// Code the VM made for its own frames (class-initialisation markers, `main`'s launcher frame,
    /// see `hooks::is_marker`), not a method's bytecode.
    pub synthetic: bool,
}

impl Code {
    pub fn synthetic(insns: Vec<Insn>) -> Code {
        let n = insns.len();
        Code { insns, handlers: Vec::new(), lines: vec![0; n], max_locals: 0, max_stack: 2, synthetic: true }
    }
}

pub(crate) fn link_error(class: &str, msg: String) -> Insn {
    Insn::Error(Box::new((Arc::from(class), Arc::from(msg.as_str()))))
}

/// Splits a loader error "java.lang.Foo: message" into class and message.
pub(crate) fn load_error(e: String) -> Insn {
    match e.split_once(": ") {
        Some((c, m)) if c.starts_with("java.") => link_error(&c.replace('.', "/"), m.to_string()),
        _ => link_error("java/lang/NoClassDefFoundError", e),
    }
}

pub fn translate(vm: &Vm, m: &Method) -> Result<Code, String> {
    let class = vm.reg.class(m.class_id).clone();
    let bytes = class.bytes.clone().ok_or("no bytecode")?;
    let cf = cafebabe::parse_class(&bytes).map_err(|e| format!("{}: {e}", class.name))?;
    let mi = &cf.methods[m.index];
    let code = mi
        .attributes
        .iter()
        .find_map(|a| match &a.data {
            cafebabe::attributes::AttributeData::Code(c) => Some(c),
            _ => None,
        })
        .ok_or_else(|| format!("java.lang.AbstractMethodError: {}", m.full_name()))?;
    let bc = code.bytecode.as_ref().ok_or("no bytecode")?;
    let bootstraps = cf
        .attributes
        .iter()
        .find_map(|a| match &a.data {
            cafebabe::attributes::AttributeData::BootstrapMethods(b) => Some(b.as_slice()),
            _ => None,
        })
        .unwrap_or(&[]);
    let idx = |off: usize, rel: i32| -> u32 {
        let target = (off as i64 + rel as i64) as usize;
        bc.get_opcode_index(target).expect("jump target validated by the parser") as u32
    };
    let mut lines_tab: Vec<(usize, u16)> = Vec::new();
    for a in &code.attributes {
        if let cafebabe::attributes::AttributeData::LineNumberTable(t) = &a.data {
            for e in t {
                lines_tab.push((e.start_pc as usize, e.line_number));
            }
        }
    }
    lines_tab.sort();
    let mut insns = Vec::with_capacity(bc.opcodes.len());
    let mut lines = Vec::with_capacity(bc.opcodes.len());
    for (off, op) in &bc.opcodes {
        let line = lines_tab.iter().rev().find(|(pc, _)| *pc <= *off).map_or(0, |x| x.1);
        lines.push(line);
        let ins = match op {
            Opcode::Nop => Insn::Nop,
            Opcode::AconstNull => Insn::AconstNull,
            Opcode::IconstM1 => Insn::Iconst(-1),
            Opcode::Iconst0 => Insn::Iconst(0),
            Opcode::Iconst1 => Insn::Iconst(1),
            Opcode::Iconst2 => Insn::Iconst(2),
            Opcode::Iconst3 => Insn::Iconst(3),
            Opcode::Iconst4 => Insn::Iconst(4),
            Opcode::Iconst5 => Insn::Iconst(5),
            Opcode::Lconst0 => Insn::Lconst(0),
            Opcode::Lconst1 => Insn::Lconst(1),
            Opcode::Fconst0 => Insn::Fconst(0.0),
            Opcode::Fconst1 => Insn::Fconst(1.0),
            Opcode::Fconst2 => Insn::Fconst(2.0),
            Opcode::Dconst0 => Insn::Dconst(0.0),
            Opcode::Dconst1 => Insn::Dconst(1.0),
            Opcode::Bipush(v) => Insn::Iconst(*v as i32),
            Opcode::Sipush(v) => Insn::Iconst(*v as i32),
            Opcode::Ldc(l) | Opcode::LdcW(l) | Opcode::Ldc2W(l) => match l {
                Loadable::LiteralConstant(LiteralConstant::Integer(i)) => Insn::Iconst(*i),
                Loadable::LiteralConstant(LiteralConstant::Float(f)) => Insn::Fconst(*f),
                Loadable::LiteralConstant(LiteralConstant::Long(i)) => Insn::Lconst(*i),
                Loadable::LiteralConstant(LiteralConstant::Double(f)) => Insn::Dconst(*f),
                Loadable::LiteralConstant(LiteralConstant::String(s)) => Insn::Ldc(vm.intern_constant(s)?),
                Loadable::LiteralConstant(LiteralConstant::StringBytes(b)) => {
                    Insn::Ldc(vm.intern_modified_utf8(b)?)
                }
                Loadable::ClassInfo(name) => match vm.reg.load(name) {
                    Ok(c) => Insn::LdcClass(c),
                    Err(e) => load_error(e),
                },
                _ => {
                    return Err(format!(
                        "rvm: ldc of a method handle, method type or dynamic constant is not supported (in {})",
                        m.full_name()
                    ))
                }
            },
            Opcode::Iload(i) | Opcode::Fload(i) | Opcode::Aload(i) => Insn::Load(*i),
            Opcode::Lload(i) | Opcode::Dload(i) => Insn::Load2(*i),
            Opcode::Istore(i) | Opcode::Fstore(i) | Opcode::Astore(i) => Insn::Store(*i),
            Opcode::Lstore(i) | Opcode::Dstore(i) => Insn::Store2(*i),
            Opcode::Iaload => Insn::ArrLoad(Kind::I),
            Opcode::Laload => Insn::ArrLoad(Kind::J),
            Opcode::Faload => Insn::ArrLoad(Kind::F),
            Opcode::Daload => Insn::ArrLoad(Kind::D),
            Opcode::Aaload => Insn::ArrLoad(Kind::L),
            Opcode::Baload => Insn::ArrLoad(Kind::B),
            Opcode::Caload => Insn::ArrLoad(Kind::C),
            Opcode::Saload => Insn::ArrLoad(Kind::S),
            Opcode::Iastore => Insn::ArrStore(Kind::I),
            Opcode::Lastore => Insn::ArrStore(Kind::J),
            Opcode::Fastore => Insn::ArrStore(Kind::F),
            Opcode::Dastore => Insn::ArrStore(Kind::D),
            Opcode::Aastore => Insn::ArrStore(Kind::L),
            Opcode::Bastore => Insn::ArrStore(Kind::B),
            Opcode::Castore => Insn::ArrStore(Kind::C),
            Opcode::Sastore => Insn::ArrStore(Kind::S),
            Opcode::Pop => Insn::Pop,
            Opcode::Pop2 => Insn::Pop2,
            Opcode::Dup => Insn::Dup,
            Opcode::DupX1 => Insn::DupX1,
            Opcode::DupX2 => Insn::DupX2,
            Opcode::Dup2 => Insn::Dup2,
            Opcode::Dup2X1 => Insn::Dup2X1,
            Opcode::Dup2X2 => Insn::Dup2X2,
            Opcode::Swap => Insn::Swap,
            Opcode::Iadd => Insn::Iadd,
            Opcode::Ladd => Insn::Ladd,
            Opcode::Fadd => Insn::Fadd,
            Opcode::Dadd => Insn::Dadd,
            Opcode::Isub => Insn::Isub,
            Opcode::Lsub => Insn::Lsub,
            Opcode::Fsub => Insn::Fsub,
            Opcode::Dsub => Insn::Dsub,
            Opcode::Imul => Insn::Imul,
            Opcode::Lmul => Insn::Lmul,
            Opcode::Fmul => Insn::Fmul,
            Opcode::Dmul => Insn::Dmul,
            Opcode::Idiv => Insn::Idiv,
            Opcode::Ldiv => Insn::Ldiv,
            Opcode::Fdiv => Insn::Fdiv,
            Opcode::Ddiv => Insn::Ddiv,
            Opcode::Irem => Insn::Irem,
            Opcode::Lrem => Insn::Lrem,
            Opcode::Frem => Insn::Frem,
            Opcode::Drem => Insn::Drem,
            Opcode::Ineg => Insn::Ineg,
            Opcode::Lneg => Insn::Lneg,
            Opcode::Fneg => Insn::Fneg,
            Opcode::Dneg => Insn::Dneg,
            Opcode::Ishl => Insn::Ishl,
            Opcode::Lshl => Insn::Lshl,
            Opcode::Ishr => Insn::Ishr,
            Opcode::Lshr => Insn::Lshr,
            Opcode::Iushr => Insn::Iushr,
            Opcode::Lushr => Insn::Lushr,
            Opcode::Iand => Insn::Iand,
            Opcode::Land => Insn::Land,
            Opcode::Ior => Insn::Ior,
            Opcode::Lor => Insn::Lor,
            Opcode::Ixor => Insn::Ixor,
            Opcode::Lxor => Insn::Lxor,
            Opcode::Iinc(i, c) => Insn::Iinc(*i, *c as i32),
            Opcode::I2l => Insn::I2l,
            Opcode::I2f => Insn::I2f,
            Opcode::I2d => Insn::I2d,
            Opcode::L2i => Insn::L2i,
            Opcode::L2f => Insn::L2f,
            Opcode::L2d => Insn::L2d,
            Opcode::F2i => Insn::F2i,
            Opcode::F2l => Insn::F2l,
            Opcode::F2d => Insn::F2d,
            Opcode::D2i => Insn::D2i,
            Opcode::D2l => Insn::D2l,
            Opcode::D2f => Insn::D2f,
            Opcode::I2b => Insn::I2b,
            Opcode::I2c => Insn::I2c,
            Opcode::I2s => Insn::I2s,
            Opcode::Lcmp => Insn::Lcmp,
            Opcode::Fcmpl => Insn::Fcmpl,
            Opcode::Fcmpg => Insn::Fcmpg,
            Opcode::Dcmpl => Insn::Dcmpl,
            Opcode::Dcmpg => Insn::Dcmpg,
            Opcode::Ifeq(j) => Insn::If(Cond::Eq, idx(*off, *j)),
            Opcode::Ifne(j) => Insn::If(Cond::Ne, idx(*off, *j)),
            Opcode::Iflt(j) => Insn::If(Cond::Lt, idx(*off, *j)),
            Opcode::Ifge(j) => Insn::If(Cond::Ge, idx(*off, *j)),
            Opcode::Ifgt(j) => Insn::If(Cond::Gt, idx(*off, *j)),
            Opcode::Ifle(j) => Insn::If(Cond::Le, idx(*off, *j)),
            Opcode::IfIcmpeq(j) => Insn::IfIcmp(Cond::Eq, idx(*off, *j)),
            Opcode::IfIcmpne(j) => Insn::IfIcmp(Cond::Ne, idx(*off, *j)),
            Opcode::IfIcmplt(j) => Insn::IfIcmp(Cond::Lt, idx(*off, *j)),
            Opcode::IfIcmpge(j) => Insn::IfIcmp(Cond::Ge, idx(*off, *j)),
            Opcode::IfIcmpgt(j) => Insn::IfIcmp(Cond::Gt, idx(*off, *j)),
            Opcode::IfIcmple(j) => Insn::IfIcmp(Cond::Le, idx(*off, *j)),
            Opcode::IfAcmpeq(j) => Insn::IfAcmpEq(idx(*off, *j)),
            Opcode::IfAcmpne(j) => Insn::IfAcmpNe(idx(*off, *j)),
            Opcode::Ifnull(j) => Insn::IfNull(idx(*off, *j)),
            Opcode::Ifnonnull(j) => Insn::IfNonNull(idx(*off, *j)),
            Opcode::Goto(j) => Insn::Goto(idx(*off, *j)),
            Opcode::Tableswitch(t) => Insn::TableSwitch(Box::new((
                t.low,
                idx(*off, t.default),
                t.jumps.iter().map(|j| idx(*off, *j)).collect(),
            ))),
            Opcode::Lookupswitch(t) => Insn::LookupSwitch(Box::new((
                idx(*off, t.default),
                t.match_offsets.iter().map(|(k, j)| (*k, idx(*off, *j))).collect(),
            ))),
            Opcode::Ireturn | Opcode::Freturn | Opcode::Areturn => Insn::Return1,
            Opcode::Lreturn | Opcode::Dreturn => Insn::Return2,
            Opcode::Return => Insn::Return,
            Opcode::Getstatic(r) | Opcode::Putstatic(r) | Opcode::Getfield(r) | Opcode::Putfield(r) => {
                field_insn(vm, op, r)
            }
            Opcode::Invokevirtual(r) => match resolve_method(vm, r) {
                Err(e) => e,
                Ok((c, mm)) => {
                    if mm.is_private || mm.is_final || c.is_array() && mm.name != "clone" {
                        Insn::InvokeDirect(mm)
                    } else if let Some(&vi) = c.vindex.get(&mm.selector) {
                        Insn::InvokeVirtual(mm, vi as u32)
                    } else {
                        Insn::InvokeInterface(mm)
                    }
                }
            },
            Opcode::Invokeinterface(r, _) => match resolve_method(vm, r) {
                Err(e) => e,
                Ok((_, mm)) => {
                    if mm.is_private { Insn::InvokeDirect(mm) } else { Insn::InvokeInterface(mm) }
                }
            },
            Opcode::Invokespecial(r) => match resolve_method(vm, r) {
                Err(e) => e,
                Ok((_, mm)) => Insn::InvokeDirect(mm),
            },
            Opcode::Invokestatic(r) => match resolve_method(vm, r) {
                Err(e) => e,
                Ok((_, mm)) => Insn::InvokeStatic(vm.reg.class(mm.class_id).clone(), mm),
            },
            Opcode::Invokedynamic(site) => crate::indy::link(vm, m, bootstraps, site),
            Opcode::New(name) => match vm.reg.load(name) {
                Ok(c) => {
                    if c.is_interface || c.is_abstract {
                        link_error("java/lang/InstantiationError", c.java_name())
                    } else {
                        Insn::New(c)
                    }
                }
                Err(e) => load_error(e),
            },
            Opcode::Newarray(t) => {
                let d = match t {
                    PrimitiveArrayType::Boolean => "[Z",
                    PrimitiveArrayType::Char => "[C",
                    PrimitiveArrayType::Float => "[F",
                    PrimitiveArrayType::Double => "[D",
                    PrimitiveArrayType::Byte => "[B",
                    PrimitiveArrayType::Short => "[S",
                    PrimitiveArrayType::Int => "[I",
                    PrimitiveArrayType::Long => "[J",
                };
                Insn::NewArray(vm.reg.load(d)?)
            }
            Opcode::Anewarray(t) => match class_of(vm, t).and_then(|c| vm.reg.array_of(&c)) {
                Ok(a) => Insn::NewArray(a),
                Err(e) => load_error(e),
            },
            Opcode::Multianewarray(t, dims) => match class_of(vm, t) {
                Ok(a) => Insn::MultiNewArray(a, *dims),
                Err(e) => load_error(e),
            },
            Opcode::Arraylength => Insn::ArrayLength,
            Opcode::Athrow => Insn::Athrow,
            Opcode::Checkcast(t) => match class_of(vm, t) {
                Ok(c) => Insn::CheckCast(c),
                Err(e) => load_error(e),
            },
            Opcode::Instanceof(t) => match class_of(vm, t) {
                Ok(c) => Insn::InstanceOf(c),
                Err(e) => load_error(e),
            },
            Opcode::Monitorenter => Insn::MonitorEnter,
            Opcode::Monitorexit => Insn::MonitorExit,
            Opcode::Jsr(_) | Opcode::Ret(_) => {
                return Err(format!("java.lang.VerifyError: jsr/ret are not supported (in {})", m.full_name()))
            }
            Opcode::Breakpoint | Opcode::Impdep1 | Opcode::Impdep2 => {
                return Err(format!("java.lang.VerifyError: reserved opcode in {}", m.full_name()))
            }
        };
        insns.push(ins);
    }
    let mut handlers = Vec::new();
    for h in &code.exception_table {
        let start = bc.get_opcode_index(h.start_pc as usize).unwrap_or(0) as u32;
        let end = bc.get_opcode_index(h.end_pc as usize).unwrap_or(bc.opcodes.len()) as u32;
        let target = bc
            .get_opcode_index(h.handler_pc as usize)
            .ok_or_else(|| format!("java.lang.VerifyError: bad handler in {}", m.full_name()))? as u32;
        let catch = match &h.catch_type {
            Some(n) => match vm.reg.load(n) {
                Ok(c) => Some(c),
                // A class that cannot be loaded has no instances: its handler can never match
                // (HotSpot resolves a catch type only when an exception reaches the handler).
                Err(_) => continue,
            },
            None => None,
        };
        handlers.push(Handler { start, end, target, catch });
    }
    Ok(Code { insns, handlers, lines, max_locals: code.max_locals as usize, max_stack: code.max_stack as usize, synthetic: false })
}

fn class_of(vm: &Vm, t: &ObjectArrayType) -> Result<Arc<Class>, String> {
    match t {
        ObjectArrayType::BinaryName(n) => vm.reg.load(n),
        ObjectArrayType::ArrayType(fd) => {
            vm.reg.load(&crate::class::field_type_desc(&fd.field_type, fd.dimensions))
        }
    }
}

fn resolve_method(vm: &Vm, r: &MemberRef) -> Result<(Arc<Class>, &'static Method), Insn> {
    let name = &r.class_name;
    let c = if name.starts_with('[') { vm.reg.load("java/lang/Object") } else { vm.reg.load(name) };
    let c = c.map_err(load_error)?;
    let (mn, md) = (&r.name_and_type.name, &r.name_and_type.descriptor);
    let m = c.lookup_method(mn, md).ok_or_else(|| {
        link_error("java/lang/NoSuchMethodError", format!("'{}' in {}", md, c.java_name()).replace('\'', "") + &format!(".{mn}"))
    })?;
    let c = if name.starts_with('[') { vm.reg.load(name).map_err(load_error)? } else { c };
    Ok((c, m))
}

fn field_insn(vm: &Vm, op: &Opcode, r: &MemberRef) -> Insn {
    let c = match vm.reg.load(&r.class_name) {
        Ok(c) => c,
        Err(e) => return load_error(e),
    };
    let (fname, fdesc) = (&r.name_and_type.name, &r.name_and_type.descriptor);
    let Some((decl, fi)) = c.lookup_field(fname, fdesc) else {
        return link_error("java/lang/NoSuchFieldError", fname.to_string());
    };
    let f = &decl.fields[fi];
    let (off, kind) = (f.offset as u32, f.kind);
    match (op, f.is_static) {
        (Opcode::Getstatic(_), true) => Insn::GetStatic(decl.clone(), off, kind),
        (Opcode::Putstatic(_), true) => Insn::PutStatic(decl.clone(), off, kind),
        (Opcode::Getfield(_), false) => Insn::GetField(off, kind),
        (Opcode::Putfield(_), false) => Insn::PutField(off, kind),
        _ => link_error("java/lang/IncompatibleClassChangeError", format!("field {fname} static-ness")),
    }
}
