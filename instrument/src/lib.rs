#![forbid(unsafe_code)]
//! The bytecode insertion pass: calls to static probe methods are added to a class file's methods
//! so that each selected method reports its entry and each of its exits, normal or by exception.
//!
//! ```text
//!  <push id> invokestatic Probe.enter(I)V      ← new, at offset 0
//!  ... original code ...
//!  <push id> invokestatic Probe.exit(I)V       ← new, before every *return (value stays below)
//!  ireturn
//!  ... original code ...
//!  <push id> invokestatic Probe.caught(I)V     ← new (optional), at the start of each handler of
//!  astore_2                                       the method's own exception table
//!  ... original code ...
//!  <push id> invokestatic Probe.thrown(I)V     ← new catch-all handler, last in the exception
//!  athrow                                         table, covering all the original code; calls
//!                                                 `exit` unless a `thrown` probe is configured
//! ```
//!
//! With a carried context ([`Probes::with_carried_context`], type `C`, see "Carried context"), the
//! entry probe's result is kept in a new local `L` and handed to every other probe:
//!
//! ```text
//!  <push id> invokestatic Probe.enter(I)C      ← new, at offset 0
//!  astore L                                       L = the original max_locals
//!  ... original code ...
//!  aload L <push id> invokestatic Probe.exit(CI)V     ← before every *return
//!  ... original code ...
//!  aload L <push id> invokestatic Probe.caught(CI)V   ← at the start of each handler
//!  ... original code ...
//!  aload L <push id> invokestatic Probe.thrown(CI)V   ← the catch-all handler(s)
//!  athrow
//! ```
//!
//! The id is pushed with the shortest of `iconst_*`, `bipush`, `sipush` and `ldc`/`ldc_w` (an
//! Integer constant); the probe receives the `u32` returned by the selection callback as a Java
//! `int` with the same bits. Which probes exist is said by [`Probes`]: `enter` and `exit` always;
//! `thrown`, `caught`, a carried context and native method wrappers (see "Native methods") when
//! configured. Without them, the output is exactly that of the pass before they existed.
//!
//! # What is rewritten and how
//!
//! * **Offsets.** Every original offset is remapped through the new position of its instruction:
//!   branch and switch targets (switch padding is recomputed), exception ranges and handlers,
//!   StackMapTable frames, LineNumberTable, LocalVariableTable, LocalVariableTypeTable, and the
//!   code offsets of RuntimeVisible/InvisibleTypeAnnotations (local variable, offset and type
//!   argument targets; an annotation attribute that cannot be remapped is dropped). A jump to a
//!   return lands on its exit probe. A jump to original offset 0 (a loop back to the start) lands
//!   on the original first instruction, after the entry probe, with the frame that was at 0.
//!   Local variables and line numbers that started at offset 0 still start at 0.
//! * **Long branches.** A `goto` that no longer reaches becomes `goto_w`. A conditional branch
//!   becomes the inverted condition over a `goto_w` when no StackMapTable is needed or the
//!   fall-through instruction already has a frame; otherwise (a frame would have to be inferred)
//!   it jumps to a `goto_w` trampoline placed after the nearest instruction that does not fall
//!   through and is covered by no exception handler that does not also cover the target; the
//!   trampoline's frame is a copy of the target's. A method whose code would exceed 65535 bytes
//!   is left unchanged and reported in [`Instrumented::skipped`]. (No class of the JDK 17 and 25
//!   images or of the Debian jars the tests use needs a wide branch after instrumentation; the
//!   tests generate methods that do.)
//! * **Exceptions.** The method's own exception-table entries keep their order and precedence;
//!   the catch-all entries are appended last. With a `thrown` probe the catch-all handlers call it
//!   instead of `exit`, so the runtime can count exits by exception apart. The handler's frame is
//!   `full_frame`, locals `[]`, stack `[java/lang/Throwable]`: it needs neither `this` nor the
//!   parameters. The catch-all covers the exit probes too, so an exception thrown by an exit probe
//!   (after it recorded the exit) would report a second exit (by exception); the entry probe is
//!   outside every handler, so if it throws no exit is reported. A caught probe that throws enters
//!   the handlers that cover it, which for a handler covering itself (javac's `synchronized`
//!   blocks) is the same handler again. The probes are expected not to throw.
//! * **Constructors.** Before `super(...)`/`this(...)` local 0 is `uninitializedThis`, and the
//!   verifier rejects a handler whose frame lacks it for those instructions. An abstract
//!   interpretation (module `ctor`) follows `uninitializedThis` through locals and the stack over
//!   the control-flow graph; instructions before the initializing call are covered by a second
//!   handler with locals `[uninitializedThis]` (it only rethrows, which is legal there), those
//!   after it by the ordinary one. The initializing `invokespecial` itself is covered by neither:
//!   HotSpot checks a handler covering it with the flagThisUninit of the incoming state and the
//!   initialized `this` of the outgoing one, and no stack map frame accepts both. **So an
//!   exception thrown out of the super or this constructor leaves the instrumented constructor
//!   without an exit event** (with a `caught` probe, the handler that catches the exception tells
//!   the runtime whose context is current again); the called constructor, if instrumented, reports
//!   its own. Exceptions thrown by the argument evaluation before the call, or anywhere after it,
//!   report one exit.
//!   Code where paths with and without an initialized `this` meet, or where local 0 no longer holds
//!   `uninitializedThis` before the call, is left uncovered the same way (javac emits neither).
//! * **Stack maps.** Class files of version 51 and later always get a StackMapTable for probed
//!   methods. Version 50 keeps one if the method had one, and gets one if the method has no
//!   branches or handlers; otherwise the JVM verifies it with the old inference verifier, as it
//!   did the original. Versions before 50 get none (a StackMapTable there is ignored by the JVM
//!   and is dropped).
//! * **Handlers (the caught probe).** With a `caught` probe, every handler of the method's own
//!   exception table, catch and `finally` (catch type 0) alike, starts with `<push id>
//!   invokestatic caught(I)V`; the catch-all handlers the pass appends do not get it. The handler's
//!   original offset maps to the start of that probe, so every exception-table entry that names the
//!   handler (also one whose range covers the handler itself, as javac emits for `synchronized`
//!   blocks), the stack map frame, the line number and any branch to it land on the probe: the
//!   probe runs whenever the handler runs. The frame stays valid: at the handler the exception is
//!   alone on the stack, the probe pushes the id (after the carried context, if any) and consumes
//!   it, and the locals do not change.
//!   javac never branches to a handler's start; if other code does, `caught` also runs on that
//!   path, which is harmless (the method is current there too). Why: an exception out of a
//!   `super(...)`/`this(...)` call leaves the constructor without an exit event (see
//!   "Constructors"); when a caller catches it, `caught(caller)` tells the runtime that the caller
//!   is current again, so it can close the contexts left open above it.
//! * `max_stack` grows by one (the id pushed over a return value, or over a handler's exception)
//!   and is at least 2 (the handler's exception and id); `max_locals` does not change: the probes
//!   use no locals. With a carried context, `max_stack` grows by two (the context and the id) and
//!   is at least 3, and `max_locals` grows by one (the context's local); see "Carried context".
//! * Other attributes of the Code attribute (for example `CharacterRangeTable`) are dropped, as
//!   their offsets cannot be remapped without knowing their format. Everything outside the Code
//!   attributes of probed methods is copied byte for byte (apart from wrapped native methods, see
//!   "Native methods"), and the constant pool only grows.
//!
//! # Carried context
//!
//! With [`Probes::with_carried_context`]`(C)`, the entry probe is `C enter(int)` and its result is
//! stored in local `L`, the method's original `max_locals` (`astore_<n>`, `astore` or `wide
//! astore`, whichever `L` needs); the exit, thrown and caught probes are `void m(C, int)`, called
//! with `aload L` and the id. The original code never touches `L`, so every probe after the entry
//! sees the value the entry probe returned in the same frame (the probe class decides what it is:
//! for the agent, the thread's call tree, so the other probes need no thread-local lookup).
//!
//! * **Stack maps.** Every frame of the new StackMapTable is at an offset after the entry
//!   sequence, and each gets local `L` of type `C`: the original frames (and trampoline frames,
//!   copies of them) have their locals padded with `top` up to slot `L` (a long or double counts
//!   two slots), the catch-all handler's frame is locals `[top × L, C]`, stack
//!   `[java/lang/Throwable]`, and a constructor's second handler has locals
//!   `[uninitializedThis, top × (L − 1), C]`. Class files without stack maps just get the code.
//! * **Exceptions.** The entry sequence, the `astore` included, is outside every handler range,
//!   so every handler (the method's own and the catch-all) is reached with `L` set.
//! * A method whose `max_locals` is already 65535 is skipped.
//!
//! # What is not instrumented
//!
//! * Methods the selection callback declines. [`MethodInfo::trivial`] tells it which methods are
//!   trivial (`trivial.rs`: at most 35 bytes, no call, loop, allocation, throw or monitor), for a
//!   caller that leaves those without probes.
//! * Abstract methods (no code), and native methods unless wrappers are asked for
//!   ([`Probes::native_prefix`]); the selection callback is not asked about them.
//! * The probe class itself (it would call itself); its methods are not offered to the callback.
//! * `java/lang/Object` (offered, then reported as skipped): on HotSpot 17, C2 crashed compiling a
//!   probed `Object.<init>`, and a probed (no longer empty) `Object.finalize()` makes every object
//!   finalizable. Likewise any empty `finalize()` is skipped: HotSpot registers objects for
//!   finalization only if their class's `finalize()` is more than a `return`.
//! * Methods with `jsr`/`ret` subroutines (only in class files older than version 50): left
//!   unchanged and reported as skipped.
//! * Methods whose code would exceed 65535 bytes, whose constant pool would overflow, or whose
//!   code the pass cannot follow (undecodable instructions, offsets that are not instruction
//!   starts, inconsistent stack depths in a constructor): left unchanged and reported as skipped,
//!   with a one-line reason.
//! * Hidden classes (lambda proxies, `Lookup.defineHiddenClass`) never reach a
//!   ClassFileLoadHook, so the agent cannot pass them here; the `lambda$...` bodies they call are
//!   ordinary private methods of the host class and are instrumented with it.
//!
//! What the probes see: `synchronized` methods need nothing special (the JVM releases the monitor
//! when the catch-all rethrows); `finally` blocks, duplicated by javac around returns and handled
//! by any-type handlers, keep their precedence over the catch-all; `<clinit>` and recursion are
//! ordinary methods. The pass does not detect a class that is already instrumented.
//!
//! The probe class must be loadable wherever probed code runs. For `java.base` classes that run
//! before the module system is initialized, HotSpot's boot loader loads no class outside
//! `java.base` (a probe on `-Xbootclasspath/a` fails with NoClassDefFoundError, recursively); the
//! JDK corpus test therefore uses a probe class patched into `java.lang`.
//!
//! # Native methods
//!
//! Native methods have no code to probe. With [`Probes::native_prefix`] set to `P`, they are
//! offered to the selection callback too (in class-file order with the others; never abstract
//! ones, ones with a Code attribute or ones named `<init>`/`<clinit>`, which are malformed), and
//! each selected native method `foo` is wrapped as JVMTI `SetNativeMethodPrefix` expects:
//!
//! * **The renamed native** `Pfoo`, same descriptor, is appended to the method table. Access:
//!   `private synthetic native`, plus `static` and `final` if the original had them; visibility,
//!   `synchronized`, varargs and strictfp are dropped. It has no attributes.
//! * **The wrapper** `foo` takes the original's place in the method table, with its name,
//!   descriptor, access flags without `ACC_NATIVE` (so `synchronized` stays on the wrapper, and the
//!   monitor is taken once, there) and all of its attributes (Exceptions, Signature, annotations,
//!   parameter annotations, MethodParameters, Deprecated: the public face), plus a new Code
//!   attribute: `aload_0` unless static, each argument loaded by its kind, `invokestatic Pfoo` (or,
//!   for an instance method, `invokespecial Pfoo`, a private method of this class), the matching
//!   return. That code is probed like any method's (entry, exit, catch-all; it has no handlers of
//!   its own) with the id the callback gave, and the wrapper is reported in
//!   [`Outcome::probed`] with the native method's [`MethodInfo`] as declared. The renamed natives
//!   are listed in [`Outcome::wrapped`].
//! * **Constants appended:** the Utf8 `Pfoo`, a NameAndType (`Pfoo`, the original descriptor
//!   entry) and a Methodref (this class), and the Utf8 `Code` if the class has none.
//!
//! Not wrapped (reported as skipped): natives whose name already starts with `P` (the class was
//! wrapped before) or whose renamed form a method of the class already has; a prefix that cannot
//! start a method name (empty, or containing `. ; [ / < >`); signature polymorphic methods of
//! `MethodHandle` and `VarHandle` (the JVM links their calls itself); `@CallerSensitive` natives
//! (the wrapper would become the caller they look for); a method with 65535 attributes.
//!
//! What the JVMTI caller must do: add the capability `can_set_native_method_prefix` and call
//! `SetNativeMethodPrefix(P)` with the same `P` on the environment that transforms classes,
//! before the first wrapped class loads (in `Agent_OnLoad`). The JVM then binds `Pfoo` to the JNI
//! symbol of `foo` (`Java_pkg_Cls_foo`), and `RegisterNatives` for `foo` binds `Pfoo`. Without the
//! prefix set, calls to the wrapper fail with `UnsatisfiedLinkError` for `Pfoo`.
//!
//! Wrapping changes the class's method set, which JVMTI allows when a class is first loaded but
//! not when it is retransformed (or redefined). A retransforming ClassFileLoadHook receives the
//! class's original bytes, so the class must come out with the same methods it has: turn wrapping
//! off (`native_prefix: None`) for classes that were loaded without wrappers (classes loaded
//! before the agent was ready, classes already loaded at a late attach), and for classes that were
//! wrapped at their first load, wrap again with the same prefix and the same selection of natives.
//!
//! A wrapper adds a frame: stack traces and stack walks show both `foo` and `Pfoo`. HotSpot's
//! intrinsics are matched by class, name and descriptor: compiled code may replace a call to an
//! intrinsic's wrapper (no events, as for the native), while the renamed native is no longer an
//! intrinsic. So natives of the JDK, above all of `java.base` (intrinsics, natives the VM
//! registers or looks up itself, `Thread`, `Continuation`, `Throwable.fillInStackTrace`), are
//! best not selected; the tests wrap the JDK's natives outside `java.base` only to verify them.
//!
//! # Class-file library
//!
//! `ristretto_classfile` (0.31, the newest that builds with rustc 1.95) parses the constant pool,
//! decodes instructions, and reads and writes stack map frames, verification types and type
//! annotations. Its whole-class writer is not used: on this version a round trip of an unchanged
//! class already corrupts some methods (seen on javac output: a StackMapTable whose first frame is
//! at offset 0 gets the wrong delta for its second frame, which HotSpot rejects; an exception range
//! ending at the end of the code loses its last instruction), and as its source reads, it does not
//! remap LocalVariableTable offsets, keeps `same_frame` types whose delta no longer fits, and does
//! not widen branches. So this crate locates the class file's parts by byte range, copies what it
//! does not change, and encodes the new Code attributes itself.

mod classfile;
mod code;
mod ctor;
mod fields;
mod frames;
mod insn;
mod natives;
mod park;
mod trivial;

use std::fmt;

pub use fields::add_field;
pub use park::{wrap_park, ParkMethod, ParkWrapped, LOCK_SUPPORT, PARK_NATIVES};

/// The probe methods to call and what else to insert: internal names, for example
/// `Probes::new("hpmagent/Probe", "enter", "exit").with_thrown("thrown").with_caught("caught")`.
/// Every probe is a `static void m(int)` of `class`; with a carried context of type `C`
/// ([`Probes::with_carried_context`]) the entry probe is a `static C m(int)` and the others are
/// `static void m(C, int)`. Built with [`Probes::new`] and the `with_*` methods (the struct is
/// `non_exhaustive`); a field left `None` keeps the behaviour of the pass without it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Probes {
    pub class: String,
    /// Called at the start of every probed method.
    pub enter: String,
    /// Called before every return.
    pub exit: String,
    /// Called by the catch-all handlers, before they rethrow: an exit by exception. `None`: they
    /// call `exit`.
    pub thrown: Option<String>,
    /// Called at the start of every handler of the method's own exception table (catch and
    /// `finally` handlers alike): the method is current again. `None`: nothing is inserted there.
    pub caught: Option<String>,
    /// Native methods are offered to the selection callback, and a selected one is renamed with
    /// this prefix and gets a probed wrapper under its own name (see the crate docs, "Native
    /// methods"). The same prefix must be given to JVMTI `SetNativeMethodPrefix`. `None`: native
    /// methods are neither offered nor changed.
    pub native_prefix: Option<String>,
    /// The field descriptor of a reference type `C` (for example `Lhpmagent/probe/Probe$Shadow;`):
    /// the entry probe returns a `C`, which the method keeps in a local variable of its own and
    /// passes to each of its other probes before the id (see the crate docs, "Carried context").
    /// `None`: the probes take the id alone and the methods get no local.
    pub context: Option<String>,
}

impl Probes {
    /// Entry and exit probes only: exits by exception call `exit`, handlers get no probe, native
    /// methods are left alone.
    pub fn new(class: impl Into<String>, enter: impl Into<String>, exit: impl Into<String>) -> Probes {
        Probes {
            class: class.into(),
            enter: enter.into(),
            exit: exit.into(),
            thrown: None,
            caught: None,
            native_prefix: None,
            context: None,
        }
    }

    /// The catch-all handlers call `method` instead of `exit`.
    pub fn with_thrown(mut self, method: impl Into<String>) -> Probes {
        self.thrown = Some(method.into());
        self
    }

    /// Every exception handler of the method starts with a call to `method`.
    pub fn with_caught(mut self, method: impl Into<String>) -> Probes {
        self.caught = Some(method.into());
        self
    }

    /// Selected native methods are wrapped, the natives renamed with `prefix`. Only for a class's
    /// first load, or for retransforming a class that was wrapped the same way at its first load.
    pub fn with_native_prefix(mut self, prefix: impl Into<String>) -> Probes {
        self.native_prefix = Some(prefix.into());
        self
    }

    /// The entry probe returns a context of the reference type with this field descriptor, which
    /// the other probes receive before the id. A descriptor that is not one reference type makes
    /// [`instrument`] fail.
    pub fn with_carried_context(mut self, descriptor: impl Into<String>) -> Probes {
        self.context = Some(descriptor.into());
        self
    }
}

/// A method as declared in the class file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MethodInfo {
    pub name: String,
    pub descriptor: String,
    pub access: u16,
    /// Its code is trivial (`trivial.rs`: at most 35 bytes of bytecode, no call, loop,
    /// allocation, throw, monitor or handler): a caller may leave such a method without probes.
    pub trivial: bool,
}

/// A class with probes added.
#[derive(Debug, Clone)]
pub struct Instrumented {
    /// The new class file.
    pub bytes: Vec<u8>,
    /// Internal form, for example `com/acme/Foo`.
    pub class_name: String,
    /// All methods declared by the class, in class-file order.
    pub methods: Vec<MethodInfo>,
    /// Methods that got probes, with the id the callback gave (a wrapped native method: with its
    /// MethodInfo as declared, access flags including `ACC_NATIVE`).
    pub probed: Vec<(MethodInfo, u32)>,
    /// Methods selected but left unchanged, with a one-line reason.
    pub skipped: Vec<(MethodInfo, String)>,
    /// The renamed native methods added for wrapped ones, in the order appended to the method
    /// table (empty unless [`Probes::native_prefix`] is set).
    pub wrapped: Vec<MethodInfo>,
}

/// Everything the pass decided about one class, also when nothing was probed
/// ([`instrument_outcome`]).
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The new class file, `None` when no method was probed (the class is unchanged).
    pub bytes: Option<Vec<u8>>,
    pub class_name: String,
    pub methods: Vec<MethodInfo>,
    pub probed: Vec<(MethodInfo, u32)>,
    pub skipped: Vec<(MethodInfo, String)>,
    /// See [`Instrumented::wrapped`].
    pub wrapped: Vec<MethodInfo>,
}

/// A class file that cannot be read. Display: one line naming the class (if known) and the cause.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    class: Option<String>,
    cause: String,
}

impl Error {
    /// The class's internal name, if the class file got that far.
    pub fn class(&self) -> Option<&str> {
        self.class.as_deref()
    }
    pub fn cause(&self) -> &str {
        &self.cause
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.class {
            Some(c) => write!(f, "class {}: {}", OneLine(c), OneLine(&self.cause)),
            None => write!(f, "class file: {}", OneLine(&self.cause)),
        }
    }
}

/// Control characters (a class name can hold any) escaped, so that messages stay on one line.
struct OneLine<'s>(&'s str);

impl fmt::Display for OneLine<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in self.0.chars() {
            if c.is_control() {
                write!(f, "{}", c.escape_default())?;
            } else {
                write!(f, "{c}")?;
            }
        }
        Ok(())
    }
}

impl std::error::Error for Error {}

const ACC_PRIVATE: u16 = 0x0002;
const ACC_STATIC: u16 = 0x0008;
const ACC_FINAL: u16 = 0x0010;
const ACC_VARARGS: u16 = 0x0080;
const ACC_NATIVE: u16 = 0x0100;
const ACC_ABSTRACT: u16 = 0x0400;
const ACC_SYNTHETIC: u16 = 0x1000;

/// The internal name of the class (`this_class`), reading no further than the constant pool.
pub fn class_name(class_file: &[u8]) -> Result<String, Error> {
    classfile::parse_header(class_file).map(|h| h.4).map_err(|cause| Error { class: None, cause })
}

/// Adds probes to the methods `select` chooses. `select` is called for each method with code
/// that could be probed, and for each native method when [`Probes::native_prefix`] is set, in
/// class-file order; it returns `Some(id)` to probe it (a native method: to wrap it and probe the
/// wrapper with that id).
/// `Ok(None)`: nothing was probed (the class is unchanged).
pub fn instrument(
    class_file: &[u8],
    probes: &Probes,
    select: &mut dyn FnMut(&MethodInfo) -> Option<u32>,
) -> Result<Option<Instrumented>, Error> {
    let o = instrument_outcome(class_file, probes, select)?;
    Ok(o.bytes.map(|bytes| Instrumented {
        bytes,
        class_name: o.class_name,
        methods: o.methods,
        probed: o.probed,
        skipped: o.skipped,
        wrapped: o.wrapped,
    }))
}

/// Like [`instrument`], but also reports the methods and the skipped ones when nothing was probed.
pub fn instrument_outcome(
    class_file: &[u8],
    probes: &Probes,
    select: &mut dyn FnMut(&MethodInfo) -> Option<u32>,
) -> Result<Outcome, Error> {
    let class = classfile::parse(class_file).map_err(|(class, cause)| Error { class, cause })?;
    let carried = match &probes.context {
        Some(d) => Some(code::Carried::new(d).ok_or_else(|| Error {
            class: Some(class.name.clone()),
            cause: format!("the carried context type {d:?} is not the descriptor of a reference type"),
        })?),
        None => None,
    };
    let methods: Vec<MethodInfo> = class
        .methods
        .iter()
        .map(|m| MethodInfo { name: m.name.clone(), descriptor: m.descriptor.clone(), access: m.access, trivial: trivial::is_trivial(&class, m) })
        .collect();
    let mut outcome = Outcome {
        bytes: None,
        class_name: class.name.clone(),
        methods,
        probed: Vec::new(),
        skipped: Vec::new(),
        wrapped: Vec::new(),
    };
    if class.name == probes.class {
        return Ok(outcome);
    }
    let prefix = probes.native_prefix.as_deref();
    let mut chosen = Vec::new();
    for (k, m) in class.methods.iter().enumerate() {
        let offered = if m.access & ACC_NATIVE != 0 {
            // A native method with code, abstract or named <init>/<clinit> is malformed.
            prefix.is_some() && m.code.is_none() && m.access & ACC_ABSTRACT == 0 && !m.name.starts_with('<')
        } else {
            m.code.is_some() && m.access & ACC_ABSTRACT == 0
        };
        if offered {
            if let Some(id) = select(&outcome.methods[k]) {
                chosen.push((k, id));
            }
        }
    }
    if chosen.is_empty() {
        return Ok(outcome);
    }
    if class.name == "java/lang/Object" {
        // Checked on HotSpot 17: C2 crashes compiling a probed Object.<init>, and a probed
        // finalize() makes every object finalizable.
        for (k, _) in chosen {
            outcome.skipped.push((outcome.methods[k].clone(), "java/lang/Object is never instrumented (HotSpot relies on its methods)".into()));
        }
        return Ok(outcome);
    }
    if let Some(prefix) = prefix {
        let natives = chosen.iter().filter(|&&(k, _)| class.methods[k].access & ACC_NATIVE != 0).count();
        let too_many = class.methods.len() + natives > usize::from(u16::MAX);
        chosen.retain(|&(k, _)| {
            let m = &class.methods[k];
            if m.access & ACC_NATIVE == 0 {
                return true;
            }
            let why = if too_many { Some("the method table would exceed 65535 methods".into()) } else { natives::unwrappable(&class, m, prefix) };
            if let Some(why) = &why {
                outcome.skipped.push((outcome.methods[k].clone(), why.clone()));
            }
            why.is_none()
        });
        if chosen.is_empty() {
            return Ok(outcome);
        }
    }
    let mut pool = classfile::PoolAdd::new(&class.pool, class.pool_count);
    let (enter_desc, other_desc) = carried.as_ref().map_or((code::PROBE_DESCRIPTOR, code::PROBE_DESCRIPTOR), |c| (&c.enter, &c.other));
    let refs = (|| {
        let c = pool.probe_class(&probes.class)?;
        let exit = pool.probe_ref(c, &probes.exit, other_desc)?;
        Ok::<_, classfile::PoolFull>(code::ProbeRefs {
            class: c,
            enter: pool.probe_ref(c, &probes.enter, enter_desc)?,
            exit,
            thrown: match &probes.thrown {
                Some(name) => pool.probe_ref(c, name, other_desc)?,
                None => exit,
            },
        })
    })();
    let Ok(refs) = refs else {
        for (k, _) in chosen {
            outcome.skipped.push((outcome.methods[k].clone(), "constant pool full".into()));
        }
        return Ok(outcome);
    };
    let mut ctx = code::Ctx::new(&class, pool, refs, probes.caught.as_deref(), carried.as_ref());
    let mut edits: Vec<Edit> = (0..class.methods.len()).map(|_| Edit::Keep).collect();
    let mut renamed: Vec<natives::Renamed> = Vec::new();
    for (pos, &(k, id)) in chosen.iter().enumerate() {
        let m = &class.methods[k];
        let result = match prefix {
            Some(prefix) if m.access & ACC_NATIVE != 0 => natives::wrap(&mut ctx, m, prefix, id).map(|(code, r)| {
                outcome.wrapped.push(MethodInfo { name: r.name.clone(), descriptor: m.descriptor.clone(), access: r.access, trivial: false });
                renamed.push(r);
                Edit::Wrap(code)
            }),
            _ => code::rewrite(&mut ctx, m, id).map(Edit::Code),
        };
        match result {
            Ok(edit) => {
                edits[k] = edit;
                outcome.probed.push((outcome.methods[k].clone(), id));
            }
            Err(code::Skip::Reason(r)) => outcome.skipped.push((outcome.methods[k].clone(), r)),
            Err(code::Skip::PoolFull) => {
                // The constants of this and the later methods do not fit, and those of the earlier
                // ones are in the same pool: nothing is probed.
                let full = |m: &MethodInfo| (m.clone(), "constant pool full".to_string());
                let earlier: Vec<_> = outcome.probed.drain(..).map(|(m, _)| full(&m)).collect();
                outcome.skipped.extend(earlier);
                outcome.skipped.extend(chosen[pos..].iter().map(|&(k, _)| full(&outcome.methods[k])));
                outcome.wrapped.clear();
                return Ok(outcome);
            }
        }
    }
    if outcome.probed.is_empty() {
        return Ok(outcome);
    }
    outcome.bytes = Some(assemble(&class, &ctx.pool, &edits, &renamed));
    Ok(outcome)
}

/// What becomes of one method_info.
enum Edit {
    Keep,
    /// The Code attribute is replaced by this one.
    Code(Vec<u8>),
    /// A wrapped native method: becomes the wrapper (its access flags lose `ACC_NATIVE`), with this
    /// Code attribute added before its own attributes.
    Wrap(Vec<u8>),
}

/// The original bytes with the pool extended, the rewritten Code attributes in place, the wrapped
/// native methods turned into their wrappers and the renamed natives appended to the method table.
fn assemble(class: &classfile::ClassLayout<'_>, pool: &classfile::PoolAdd<'_, '_>, edits: &[Edit], renamed: &[natives::Renamed]) -> Vec<u8> {
    let b = class.bytes;
    let extra: usize = edits.iter().map(|e| if let Edit::Code(c) | Edit::Wrap(c) = e { c.len() } else { 0 }).sum();
    let mut out = Vec::with_capacity(b.len() + pool.bytes.len() + extra + 8 * renamed.len());
    out.extend_from_slice(&b[..8]);
    out.extend_from_slice(&pool.count().to_be_bytes());
    out.extend_from_slice(&b[10..class.pool_end]);
    out.extend_from_slice(&pool.bytes);
    let mut copied = class.pool_end;
    if !renamed.is_empty() {
        out.extend_from_slice(&b[copied..class.methods_at]);
        // Checked in instrument_outcome: the count fits.
        out.extend_from_slice(&((class.methods.len() + renamed.len()) as u16).to_be_bytes());
        copied = class.methods_at + 2;
    }
    for (m, edit) in class.methods.iter().zip(edits) {
        match (edit, m.code) {
            (Edit::Code(code), Some((start, end))) => {
                out.extend_from_slice(&b[copied..start]);
                out.extend_from_slice(code);
                copied = end;
            }
            (Edit::Wrap(code), _) => {
                let (start, at) = (m.range.0, m.attributes_at);
                out.extend_from_slice(&b[copied..start]);
                out.extend_from_slice(&(m.access & !ACC_NATIVE).to_be_bytes());
                out.extend_from_slice(&b[start + 2..at]);
                // Checked in natives::unwrappable: the count fits.
                let count = u16::from_be_bytes([b[at], b[at + 1]]) + 1;
                out.extend_from_slice(&count.to_be_bytes());
                out.extend_from_slice(code);
                copied = at + 2;
            }
            _ => {}
        }
    }
    if !renamed.is_empty() {
        out.extend_from_slice(&b[copied..class.methods_end]);
        for r in renamed {
            for v in [r.access, r.name_index, r.descriptor_index, 0] {
                out.extend_from_slice(&v.to_be_bytes());
            }
        }
        copied = class.methods_end;
    }
    out.extend_from_slice(&b[copied..]);
    out
}
