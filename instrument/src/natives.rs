//! Wrappers for native methods: the native method `foo` becomes the private synthetic native
//! `PREFIXfoo`, appended to the method table, and in its place a method `foo` with the original
//! descriptor, access flags (without `ACC_NATIVE`) and attributes calls it; the wrapper is then
//! probed like any method. JVMTI `SetNativeMethodPrefix(PREFIX)` makes the JVM bind `PREFIXfoo`
//! to the native code of `foo`.

use crate::classfile::{mutf8, utf8, ClassLayout, MethodLayout, Reader};
use crate::code::{self, Ctx, Skip};
use crate::{ACC_FINAL, ACC_NATIVE, ACC_PRIVATE, ACC_STATIC, ACC_SYNTHETIC, ACC_VARARGS};

/// A renamed native method, as appended to the method table (without attributes).
pub(crate) struct Renamed {
    pub name: String,
    pub name_index: u16,
    pub descriptor_index: u16,
    pub access: u16,
}

/// The renamed native's access flags: private, synthetic and native; `static` and `final` are
/// kept, everything else (visibility, `synchronized`, which the wrapper keeps, varargs, strictfp)
/// is dropped.
pub(crate) fn renamed_access(access: u16) -> u16 {
    ACC_NATIVE | ACC_PRIVATE | ACC_SYNTHETIC | (access & (ACC_STATIC | ACC_FINAL))
}

/// Annotation types that make a method depend on who calls it: a wrapper would become its caller.
const CALLER_SENSITIVE: [&[u8]; 2] = [b"Ljdk/internal/reflect/CallerSensitive;", b"Lsun/reflect/CallerSensitive;"];

/// Why a selected native method cannot be wrapped with this prefix, if it cannot.
pub(crate) fn unwrappable(class: &ClassLayout<'_>, m: &MethodLayout, prefix: &str) -> Option<String> {
    if prefix.is_empty() || prefix.contains(['.', ';', '[', '/', '<', '>']) {
        return Some(format!("native method prefix {prefix:?} is not a valid start of a method name"));
    }
    if m.name.starts_with(prefix) {
        return Some("the native method already carries the native method prefix".into());
    }
    let renamed = format!("{prefix}{}", m.name);
    if class.methods.iter().any(|o| o.name == renamed && o.descriptor == m.descriptor) {
        return Some(format!("the class already has a method {renamed}{}", m.descriptor));
    }
    if matches!(class.name.as_str(), "java/lang/invoke/MethodHandle" | "java/lang/invoke/VarHandle")
        && m.access & ACC_VARARGS != 0
        && m.descriptor.starts_with("([Ljava/lang/Object;)")
    {
        return Some("signature polymorphic method: the JVM links its calls itself".into());
    }
    let mut r = Reader::new(&class.bytes[..m.range.1], m.attributes_at);
    let count = r.u16("").ok()?;
    if count == u16::MAX {
        return Some("the method has 65535 attributes: no room for a Code attribute".into());
    }
    for _ in 0..count {
        let name = r.u16("").ok()?;
        let len = r.u32("").ok()?;
        let body = r.take(len as usize, "").ok()?;
        if utf8(&class.pool, name).is_some_and(|n| n.as_bytes() == b"RuntimeVisibleAnnotations") && annotated(class, body, &CALLER_SENSITIVE) {
            return Some("@CallerSensitive: a wrapper would become the caller the native method looks for".into());
        }
    }
    None
}

/// Whether a RuntimeVisibleAnnotations body names one of these annotation types (unreadable
/// bodies name none).
fn annotated(class: &ClassLayout<'_>, body: &[u8], types: &[&[u8]]) -> bool {
    use ristretto_classfile::attributes::Annotation;
    use ristretto_classfile::byte_reader::ByteReader;
    let mut r = ByteReader::new(body);
    let Ok(n) = r.read_u16() else { return false };
    for _ in 0..n {
        let Ok(a) = Annotation::from_bytes(&mut r) else { return false };
        if utf8(&class.pool, a.type_index).is_some_and(|t| types.contains(&t.as_bytes())) {
            return true;
        }
    }
    false
}

/// The probed wrapper's Code attribute and the renamed native, with their constants added.
pub(crate) fn wrap(ctx: &mut Ctx<'_, '_, '_>, m: &MethodLayout, prefix: &str, id: u32) -> Result<(Vec<u8>, Renamed), Skip> {
    let class = ctx.class;
    let original = utf8(&class.pool, m.name_index).ok_or("method name is not a Utf8 constant")?;
    let mut name = mutf8(prefix);
    name.extend_from_slice(original.as_bytes());
    let name_index = ctx.pool.utf8(&name)?;
    let target = ctx.pool.methodref(class.this_class, name_index, m.descriptor_index)?;
    let code_name = ctx.code_name()?;
    let body = code::wrapper_code(code_name, &m.descriptor, m.access & ACC_STATIC != 0, target)?;
    let attr = code::rewrite_code(ctx, &body, &m.name, &m.descriptor, m.access & !ACC_NATIVE, id)?;
    let renamed = Renamed {
        name: format!("{prefix}{}", m.name),
        name_index,
        descriptor_index: m.descriptor_index,
        access: renamed_access(m.access),
    };
    Ok((attr, renamed))
}
