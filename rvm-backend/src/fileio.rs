//! The natives of the class library's files (`jdk.internal.rvm.FileIO`): open, read, write and
//! close through Rust's `std::fs`, and the file-system queries `java.io.File` and
//! `java.nio.file.Files` are built on. A Java stream holds an int handle into a table of open
//! files. A read or write runs on the processor's OS thread without a thread switch (as a
//! native, it is not a yieldpoint), like any other short native.

use crate::native::{i, l, r, ret_i, ret_l, ret_r, NCtx, NRes, NativeTable, NativeFn};
use crate::vm::Value;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::sync::Mutex;

/// Open files by handle (index); a closed slot is `None` and is reused.
static FILES: Mutex<Vec<Option<File>>> = Mutex::new(Vec::new());

fn files() -> std::sync::MutexGuard<'static, Vec<Option<File>>> {
    FILES.lock().unwrap_or_else(|e| e.into_inner())
}

/// The message `java.io.FileNotFoundException` and `IOException` carry on HotSpot: `path (reason)`,
/// the reason being the C library's text without Rust's " (os error N)".
fn io_reason(e: &std::io::Error) -> String {
    let s = e.to_string();
    match s.find(" (os error") {
        Some(k) => s[..k].to_string(),
        None => s,
    }
}

fn path_of(c: &NCtx, a: &Value) -> Option<std::path::PathBuf> {
    let p = r(a);
    if p == 0 {
        return None;
    }
    Some(std::path::PathBuf::from(c.vm.rust_string(c.space, p)))
}

fn npe() -> NRes {
    NRes::ThrowNew("java/lang/NullPointerException", String::new())
}

/// open(path, mode): 0 read, 1 write (create, truncate), 2 append (create), 3 write a new file
/// (fails if it exists). Returns the handle.
fn open(c: &mut NCtx, a: &[Value]) -> NRes {
    let Some(path) = path_of(c, &a[0]) else { return npe() };
    let mode = i(&a[1]);
    let mut o = OpenOptions::new();
    match mode {
        0 => o.read(true),
        1 => o.write(true).create(true).truncate(true),
        2 => o.append(true).create(true),
        _ => o.write(true).create_new(true),
    };
    match o.open(&path) {
        Ok(f) => {
            if mode == 0 && f.metadata().map(|m| m.is_dir()).unwrap_or(false) {
                return NRes::ThrowNew("java/io/FileNotFoundException", format!("{} (Is a directory)", path.display()));
            }
            let mut t = files();
            let h = match t.iter().position(|s| s.is_none()) {
                Some(k) => {
                    t[k] = Some(f);
                    k
                }
                None => {
                    t.push(Some(f));
                    t.len() - 1
                }
            };
            ret_i(h as i32)
        }
        Err(e) if mode == 3 && e.kind() == std::io::ErrorKind::AlreadyExists => {
            NRes::ThrowNew("java/nio/file/FileAlreadyExistsException", path.display().to_string())
        }
        Err(e) => NRes::ThrowNew("java/io/FileNotFoundException", format!("{} ({})", path.display(), io_reason(&e))),
    }
}

fn with_file<T>(h: i32, f: impl FnOnce(&mut File) -> std::io::Result<T>) -> Result<T, NRes> {
    let mut t = files();
    match t.get_mut(h as usize).and_then(|s| s.as_mut()) {
        Some(file) => f(file).map_err(|e| NRes::ThrowNew("java/io/IOException", io_reason(&e))),
        None => Err(NRes::ThrowNew("java/io/IOException", "Stream Closed".into())),
    }
}

/// read(handle, byte[], off, len): bytes read, -1 at the end of the file.
fn read(c: &mut NCtx, a: &[Value]) -> NRes {
    let (h, arr, off, len) = (i(&a[0]), r(&a[1]), i(&a[2]) as usize, i(&a[3]) as usize);
    if len == 0 {
        return ret_i(0);
    }
    let mut buf = vec![0u8; len];
    match with_file(h, |f| f.read(&mut buf)) {
        Ok(0) => ret_i(-1),
        Ok(n) => {
            for (k, b) in buf[..n].iter().enumerate() {
                c.space.array_set(arr, 1, off + k, *b as u64);
            }
            ret_i(n as i32)
        }
        Err(e) => e,
    }
}

/// write(handle, byte[], off, len).
fn write(c: &mut NCtx, a: &[Value]) -> NRes {
    let (h, arr, off, len) = (i(&a[0]), r(&a[1]), i(&a[2]) as usize, i(&a[3]) as usize);
    let buf: Vec<u8> = (0..len).map(|k| c.space.array_get(arr, 1, off + k) as u8).collect();
    match with_file(h, |f| f.write_all(&buf)) {
        Ok(()) => NRes::Ret(None),
        Err(e) => e,
    }
}

fn close(_c: &mut NCtx, a: &[Value]) -> NRes {
    let h = i(&a[0]);
    if let Some(s) = files().get_mut(h as usize) {
        *s = None;
    }
    NRes::Ret(None)
}

/// available(handle): bytes between the position and the end of the file.
fn available(_c: &mut NCtx, a: &[Value]) -> NRes {
    match with_file(i(&a[0]), |f| {
        let pos = f.stream_position()?;
        let len = f.metadata()?.len();
        Ok(len.saturating_sub(pos))
    }) {
        Ok(n) => ret_i(n.min(i32::MAX as u64) as i32),
        Err(e) => e,
    }
}

/// skip(handle, n): moves the position forward by up to n bytes (not past the end); the bytes skipped.
fn skip(_c: &mut NCtx, a: &[Value]) -> NRes {
    let n = l(&a[1]).max(0) as u64;
    match with_file(i(&a[0]), |f| {
        let pos = f.stream_position()?;
        let len = f.metadata()?.len();
        let to = pos.saturating_add(n).min(len.max(pos));
        f.seek(SeekFrom::Start(to))?;
        Ok(to - pos)
    }) {
        Ok(k) => ret_l(k as i64),
        Err(e) => e,
    }
}

/// stat(path): -1 if it does not exist, else bit 0 directory, bit 1 regular file, bit 2 readable,
/// bit 3 writable, bit 4 executable, bit 5 hidden (name starts with '.').
fn stat(c: &mut NCtx, a: &[Value]) -> NRes {
    use std::os::unix::fs::PermissionsExt;
    let Some(path) = path_of(c, &a[0]) else { return npe() };
    match std::fs::metadata(&path) {
        Ok(m) => {
            let mode = m.permissions().mode();
            let mut bits = 0;
            bits |= m.is_dir() as i32;
            bits |= (m.is_file() as i32) << 1;
            bits |= ((mode & 0o444 != 0) as i32) << 2;
            bits |= ((mode & 0o222 != 0 && !m.permissions().readonly()) as i32) << 3;
            bits |= ((mode & 0o111 != 0) as i32) << 4;
            let hidden = path.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.'));
            bits |= (hidden as i32) << 5;
            ret_i(bits)
        }
        Err(_) => ret_i(-1),
    }
}

/// length(path): the size in bytes, 0 if it does not exist (as File.length).
fn length(c: &mut NCtx, a: &[Value]) -> NRes {
    let Some(path) = path_of(c, &a[0]) else { return npe() };
    ret_l(std::fs::metadata(&path).map(|m| m.len() as i64).unwrap_or(0))
}

/// lastModified(path): milliseconds since the epoch, 0 if it does not exist.
fn last_modified(c: &mut NCtx, a: &[Value]) -> NRes {
    let Some(path) = path_of(c, &a[0]) else { return npe() };
    let t = std::fs::metadata(&path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0);
    ret_l(t)
}

/// delete(path): null when deleted (a file, or an empty directory), else the reason.
fn delete(c: &mut NCtx, a: &[Value]) -> NRes {
    let Some(path) = path_of(c, &a[0]) else { return npe() };
    let res = match std::fs::symlink_metadata(&path) {
        Ok(m) if m.is_dir() => std::fs::remove_dir(&path),
        Ok(_) => std::fs::remove_file(&path),
        Err(e) => Err(e),
    };
    match res {
        Ok(()) => ret_r(0),
        Err(e) => {
            let why = match e.kind() {
                std::io::ErrorKind::NotFound => "NoSuchFile".to_string(),
                std::io::ErrorKind::DirectoryNotEmpty => "DirectoryNotEmpty".to_string(),
                _ => io_reason(&e),
            };
            crate::native::string_res(c, &why)
        }
    }
}

/// mkdir(path): whether it was created.
fn mkdir(c: &mut NCtx, a: &[Value]) -> NRes {
    let Some(path) = path_of(c, &a[0]) else { return npe() };
    ret_i(std::fs::create_dir(&path).is_ok() as i32)
}

/// rename(from, to): whether it was renamed.
fn rename(c: &mut NCtx, a: &[Value]) -> NRes {
    let (Some(from), Some(to)) = (path_of(c, &a[0]), path_of(c, &a[1])) else { return npe() };
    ret_i(std::fs::rename(&from, &to).is_ok() as i32)
}

/// list(path): the names in a directory in the order the OS gives them, null if it is not one.
fn list(c: &mut NCtx, a: &[Value]) -> NRes {
    let Some(path) = path_of(c, &a[0]) else { return npe() };
    let Ok(rd) = std::fs::read_dir(&path) else { return ret_r(0) };
    let names: Vec<String> = rd.flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
    let Ok(sa) = c.vm.reg.load("[Ljava/lang/String;") else { return ret_r(0) };
    let Some(arr) = c.vm.alloc_array(c.space, &sa, names.len(), crate::vm::Alloc::Java(c.th, c.method)) else { return NRes::NeedGc };
    for (k, n) in names.iter().enumerate() {
        // (on NeedGc the whole native runs again: listing has no effect to repeat)
        let Some(s) = c.vm.new_string(c.space, n, crate::vm::Alloc::Java(c.th, c.method)) else { return NRes::NeedGc };
        c.space.array_set(arr, crate::class::Kind::L.elem_size(), k, s as u64);
    }
    ret_r(arr)
}

/// canonical(path): the path with symbolic links resolved, or null if it does not exist.
fn canonical(c: &mut NCtx, a: &[Value]) -> NRes {
    let Some(path) = path_of(c, &a[0]) else { return npe() };
    match std::fs::canonicalize(&path) {
        Ok(p) => crate::native::string_res(c, &p.to_string_lossy()),
        Err(_) => ret_r(0),
    }
}

fn cwd(c: &mut NCtx, _a: &[Value]) -> NRes {
    let d = std::env::current_dir().map(|p| p.to_string_lossy().into_owned()).unwrap_or_else(|_| "/".into());
    crate::native::string_res(c, &d)
}

fn temp_dir(c: &mut NCtx, _a: &[Value]) -> NRes {
    let d = std::env::temp_dir().to_string_lossy().into_owned();
    crate::native::string_res(c, &d)
}

fn getenv(c: &mut NCtx, a: &[Value]) -> NRes {
    let name = c.vm.rust_string(c.space, r(&a[0]));
    match std::env::var(&name) {
        Ok(v) => crate::native::string_res(c, &v),
        Err(_) => ret_r(0),
    }
}

fn home_dir(c: &mut NCtx, _a: &[Value]) -> NRes {
    let h = std::env::var("HOME").unwrap_or_else(|_| "?".into());
    crate::native::string_res(c, &h)
}

fn user_name(c: &mut NCtx, _a: &[Value]) -> NRes {
    let u = std::env::var("USER").or_else(|_| std::env::var("LOGNAME")).unwrap_or_else(|_| "?".into());
    crate::native::string_res(c, &u)
}

pub fn register(t: &mut NativeTable) {
    let entries: [(&'static str, NativeFn); 19] = [
        ("jdk/internal/rvm/FileIO.open(Ljava/lang/String;I)I", open),
        ("jdk/internal/rvm/FileIO.read(I[BII)I", read),
        ("jdk/internal/rvm/FileIO.write(I[BII)V", write),
        ("jdk/internal/rvm/FileIO.close(I)V", close),
        ("jdk/internal/rvm/FileIO.available(I)I", available),
        ("jdk/internal/rvm/FileIO.skip(IJ)J", skip),
        ("jdk/internal/rvm/FileIO.stat(Ljava/lang/String;)I", stat),
        ("jdk/internal/rvm/FileIO.length(Ljava/lang/String;)J", length),
        ("jdk/internal/rvm/FileIO.lastModified(Ljava/lang/String;)J", last_modified),
        ("jdk/internal/rvm/FileIO.delete(Ljava/lang/String;)Ljava/lang/String;", delete),
        ("jdk/internal/rvm/FileIO.mkdir(Ljava/lang/String;)Z", mkdir),
        ("jdk/internal/rvm/FileIO.rename(Ljava/lang/String;Ljava/lang/String;)Z", rename),
        ("jdk/internal/rvm/FileIO.list(Ljava/lang/String;)[Ljava/lang/String;", list),
        ("jdk/internal/rvm/FileIO.canonical(Ljava/lang/String;)Ljava/lang/String;", canonical),
        ("jdk/internal/rvm/FileIO.cwd()Ljava/lang/String;", cwd),
        ("jdk/internal/rvm/FileIO.tempDir()Ljava/lang/String;", temp_dir),
        ("jdk/internal/rvm/FileIO.getenv(Ljava/lang/String;)Ljava/lang/String;", getenv),
        ("jdk/internal/rvm/FileIO.homeDir()Ljava/lang/String;", home_dir),
        ("jdk/internal/rvm/FileIO.userName()Ljava/lang/String;", user_name),
    ];
    for (k, f) in entries {
        t.insert(k, f);
    }
}
