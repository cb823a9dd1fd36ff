//! The natives of `java.util.zip.Inflater` (`jdk.internal.rvm.Zip`): raw or zlib-wrapped deflate
//! streams decompressed by `flate2` (the workspace's inflate backend, which the jar reader uses
//! too). A Java `Inflater` holds an int handle into a table of decompressors and its own input
//! window; each call hands the native the window and an output range.

use crate::native::{i, r, ret_i, ret_l, NCtx, NRes, NativeFn, NativeTable};
use crate::vm::Value;
use flate2::{Decompress, FlushDecompress, Status};
use std::sync::Mutex;

/// Decompressors by handle (index); an ended slot is `None` and is reused.
static STREAMS: Mutex<Vec<Option<Decompress>>> = Mutex::new(Vec::new());

fn streams() -> std::sync::MutexGuard<'static, Vec<Option<Decompress>>> {
    STREAMS.lock().unwrap_or_else(|e| e.into_inner())
}

/// Puts `v` into the first free slot of a handle table (an ended stream's), or a new one at the
/// end; returns its handle. The inflate and deflate natives share it.
pub(crate) fn put_in_free_slot<T>(table: &mut Vec<Option<T>>, v: T) -> usize {
    match table.iter().position(Option::is_none) {
        Some(k) => {
            table[k] = Some(v);
            k
        }
        None => {
            table.push(Some(v));
            table.len() - 1
        }
    }
}

/// init(nowrap): a new decompressor, raw deflate with `nowrap`, else with the zlib header.
fn init(_c: &mut NCtx, a: &[Value]) -> NRes {
    let d = Decompress::new(i(&a[0]) == 0);
    ret_i(put_in_free_slot(&mut streams(), d) as i32)
}

/// inflate(handle, in[], inOff, inLen, out[], outOff, outLen): decompresses what it can. Returns
/// consumed | produced << 31 | finished << 62.
fn inflate(c: &mut NCtx, a: &[Value]) -> NRes {
    let h = i(&a[0]) as usize;
    let (input, in_off, in_len) = (r(&a[1]), i(&a[2]).max(0) as usize, i(&a[3]).max(0) as usize);
    let (output, out_off, out_len) = (r(&a[4]), i(&a[5]).max(0) as usize, i(&a[6]).max(0) as usize);
    if input == 0 || output == 0 {
        return NRes::ThrowNew("java/lang/NullPointerException", String::new());
    }
    let src: Vec<u8> = (0..in_len).map(|k| c.space.array_get(input, 1, in_off + k) as u8).collect();
    let mut dst = vec![0u8; out_len];
    let mut t = streams();
    let Some(Some(d)) = t.get_mut(h) else { return NRes::ThrowNew("java/lang/NullPointerException", "Inflater has been closed".into()) };
    let (before_in, before_out) = (d.total_in(), d.total_out());
    let status = d.decompress(&src, &mut dst, FlushDecompress::None);
    let (consumed, produced) = ((d.total_in() - before_in) as usize, (d.total_out() - before_out) as usize);
    drop(t);
    let finished = match status {
        Ok(Status::StreamEnd) => true,
        Ok(_) => false,
        Err(e) => return NRes::ThrowNew("java/util/zip/DataFormatException", e.to_string()),
    };
    for (k, b) in dst[..produced].iter().enumerate() {
        c.space.array_set(output, 1, out_off + k, *b as u64);
    }
    ret_l(consumed as i64 | (produced as i64) << 31 | (finished as i64) << 62)
}

/// reset(handle, nowrap): the decompressor starts a new stream (raw deflate with `nowrap`).
fn reset(_c: &mut NCtx, a: &[Value]) -> NRes {
    if let Some(Some(d)) = streams().get_mut(i(&a[0]) as usize) {
        d.reset(i(&a[1]) == 0);
    }
    NRes::Ret(None)
}

fn end(_c: &mut NCtx, a: &[Value]) -> NRes {
    if let Some(s) = streams().get_mut(i(&a[0]) as usize) {
        *s = None;
    }
    NRes::Ret(None)
}

pub fn register(t: &mut NativeTable) {
    let entries: [(&'static str, NativeFn); 4] = [
        ("jdk/internal/rvm/Zip.init(Z)I", init),
        ("jdk/internal/rvm/Zip.inflate(I[BII[BII)J", inflate),
        ("jdk/internal/rvm/Zip.reset(IZ)V", reset),
        ("jdk/internal/rvm/Zip.end(I)V", end),
    ];
    for (k, f) in entries {
        t.insert(k, f);
    }
}
