//! invokedynamic, for the bootstrap methods javac emits by default: string concatenation
//! (`StringConcatFactory.makeConcatWithConstants` and `makeConcat`), lambdas and method
//! references (`LambdaMetafactory.metafactory` and `altMetafactory`), records' `toString`,
//! `equals` and `hashCode` (`ObjectMethods.bootstrap`) and pattern `switch`
//! (`SwitchBootstraps.typeSwitch` and `enumSwitch`).
//!
//! rvm runs no bootstrap method. When a method is translated, each of its call sites gets what
//! the bootstrap would have produced, made from rvm's own instructions: a hidden class of its own
//! (`Registry::define_synthetic`) with a static method whose descriptor is the call site's, and
//! the `invokedynamic` becomes an `invokestatic` of that method. The call site is so linked once
//! (the translated code keeps it) and runs in the ordinary interpreter, yieldpoints, method
//! events and collections included.
//!
//! - String concatenation: the method appends the recipe's literal text and each argument to a
//!   `StringBuilder` (`append` of the argument's static type: `int` for `byte`, `short` and `int`,
//!   `long`, `char`, `boolean`, `float`, `double`, `String`, else `Object`, which is
//!   `String.valueOf`'s conversion), in the recipe's order, and returns `toString()`. Constants
//!   (`\u{2}`) are folded into the literal text as `String.valueOf` would print them.
//! - Lambdas: the class implements the functional interface (and the marker interfaces, and
//!   `Serializable` when asked), holds the captured arguments in fields, and its method of the
//!   interface (and each bridge) calls the implementation method with the captured arguments and
//!   its own, converted as `LambdaMetafactory`'s generated classes convert them (casts to the
//!   instantiated types, boxing, unboxing, primitive widening). The call site's method allocates
//!   an instance; one that captures nothing returns the same instance each time, as on HotSpot.
//!
//! - Records: the three methods as `ObjectMethods` makes them (HotSpot's text, equality and hash
//!   values), reading the components' fields directly.
//! - Pattern switches: the first label at or after the restart index that matches the selector
//!   (a class, a String, an Integer, an enum constant), -1 for null, the label count for none.
//!   Labels that are dynamic constants (javac's `EnumDesc`s, primitive classes) come from the
//!   table `condy.rs` made when the class was loaded.
//!
//! Any other bootstrap method stops the VM, when the call site is first executed, with one line
//! naming the bootstrap method and the calling method (exit code 1).

use crate::class::{desc_parts, Class, FieldDef, Kind, Method, MethodDef};
use crate::code::{link_error, load_error, Code, Insn};
use crate::vm::Vm;
use cafebabe::attributes::BootstrapMethodEntry;
use cafebabe::constant_pool::{BootstrapArgument, InvokeDynamic, LiteralConstant, MethodHandle, ReferenceKind};
use cafebabe::MethodAccessFlags;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;

/// The instruction that replaces call site `site` of method `caller`.
pub fn link(vm: &Vm, caller: &Method, bootstraps: &[BootstrapMethodEntry], site: &InvokeDynamic) -> Insn {
    let Some(bsm) = bootstraps.get(site.attr_index as usize) else {
        return fatal(format!("rvm: invokedynamic without a bootstrap method entry (in {})", caller.full_name()));
    };
    let (bclass, bname) = (&*bsm.method.class_name, &*bsm.method.member_ref.name);
    let (name, desc) = (&*site.name_and_type.name, &*site.name_and_type.descriptor);
    let linked = match (bclass, bname) {
        ("java/lang/invoke/StringConcatFactory", "makeConcatWithConstants") => concat(vm, desc, Some(&bsm.arguments)),
        ("java/lang/invoke/StringConcatFactory", "makeConcat") => concat(vm, desc, None),
        ("java/lang/invoke/LambdaMetafactory", "metafactory") => lambda(vm, caller, name, desc, &bsm.arguments, false),
        ("java/lang/invoke/LambdaMetafactory", "altMetafactory") => lambda(vm, caller, name, desc, &bsm.arguments, true),
        ("java/lang/runtime/ObjectMethods", "bootstrap") => object_method(vm, name, desc, &bsm.arguments),
        ("java/lang/runtime/SwitchBootstraps", "typeSwitch") => switch(vm, caller, desc, bootstraps, site.attr_index, &bsm.arguments, false),
        ("java/lang/runtime/SwitchBootstraps", "enumSwitch") => switch(vm, caller, desc, bootstraps, site.attr_index, &bsm.arguments, true),
        _ => {
            return fatal(format!(
                "rvm: invokedynamic with bootstrap method {}.{} is not supported (in {}): rvm links string concatenation, lambdas, records' methods and pattern switches only",
                bclass.replace('/', "."),
                bname,
                caller.full_name()
            ))
        }
    };
    match linked {
        Ok(insn) => insn,
        Err(Bad::Link(insn)) => insn,
        Err(Bad::Malformed(what)) => fatal(format!(
            "rvm: invokedynamic with bootstrap method {}.{}: {what} (in {})",
            bclass.replace('/', "."),
            bname,
            caller.full_name()
        )),
    }
}

fn fatal(msg: String) -> Insn {
    Insn::Fatal(Arc::from(msg.as_str()))
}

/// Why a call site cannot be linked.
pub(crate) enum Bad {
    /// A linkage error (missing class or method), thrown when the call site executes.
    Link(Insn),
    /// Bootstrap arguments rvm does not understand.
    Malformed(String),
}

impl From<Insn> for Bad {
    fn from(i: Insn) -> Bad {
        Bad::Link(i)
    }
}

fn malformed<T>(what: &str) -> Result<T, Bad> {
    Err(Bad::Malformed(what.to_string()))
}

/// The next hidden class's name: `prefix$N`, N counting the VM's call sites.
pub(crate) fn site_name(vm: &Vm, prefix: &str) -> String {
    format!("{prefix}${}", vm.reg.synthetic_count.fetch_add(1, Relaxed))
}

pub(crate) fn public(flags: MethodAccessFlags) -> MethodAccessFlags {
    MethodAccessFlags::PUBLIC | flags
}

// ---- string concatenation ----

enum Piece {
    Text(String),
    Arg(usize),
}

fn concat(vm: &Vm, desc: &str, bsm_args: Option<&[BootstrapArgument]>) -> Result<Insn, Bad> {
    let (params, _) = desc_parts(desc);
    let mut pieces = Vec::new();
    match bsm_args {
        None => pieces.extend((0..params.len()).map(Piece::Arg)),
        Some(args) => {
            let recipe = match args.first() {
                Some(BootstrapArgument::LiteralConstant(LiteralConstant::String(s))) => s.to_string(),
                Some(BootstrapArgument::LiteralConstant(LiteralConstant::StringBytes(b))) => String::from_utf8_lossy(b).into_owned(),
                _ => return malformed("the first argument is not a recipe string"),
            };
            let mut constants = args[1..].iter();
            let (mut text, mut next) = (String::new(), 0);
            for ch in recipe.chars() {
                match ch {
                    '\u{1}' => {
                        if !text.is_empty() {
                            pieces.push(Piece::Text(std::mem::take(&mut text)));
                        }
                        pieces.push(Piece::Arg(next));
                        next += 1;
                    }
                    '\u{2}' => text.push_str(&constant_text(constants.next())?),
                    c => text.push(c),
                }
            }
            if !text.is_empty() {
                pieces.push(Piece::Text(text));
            }
            if next != params.len() {
                return malformed("the recipe's arguments do not match the call site's descriptor");
            }
        }
    }
    let sb = "java/lang/StringBuilder";
    let mut a = Asm::new(vm);
    a.push(Insn::New(a.class(sb)?));
    a.push(Insn::Dup);
    a.invoke(Call::Special, sb, "<init>", "()V")?;
    let slots: Vec<usize> = params
        .iter()
        .scan(0, |s, p| {
            let at = *s;
            *s += Kind::from_desc(p).slots();
            Some(at)
        })
        .collect();
    for piece in &pieces {
        let append_desc = match piece {
            Piece::Text(t) => {
                a.push(Insn::Ldc(vm.intern_constant(t).map_err(Bad::Malformed)?));
                "(Ljava/lang/String;)Ljava/lang/StringBuilder;"
            }
            Piece::Arg(i) => {
                let t = params[*i];
                a.load(slots[*i], t);
                append_descriptor(t)
            }
        };
        a.invoke(Call::Virtual, sb, "append", append_desc)?;
    }
    a.invoke(Call::Virtual, sb, "toString", "()Ljava/lang/String;")?;
    a.push(Insn::Return1);
    let name = site_name(vm, "java/lang/invoke/StringConcatFactory$$Concat");
    let method = MethodDef { name: "concat".into(), desc: desc.into(), flags: public(MethodAccessFlags::STATIC) };
    let class = vm.reg.define_synthetic(&name, "java/lang/Object", &[], Vec::new(), vec![method]).map_err(load_error)?;
    let m = class.methods[0];
    a.install(m, 6);
    Ok(Insn::InvokeStatic(class.clone(), m))
}

/// A `\u{2}` constant of a recipe, as `String.valueOf` prints it.
fn constant_text(arg: Option<&BootstrapArgument>) -> Result<String, Bad> {
    use LiteralConstant as L;
    Ok(match arg {
        Some(BootstrapArgument::LiteralConstant(c)) => match c {
            L::String(s) => s.to_string(),
            L::StringBytes(b) => String::from_utf8_lossy(b).into_owned(),
            L::Integer(i) => i.to_string(),
            L::Long(i) => i.to_string(),
            L::Float(f) => crate::native::java_float(*f),
            L::Double(d) => crate::native::java_double(*d),
        },
        Some(BootstrapArgument::ClassInfo(n)) => format!("class {}", n.replace('/', ".")),
        Some(_) => return malformed("a recipe constant is a method handle or method type"),
        None => return malformed("the recipe has more constants than the bootstrap arguments"),
    })
}

// ---- lambdas and method references ----

const FLAG_SERIALIZABLE: i32 = 1;
const FLAG_MARKERS: i32 = 2;
const FLAG_BRIDGES: i32 = 4;

fn method_type<'b>(arg: Option<&'b BootstrapArgument>) -> Result<&'b str, Bad> {
    match arg {
        Some(BootstrapArgument::MethodType(t)) => Ok(t),
        _ => malformed("a method type argument is missing"),
    }
}

fn int_arg(arg: Option<&BootstrapArgument>) -> Result<i32, Bad> {
    match arg {
        Some(BootstrapArgument::LiteralConstant(LiteralConstant::Integer(i))) if *i >= 0 => Ok(*i),
        _ => malformed("an int argument is missing"),
    }
}

fn lambda(vm: &Vm, caller: &Method, sam_name: &str, desc: &str, args: &[BootstrapArgument], alt: bool) -> Result<Insn, Bad> {
    let sam_type = method_type(args.first())?;
    let Some(BootstrapArgument::MethodHandle(imp)) = args.get(1) else {
        return malformed("the implementation method handle is missing");
    };
    let instantiated = method_type(args.get(2))?;
    let (mut serializable, mut markers, mut bridges) = (false, Vec::new(), Vec::new());
    if alt {
        let flags = int_arg(args.get(3))?;
        serializable = flags & FLAG_SERIALIZABLE != 0;
        let mut i = 4;
        if flags & FLAG_MARKERS != 0 {
            let n = int_arg(args.get(i))? as usize;
            for k in 0..n {
                match args.get(i + 1 + k) {
                    Some(BootstrapArgument::ClassInfo(c)) => markers.push(c.to_string()),
                    _ => return malformed("a marker interface is missing"),
                }
            }
            i += 1 + n;
        }
        if flags & FLAG_BRIDGES != 0 {
            let n = int_arg(args.get(i))? as usize;
            for k in 0..n {
                bridges.push(method_type(args.get(i + 1 + k))?);
            }
        }
    }
    let (captured, returned) = desc_parts(desc);
    let Some(iface) = returned.strip_prefix('L').and_then(|s| s.strip_suffix(';')) else {
        return malformed("the call site does not return an interface");
    };
    let target = Target::of(imp)?;
    let (sam_params, _) = desc_parts(sam_type);
    let (inst_params, _) = desc_parts(instantiated);
    if captured.len() + sam_params.len() != target.params.len() || inst_params.len() != sam_params.len() {
        return malformed("the implementation method does not take the captured and the interface method's arguments");
    }

    // The class: the interface (and markers, Serializable), one field per captured argument (or
    // the one instance), the call site's factory method, the interface method and its bridges.
    let mut interfaces = vec![iface.to_string()];
    for m in markers {
        if !interfaces.contains(&m) {
            interfaces.push(m);
        }
    }
    if serializable && !interfaces.iter().any(|i| i == "java/io/Serializable") {
        interfaces.push("java/io/Serializable".into());
    }
    let mut fields: Vec<FieldDef> = captured
        .iter()
        .enumerate()
        .map(|(i, t)| FieldDef { name: format!("arg${}", i + 1), desc: t.to_string(), is_static: false, constant: None })
        .collect();
    if captured.is_empty() {
        fields.push(FieldDef { name: "INSTANCE".into(), desc: returned.to_string(), is_static: true, constant: None });
    }
    let mut forwarders = vec![sam_type];
    for b in bridges {
        if !forwarders.contains(&b) {
            forwarders.push(b);
        }
    }
    let mut methods = vec![MethodDef { name: "get$Lambda".into(), desc: desc.into(), flags: public(MethodAccessFlags::STATIC) }];
    for (i, t) in forwarders.iter().enumerate() {
        let flags = if i == 0 { MethodAccessFlags::empty() } else { MethodAccessFlags::BRIDGE | MethodAccessFlags::SYNTHETIC };
        methods.push(MethodDef { name: sam_name.into(), desc: t.to_string(), flags: public(flags) });
    }
    let name = site_name(vm, &format!("{}$$Lambda", caller.class_name));
    let class = vm.reg.define_synthetic(&name, "java/lang/Object", &interfaces, fields, methods).map_err(load_error)?;

    // Each forwarding method first (a missing implementation method is an error before anything
    // is installed), then the factory.
    let mut codes = Vec::new();
    for t in &forwarders {
        codes.push(forwarder(vm, &class, &captured, &target, t, &inst_params)?);
    }
    for (i, a) in codes.into_iter().enumerate() {
        let m = class.methods[1 + i];
        let stack = 6 + 2 * (captured.len() + m.arg_slots);
        a.install(m, stack);
    }
    let factory = class.methods[0];
    let mut a = Asm::new(vm);
    if captured.is_empty() {
        let f = &class.fields[0];
        a.push(Insn::GetStatic(class.clone(), f.offset as u32, Kind::L));
        a.push(Insn::Dup);
        a.push(Insn::IfNonNull(7));
        a.push(Insn::Pop);
        a.push(Insn::New(class.clone()));
        a.push(Insn::Dup);
        a.push(Insn::PutStatic(class.clone(), f.offset as u32, Kind::L));
        a.push(Insn::Return1);
    } else {
        a.push(Insn::New(class.clone()));
        let mut slot = 0;
        for (f, t) in class.fields.iter().zip(&captured) {
            a.push(Insn::Dup);
            a.load(slot, t);
            slot += f.kind.slots();
            a.push(Insn::PutField(f.offset as u32, f.kind));
        }
        a.push(Insn::Return1);
    }
    a.install(factory, 4);
    Ok(Insn::InvokeStatic(class.clone(), factory))
}

/// The implementation method of a lambda: how it is called and its type as `LambdaMetafactory`
/// sees it (the receiver first for instance methods; a constructor returns its class).
struct Target {
    call: Call,
    new: bool,
    class: String,
    name: String,
    desc: String,
    params: Vec<String>,
    ret: String,
}

impl Target {
    fn of(h: &MethodHandle) -> Result<Target, Bad> {
        let (name, desc) = (h.member_ref.name.to_string(), h.member_ref.descriptor.to_string());
        let (p, r) = desc_parts(&desc);
        let mut params: Vec<String> = p.iter().map(|s| s.to_string()).collect();
        let receiver = format!("L{};", h.class_name);
        let (call, new, ret) = match h.kind {
            ReferenceKind::InvokeStatic => (Call::Static, false, r.to_string()),
            ReferenceKind::InvokeVirtual => (Call::Virtual, false, r.to_string()),
            ReferenceKind::InvokeInterface => (Call::Interface, false, r.to_string()),
            ReferenceKind::InvokeSpecial => (Call::Special, false, r.to_string()),
            ReferenceKind::NewInvokeSpecial => (Call::Special, true, receiver.clone()),
            _ => return malformed("the implementation method handle is a field access"),
        };
        if !matches!(call, Call::Static) && !new {
            params.insert(0, receiver);
        }
        Ok(Target { call, new, class: h.class_name.to_string(), name, desc, params, ret })
    }
}

/// The code of the lambda class's method of type `mt` (the interface method or a bridge).
fn forwarder<'v>(vm: &'v Vm, class: &Arc<Class>, captured: &[&str], t: &Target, mt: &str, inst: &[&str]) -> Result<Asm<'v>, Bad> {
    let mut a = Asm::new(vm);
    if t.new {
        let c = a.class(&t.class)?;
        if c.is_interface || c.is_abstract {
            return Err(Bad::Link(link_error("java/lang/InstantiationError", c.java_name())));
        }
        a.push(Insn::New(c));
        a.push(Insn::Dup);
    }
    for f in class.fields.iter().filter(|f| !f.is_static) {
        a.push(Insn::Load(0));
        a.push(Insn::GetField(f.offset as u32, f.kind));
    }
    let (params, ret) = desc_parts(mt);
    let mut slot = 1;
    for (i, p) in params.iter().enumerate() {
        a.load(slot, p);
        slot += Kind::from_desc(p).slots();
        a.convert(p, &t.params[captured.len() + i], inst[i])?;
    }
    a.invoke(t.call, &t.class, &t.name, &t.desc)?;
    a.convert(&t.ret, ret, ret)?;
    a.push(match ret {
        "V" => Insn::Return,
        "J" | "D" => Insn::Return2,
        _ => Insn::Return1,
    });
    Ok(a)
}

// ---- records: ObjectMethods.bootstrap ----

/// A record's `toString`, `equals` or `hashCode` (`name`), as `java.lang.runtime.ObjectMethods`
/// makes them: arguments are the record class, its component names joined by `;` and a getter
/// (`REF_getField`) per component.
fn object_method(vm: &Vm, name: &str, desc: &str, args: &[BootstrapArgument]) -> Result<Insn, Bad> {
    let Some(BootstrapArgument::ClassInfo(rname)) = args.first() else {
        return malformed("the record class argument is missing");
    };
    let names: Vec<String> = match args.get(1) {
        Some(BootstrapArgument::LiteralConstant(LiteralConstant::String(s))) => s.split(';').filter(|n| !n.is_empty()).map(String::from).collect(),
        Some(BootstrapArgument::LiteralConstant(LiteralConstant::StringBytes(b))) => {
            String::from_utf8_lossy(b).split(';').filter(|n| !n.is_empty()).map(String::from).collect()
        }
        _ => return malformed("the component names argument is missing"),
    };
    let rec = vm.reg.load(rname).map_err(|e| Bad::Link(load_error(e)))?;
    // The components' fields, from the getters.
    let mut comps = Vec::new();
    for a in &args[2..] {
        let BootstrapArgument::MethodHandle(h) = a else { return malformed("a component getter is not a method handle") };
        if !matches!(h.kind, ReferenceKind::GetField) {
            return malformed("a component getter is not a field getter");
        }
        let (fname, fdesc) = (&*h.member_ref.name, &*h.member_ref.descriptor);
        let Some((c, i)) = rec.lookup_field(fname, fdesc) else {
            return Err(Bad::Link(link_error("java/lang/NoSuchFieldError", fname.to_string())));
        };
        let f = &c.fields[i];
        comps.push((f.offset as u32, f.kind, fdesc.to_string()));
    }
    if comps.len() != names.len() {
        return malformed("the component names do not match the getters");
    }
    let mut a = Asm::new(vm);
    let getfield = |a: &mut Asm, slot: u16, i: usize, cast: bool| -> Result<(), Bad> {
        a.push(Insn::Load(slot));
        if cast {
            let c = a.class(rname)?;
            a.push(Insn::CheckCast(c));
        }
        a.push(Insn::GetField(comps[i].0, comps[i].1));
        Ok(())
    };
    match (name, desc_parts(desc).1) {
        ("toString", "Ljava/lang/String;") => {
            let sb = "java/lang/StringBuilder";
            let simple = rname.rsplit('/').next().unwrap_or(rname);
            let simple = simple.rsplit('$').next().unwrap_or(simple).trim_start_matches(|c: char| c.is_ascii_digit());
            a.push(Insn::New(a.class(sb)?));
            a.push(Insn::Dup);
            a.invoke(Call::Special, sb, "<init>", "()V")?;
            for (i, n) in names.iter().enumerate() {
                let text = format!("{}{n}=", if i == 0 { format!("{simple}[") } else { ", ".to_string() });
                a.push(Insn::Ldc(vm.intern_constant(&text).map_err(Bad::Malformed)?));
                a.invoke(Call::Virtual, sb, "append", "(Ljava/lang/String;)Ljava/lang/StringBuilder;")?;
                getfield(&mut a, 0, i, false)?;
                a.invoke(Call::Virtual, sb, "append", append_descriptor(&comps[i].2))?;
            }
            let close = if names.is_empty() { format!("{simple}[]") } else { "]".to_string() };
            a.push(Insn::Ldc(vm.intern_constant(&close).map_err(Bad::Malformed)?));
            a.invoke(Call::Virtual, sb, "append", "(Ljava/lang/String;)Ljava/lang/StringBuilder;")?;
            a.invoke(Call::Virtual, sb, "toString", "()Ljava/lang/String;")?;
            a.push(Insn::Return1);
        }
        ("hashCode", "I") => {
            // result = 31 * result + hash(c), from 0, with the wrappers' hashCode for primitives.
            a.push(Insn::Iconst(0));
            for (i, comp) in comps.iter().enumerate() {
                a.push(Insn::Iconst(31));
                a.push(Insn::Imul);
                getfield(&mut a, 0, i, false)?;
                match comp.2.as_str() {
                    "B" | "S" | "C" | "I" => {}
                    "Z" => a.invoke(Call::Static, "java/lang/Boolean", "hashCode", "(Z)I")?,
                    "J" => a.invoke(Call::Static, "java/lang/Long", "hashCode", "(J)I")?,
                    "F" => a.invoke(Call::Static, "java/lang/Float", "hashCode", "(F)I")?,
                    "D" => a.invoke(Call::Static, "java/lang/Double", "hashCode", "(D)I")?,
                    _ => a.invoke(Call::Static, "java/util/Objects", "hashCode", "(Ljava/lang/Object;)I")?,
                }
                a.push(Insn::Iadd);
            }
            a.push(Insn::Return1);
        }
        ("equals", "Z") => {
            // An instance of the record class whose components are equal: == for integral
            // types, Float/Double.compare for floating point, Objects.equals for references.
            let mut to_false = Vec::new();
            a.push(Insn::Load(1));
            a.push(Insn::InstanceOf(a.class(rname)?));
            to_false.push(a.insns.len());
            a.push(Insn::If(crate::code::Cond::Eq, 0));
            for (i, comp) in comps.iter().enumerate() {
                getfield(&mut a, 0, i, false)?;
                getfield(&mut a, 1, i, true)?;
                let jump = match comp.2.as_str() {
                    "B" | "S" | "C" | "I" | "Z" => Insn::IfIcmp(crate::code::Cond::Ne, 0),
                    "J" => {
                        a.push(Insn::Lcmp);
                        Insn::If(crate::code::Cond::Ne, 0)
                    }
                    "F" => {
                        a.invoke(Call::Static, "java/lang/Float", "compare", "(FF)I")?;
                        Insn::If(crate::code::Cond::Ne, 0)
                    }
                    "D" => {
                        a.invoke(Call::Static, "java/lang/Double", "compare", "(DD)I")?;
                        Insn::If(crate::code::Cond::Ne, 0)
                    }
                    _ => {
                        a.invoke(Call::Static, "java/util/Objects", "equals", "(Ljava/lang/Object;Ljava/lang/Object;)Z")?;
                        Insn::If(crate::code::Cond::Eq, 0)
                    }
                };
                to_false.push(a.insns.len());
                a.push(jump);
            }
            a.push(Insn::Iconst(1));
            a.push(Insn::Return1);
            let target = a.insns.len() as u32;
            a.push(Insn::Iconst(0));
            a.push(Insn::Return1);
            for at in to_false {
                a.retarget(at, target);
            }
        }
        _ => return malformed("the method is not toString, equals or hashCode"),
    }
    let cname = site_name(vm, &format!("{rname}$$ObjectMethods"));
    let method = MethodDef { name: name.into(), desc: desc.into(), flags: public(MethodAccessFlags::STATIC) };
    let class = vm.reg.define_synthetic(&cname, "java/lang/Object", &[], Vec::new(), vec![method]).map_err(load_error)?;
    let m = class.methods[0];
    a.install(m, 8);
    Ok(Insn::InvokeStatic(class.clone(), m))
}

// ---- pattern switch: SwitchBootstraps.typeSwitch and enumSwitch ----

/// A case label of a pattern `switch`.
enum Label {
    /// A type pattern: matches an instance of the class.
    Class(Arc<Class>),
    /// A primitive type pattern on a primitive selector of that type (javac 23+).
    Primitive(String),
    /// A string constant: matches an equal `String`.
    Str(u32),
    /// An int constant: matches a `Number` whose `intValue()`, or a `Character` whose value, it is.
    Int(i32),
    /// An enum constant (an `EnumDesc`, or an `enumSwitch` name): an instance of the enum class
    /// with that name.
    Enum(Option<Arc<Class>>, u32),
}

/// The dynamic constant that was argument `pos` of bootstrap method `bsm` of `class`, if any.
fn condy_arg(vm: &Vm, class: &str, bsm: u16, pos: u16) -> Option<crate::condy::Condy> {
    let t = vm.reg.condys.lock().unwrap_or_else(|e| e.into_inner()).get(class).cloned()?;
    t.get(&(bsm, pos)).cloned()
}

/// The string argument `pos` of bootstrap method `bsm` (for dynamic constants' arguments).
fn string_arg(arg: Option<&BootstrapArgument>) -> Option<String> {
    match arg? {
        BootstrapArgument::LiteralConstant(LiteralConstant::String(s)) => Some(s.to_string()),
        BootstrapArgument::LiteralConstant(LiteralConstant::StringBytes(b)) => Some(String::from_utf8_lossy(b).into_owned()),
        _ => None,
    }
}

/// The class a `ClassDesc` dynamic constant (`ConstantBootstraps.invoke` of `ClassDesc.of(name)`)
/// describes, as an internal name.
fn class_desc(bootstraps: &[BootstrapMethodEntry], c: &crate::condy::Condy) -> Option<String> {
    let e = bootstraps.get(c.bsm as usize)?;
    let Some(BootstrapArgument::MethodHandle(h)) = e.arguments.first() else { return None };
    match (&*e.method.member_ref.name, &*h.class_name, &*h.member_ref.name) {
        ("invoke", "java/lang/constant/ClassDesc", "of") => Some(string_arg(e.arguments.get(1))?.replace('.', "/")),
        ("invoke", "java/lang/constant/ClassDesc", "ofDescriptor") => {
            let d = string_arg(e.arguments.get(1))?;
            Some(d.strip_prefix('L').and_then(|s| s.strip_suffix(';')).map(String::from).unwrap_or(d))
        }
        _ => None,
    }
}

/// A label that is a dynamic constant: an `EnumDesc` or a primitive class.
fn condy_label(vm: &Vm, caller: &Method, bootstraps: &[BootstrapMethodEntry], c: &crate::condy::Condy) -> Result<Label, Bad> {
    let Some(e) = bootstraps.get(c.bsm as usize) else { return malformed("a dynamic constant without a bootstrap method") };
    let (bc, bn) = (&*e.method.class_name, &*e.method.member_ref.name);
    match (bc, bn) {
        ("java/lang/invoke/ConstantBootstraps", "primitiveClass") => Ok(Label::Primitive(c.name.clone())),
        ("java/lang/invoke/ConstantBootstraps", "invoke") if c.desc == "Ljava/lang/Enum$EnumDesc;" => {
            // EnumDesc.of(ClassDesc, String)
            let class = condy_arg(vm, &caller.class_name, c.bsm, 1).and_then(|cd| class_desc(bootstraps, &cd));
            let (Some(class), Some(name)) = (class, string_arg(e.arguments.get(2))) else {
                return malformed("an EnumDesc label rvm cannot read");
            };
            let cls = vm.reg.load(&class).map_err(|e| Bad::Link(load_error(e)))?;
            Ok(Label::Enum(Some(cls), vm.intern_constant(&name).map_err(Bad::Malformed)?))
        }
        _ => Err(Bad::Malformed(format!("a dynamic constant label of {}.{bn} is not supported", bc.replace('/', ".")))),
    }
}

/// A pattern `switch`'s dispatch: `(selector, restart) -> index` of the first label at or after
/// `restart` that matches, -1 for null, the number of labels when none matches, as
/// `SwitchBootstraps` computes it.
fn switch(vm: &Vm, caller: &Method, desc: &str, bootstraps: &[BootstrapMethodEntry], bsm: u16, args: &[BootstrapArgument], enum_switch: bool) -> Result<Insn, Bad> {
    use crate::code::Cond;
    let (params, ret) = desc_parts(desc);
    if params.len() != 2 || params[1] != "I" || ret != "I" {
        return malformed("the call site is not (selector, int)int");
    }
    let sel = params[0];
    let mut labels = Vec::new();
    for (pos, arg) in args.iter().enumerate() {
        if let Some(c) = condy_arg(vm, &caller.class_name, bsm, pos as u16) {
            labels.push(condy_label(vm, caller, bootstraps, &c)?);
            continue;
        }
        labels.push(match arg {
            BootstrapArgument::ClassInfo(n) => Label::Class(a_class(vm, n)?),
            BootstrapArgument::LiteralConstant(LiteralConstant::Integer(i)) if !enum_switch => Label::Int(*i),
            BootstrapArgument::LiteralConstant(LiteralConstant::String(_) | LiteralConstant::StringBytes(_)) => {
                let s = string_arg(Some(arg)).unwrap_or_default();
                let k = vm.intern_constant(&s).map_err(Bad::Malformed)?;
                if enum_switch { Label::Enum(None, k) } else { Label::Str(k) }
            }
            _ => return malformed("a label is neither a class, a String, an Integer nor an enum constant"),
        });
    }
    let mut a = Asm::new(vm);
    let mut to_next = Vec::new();
    if is_prim(sel) {
        // A primitive selector (javac 23+): only unconditional primitive type patterns.
        for (i, l) in labels.iter().enumerate() {
            match l {
                Label::Primitive(p) if prim_name(sel.as_bytes()[0]) == p.as_str() || sel == p.as_str() => {
                    let next = a.insns.len() as u32 + 5;
                    a.push(Insn::Load(Kind::from_desc(sel).slots() as u16));
                    a.push(Insn::Iconst(i as i32));
                    a.push(Insn::IfIcmp(Cond::Gt, next));
                    a.push(Insn::Iconst(i as i32));
                    a.push(Insn::Return1);
                }
                _ => return malformed("a pattern on a primitive selector other than its own type"),
            }
        }
        a.push(Insn::Iconst(labels.len() as i32));
        a.push(Insn::Return1);
    } else {
        a.push(Insn::Load(0));
        a.push(Insn::IfNonNull(4));
        a.push(Insn::Iconst(-1));
        a.push(Insn::Return1);
        for (i, l) in labels.iter().enumerate() {
            for at in to_next.drain(..) {
                let here = a.insns.len() as u32;
                a.retarget(at, here);
            }
            let i = i as i32;
            a.push(Insn::Load(1));
            a.push(Insn::Iconst(i));
            to_next.push(a.insns.len());
            a.push(Insn::IfIcmp(Cond::Gt, 0));
            match l {
                Label::Class(c) => {
                    a.push(Insn::Load(0));
                    a.push(Insn::InstanceOf(c.clone()));
                    to_next.push(a.insns.len());
                    a.push(Insn::If(Cond::Eq, 0));
                }
                Label::Str(k) => {
                    a.push(Insn::Ldc(*k));
                    a.push(Insn::Load(0));
                    a.invoke(Call::Virtual, "java/lang/String", "equals", "(Ljava/lang/Object;)Z")?;
                    to_next.push(a.insns.len());
                    a.push(Insn::If(Cond::Eq, 0));
                }
                Label::Int(v) => {
                    let not_number = a.unboxed_is(vm, "java/lang/Number", "intValue", "()I", *v, &mut to_next)?;
                    a.push(Insn::Iconst(i));
                    a.push(Insn::Return1);
                    let here = a.insns.len() as u32;
                    a.retarget(not_number, here);
                    let not_character = a.unboxed_is(vm, "java/lang/Character", "charValue", "()C", *v, &mut to_next)?;
                    to_next.push(not_character);
                }
                Label::Enum(c, k) => {
                    let enum_class = a_class(vm, "java/lang/Enum")?;
                    a.push(Insn::Load(0));
                    a.push(Insn::InstanceOf(c.clone().unwrap_or_else(|| enum_class.clone())));
                    to_next.push(a.insns.len());
                    a.push(Insn::If(Cond::Eq, 0));
                    a.push(Insn::Ldc(*k));
                    a.push(Insn::Load(0));
                    a.push(Insn::CheckCast(enum_class));
                    a.invoke(Call::Virtual, "java/lang/Enum", "name", "()Ljava/lang/String;")?;
                    a.invoke(Call::Virtual, "java/lang/String", "equals", "(Ljava/lang/Object;)Z")?;
                    to_next.push(a.insns.len());
                    a.push(Insn::If(Cond::Eq, 0));
                }
                Label::Primitive(_) => return malformed("a primitive type pattern on a reference selector"),
            }
            a.push(Insn::Iconst(i));
            a.push(Insn::Return1);
        }
        for at in to_next.drain(..) {
            let here = a.insns.len() as u32;
            a.retarget(at, here);
        }
        a.push(Insn::Iconst(labels.len() as i32));
        a.push(Insn::Return1);
    }
    let which = if enum_switch { "EnumSwitch" } else { "TypeSwitch" };
    let cname = site_name(vm, &format!("java/lang/runtime/SwitchBootstraps$${which}"));
    let method = MethodDef { name: "switch".into(), desc: desc.into(), flags: public(MethodAccessFlags::STATIC) };
    let class = vm.reg.define_synthetic(&cname, "java/lang/Object", &[], Vec::new(), vec![method]).map_err(load_error)?;
    let m = class.methods[0];
    a.install(m, 6);
    Ok(Insn::InvokeStatic(class.clone(), m))
}

fn a_class(vm: &Vm, name: &str) -> Result<Arc<Class>, Bad> {
    vm.reg.load(name).map_err(|e| Bad::Link(load_error(e)))
}

// ---- code assembly ----

#[derive(Clone, Copy)]
pub(crate) enum Call {
    Static,
    Virtual,
    Interface,
    Special,
}

/// Instructions of one synthetic method.
pub(crate) struct Asm<'v> {
    vm: &'v Vm,
    insns: Vec<Insn>,
}

const PRIMS: &[u8] = b"ZBCSIJFD";

pub(crate) fn is_prim(t: &str) -> bool {
    t.len() == 1 && PRIMS.contains(&t.as_bytes()[0])
}

pub(crate) fn wrapper(p: u8) -> &'static str {
    match p {
        b'Z' => "java/lang/Boolean",
        b'B' => "java/lang/Byte",
        b'C' => "java/lang/Character",
        b'S' => "java/lang/Short",
        b'I' => "java/lang/Integer",
        b'J' => "java/lang/Long",
        b'F' => "java/lang/Float",
        _ => "java/lang/Double",
    }
}

/// The `StringBuilder.append` overload for a value of field type `t`, as `String.valueOf` would
/// convert it (byte and short through `append(int)`).
fn append_descriptor(t: &str) -> &'static str {
    match t {
        "Z" => "(Z)Ljava/lang/StringBuilder;",
        "C" => "(C)Ljava/lang/StringBuilder;",
        "B" | "S" | "I" => "(I)Ljava/lang/StringBuilder;",
        "J" => "(J)Ljava/lang/StringBuilder;",
        "F" => "(F)Ljava/lang/StringBuilder;",
        "D" => "(D)Ljava/lang/StringBuilder;",
        "Ljava/lang/String;" => "(Ljava/lang/String;)Ljava/lang/StringBuilder;",
        _ => "(Ljava/lang/Object;)Ljava/lang/StringBuilder;",
    }
}

pub(crate) fn prim_name(p: u8) -> &'static str {
    match p {
        b'Z' => "boolean",
        b'B' => "byte",
        b'C' => "char",
        b'S' => "short",
        b'I' => "int",
        b'J' => "long",
        b'F' => "float",
        _ => "double",
    }
}

/// The primitive type whose wrapper class `desc` names (`Ljava/lang/Integer;` is `I`).
fn wrapped(desc: &str) -> Option<u8> {
    let name = desc.strip_prefix('L')?.strip_suffix(';')?;
    PRIMS.iter().copied().find(|p| wrapper(*p) == name)
}

/// A number type with a sign (`Number`'s conversions apply), as opposed to `char` and `boolean`.
fn numeric(p: u8) -> bool {
    !matches!(p, b'C' | b'Z')
}

impl<'v> Asm<'v> {
    pub(crate) fn new(vm: &'v Vm) -> Asm<'v> {
        Asm { vm, insns: Vec::new() }
    }

    pub(crate) fn push(&mut self, i: Insn) {
        self.insns.push(i);
    }

    pub(crate) fn class(&self, name: &str) -> Result<Arc<Class>, Bad> {
        self.vm.reg.load(name).map_err(|e| Bad::Link(load_error(e)))
    }

    pub(crate) fn load(&mut self, slot: usize, t: &str) {
        let s = slot as u16;
        self.push(if Kind::from_desc(t).slots() == 2 { Insn::Load2(s) } else { Insn::Load(s) });
    }

    /// A call resolved as the interpreter's translation resolves one (`code.rs`).
    pub(crate) fn invoke(&mut self, call: Call, class: &str, name: &str, desc: &str) -> Result<(), Bad> {
        let c = self.class(class)?;
        let Some(m) = c.lookup_method(name, desc) else {
            return Err(Bad::Link(link_error("java/lang/NoSuchMethodError", format!("{}.{name}{desc}", c.java_name()))));
        };
        self.push(match call {
            Call::Static => Insn::InvokeStatic(self.vm.reg.class(m.class_id).clone(), m),
            Call::Special => Insn::InvokeDirect(m),
            Call::Virtual | Call::Interface => {
                if m.is_private || m.is_final {
                    Insn::InvokeDirect(m)
                } else if let (Call::Virtual, Some(&vi)) = (call, c.vindex.get(&m.selector)) {
                    Insn::InvokeVirtual(m, vi as u32)
                } else {
                    Insn::InvokeInterface(m)
                }
            }
        });
        Ok(())
    }

    /// `checkcast` from `src` to `dst` where they differ (none to Object).
    pub(crate) fn cast(&mut self, src: &str, dst: &str) -> Result<(), Bad> {
        if src != dst && dst != "Ljava/lang/Object;" {
            let name = dst.strip_prefix('L').and_then(|s| s.strip_suffix(';')).unwrap_or(dst);
            let c = self.class(name)?;
            self.push(Insn::CheckCast(c));
        }
        Ok(())
    }

    /// Primitive widening (JLS 5.1.2); anything else is left as it is.
    fn widen(&mut self, from: u8, to: u8) {
        let int = matches!(from, b'Z' | b'B' | b'C' | b'S' | b'I');
        let i = match (from, to) {
            (_, b'J') if int => Insn::I2l,
            (_, b'F') if int => Insn::I2f,
            (_, b'D') if int => Insn::I2d,
            (b'J', b'F') => Insn::L2f,
            (b'J', b'D') => Insn::L2d,
            (b'F', b'D') => Insn::F2d,
            _ => return,
        };
        self.push(i);
    }

    pub(crate) fn boxing(&mut self, p: u8) -> Result<(), Bad> {
        let w = wrapper(p);
        self.invoke(Call::Static, w, "valueOf", &format!("({})L{w};", p as char))
    }

    pub(crate) fn unbox(&mut self, owner: &str, p: u8) -> Result<(), Bad> {
        self.invoke(Call::Virtual, owner, &format!("{}Value", prim_name(p)), &format!("(){}", p as char))
    }

    /// Converts the value on top of the stack from type `arg` to `target`, through `functional`
    /// (the instantiated type), as `LambdaMetafactory`'s classes do (`TypeConvertingMethodAdapter`).
    fn convert(&mut self, arg: &str, target: &str, functional: &str) -> Result<(), Bad> {
        if (arg == target && arg == functional) || arg == "V" || target == "V" {
            return Ok(());
        }
        if is_prim(arg) {
            let wa = arg.as_bytes()[0];
            if is_prim(target) {
                self.widen(wa, target.as_bytes()[0]);
            } else if let Some(wt) = wrapped(target) {
                self.widen(wa, wt);
                self.boxing(wt)?;
            } else {
                self.boxing(wa)?;
                self.cast(&format!("L{};", wrapper(wa)), target)?;
            }
            return Ok(());
        }
        let src = if is_prim(functional) {
            arg
        } else {
            self.cast(arg, functional)?;
            functional
        };
        if is_prim(target) {
            let wt = target.as_bytes()[0];
            match wrapped(src) {
                Some(ws) if numeric(ws) => self.unbox(wrapper(ws), wt)?,
                Some(ws) => {
                    self.unbox(wrapper(ws), ws)?;
                    self.widen(ws, wt);
                }
                None => {
                    let via = if numeric(wt) { "java/lang/Number" } else { wrapper(wt) };
                    self.cast(src, &format!("L{via};"))?;
                    self.unbox(via, wt)?;
                }
            }
        } else {
            self.cast(src, target)?;
        }
        Ok(())
    }

    /// Points the branch at `at` to instruction `target`.
    /// `arg0 instanceof BOX && arg0.UNBOX() == v`: falls through when true; a mismatched value
    /// jumps to a branch added to `to_next`; returns the not-an-instance branch, for the caller to
    /// point somewhere.
    fn unboxed_is(&mut self, vm: &Vm, boxed: &str, unbox: &str, desc: &str, v: i32, to_next: &mut Vec<usize>) -> Result<usize, Bad> {
        let class = a_class(vm, boxed)?;
        self.push(Insn::Load(0));
        self.push(Insn::InstanceOf(class.clone()));
        let not_instance = self.insns.len();
        self.push(Insn::If(crate::code::Cond::Eq, 0));
        self.push(Insn::Load(0));
        self.push(Insn::CheckCast(class));
        self.invoke(Call::Virtual, boxed, unbox, desc)?;
        self.push(Insn::Iconst(v));
        to_next.push(self.insns.len());
        self.push(Insn::IfIcmp(crate::code::Cond::Ne, 0));
        Ok(not_instance)
    }

    fn retarget(&mut self, at: usize, target: u32) {
        match &mut self.insns[at] {
            Insn::If(_, t) | Insn::IfIcmp(_, t) | Insn::IfAcmpEq(t) | Insn::IfAcmpNe(t) | Insn::IfNull(t) | Insn::IfNonNull(t) | Insn::Goto(t) => *t = target,
            _ => unreachable!("not a branch"),
        }
    }

    /// Makes these instructions `m`'s code.
    pub(crate) fn install(self, m: &'static Method, max_stack: usize) {
        let n = self.insns.len();
        let code = Code { insns: self.insns, handlers: Vec::new(), lines: vec![0; n], max_locals: m.arg_slots, max_stack, synthetic: false };
        let _ = m.code.set(Ok(Box::leak(Box::new(code))));
    }
}
