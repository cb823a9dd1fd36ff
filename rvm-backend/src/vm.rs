//! The VM instance: registry of classes, heap, global roots, string interning, Java threads.

use crate::class::{Class, Registry};
use crate::code::Code;
use crate::heap::{array_words, Heap, Ref, Space};
use crate::hooks::{hook, Events, Hooks, JavaStack};
use crate::sched::Sched;
use rustc_hash::FxHashMap;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};
use std::sync::{Arc, Mutex};

/// A slot of a thread's value stack (locals and operand stacks). Longs and doubles take two slots,
/// the value in the first and `Top` in the second, exactly as in the JVMS.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    Top,
    Int(i32),
    Long(i64),
    Float(f32),
    Double(f64),
    Ref(Ref),
}

pub struct Frame {
    pub method: &'static crate::class::Method,
    pub code: &'static Code,
    pub pc: usize,
    /// Index of local 0 in the thread's value stack.
    pub bp: usize,
    /// Saved operand stack top (absolute index) while a callee runs.
    pub sp: usize,
    /// Object whose monitor a synchronized method holds (0 = none). A GC root.
    pub sync: Ref,
}

/// Why a thread is parked after a blocking native or monitor operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reacquire {
    None,
    /// After `wait`: re-enter `monitor` with `count` recursions before continuing.
    Monitor { monitor: u32, count: u32 },
}

pub struct JThread {
    pub id: u32,
    pub name: String,
    /// The `java.lang.Thread` object (0 for VM threads). A GC root.
    pub obj: Ref,
    pub stack: Vec<Value>,
    pub sp: usize,
    pub frames: Vec<Frame>,
    pub daemon: bool,
    pub vm_thread: bool,
    /// An exception to throw when the thread resumes (e.g. InterruptedException). A GC root.
    pub pending: Ref,
    pub reacquire: Reacquire,
    /// Exception that ended the thread, if any (for the exit code of `main`).
    pub uncaught: bool,
    pub finished: bool,
    /// Collection count and (frame depth, pc) when this thread last asked for a collection, to tell
    /// a retried allocation that still cannot fit (OutOfMemoryError) from a new request.
    pub gc_seen: usize,
    pub gc_at: (usize, usize),
    /// False until the thread first runs: the method entries of frames pushed before (its bottom
    /// frame) are reported then, on its own processor.
    pub started: bool,
    /// Blocked on a contended monitor and not yet through it (`monitor_contended_enter` reported,
    /// `monitor_contended_entered` due).
    pub contending: bool,
    /// Parked in `Object.wait` (`monitor_waited` due when it resumes).
    pub waiting: bool,
    /// Why it is about to leave its processor (an [`rvm_abi::switch_reason`]), set by the native
    /// that blocks or yields (sleep, wait, park, unpark); 0 = the default for its outcome (see
    /// `sched::leave_reason`). Read and cleared by its processor.
    pub switch_reason: u32,
    /// CPU time (ns) of its processor's OS thread while this thread ran, up to its last switch
    /// away, and that OS thread's CPU clock when it last began running it (`ThreadMXBean`).
    pub cpu_ns: u64,
    pub cpu_start: u64,
}

impl JThread {
    pub fn new(id: u32, name: String, obj: Ref, daemon: bool, vm_thread: bool) -> JThread {
        JThread {
            id,
            name,
            obj,
            stack: vec![Value::Top; 256],
            sp: 0,
            frames: Vec::new(),
            daemon,
            vm_thread,
            pending: 0,
            reacquire: Reacquire::None,
            uncaught: false,
            finished: false,
            gc_seen: usize::MAX,
            gc_at: (0, 0),
            started: false,
            contending: false,
            waiting: false,
            switch_reason: 0,
            cpu_ns: 0,
            cpu_start: 0,
        }
    }
}

/// On whose behalf an allocation is made.
#[derive(Clone, Copy)]
pub enum Alloc<'a> {
    /// The VM's own objects: class mirrors, string constants, boot objects, exceptions the VM
    /// creates (NullPointerException, InterruptedException, …) and their backtraces. May use the
    /// heap's reserve; not reported to the agent (there is no Java allocation site to charge).
    Vm,
    /// A Java thread's allocation (`new`, `newarray`, natives that return new objects), reported to
    /// the agent with the thread's stack; `u32` is the native method allocating, if any
    /// ([`rvm_abi::NO_METHOD`] for bytecode).
    Java(&'a JThread, u32),
}

impl Alloc<'_> {
    #[inline]
    pub fn is_vm(&self) -> bool {
        matches!(self, Alloc::Vm)
    }
}

pub struct Options {
    pub vps: usize,
    pub quantum_ms: u64,
    pub max_heap: usize,
    pub classpath: Vec<std::path::PathBuf>,
    /// `-agentpath:LIB[=OPTIONS]`: the library (a path, any bytes) and its option string.
    pub agent: Option<(std::path::PathBuf, Option<String>)>,
    pub main_class: String,
    pub args: Vec<String>,
    pub verbose_gc: bool,
}

pub struct Vm {
    pub reg: Registry,
    pub heap: Heap,
    /// Global roots: class mirrors, interned strings and VM-owned objects. Appended under a lock;
    /// updated by the collector.
    pub roots: Mutex<Vec<Ref>>,
    pub roots_fast: Vec<AtomicU32>,
    pub interned: Mutex<FxHashMap<Vec<u16>, u32>>,
    pub sched: Sched,
    /// The agent (or test) hooks; set with [`Vm::set_hooks`] before the VM is shared.
    pub hooks: Option<Box<dyn Hooks>>,
    /// Which hook events to deliver (all false without hooks): the one branch at each event site.
    pub events: Events,
    pub opts: Options,
    pub natives: crate::native::NativeTable,
    pub out: Mutex<Vec<u8>>,
    pub oom_root: AtomicU32,
    pub hash_seed: AtomicU32,
    pub str_off: std::sync::OnceLock<usize>,
}

pub const MAX_ROOTS: usize = 1 << 18;

impl Vm {
    pub fn new(opts: Options) -> Vm {
        let vps = opts.vps;
        Vm {
            reg: Registry::new(opts.classpath.clone()),
            heap: Heap::new(opts.max_heap),
            roots: Mutex::new(Vec::new()),
            roots_fast: (0..MAX_ROOTS).map(|_| AtomicU32::new(0)).collect(),
            interned: Mutex::new(FxHashMap::default()),
            sched: Sched::new(vps),
            hooks: None,
            events: Events::NONE,
            opts,
            natives: crate::native::table(),
            out: Mutex::new(Vec::new()),
            oom_root: AtomicU32::new(0),
            hash_seed: AtomicU32::new(0x9e37_79b9),
            str_off: std::sync::OnceLock::new(),
        }
    }

    pub fn set_hooks(&mut self, hooks: Option<Box<dyn Hooks>>) {
        self.events = hooks.as_ref().map_or(Events::NONE, |h| h.events());
        self.hooks = hooks;
    }

    pub fn add_root(&self, r: Ref) -> u32 {
        let mut roots = self.roots.lock().unwrap();
        let i = roots.len();
        assert!(i < MAX_ROOTS, "too many VM roots");
        roots.push(r);
        self.roots_fast[i].store(r, Relaxed);
        i as u32
    }
    #[inline]
    pub fn root(&self, i: u32) -> Ref {
        self.roots_fast[i as usize].load(Relaxed)
    }
    pub fn set_root(&self, i: u32, r: Ref) {
        self.roots.lock().unwrap()[i as usize] = r;
        self.roots_fast[i as usize].store(r, Relaxed);
    }

    /// Allocates an instance of `class` (zeroed fields). `None` = a collection is needed.
    pub fn alloc_object(&self, sp: &Space, class: &Class, by: Alloc) -> Option<Ref> {
        let at = self.heap.alloc_words(class.instance_words, by.is_vm())?;
        sp.set(at, class.id);
        self.on_alloc(by, class.id, class.instance_words);
        Some(at as Ref)
    }
    pub fn alloc_array(&self, sp: &Space, class: &Class, len: usize, by: Alloc) -> Option<Ref> {
        let size = class.elem.unwrap().elem_size();
        let words = array_words(size, len);
        let at = self.heap.alloc_words(words, by.is_vm())?;
        sp.set(at, class.id);
        sp.set(at + 3, len as u32);
        self.on_alloc(by, class.id, words);
        Some(at as Ref)
    }
    /// Allocates `words` for a copy of an object of class `class` (`Object.clone`): the caller
    /// fills every word, header included.
    pub fn alloc_clone(&self, class: u32, words: usize, by: Alloc) -> Option<usize> {
        let at = self.heap.alloc_words(words, by.is_vm())?;
        self.on_alloc(by, class, words);
        Some(at)
    }
    /// The allocation event's one call site.
    #[inline]
    fn on_alloc(&self, by: Alloc, class: u32, words: usize) {
        if let Alloc::Java(th, native) = by {
            hook!(self, allocation(th.id, class, words * 4, JavaStack::with_native(&th.frames, native)));
        }
    }

    /// Size in words of the object at `r`.
    pub fn object_words(&self, sp: &Space, r: Ref, class: &Class) -> usize {
        match class.elem {
            Some(k) => array_words(k.elem_size(), sp.array_len(r)),
            None => class.instance_words,
        }
    }

    pub fn class_of(&self, sp: &Space, r: Ref) -> Arc<Class> {
        self.reg.class(sp.class_id(r)).clone()
    }

    /// Creates a `java.lang.String` from UTF-16 units.
    pub fn new_string_utf16(&self, sp: &Space, units: &[u16], by: Alloc) -> Option<Ref> {
        let string = self.reg.load("java/lang/String").expect("java.lang.String");
        let chars = self.reg.load("[C").expect("[C");
        let arr = self.alloc_array(sp, &chars, units.len(), by)?;
        for (i, u) in units.iter().enumerate() {
            sp.array_set(arr, 2, i, *u as u64);
        }
        let s = self.alloc_object(sp, &string, by)?;
        sp.set(s as usize + self.string_value_offset(), arr);
        Some(s)
    }
    pub fn new_string(&self, sp: &Space, s: &str, by: Alloc) -> Option<Ref> {
        let units: Vec<u16> = s.encode_utf16().collect();
        self.new_string_utf16(sp, &units, by)
    }
    pub fn string_value_offset(&self) -> usize {
        *self.str_off.get_or_init(|| self.string_value_offset_slow())
    }
    fn string_value_offset_slow(&self) -> usize {
        let string = self.reg.load("java/lang/String").expect("java.lang.String");
        string.lookup_field("value", "[C").map(|(c, i)| c.fields[i].offset).expect("String.value")
    }
    pub fn string_units(&self, sp: &Space, s: Ref) -> Vec<u16> {
        if s == 0 {
            return "null".encode_utf16().collect();
        }
        let arr = sp.get(s as usize + self.string_value_offset());
        let n = sp.array_len(arr);
        (0..n).map(|i| sp.array_get(arr, 2, i) as u16).collect()
    }
    pub fn rust_string(&self, sp: &Space, s: Ref) -> String {
        String::from_utf16_lossy(&self.string_units(sp, s))
    }

    /// Interns a string constant at translation or initialisation time; returns its root index.
    pub fn intern_constant(&self, s: &str) -> Result<u32, String> {
        self.intern_units(s.encode_utf16().collect())
    }

    /// Interns a string constant given as the modified UTF-8 bytes of the class file (for strings
    /// that are not valid UTF-8: unpaired surrogates, which Java strings may hold).
    pub fn intern_modified_utf8(&self, b: &[u8]) -> Result<u32, String> {
        let mut units = Vec::with_capacity(b.len());
        let mut k = 0;
        while k < b.len() {
            let c = b[k] as u16;
            let (u, n) = if c < 0x80 {
                (c, 1)
            } else if c & 0xE0 == 0xC0 && k + 1 < b.len() {
                (((c & 0x1F) << 6) | (b[k + 1] as u16 & 0x3F), 2)
            } else if c & 0xF0 == 0xE0 && k + 2 < b.len() {
                (((c & 0x0F) << 12) | ((b[k + 1] as u16 & 0x3F) << 6) | (b[k + 2] as u16 & 0x3F), 3)
            } else {
                (0xFFFD, 1)
            };
            units.push(u);
            k += n;
        }
        self.intern_units(units)
    }

    fn intern_units(&self, units: Vec<u16>) -> Result<u32, String> {
        if let Some(&i) = self.interned.lock().unwrap().get(&units) {
            return Ok(i);
        }
        let sp = self.heap.current();
        let r = self
            .new_string_utf16(&sp, &units, Alloc::Vm)
            .ok_or("java.lang.OutOfMemoryError: no room for string constants")?;
        let mut table = self.interned.lock().unwrap();
        if let Some(&i) = table.get(&units) {
            return Ok(i);
        }
        let i = self.add_root(r);
        table.insert(units, i);
        Ok(i)
    }

    /// The `java.lang.Class` mirror of `c`, created on first use (VM-internal allocation).
    pub fn mirror(&self, c: &Class) -> Ref {
        let i = c.mirror_root.load(Relaxed);
        if i != u32::MAX {
            return self.root(i);
        }
        let cc = self.reg.load("java/lang/Class").expect("java.lang.Class");
        let sp = self.heap.current();
        let r = self.alloc_object(&sp, &cc, Alloc::Vm).expect("heap exhausted creating a class mirror");
        let off = cc.lookup_field("id", "I").map(|(c, i)| c.fields[i].offset).expect("Class.id");
        sp.set(r as usize + off, c.id);
        let idx = self.add_root(r);
        match c.mirror_root.compare_exchange(u32::MAX, idx, Relaxed, Relaxed) {
            Ok(_) => r,
            Err(other) => self.root(other),
        }
    }

    pub fn field_offset(&self, class: &str, name: &str, desc: &str) -> usize {
        let c = self.reg.load(class).expect(class);
        c.lookup_field(name, desc).map(|(c, i)| c.fields[i].offset).unwrap_or_else(|| panic!("{class}.{name}"))
    }

    pub fn next_hash(&self) -> u32 {
        // xorshift: identity hashes are arbitrary, as in HotSpot.
        let mut x = self.hash_seed.load(Relaxed);
        loop {
            let mut y = x;
            y ^= y << 13;
            y ^= y >> 17;
            y ^= y << 5;
            match self.hash_seed.compare_exchange_weak(x, y, Relaxed, Relaxed) {
                Ok(_) => return (y & 0x7fff_ffff).max(1),
                Err(c) => x = c,
            }
        }
    }

    pub fn write_out(&self, fd: i32, bytes: &[u8]) {
        use std::io::Write;
        if fd == 1 {
            let mut o = self.out.lock().unwrap();
            o.extend_from_slice(bytes);
            if o.len() > 1 << 16 {
                let _ = std::io::stdout().write_all(&o);
                o.clear();
            }
        } else {
            self.flush_out();
            let _ = std::io::stderr().write_all(bytes);
        }
    }
    pub fn flush_out(&self) {
        use std::io::Write;
        let mut o = self.out.lock().unwrap();
        let mut so = std::io::stdout();
        let _ = so.write_all(&o);
        let _ = so.flush();
        o.clear();
    }
}
