//! The natives of reflection (`jdk.internal.rvm.Reflect`, used by `java.lang.Class` and
//! `java.lang.reflect`): class lookup by name, primitive classes, members by index, modifiers and
//! annotations read from the class file, and accessors. An accessor is a hidden subclass of
//! `jdk.internal.rvm.Accessor` (defined like an invokedynamic call site's class, `indy.rs`) whose
//! override runs rvm instructions: the method's invoke with the arguments taken from an
//! `Object[]` and unboxed, the field's get or put, or a class initialisation. One class per
//! member, made at its first reflective use and kept.

use crate::class::{desc_parts, field_type_desc, Class, Kind, MethodDef};
use crate::code::Insn;
use crate::heap::Ref;
use crate::indy::{is_prim, wrapper, Asm, Bad, Call};
use crate::native::{i, r, ret_i, ret_r, string_res, NCtx, NRes, NativeFn, NativeTable};
use crate::vm::{Alloc, Value};
use cafebabe::attributes::AttributeData;
use cafebabe::MethodAccessFlags;
use rustc_hash::FxHashMap;
use std::sync::{Arc, Mutex};

/// The class a mirror stands for.
fn class_of_mirror<'v>(c: &NCtx<'v>, mirror: Ref) -> &'v Arc<Class> {
    let id = c.space.get(mirror as usize + c.vm.field_offset("java/lang/Class", "id", "I"));
    c.vm.reg.class(id)
}

fn mirror_arg<'v>(c: &NCtx<'v>, v: &Value) -> Result<&'v Arc<Class>, NRes> {
    match r(v) {
        0 => Err(NRes::ThrowNew("java/lang/NullPointerException", String::new())),
        m => Ok(class_of_mirror(c, m)),
    }
}

fn mirror(c: &NCtx, cl: &Class) -> NRes {
    ret_r(c.vm.mirror(cl))
}

/// A class-loading error as the exception it names (`java.lang.NoClassDefFoundError: x`).
fn load_failure(msg: &str) -> NRes {
    match msg.split_once(": ") {
        Some((class, rest)) if class.starts_with("java.lang.") => NRes::ThrowNew(leak(&class.replace('.', "/")), rest.to_string()),
        _ => NRes::ThrowNew("java/lang/NoClassDefFoundError", msg.to_string()),
    }
}

/// Exception class names must be `&'static str`: the few used here are interned once.
fn leak(s: &str) -> &'static str {
    static NAMES: Mutex<Vec<&'static str>> = Mutex::new(Vec::new());
    let mut v = NAMES.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(n) = v.iter().find(|n| **n == s) {
        return n;
    }
    let n: &'static str = Box::leak(s.to_string().into_boxed_str());
    v.push(n);
    n
}

/// load(binaryName): a class by its binary name with dots, or an array class's name; null if
/// no class has that name.
fn load(c: &mut NCtx, a: &[Value]) -> NRes {
    let name = c.vm.rust_string(c.space, r(&a[0]));
    let internal = name.replace('.', "/");
    if crate::class::PRIMITIVES.contains(&internal.as_str()) {
        return ret_r(0);
    }
    if internal.starts_with('[') && !valid_array_name(&internal) {
        return ret_r(0);
    }
    match c.vm.reg.load(&internal) {
        Ok(cl) => mirror(c, &cl),
        Err(e) if e == format!("java.lang.NoClassDefFoundError: {internal}") => ret_r(0),
        Err(e) => load_failure(&e),
    }
}

fn valid_array_name(n: &str) -> bool {
    let e = n.trim_start_matches('[');
    match e.as_bytes().first() {
        Some(b'L') => e.ends_with(';') && e.len() > 2,
        Some(_) => e.len() == 1 && b"ZBCSIJFD".contains(&e.as_bytes()[0]),
        None => false,
    }
}

/// The class a field (or return) descriptor names.
fn class_for_descriptor(c: &NCtx, d: &str) -> Result<Arc<Class>, String> {
    let prim = |p: &str| c.vm.reg.primitive(p).ok_or_else(|| format!("no primitive class {p}"));
    match d.as_bytes().first() {
        Some(b'L') => c.vm.reg.load(&d[1..d.len() - 1]),
        Some(b'[') => c.vm.reg.load(d),
        Some(b'V') => prim("void"),
        Some(&p) if is_prim(&d[..1]) => prim(crate::indy::prim_name(p)),
        _ => Err(format!("java.lang.NoClassDefFoundError: bad descriptor {d}")),
    }
}

fn of_descriptor(c: &mut NCtx, a: &[Value]) -> NRes {
    let d = c.vm.rust_string(c.space, r(&a[0]));
    match class_for_descriptor(c, &d) {
        Ok(cl) => mirror(c, &cl),
        Err(e) => load_failure(&e),
    }
}

fn primitive(c: &mut NCtx, a: &[Value]) -> NRes {
    let name = c.vm.rust_string(c.space, r(&a[0]));
    match c.vm.reg.primitive(&name) {
        Some(cl) => mirror(c, &cl),
        None => ret_r(0),
    }
}

fn is_primitive(c: &mut NCtx, a: &[Value]) -> NRes {
    match mirror_arg(c, &a[0]) {
        Ok(cl) => ret_i(cl.is_primitive() as i32),
        Err(e) => e,
    }
}

/// The class of an array's elements (a primitive class for `[I`).
fn component_of(c: &NCtx, cl: &Class) -> Option<Arc<Class>> {
    match cl.elem? {
        Kind::L => cl.component.clone(),
        _ => class_for_descriptor(c, &cl.name[1..]).ok(),
    }
}

fn component_type(c: &mut NCtx, a: &[Value]) -> NRes {
    let cl = match mirror_arg(c, &a[0]) {
        Ok(cl) => cl,
        Err(e) => return e,
    };
    match component_of(c, cl) {
        Some(comp) => mirror(c, &comp),
        None => ret_r(0),
    }
}

fn array_class_of(c: &NCtx, cl: &Arc<Class>) -> Result<Arc<Class>, NRes> {
    if cl.is_primitive() {
        if &*cl.name == "void" {
            return Err(NRes::ThrowNew("java/lang/IllegalArgumentException", "Illegal component type".into()));
        }
        let d = match &*cl.name {
            "boolean" => "[Z",
            "byte" => "[B",
            "char" => "[C",
            "short" => "[S",
            "int" => "[I",
            "long" => "[J",
            "float" => "[F",
            _ => "[D",
        };
        return c.vm.reg.load(d).map_err(|e| load_failure(&e));
    }
    c.vm.reg.array_of(cl).map_err(|e| load_failure(&e))
}

fn array_type(c: &mut NCtx, a: &[Value]) -> NRes {
    let cl = match mirror_arg(c, &a[0]) {
        Ok(cl) => cl.clone(),
        Err(e) => return e,
    };
    match array_class_of(c, &cl) {
        Ok(ac) => mirror(c, &ac),
        Err(e) => e,
    }
}

fn new_array(c: &mut NCtx, a: &[Value]) -> NRes {
    let cl = match mirror_arg(c, &a[0]) {
        Ok(cl) => cl.clone(),
        Err(e) => return e,
    };
    let n = i(&a[1]);
    if n < 0 {
        return NRes::ThrowNew("java/lang/NegativeArraySizeException", n.to_string());
    }
    let ac = match array_class_of(c, &cl) {
        Ok(ac) => ac,
        Err(e) => return e,
    };
    match c.vm.alloc_array(c.space, &ac, n as usize, Alloc::Java(c.th, c.method)) {
        Some(x) => ret_r(x),
        None => NRes::NeedGc,
    }
}

fn is_assignable_from(c: &mut NCtx, a: &[Value]) -> NRes {
    let (to, from) = match (mirror_arg(c, &a[0]), mirror_arg(c, &a[1])) {
        (Ok(t), Ok(f)) => (t, f),
        (Err(e), _) | (_, Err(e)) => return e,
    };
    if to.is_primitive() || from.is_primitive() {
        return ret_i((to.id == from.id) as i32);
    }
    ret_i(from.is_subtype_of(to) as i32)
}

fn interface_count(c: &mut NCtx, a: &[Value]) -> NRes {
    match mirror_arg(c, &a[0]) {
        Ok(cl) => ret_i(cl.interfaces.len() as i32),
        Err(e) => e,
    }
}

fn interface_at(c: &mut NCtx, a: &[Value]) -> NRes {
    let cl = match mirror_arg(c, &a[0]) {
        Ok(cl) => cl,
        Err(e) => return e,
    };
    match cl.interfaces.get(i(&a[1]) as usize) {
        Some(x) => mirror(c, x),
        None => NRes::ThrowNew("java/lang/IndexOutOfBoundsException", i(&a[1]).to_string()),
    }
}

/// Runs `f` on the parsed class file of `cl` (None for classes without one: arrays, primitive
/// and hidden classes).
fn with_class_file<T>(cl: &Class, f: impl FnOnce(&cafebabe::ClassFile) -> T) -> Option<T> {
    let bytes = cl.bytes.as_ref()?;
    let mut opts = cafebabe::ParseOptions::default();
    opts.parse_bytecode(false);
    let cf = cafebabe::parse_class_with_options(bytes, &opts).ok()?;
    Some(f(&cf))
}

const PUBLIC: i32 = 0x1;
const FINAL: i32 = 0x10;
const ABSTRACT: i32 = 0x400;

fn modifiers_of(c: &NCtx, cl: &Arc<Class>) -> i32 {
    if cl.is_primitive() {
        return PUBLIC | FINAL | ABSTRACT;
    }
    if cl.is_array() {
        let comp = component_of(c, cl).map(|x| modifiers_of(c, &x)).unwrap_or(PUBLIC);
        return (comp & 0x7) | FINAL | ABSTRACT;
    }
    with_class_file(cl, |cf| {
        let inner = cf.attributes.iter().find_map(|a| match &a.data {
            AttributeData::InnerClasses(es) => es.iter().find(|e| e.inner_class_info == *cl.name).map(|e| e.access_flags.bits() as i32),
            _ => None,
        });
        inner.unwrap_or(cf.access_flags.bits() as i32)
    })
    .unwrap_or(PUBLIC | FINAL | 0x1000)
}

fn class_modifiers(c: &mut NCtx, a: &[Value]) -> NRes {
    match mirror_arg(c, &a[0]) {
        Ok(cl) => {
            let cl = cl.clone();
            ret_i(modifiers_of(c, &cl))
        }
        Err(e) => e,
    }
}

fn declaring_class(c: &mut NCtx, a: &[Value]) -> NRes {
    let cl = match mirror_arg(c, &a[0]) {
        Ok(cl) => cl.clone(),
        Err(e) => return e,
    };
    let outer = with_class_file(&cl, |cf| {
        cf.attributes.iter().find_map(|a| match &a.data {
            AttributeData::InnerClasses(es) => es.iter().find(|e| e.inner_class_info == *cl.name).and_then(|e| e.outer_class_info.as_ref().map(|o| o.to_string())),
            _ => None,
        })
    })
    .flatten();
    match outer.map(|o| c.vm.reg.load(&o)) {
        Some(Ok(o)) => mirror(c, &o),
        Some(Err(e)) => load_failure(&e),
        None => ret_r(0),
    }
}

fn member<'v, T>(c: &NCtx<'v>, a: &[Value], list: impl FnOnce(&'v Arc<Class>) -> Option<T>) -> Result<T, NRes> {
    let cl = mirror_arg(c, &a[0])?;
    list(cl).ok_or_else(|| NRes::ThrowNew("java/lang/IndexOutOfBoundsException", i(&a[1]).to_string()))
}

fn method_count(c: &mut NCtx, a: &[Value]) -> NRes {
    match mirror_arg(c, &a[0]) {
        Ok(cl) => ret_i(cl.methods.len() as i32),
        Err(e) => e,
    }
}

fn method_name(c: &mut NCtx, a: &[Value]) -> NRes {
    match member(c, a, |cl| cl.methods.get(i(&a[1]) as usize).map(|m| m.name.clone())) {
        Ok(s) => string_res(c, &s),
        Err(e) => e,
    }
}

fn method_descriptor(c: &mut NCtx, a: &[Value]) -> NRes {
    match member(c, a, |cl| cl.methods.get(i(&a[1]) as usize).map(|m| m.desc.clone())) {
        Ok(s) => string_res(c, &s),
        Err(e) => e,
    }
}

fn method_modifiers(c: &mut NCtx, a: &[Value]) -> NRes {
    match member(c, a, |cl| cl.methods.get(i(&a[1]) as usize).map(|m| m.flags.bits() as i32)) {
        Ok(f) => ret_i(f),
        Err(e) => e,
    }
}

fn field_count(c: &mut NCtx, a: &[Value]) -> NRes {
    match mirror_arg(c, &a[0]) {
        Ok(cl) => ret_i(cl.fields.len() as i32),
        Err(e) => e,
    }
}

fn field_name(c: &mut NCtx, a: &[Value]) -> NRes {
    match member(c, a, |cl| cl.fields.get(i(&a[1]) as usize).map(|f| f.name.clone())) {
        Ok(s) => string_res(c, &s),
        Err(e) => e,
    }
}

fn field_descriptor(c: &mut NCtx, a: &[Value]) -> NRes {
    match member(c, a, |cl| cl.fields.get(i(&a[1]) as usize).map(|f| f.desc.clone())) {
        Ok(s) => string_res(c, &s),
        Err(e) => e,
    }
}

fn field_modifiers(c: &mut NCtx, a: &[Value]) -> NRes {
    let k = i(&a[1]) as usize;
    match member(c, a, |cl| {
        let f = cl.fields.get(k)?;
        let from_file = with_class_file(cl, |cf| cf.fields.get(k).map(|fi| fi.access_flags.bits() as i32)).flatten();
        Some(from_file.unwrap_or(if f.is_static { 0x8 } else { 0 }))
    }) {
        Ok(f) => ret_i(f),
        Err(e) => e,
    }
}

/// annotation(class, kind, member, type): kind 0 the class, 1 field `member`, 2 method `member`;
/// with a type descriptor, 1 if that runtime-visible annotation is there, else how many there are.
fn annotation(c: &mut NCtx, a: &[Value]) -> NRes {
    let cl = match mirror_arg(c, &a[0]) {
        Ok(cl) => cl.clone(),
        Err(e) => return e,
    };
    let (kind, k) = (i(&a[1]), i(&a[2]) as usize);
    let want = match r(&a[3]) {
        0 => None,
        s => Some(c.vm.rust_string(c.space, s)),
    };
    let n = with_class_file(&cl, |cf| {
        let attrs = match kind {
            0 => Some(&cf.attributes),
            1 => cf.fields.get(k).map(|f| &f.attributes),
            _ => cl.methods.get(k).and_then(|m| cf.methods.get(m.index)).map(|m| &m.attributes),
        };
        let mut n = 0;
        for at in attrs.into_iter().flatten() {
            if let AttributeData::RuntimeVisibleAnnotations(list) = &at.data {
                for an in list {
                    let d = field_type_desc(&an.type_descriptor.field_type, an.type_descriptor.dimensions);
                    if want.as_deref().is_none_or(|w| w == d) {
                        n += 1;
                    }
                }
            }
        }
        n
    })
    .unwrap_or(0);
    ret_i(n)
}

/// resource(name): the bytes of a class path resource (first entry that has it).
fn resource(c: &mut NCtx, a: &[Value]) -> NRes {
    let name = c.vm.rust_string(c.space, r(&a[0]));
    let Some(bytes) = c.vm.reg.classpath.iter().find_map(|e| e.read(&name)) else { return ret_r(0) };
    let Ok(ba) = c.vm.reg.load("[B") else { return ret_r(0) };
    let Some(arr) = c.vm.alloc_array(c.space, &ba, bytes.len(), Alloc::Java(c.th, c.method)) else { return NRes::NeedGc };
    for (k, b) in bytes.iter().enumerate() {
        c.space.array_set(arr, 1, k, *b as u64);
    }
    ret_r(arr)
}

// ---- accessors

/// What an accessor is for (its key in the cache).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Target {
    Method(u32),
    Field(u32, u32),
    Init(u32),
}

/// Accessor classes made so far.
static ACCESSORS: Mutex<Option<FxHashMap<Target, Arc<Class>>>> = Mutex::new(None);

const ACCESSOR: &str = "jdk/internal/rvm/Accessor";
const INVOKE: (&str, &str) = ("invoke", "(Ljava/lang/Object;[Ljava/lang/Object;)Ljava/lang/Object;");
const GET: (&str, &str) = ("get", "(Ljava/lang/Object;)Ljava/lang/Object;");
const SET: (&str, &str) = ("set", "(Ljava/lang/Object;Ljava/lang/Object;)V");
const INIT: (&str, &str) = ("init", "()V");

/// Leaves the value of type `t` on the stack as an Object (boxed; null for void).
fn to_object(a: &mut Asm, t: &str) -> Result<(), Bad> {
    if t == "V" {
        a.push(Insn::AconstNull);
    } else if is_prim(t) {
        a.boxing(t.as_bytes()[0])?;
    }
    Ok(())
}

/// Converts the Object on the stack to type `t` (Java checked it: a wrapper of exactly `t`'s type, or a `t`).
fn from_object(a: &mut Asm, t: &str) -> Result<(), Bad> {
    if is_prim(t) {
        let p = t.as_bytes()[0];
        let w = wrapper(p);
        a.cast("Ljava/lang/Object;", &format!("L{w};"))?;
        a.unbox(w, p)
    } else {
        a.cast("Ljava/lang/Object;", t)
    }
}

fn define<'v>(c: &NCtx<'v>, target: Target, what: &str, methods: &[(&str, &str)], build: impl FnOnce(&Arc<Class>) -> Result<Vec<Asm<'v>>, Bad>) -> Result<Arc<Class>, NRes> {
    let mut cache = ACCESSORS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(cl) = cache.get_or_insert_with(FxHashMap::default).get(&target) {
        return Ok(cl.clone());
    }
    let defs = methods.iter().map(|(n, d)| MethodDef { name: n.to_string(), desc: d.to_string(), flags: crate::indy::public(MethodAccessFlags::empty()) }).collect();
    let name = crate::indy::site_name(c.vm, &format!("jdk/internal/rvm/Accessor$${what}"));
    let cl = c.vm.reg.define_synthetic(&name, ACCESSOR, &[], Vec::new(), defs).map_err(|e| load_failure(&e))?;
    let codes = match build(&cl) {
        Ok(codes) => codes,
        Err(Bad::Link(Insn::Error(e))) => return Err(NRes::ThrowNew(leak(&e.0), e.1.to_string())),
        Err(Bad::Link(_)) | Err(Bad::Malformed(_)) => return Err(NRes::ThrowNew("java/lang/InternalError", format!("rvm: cannot make the accessor {name}"))),
    };
    for (m, a) in cl.methods.iter().zip(codes) {
        a.install(m, 8 + 2 * m.arg_slots + 16);
    }
    cache.get_or_insert_with(FxHashMap::default).insert(target, cl.clone());
    Ok(cl)
}

fn instance(c: &mut NCtx, cl: &Arc<Class>) -> NRes {
    match c.vm.alloc_object(c.space, cl, Alloc::Java(c.th, c.method)) {
        Some(o) => ret_r(o),
        None => NRes::NeedGc,
    }
}

/// methodAccessor(class, index): `invoke(receiver, args)` calls the method (a constructor: makes
/// the instance) with the arguments unboxed, and returns the result boxed.
fn method_accessor(c: &mut NCtx, a: &[Value]) -> NRes {
    let cl = match mirror_arg(c, &a[0]) {
        Ok(cl) => cl.clone(),
        Err(e) => return e,
    };
    let Some(m) = cl.methods.get(i(&a[1]) as usize).copied() else {
        return NRes::ThrowNew("java/lang/IndexOutOfBoundsException", i(&a[1]).to_string());
    };
    if m.is_abstract && m.is_static {
        return NRes::ThrowNew("java/lang/AbstractMethodError", m.full_name());
    }
    let vm = c.vm;
    let acc = define(c, Target::Method(m.id), "Method", &[INVOKE], |_| {
        let mut asm = Asm::new(vm);
        let ctor = m.name == "<init>";
        if ctor {
            if cl.is_abstract || cl.is_interface {
                return Err(Bad::Link(crate::code::link_error("java/lang/InstantiationException", cl.java_name())));
            }
            asm.push(Insn::New(cl.clone()));
            asm.push(Insn::Dup);
        } else if !m.is_static {
            asm.push(Insn::Load(1));
            asm.cast("Ljava/lang/Object;", &format!("L{};", cl.name))?;
        }
        let (params, ret) = desc_parts(&m.desc);
        for (k, p) in params.iter().enumerate() {
            asm.push(Insn::Load(2));
            asm.push(Insn::Iconst(k as i32));
            asm.push(Insn::ArrLoad(Kind::L));
            from_object(&mut asm, p)?;
        }
        if m.is_static {
            asm.push(Insn::InvokeStatic(cl.clone(), m));
        } else if ctor || m.is_private {
            asm.push(Insn::InvokeDirect(m));
        } else {
            let call = if cl.is_interface { Call::Interface } else { Call::Virtual };
            asm.invoke(call, &cl.name, &m.name, &m.desc)?;
        }
        if !ctor {
            to_object(&mut asm, ret)?;
        }
        asm.push(Insn::Return1);
        Ok(vec![asm])
    });
    match acc {
        Ok(acc) => instance(c, &acc),
        Err(e) => e,
    }
}

/// fieldAccessor(class, index): `get(receiver)` reads the field (boxed), `set(receiver, value)`
/// writes it (unboxed); a static field's access initialises its class first, as getstatic does.
fn field_accessor(c: &mut NCtx, a: &[Value]) -> NRes {
    let cl = match mirror_arg(c, &a[0]) {
        Ok(cl) => cl.clone(),
        Err(e) => return e,
    };
    let k = i(&a[1]) as usize;
    let Some(f) = cl.fields.get(k) else {
        return NRes::ThrowNew("java/lang/IndexOutOfBoundsException", k.to_string());
    };
    let (off, kind, desc, is_static) = (f.offset as u32, f.kind, f.desc.clone(), f.is_static);
    let vm = c.vm;
    let acc = define(c, Target::Field(cl.id, k as u32), "Field", &[GET, SET], |_| {
        let receiver = format!("L{};", cl.name);
        let mut get = Asm::new(vm);
        if is_static {
            get.push(Insn::GetStatic(cl.clone(), off, kind));
        } else {
            get.push(Insn::Load(1));
            get.cast("Ljava/lang/Object;", &receiver)?;
            get.push(Insn::GetField(off, kind));
        }
        to_object(&mut get, &desc)?;
        get.push(Insn::Return1);
        let mut set = Asm::new(vm);
        if !is_static {
            set.push(Insn::Load(1));
            set.cast("Ljava/lang/Object;", &receiver)?;
        }
        set.push(Insn::Load(2));
        from_object(&mut set, &desc)?;
        set.push(if is_static { Insn::PutStatic(cl.clone(), off, kind) } else { Insn::PutField(off, kind) });
        set.push(Insn::Return);
        Ok(vec![get, set])
    });
    match acc {
        Ok(acc) => instance(c, &acc),
        Err(e) => e,
    }
}

/// initializer(class): `init()` initialises the class.
fn initializer(c: &mut NCtx, a: &[Value]) -> NRes {
    let cl = match mirror_arg(c, &a[0]) {
        Ok(cl) => cl.clone(),
        Err(e) => return e,
    };
    let vm = c.vm;
    let acc = define(c, Target::Init(cl.id), "Init", &[INIT], |_| {
        let mut asm = Asm::new(vm);
        asm.push(Insn::InitClass(cl.clone()));
        asm.push(Insn::Return);
        Ok(vec![asm])
    });
    match acc {
        Ok(acc) => instance(c, &acc),
        Err(e) => e,
    }
}

pub fn register(t: &mut NativeTable) {
    const R: &str = "jdk/internal/rvm/Reflect.";
    let entries: [(&str, NativeFn); 25] = [
        ("load(Ljava/lang/String;)Ljava/lang/Class;", load),
        ("ofDescriptor(Ljava/lang/String;)Ljava/lang/Class;", of_descriptor),
        ("primitive(Ljava/lang/String;)Ljava/lang/Class;", primitive),
        ("isPrimitive(Ljava/lang/Class;)Z", is_primitive),
        ("componentType(Ljava/lang/Class;)Ljava/lang/Class;", component_type),
        ("arrayType(Ljava/lang/Class;)Ljava/lang/Class;", array_type),
        ("isAssignableFrom(Ljava/lang/Class;Ljava/lang/Class;)Z", is_assignable_from),
        ("interfaceCount(Ljava/lang/Class;)I", interface_count),
        ("interfaceAt(Ljava/lang/Class;I)Ljava/lang/Class;", interface_at),
        ("classModifiers(Ljava/lang/Class;)I", class_modifiers),
        ("methodCount(Ljava/lang/Class;)I", method_count),
        ("methodName(Ljava/lang/Class;I)Ljava/lang/String;", method_name),
        ("methodDescriptor(Ljava/lang/Class;I)Ljava/lang/String;", method_descriptor),
        ("methodModifiers(Ljava/lang/Class;I)I", method_modifiers),
        ("fieldCount(Ljava/lang/Class;)I", field_count),
        ("fieldName(Ljava/lang/Class;I)Ljava/lang/String;", field_name),
        ("fieldDescriptor(Ljava/lang/Class;I)Ljava/lang/String;", field_descriptor),
        ("fieldModifiers(Ljava/lang/Class;I)I", field_modifiers),
        ("annotation(Ljava/lang/Class;IILjava/lang/String;)I", annotation),
        ("declaringClass(Ljava/lang/Class;)Ljava/lang/Class;", declaring_class),
        ("methodAccessor(Ljava/lang/Class;I)Ljdk/internal/rvm/Accessor;", method_accessor),
        ("fieldAccessor(Ljava/lang/Class;I)Ljdk/internal/rvm/Accessor;", field_accessor),
        ("initializer(Ljava/lang/Class;)Ljdk/internal/rvm/Accessor;", initializer),
        ("newArray(Ljava/lang/Class;I)Ljava/lang/Object;", new_array),
        ("resource(Ljava/lang/String;)[B", resource),
    ];
    for (k, f) in entries {
        t.insert(Box::leak(format!("{R}{k}").into_boxed_str()), f);
    }
}
