//! Adding an instance field to a class file, at the class's first load (a retransformation may
//! not change a class's fields). The agent gives `java.lang.Thread` a field for the thread's call
//! tree, so that a probe finds it in three loads instead of a `ThreadLocal` look-up.

use crate::classfile::{self, mutf8, PoolAdd, Reader};
use crate::Error;

/// `class_file` with one more field, declared after the others: `access` flags, `name` and field
/// `descriptor` (for example `Ljava/lang/Object;`), no attributes. Everything else is copied byte
/// for byte (the constant pool only grows). Fails if the class has a field of that name already.
pub fn add_field(class_file: &[u8], access: u16, name: &str, descriptor: &str) -> Result<Vec<u8>, Error> {
    let (_major, pool, pool_end, _this, class) = classfile::parse_header(class_file).map_err(|cause| Error { class: None, cause })?;
    let named = |cause: String| Error { class: Some(class.clone()), cause };
    let pool_count = u16::from_be_bytes([class_file[8], class_file[9]]);
    // access, this_class, super_class, then the interfaces.
    let mut r = Reader::new(class_file, pool_end + 6);
    let interfaces = r.u16("interfaces").map_err(named)?;
    r.take(2 * usize::from(interfaces), "interfaces").map_err(named)?;
    let fields_at = r.pos;
    let fields = r.u16("fields").map_err(named)?;
    for _ in 0..fields {
        r.take(2, "field").map_err(named)?;
        let name_index = r.u16("field").map_err(named)?;
        r.take(2, "field").map_err(named)?;
        if classfile::utf8(&pool, name_index).is_some_and(|n| n.to_rust_string() == name) {
            return Err(named(format!("it has a field named {name} already")));
        }
        let n = r.u16("field attributes").map_err(named)?;
        for _ in 0..n {
            r.take(2, "field attribute").map_err(named)?;
            let len = r.u32("field attribute").map_err(named)?;
            r.take(len as usize, "field attribute").map_err(named)?;
        }
    }
    let fields_end = r.pos;
    let full = |_| named("its constant pool is full".into());
    let mut add = PoolAdd::new(&pool, pool_count);
    let name_index = add.utf8(&mutf8(name)).map_err(full)?;
    let descriptor_index = add.utf8(&mutf8(descriptor)).map_err(full)?;
    let count = fields.checked_add(1).ok_or_else(|| named("it has 65535 fields".into()))?;

    let mut out = Vec::with_capacity(class_file.len() + add.bytes.len() + 8);
    out.extend_from_slice(&class_file[..8]);
    out.extend_from_slice(&add.count().to_be_bytes());
    out.extend_from_slice(&class_file[10..pool_end]);
    out.extend_from_slice(&add.bytes);
    out.extend_from_slice(&class_file[pool_end..fields_at]);
    out.extend_from_slice(&count.to_be_bytes());
    out.extend_from_slice(&class_file[fields_at + 2..fields_end]);
    for v in [access, name_index, descriptor_index, 0] {
        out.extend_from_slice(&v.to_be_bytes());
    }
    out.extend_from_slice(&class_file[fields_end..]);
    Ok(out)
}
