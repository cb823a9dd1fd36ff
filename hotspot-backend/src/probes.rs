//! Exact call trees from bytecode probes: the default way of recording calls on HotSpot.
//!
//! JVMTI MethodEntry/MethodExit events put every thread into interpreter-only mode. Instead, a
//! ClassFileLoadHook inserts calls to `hpmagent.probe.Probe.enter(id)`/`exit(id)` into every method
//! of the classes the filter selects ([`hpm_instrument`]), and the JIT compiles and inlines them
//! like any other code. Each thread keeps its calling-context tree in Java arrays (see
//! `java/hpmagent/probe/Probe.java`); before every snapshot this module copies the trees out and
//! hands them to the recorder, with method ids named when their class was instrumented.
//!
//! Life cycle: the probe runtime is defined in the boot loader at VMInit (before any application
//! class loads); classes loaded before that, and the classes already loaded at a late attach, are
//! retransformed then. Recording windows (start/stop) flip `Probe.state`; a window opening makes
//! every thread re-synchronise its context with its real stack at its next probe, and until then
//! its context cell names the path the agent read from its stack at the opening.

use std::cell::RefCell;
use std::collections::HashMap;
use std::ffi::{c_char, c_void, CStr, CString};
use std::ptr;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU32, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use hpm_model::arcflow::{ConsumerId, Tree};
use hpm_model::metrics::ThreadMetrics;
use hpm_model::snapshot::naming::{class_name_from_signature, method_consumer_name};
use hpm_model::snapshot::naming::is_jdk_class;
use hpm_model::snapshot::{ClassFilter, Glob, ProbeRequest};
use hpm_collectors::recorder::{Recorder, ThreadRecorder};
use hpm_collectors::sampling::{ContextSampler, SampledThread, PROBE_CODE_OWNER};
use hpm_agent_core::ProbeChange;
use hpm_instrument::{instrument, MethodInfo, Probes};

use crate::probe_requests::{Decision, Pattern, ProbeRequests};
use crate::sys::jvmti::*;
use crate::{check, jni_fn, jvmti_fn, names, take_string, ThreadStack};
use hpm_support::{lock, log};

include!(concat!(env!("OUT_DIR"), "/probe_classes.rs"));

const PROBE_CLASS: &str = "hpmagent/probe/Probe";

/// The class-file access flag of native methods (JVMS 4.6).
const ACC_NATIVE: u16 = 0x0100;

/// Native methods of selected classes are renamed with this prefix and wrapped by a probed method
/// of their own name (JVMTI `SetNativeMethodPrefix` lets the JVM still bind them).
const NATIVE_PREFIX: &str = "hpm$$";

/// Classes never instrumented, whatever `include=` says: the probes run their code (a probe in
/// them would call itself), and instrumenting `Object` would put a probe in every constructor.
const NEVER: &[&str] = &[
    "hpmagent.probe.*",
    "java.lang.Object",
    "java.lang.Thread",
    "java.lang.ThreadLocal",
    "java.lang.ThreadLocal$*",
    "java.lang.ref.*",
    "java.lang.invoke.*",
    "jdk.internal.misc.*",
    "jdk.internal.vm.*",
];

/// Method ids: one per (class, method, descriptor), stable across retransformations, named when
/// their class is instrumented.
#[derive(Default)]
struct MethodIds {
    by_key: HashMap<(String, String, String), u32>,
    consumers: Vec<ConsumerId>,
    /// jmethodID → probe id (-1: not probed), for re-synchronising with a stack.
    by_jmethod: HashMap<usize, i32>,
}

/// A probe node as exported: (parent node, method id, calls).
type ProbeNode = (u32, u32, u64);

/// Allocation credited per probe node: (bytes, objects).
type AllocByNode = Mutex<HashMap<u32, (u64, u64)>>;

/// What the sampler credited to a thread so far, per probe node (index 0: the thread's root)
/// and metric: its own tree's nodes (`java`) and its agent contexts (`agent`, see
/// [`ProbeThread::synced`]).
#[derive(Default)]
struct Bases {
    java: Vec<u64>,
    agent: Vec<u64>,
    /// What samples found in the probes' own code on this thread ([`PROBE_CODE_OWNER`]): no
    /// context's. A carrier's includes the virtual threads' it ran.
    in_probes: Vec<u64>,
}

impl Bases {
    /// Adds `deltas` to what samples found in the probes' own code.
    fn add_in_probes(&mut self, deltas: &[u64]) {
        add_at(&mut self.in_probes, 0, deltas);
    }

    /// Adds `deltas` to the context in a cell value `node` (a probe node or an agent context).
    fn add(&mut self, node: u32, deltas: &[u64]) {
        let (base, node) = if node & AGENT_CONTEXT != 0 { (&mut self.agent, node & !AGENT_CONTEXT) } else { (&mut self.java, node) };
        add_at(base, node as usize * deltas.len(), deltas);
    }
}

/// Adds `deltas` to `base[at..]`, growing it as needed.
fn add_at(base: &mut Vec<u64>, at: usize, deltas: &[u64]) {
    if base.len() < at + deltas.len() {
        base.resize(at + deltas.len(), 0);
    }
    for (b, d) in base[at..at + deltas.len()].iter_mut().zip(deltas) {
        *b = b.saturating_add(*d);
    }
}

/// What a thread's own callbacks need without taking the runtime's lock.
#[derive(Clone)]
pub(crate) struct Local {
    /// Where the probes store the thread's current context: a platform thread's own cell; for a
    /// virtual thread its parking cell, or, in the copy a carrier keeps while it runs it
    /// (`MOUNTED`), the carrier's mount cell.
    cell: &'static AtomicU32,
    /// A virtual thread's cells (None for a platform thread).
    virtual_cells: Option<Arc<VirtualCells>>,
    alloc: Arc<AllocByNode>,
    bases: Arc<Mutex<Bases>>,
    /// The thread's sampler (None: calls only, or a virtual thread, which its carriers' samplers
    /// credit while they run it): it credits the metrics to the node in `cell`, by sampling or,
    /// in exact mode, at each change of context.
    sampled: Option<Arc<SampledThread>>,
}

impl Local {
    fn new(cell: &'static AtomicU32, sampled: Option<Arc<SampledThread>>) -> Local {
        Local { cell, virtual_cells: None, alloc: Arc::new(Mutex::new(HashMap::new())), bases: Arc::new(Mutex::new(Bases::default())), sampled }
    }

    /// A virtual thread's: its context parks in `parking` while it is not mounted.
    fn new_virtual(parking: &'static AtomicU32) -> Local {
        let cells = VirtualCells { shadow: AtomicUsize::new(0), current: Mutex::new(parking) };
        Local { virtual_cells: Some(Arc::new(cells)), ..Local::new(parking, None) }
    }

    /// The cell that holds the thread's current context now (see [`VirtualCells::current`]).
    fn current_cell(&self) -> &'static AtomicU32 {
        self.virtual_cells.as_ref().map_or(self.cell, |v| *lock(&v.current))
    }
}

/// How a virtual thread's context follows it from carrier to carrier. Virtual threads may be
/// millions, so each has only a 4-byte parking cell (neighbours in a slab); its probes store into
/// it only while it is not mounted. A mount copies the parking cell into the carrier's mount cell
/// (a line of its own, one per carrier) and points the thread's `Shadow.cell` there (a JNI field
/// store); the unmount copies the value back and points `Shadow.cell` at the parking cell again.
/// So the stores at every call go to a line of the carrier's own, and the carrier's sampler
/// reads the context from there.
pub(crate) struct VirtualCells {
    /// Global reference to the thread's `Shadow` (0 until its first probe, and after its end).
    shadow: AtomicUsize,
    /// The cell its context is in now: the parking cell, or a carrier's mount cell while mounted
    /// (where the agent stores a context read from its stack when a window opens).
    current: Mutex<&'static AtomicU32>,
}

impl VirtualCells {
    /// Moves the thread's context from the cell it is in into `to`, and points its probes there
    /// (on the carrier that mounts or unmounts it).
    fn move_to(&self, to: &'static AtomicU32) {
        {
            let mut current = lock(&self.current);
            to.store(current.load(Ordering::Relaxed), Ordering::Relaxed);
            *current = to;
        }
        point_shadow_at(self.shadow.load(Ordering::Acquire), to);
    }
}

thread_local! {
    /// The calling thread's context cell and allocation credits, from ThreadStart (or its first probe).
    static LOCAL: RefCell<Option<Local>> = const { RefCell::new(None) };
    /// On a carrier: the cell that the virtual thread it runs stores its context into (a line of
    /// its own, made at the first mount; see [`VirtualCells`]).
    static MOUNT_CELL: std::cell::Cell<Option<&'static AtomicU32>> = const { std::cell::Cell::new(None) };
    /// On a carrier: the virtual thread it runs now (its cell and credits), if any.
    static MOUNTED: RefCell<Option<(u32, Local)>> = const { RefCell::new(None) };
}

/// What probes on the calling OS thread are working for: the mounted virtual thread, or the
/// thread itself.
fn current_local() -> Option<Local> {
    MOUNTED.with(|m| m.borrow().as_ref().map(|(_, l)| l.clone())).or_else(|| LOCAL.with(|l| l.borrow().clone()))
}

/// A platform thread's context cell, on a line of its own ([`hpm_collectors::lines`]): its probes
/// store into it at every call.
fn new_cell() -> &'static AtomicU32 {
    hpm_collectors::lines::new_cell()
}

/// A virtual thread's parking cell, where its current context stays while it is not mounted: 4
/// bytes in slabs, since virtual threads may be millions. Its probes never store here while it
/// is mounted (they store into the carrier's mount cell, see [`ProbeRuntime::mount`]), so
/// neighbouring parking cells are written only at mounts and unmounts. Never freed, as above.
fn new_parking_cell() -> &'static AtomicU32 {
    const SLAB: usize = 4096;
    static FREE: Mutex<(usize, Option<&'static [AtomicU32]>)> = Mutex::new((0, None));
    let mut f = lock(&FREE);
    if f.1.is_none() || f.0 == SLAB {
        let slab: Box<[AtomicU32]> = (0..SLAB).map(|_| AtomicU32::new(0)).collect();
        *f = (0, Some(Box::leak(slab)));
    }
    let (next, slab) = &mut *f;
    let cell = &slab.expect("a slab was just made")[*next];
    *next += 1;
    cell
}

/// A context cell value with this bit set names one of the agent's own contexts of the thread
/// ([`ProbeThread::synced`]), not a node of its Java tree (whose ids are non-negative ints).
const AGENT_CONTEXT: u32 = 1 << 31;

/// One thread: its Java `Shadow` (a global reference, once it ran a probe) and what the agent adds
/// to its tree.
struct ProbeThread {
    recorder: Arc<ThreadRecorder>,
    /// Global reference to the thread's `Shadow`; 0 until its first probe.
    shadow: usize,
    /// A virtual thread: `Probe.state` when it started. While the state has not changed since,
    /// no probed method can be on its stack at its first probe (that probe is the first method
    /// with probes it entered), so its tree starts at its root without reading the stack (which
    /// for a virtual thread costs a handshake with the VM).
    started_at: Option<i32>,
    /// The thread's `java.lang.Thread` (None: unknown), to read its stack from another thread;
    /// dropped at ThreadEnd.
    thread: Option<ThreadStack>,
    local: Local,
    /// Calls per node and exits by exception when the recorder was last reset: a snapshot shows
    /// what came after.
    baseline: Vec<u64>,
    baseline_thrown: u64,
    /// Contexts the agent read from the thread's stack when a window opened (probe method ids,
    /// outermost first): the cell names one (`AGENT_CONTEXT | index`) until the thread's next
    /// probe re-synchronises its own tree, so a thread that stays inside one long call is charged
    /// from the start of the window. Their sampled values, `metrics` per context.
    synced: Vec<Vec<u32>>,
}

impl ProbeThread {
    fn new(recorder: &Arc<ThreadRecorder>, thread: Option<ThreadStack>, local: Local) -> ProbeThread {
        ProbeThread { recorder: recorder.clone(), shadow: 0, started_at: None, thread, local, baseline: Vec::new(), baseline_thrown: 0, synced: Vec::new() }
    }
}

/// Every thread with probes: platform threads in order of start, live virtual threads by id
/// (they may be many, and come and go: found and dropped in constant time).
#[derive(Default)]
struct Threads {
    platform: Vec<ProbeThread>,
    virtual_threads: HashMap<u32, ProbeThread>,
}

impl Threads {
    /// The entry of the thread the probes on the calling OS thread work for (`local`, from
    /// [`current_local`]): the mounted virtual thread, or the OS thread itself.
    fn current(&mut self, local: &Local) -> Option<&mut ProbeThread> {
        match MOUNTED.with(|m| m.borrow().as_ref().map(|(id, _)| *id)) {
            Some(id) => self.virtual_threads.get_mut(&id),
            None => self.platform.iter_mut().find(|t| std::ptr::eq(t.local.cell, local.cell)),
        }
    }

    fn iter(&self) -> impl Iterator<Item = &ProbeThread> {
        self.platform.iter().chain(self.virtual_threads.values())
    }

    fn iter_mut(&mut self) -> impl Iterator<Item = &mut ProbeThread> {
        self.platform.iter_mut().chain(self.virtual_threads.values_mut())
    }
}

/// Virtual threads' credits by their id, for the samplers of their carriers.
type Owners = HashMap<u32, Arc<Mutex<Bases>>>;

impl ProbeThread {
    /// Moves what the thread's sampler credited so far into the bases (`keep`) or drops it:
    /// its own contexts' into its own, those of the virtual threads it ran into theirs.
    fn collect(&mut self, keep: bool, owners: &Mutex<Owners>) {
        let Some(st) = &self.local.sampled else { return };
        st.settle();
        drain_into(st, &self.local.bases, None, keep, owners);
    }
}

/// Drains `st` (a platform thread's sampler): owner 0 into `own`, virtual thread `id` into its
/// bases (`mounted`, the one just run, else found in `owners`).
fn drain_into(st: &SampledThread, own: &Mutex<Bases>, mounted: Option<(u32, &Mutex<Bases>)>, keep: bool, owners: &Mutex<Owners>) {
    let mut own = lock(own);
    let mut others: Vec<(u32, u32, Vec<u64>)> = Vec::new();
    st.drain(&mut |owner, node, deltas| {
        if !keep {
            return;
        }
        match (owner, mounted) {
            (PROBE_CODE_OWNER, _) => own.add_in_probes(deltas),
            (0, _) => own.add(node, deltas),
            (o, Some((id, bases))) if o == id => lock(bases).add(node, deltas),
            (o, _) => others.push((o, node, deltas.to_vec())),
        }
    });
    drop(own);
    if !others.is_empty() {
        let owners = lock(owners);
        for (o, node, deltas) in others {
            // A virtual thread that ended has had its last credits: any later one is dropped.
            if let Some(b) = owners.get(&o) {
                lock(b).add(node, &deltas);
            }
        }
    }
}

pub(crate) struct ProbeRuntime {
    env: usize,
    recorder: Arc<Recorder>,
    filter: ClassFilter,
    never: Vec<Glob>,
    /// `calls=requested`: the filter selects no class; only requests put probes in.
    requested_only: bool,
    /// Probes requested while the program runs ([`ProbeRuntime::request`]).
    requests: Mutex<ProbeRequests>,
    /// Retransformations the agent has under way: probes they put in are in from when they
    /// return (see [`ProbeRequests::settle`]).
    retransforming: AtomicU32,
    /// One retransformation of the loaded classes at a time (requests, start, stop).
    retransform_lock: Mutex<()>,
    /// The VM granted `can_retransform_classes`: requests can change loaded classes.
    can_retransform: AtomicBool,
    /// The probe runtime is defined: classes loaded from now on are instrumented.
    ready: AtomicBool,
    probe_class: OnceLock<usize>,
    state_field: OnceLock<usize>,
    export_method: OnceLock<usize>,
    /// Mirror of `Probe.state` (bit 0: recording; +2 per window opened).
    state: AtomicI32,
    /// Methods get probes (recording, or a window about to open). While recording is stopped
    /// classes load, and are retransformed back, without them (native wrappers stay: a
    /// retransformation cannot remove methods), so paused code runs as it would without the agent.
    probing: AtomicBool,
    /// Probes were in the code at some time: only then is there a probe cost to calibrate.
    ever_probed: AtomicBool,
    /// java.base exports jdk.internal.misc to the probes ([`ProbeRuntime::export_unsafe`]).
    exported: AtomicBool,
    ids: Mutex<MethodIds>,
    threads: Mutex<Threads>,
    /// The credits of live virtual threads, by id (locked after `threads`, before a `Bases`).
    owners: Mutex<Owners>,
    /// Samples time and counters into the probes' contexts (None: trees have calls only).
    sampler: Option<Arc<ContextSampler>>,
    /// The probes credit the metrics at every change of context (`metric-mode=exact`).
    exact: bool,
    /// Calibrate the probes' cost at the first snapshot (`compensate=on`), once.
    compensate: bool,
    calibrated: OnceLock<()>,
    calibrate_method: OnceLock<usize>,
    /// `SetNativeMethodPrefix` was accepted: native methods can be wrapped at a class's first load.
    wrap_natives: AtomicBool,
    /// Classes whose natives were wrapped at first load: a retransformation must wrap them again
    /// (it may not change the set of methods).
    wrapped_classes: Mutex<std::collections::HashSet<String>>,
    /// Classes instrumented, methods probed, methods left alone (and why: first few reasons).
    classes: AtomicU32,
    methods: AtomicU32,
    skipped: Mutex<Vec<String>>,
    /// `trivial=skip`: trivial methods the filter selects get no probes.
    skip_trivial: bool,
    /// Trivial methods left without probes, per class (internal name), as last instrumented.
    trivial_left: Mutex<HashMap<String, usize>>,
    /// Classes whose code, as last handed to the VM, has entry and exit probes (not counting
    /// native wrappers): empty while recording is stopped.
    probed_classes: Mutex<std::collections::HashSet<String>>,
    /// `java.lang.Thread` gets the field [`THREAD_FIELD`] at its load (`thread-field=on`, loaded at
    /// start-up with the early class-load hook).
    thread_field: bool,
    /// It did: the probes find each thread's Shadow there (and a retransformation of Thread,
    /// whoever asks for it, must keep the field).
    thread_field_added: AtomicBool,
}

/// The field the agent adds to `java.lang.Thread` for the thread's Shadow (`Probe.Mem.SHADOW_AT`):
/// private, transient and synthetic, typed Object so that Thread names no class of the agent's.
pub(crate) const THREAD_FIELD: &str = "hpmagent$shadow";

static RUNTIME: OnceLock<ProbeRuntime> = OnceLock::new();

pub(crate) fn runtime() -> Option<&'static ProbeRuntime> {
    RUNTIME.get()
}

/// The probe runtime where its call paths are the contexts of monitor events and parks: not with
/// `calls=requested`, where few methods have probes and the thread's stack tells the context.
pub(crate) fn context_runtime() -> Option<&'static ProbeRuntime> {
    RUNTIME.get().filter(|rt| !rt.requested_only)
}

/// Sets up the probe runtime's state (OnLoad phase). Classes are instrumented only after
/// [`define_runtime`] ran at VMInit.
/// `can_wrap_natives`: the VM granted `can_set_native_method_prefix`.
pub(crate) fn install(
    env: *mut jvmtiEnv,
    recorder: Arc<Recorder>,
    config: &crate::BackendConfig,
    can_wrap_natives: bool,
    thread_field: bool,
    sampler: Option<(Arc<ContextSampler>, bool)>,
) {
    let (sampler, exact) = match sampler {
        Some((s, exact)) => (Some(s), exact),
        None => (None, false),
    };
    let filter = recorder.config().filter.clone();
    let (start_paused, compensate) = (config.start_paused, config.compensate);
    let requested_only = config.calls_via == crate::CallsVia::Requested;
    let rt = ProbeRuntime {
        env: env as usize,
        recorder,
        filter,
        never: NEVER.iter().map(|p| Glob::new(p)).collect(),
        requested_only,
        requests: Mutex::new(ProbeRequests::default()),
        retransforming: AtomicU32::new(0),
        retransform_lock: Mutex::new(()),
        can_retransform: AtomicBool::new(false),
        ready: AtomicBool::new(false),
        probe_class: OnceLock::new(),
        state_field: OnceLock::new(),
        export_method: OnceLock::new(),
        state: AtomicI32::new(if start_paused { 0 } else { 1 }),
        probing: AtomicBool::new(!start_paused),
        ever_probed: AtomicBool::new(!start_paused && !requested_only),
        exported: AtomicBool::new(false),
        ids: Mutex::new(MethodIds::default()),
        threads: Mutex::new(Threads::default()),
        owners: Mutex::new(HashMap::new()),
        sampler,
        exact,
        compensate,
        calibrated: OnceLock::new(),
        calibrate_method: OnceLock::new(),
        wrap_natives: AtomicBool::new(false),
        wrapped_classes: Mutex::new(std::collections::HashSet::new()),
        classes: AtomicU32::new(0),
        methods: AtomicU32::new(0),
        skipped: Mutex::new(Vec::new()),
        skip_trivial: config.skip_trivial,
        trivial_left: Mutex::new(HashMap::new()),
        probed_classes: Mutex::new(std::collections::HashSet::new()),
        thread_field,
        thread_field_added: AtomicBool::new(false),
    };
    if start_paused {
        rt.sampler_active(false);
    }
    // SAFETY: zeroed jvmtiCapabilities is the "none" value; env valid, the out-pointer too.
    let mut have: jvmtiCapabilities = unsafe { std::mem::zeroed() };
    // SAFETY: as above.
    if unsafe { jvmti_fn!(env, GetCapabilities)(env, &mut have) } == JVMTI_ERROR_NONE {
        rt.can_retransform.store(have.can_retransform_classes() != 0, Ordering::Release);
    }
    if can_wrap_natives {
        let prefix = CString::new(NATIVE_PREFIX).unwrap();
        // SAFETY: env is valid (OnLoad or live phase); the prefix is copied by the VM.
        let err = unsafe { jvmti_fn!(env, SetNativeMethodPrefix)(env, prefix.as_ptr()) };
        if err == JVMTI_ERROR_NONE {
            rt.wrap_natives.store(true, Ordering::Relaxed);
        } else {
            log::info(&format!("native methods are not wrapped (SetNativeMethodPrefix: {}): their calls are not counted", crate::jvmti_error_text(err)));
        }
    }
    let _ = RUNTIME.set(rt);
}

impl ProbeRuntime {
    fn env(&self) -> *mut jvmtiEnv {
        self.env as *mut jvmtiEnv
    }

    /// Sampled metrics: samples whose signal interrupted the code of the probe
    /// runtime's `classes` are credited to no context ([`crate::probe_code`]). Needs HotSpot's
    /// code cache layout and the fault guard; without them the compensation alone removes the
    /// probes' cost, as the log says.
    fn measure_probe_code(&self, classes: &[jclass]) {
        // compensate=off: the raw values, probes' cost included.
        let Some(sampler) = self.sampler.as_ref().filter(|_| !self.exact && self.compensate) else { return };
        let layout = crate::vmstructs::tables().ok_or_else(|| "HotSpot's VMStructs cannot be read".to_string()).and_then(crate::stacks::read_code_cache);
        let ready = layout.and_then(|_| crate::fault_guard::install_fault_guard());
        let methods = crate::probe_code::ProbeMethods::of(self.env(), classes);
        match (ready, methods) {
            (Ok(()), Some(m)) => {
                sampler.set_probe_code(Arc::new(m));
                log::info("samples in the probes' own code are credited to no context: their cost is measured where it lands");
            }
            (Err(e), _) => log::info(&format!("{e}: the probes' cost is only estimated per call (compensation)")),
            (_, None) => log::info("the probe runtime's methods cannot be listed: the probes' cost is only estimated per call (compensation)"),
        }
    }

    /// Whether samples in the probes' own code are credited to no context ([`ProbeRuntime::measure_probe_code`]).
    fn measures_probe_code(&self) -> bool {
        self.sampler.as_ref().is_some_and(|s| s.has_probe_code())
    }

    /// Closes the windows of `class`'s methods reached by requests whose probes are not in the
    /// class's code now (all but `kept`).
    fn close_requested(&self, requests: &mut ProbeRequests, class: &str, kept: &[u32]) {
        let now = self.recorder.wall_ns();
        for (id, name) in requests.reached_in(class) {
            if !kept.contains(&id) && requests.note(class, id, &name, false, Some(now)) == Some(false) {
                self.recorder.probe_closed(&name, now);
            }
        }
    }

    /// The requested probes that went in during a retransformation are in from now.
    fn settle_requested(&self) {
        let now = self.recorder.wall_ns();
        let mut requests = lock(&self.requests);
        for id in requests.settle(now) {
            if let Some(name) = requests.name_of(id) {
                self.recorder.probe_opened(name, now);
            }
        }
    }

    /// `hpm ctl PID probe add|remove PATTERN...`: probes into (`add`) or out of the methods the
    /// `patterns` match, now: the loaded classes they match are retransformed, all in one go, and
    /// classes loaded later follow. While recording is stopped the rules wait for the start. A bad
    /// pattern refuses the whole request.
    pub(crate) fn request(&self, add: bool, patterns: &[String]) -> Result<ProbeChange, String> {
        let parsed = patterns.iter().map(|p| Pattern::parse(p)).collect::<Result<Vec<_>, _>>()?;
        let matchers = patterns.iter().map(|p| Pattern::parse(p)).collect::<Result<Vec<_>, _>>()?;
        if !self.ready.load(Ordering::Acquire) {
            return Err("the probe runtime is not ready yet (the JVM is still starting): ask again in a moment".into());
        }
        if !self.can_retransform.load(Ordering::Acquire) {
            return Err("this JVM did not grant the agent retransformation of loaded classes (can_retransform_classes): probes cannot be put in or taken out while it runs".into());
        }
        let texts: Vec<String> = parsed.iter().map(|p| p.text().to_string()).collect();
        if add {
            // There is a probe cost to calibrate (at the next dump) once probes may be in.
            self.ever_probed.store(true, Ordering::Release);
        }
        {
            let mut requests = lock(&self.requests);
            for p in parsed {
                requests.push(add, p);
            }
        }
        let recording = self.probing.load(Ordering::Acquire);
        let (classes, failed) = if recording {
            retransform_where(self, if add { "probe add" } else { "probe remove" }, |class| {
                matchers.iter().any(|m| m.matches_class(class)) && !self.vetoed(class)
            })
        } else {
            (0, 0)
        };
        let at_ns = self.recorder.wall_ns();
        for pattern in texts {
            self.recorder.probe_requested(ProbeRequest { add, pattern, at_ns, classes: classes as u32 });
        }
        let requests = lock(&self.requests);
        Ok(ProbeChange { classes, failed, recording, methods_in: requests.open_count(), rules: requests.listed() })
    }

    /// What is probed now by requests: the rules in order and how many methods have probes by
    /// them.
    pub(crate) fn requested(&self) -> (Vec<String>, usize) {
        let requests = lock(&self.requests);
        (requests.listed(), requests.open_count())
    }

    /// Whether methods of the class with dotted name `class` get probes by the start-up filter.
    fn filter_selects(&self, class: &str) -> bool {
        !self.requested_only && self.filter.accepts(class)
    }

    /// Classes that never get probes, whatever is asked: the agent's own and those the probes
    /// run on (`NEVER`), and `exclude=`.
    fn vetoed(&self, class: &str) -> bool {
        self.never.iter().any(|g| g.matches(class)) || self.filter.exclude.iter().any(|g| g.matches(class))
    }

    /// Whether some methods of the class with dotted name `class` may get probes, or had requested
    /// ones: its class file goes through [`ProbeRuntime::transform`].
    fn selects(&self, class: &str, requests: &ProbeRequests) -> bool {
        self.gets_probes(class, requests) || (!self.vetoed(class) && requests.reached(class))
    }

    /// Whether some methods of the class with dotted name `class` get probes now, by the start-up
    /// filter or a request.
    fn gets_probes(&self, class: &str, requests: &ProbeRequests) -> bool {
        !self.vetoed(class) && (self.filter_selects(class) || requests.may_add_to(class))
    }

    /// How many classes carry entry and exit probes now.
    pub(crate) fn probed_class_count(&self) -> usize {
        lock(&self.probed_classes).len()
    }

    /// Trivial methods left without probes (`trivial=skip`), in the classes as last instrumented.
    fn trivial_left(&self) -> usize {
        lock(&self.trivial_left).values().sum()
    }

    /// What was instrumented so far, one line (for the log).
    pub(crate) fn summary(&self) -> String {
        let skipped = lock(&self.skipped);
        let mut s = format!(
            "bytecode probes: {} classes, {} methods instrumented",
            self.classes.load(Ordering::Relaxed),
            self.methods.load(Ordering::Relaxed)
        );
        if self.skip_trivial {
            s.push_str(&format!("; {} trivial method(s) without probes (trivial=skip)", self.trivial_left()));
        }
        if !skipped.is_empty() {
            s.push_str(&format!("; {} methods left alone (first: {})", skipped.len(), skipped[0]));
        }
        s
    }

    /// `java.lang.Thread`'s class file with [`THREAD_FIELD`]: at its first load (the primordial
    /// phase, before the probe runtime exists) when `thread-field=on`, and at any retransformation
    /// after that, which must not drop the field. `None`: leave it as it is.
    fn thread_with_field(&self, data: &[u8], redefining: bool) -> Option<Vec<u8>> {
        if !self.thread_field || (redefining && !self.thread_field_added.load(Ordering::Acquire)) {
            return None;
        }
        const ACC_PRIVATE_TRANSIENT_SYNTHETIC: u16 = 0x0002 | 0x0080 | 0x1000;
        match hpm_instrument::add_field(data, ACC_PRIVATE_TRANSIENT_SYNTHETIC, THREAD_FIELD, "Ljava/lang/Object;") {
            Ok(bytes) => {
                self.thread_field_added.store(true, Ordering::Release);
                Some(bytes)
            }
            Err(e) if redefining => {
                log::debug(&format!("java.lang.Thread retransformed as given ({e})"));
                None
            }
            Err(e) => {
                log::warn(&format!("java.lang.Thread gets no field for the probes ({e}): they look each thread's tree up in a ThreadLocal, about 4 ns more per call"));
                None
            }
        }
    }

    /// Whether the agent asked for [`THREAD_FIELD`] (the early class-load hook was granted).
    pub(crate) fn thread_field_requested(&self) -> bool {
        self.thread_field
    }

    /// Whether `java.lang.Thread` got [`THREAD_FIELD`] at its load.
    pub(crate) fn thread_field_added(&self) -> bool {
        self.thread_field_added.load(Ordering::Acquire)
    }

    /// Rewrites one class file: `Some(bytes)` with probes, `None` to leave it as it is.
    fn transform(&self, name: Option<&str>, data: &[u8], retransforming: bool) -> Option<Vec<u8>> {
        if !self.ready.load(Ordering::Acquire) {
            return None;
        }
        let internal = match name {
            Some(n) => n.to_string(),
            None => hpm_instrument::class_name(data).ok()?,
        };
        let dotted = internal.replace('/', ".");
        // Lock order: requests, then ids.
        let mut requests = lock(&self.requests);
        if !self.selects(&dotted, &requests) {
            return None;
        }
        let by_filter = self.filter_selects(&dotted);
        // The entry probe returns the thread's Shadow, which the method hands to its other probes.
        let mut probes = Probes::new(PROBE_CLASS, "enter", "exit")
            .with_thrown("thrown")
            .with_caught("caught")
            .with_carried_context("Lhpmagent/probe/Probe$Shadow;");
        // Natives are wrapped at a class's first load only (a retransformation may not add
        // methods), and again when a class wrapped then is retransformed; only in classes the
        // filter selects, since a wrapper stays for good and a request may be taken back.
        // Never the JDK's natives: many are intrinsics (arraycopy, currentThread, ...) that a
        // wrapper would hide from the JIT, and the probes themselves call some of them.
        let wrap = if retransforming {
            lock(&self.wrapped_classes).contains(&internal)
        } else {
            self.wrap_natives.load(Ordering::Relaxed) && !is_jdk_class(&dotted) && by_filter
        };
        if wrap {
            probes = probes.with_native_prefix(NATIVE_PREFIX);
        }
        let probing = self.probing.load(Ordering::Acquire);
        if !probing && !wrap {
            lock(&self.probed_classes).remove(&internal);
            self.close_requested(&mut requests, &dotted, &[]);
            return None;
        }
        let mut ids = lock(&self.ids);
        let mut trivial_left = 0;
        let mut select = |m: &MethodInfo| {
            let wanted = match requests.decide(&dotted, &m.name) {
                Decision::Filter if probing && by_filter && self.skip_trivial && m.trivial => {
                    trivial_left += 1;
                    false
                }
                Decision::Filter => by_filter,
                Decision::Probe => true,
                Decision::Leave => false,
            };
            // A wrapped class keeps its native wrappers, with their probes, whatever is asked (a
            // retransformation cannot remove methods); other methods get probes while recording.
            if !(probing && wanted || wrap && m.access & ACC_NATIVE != 0) {
                return None;
            }
            let key = (internal.clone(), m.name.clone(), m.descriptor.clone());
            let next = ids.consumers.len() as u32;
            let id = *ids.by_key.entry(key).or_insert(next);
            if id == next {
                ids.consumers.push(ConsumerId::MAX); // named below, once the class's methods are known
            }
            Some(id)
        };
        let instrumented = instrument(data, &probes, &mut select);
        if self.skip_trivial {
            let mut left = lock(&self.trivial_left);
            if trivial_left > 0 {
                left.insert(internal.clone(), trivial_left);
            } else {
                left.remove(&internal);
            }
        }
        let out = match instrumented {
            Ok(Some(out)) => out,
            Ok(None) => {
                lock(&self.probed_classes).remove(&internal);
                drop(ids);
                self.close_requested(&mut requests, &dotted, &[]);
                return None;
            }
            Err(e) => {
                lock(&self.probed_classes).remove(&internal);
                drop(ids);
                self.close_requested(&mut requests, &dotted, &[]);
                log::warn(&format!("class {dotted} not instrumented: {e}"));
                return None;
            }
        };
        if out.probed.iter().any(|(m, _)| m.access & ACC_NATIVE == 0) {
            lock(&self.probed_classes).insert(internal.clone());
        } else {
            lock(&self.probed_classes).remove(&internal);
        }
        if !out.wrapped.is_empty() && !retransforming {
            lock(&self.wrapped_classes).insert(internal.clone());
        }
        // Names as the JVMTI path gives them: parameter types only for overloaded names (among
        // the class's own methods, not the renamed natives).
        let mut named = Vec::with_capacity(out.probed.len());
        for (m, id) in &out.probed {
            let overloaded = out.methods.iter().filter(|x| x.name == m.name).count() > 1;
            let name = method_consumer_name(&dotted, &m.name, &m.descriptor, overloaded);
            ids.consumers[*id as usize] = self.recorder.consumer(&name);
            named.push((*id, requests.decide(&dotted, &m.name) == Decision::Probe, name));
        }
        drop(ids);
        // The requested methods whose probes are in now get a window (in from now, or, during a
        // retransformation, from when it returns); those reached before whose probes are not in,
        // lose theirs.
        let pending = self.retransforming.load(Ordering::Acquire) > 0;
        let now = self.recorder.wall_ns();
        for (id, requested, name) in &named {
            if *requested && requests.note(&dotted, *id, name, true, (!pending).then_some(now)) == Some(true) && !pending {
                self.recorder.probe_opened(name, now);
            }
        }
        let kept: Vec<u32> = named.iter().map(|(id, ..)| *id).collect();
        self.close_requested(&mut requests, &dotted, &kept);
        drop(requests);
        if !out.skipped.is_empty() {
            let mut sk = lock(&self.skipped);
            for (m, why) in &out.skipped {
                let line = format!("{dotted}.{}{}: {why}", m.name, m.descriptor);
                log::info(&format!("not instrumented: {line}"));
                sk.push(line);
            }
        }
        self.classes.fetch_add(1, Ordering::Relaxed);
        self.methods.fetch_add(out.probed.len() as u32, Ordering::Relaxed);
        Some(out.bytes)
    }

    /// The probe ids of `frames` (innermost first, as JVMTI gives them), outermost first; frames of
    /// methods without probes are left out.
    fn probe_path(&self, frames: &[jvmtiFrameInfo]) -> Vec<u32> {
        frames.iter().rev().map(|f| self.probe_id(f.method)).filter(|&id| id >= 0).map(|id| id as u32).collect()
    }

    /// The probe id of `m` (-1 if it has no probes), cached per jmethodID.
    fn probe_id(&self, m: jmethodID) -> i32 {
        if let Some(&id) = lock(&self.ids).by_jmethod.get(&(m as usize)) {
            return id;
        }
        let env = self.env();
        // The local reference to the class is freed when the native method or callback we run in
        // returns (Probe.stack, a monitor event).
        let id = (|| {
            let sig = names::class_signature(env, names::declaring_class(env, m)?)?;
            let class = sig.strip_prefix('L')?.strip_suffix(';')?.to_string();
            let (name, desc) = names::method_name(env, m)?;
            lock(&self.ids).by_key.get(&(class, name, desc)).map(|&i| i as i32)
        })()
        .unwrap_or(-1);
        lock(&self.ids).by_jmethod.insert(m as usize, id);
        id
    }

    /// The calling thread's context as consumers (outermost first), from its stack: for lock and
    /// wait trees. A top frame that has not started (location 0: a synchronized method waiting for
    /// its monitor) is not part of it, as with JVMTI method events, which report such a method's
    /// entry only once it holds the monitor.
    pub(crate) fn context_path(&self) -> Vec<ConsumerId> {
        let frames = current_frames(self.env());
        let skip_top = frames.first().is_some_and(|f| f.location == 0);
        // The probe ids first (`probe_id` takes the ids' lock), then their consumers under one
        // lock, rather than a copy of the whole consumer table per event.
        let ids: Vec<i32> = frames.iter().skip(usize::from(skip_top)).rev().map(|f| self.probe_id(f.method)).collect();
        let table = lock(&self.ids);
        ids.into_iter()
            .filter(|&id| id >= 0)
            .filter_map(|id| table.consumers.get(id as usize).copied())
            .filter(|&c| c != ConsumerId::MAX)
            .collect()
    }

    /// Sets `Probe.state` (bit 0 recording; +2 when a window opens). `jni` is the caller's.
    fn set_state(&self, jni: *mut JNIEnv, state: i32) -> Result<(), String> {
        self.state.store(state, Ordering::Release);
        let (Some(&class), Some(&field)) = (self.probe_class.get(), self.state_field.get()) else {
            return Ok(()); // not defined yet: define_runtime sets the current state
        };
        if state & 1 == 1 {
            self.export_unsafe(jni, class as jclass)?;
        }
        // SAFETY: jni is the calling thread's env; class is a global reference; field its static int field.
        unsafe { jni_fn!(jni, SetStaticIntField)(jni, class as jclass, field as jfieldID, state) };
        Ok(())
    }

    /// Lets the probes use `jdk.internal.misc.Unsafe` (their one store per probe, no JNI), before
    /// the first probe records. Not at start-up: `AddModuleExports` runs Java code that bootstraps
    /// lambdas (about 10 ms of CPU), which a JVM that stays paused should not pay. Once.
    fn export_unsafe(&self, jni: *mut JNIEnv, probe: jclass) -> Result<(), String> {
        if self.exported.load(Ordering::Acquire) {
            return Ok(());
        }
        let env = self.env();
        let object = CString::new("java/lang/Object").unwrap();
        // SAFETY: jni is the calling thread's env; FindClass of a boot class.
        let obj = unsafe { jni_fn!(jni, FindClass)(jni, object.as_ptr()) };
        // SAFETY: jni valid; both are live class references.
        let (base, probes_module) = unsafe { (jni_fn!(jni, GetModule)(jni, obj), jni_fn!(jni, GetModule)(jni, probe)) };
        let pkg = CString::new("jdk.internal.misc").unwrap();
        // SAFETY: env valid (live phase); modules are live references.
        check(unsafe { jvmti_fn!(env, AddModuleExports)(env, base, pkg.as_ptr(), probes_module) }, "AddModuleExports(java.base/jdk.internal.misc)")?;
        // SAFETY: the local reference from FindClass, not kept.
        unsafe { jni_fn!(jni, DeleteLocalRef)(jni, obj) };
        self.exported.store(true, Ordering::Release);
        Ok(())
    }

    /// Starts (`on`) or stops recording. Starting opens a window: threads re-synchronise, and
    /// what they consumed while stopped is dropped; stopping charges each thread what it consumed
    /// up to now to the context it is in.
    pub(crate) fn set_recording(&self, jni: *mut JNIEnv, on: bool) -> Result<(), String> {
        if on && !self.probing.swap(true, Ordering::AcqRel) {
            // With calls=requested only a request puts probes in ([`ProbeRuntime::request`]).
            if !self.requested_only {
                self.ever_probed.store(true, Ordering::Release);
            }
            // The probes go back into the code first; the window opens when they are there. Only
            // into classes that get some: one a request reached, whose probes were taken out, is
            // left as it is.
            retransform_loaded(self, "start");
        }
        let result = self.switch_state(jni, on);
        if !on && self.probing.swap(false, Ordering::AcqRel) && !crate::vm_dying() {
            // The window is closed: the probes leave the code of the classes that carry them now
            // (a class a request reached, whose probes were taken out, is left alone: retransformed
            // again it would only send the JIT's code of its callers back to the interpreter).
            // At VMDeath they stay: the state already makes each probe a load and a branch, and
            // retransforming every probed class (thousands with calls=probes) would only delay
            // the exit and the final dump.
            retransform_where(self, "stop", |class| lock(&self.probed_classes).contains(&class.replace('.', "/")));
        }
        result
    }

    fn switch_state(&self, jni: *mut JNIEnv, on: bool) -> Result<(), String> {
        let cur = self.state.load(Ordering::Acquire);
        if !on && cur & 1 == 0 {
            // Stopped already (a second stop, or VMDeath after a stop or a paused start): what
            // the threads used since the stop is not recorded. Settling them as a stop does
            // would charge it all to the contexts they are in.
            return Ok(());
        }
        let next = if on { ((cur | 1) + 2) | 1 } else { cur & !1 };
        if !on {
            self.set_state(jni, next)?;
        }
        if on {
            // Signals and wall rounds resume first: the rebase below forgets what they credit
            // before the window opens.
            self.sampler_active(true);
        }
        let mut threads = lock(&self.threads);
        if on {
            // SAFETY: jni is the calling thread's env; the frame frees the class references that
            // resolving method ids makes (this thread may be a long-lived agent thread).
            unsafe { jni_fn!(jni, PushLocalFrame)(jni, 64) };
        }
        for t in threads.iter_mut() {
            t.collect(!on, &self.owners);
            if on {
                // Probes are off until the state below changes, so the cell is the agent's until then.
                let context = self.context_from_stack(t);
                t.local.current_cell().store(context, Ordering::Relaxed);
                if let Some(st) = &t.local.sampled {
                    st.rebase();
                }
            }
        }
        if on {
            // SAFETY: pairs with the PushLocalFrame above.
            unsafe { jni_fn!(jni, PopLocalFrame)(jni, ptr::null_mut()) };
            self.set_state(jni, next)?;
        } else {
            // Every thread is settled: while stopped, sampled threads get no signal and the wall
            // sampler makes no round (a paused JVM runs as without the agent).
            self.sampler_active(false);
        }
        Ok(())
    }

    /// Lets the sampler's signals and wall rounds run, or holds them off (recording stopped).
    fn sampler_active(&self, on: bool) {
        if let Some(s) = &self.sampler {
            if let Err(e) = s.set_active(on) {
                log::warn(&format!("sampler {}: {e}", if on { "not resumed for every thread" } else { "not held off for every thread" }));
            }
        }
    }

    /// The context cell value for where thread `t` is now, read from its stack from this (another)
    /// thread: an agent context of `t` (`AGENT_CONTEXT | index`), or 0 (its root) if the stack
    /// cannot be read. The thread's next probe replaces it with a node of its own tree.
    fn context_from_stack(&self, t: &mut ProbeThread) -> u32 {
        let Some(frames) = t.thread.as_ref().and_then(|th| th.frames(self.env())) else { return 0 };
        let path = self.probe_path(&frames);
        if path.is_empty() {
            return 0;
        }
        let index = match t.synced.iter().position(|p| *p == path) {
            Some(i) => i,
            None => {
                t.synced.push(path);
                t.synced.len() - 1
            }
        };
        AGENT_CONTEXT | index as u32
    }

    /// A new thread (ThreadStart, on the thread): its context cell and sampler start now, so the
    /// time before its first probe is its root's. Idempotent.
    /// Returns the thread's sampler, if it is sampled.
    pub(crate) fn thread_started(&self, jni: *mut JNIEnv, thread: jthread, recorder: &Arc<ThreadRecorder>) -> Option<Arc<SampledThread>> {
        if LOCAL.with(|l| l.borrow().is_some()) {
            return None;
        }
        let thread = if jni.is_null() { None } else { ThreadStack::new(self.env(), jni, thread) };
        // The context cell: where the probes mirror the current node. Never freed: the thread may
        // run Java code (and probes) until its very end, after the agent last hears of it.
        let cell = new_cell();
        // The JNIEnv is the stack walker's handle for this thread (with `sample=`).
        let sampled = self.sampler.as_ref().and_then(|s| match s.start_current_thread_walked(cell, jni as usize) {
            Ok(t) => Some(t),
            Err(e) => {
                log::debug(&format!("thread not sampled: {e}"));
                None
            }
        });
        if let Some(st) = &sampled {
            if self.state.load(Ordering::Acquire) & 1 == 0 {
                st.rebase();
            }
        }
        let local = Local::new(cell, sampled.clone());
        LOCAL.with(|l| *l.borrow_mut() = Some(local.clone()));
        lock(&self.threads).platform.push(ProbeThread::new(recorder, thread, local));
        sampled
    }

    /// A virtual thread starts (on its carrier, before its first mount): its context cell and
    /// credits, which its carriers' samplers fill while they run it.
    /// `id`: the agent's id for it; `slot`: where the virtual thread keeps its probes' part.
    pub(crate) fn vthread_started(&self, jni: *mut JNIEnv, thread: jthread, id: u32, recorder: &Arc<ThreadRecorder>, slot: &OnceLock<Local>) {
        let local = Local::new_virtual(new_parking_cell());
        lock(&self.owners).insert(id, local.bases.clone());
        let _ = slot.set(local.clone());
        let stack = ThreadStack::new(self.env(), jni, thread);
        let mut t = ProbeThread::new(recorder, stack, local);
        t.started_at = Some(self.state.load(Ordering::Acquire));
        lock(&self.threads).virtual_threads.insert(id, t);
    }

    /// The calling carrier mounts virtual thread `id` (its probes' part in `slot`): its probes
    /// and its sampler's credits are the virtual thread's from now, its context in the carrier's
    /// mount cell ([`VirtualCells`]).
    pub(crate) fn mount(&self, id: u32, slot: &OnceLock<Local>) {
        let Some(local) = slot.get() else { return };
        let Some(cells) = &local.virtual_cells else { return };
        let mount_cell = MOUNT_CELL.with(|c| match c.get() {
            Some(cell) => cell,
            None => {
                let cell = new_cell();
                c.set(Some(cell));
                cell
            }
        });
        cells.move_to(mount_cell);
        MOUNTED.with(|m| *m.borrow_mut() = Some((id, Local { cell: mount_cell, ..local.clone() })));
        if let Some(st) = LOCAL.with(|l| l.borrow().as_ref().and_then(|l| l.sampled.clone())) {
            st.retarget(mount_cell, id, self.exact);
        }
    }

    /// The calling carrier unmounts virtual thread `id` (its probes' part in `slot`): its
    /// sampler works for it again, and what it credited to the virtual thread goes to its bases
    /// now (so no carrier holds credits of a thread that ended).
    pub(crate) fn unmount(&self, id: u32, slot: &OnceLock<Local>) {
        let mounted = MOUNTED.with(|m| m.borrow_mut().take());
        let own = LOCAL.with(|l| l.borrow().clone());
        let sampled = own.as_ref().and_then(|o| Some((o.cell, o.sampled.clone()?)));
        if let Some((own_cell, st)) = &sampled {
            // First, while the mount cell still holds the thread's context (exact mode credits it).
            st.retarget(own_cell, 0, self.exact);
        }
        if let (Some(_), Some(local)) = (mounted, slot.get()) {
            if let Some(cells) = &local.virtual_cells {
                cells.move_to(local.cell);
            }
        }
        let (Some(own), Some((_, st))) = (own, sampled) else { return };
        let keep = self.state.load(Ordering::Acquire) & 1 == 1;
        let mounted = slot.get().map(|l| (id, &*l.bases));
        drain_into(&st, &own.bases, mounted, keep, &self.owners);
    }

    /// A virtual thread ended (on its carrier, after its last unmount): its final tree goes to
    /// the recorder now, and the agent lets go of it.
    pub(crate) fn vthread_ended(&self, jni: *mut JNIEnv, id: u32) {
        let m = self.sampled_metrics();
        let consumers = lock(&self.ids).consumers.clone();
        let mut threads = lock(&self.threads);
        lock(&self.owners).remove(&id);
        let Some(mut t) = threads.virtual_threads.remove(&id) else { return };
        drop(threads);
        self.sync_one(jni, &t, &consumers, m);
        if let Some(cells) = &t.local.virtual_cells {
            cells.shadow.store(0, Ordering::Release);
        }
        if t.shadow != 0 {
            // SAFETY: the global reference `probe_register` made for this thread's Shadow, used
            // by nobody else now that the entry is gone; jni is the calling thread's env.
            unsafe { jni_fn!(jni, DeleteGlobalRef)(jni, t.shadow as jobject) };
            t.shadow = 0;
        }
        t.thread = None; // its global reference is deleted here, on an attached thread
    }

    /// An allocation sample on the calling thread: credited to its current context while recording.
    pub(crate) fn allocated(&self, bytes: u64) {
        if self.state.load(Ordering::Acquire) & 1 == 0 {
            return;
        }
        if let Some(local) = current_local() {
            let node = local.cell.load(Ordering::Relaxed);
            let mut m = lock(&local.alloc);
            let e = m.entry(node).or_insert((0, 0));
            e.0 = e.0.saturating_add(bytes);
            e.1 = e.1.saturating_add(1);
        }
    }

    fn sampled_metrics(&self) -> usize {
        self.sampler.as_ref().map_or(0, |s| s.metrics().len())
    }

    /// The thread `t` ended: its sampler stops after crediting what it consumed last.
    /// Its final tree goes to the recorder now, on the thread itself (`jni` is its own): a snapshot
    /// taken later finds it ended with everything it did, even if the last copy of its tree was
    /// made while it still ran.
    pub(crate) fn thread_ended(&self, jni: *mut JNIEnv, t: &Arc<ThreadRecorder>) {
        let m = self.sampled_metrics();
        let recording = self.state.load(Ordering::Acquire) & 1 == 1;
        let consumers = lock(&self.ids).consumers.clone();
        for p in lock(&self.threads).platform.iter_mut().filter(|p| Arc::ptr_eq(&p.recorder, t)) {
            p.collect(recording, &self.owners);
            if let Some(st) = &p.local.sampled {
                st.stop();
                log::debug(&format!("thread {} sampler: {:?}", st.tid(), st.stats()));
            }
            self.sync_one(jni, p, &consumers, m);
            p.thread = None; // its global reference is deleted on this (ending) thread
        }
    }

    /// Calibrates the probes (`compensate=on`) the first time a dump asks: `status` and the copies
    /// made at ThreadEnd need no compensation, nor does a run that never recorded (no probe ran).
    pub(crate) fn calibrate_once(&self, jni: *mut JNIEnv) {
        if self.compensate && self.ever_probed.load(Ordering::Acquire) && self.calibrated.set(()).is_ok() {
            self.calibrate(jni);
        }
    }

    /// With `trivial=skip`, says in compensation.txt's `measured:` line how many methods had no
    /// probes and what that means for the reports.
    fn note_trivial(&self, how: &mut String) {
        if self.skip_trivial {
            how.push_str(&format!(
                "; trivial=skip: {} trivial method(s) had no probes by this dump: their calls are not counted and their time is their callers'",
                self.trivial_left()
            ));
        }
    }

    /// Measures the cost of one probed call (`Probe.calibrate`, compiled probe code on a private
    /// tree) and gives the recorder the compensation it implies. At the first snapshot: the
    /// measurement costs a few tens of ms, which the run itself then does not pay.
    fn calibrate(&self, jni: *mut JNIEnv) {
        if self.measures_probe_code() {
            // Nothing to estimate: what ran in the probes' code was credited to no context.
            let metrics = &self.recorder.bindings().metrics;
            let mut how = "bytecode probes: measured where it lands, not estimated per call: a sample whose signal interrupted the probes' \
                       code is credited to no context (in-probes below); the calls themselves and what the probes cost the code \
                       around them stay in the contexts"
                .to_string();
            self.note_trivial(&mut how);
            self.recorder.set_compensation(hpm_model::snapshot::Compensation::from_call_cost(metrics, 0.0, 0.0, 0, how).measured_only());
            return;
        }
        // Exact probes read the metrics twice per call (a system call each, here): fewer calls.
        let (rounds, pairs): (i32, i32) = if self.exact { (20, 5_000) } else { (30, 100_000) };
        let (Some(&class), Some(&method)) = (self.probe_class.get(), self.calibrate_method.get()) else { return };
        if self.exact {
            let reader = self.sampler.as_ref().and_then(|s| s.open_reader().map(|r| (r, vec![0; s.metrics().len()])));
            CALIBRATION_READER.with(|r| *r.borrow_mut() = reader);
        }
        let args = [jvalue { i: rounds }, jvalue { i: pairs }];
        // SAFETY: jni is the calling thread's env; class and method are Probe and its static
        // calibrate(int,int) method, with matching arguments.
        let ns = unsafe { jni_fn!(jni, CallStaticDoubleMethodA)(jni, class as jclass, method as jmethodID, args.as_ptr()) };
        CALIBRATION_READER.with(|r| *r.borrow_mut() = None);
        // SAFETY: as above.
        if unsafe { jni_fn!(jni, ExceptionCheck)(jni) } != 0 {
            // SAFETY: as above.
            unsafe { jni_fn!(jni, ExceptionClear)(jni) };
            log::warn("cannot calibrate the probes' cost: reports are not compensated");
            return;
        }
        let (callee_share, split) = if self.exact {
            // Each probe reads the metrics in its middle: what it does before the read is the
            // context's it leaves, what it does after is the one's it enters. The callee so gets
            // the second half of the entry probe and the first half of the exit probe.
            (0.5, "half removed from the callee and half from the caller (each probe reads the metrics in its middle)")
        } else {
            // All of it is removed from the caller. The samples see the context the probes last
            // wrote: the entry probe runs before it names the callee, so its cost is the caller's;
            // the exit probe's loads overlap the callee's own work on an out-of-order CPU and add
            // next to nothing there (measured: a 15 ns and an 80 ns method keep their cost without
            // probes within 6% uncompensated, agent/tests/probes.rs), and its store is the last
            // thing it does.
            (0.0, "removed from the caller (the entry probe runs in the caller's context; the exit probe overlaps the callee's work)")
        };
        let reads = if self.exact { " (each reading the metrics twice)" } else { "" };
        let mut how = format!(
            "bytecode probes{reads}: the fastest of {rounds} batches of {pairs} calls through the compiled probes on a private tree, at the first dump: {ns:.1} ns per call, {split}; metrics in ns only"
        );
        self.note_trivial(&mut how);
        let metrics = &self.recorder.bindings().metrics;
        let c = hpm_model::snapshot::Compensation::from_call_cost(metrics, ns, callee_share, (rounds * pairs) as u64, how);
        self.recorder.set_compensation(c);
    }

    /// Copies every thread's tree into the recorder (before a snapshot). `jni` is the caller's.
    pub(crate) fn sync_trees(&self, jni: *mut JNIEnv) {
        let mut threads = lock(&self.threads);
        let consumers = lock(&self.ids).consumers.clone();
        let m = self.sampled_metrics();
        let recording = self.state.load(Ordering::Acquire) & 1 == 1;
        // Every sampler first: carriers hold credits of the virtual threads they run.
        if recording {
            for t in threads.iter_mut() {
                t.collect(true, &self.owners);
            }
        }
        for t in threads.iter() {
            self.sync_one(jni, t, &consumers, m);
        }
    }

    /// Copies one thread's tree, with what was credited to it, into the recorder.
    fn sync_one(&self, jni: *mut JNIEnv, t: &ProbeThread, consumers: &[ConsumerId], m: usize) {
        let (nodes, thrown) = if t.shadow == 0 { (Vec::new(), 0) } else { self.export(jni, t.shadow).unwrap_or_default() };
        let alloc = lock(&t.local.alloc).clone();
        let bases = lock(&t.local.bases);
        let synced = Synced { paths: &t.synced, base: &bases.agent };
        let tree = |root, metrics| build_tree(root, metrics, &nodes, consumers, &t.baseline, &bases.java, &synced, m, &alloc);
        self.recorder.replace_calls_tree(&t.recorder, thrown.saturating_sub(t.baseline_thrown), tree);
        if self.measures_probe_code() {
            // Every thread gets a value (0 too), so that a measured run's reports always show it.
            let mut in_probes = bases.in_probes.clone();
            in_probes.resize(in_probes.len().max(m), 0);
            self.recorder.set_in_probes(&t.recorder, in_probes);
        }
    }

    /// Forgets the calls counted so far (reset): each thread's current counts become its baseline.
    pub(crate) fn reset(&self, jni: *mut JNIEnv) {
        let mut threads = lock(&self.threads);
        for t in threads.iter_mut() {
            t.collect(false, &self.owners);
        }
        for t in threads.iter_mut() {
            *lock(&t.local.bases) = Bases::default();
            lock(&t.local.alloc).clear();
            if t.shadow == 0 {
                continue;
            }
            if let Some((nodes, thrown)) = self.export(jni, t.shadow) {
                t.baseline = nodes.iter().map(|n| n.2).collect();
                t.baseline_thrown = thrown;
            }
        }
    }

    /// `Probe.export(shadow)`: (parent, method id, calls) for nodes 1..n (index 0 is node 1), and
    /// the exits by exception.
    fn export(&self, jni: *mut JNIEnv, shadow: usize) -> Option<(Vec<ProbeNode>, u64)> {
        let (&class, &method) = (self.probe_class.get()?, self.export_method.get()?);
        // SAFETY: jni is the calling thread's env. An exception already pending (not ours) must
        // neither be cleared nor have a Java call made under it: this copy is skipped.
        if unsafe { jni_fn!(jni, ExceptionCheck)(jni) } != 0 {
            return None;
        }
        let args = [jvalue { l: shadow as jobject }];
        // SAFETY: jni is the calling thread's env (attached); class and method are Probe and its
        // static export(Shadow) method; the argument is a live global reference to a Shadow.
        let arr = unsafe { jni_fn!(jni, CallStaticObjectMethodA)(jni, class as jclass, method as jmethodID, args.as_ptr()) };
        // SAFETY: as above.
        if unsafe { jni_fn!(jni, ExceptionCheck)(jni) } != 0 {
            // SAFETY: as above; an OutOfMemoryError while copying: this snapshot misses this thread.
            unsafe { jni_fn!(jni, ExceptionClear)(jni) };
            log::warn("cannot copy a thread's call tree (out of memory in the JVM): the dump misses it");
            return None;
        }
        if arr.is_null() {
            return None;
        }
        // SAFETY: arr is a local reference to a long[].
        let len = unsafe { jni_fn!(jni, GetArrayLength)(jni, arr) }.max(0) as usize;
        let mut buf = vec![0i64; len];
        // SAFETY: buf has len elements; the region is within the array.
        unsafe { jni_fn!(jni, GetLongArrayRegion)(jni, arr, 0, len as jint, buf.as_mut_ptr()) };
        // SAFETY: a local reference we own.
        unsafe { jni_fn!(jni, DeleteLocalRef)(jni, arr) };
        let n = buf.first().copied().unwrap_or(1).max(1) as usize;
        let thrown = if buf.len() >= 2 { buf[buf.len() - 1].max(0) as u64 } else { 0 };
        let triples = buf.get(1..buf.len().saturating_sub(1)).unwrap_or(&[]);
        let nodes = triples.chunks_exact(3).take(n - 1).map(|c| (c[0] as u32, c[1] as u32, c[2].max(0) as u64)).collect();
        Some((nodes, thrown))
    }
}

/// An arcflow tree from a probe tree: node i+1 of the probes is `nodes[i]` (parent, method id,
/// calls); parents come before their children. Methods with the same name merge. `base` holds
/// `k` sampled values per probe node (node 0 first), the first `k` of the tree's metrics; `alloc`
/// the allocation per probe node, the two metrics after those when the tree has them.
#[allow(clippy::too_many_arguments)]
fn build_tree(
    root: ConsumerId,
    metrics: usize,
    nodes: &[ProbeNode],
    consumers: &[ConsumerId],
    baseline: &[u64],
    base: &[u64],
    synced: &Synced,
    k: usize,
    alloc: &HashMap<u32, (u64, u64)>,
) -> Tree {
    // One node's values (sampled metrics, then allocation), in a buffer reused for every node.
    // `node` is a cell value: a probe node, or an agent context (AGENT_CONTEXT | index).
    let mut v = vec![0u64; metrics];
    let fill = |v: &mut [u64], node: u32| {
        v.fill(0);
        let (values, i) = if node & AGENT_CONTEXT != 0 { (synced.base, (node & !AGENT_CONTEXT) as usize) } else { (base, node as usize) };
        for (d, s) in v.iter_mut().zip(values.get(i * k..i * k + k).unwrap_or(&[])) {
            *d = *s;
        }
        if metrics >= k + 2 {
            if let Some(&(bytes, objects)) = alloc.get(&node) {
                v[k] = bytes;
                v[k + 1] = objects;
            }
        }
    };
    let mut tree = Tree::new(root, metrics);
    fill(&mut v, 0);
    tree.add_base(Tree::ROOT, &v);
    let mut map = Vec::with_capacity(nodes.len() + 1);
    map.push(Tree::ROOT);
    for (i, &(parent, method, calls)) in nodes.iter().enumerate() {
        let p = map.get(parent as usize).copied().unwrap_or(Tree::ROOT);
        let consumer = consumers.get(method as usize).copied().filter(|&c| c != ConsumerId::MAX);
        let node = match consumer {
            Some(c) => {
                let node = tree.child(p, c);
                tree.add_calls(node, calls.saturating_sub(baseline.get(i).copied().unwrap_or(0)));
                node
            }
            None => p,
        };
        fill(&mut v, i as u32 + 1);
        tree.add_base(node, &v);
        map.push(node);
    }
    // The agent's contexts: paths read from the stack, entered without calls.
    for (i, path) in synced.paths.iter().enumerate() {
        let mut node = Tree::ROOT;
        for &method in path {
            if let Some(c) = consumers.get(method as usize).copied().filter(|&c| c != ConsumerId::MAX) {
                node = tree.child(node, c);
            }
        }
        fill(&mut v, AGENT_CONTEXT | i as u32);
        tree.add_base(node, &v);
    }
    tree
}

/// A thread's agent contexts and their sampled values, for [`build_tree`].
struct Synced<'a> {
    paths: &'a [Vec<u32>],
    base: &'a [u64],
}

/// Defines the probe runtime in the boot loader, lets it use `jdk.internal.misc.Unsafe`, registers
/// its natives and turns instrumentation on; then retransforms the selected classes loaded so far.
/// Called at VMInit (or at once after a late attach), on a thread with `jni`.
pub(crate) fn define_runtime(jni: *mut JNIEnv) -> Result<(), String> {
    let rt = RUNTIME.get().ok_or("probe runtime not installed")?;
    let mut probe: jclass = ptr::null_mut();
    let mut defined = Vec::new();
    for (name, bytes) in PROBE_CLASSES {
        let cname = CString::new(*name).map_err(|_| "bad class name")?;
        // SAFETY: jni is the calling thread's env; a null loader defines in the boot loader; the
        // bytes are a class file compiled at build time.
        let k = unsafe { jni_fn!(jni, DefineClass)(jni, cname.as_ptr(), ptr::null_mut(), bytes.as_ptr() as *const jbyte, bytes.len() as jsize) };
        if k.is_null() {
            // SAFETY: as above.
            unsafe {
                jni_fn!(jni, ExceptionDescribe)(jni);
                jni_fn!(jni, ExceptionClear)(jni);
            }
            return Err(format!("cannot define the probe class {name} in the boot loader"));
        }
        if *name == PROBE_CLASS {
            probe = k;
        }
        defined.push(k);
    }
    if probe.is_null() {
        return Err("the probe runtime has no Probe class".into());
    }
    let natives = [
        native("register", "(Lhpmagent/probe/Probe$Shadow;)J", probe_register as *mut c_void),
        native("existing", "()Lhpmagent/probe/Probe$Shadow;", probe_existing as *mut c_void),
        native("stack", "()[I", probe_stack as *mut c_void),
        native("exactMode", "()Z", probe_exact_mode as *mut c_void),
        native("switchTo", "(JI)V", probe_switch_to as *mut c_void),
    ];
    let methods: Vec<JNINativeMethod> = natives
        .iter()
        .map(|(n, s, f)| JNINativeMethod { name: n.as_ptr() as *mut c_char, signature: s.as_ptr() as *mut c_char, fnPtr: *f })
        .collect();
    // SAFETY: jni valid; probe is the class declaring these natives with these signatures.
    if unsafe { jni_fn!(jni, RegisterNatives)(jni, probe, methods.as_ptr(), methods.len() as jint) } != 0 {
        return Err("cannot register the probe runtime's natives".into());
    }
    let sname = CString::new("state").unwrap();
    let sig = CString::new("I").unwrap();
    // SAFETY: jni valid; initialises Probe (its static initialiser gets Unsafe, exported above).
    let field = unsafe { jni_fn!(jni, GetStaticFieldID)(jni, probe, sname.as_ptr(), sig.as_ptr()) };
    let cname = CString::new("calibrate").unwrap();
    let csig = CString::new("(II)D").unwrap();
    // SAFETY: as above.
    let calibrate = unsafe { jni_fn!(jni, GetStaticMethodID)(jni, probe, cname.as_ptr(), csig.as_ptr()) };
    let ename = CString::new("export").unwrap();
    let esig = CString::new("(Lhpmagent/probe/Probe$Shadow;)[J").unwrap();
    // SAFETY: as above.
    let export = unsafe { jni_fn!(jni, GetStaticMethodID)(jni, probe, ename.as_ptr(), esig.as_ptr()) };
    // SAFETY: as above.
    if field.is_null() || export.is_null() || calibrate.is_null() || unsafe { jni_fn!(jni, ExceptionCheck)(jni) } != 0 {
        // SAFETY: as above.
        unsafe {
            jni_fn!(jni, ExceptionDescribe)(jni);
            jni_fn!(jni, ExceptionClear)(jni);
        }
        return Err("the probe runtime did not initialise".into());
    }
    // SAFETY: jni valid; probe a live local reference.
    let global = unsafe { jni_fn!(jni, NewGlobalRef)(jni, probe) };
    let _ = rt.probe_class.set(global as usize);
    let _ = rt.state_field.set(field as usize);
    let _ = rt.export_method.set(export as usize);
    let _ = rt.calibrate_method.set(calibrate as usize);
    rt.measure_probe_code(&defined);
    rt.set_state(jni, rt.state.load(Ordering::Acquire))?;
    rt.ready.store(true, Ordering::Release);
    if rt.probing.load(Ordering::Acquire) {
        retransform_loaded(rt, "start-up");
    }
    Ok(())
}

fn native(name: &str, sig: &str, f: *mut c_void) -> (CString, CString, *mut c_void) {
    (CString::new(name).unwrap(), CString::new(sig).unwrap(), f)
}

/// Retransforms the loaded classes that get probes by the filter or a request (JDK classes with
/// `include=`, every selected class after a late attach, all of them at `start`), so that their
/// code matches `probing` (`why`: for the log). A stop retransforms the classes that carry
/// probes instead ([`ProbeRuntime::set_recording`]).
fn retransform_loaded(rt: &ProbeRuntime, why: &str) {
    retransform_where(rt, why, |class| {
        let requests = lock(&rt.requests);
        rt.gets_probes(class, &requests)
    });
}

/// Retransforms the loaded, modifiable classes whose dotted names `pick` accepts; their new code
/// is what [`ProbeRuntime::transform`] makes of it now. Returns how many were retransformed and
/// how many failed. Probes it puts in are in from when it returns.
fn retransform_where(rt: &ProbeRuntime, why: &str, pick: impl Fn(&str) -> bool) -> (usize, usize) {
    let _one_at_a_time = lock(&rt.retransform_lock);
    let env = rt.env();
    let mut count: jint = 0;
    let mut classes: *mut jclass = ptr::null_mut();
    // SAFETY: env valid, live phase; out-pointers valid.
    if unsafe { jvmti_fn!(env, GetLoadedClasses)(env, &mut count, &mut classes) } != JVMTI_ERROR_NONE {
        return (0, 0);
    }
    // SAFETY: GetLoadedClasses returned `count` class references at `classes`.
    let all = unsafe { std::slice::from_raw_parts(classes, count.max(0) as usize) }.to_vec();
    crate::deallocate(env, classes as *mut u8);
    let mut chosen = Vec::new();
    for k in all {
        let mut modifiable: jboolean = 0;
        // SAFETY: env valid; k a live class reference.
        if unsafe { jvmti_fn!(env, IsModifiableClass)(env, k, &mut modifiable) } != JVMTI_ERROR_NONE || modifiable == 0 {
            continue;
        }
        let mut sig = ptr::null_mut();
        // SAFETY: as above.
        if unsafe { jvmti_fn!(env, GetClassSignature)(env, k, &mut sig, ptr::null_mut()) } != JVMTI_ERROR_NONE {
            continue;
        }
        // SAFETY: allocated by JVMTI just now.
        let Some(sig) = (unsafe { take_string(env, sig) }) else { continue };
        if !sig.starts_with('L') {
            continue;
        }
        if pick(&class_name_from_signature(&sig)) {
            chosen.push(k);
        }
    }
    if chosen.is_empty() {
        return (0, 0);
    }
    rt.retransforming.fetch_add(1, Ordering::AcqRel);
    // In batches: one class that fails (e.g. a verification error) fails its whole batch.
    let mut failed = 0;
    for batch in chosen.chunks(64) {
        // SAFETY: env valid; batch holds live class references.
        if unsafe { jvmti_fn!(env, RetransformClasses)(env, batch.len() as jint, batch.as_ptr()) } != JVMTI_ERROR_NONE {
            for k in batch {
                // SAFETY: as above, one class at a time.
                if unsafe { jvmti_fn!(env, RetransformClasses)(env, 1, k) } != JVMTI_ERROR_NONE {
                    failed += 1;
                }
            }
        }
    }
    rt.retransforming.fetch_sub(1, Ordering::AcqRel);
    rt.settle_requested();
    if failed > 0 {
        log::warn(&format!("{failed} of {} loaded classes could not get probes (RetransformClasses failed)", chosen.len()));
    }
    log::debug(&format!("{why}: retransformed {} loaded classes", chosen.len() - failed));
    (chosen.len() - failed, failed)
}

/// ClassFileLoadHook: instruments the selected classes once the probe runtime is defined.
pub(crate) unsafe extern "C" fn class_file_load_hook(
    env: *mut jvmtiEnv,
    _jni: *mut JNIEnv,
    class_being_redefined: jclass,
    loader: jobject,
    name: *const c_char,
    _protection_domain: jobject,
    class_data_len: jint,
    class_data: *const u8,
    new_class_data_len: *mut jint,
    new_class_data: *mut *mut u8,
) {
    hpm_support::guard("ClassFileLoadHook", || {
        let Some(rt) = RUNTIME.get() else { return };
        if class_data.is_null() || class_data_len <= 0 || new_class_data.is_null() || new_class_data_len.is_null() {
            return;
        }
        // SAFETY: HotSpot passes the class file bytes, valid for the duration of the callback.
        let data = unsafe { std::slice::from_raw_parts(class_data, class_data_len as usize) };
        // SAFETY: null or a NUL-terminated name valid for the callback.
        let name = (!name.is_null()).then(|| unsafe { CStr::from_ptr(name) }.to_string_lossy().into_owned());
        let redefining = !class_being_redefined.is_null();
        let with_field = (loader.is_null() && name.as_deref() == Some("java/lang/Thread")).then(|| rt.thread_with_field(data, redefining)).flatten();
        let data = with_field.as_deref().unwrap_or(data);
        let Some(bytes) = rt.transform(name.as_deref(), data, redefining).or(with_field) else { return };
        let mut mem: *mut u8 = ptr::null_mut();
        // SAFETY: env valid; the VM frees what we hand back through Allocate's allocator.
        if unsafe { jvmti_fn!(env, Allocate)(env, bytes.len() as jlong, &mut mem) } != JVMTI_ERROR_NONE || mem.is_null() {
            return;
        }
        // SAFETY: mem has bytes.len() bytes; the out-pointers are the VM's.
        unsafe {
            ptr::copy_nonoverlapping(bytes.as_ptr(), mem, bytes.len());
            *new_class_data_len = bytes.len() as jint;
            *new_class_data = mem;
        }
    })
}

/// `Probe.existing()`: the Shadow the agent holds for the calling thread (the mounted virtual
/// thread's, or the OS thread's own), as a new local reference; null when there is none. The JDK
/// erases some threads' thread locals between tasks (InnocuousThread), after which the probes ask
/// for a Shadow again: the thread's tree goes on instead of a second one being started.
unsafe extern "C" fn probe_existing(jni: *mut JNIEnv, _class: jclass) -> jobject {
    let mut found: jobject = ptr::null_mut();
    hpm_support::guard("Probe.existing", || {
        let Some(rt) = RUNTIME.get() else { return };
        let Some(local) = current_local() else { return };
        let mut threads = lock(&rt.threads);
        if let Some(t) = threads.current(&local).filter(|t| t.shadow != 0) {
            // SAFETY: jni is this thread's env; t.shadow a live global reference to a Shadow.
            found = unsafe { jni_fn!(jni, NewLocalRef)(jni, t.shadow as jobject) };
        }
    });
    found
}

/// `Probe.register(Shadow)`: a thread's first probe. Keeps the tree (global reference) with the
/// thread's recorder; returns the address of the thread's context cell (0: not recorded).
unsafe extern "C" fn probe_register(jni: *mut JNIEnv, _class: jclass, shadow: jobject) -> jlong {
    let mut cell: jlong = 0;
    hpm_support::guard("Probe.register", || {
        let Some(rt) = RUNTIME.get() else { return };
        let Some(recorder) = crate::current_thread_recorder() else { return };
        // SAFETY: jni is this thread's env; shadow a live local reference.
        let global = unsafe { jni_fn!(jni, NewGlobalRef)(jni, shadow) };
        if global.is_null() {
            return;
        }
        // null: the calling thread. A thread that ran before a late attach starts its sampler
        // here, at its first probe: its stack samples go to the stack runtime as at a ThreadStart
        // (they were walked and never drained: sampled/ stayed empty after an attach).
        let sampled = rt.thread_started(jni, ptr::null_mut(), &recorder);
        if let Some(st) = crate::stacks::runtime() {
            st.thread_started(jni, &recorder, sampled);
        }
        // A virtual thread's Shadow goes with its own entry (the carrier's is the carrier's).
        let Some(local) = current_local() else { return };
        let mut threads = lock(&rt.threads);
        let Some(t) = threads.current(&local) else { return };
        if t.shadow != 0 {
            // A second Shadow on one OS thread: a virtual thread on its carrier, in a VM that
            // did not grant can_support_virtual_threads.
            static SAID: AtomicBool = AtomicBool::new(false);
            if !SAID.swap(true, Ordering::Relaxed) {
                log::warn("virtual threads are not recorded apart in this VM (it did not grant can_support_virtual_threads): only the first thread that runs probed code on each carrier gets a call tree");
            }
            // SAFETY: the global reference made above, not kept.
            unsafe { jni_fn!(jni, DeleteGlobalRef)(jni, global) };
            return;
        }
        t.shadow = global as usize;
        if let Some(cells) = &t.local.virtual_cells {
            cells.shadow.store(global as usize, Ordering::Release);
        }
        let state = rt.state.load(Ordering::Acquire);
        if t.started_at == Some(state) && state & 1 == 1 {
            // Synchronised already: its context is its root (see `ProbeThread::started_at`).
            set_epoch(jni, shadow, state);
        }
        let c = local.cell;
        cell = c as *const AtomicU32 as jlong;
    });
    cell
}

/// The field id of `Shadow`'s field `name` (of type `sig`), looked up once on `shadow`'s class
/// and kept in `cache` (0: no such field).
fn shadow_field(jni: *mut JNIEnv, shadow: jobject, cache: &OnceLock<usize>, name: &CStr, sig: &CStr) -> usize {
    *cache.get_or_init(|| {
        // SAFETY: jni is this thread's env; shadow a live reference; names NUL-terminated.
        unsafe {
            let class = jni_fn!(jni, GetObjectClass)(jni, shadow);
            let f = jni_fn!(jni, GetFieldID)(jni, class, name.as_ptr(), sig.as_ptr());
            if f.is_null() {
                jni_fn!(jni, ExceptionClear)(jni);
            }
            jni_fn!(jni, DeleteLocalRef)(jni, class);
            f as usize
        }
    })
}

/// Points `Shadow.cell` of a virtual thread's Shadow (a global reference; 0: none yet) at `cell`,
/// on the carrier that mounts or unmounts it (see [`VirtualCells`]). The thread runs no probe
/// meanwhile: it is between its mount and its first Java code, or past its last.
fn point_shadow_at(shadow: usize, cell: &'static AtomicU32) {
    static CELL: OnceLock<usize> = OnceLock::new();
    if shadow == 0 {
        return;
    }
    let Ok(jni) = crate::current_jni() else { return };
    let field = shadow_field(jni, shadow as jobject, &CELL, c"cell", c"J");
    if field != 0 {
        // SAFETY: `field` is Shadow's long field `cell`, `shadow` a live global reference to a
        // Shadow (deleted only after the cells forget it); jni is this thread's env.
        unsafe { jni_fn!(jni, SetLongField)(jni, shadow as jobject, field as jfieldID, cell as *const AtomicU32 as jlong) };
    }
}

/// Sets `Shadow.epoch` of `shadow` to `state`: the thread's context is in step with the stack.
fn set_epoch(jni: *mut JNIEnv, shadow: jobject, state: i32) {
    static EPOCH: OnceLock<usize> = OnceLock::new();
    let field = shadow_field(jni, shadow, &EPOCH, c"epoch", c"I");
    if field != 0 {
        // SAFETY: `field` is Shadow's int field `epoch`, `shadow` a live Shadow.
        unsafe { jni_fn!(jni, SetIntField)(jni, shadow, field as jfieldID, state) };
    }
}

/// `Probe.exactMode()`, read once by Probe's static initialiser (a constant to the JIT): whether
/// the probes credit the metrics at every change of context.
unsafe extern "C" fn probe_exact_mode(_jni: *mut JNIEnv, _class: jclass) -> jboolean {
    RUNTIME.get().is_some_and(|rt| rt.exact) as jboolean
}

/// A reader of the metrics and its buffer.
type ReaderWithBuffer = (Box<dyn ThreadMetrics>, Vec<u64>);

thread_local! {
    /// While `calibrate` runs on this thread in exact mode: a reader of the metrics, so that the
    /// calibration's probes read them as a recorded thread's do.
    static CALIBRATION_READER: RefCell<Option<ReaderWithBuffer>> = const { RefCell::new(None) };
}

/// `Probe.switchTo(cell, next)`, the probes' store of the current context in exact mode: on a
/// recorded thread, credits its metrics since the last credit to the context in its cell (one
/// read), then makes `next` current. Any other cell (the spare cell of an unregistered thread, the
/// calibration's) just gets `next`, after a read while calibrating.
unsafe extern "C" fn probe_switch_to(_jni: *mut JNIEnv, _class: jclass, cell: jlong, next: jint) {
    hpm_support::guard("Probe.switchTo", || {
        // The carrier's sampler credits a mounted virtual thread's contexts through its cell.
        let target = current_local().map(|l| l.cell as *const AtomicU32 as jlong);
        let switched = LOCAL.with(|l| match l.borrow().as_ref() {
            Some(Local { sampled: Some(t), .. }) if target == Some(cell) => {
                t.switch_to(next as u32);
                true
            }
            _ => false,
        });
        if !switched {
            CALIBRATION_READER.with(|r| {
                if let Some((reader, values)) = r.borrow_mut().as_mut() {
                    reader.read(values);
                }
            });
            // SAFETY: every cell the probes hold is native memory that is never freed and aligned
            // for a u32: a cell leaked by `thread_started`, or `Shadow.SPARE` (8 bytes from
            // Unsafe.allocateMemory), which threads only ever store into.
            unsafe { (*(cell as *const AtomicU32)).store(next as u32, Ordering::Relaxed) };
        }
    });
}

/// The calling thread's frames, innermost first (all of them: re-synchronising needs the outermost).
fn current_frames(env: *mut jvmtiEnv) -> Vec<jvmtiFrameInfo> {
    names::frames(env, ptr::null_mut()).unwrap_or_default()
}

/// `Probe.stack()`: the probe ids of the calling thread's frames, outermost first.
unsafe extern "C" fn probe_stack(jni: *mut JNIEnv, _class: jclass) -> jintArray {
    let mut out: jintArray = ptr::null_mut();
    hpm_support::guard("Probe.stack", || {
        let Some(rt) = RUNTIME.get() else { return };
        let frames = current_frames(rt.env());
        let ids: Vec<jint> = rt.probe_path(&frames).into_iter().map(|id| id as jint).collect();
        // SAFETY: jni is this thread's env.
        let arr = unsafe { jni_fn!(jni, NewIntArray)(jni, ids.len() as jsize) };
        if arr.is_null() {
            return; // OutOfMemoryError pending: the probe catches it and stops recording this thread
        }
        // SAFETY: arr has ids.len() elements.
        unsafe { jni_fn!(jni, SetIntArrayRegion)(jni, arr, 0, ids.len() as jsize, ids.as_ptr()) };
        out = arr;
    });
    out
}
