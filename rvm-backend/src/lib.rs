//! `rvm`, the bundled research VM: a Java bytecode interpreter whose Java threads are multiplexed
//! M-to-N onto a few OS threads ("virtual processors") as in Jikes RVM, with a semispace copying
//! collector. See README.md.

pub mod agent;
pub mod class;
pub mod code;
pub mod condy;
pub mod deflate;
pub mod fast;
pub mod fileio;
pub mod gc;
pub mod heap;
pub mod hooks;
pub mod indy;
pub mod inflate;
pub mod interp;
pub mod juc;
pub mod native;
pub mod reflect;
pub mod sched;
pub mod signals;
pub mod stdin;
pub mod vm;

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;
use std::sync::Arc;
pub use vm::{Options, Vm};

pub const USAGE: &str = "usage: rvm [-Xvps:N] [-Xquantum:MS] [-XmxSIZE] [-verbose:gc] [-cp PATH] [-agentpath:LIB[=OPTS]] (MAIN | -jar JAR) [ARGS...]";

/// Parses a size as `java -Xmx` does: bytes, or with a k/m/g suffix.
pub fn parse_size(s: &str) -> Option<usize> {
    let s = s.trim();
    let (num, mult) = match s.chars().last()? {
        'k' | 'K' => (&s[..s.len() - 1], 1usize << 10),
        'm' | 'M' => (&s[..s.len() - 1], 1 << 20),
        'g' | 'G' => (&s[..s.len() - 1], 1 << 30),
        _ => (s, 1),
    };
    num.parse::<usize>().ok()?.checked_mul(mult)
}

/// A command line rvm cannot run: the line to print, and whether the usage line helps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArgsError {
    pub message: String,
    /// An unknown or incomplete option (print the usage too), rather than a value rvm cannot use.
    pub usage: bool,
}

impl From<String> for ArgsError {
    fn from(message: String) -> ArgsError {
        ArgsError { message, usage: true }
    }
}

impl From<&str> for ArgsError {
    fn from(message: &str) -> ArgsError {
        message.to_string().into()
    }
}

/// `arg` as text, or the error naming `what` it is: the main class, program arguments (Java strings)
/// and the agent's options are text; the class path and the agent library are paths, taken byte for
/// byte.
fn utf8<'a>(arg: &'a OsStr, what: &str) -> Result<&'a str, ArgsError> {
    arg.to_str().ok_or_else(|| ArgsError { message: format!("{what} is not valid UTF-8: {}", arg.to_string_lossy()), usage: false })
}

/// Parses the command line (without the program name).
pub fn parse_args<A: AsRef<OsStr>>(args: &[A]) -> Result<Options, ArgsError> {
    let mut o = Options {
        vps: 1,
        quantum_ms: 10,
        max_heap: 256 << 20,
        classpath: vec![std::path::PathBuf::from(".")],
        agent: None,
        main_class: String::new(),
        args: Vec::new(),
        verbose_gc: false,
    };
    let mut it = args.iter().map(AsRef::as_ref);
    while let Some(arg) = it.next() {
        let bytes = arg.as_bytes();
        if let Some(lib_and_opts) = bytes.strip_prefix(b"-agentpath:") {
            let (lib, opts) = match lib_and_opts.iter().position(|&b| b == b'=') {
                Some(i) => (&lib_and_opts[..i], Some(utf8(OsStr::from_bytes(&lib_and_opts[i + 1..]), "the -agentpath option string")?)),
                None => (lib_and_opts, None),
            };
            if lib.is_empty() {
                return Err("-agentpath needs a library path".into());
            }
            o.agent = Some((PathBuf::from(OsStr::from_bytes(lib)), opts.map(str::to_string)));
            continue;
        }
        if arg == "-cp" || arg == "-classpath" || arg == "--class-path" {
            let p = it.next().ok_or("-cp needs a path")?;
            o.classpath = std::env::split_paths(p).collect();
            continue;
        }
        if arg == "-jar" {
            // As `java -jar`: the jar is the whole class path, its manifest names the main class,
            // and every later argument is the program's.
            let jar = PathBuf::from(it.next().ok_or("-jar needs a jar file")?);
            o.main_class = class::jar_main_class(&jar).map_err(|message| ArgsError { message, usage: false })?;
            o.classpath = vec![jar];
            o.args = it.enumerate().map(|(i, a)| utf8(a, &format!("program argument {}", i + 1)).map(str::to_string)).collect::<Result<_, _>>()?;
            return Ok(o);
        }
        if !bytes.starts_with(b"-") {
            o.main_class = utf8(arg, "the main class")?.replace('.', "/");
            o.args = it.enumerate().map(|(i, a)| utf8(a, &format!("program argument {}", i + 1)).map(str::to_string)).collect::<Result<_, _>>()?;
            return Ok(o);
        }
        // Every other option is ASCII.
        let a = arg.to_str().ok_or_else(|| format!("unrecognized option: {}", arg.to_string_lossy()))?;
        if let Some(v) = a.strip_prefix("-Xvps:") {
            o.vps = v.parse().ok().filter(|n| *n >= 1 && *n <= 256).ok_or(format!("bad -Xvps value: {v}"))?;
        } else if let Some(v) = a.strip_prefix("-Xquantum:") {
            o.quantum_ms = v.parse().ok().filter(|n| *n >= 1).ok_or(format!("bad -Xquantum value: {v}"))?;
        } else if let Some(v) = a.strip_prefix("-Xmx") {
            o.max_heap = parse_size(v).filter(|n| *n >= 1 << 20).ok_or(format!("bad -Xmx value: {v}"))?;
        } else if a == "-verbose:gc" {
            o.verbose_gc = true;
        } else {
            return Err(format!("unrecognized option: {a}").into());
        }
    }
    Err("no main class given".into())
}

/// Runs a program to completion and returns the process exit code. With `-agentpath` the agent
/// library is loaded first; an agent that cannot be loaded or refuses to start ends the VM with
/// exit code 1 (one line on stderr) before any Java code runs. SIGTERM, SIGINT and SIGHUP end the
/// program as `System.exit(128 + signal)` would (`signals.rs`).
pub fn run(opts: Options) -> i32 {
    // A class that fails verification is one line on stderr (where it is caught), not a Rust panic.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if info.payload().downcast_ref::<interp::VerifyFailure>().is_none() {
            default_hook(info);
        }
    }));
    if let Err(e) = signals::install() {
        eprintln!("rvm: warning: {e}; such a signal kills the VM without its exit (no agent reports)");
    }
    let hooks: Option<Box<dyn hooks::Hooks>> = match &opts.agent {
        Some((lib, agent_opts)) => match agent::load(lib, agent_opts.as_deref(), &opts) {
            Ok(a) => Some(Box::new(a)),
            Err(e) => {
                eprintln!("{e}");
                return 1;
            }
        },
        None => None,
    };
    run_with_hooks(opts, hooks)
}

/// Like [`run`], reporting VM events to `hooks` (a loaded agent, or a Rust test's recorder; the
/// `-agentpath` option is not looked at here).
pub fn run_with_hooks(opts: Options, hooks: Option<Box<dyn hooks::Hooks>>) -> i32 {
    let nvps = opts.vps;
    let mut vm = Vm::new(opts);
    vm.set_hooks(hooks);
    let vm = Arc::new(vm);
    let death = |code: i32| {
        if let Some(h) = &vm.hooks {
            h.vm_death(code);
        }
        code
    };
    if let Some(h) = &vm.hooks {
        h.vm_created(&vm);
    }
    if let Err(e) = boot_threads(&vm) {
        eprintln!("{e}");
        return death(1);
    }
    // Threads are registered, no Java code has run, processors have not started: the agent creates
    // its service threads now.
    if let Some(h) = &vm.hooks {
        h.vm_init(&vm);
    }
    sched::freeze_services(&vm);
    if let Err(e) = boot_main(&vm) {
        eprintln!("{e}");
        return death(1);
    }
    let mut processors = Vec::with_capacity(nvps);
    for vp in 0..nvps {
        let v = vm.clone();
        let handle = std::thread::Builder::new()
            .name(format!("rvm-vp{vp}"))
            .spawn(move || {
                let vm = v.clone();
                if std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| sched::vp_loop(v, vp))).is_err() {
                    // The panic message was printed by the default hook; a VM with a dead processor
                    // cannot go on (another may wait for it at a collection), but the agent's exit
                    // runs first: its reports are written and its control socket removed.
                    vm.flush_out();
                    eprintln!("rvm: internal error on virtual processor {vp}: the VM stops");
                    if let Some(h) = &vm.hooks {
                        h.vm_death(1);
                    }
                    std::process::exit(1);
                }
            })
            .expect("spawn processor");
        processors.push(handle);
    }
    let v = vm.clone();
    std::thread::Builder::new().name("rvm-timer".into()).spawn(move || sched::timer_loop(v)).expect("spawn timer");
    // Every processor ends its loop (and reports vp_end) before vm_death, and only once the VM
    // exits. They notice the exit at their next switch: idle ones are woken by their condvars,
    // busy ones at their next yieldpoint (the timer keeps setting their flags until they have all
    // stopped, so a spinning daemon thread cannot hold one back). This thread waits for them
    // alone: were it to wait for the exit on the processors' condvars, every thread made ready
    // would wake it too.
    for p in processors {
        let _ = p.join();
    }
    let code = vm.sched.lock().exit_code.expect("a processor ends only when the VM exits");
    vm.sched.done.store(true, std::sync::atomic::Ordering::Relaxed);
    vm.flush_out();
    death(code)
}

/// Registers `main` (tid 0) and every processor's idle and collector threads; creates the
/// preallocated OutOfMemoryError.
fn boot_threads(vm: &Arc<Vm>) -> Result<(), String> {
    use rvm_abi::thread_kind;
    use vm::JThread;
    let reg = &vm.reg;
    for c in ["java/lang/Object", "java/lang/String", "java/lang/Class", "java/lang/Thread", "[C", "[I"] {
        reg.load(c)?;
    }
    // Main thread (id 0), then each processor's idle and collector threads.
    let main_tid = sched::register_thread(vm, thread_kind::APPLICATION, |tid| JThread::new(tid, "main".into(), 0, false, false));
    assert_eq!(main_tid, 0);
    for vp in 0..vm.opts.vps {
        let i = sched::register_thread(vm, thread_kind::IDLE, |tid| JThread::new(tid, format!("VM.Idle-{vp}"), 0, true, true));
        vm.sched.idle_tids.lock().unwrap().push(i);
        let c = sched::register_thread(vm, thread_kind::COLLECTOR, |tid| JThread::new(tid, format!("VM.Collector-{vp}"), 0, true, true));
        vm.sched.collector_tids.lock().unwrap().push(c);
    }
    let sp = vm.heap.current();
    let dummy = JThread::new(u32::MAX, String::new(), 0, true, true);
    let oom = interp::make_exception(vm, &sp, &dummy, "java/lang/OutOfMemoryError", Some("Java heap space")).ok_or("heap too small")?;
    vm.oom_root.store(vm.add_root(oom), std::sync::atomic::Ordering::Relaxed);
    Ok(())
}

/// Creates main's `java.lang.Thread`, loads the main class and makes `main` ready to initialise it
/// and then run its `main(String[])` (see `interp::launch_main`).
fn boot_main(vm: &Arc<Vm>) -> Result<(), String> {
    use vm::{Alloc, Value};
    let reg = &vm.reg;
    let main_tid = 0;
    let sp = vm.heap.current();
    // The main thread's java.lang.Thread object.
    let tc = reg.load("java/lang/Thread")?;
    let tobj = vm.alloc_object(&sp, &tc, Alloc::Vm).ok_or("heap too small")?;
    let name = vm.new_string(&sp, "main", Alloc::Vm).ok_or("heap too small")?;
    let set = |f: &str, d: &str, v: u32| sp.set(tobj as usize + vm.field_offset("java/lang/Thread", f, d), v);
    set("name", "Ljava/lang/String;", name);
    set("priority", "I", 5);
    set("tid", "I", main_tid);
    set("alive", "Z", 1);
    set("started", "Z", 1);
    let id_off = vm.field_offset("java/lang/Thread", "id", "J");
    sp.set64(tobj as usize + id_off, 1);
    // Main class and method.
    let main_class = match reg.load(&vm.opts.main_class) {
        Ok(c) => c,
        Err(e) => {
            let n = vm.opts.main_class.replace('/', ".");
            return Err(if e.contains("NoClassDefFoundError") && e.ends_with(&vm.opts.main_class) {
                format!("Error: Could not find or load main class {n}\nCaused by: java.lang.ClassNotFoundException: {n}")
            } else {
                format!("Error: Could not load main class {n}: {e}")
            });
        }
    };
    let main = main_class
        .find_method("main", "([Ljava/lang/String;)V")
        .filter(|m| m.is_static)
        .ok_or_else(|| {
            format!(
                "Error: Main method not found in class {}, please define the main method as:\n   public static void main(String[] args)\nor a JavaFX application class must extend javafx.application.Application",
                main_class.java_name()
            )
        })?;
    let sa = reg.load("[Ljava/lang/String;")?;
    let args = vm.alloc_array(&sp, &sa, vm.opts.args.len(), Alloc::Vm).ok_or("heap too small")?;
    let arg_root = vm.add_root(args);
    for (i, a) in vm.opts.args.iter().enumerate() {
        let s = vm.new_string(&sp, a, Alloc::Vm).ok_or("heap too small")?;
        sp.array_set(vm.root(arg_root), 4, i, s as u64);
    }
    let t = vm.sched.thread(main_tid);
    {
        let mut th = t.lock().unwrap();
        th.obj = tobj;
        // main_class is initialised (as on HotSpot, before main is called) when the thread runs.
        interp::launch_main(vm, &mut th, &main_class, main, &[Value::Ref(vm.root(arg_root))]);
    }
    let mut st = vm.sched.lock();
    sched::make_ready(vm, &mut st, main_tid);
    Ok(())
}
