//! Dynamic constants (`CONSTANT_Dynamic`) as bootstrap method arguments.
//!
//! javac 21 and later pass some `switch` labels to `SwitchBootstraps` as dynamic constants: a
//! qualified enum constant is an `EnumDesc` (`ConstantBootstraps.invoke` of `EnumDesc.of` with a
//! `ClassDesc`, itself `ConstantBootstraps.invoke` of `ClassDesc.of` with the class's name), and
//! javac 23+ passes primitive type patterns' classes as `ConstantBootstraps.primitiveClass`. The
//! `cafebabe` parser refuses a class whose bootstrap arguments are dynamic constants, so before
//! parsing, [`prepare`] appends an `Integer` entry to the constant pool for each such argument and
//! points the argument at it; the table it returns says, per bootstrap method and argument
//! position, which dynamic constant (its bootstrap method index, name and descriptor) it was.
//! `indy.rs` reads the table to resolve the labels. `ldc` of a dynamic constant is untouched (and
//! unsupported).

use rustc_hash::FxHashMap;

/// A dynamic constant: its bootstrap method (index into `BootstrapMethods`), name and type.
#[derive(Debug, Clone)]
pub struct Condy {
    pub bsm: u16,
    pub name: String,
    pub desc: String,
}

/// Dynamic constants that were bootstrap arguments: (bootstrap method index, argument position).
pub type CondyTable = FxHashMap<(u16, u16), Condy>;

struct Reader<'a> {
    b: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn u1(&mut self) -> Option<u8> {
        let v = *self.b.get(self.at)?;
        self.at += 1;
        Some(v)
    }
    fn u2(&mut self) -> Option<u16> {
        let v = u16::from_be_bytes(self.b.get(self.at..self.at + 2)?.try_into().ok()?);
        self.at += 2;
        Some(v)
    }
    fn u4(&mut self) -> Option<u32> {
        let v = u32::from_be_bytes(self.b.get(self.at..self.at + 4)?.try_into().ok()?);
        self.at += 4;
        Some(v)
    }
    fn skip(&mut self, n: usize) -> Option<()> {
        if self.at + n > self.b.len() {
            return None;
        }
        self.at += n;
        Some(())
    }
    /// Skips `count` fields or methods, each with its attributes.
    fn skip_members(&mut self) -> Option<()> {
        for _ in 0..self.u2()? {
            self.skip(6)?;
            self.skip_attributes()?;
        }
        Some(())
    }
    fn skip_attributes(&mut self) -> Option<()> {
        for _ in 0..self.u2()? {
            self.skip(2)?;
            let n = self.u4()? as usize;
            self.skip(n)?;
        }
        Some(())
    }
}

/// The class file with its dynamic-constant bootstrap arguments made parseable, and the table of
/// them; `None` when there are none (or the class is malformed: the parser reports that).
pub fn prepare(bytes: &[u8]) -> Option<(Vec<u8>, CondyTable)> {
    let mut r = Reader { b: bytes, at: 8 };
    let count = r.u2()?;
    // Offsets of entries (the tag byte), by index.
    let mut offsets = vec![0usize; count as usize];
    let mut any_dynamic = false;
    let mut i = 1;
    while i < count as usize {
        offsets[i] = r.at;
        let tag = r.u1()?;
        match tag {
            1 => {
                let n = r.u2()? as usize;
                r.skip(n)?;
            }
            3 | 4 | 9 | 10 | 11 | 12 | 17 | 18 => r.skip(4)?,
            5 | 6 => {
                r.skip(8)?;
                i += 1;
            }
            7 | 8 | 16 | 19 | 20 => r.skip(2)?,
            15 => r.skip(3)?,
            _ => return None,
        }
        any_dynamic |= tag == 17;
        i += 1;
    }
    if !any_dynamic {
        return None;
    }
    let pool_end = r.at;
    let utf8 = |idx: u16| -> Option<String> {
        let o = *offsets.get(idx as usize)?;
        if bytes[o] != 1 {
            return None;
        }
        let n = u16::from_be_bytes([bytes[o + 1], bytes[o + 2]]) as usize;
        Some(String::from_utf8_lossy(bytes.get(o + 3..o + 3 + n)?).into_owned())
    };
    let pair = |o: usize| (u16::from_be_bytes([bytes[o + 1], bytes[o + 2]]), u16::from_be_bytes([bytes[o + 3], bytes[o + 4]]));
    r.skip(6)?;
    let n = r.u2()? as usize;
    r.skip(2 * n)?;
    r.skip_members()?;
    r.skip_members()?;
    // The BootstrapMethods attribute: the position of each argument that is a dynamic constant.
    let mut patches = Vec::new();
    let mut table = CondyTable::default();
    let mut appended: Vec<u16> = Vec::new();
    for _ in 0..r.u2()? {
        let name = r.u2()?;
        let len = r.u4()? as usize;
        let end = r.at + len;
        if utf8(name).as_deref() == Some("BootstrapMethods") {
            for m in 0..r.u2()? {
                r.skip(2)?;
                for a in 0..r.u2()? {
                    let at = r.at;
                    let arg = r.u2()?;
                    let o = *offsets.get(arg as usize)?;
                    if arg != 0 && bytes[o] == 17 {
                        let (bsm, nat) = pair(o);
                        let no = *offsets.get(nat as usize)?;
                        let (n, d) = pair(no);
                        table.insert((m, a), Condy { bsm, name: utf8(n)?, desc: utf8(d)? });
                        let k = appended.iter().position(|&x| x == arg).unwrap_or_else(|| {
                            appended.push(arg);
                            appended.len() - 1
                        });
                        patches.push((at, k));
                    }
                }
            }
        }
        r.at = end;
    }
    if appended.is_empty() || count as usize + appended.len() > u16::MAX as usize {
        return None;
    }
    let mut out = Vec::with_capacity(bytes.len() + 5 * appended.len());
    out.extend_from_slice(&bytes[..pool_end]);
    out[8..10].copy_from_slice(&(count + appended.len() as u16).to_be_bytes());
    for &d in &appended {
        out.push(3);
        out.extend_from_slice(&(d as u32).to_be_bytes());
    }
    let shift = 5 * appended.len();
    out.extend_from_slice(&bytes[pool_end..]);
    for (at, k) in patches {
        let idx = (count as usize + k) as u16;
        out[at + shift..at + shift + 2].copy_from_slice(&idx.to_be_bytes());
    }
    Some((out, table))
}
