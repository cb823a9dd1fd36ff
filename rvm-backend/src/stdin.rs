//! `System.in` (`jdk.internal.rvm.Stdin`): standard input is read by an OS thread of its own,
//! started at the first read, into a buffer that the natives take from without blocking. A Java
//! thread that finds the buffer empty sleeps a millisecond and looks again (in Java), so a program
//! waiting for input never holds its processor: the other threads run, and a collection can start.

use crate::native::{i, r, ret_i, NCtx, NRes};
use crate::vm::Value;
use std::collections::VecDeque;
use std::io::Read;
use std::sync::{Mutex, OnceLock};

#[derive(Default)]
struct Input {
    bytes: VecDeque<u8>,
    /// The end of the input (or a read error) was reached.
    eof: bool,
}

fn input() -> &'static Mutex<Input> {
    static INPUT: OnceLock<Mutex<Input>> = OnceLock::new();
    INPUT.get_or_init(|| {
        std::thread::Builder::new()
            .name("rvm-stdin".into())
            .spawn(|| {
                let mut buf = [0u8; 4096];
                let mut stdin = std::io::stdin().lock();
                loop {
                    let n = match stdin.read(&mut buf) {
                        Ok(n) => n,
                        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                        Err(_) => 0,
                    };
                    let mut inp = input().lock().unwrap_or_else(|e| e.into_inner());
                    if n == 0 {
                        inp.eof = true;
                        return;
                    }
                    inp.bytes.extend(&buf[..n]);
                }
            })
            .expect("start the standard input reader");
        Mutex::new(Input::default())
    })
}

/// read0(byte[], off, len): the bytes taken (at most `len`), 0 if none has arrived yet, -1 at the
/// end of the input.
pub fn read(c: &mut NCtx, a: &[Value]) -> NRes {
    let (arr, off, len) = (r(&a[0]), i(&a[1]) as usize, i(&a[2]) as usize);
    let mut inp = input().lock().unwrap_or_else(|e| e.into_inner());
    if inp.bytes.is_empty() {
        return ret_i(if inp.eof { -1 } else { 0 });
    }
    let n = len.min(inp.bytes.len());
    for k in 0..n {
        let b = inp.bytes.pop_front().unwrap_or(0);
        c.space.array_set(arr, 1, off + k, b as u64);
    }
    ret_i(n as i32)
}

/// available0(): the bytes that can be read without waiting.
pub fn available(_c: &mut NCtx, _a: &[Value]) -> NRes {
    ret_i(input().lock().unwrap_or_else(|e| e.into_inner()).bytes.len().min(i32::MAX as usize) as i32)
}
