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
//!  <push id> invokestatic Probe.exit(I)V       ← new catch-all handler, last in the exception
//!  athrow                                         table, covering all the original code
//! ```
//!
//! The id is pushed with the shortest of `iconst_*`, `bipush`, `sipush` and `ldc`/`ldc_w` (an
//! Integer constant); the probe receives the `u32` returned by the selection callback as a Java
//! `int` with the same bits.
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
//!   the catch-all entries are appended last. The handler's frame is `full_frame`, locals `[]`,
//!   stack `[java/lang/Throwable]`: it needs neither `this` nor the parameters. The catch-all
//!   covers the exit probes too, so an exception thrown by an exit probe (after it recorded the
//!   exit) would report a second exit; the entry probe is outside every handler, so if it throws
//!   no exit is reported. The probes are expected not to throw.
//! * **Constructors.** Before `super(...)`/`this(...)` local 0 is `uninitializedThis`, and the
//!   verifier rejects a handler whose frame lacks it for those instructions. An abstract
//!   interpretation (module `ctor`) follows `uninitializedThis` through locals and the stack over
//!   the control-flow graph; instructions before the initializing call are covered by a second
//!   handler with locals `[uninitializedThis]` (it only rethrows, which is legal there), those
//!   after it by the ordinary one. The initializing `invokespecial` itself is covered by neither:
//!   HotSpot checks a handler covering it with the flagThisUninit of the incoming state and the
//!   initialized `this` of the outgoing one, and no stack map frame accepts both. **So an
//!   exception thrown out of the super or this constructor leaves the instrumented constructor
//!   without an exit event**; the called constructor, if instrumented, reports its own. Exceptions
//!   thrown by the argument evaluation before the call, or anywhere after it, report one exit.
//!   Code where paths with and without an initialized `this` meet, or where local 0 no longer holds
//!   `uninitializedThis` before the call, is left uncovered the same way (javac emits neither).
//! * **Stack maps.** Class files of version 51 and later always get a StackMapTable for probed
//!   methods. Version 50 keeps one if the method had one, and gets one if the method has no
//!   branches or handlers; otherwise the JVM verifies it with the old inference verifier, as it
//!   did the original. Versions before 50 get none (a StackMapTable there is ignored by the JVM
//!   and is dropped).
//! * `max_stack` grows by one (the id pushed over a return value) and is at least 2 (the handler's
//!   exception and id); `max_locals` does not change: the probes use no locals.
//! * Other attributes of the Code attribute (for example `CharacterRangeTable`) are dropped, as
//!   their offsets cannot be remapped without knowing their format. Everything outside the Code
//!   attributes of probed methods is copied byte for byte, and the constant pool only grows.
//!
//! # What is not instrumented
//!
//! * Abstract and native methods (no code); the selection callback is not asked about them.
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
mod frames;
mod insn;

use std::fmt;

/// The probe methods to call: internal names, for example `"hpmagent/Probe"`, `"enter"`, `"exit"`.
/// Both are `static void m(int)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Probes {
    pub class: String,
    pub enter: String,
    pub exit: String,
}

/// A method as declared in the class file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MethodInfo {
    pub name: String,
    pub descriptor: String,
    pub access: u16,
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
    /// Methods that got probes, with the id the callback gave.
    pub probed: Vec<(MethodInfo, u32)>,
    /// Methods selected but left unchanged, with a one-line reason.
    pub skipped: Vec<(MethodInfo, String)>,
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

const ACC_NATIVE: u16 = 0x0100;
const ACC_ABSTRACT: u16 = 0x0400;

/// The internal name of the class (`this_class`), reading no further than the constant pool.
pub fn class_name(class_file: &[u8]) -> Result<String, Error> {
    classfile::parse_header(class_file).map(|h| h.4).map_err(|cause| Error { class: None, cause })
}

/// Adds probes to the methods `select` chooses. `select` is called for each method with code
/// that could be probed, in class-file order; it returns `Some(id)` to probe it.
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
    }))
}

/// Like [`instrument`], but also reports the methods and the skipped ones when nothing was probed.
pub fn instrument_outcome(
    class_file: &[u8],
    probes: &Probes,
    select: &mut dyn FnMut(&MethodInfo) -> Option<u32>,
) -> Result<Outcome, Error> {
    let class = classfile::parse(class_file).map_err(|(class, cause)| Error { class, cause })?;
    let methods: Vec<MethodInfo> = class
        .methods
        .iter()
        .map(|m| MethodInfo { name: m.name.clone(), descriptor: m.descriptor.clone(), access: m.access })
        .collect();
    let mut outcome =
        Outcome { bytes: None, class_name: class.name.clone(), methods, probed: Vec::new(), skipped: Vec::new() };
    if class.name == probes.class {
        return Ok(outcome);
    }
    let mut chosen = Vec::new();
    for (k, m) in class.methods.iter().enumerate() {
        if m.code.is_some() && m.access & (ACC_ABSTRACT | ACC_NATIVE) == 0 {
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
    let mut pool = classfile::PoolAdd::new(&class.pool, class.pool_count);
    let Ok((enter, exit)) = pool.probe_refs(&probes.class, &probes.enter, &probes.exit) else {
        for (k, _) in chosen {
            outcome.skipped.push((outcome.methods[k].clone(), "constant pool full".into()));
        }
        return Ok(outcome);
    };
    let mut ctx = code::Ctx::new(&class, pool, enter, exit);
    let mut new_code: Vec<Option<Vec<u8>>> = vec![None; class.methods.len()];
    for (pos, &(k, id)) in chosen.iter().enumerate() {
        match code::rewrite(&mut ctx, &class.methods[k], id) {
            Ok(attr) => {
                new_code[k] = Some(attr);
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
                return Ok(outcome);
            }
        }
    }
    if outcome.probed.is_empty() {
        return Ok(outcome);
    }
    outcome.bytes = Some(assemble(&class, &ctx.pool, &new_code));
    Ok(outcome)
}

/// The original bytes with the pool extended and the rewritten Code attributes in place.
fn assemble(class: &classfile::ClassLayout<'_>, pool: &classfile::PoolAdd<'_, '_>, new_code: &[Option<Vec<u8>>]) -> Vec<u8> {
    let b = class.bytes;
    let extra: usize = new_code.iter().flatten().map(Vec::len).sum();
    let mut out = Vec::with_capacity(b.len() + pool.bytes.len() + extra);
    out.extend_from_slice(&b[..8]);
    out.extend_from_slice(&pool.count().to_be_bytes());
    out.extend_from_slice(&b[10..class.pool_end]);
    out.extend_from_slice(&pool.bytes);
    let mut copied = class.pool_end;
    for (m, code) in class.methods.iter().zip(new_code) {
        if let (Some(code), Some((start, end))) = (code, m.code) {
            out.extend_from_slice(&b[copied..start]);
            out.extend_from_slice(code);
            copied = end;
        }
    }
    out.extend_from_slice(&b[copied..]);
    out
}
