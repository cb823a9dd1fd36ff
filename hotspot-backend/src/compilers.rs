//! The JIT compiler threads, looked at every sample interval while stack sampling runs: what
//! each one's CPU time since the previous look was spent compiling (method and tier), for
//! `sampled/jit.txt`. JVMTI says when compiled code appears but not what compiling it cost, and
//! its CompiledMethodLoad events are themselves costly to post; HotSpot's own structures (read
//! through VMStructs, every read under the fault guard) name the task a compiler thread is on.
//!
//! One look at a compiler thread reads its CPU clock (one system call) and follows
//! `CompilerThread::_env → ciEnv::_task → CompileTask::{_method, _comp_level, _compile_id,
//! _osr_bci}`; a task seen for the first time has its method named from its `Method`'s constant
//! pool symbols. The task can end while it is read: the read is repeated and kept only if the
//! task is the same before and after, and a name must be a plausible one.

use std::collections::HashMap;
use std::ffi::c_int;

use hpm_collectors::counters::thread_cpu_ns_by_tid;
use hpm_model::snapshot::CompilerActivity;
use hpm_collectors::recorder::Recorder;
use hpm_model::sampling::Tier;

use crate::fault_guard::guarded_read;
use crate::vmstructs::{tier_of_level, VmStructs};

/// Offsets of the fields a look reads.
pub(crate) struct CompilerLayout {
    java_thread_list: usize,
    list_length: usize,
    list_threads: usize,
    thread_osthread: usize,
    osthread_tid: usize,
    thread_env: usize,
    env_task: usize,
    task_method: usize,
    task_level: usize,
    task_id: usize,
    task_osr_bci: usize,
    method_const: usize,
    const_constants: usize,
    const_name_index: usize,
    pool_holder: usize,
    pool_length: usize,
    pool_size: usize,
    klass_name: usize,
    symbol_length: usize,
    symbol_body: usize,
}

impl CompilerLayout {
    pub(crate) fn read(vs: &VmStructs) -> Result<CompilerLayout, String> {
        Ok(CompilerLayout {
            java_thread_list: vs.address("ThreadsSMRSupport", "_java_thread_list")?,
            list_length: vs.offset("ThreadsList", "_length")?,
            list_threads: vs.offset("ThreadsList", "_threads")?,
            thread_osthread: vs.offset_of_any(&[("JavaThread", "_osthread"), ("Thread", "_osthread")])?,
            osthread_tid: vs.offset("OSThread", "_thread_id")?,
            thread_env: vs.offset("CompilerThread", "_env")?,
            env_task: vs.offset("ciEnv", "_task")?,
            task_method: vs.offset("CompileTask", "_method")?,
            task_level: vs.offset("CompileTask", "_comp_level")?,
            task_id: vs.offset("CompileTask", "_compile_id")?,
            task_osr_bci: vs.offset("CompileTask", "_osr_bci")?,
            method_const: vs.offset("Method", "_constMethod")?,
            const_constants: vs.offset("ConstMethod", "_constants")?,
            const_name_index: vs.offset("ConstMethod", "_name_index")?,
            pool_holder: vs.offset("ConstantPool", "_pool_holder")?,
            pool_length: vs.offset("ConstantPool", "_length")?,
            pool_size: vs.size("ConstantPool")?,
            klass_name: vs.offset("Klass", "_name")?,
            symbol_length: vs.offset("Symbol", "_length")?,
            symbol_body: vs.offset_of_any(&[("Symbol", "_body"), ("Symbol", "_body[0]")])?,
        })
    }
}

/// A task as one read saw it.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Task {
    at: usize,
    method: usize,
    level: i32,
    id: i32,
    osr_bci: i32,
}

/// Reads a `T` at `at`.
///
/// # Safety
/// Only inside a guarded read.
unsafe fn read<T: Copy>(at: usize) -> T {
    // SAFETY: the caller's contract: the fault guard abandons the read if `at` is not mapped.
    unsafe { std::ptr::read_volatile(at as *const T) }
}

/// One compiler thread: its OS thread id, its `CompilerThread`, its CPU time at the last look.
struct Watched {
    tid: i32,
    /// By the thread's name (`C1 CompilerThread0`); Unknown for JVMCI's.
    tier: Tier,
    thread: usize,
    cpu_ns: u64,
}

/// The compiler threads and the names of the tasks seen, kept between looks.
pub(crate) struct CompilerWatch {
    layout: CompilerLayout,
    threads: Vec<Watched>,
    names: HashMap<(usize, i32), String>,
    looks_since_refresh: u32,
}

/// The most compiler threads watched, and the longest thread list searched for them.
const MAX_COMPILER_THREADS: usize = 64;
const MAX_LISTED_THREADS: usize = 1 << 20;

/// Looks between two searches for compiler threads (HotSpot starts and stops some of them as
/// the compile queues grow and shrink).
const REFRESH_EVERY: u32 = 100;

impl CompilerWatch {
    pub(crate) fn new(layout: CompilerLayout) -> CompilerWatch {
        CompilerWatch { layout, threads: Vec::new(), names: HashMap::new(), looks_since_refresh: REFRESH_EVERY }
    }

    /// One look at every compiler thread, into the recorder.
    pub(crate) fn look(&mut self, recorder: &Recorder) {
        if self.looks_since_refresh >= REFRESH_EVERY {
            self.refresh();
            self.looks_since_refresh = 0;
        }
        self.looks_since_refresh += 1;
        let mut gone = false;
        for i in 0..self.threads.len() {
            let Ok(cpu) = thread_cpu_ns_by_tid(self.threads[i].tid) else {
                gone = true;
                self.threads[i].tid = 0;
                continue;
            };
            let used = cpu.saturating_sub(self.threads[i].cpu_ns);
            self.threads[i].cpu_ns = cpu;
            if used == 0 {
                continue;
            }
            let activity = match self.task_of(self.threads[i].thread) {
                Some(t) => match self.name_of(&t) {
                    Some(method) => CompilerActivity::Compiling {
                        method,
                        tier: tier_of_level(t.level),
                        id: t.id as u64,
                        // InvocationEntryBci (-1) marks a normal compilation.
                        osr: t.osr_bci >= 0,
                    },
                    None => CompilerActivity::Idle { tier: self.threads[i].tier },
                },
                None => CompilerActivity::Idle { tier: self.threads[i].tier },
            };
            recorder.compiler_look(self.threads[i].tid, used, &activity);
        }
        if gone {
            self.threads.retain(|w| w.tid != 0);
        }
    }

    /// Recording starts again: each thread's next look counts from now.
    pub(crate) fn rebase(&mut self) {
        for w in &mut self.threads {
            if let Ok(cpu) = thread_cpu_ns_by_tid(w.tid) {
                w.cpu_ns = cpu;
            }
        }
    }

    /// Finds the compiler threads: by name among the process's threads, then their
    /// `CompilerThread` in HotSpot's thread list, by OS thread id.
    fn refresh(&mut self) {
        let Ok(dir) = std::fs::read_dir("/proc/self/task") else { return };
        let mut tids: Vec<(i32, Tier)> = Vec::new();
        for e in dir.flatten() {
            let Some(tid) = e.file_name().to_str().and_then(|s| s.parse().ok()) else { continue };
            let comm = std::fs::read_to_string(e.path().join("comm")).unwrap_or_default();
            // "C1 CompilerThre", "C2 CompilerThre" (the kernel keeps 15 bytes), JVMCI's too.
            if comm.contains("CompilerThre") {
                let tier = match comm.get(..3) {
                    Some("C1 ") => Tier::C1,
                    Some("C2 ") => Tier::C2,
                    _ => Tier::Unknown,
                };
                tids.push((tid, tier));
            }
        }
        self.threads.retain(|w| tids.iter().any(|(t, _)| *t == w.tid));
        let missing: Vec<(i32, Tier)> = tids.into_iter().filter(|(t, _)| !self.threads.iter().any(|w| w.tid == *t)).collect();
        if missing.is_empty() {
            return;
        }
        let l = &self.layout;
        // Matched inside the guarded read, over the whole list (compiler threads that HotSpot
        // adds later sit after every thread started before them), into a fixed array of
        // (index in `missing`, CompilerThread).
        let mut hits = [(0usize, 0usize); MAX_COMPILER_THREADS];
        let wanted: Vec<i32> = missing.iter().map(|(t, _)| *t).take(MAX_COMPILER_THREADS).collect();
        let n = guarded_read(&mut || {
            // SAFETY: inside the guard; the list is HotSpot's current one (it may be replaced and
            // freed meanwhile: the guard, and the tids matched, cover that).
            unsafe {
                let list: usize = read(l.java_thread_list);
                let len = (read::<u32>(list + l.list_length) as usize).min(MAX_LISTED_THREADS);
                let threads: usize = read(list + l.list_threads);
                let mut n = 0;
                for i in 0..len {
                    let t: usize = read(threads + i * 8);
                    let os: usize = read(t + l.thread_osthread);
                    let tid = if os == 0 { 0 } else { read::<i32>(os + l.osthread_tid) };
                    if let Some(j) = wanted.iter().position(|w| *w == tid).filter(|_| n < hits.len()) {
                        hits[n] = (j, t);
                        n += 1;
                    }
                }
                n
            }
        });
        for &(j, thread) in hits.iter().take(n.unwrap_or(0)) {
            let (tid, tier) = missing[j];
            let cpu_ns = thread_cpu_ns_by_tid(tid).unwrap_or(0);
            self.threads.push(Watched { tid, tier, thread, cpu_ns });
        }
    }

    /// The task `thread` (a `CompilerThread`) is compiling, if any: read twice, kept if equal.
    fn task_of(&self, thread: usize) -> Option<Task> {
        let l = &self.layout;
        let once = || {
            guarded_read(&mut || {
                // SAFETY: inside the guard.
                unsafe {
                    let env: usize = read(thread + l.thread_env);
                    let at: usize = if env == 0 { 0 } else { read(env + l.env_task) };
                    if at == 0 {
                        return None;
                    }
                    Some(Task { at, method: read(at + l.task_method), level: read(at + l.task_level), id: read(at + l.task_id), osr_bci: read(at + l.task_osr_bci) })
                }
            })
            .flatten()
        };
        let a = once()?;
        (a.method != 0 && (1..=4).contains(&a.level) && once() == Some(a)).then_some(a)
    }

    /// `pkg.Class.method` of a task's method, read once per compilation.
    fn name_of(&mut self, t: &Task) -> Option<String> {
        if let Some(n) = self.names.get(&(t.method, t.id)) {
            return Some(n.clone());
        }
        let l = &self.layout;
        let mut class = [0u8; 256];
        let mut method = [0u8; 128];
        let lens = guarded_read(&mut || {
            // SAFETY: inside the guard; a Method being compiled stays loaded while its task runs.
            unsafe {
                let cm: usize = read(t.method + l.method_const);
                let pool: usize = read(cm + l.const_constants);
                let index = read::<u16>(cm + l.const_name_index) as i32;
                if index <= 0 || index >= read::<c_int>(pool + l.pool_length) {
                    return None;
                }
                let name: usize = read(pool + l.pool_size + index as usize * 8);
                let holder: usize = read(pool + l.pool_holder);
                let kname: usize = read(holder + l.klass_name);
                Some((copy_symbol(l, kname, &mut class), copy_symbol(l, name, &mut method)))
            }
        })
        .flatten()?;
        let class = std::str::from_utf8(&class[..lens.0]).ok()?;
        let method = std::str::from_utf8(&method[..lens.1]).ok()?;
        if class.is_empty() || method.is_empty() || !class.bytes().chain(method.bytes()).all(|b| b.is_ascii_graphic()) {
            return None; // the task ended under the read
        }
        // Internal form to dotted; a hidden class's address suffix dropped.
        let class = class.split('+').next().unwrap_or(class).replace('/', ".");
        let name = format!("{class}.{method}");
        if self.names.len() > 100_000 {
            self.names.clear();
        }
        self.names.insert((t.method, t.id), name.clone());
        Some(name)
    }
}

/// Copies a `Symbol`'s bytes into `out` (cut to its size); returns how many.
///
/// # Safety
/// Only inside a guarded read.
unsafe fn copy_symbol(l: &CompilerLayout, sym: usize, out: &mut [u8]) -> usize {
    // SAFETY: the caller's contract.
    unsafe {
        let n = (read::<u16>(sym + l.symbol_length) as usize).min(out.len());
        for (i, b) in out.iter_mut().enumerate().take(n) {
            *b = read(sym + l.symbol_body + i);
        }
        n
    }
}
