//! The class file's outer layout and the constant pool entries the pass appends.
//!
//! The constant pool is parsed by `ristretto_classfile`. Everything else is located by byte range
//! only, so that the output is the input with the constant pool extended and the Code attributes of
//! probed methods replaced: fields, other attributes and untouched methods are copied byte for byte.

use ristretto_classfile::byte_reader::ByteReader;
use ristretto_classfile::{Constant, ConstantPool, JavaStr, JavaString};
use std::collections::HashMap;

/// A bounds-checked big-endian reader whose errors say what was being read.
pub(crate) struct Reader<'a> {
    pub bytes: &'a [u8],
    pub pos: usize,
}

impl<'a> Reader<'a> {
    pub fn new(bytes: &'a [u8], pos: usize) -> Self {
        Reader { bytes, pos }
    }
    pub fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], String> {
        let s = self
            .pos
            .checked_add(n)
            .and_then(|end| self.bytes.get(self.pos..end))
            .ok_or_else(|| format!("truncated {what} at byte {}", self.pos))?;
        self.pos += n;
        Ok(s)
    }
    pub fn u16(&mut self, what: &str) -> Result<u16, String> {
        let b = self.take(2, what)?;
        Ok(u16::from_be_bytes([b[0], b[1]]))
    }
    pub fn u32(&mut self, what: &str) -> Result<u32, String> {
        let b = self.take(4, what)?;
        Ok(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }
}

pub(crate) struct MethodLayout {
    pub access: u16,
    pub name: String,
    pub descriptor: String,
    pub name_index: u16,
    pub descriptor_index: u16,
    /// Byte range of the whole method_info.
    pub range: (usize, usize),
    /// Where its attributes_count is.
    pub attributes_at: usize,
    /// Byte range of the whole Code attribute (header included), if any.
    pub code: Option<(usize, usize)>,
}

pub(crate) struct ClassLayout<'a> {
    pub bytes: &'a [u8],
    pub major: u16,
    pub pool: ConstantPool<'a>,
    pub pool_count: u16,
    pub pool_end: usize,
    pub this_class: u16,
    pub name: String,
    /// Where methods_count is, and the end of the method table.
    pub methods_at: usize,
    pub methods_end: usize,
    pub methods: Vec<MethodLayout>,
}

pub(crate) fn utf8<'p>(pool: &'p ConstantPool<'_>, index: u16) -> Option<&'p JavaStr> {
    pool.try_get_utf8(index).ok()
}

pub(crate) fn class_name_at(pool: &ConstantPool<'_>, index: u16) -> Option<String> {
    match pool.get(index)? {
        Constant::Class(name) => utf8(pool, *name).map(JavaStr::to_rust_string),
        _ => None,
    }
}

/// Magic, versions, constant pool and this_class: enough to name the class.
pub(crate) fn parse_header(bytes: &[u8]) -> Result<(u16, ConstantPool<'_>, usize, u16, String), String> {
    let mut r = Reader::new(bytes, 0);
    if r.u32("magic")? != 0xCAFE_BABE {
        return Err("not a class file (bad magic)".into());
    }
    let _minor = r.u16("version")?;
    let major = r.u16("version")?;
    let mut br = ByteReader::new(bytes);
    br.set_position(8);
    let pool = ConstantPool::from_bytes(&mut br).map_err(|e| format!("bad constant pool: {e}"))?;
    let pool_end = br.position();
    let mut r = Reader::new(bytes, pool_end);
    let _access = r.u16("access flags")?;
    let this_class = r.u16("this_class")?;
    let name = class_name_at(&pool, this_class).ok_or_else(|| format!("this_class #{this_class} is not a class constant"))?;
    Ok((major, pool, pool_end, this_class, name))
}

pub(crate) fn parse(bytes: &[u8]) -> Result<ClassLayout<'_>, (Option<String>, String)> {
    let (major, pool, pool_end, this_class, name) = parse_header(bytes).map_err(|e| (None, e))?;
    let pool_count = u16::from_be_bytes([bytes[8], bytes[9]]);
    let named = |e: String| (Some(name.clone()), e);
    let mut r = Reader::new(bytes, pool_end + 6);
    let interfaces = r.u16("interfaces").map_err(named)?;
    r.take(2 * usize::from(interfaces), "interfaces").map_err(named)?;
    let fields = r.u16("fields").map_err(named)?;
    for _ in 0..fields {
        r.take(6, "field").map_err(named)?;
        skip_attributes(&mut r).map_err(named)?;
    }
    let methods_at = r.pos;
    let count = r.u16("methods").map_err(named)?;
    let mut methods = Vec::with_capacity(usize::from(count));
    for _ in 0..count {
        methods.push(parse_method(&mut r, &pool).map_err(named)?);
    }
    let methods_end = r.pos;
    skip_attributes(&mut r).map_err(named)?;
    if r.pos != bytes.len() {
        return Err(named(format!("{} bytes after the end of the class file", bytes.len() - r.pos)));
    }
    Ok(ClassLayout { bytes, major, pool, pool_count, pool_end, this_class, name, methods_at, methods_end, methods })
}

fn skip_attributes(r: &mut Reader<'_>) -> Result<(), String> {
    let n = r.u16("attributes")?;
    for _ in 0..n {
        r.take(2, "attribute")?;
        let len = r.u32("attribute")?;
        r.take(len as usize, "attribute")?;
    }
    Ok(())
}

fn parse_method(r: &mut Reader<'_>, pool: &ConstantPool<'_>) -> Result<MethodLayout, String> {
    let start = r.pos;
    let access = r.u16("method")?;
    let name_index = r.u16("method")?;
    let desc_index = r.u16("method")?;
    let name = utf8(pool, name_index).ok_or_else(|| format!("method name #{name_index} is not a Utf8 constant"))?;
    let descriptor = utf8(pool, desc_index).ok_or_else(|| format!("method descriptor #{desc_index} is not a Utf8 constant"))?;
    let mut code = None;
    let attributes_at = r.pos;
    let n = r.u16("method attributes")?;
    for _ in 0..n {
        let attr_start = r.pos;
        let attr_name = r.u16("method attribute")?;
        let len = r.u32("method attribute")?;
        r.take(len as usize, "method attribute")?;
        if utf8(pool, attr_name).is_some_and(|s| s.as_bytes() == b"Code") {
            if code.is_some() {
                return Err(format!("method {name} has two Code attributes"));
            }
            code = Some((attr_start, r.pos));
        }
    }
    Ok(MethodLayout {
        access,
        name: name.to_rust_string(),
        descriptor: descriptor.to_rust_string(),
        name_index,
        descriptor_index: desc_index,
        range: (start, r.pos),
        attributes_at,
        code,
    })
}

/// Constant pool entries appended after the original ones, with look-ups of existing entries
/// where reusing them matters (class constants named in stack map frames).
pub(crate) struct PoolAdd<'p, 'a> {
    pool: &'p ConstantPool<'a>,
    pool_count: u16,
    next: u32,
    pub bytes: Vec<u8>,
    classes: HashMap<Vec<u8>, u16>,
    utf8s: HashMap<Vec<u8>, u16>,
    integers: HashMap<i32, u16>,
}

/// The constant pool would need more than 65535 entries.
#[derive(Debug)]
pub(crate) struct PoolFull;

impl<'p, 'a> PoolAdd<'p, 'a> {
    pub fn new(pool: &'p ConstantPool<'a>, pool_count: u16) -> Self {
        PoolAdd {
            pool,
            pool_count,
            next: u32::from(pool_count),
            bytes: Vec::new(),
            classes: HashMap::new(),
            utf8s: HashMap::new(),
            integers: HashMap::new(),
        }
    }

    /// Entries appended so far.
    #[cfg(test)]
    pub fn added(&self) -> u32 {
        self.next - u32::from(self.pool_count)
    }

    /// The constant_pool_count after the additions.
    pub fn count(&self) -> u16 {
        self.next as u16
    }

    fn push(&mut self, entry: &[u8]) -> Result<u16, PoolFull> {
        let index = u16::try_from(self.next).map_err(|_| PoolFull)?;
        if index == u16::MAX {
            return Err(PoolFull); // constant_pool_count itself must fit in a u16
        }
        self.bytes.extend_from_slice(entry);
        self.next += 1;
        Ok(index)
    }

    pub fn utf8(&mut self, s: &[u8]) -> Result<u16, PoolFull> {
        if let Some(&i) = self.utf8s.get(s) {
            return Ok(i);
        }
        let len = u16::try_from(s.len()).map_err(|_| PoolFull)?;
        let mut e = vec![1];
        e.extend_from_slice(&len.to_be_bytes());
        e.extend_from_slice(s);
        let i = self.push(&e)?;
        self.utf8s.insert(s.to_vec(), i);
        Ok(i)
    }

    /// An existing Utf8 entry with these bytes, or a new one.
    pub fn existing_or_new_utf8(&mut self, s: &[u8]) -> Result<u16, PoolFull> {
        for i in 1..self.pool_count {
            if let Some(Constant::Utf8(u)) = self.pool.get(i) {
                if u.as_bytes() == s {
                    return Ok(i);
                }
            }
        }
        self.utf8(s)
    }

    /// A class constant for an internal name (or array descriptor): an existing one if the class
    /// has it, else a new one. Few names are looked up per class, so a scan beats building a map.
    pub fn class(&mut self, name: &[u8]) -> Result<u16, PoolFull> {
        if let Some(&i) = self.classes.get(name) {
            return Ok(i);
        }
        let existing = (1..self.pool_count).find(|&i| match self.pool.get(i) {
            Some(Constant::Class(n)) => utf8(self.pool, *n).is_some_and(|s| s.as_bytes() == name),
            _ => false,
        });
        let i = match existing {
            Some(i) => i,
            None => self.new_class(name)?,
        };
        self.classes.insert(name.to_vec(), i);
        Ok(i)
    }

    fn new_class(&mut self, name: &[u8]) -> Result<u16, PoolFull> {
        let n = self.utf8(name)?;
        let mut e = vec![7];
        e.extend_from_slice(&n.to_be_bytes());
        self.push(&e)
    }

    pub fn integer(&mut self, v: i32) -> Result<u16, PoolFull> {
        if let Some(&i) = self.integers.get(&v) {
            return Ok(i);
        }
        let mut e = vec![3];
        e.extend_from_slice(&v.to_be_bytes());
        let i = self.push(&e)?;
        self.integers.insert(v, i);
        Ok(i)
    }

    /// A new class constant for the probe class; no look-up, as an instrumented class rarely
    /// mentions the probe class already.
    pub fn probe_class(&mut self, class: &str) -> Result<u16, PoolFull> {
        self.new_class(&mutf8(class))
    }

    /// A new Methodref to a static method (a probe) of class constant `c` with this descriptor
    /// (modified UTF-8), for example `(I)V`.
    pub fn probe_ref(&mut self, c: u16, name: &str, descriptor: &[u8]) -> Result<u16, PoolFull> {
        let n = self.utf8(&mutf8(name))?;
        let d = self.utf8(descriptor)?;
        self.methodref(c, n, d)
    }

    /// A new Methodref to method `name` (Utf8 index) with descriptor `desc` (Utf8 index) of class `c`.
    pub fn methodref(&mut self, c: u16, n: u16, d: u16) -> Result<u16, PoolFull> {
        let mut nat = vec![12];
        nat.extend_from_slice(&n.to_be_bytes());
        nat.extend_from_slice(&d.to_be_bytes());
        let nat = self.push(&nat)?;
        let mut e = vec![10];
        e.extend_from_slice(&c.to_be_bytes());
        e.extend_from_slice(&nat.to_be_bytes());
        self.push(&e)
    }
}

/// A Rust string in the class file's modified UTF-8.
pub(crate) fn mutf8(s: &str) -> Vec<u8> {
    JavaString::from(s).into_bytes()
}
