//! The natives of `java.util.zip.Deflater` (`jdk.internal.rvm.Deflate`): zlib-wrapped or raw deflate
//! streams compressed by `flate2` (the backend the inflate natives use). A Java `Deflater` holds an
//! int handle into a table of compressors and its own input window; each call hands the native the
//! window, an output range and the flush mode.

use crate::native::{i, r, ret_i, ret_l, NCtx, NRes, NativeFn, NativeTable};
use crate::vm::Value;
use flate2::{Compress, Compression, FlushCompress, Status};
use std::sync::Mutex;

/// Compressors by handle (index); an ended slot is `None` and is reused.
static STREAMS: Mutex<Vec<Option<Compress>>> = Mutex::new(Vec::new());

fn streams() -> std::sync::MutexGuard<'static, Vec<Option<Compress>>> {
    STREAMS.lock().unwrap_or_else(|e| e.into_inner())
}

fn compressor(level: i32, nowrap: bool) -> Compress {
    let level = if (0..=9).contains(&level) { Compression::new(level as u32) } else { Compression::default() };
    Compress::new(level, !nowrap)
}

/// init(level, nowrap): a new compressor at `level` (-1: the default, 6), raw deflate with `nowrap`.
fn init(_c: &mut NCtx, a: &[Value]) -> NRes {
    let d = compressor(i(&a[0]), i(&a[1]) != 0);
    ret_i(crate::inflate::put_in_free_slot(&mut streams(), d) as i32)
}

/// deflate(handle, in[], inOff, inLen, out[], outOff, outLen, flush): compresses what fits, `flush`
/// as `Deflater`'s NO_FLUSH (0), SYNC_FLUSH (2), FULL_FLUSH (3), or 4 to finish the stream.
/// Returns consumed | produced << 31 | finished << 62.
fn deflate(c: &mut NCtx, a: &[Value]) -> NRes {
    let h = i(&a[0]) as usize;
    let (input, in_off, in_len) = (r(&a[1]), i(&a[2]).max(0) as usize, i(&a[3]).max(0) as usize);
    let (output, out_off, out_len) = (r(&a[4]), i(&a[5]).max(0) as usize, i(&a[6]).max(0) as usize);
    let flush = match i(&a[7]) {
        2 => FlushCompress::Sync,
        3 => FlushCompress::Full,
        4 => FlushCompress::Finish,
        _ => FlushCompress::None,
    };
    if input == 0 || output == 0 {
        return NRes::ThrowNew("java/lang/NullPointerException", String::new());
    }
    let src: Vec<u8> = (0..in_len).map(|k| c.space.array_get(input, 1, in_off + k) as u8).collect();
    let mut dst = vec![0u8; out_len];
    let mut t = streams();
    let Some(Some(d)) = t.get_mut(h) else { return NRes::ThrowNew("java/lang/NullPointerException", "Deflater has been closed".into()) };
    let (before_in, before_out) = (d.total_in(), d.total_out());
    let status = d.compress(&src, &mut dst, flush);
    let (consumed, produced) = ((d.total_in() - before_in) as usize, (d.total_out() - before_out) as usize);
    drop(t);
    let finished = match status {
        Ok(Status::StreamEnd) => true,
        Ok(_) => false,
        Err(e) => return NRes::ThrowNew("java/lang/InternalError", e.to_string()),
    };
    for (k, b) in dst[..produced].iter().enumerate() {
        c.space.array_set(output, 1, out_off + k, *b as u64);
    }
    ret_l(consumed as i64 | (produced as i64) << 31 | (finished as i64) << 62)
}

/// reset(handle, level, nowrap): a new stream, at `level`.
fn reset(_c: &mut NCtx, a: &[Value]) -> NRes {
    if let Some(s @ Some(_)) = streams().get_mut(i(&a[0]) as usize) {
        *s = Some(compressor(i(&a[1]), i(&a[2]) != 0));
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
        ("jdk/internal/rvm/Deflate.init(IZ)I", init),
        ("jdk/internal/rvm/Deflate.deflate(I[BII[BIII)J", deflate),
        ("jdk/internal/rvm/Deflate.reset(IIZ)V", reset),
        ("jdk/internal/rvm/Deflate.end(I)V", end),
    ];
    for (k, f) in entries {
        t.insert(k, f);
    }
}
