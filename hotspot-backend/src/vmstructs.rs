//! HotSpot's description of its own data structures: the `gHotSpotVMStructs` and `gHotSpotVMTypes`
//! tables libjvm.so exports for the serviceability agent. They give, by name, the offset of a
//! field in a type and the address of a static field, so the agent can read a few internals that
//! JVMTI does not offer without compiling against one HotSpot build:
//!
//! - a flag's value (`JVMFlag::flags`): stack sampling turns `DebugNonSafepoints` on, as a user
//!   would with `-XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints`, so compiled frames are
//!   attributed to the inlined method at any instruction, not only at safepoints;
//! - the code cache's heaps and the interpreter's code ([`CodeLayout`]), so a stack sample's
//!   program counter gives its execution form (interpreted, C1, C2, inlined, stub) in the signal
//!   handler, without JVMTI's CompiledMethodLoad events and the work HotSpot does to post them.
//!
//! Every name read here is checked when the table is read; a missing one makes the feature that
//! needs it unavailable, with one line naming what is missing, never a wrong read.

use std::collections::HashMap;
use std::ffi::{c_char, c_int, CStr};

use hpm_model::sampling::Tier;
use hpm_collectors::sampling::{CodeAt, RawFrame};

static TABLES: std::sync::OnceLock<Option<VmStructs>> = std::sync::OnceLock::new();

/// The tables, read at the first call; None (said once, at info level) where they cannot be.
pub(crate) fn tables() -> Option<&'static VmStructs> {
    TABLES
        .get_or_init(|| match VmStructs::read() {
            Ok(t) => Some(t),
            Err(e) => {
                hpm_support::log::info(&format!("{e}: HotSpot's internals are not read"));
                None
            }
        })
        .as_ref()
}

/// Stack sampling, at Agent_OnLoad: `DebugNonSafepoints` on, so that a sample in compiled code
/// names the inlined method at the instruction, not the one at the nearest safepoint.
pub(crate) fn prepare_for_sampling() {
    let Some(vs) = tables() else { return };
    match enable_bool_flag(vs, "DebugNonSafepoints") {
        Ok(FlagChange::TurnedOn) => hpm_support::log::debug("DebugNonSafepoints turned on for stack sampling"),
        Ok(FlagChange::AlreadyOn) => {}
        Ok(FlagChange::LeftOff) => hpm_support::log::warn(
            "-XX:-DebugNonSafepoints is given: samples in compiled code are charged to the method at the nearest safepoint, not always the one running",
        ),
        Err(e) => hpm_support::log::info(&format!("{e}: samples in compiled code may be charged to the method at the nearest safepoint")),
    }
}

/// A field of a HotSpot type, as `gHotSpotVMStructs` lists it.
#[derive(Debug, Clone)]
struct Field {
    type_string: String,
    is_static: bool,
    offset: usize,
    address: usize,
}

/// The two tables, read once.
pub(crate) struct VmStructs {
    fields: HashMap<(String, String), Field>,
    sizes: HashMap<String, usize>,
}

/// Reads an exported `u64`/pointer-sized symbol of libjvm.so.
fn symbol_value(name: &CStr) -> Result<usize, String> {
    // SAFETY: dlsym with RTLD_DEFAULT and a NUL-terminated name only looks a symbol up.
    let p = unsafe { libc::dlsym(libc::RTLD_DEFAULT, name.as_ptr()) };
    if p.is_null() {
        return Err(format!("this JVM does not export {} (not HotSpot?)", name.to_string_lossy()));
    }
    // SAFETY: the gHotSpotVM* symbols are `uint64_t` or pointer variables (vmStructs.cpp), both
    // 8 bytes on the 64-bit platforms this crate builds for.
    Ok(unsafe { *(p as *const u64) } as usize)
}

/// A C string of the tables (static data of libjvm.so), or None for a null pointer.
///
/// # Safety
/// `at` must hold a pointer that is null or points to a NUL-terminated string.
unsafe fn string_at(at: usize) -> Option<String> {
    // SAFETY: the caller's contract.
    let p = unsafe { *(at as *const *const c_char) };
    // SAFETY: as above.
    (!p.is_null()).then(|| unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned())
}

impl VmStructs {
    /// Reads both tables from the running JVM (at Agent_OnLoad or later: they are static data).
    pub(crate) fn read() -> Result<VmStructs, String> {
        let table = symbol_value(c"gHotSpotVMStructs")?;
        let type_name = symbol_value(c"gHotSpotVMStructEntryTypeNameOffset")?;
        let field_name = symbol_value(c"gHotSpotVMStructEntryFieldNameOffset")?;
        let type_string = symbol_value(c"gHotSpotVMStructEntryTypeStringOffset")?;
        let is_static = symbol_value(c"gHotSpotVMStructEntryIsStaticOffset")?;
        let offset = symbol_value(c"gHotSpotVMStructEntryOffsetOffset")?;
        let address = symbol_value(c"gHotSpotVMStructEntryAddressOffset")?;
        let stride = symbol_value(c"gHotSpotVMStructEntryArrayStride")?;
        let mut fields = HashMap::new();
        for i in 0.. {
            let e = table + i * stride;
            // SAFETY: the table is an array of entries of `stride` bytes whose last entry has a
            // null type name (vmStructs.cpp's GENERATE_VM_STRUCT_LAST_ENTRY); the offsets of each
            // member come from the JVM itself, and the strings are static C strings.
            let (t, f, ts, st, off, addr) = unsafe {
                let Some(t) = string_at(e + type_name) else { break };
                (
                    t,
                    string_at(e + field_name).unwrap_or_default(),
                    string_at(e + type_string).unwrap_or_default(),
                    *((e + is_static) as *const i32) != 0,
                    *((e + offset) as *const u64) as usize,
                    *((e + address) as *const usize),
                )
            };
            fields.insert((t, f), Field { type_string: ts, is_static: st, offset: off, address: addr });
        }
        let types = symbol_value(c"gHotSpotVMTypes")?;
        let type_name = symbol_value(c"gHotSpotVMTypeEntryTypeNameOffset")?;
        let size = symbol_value(c"gHotSpotVMTypeEntrySizeOffset")?;
        let stride = symbol_value(c"gHotSpotVMTypeEntryArrayStride")?;
        let mut sizes = HashMap::new();
        for i in 0.. {
            let e = types + i * stride;
            // SAFETY: as above, for the types table (ends with a null type name).
            let (t, s) = unsafe {
                let Some(t) = string_at(e + type_name) else { break };
                (t, *((e + size) as *const u64) as usize)
            };
            sizes.insert(t, s);
        }
        Ok(VmStructs { fields, sizes })
    }

    /// The C type of a field, as the table spells it.
    pub(crate) fn field_type(&self, ty: &str, name: &str) -> Result<String, String> {
        Ok(self.field(ty, name)?.type_string.clone())
    }

    fn field(&self, ty: &str, name: &str) -> Result<&Field, String> {
        self.fields.get(&(ty.to_string(), name.to_string())).ok_or_else(|| format!("this HotSpot does not describe {ty}::{name}"))
    }

    /// The offset of a non-static field.
    pub(crate) fn offset(&self, ty: &str, name: &str) -> Result<usize, String> {
        let f = self.field(ty, name)?;
        if f.is_static {
            return Err(format!("{ty}::{name} is static"));
        }
        Ok(f.offset)
    }

    /// The offset of the first of several names that exists (fields moved between JDK releases).
    pub(crate) fn offset_of_any(&self, candidates: &[(&str, &str)]) -> Result<usize, String> {
        candidates.iter().find_map(|(t, n)| self.offset(t, n).ok()).ok_or_else(|| {
            let names: Vec<String> = candidates.iter().map(|(t, n)| format!("{t}::{n}")).collect();
            format!("this HotSpot describes none of {}", names.join(", "))
        })
    }

    /// The address of a static field.
    pub(crate) fn address(&self, ty: &str, name: &str) -> Result<usize, String> {
        let f = self.field(ty, name)?;
        if !f.is_static || f.address == 0 {
            return Err(format!("{ty}::{name} is not a static field with an address"));
        }
        Ok(f.address)
    }

    pub(crate) fn size(&self, ty: &str) -> Result<usize, String> {
        self.sizes.get(ty).copied().ok_or_else(|| format!("this HotSpot does not describe the type {ty}"))
    }
}

/// What [`enable_bool_flag`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FlagChange {
    /// It was off by default and is on now.
    TurnedOn,
    /// It was on already.
    AlreadyOn,
    /// The user set it off (on the command line, in a file, …): left as given.
    LeftOff,
}

/// The JVM's options (`-X…`, `-XX:…`, those of `JAVA_TOOL_OPTIONS` included), in order, from
/// `Arguments::_jvm_args_array` (parsed before Agent_OnLoad).
pub(crate) fn jvm_args(vs: &VmStructs) -> Result<Vec<String>, String> {
    let array = vs.address("Arguments", "_jvm_args_array")?;
    let count = vs.address("Arguments", "_num_jvm_args")?;
    // SAFETY: the addresses of Arguments' static `char** _jvm_args_array` and `int _num_jvm_args`
    // (from the VM's own table); the array holds that many C strings, fixed after parsing.
    unsafe {
        let base = *(array as *const usize);
        let n = *(count as *const c_int);
        if base == 0 || n <= 0 {
            return Ok(Vec::new());
        }
        Ok((0..n as usize).filter_map(|i| string_at(base + i * std::mem::size_of::<usize>())).collect())
    }
}

/// Whether the JVM must map its class data sharing archive and fails to start otherwise:
/// `-Xshare:on` (the flag `RequireSharedSpaces` up to JDK 24, an option only later) or JDK 25's
/// `-XX:AOTMode=on`; the last `-Xshare:` given wins. None if the tables do not say.
pub(crate) fn class_sharing_required(vs: &VmStructs) -> Option<bool> {
    if let Ok(on) = bool_flag(vs, "RequireSharedSpaces") {
        return Some(on);
    }
    let args = jvm_args(vs).ok()?;
    let share = args.iter().rev().find(|a| a.starts_with("-Xshare:")).map(|a| a == "-Xshare:on").unwrap_or(false);
    let aot = args.iter().rev().find(|a| a.starts_with("-XX:AOTMode=")).map(|a| a == "-XX:AOTMode=on").unwrap_or(false);
    Some(share || aot)
}

/// The value of a boolean HotSpot flag (after the command line was parsed: from Agent_OnLoad on).
pub(crate) fn bool_flag(vs: &VmStructs, name: &str) -> Result<bool, String> {
    let (value, _) = bool_flag_at(vs, name)?;
    // SAFETY: the flag's value address from the VM's flag table, a bool for the VM's life.
    Ok(unsafe { *value } != 0)
}

/// Turns a boolean HotSpot flag on unless the user set it: in Agent_OnLoad, before any code is
/// compiled, as if given with `-XX:+NAME`.
pub(crate) fn enable_bool_flag(vs: &VmStructs, name: &str) -> Result<FlagChange, String> {
    let (value, user_set) = bool_flag_at(vs, name)?;
    // SAFETY: as in `bool_flag`; written only here, at Agent_OnLoad, before any thread reads it.
    unsafe {
        if *value != 0 {
            return Ok(FlagChange::AlreadyOn);
        }
        if user_set {
            return Ok(FlagChange::LeftOff);
        }
        *value = 1;
    }
    Ok(FlagChange::TurnedOn)
}

/// The address of a boolean flag's value, and whether it was set (rather than a default).
fn bool_flag_at(vs: &VmStructs, name: &str) -> Result<(*mut u8, bool), String> {
    // JDK 9 to 15 call the type `Flag`; hpmagent supports JDK 17 and later.
    let flags = vs.address("JVMFlag", "flags")?;
    let count = vs.address("JVMFlag", "numFlags")?;
    let size = vs.size("JVMFlag")?;
    let name_off = vs.offset("JVMFlag", "_name")?;
    let addr_off = vs.offset("JVMFlag", "_addr")?;
    let type_off = vs.offset("JVMFlag", "_type")?;
    let flags_off = vs.offset("JVMFlag", "_flags")?;
    // SAFETY: `flags` and `numFlags` are the addresses of JVMFlag's static `JVMFlag* flags` and
    // `size_t numFlags` (from the VM's own table); the array has numFlags entries of `size` bytes
    // whose members are at the offsets the table gives.
    unsafe {
        let base = *(flags as *const usize);
        let n = *(count as *const usize);
        for i in 0..n {
            let f = base + i * size;
            if string_at(f + name_off).as_deref() != Some(name) {
                continue;
            }
            // JVMFlag::TYPE_bool is 0 in every release that has `_type` (JDK 16 and later).
            if *((f + type_off) as *const c_int) != 0 {
                return Err(format!("the HotSpot flag {name} is not a boolean"));
            }
            let value = *((f + addr_off) as *const *mut u8);
            if value.is_null() {
                return Err(format!("the HotSpot flag {name} has no value"));
            }
            // The low four bits of `_flags` are where the value came from; 0 is the default.
            return Ok((value, *((f + flags_off) as *const u32) & 0xf != 0));
        }
    }
    Err(format!("this HotSpot has no flag {name}"))
}

/// Where HotSpot keeps its code, and the offsets of the few fields a lookup reads: enough to say,
/// from a program counter, whether it is in the interpreter, in a compiled method (which one, and
/// by which compiler tier), or in other generated code. Read at VMInit (the code cache is made
/// after Agent_OnLoad); fixed afterwards, so a signal handler can use it.
pub(crate) struct CodeLayout {
    interpreter: (usize, usize),
    heaps: Vec<Heap>,
    heap_block_size: usize,
    heap_block_used: usize,
    blob_name: usize,
    nmethod_method: usize,
    nmethod_level: usize,
    /// The size of `_comp_level` (an `int` in JDK 17, a one-byte `CompLevel` later).
    level_size: usize,
    /// From a `Method*` to its jmethodID; None where the tables lack a field.
    method_ids: Option<MethodIds>,
}

/// The fields that lead from a `Method*` to the jmethodID JVMTI gave out for it: its
/// `ConstMethod` holds the method's id number and its constant pool, whose holder class keeps
/// the jmethodIDs by id number (`InstanceKlass::_methods_jmethod_ids`, the length in slot 0).
struct MethodIds {
    const_method: usize,
    idnum: usize,
    constants: usize,
    pool_holder: usize,
    jmethod_ids: usize,
}

impl MethodIds {
    fn read(vs: &VmStructs) -> Result<MethodIds, String> {
        Ok(MethodIds {
            const_method: vs.offset("Method", "_constMethod")?,
            idnum: vs.offset("ConstMethod", "_method_idnum")?,
            constants: vs.offset("ConstMethod", "_constants")?,
            pool_holder: vs.offset("ConstantPool", "_pool_holder")?,
            jmethod_ids: vs.offset("InstanceKlass", "_methods_jmethod_ids")?,
        })
    }
}

/// One code heap (with a segmented code cache: non-nmethods, profiled and non-profiled nmethods).
struct Heap {
    /// Its committed memory: `low` fixed, the current high end read at each lookup.
    low: usize,
    high_at: usize,
    /// The segment map: one byte per segment, the distance back towards its block's start.
    segmap: usize,
    log2_segment: u32,
}

impl CodeLayout {
    /// Reads the layout from the running VM (after the code cache exists: VMInit).
    pub(crate) fn read(vs: &VmStructs) -> Result<CodeLayout, String> {
        let heaps_at = vs.address("CodeCache", "_heaps")?;
        let len_off = vs.offset("GrowableArrayBase", "_len")?;
        let data_off = vs.offset("GrowableArray<int>", "_data")?;
        let memory = vs.offset("CodeHeap", "_memory")?;
        let segmap = vs.offset("CodeHeap", "_segmap")?;
        let log2 = vs.offset("CodeHeap", "_log2_segment_size")?;
        let low = vs.offset("VirtualSpace", "_low")?;
        let high = vs.offset("VirtualSpace", "_high")?;
        let interp = vs.address("AbstractInterpreter", "_code")?;
        let stub_buffer = vs.offset("StubQueue", "_stub_buffer")?;
        let buffer_limit = vs.offset("StubQueue", "_buffer_limit")?;
        let level_field = vs.field("nmethod", "_comp_level")?;
        let level_size = if level_field.type_string == "int" { 4 } else { vs.size(&level_field.type_string)? };
        if level_size != 1 && level_size != 4 {
            return Err(format!("nmethod::_comp_level has an unexpected size ({level_size})"));
        }
        let layout = |heaps: Vec<Heap>, interpreter: (usize, usize)| -> Result<CodeLayout, String> {
            Ok(CodeLayout {
                interpreter,
                heaps,
                heap_block_size: vs.size("HeapBlock")?,
                heap_block_used: vs.offset("HeapBlock::Header", "_used")?,
                blob_name: vs.offset("CodeBlob", "_name")?,
                nmethod_method: vs.offset_of_any(&[("nmethod", "_method"), ("CompiledMethod", "_method")])?,
                nmethod_level: level_field.offset,
                level_size,
                method_ids: MethodIds::read(vs).ok(),
            })
        };
        // SAFETY: addresses and offsets from the VM's own tables; CodeCache::_heaps and the
        // interpreter's StubQueue are made during VM initialisation, before VMInit, and live as
        // long as the VM.
        unsafe {
            let array = *(heaps_at as *const usize);
            let queue = *(interp as *const usize);
            if array == 0 || queue == 0 {
                return Err("the code cache is not initialised yet".into());
            }
            let n = *((array + len_off) as *const c_int);
            let data = *((array + data_off) as *const *const usize);
            let mut heaps = Vec::new();
            for i in 0..n.max(0) as usize {
                let h = *data.add(i);
                heaps.push(Heap {
                    low: *((h + memory + low) as *const usize),
                    high_at: h + memory + high,
                    segmap: *((h + segmap + low) as *const usize),
                    log2_segment: *((h + log2) as *const c_int) as u32,
                });
            }
            let start = *((queue + stub_buffer) as *const usize);
            let limit = *((queue + buffer_limit) as *const c_int) as usize;
            layout(heaps, (start, start + limit))
        }
    }

    /// The code at `pc`, and which of `frames` (innermost first; jmethodIDs) owns it. Reads VM
    /// memory that may change under it: run only inside the fault guard.
    ///
    /// # Safety
    /// `frames`' methods are jmethodIDs (or null), and the caller recovers from a fault
    /// (`hpm_guarded_call`).
    pub(crate) unsafe fn code_at(&self, pc: usize, frames: &[RawFrame]) -> CodeAt {
        // SAFETY (all): the caller's contract.
        match unsafe { self.kind_at(pc) } {
            CodeKind::Interpreter => CodeAt::interpreted(),
            CodeKind::Outside => CodeAt::outside(),
            // A free block (code just unloaded) or an unused segment.
            CodeKind::Unused => CodeAt::stub(),
            CodeKind::Blob(blob) => {
                let method = if unsafe { self.is_compiled_method(blob) } { unsafe { self.blob_method(blob) } } else { 0 };
                match frames.iter().position(|f| method != 0 && unsafe { method_of_frame(f) } == method) {
                    Some(owner) => CodeAt::compiled(owner, tier_of_level(unsafe { self.blob_level(blob) })),
                    // Not a compiled method of this stack: a stub, an adapter, a runtime blob.
                    None => CodeAt::stub(),
                }
            }
        }
    }

    /// What HotSpot has at `pc`.
    ///
    /// # Safety
    /// Under the fault guard.
    pub(crate) unsafe fn kind_at(&self, pc: usize) -> CodeKind {
        if pc >= self.interpreter.0 && pc < self.interpreter.1 {
            return CodeKind::Interpreter;
        }
        for h in &self.heaps {
            // SAFETY: high_at is a field of a live CodeHeap (caller: under the guard).
            let high = unsafe { *(h.high_at as *const usize) };
            if pc < h.low || pc >= high {
                continue;
            }
            // SAFETY: under the guard; see CodeHeap::find_block_for in HotSpot's heap.cpp.
            let Some(block) = (unsafe { self.block_start(h, pc) }) else { return CodeKind::Unused };
            // SAFETY: under the guard: the block's header.
            if unsafe { *((block + self.heap_block_used) as *const u8) } == 0 {
                return CodeKind::Unused;
            }
            return CodeKind::Blob(block + self.heap_block_size);
        }
        CodeKind::Outside
    }

    /// Whether a blob is a compiled Java method (HotSpot names those "nmethod", and a native
    /// method's wrapper "native nmethod"; JDK 17 has no other mark of a blob's kind).
    ///
    /// # Safety
    /// Under the fault guard, `blob` from [`CodeLayout::kind_at`].
    pub(crate) unsafe fn is_compiled_method(&self, blob: usize) -> bool {
        // SAFETY: the caller's contract; `_name` points to a static C string.
        unsafe {
            let name = *((blob + self.blob_name) as *const *const u8);
            !name.is_null() && (c_string_is(name, b"nmethod") || c_string_is(name, b"native nmethod"))
        }
    }

    /// The `Method*` field of a compiled method's blob.
    ///
    /// # Safety
    /// Under the fault guard, `blob` a compiled method ([`CodeLayout::is_compiled_method`]).
    pub(crate) unsafe fn blob_method(&self, blob: usize) -> usize {
        // SAFETY: the caller's contract.
        unsafe { *((blob + self.nmethod_method) as *const usize) }
    }

    /// The compilation level of a compiled method's blob.
    ///
    /// # Safety
    /// As [`CodeLayout::blob_method`], for a blob whose method matched a frame's.
    pub(crate) unsafe fn blob_level(&self, blob: usize) -> i32 {
        // SAFETY: the caller's contract.
        unsafe {
            if self.level_size == 1 {
                *((blob + self.nmethod_level) as *const i8) as i32
            } else {
                *((blob + self.nmethod_level) as *const i32)
            }
        }
    }

    /// A layout over one code heap laid out by a test (`low`, the cell holding its high end, its
    /// segment map, 2^`log2` bytes per segment): 16-byte block headers with the used flag at 8;
    /// blobs with `_name` at 0, `_method` at 8 and an int `_comp_level` at 16.
    #[cfg(test)]
    pub(crate) fn for_test(interpreter: (usize, usize), low: usize, high_at: usize, segmap: usize, log2: u32) -> CodeLayout {
        CodeLayout {
            interpreter,
            heaps: vec![Heap { low, high_at, segmap, log2_segment: log2 }],
            heap_block_size: 16,
            heap_block_used: 8,
            blob_name: 0,
            nmethod_method: 8,
            nmethod_level: 16,
            level_size: 4,
            method_ids: None,
        }
    }

    /// The jmethodID of a `Method*`, or 0 where it has none (JVMTI never named the method) or
    /// the tables lack a field. The id is taken only if it points back at the method.
    ///
    /// # Safety
    /// Under the fault guard; `method` is a `Method*` read from the VM (a compiled method's).
    pub(crate) unsafe fn method_id(&self, method: usize) -> u64 {
        let Some(m) = &self.method_ids else { return 0 };
        if method == 0 {
            return 0;
        }
        // SAFETY (all): the caller's contract; each pointer is VM metadata, and a stale one
        // faults into the guard or fails the final check.
        unsafe {
            let const_method = *((method + m.const_method) as *const usize);
            let idnum = *((const_method + m.idnum) as *const u16) as usize;
            let holder = *((*((const_method + m.constants) as *const usize) + m.pool_holder) as *const usize);
            let ids = *((holder + m.jmethod_ids) as *const *const usize);
            if ids.is_null() || idnum >= *ids {
                return 0;
            }
            let id = *ids.add(idnum + 1);
            if id == 0 || *(id as *const usize) != method {
                return 0;
            }
            id as u64
        }
    }

    /// The start of the block holding `pc` in heap `h`, from the segment map.
    ///
    /// # Safety
    /// Under the fault guard, with `pc` inside the heap's committed memory.
    unsafe fn block_start(&self, h: &Heap, pc: usize) -> Option<usize> {
        let mut seg = (pc - h.low) >> h.log2_segment;
        loop {
            // SAFETY: the segment map has one byte per segment of the committed heap.
            let step = unsafe { *((h.segmap + seg) as *const u8) } as usize;
            if step == 0xff {
                return None; // an unused segment
            }
            if step == 0 {
                return Some(h.low + (seg << h.log2_segment));
            }
            seg = seg.checked_sub(step)?;
        }
    }
}

/// Whether the C string at `p` is `want`, read without allocating (in a signal handler).
///
/// # Safety
/// `p` points to a NUL-terminated string (or the caller is under the fault guard).
unsafe fn c_string_is(p: *const u8, want: &[u8]) -> bool {
    for (i, &b) in want.iter().enumerate() {
        // SAFETY: the string is read up to its NUL or the first difference.
        if unsafe { *p.add(i) } != b {
            return false;
        }
    }
    // SAFETY: all of `want` matched, so the string is at least that long.
    unsafe { *p.add(want.len()) == 0 }
}

/// What is at a program counter, for [`CodeLayout::kind_at`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CodeKind {
    /// The bytecode interpreter's code.
    Interpreter,
    /// A code blob (compiled method, stub, adapter, runtime blob) at this address.
    Blob(usize),
    /// In a code heap, but in no live blob (a free block, an unused segment).
    Unused,
    /// Outside every code heap and the interpreter: native or the VM's own code.
    Outside,
}

/// The `Method*` a frame's jmethodID points to (a jmethodID is a pointer to a slot holding it),
/// or 0 for a frame without one.
///
/// # Safety
/// Under the fault guard; `f.method` is a jmethodID or a small code.
pub(crate) unsafe fn method_of_frame(f: &RawFrame) -> usize {
    if f.method < 4096 {
        return 0;
    }
    // SAFETY: the caller's contract.
    unsafe { *(f.method as *const usize) }
}

/// The compiler of a HotSpot compilation level: tiers 1 to 3 are C1's, 4 is C2's (or a JVMCI
/// compiler's). Level 0 (`CompLevel_none`) is code no compiler made: a native method's wrapper
/// or a method handle intrinsic, which HotSpot also keeps as nmethods.
pub(crate) fn tier_of_level(level: i32) -> Tier {
    match level {
        1..=3 => Tier::C1,
        4 => Tier::C2,
        _ => Tier::Unknown,
    }
}


#[cfg(test)]
mod tests {
    use super::*;

    fn field(offset: usize) -> Field {
        Field { type_string: "int".into(), is_static: false, offset, address: 0 }
    }

    fn static_field(address: usize) -> Field {
        Field { type_string: "address".into(), is_static: true, offset: 0, address }
    }

    fn tables(fields: Vec<(&str, &str, Field)>, sizes: &[(&str, usize)]) -> VmStructs {
        VmStructs {
            fields: fields.into_iter().map(|(t, f, v)| ((t.to_string(), f.to_string()), v)).collect(),
            sizes: sizes.iter().map(|(t, s)| (t.to_string(), *s)).collect(),
        }
    }

    /// A JVMFlag as HotSpot lays it out (24 bytes: `_addr`, `_name`, `_flags`, `_type`).
    #[repr(C)]
    struct FakeFlag {
        addr: *mut u8,
        name: *const c_char,
        flags: u32,
        kind: c_int,
    }

    fn flag_tables(flags: &*const FakeFlag, count: &usize) -> VmStructs {
        tables(
            vec![
                ("JVMFlag", "flags", static_field(flags as *const _ as usize)),
                ("JVMFlag", "numFlags", static_field(count as *const _ as usize)),
                ("JVMFlag", "_addr", field(0)),
                ("JVMFlag", "_name", field(8)),
                ("JVMFlag", "_flags", field(16)),
                ("JVMFlag", "_type", field(20)),
            ],
            &[("JVMFlag", std::mem::size_of::<FakeFlag>())],
        )
    }

    #[test]
    fn a_default_boolean_flag_is_turned_on_and_one_the_user_set_is_left() {
        let (mut dns, mut other, mut user_set, mut int_flag) = (0u8, 1u8, 0u8, 0u8);
        let flags = [
            FakeFlag { addr: &mut other, name: c"UseSerialGC".as_ptr(), flags: 0, kind: 0 },
            FakeFlag { addr: &mut dns, name: c"DebugNonSafepoints".as_ptr(), flags: 0, kind: 0 },
            // Origin 1: the command line.
            FakeFlag { addr: &mut user_set, name: c"UserSetFlag".as_ptr(), flags: 1, kind: 0 },
            FakeFlag { addr: &mut int_flag, name: c"SomeIntFlag".as_ptr(), flags: 0, kind: 1 },
        ];
        let (base, count) = (flags.as_ptr(), flags.len());
        let vs = flag_tables(&base, &count);
        assert_eq!(enable_bool_flag(&vs, "DebugNonSafepoints"), Ok(FlagChange::TurnedOn));
        assert_eq!(enable_bool_flag(&vs, "DebugNonSafepoints"), Ok(FlagChange::AlreadyOn));
        assert_eq!(enable_bool_flag(&vs, "UseSerialGC"), Ok(FlagChange::AlreadyOn));
        assert_eq!(enable_bool_flag(&vs, "UserSetFlag"), Ok(FlagChange::LeftOff));
        assert!(enable_bool_flag(&vs, "SomeIntFlag").unwrap_err().contains("not a boolean"));
        assert!(enable_bool_flag(&vs, "NoSuchFlag").unwrap_err().contains("no flag NoSuchFlag"));
        assert_eq!((dns, other, user_set, int_flag), (1, 1, 0, 0));
        let missing = tables(vec![], &[]);
        assert_eq!(enable_bool_flag(&missing, "DebugNonSafepoints").unwrap_err(), "this HotSpot does not describe JVMFlag::flags");
    }

    /// A code heap of 16 segments of 64 bytes in memory of the test's own, with an interpreter
    /// range, a compiled method (level 3, then 4) in segments 2..6, a stub in 8..9 and a free
    /// block in 10..11, laid out as HotSpot's segment map and heap blocks describe them.
    #[test]
    fn a_program_counter_is_classified_through_the_segment_map() {
        const SEG: usize = 64;
        let mut heap = vec![0u64; 16 * SEG / 8];
        let low = heap.as_mut_ptr() as usize;
        let high = low + 16 * SEG;
        // Segment map: 0xff unused; a block's first segment 0, the next ones count back to it.
        let segmap: Vec<u8> = vec![0xff, 0xff, 0, 1, 2, 3, 0xff, 0xff, 0, 1, 0, 1, 0xff, 0xff, 0xff, 0xff];
        // Heap block header (16 bytes: length, used flag at 8), then the blob: _name at 0,
        // _method at 16, _comp_level at 24 (an int, as in JDK 17).
        let method_of_b: usize = 0xb0b0;
        let put = |heap: &mut Vec<u64>, seg: usize, used: u64, name: &std::ffi::CStr, method: u64, level: u64| {
            let w = seg * SEG / 8;
            heap[w] = 4;
            heap[w + 1] = used;
            heap[w + 2] = name.as_ptr() as u64;
            heap[w + 2 + 2] = method;
            heap[w + 2 + 3] = level;
        };
        put(&mut heap, 2, 1, c"nmethod", method_of_b as u64, 3);
        // A stub whose bytes at `_method`'s offset happen to equal a frame's method.
        put(&mut heap, 8, 1, c"StubRoutines (1)", method_of_b as u64, 0);
        put(&mut heap, 10, 0, c"nmethod", method_of_b as u64, 4);
        let high_cell = high;
        let interpreter = vec![0u8; 256];
        let interp = (interpreter.as_ptr() as usize, interpreter.as_ptr() as usize + 256);
        let layout = CodeLayout {
            interpreter: interp,
            heaps: vec![Heap { low, high_at: &high_cell as *const usize as usize, segmap: segmap.as_ptr() as usize, log2_segment: 6 }],
            heap_block_size: 16,
            heap_block_used: 8,
            blob_name: 0,
            nmethod_method: 16,
            nmethod_level: 24,
            level_size: 4,
            method_ids: None,
        };
        // jmethodIDs: pointers to slots holding the Method*.
        let (slot_a, slot_b, slot_c) = (0xa0a0usize, method_of_b, 0xc0c0usize);
        let frames = [
            RawFrame::new(1, &slot_a as *const usize as u64),
            RawFrame::new(2, &slot_b as *const usize as u64),
            RawFrame::new(3, &slot_c as *const usize as u64),
        ];
        // SAFETY (all lookups): every address read is in the vectors above.
        let at = |pc: usize| unsafe { layout.code_at(pc, &frames) };
        assert!(at(interp.0 + 10).is_interpreted());
        // Inside the compiled method, in its last segment: owned by frame 1 (frame 0 was inlined into it).
        assert_eq!(at(low + 5 * SEG + 7).compiled_by(), Some((1, Tier::C1)));
        assert_eq!(at(low + 2 * SEG + 40).compiled_by(), Some((1, Tier::C1)));
        heap[2 * SEG / 8 + 5] = 4;
        assert_eq!(at(low + 3 * SEG).compiled_by(), Some((1, Tier::C2)), "tier 4 is C2's");
        heap[2 * SEG / 8 + 5] = 0;
        assert_eq!(at(low + 3 * SEG).compiled_by(), Some((1, Tier::Unknown)), "level 0 (a native method's wrapper) is no compiler's");
        assert!(at(low + 8 * SEG + 70).is_stub(), "a blob that is no compiled method");
        assert!(at(low + 11 * SEG).is_stub(), "a free block: code just unloaded");
        assert!(at(low + SEG).is_stub(), "an unused segment");
        assert!(at(high + 8).is_outside());
        assert!(at(low - 8).is_outside());
        // With no frame at all owning it, the method's own code is a stub to this stack.
        // SAFETY: as above.
        assert!(unsafe { layout.code_at(low + 3 * SEG, &frames[..1]) }.is_stub());
    }

    #[test]
    fn a_missing_field_names_itself() {
        let vs = tables(vec![("CodeCache", "_heaps", static_field(8))], &[]);
        assert_eq!(CodeLayout::read(&vs).err().unwrap(), "this HotSpot does not describe GrowableArrayBase::_len");
        assert_eq!(vs.offset_of_any(&[("nmethod", "_method"), ("CompiledMethod", "_method")]).unwrap_err(), "this HotSpot describes none of nmethod::_method, CompiledMethod::_method");
    }
}
