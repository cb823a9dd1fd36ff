//! Method and class names through JVMTI, for the recorder's [`MethodResolver`].
//!
//! Names are resolved at first sight of a method (while it runs, so its class is loaded) and cached
//! by the recorder for the life of the VM. HotSpot never reuses a `jmethodID`: after its class is
//! unloaded the id stays allocated and only answers JVMTI_ERROR_INVALID_METHODID, so a cached name
//! can never be attached to another method and nothing stale is ever dereferenced.

use std::collections::HashMap;
use std::ffi::{c_int, c_void};
use std::ptr;
use std::sync::Mutex;

use hpm_model::snapshot::naming::{class_name_from_signature, is_hidden_class_signature, java_parameters, name_class_methods};
use hpm_model::snapshot::ClassFilter;
use hpm_collectors::recorder::MethodResolver;

use crate::sys::jvmti::*;
use crate::{deallocate, jni_fn, jvmti_fn, take_string};

/// Resolves methods of the calling thread's current event.
pub struct Resolver {
    env: *mut jvmtiEnv,
    jni: *mut JNIEnv,
    /// Method ids read from sampled stacks: only those the VM gave the agent reach JVMTI
    /// ([`crate::method_ids::is_known_method_id`]); others are left unnamed (their frame is left out).
    only_known: bool,
}

impl Resolver {
    /// For method ids the VM gave through JVMTI (events, stack traces).
    pub fn new(env: *mut jvmtiEnv, jni: *mut JNIEnv) -> Resolver {
        Resolver { env, jni, only_known: false }
    }

    /// For method ids read from sampled stacks (AGCT), which are not proven to be ids at all.
    pub fn for_sampled_frames(env: *mut jvmtiEnv, jni: *mut JNIEnv) -> Resolver {
        Resolver { env, jni, only_known: true }
    }
}

/// (name, descriptor) of a method.
pub(crate) fn method_name(env: *mut jvmtiEnv, m: jmethodID) -> Option<(String, String)> {
    let mut name = ptr::null_mut();
    let mut sig = ptr::null_mut();
    // SAFETY: env valid; m is a jmethodID handed to us by the VM (never freed by HotSpot); out-pointers valid.
    let err = unsafe { jvmti_fn!(env, GetMethodName)(env, m, &mut name, &mut sig, ptr::null_mut()) };
    if err != JVMTI_ERROR_NONE {
        return None;
    }
    // SAFETY: both strings were allocated by JVMTI just now.
    let (n, s) = unsafe { (take_string(env, name), take_string(env, sig)) };
    Some((n?, s?))
}

/// The dotted class name of `klass`, hidden classes kept apart (see [`distinct_class_name`]).
fn class_name(env: *mut jvmtiEnv, klass: jclass) -> Option<String> {
    class_signature(env, klass).map(|s| distinct_class_name(&s))
}

/// The dotted class name of a class signature, with different hidden classes kept apart. JDK 17
/// names lambda proxies `Foo$$Lambda$14/0x…`, but JDK 21+ names them all `Foo$$Lambda/0x…`: without
/// the run-dependent address every lambda of a class would be one monitor class and one code-map
/// name. Such a name gets `#N`, N counting the distinct hidden classes of that name in the order the
/// agent first sees them (`Foo$$Lambda#1`, `Foo$$Lambda#2`), like JDK 17's numbers.
pub(crate) fn distinct_class_name(sig: &str) -> String {
    let name = class_name_from_signature(sig);
    let numbered_by_the_jdk = name.rsplit_once('$').is_some_and(|(_, n)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
    if !is_hidden_class_signature(sig) || numbered_by_the_jdk {
        return name;
    }
    /// Signature (with its address) → numbered name; name → how many were numbered.
    type Numbering = (HashMap<String, String>, HashMap<String, u32>);
    static HIDDEN: Mutex<Option<Numbering>> = Mutex::new(None);
    let mut guard = HIDDEN.lock().unwrap_or_else(|e| e.into_inner());
    let (by_sig, counts) = guard.get_or_insert_with(Default::default);
    if let Some(n) = by_sig.get(sig) {
        return n.clone();
    }
    let count = counts.entry(name.clone()).or_insert(0);
    *count += 1;
    let numbered = format!("{name}#{count}");
    by_sig.insert(sig.to_string(), numbered.clone());
    numbered
}

/// The JVM signature of `klass` (`Ljava/lang/String;`).
pub(crate) fn class_signature(env: *mut jvmtiEnv, klass: jclass) -> Option<String> {
    let mut sig = ptr::null_mut();
    // SAFETY: env valid; klass is a live local reference; out-pointers valid (generic may be null).
    let err = unsafe { jvmti_fn!(env, GetClassSignature)(env, klass, &mut sig, ptr::null_mut()) };
    if err != JVMTI_ERROR_NONE {
        return None;
    }
    // SAFETY: allocated by JVMTI just now.
    unsafe { take_string(env, sig) }
}

pub(crate) fn declaring_class(env: *mut jvmtiEnv, m: jmethodID) -> Option<jclass> {
    let mut k: jclass = ptr::null_mut();
    // SAFETY: env valid; m a jmethodID from the VM; k a valid out-pointer.
    let err = unsafe { jvmti_fn!(env, GetMethodDeclaringClass)(env, m, &mut k) };
    (err == JVMTI_ERROR_NONE && !k.is_null()).then_some(k)
}

pub(crate) fn delete_local(jni: *mut JNIEnv, obj: jobject) {
    if !jni.is_null() && !obj.is_null() {
        // SAFETY: obj is a local reference created in this callback on this thread.
        unsafe { jni_fn!(jni, DeleteLocalRef)(jni, obj) };
    }
}

/// `class.name(params)` for the code map and perf map (always with parameters: unambiguous).
pub fn full_method_name(env: *mut jvmtiEnv, m: jmethodID) -> Option<String> {
    let k = declaring_class(env, m)?;
    let class = class_name(env, k);
    // No JNI env in compile events: the local ref is freed when the callback returns.
    let (name, sig) = method_name(env, m)?;
    Some(format!("{}.{}({})", class?, name, java_parameters(&sig)))
}

/// The class name of `object` (for monitors).
pub fn object_class_name(env: *mut jvmtiEnv, jni: *mut JNIEnv, object: jobject) -> String {
    if jni.is_null() || object.is_null() {
        return "<unknown>".into();
    }
    // SAFETY: jni is this thread's JNIEnv and object a live reference from the current callback.
    let k = unsafe { jni_fn!(jni, GetObjectClass)(jni, object) };
    if k.is_null() {
        return "<unknown>".into();
    }
    let n = class_name(env, k).unwrap_or_else(|| "<unknown>".into());
    delete_local(jni, k);
    n
}

/// The distinct methods inlined into a compiled method, from HotSpot's JVMTI_CMLR_INLINE_INFO records.
///
/// # Safety
/// `info` is null or the `compile_info` pointer of a CompiledMethodLoad event, valid during the call.
pub unsafe fn inlined_methods(info: *const c_void, top: jmethodID) -> Vec<jmethodID> {
    let mut out: Vec<jmethodID> = Vec::new();
    let mut rec = info as *const jvmtiCompiledMethodLoadRecordHeader;
    let mut guard = 0;
    while !rec.is_null() && guard < 1000 {
        guard += 1;
        // SAFETY: rec is non-null and points to a record header of the chain (see the function's contract).
        let h = unsafe { &*rec };
        if h.kind == JVMTI_CMLR_INLINE_INFO {
            // SAFETY: a record of kind INLINE_INFO is a jvmtiCompiledMethodLoadInlineRecord.
            let ir = unsafe { &*(rec as *const jvmtiCompiledMethodLoadInlineRecord) };
            for i in 0..ir.numpcs.max(0) as usize {
                // SAFETY: pcinfo holds numpcs entries.
                let pc = unsafe { &*ir.pcinfo.add(i) };
                for j in 0..pc.numstackframes.max(0) as usize {
                    // SAFETY: methods holds numstackframes entries.
                    let m = unsafe { *pc.methods.add(j) };
                    if !m.is_null() && m != top && !out.contains(&m) {
                        out.push(m);
                    }
                }
            }
        }
        rec = h.next;
    }
    out
}

/// Virtual threads are recorded apart (the VM granted what it takes): set at load by
/// `vthreads::install`, read by [`say_virtual_threads_nest`].
static VIRTUAL_THREADS_APART: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Virtual threads are recorded apart from now (`vthreads::install`).
pub(crate) fn virtual_threads_recorded_apart() {
    VIRTUAL_THREADS_APART.store(true, std::sync::atomic::Ordering::Release);
}

/// Says once that virtual threads are recorded on their carriers. Called when a method of
/// `java.lang.VirtualThread` is first resolved: every virtual thread runs them (JDK 21+), whether
/// or not the filter records JDK classes.
fn say_virtual_threads_nest() {
    static SAID: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    if VIRTUAL_THREADS_APART.load(std::sync::atomic::Ordering::Acquire) {
        return; // recorded apart (the warning is for VMs that did not grant it)
    }
    if !SAID.swap(true, std::sync::atomic::Ordering::Relaxed) {
        hpm_support::log::warn("virtual threads are not recorded apart with calls=jvmti in this VM (it did not grant can_support_virtual_threads): their calls nest on their carrier threads' call trees");
    }
}

/// Line tables of the methods whose sampled frames were named with lines (`sample-lines=on`), by
/// jmethodID: (first bytecode index, line), sorted; empty where the class file has none.
static LINE_TABLES: Mutex<Option<HashMap<u64, LineTable>>> = Mutex::new(None);

/// One method's (first bytecode index, line) pairs, sorted.
type LineTable = Vec<(i64, u32)>;

/// `method`'s line table from JVMTI (needs `can_get_line_numbers`); empty if there is none.
fn line_table(env: *mut jvmtiEnv, method: jmethodID) -> Vec<(i64, u32)> {
    let mut count: jint = 0;
    let mut entries: *mut jvmtiLineNumberEntry = ptr::null_mut();
    // SAFETY: env valid; method a jmethodID the stack walker returned (checked known by the
    // caller where that matters); out-pointers valid.
    let err = unsafe { jvmti_fn!(env, GetLineNumberTable)(env, method, &mut count, &mut entries) };
    if err != JVMTI_ERROR_NONE || entries.is_null() {
        return Vec::new();
    }
    // SAFETY: GetLineNumberTable returned `count` entries at `entries`.
    let mut v: Vec<(i64, u32)> =
        unsafe { std::slice::from_raw_parts(entries, count.max(0) as usize) }.iter().map(|e| (e.start_location, e.line_number.max(0) as u32)).collect();
    deallocate(env, entries as *mut u8);
    v.sort_unstable();
    v
}

impl MethodResolver for Resolver {
    fn line_of(&mut self, method: u64, pos: i32) -> Option<u32> {
        if self.only_known && !crate::method_ids::is_known_method_id(method) {
            return None;
        }
        let mut tables = LINE_TABLES.lock().unwrap_or_else(|e| e.into_inner());
        let table = tables.get_or_insert_with(HashMap::new).entry(method).or_insert_with(|| line_table(self.env, method as jmethodID));
        table.iter().rev().find(|&&(start, _)| start <= i64::from(pos)).map(|&(_, line)| line)
    }

    fn resolve(&mut self, method: u64, filter: &ClassFilter, out: &mut Vec<(u64, Option<String>)>) {
        if self.only_known && !crate::method_ids::is_known_method_id(method) {
            out.push((method, None));
            return;
        }
        let env = self.env;
        let m = method as jmethodID;
        let Some(k) = declaring_class(env, m) else {
            out.push((method, None));
            return;
        };
        let sig = class_signature(env, k);
        if sig.as_deref() == Some("Ljava/lang/VirtualThread;") {
            say_virtual_threads_nest();
        }
        let class = sig.as_deref().map(class_name_from_signature);
        // Hidden classes (lambda proxies) are transparent, as with bytecode probes, which cannot
        // reach them.
        let accepted = !sig.as_deref().is_some_and(is_hidden_class_signature) && class.as_deref().is_some_and(|c| filter.accepts(c));
        // All methods of the class at once: one trip for the class, and overloads are visible.
        let mut count: jint = 0;
        let mut methods: *mut jmethodID = ptr::null_mut();
        // SAFETY: env valid; k a live local ref; out-pointers valid.
        let err = unsafe { jvmti_fn!(env, GetClassMethods)(env, k, &mut count, &mut methods) };
        let all: Vec<jmethodID> = if err == JVMTI_ERROR_NONE && !methods.is_null() {
            // SAFETY: GetClassMethods returned `count` method ids at `methods`.
            let v = unsafe { std::slice::from_raw_parts(methods, count.max(0) as usize) }.to_vec();
            deallocate(env, methods as *mut u8);
            v
        } else {
            vec![m]
        };
        delete_local(self.jni, k);
        if !accepted {
            out.extend(all.iter().map(|&x| (x as u64, None)));
            if !all.contains(&m) {
                out.push((method, None));
            }
            return;
        }
        let class = class.unwrap_or_default();
        let mut named: Vec<(u64, String, String)> = all.iter().filter_map(|&x| method_name(env, x).map(|(n, s)| (x as u64, n, s))).collect();
        if !named.iter().any(|(x, _, _)| *x == method) {
            // Not among the class's current methods (e.g. an old version after redefinition).
            if let Some((n, s)) = method_name(env, m) {
                named.push((method, n, s));
            }
        }
        name_class_methods(&class, &named, method, out);
    }

    fn stack(&mut self, out: &mut Vec<u64>) {
        // A null thread is the current thread (this callback's).
        stack_keys(self.env, ptr::null_mut(), out);
    }

    fn walk_failure(&self, code: i32) -> String {
        crate::fault_guard::walk_failure_name(code)
    }

    fn native_code(&mut self, pc: u64) -> String {
        let mut names = NATIVE_NAMES.lock().unwrap_or_else(|e| e.into_inner());
        names.get_or_insert_with(HashMap::new).entry(pc).or_insert_with(|| native_code_name(pc as usize)).clone()
    }
}

/// Native code frames' names by program counter (`sample-native=on`).
static NATIVE_NAMES: Mutex<Option<HashMap<u64, String>>> = Mutex::new(None);

/// The name of the native code at `pc`: from the process's dynamic symbols (`dladdr1`, which
/// also gives the symbol's size, so that an address past a symbol's end is not given its name),
/// else from the library's own symbol table (`symbols.rs`: libjvm's functions are not
/// exported): `symbol [library]`, or `[library+0xOFFSET]` where no symbol covers it, or
/// `[native 0xPC]` outside every library. A kernel address (`sample-kernel=on`) is named from
/// `/proc/kallsyms`: `function [kernel]`, or `[kernel 0xPC]` where its symbols are hidden.
fn native_code_name(pc: usize) -> String {
    /// glibc's `RTLD_DL_SYMENT`: `dladdr1` also returns the symbol's `ElfW(Sym)`.
    const RTLD_DL_SYMENT: c_int = 1;
    /// Where the kernel's half of the address space starts (x86-64, aarch64: the top bit set).
    const KERNEL_SPACE: usize = 1 << 63;
    if pc >= KERNEL_SPACE {
        return match crate::symbols::kernel_function_at(pc as u64) {
            Some(name) => format!("{name} [kernel]"),
            None => format!("[kernel 0x{pc:x}]"),
        };
    }
    let mut info: libc::Dl_info = unsafe { std::mem::zeroed() };
    let mut sym: *mut c_void = ptr::null_mut();
    // SAFETY: dladdr1 only looks the address up in the loaded objects' tables and fills `info`
    // and `sym` (a pointer into a symbol table that lives as long as the object is loaded).
    if unsafe { libc::dladdr1(pc as *const c_void, &mut info, &mut sym, RTLD_DL_SYMENT) } == 0 || info.dli_fname.is_null() {
        return format!("[native 0x{pc:x}]");
    }
    // SAFETY: dli_fname is a NUL-terminated path owned by the loader.
    let path = unsafe { std::ffi::CStr::from_ptr(info.dli_fname) }.to_string_lossy().into_owned();
    let library = path.rsplit('/').next().unwrap_or(&path).to_string();
    if !info.dli_sname.is_null() && !sym.is_null() {
        // SAFETY: with RTLD_DL_SYMENT, `sym` points to the symbol's Elf64_Sym.
        let size = unsafe { (*(sym as *const libc::Elf64_Sym)).st_size } as usize;
        let start = info.dli_saddr as usize;
        if pc >= start && (pc < start + size || size == 0) {
            // SAFETY: dli_sname is a NUL-terminated name in the object's string table.
            let name = unsafe { std::ffi::CStr::from_ptr(info.dli_sname) }.to_string_lossy().into_owned();
            return format!("{} [{library}]", crate::symbols::demangle(&name));
        }
    }
    let offset = pc - info.dli_fbase as usize;
    match crate::symbols::function_at(&path, offset as u64) {
        Some(name) => format!("{name} [{library}]"),
        None => format!("[{library}+0x{offset:x}]"),
    }
}

/// Pushes the method keys of `thread`'s stack into `out`, outermost first (see [`frames`]). False
/// if the VM cannot read the stack.
pub(crate) fn stack_keys(env: *mut jvmtiEnv, thread: jthread, out: &mut Vec<u64>) -> bool {
    let Some(frames) = frames(env, thread) else { return false };
    // JVMTI lists the innermost frame first.
    out.extend(frames.iter().rev().map(|f| f.method as u64));
    true
}

/// The frames of `thread`, innermost first, all of them (re-synchronising needs the outermost).
/// `thread` is null (the calling thread) or a live reference to a `java.lang.Thread`, which may be
/// another, running thread: the VM reads its stack in a handshake, and it may change meanwhile.
/// None if the VM cannot read it (e.g. the thread is not alive).
pub(crate) fn frames(env: *mut jvmtiEnv, thread: jthread) -> Option<Vec<jvmtiFrameInfo>> {
    let mut depth: jint = 0;
    // SAFETY: env valid; thread null or a live reference (caller's contract).
    if unsafe { jvmti_fn!(env, GetFrameCount)(env, thread, &mut depth) } != JVMTI_ERROR_NONE {
        return None;
    }
    // Room for frames pushed meanwhile by a running thread: GetStackTrace keeps the innermost.
    let max = depth.max(0) as usize + if thread.is_null() { 0 } else { 64 };
    let mut frames: Vec<jvmtiFrameInfo> = Vec::with_capacity(max);
    let mut count: jint = 0;
    // SAFETY: as above; frames has room for `max` entries.
    if unsafe { jvmti_fn!(env, GetStackTrace)(env, thread, 0, max as jint, frames.as_mut_ptr(), &mut count) } != JVMTI_ERROR_NONE {
        return None;
    }
    // SAFETY: GetStackTrace initialised `count` <= max entries.
    unsafe { frames.set_len(count.clamp(0, max as jint) as usize) };
    Some(frames)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hidden_classes_stay_apart() {
        // JDK 21+: one name for every lambda of a class; numbered in order of first sight, stable.
        let a = distinct_class_name("Lt/Foo$$Lambda/0x0000000801001000;");
        let b = distinct_class_name("Lt/Foo$$Lambda/0x0000000801002000;");
        assert_eq!((a.as_str(), b.as_str()), ("t.Foo$$Lambda#1", "t.Foo$$Lambda#2"));
        assert_eq!(distinct_class_name("Lt/Foo$$Lambda/0x0000000801001000;"), "t.Foo$$Lambda#1");
        // JDK 17 numbers them itself; ordinary classes are untouched.
        assert_eq!(distinct_class_name("Lt/Foo$$Lambda$14.0x0000000800c0b000;"), "t.Foo$$Lambda$14");
        assert_eq!(distinct_class_name("Lt/Foo;"), "t.Foo");
    }
}
