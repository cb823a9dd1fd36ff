//! libhpmagent.so: the JVM agent entry points, options and dumping.
//!
//! `java -agentpath:/path/libhpmagent.so=OPTIONS` calls [`Agent_OnLoad`], which parses the options,
//! creates the [`Recorder`] and hands it to the HotSpot backend; `rvm -agentpath:…` calls
//! [`rvm::Agent_OnLoad_rvm`], which feeds the same recorder from the research VM's callbacks. At VM
//! death (normal exit, `System.exit` or SIGTERM) the agent writes its reports into the `out=`
//! directory. [`AgentState`] holds the operations the control socket calls: pause, resume, reset,
//! dump, status; [`Vm`] is the part that differs between the two VMs.

pub mod control;
pub mod options;
pub mod run_dir;
pub mod rvm;
mod vmcost;

use std::ffi::{c_char, c_void, CStr};
use std::io;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use hotspot_backend::sys::jvmti::{jint, JavaVM, JNI_ERR, JNI_OK};
use hotspot_backend::{BackendConfig, Control, Hooks};
use hpm_support::log;
use hpm_collectors::arcflow::MetricMode;
use hpm_collectors::counters::{CounterOptions, CounterSetSpec, Metrics, ThreadCpuClock, WallClock};
use hpm_collectors::metrics::MetricSet;
use hpm_collectors::recorder::{ClassFilter, Recorder, RecorderConfig, Snapshot, Status};
use hpm_collectors::sampling::{ContextSampler, SamplerConfig, SignalSource, StackConfig, StackTrigger};
use hpm_reports::ReportOptions;
use options::{MetricModeOption, SampleMode};

pub use options::Options;

/// The VM-specific part of the agent: what pause/resume, `status` and dumps need from the VM.
pub enum Vm {
    /// HotSpot through JVMTI: the backend's control handle (set at load and again at VMInit) and
    /// the `JavaVM*` of Agent_OnLoad, as an address.
    HotSpot { control: OnceLock<Control>, java_vm: OnceLock<usize> },
    /// The research VM: its state lives in [`rvm`] (threads are the agent's own table).
    Rvm,
}

impl Vm {
    pub fn hotspot() -> Vm {
        Vm::HotSpot { control: OnceLock::new(), java_vm: OnceLock::new() }
    }

    /// `"hotspot"` or `"rvm"` (the control socket's `status` says which).
    pub fn name(&self) -> &'static str {
        match self {
            Vm::HotSpot { .. } => "hotspot",
            Vm::Rvm => "rvm",
        }
    }

    fn control(&self) -> Option<&Control> {
        match self {
            Vm::HotSpot { control, .. } => control.get(),
            Vm::Rvm => None,
        }
    }

    /// Turns method events on or off in the VM. On rvm the callbacks stay installed (they cost a
    /// branch in the paused recorder): only the recorder pauses.
    fn set_method_events(&self, on: bool) -> Result<(), String> {
        match self.control() {
            Some(c) => c.set_method_events(on),
            None => Ok(()),
        }
    }

    /// The VM's live threads as (name, kind).
    fn threads(&self) -> Result<Vec<(String, String)>, String> {
        match self {
            Vm::HotSpot { control, .. } => control.get().ok_or("the VM is not initialised yet")?.vm_threads(),
            Vm::Rvm => Ok(rvm::vm_threads()),
        }
    }

    /// What this VM could not give the agent, one line each.
    pub fn missing_capabilities(&self) -> Vec<String> {
        match self {
            Vm::HotSpot { .. } => hotspot_backend::missing_capabilities(),
            Vm::Rvm => Vec::new(),
        }
    }

    /// With bytecode probes on HotSpot, how many classes carry probes now.
    pub fn probed_classes(&self) -> Option<usize> {
        match self {
            Vm::HotSpot { .. } => hotspot_backend::probed_classes(),
            Vm::Rvm => None,
        }
    }

    /// The `JavaVM*` (null on rvm and before Agent_OnLoad).
    fn java_vm(&self) -> *mut JavaVM {
        match self {
            Vm::HotSpot { java_vm, .. } => java_vm.get().map_or(std::ptr::null_mut(), |&p| p as *mut JavaVM),
            Vm::Rvm => std::ptr::null_mut(),
        }
    }
}

/// How the bytecode probes' contexts get time and counters: read at every change of context
/// (exact) or sampled, and why (`metric-mode=`).
#[derive(Debug, Clone)]
pub struct ProbeMetrics {
    pub mode: MetricMode,
    /// One line for the log: the mode, what decided it, what one read costs here.
    pub why: String,
}

impl ProbeMetrics {
    /// A read at most this long (ns) is cheap enough to make at every entry and exit: about what a
    /// vDSO clock read costs, a few times the probe itself; a system call costs ten times more.
    pub const EXACT_READ_LIMIT_NS: f64 = 50.0;

    /// `auto`: exact if one read of every metric (through the reader each thread uses) costs at
    /// most [`Self::EXACT_READ_LIMIT_NS`] on this machine, measured now; otherwise sampled.
    /// `events_read`: how the `event=` counters are read on a thread (None: no events).
    fn choose(option: MetricModeOption, metrics: &Metrics, events_read: Option<String>) -> ProbeMetrics {
        let names = metrics.metrics().iter().map(|m| m.name.clone()).collect::<Vec<_>>().join(", ");
        let cost = hpm_collectors::sampling::read_cost_ns(metrics);
        let cost_text = cost.map_or("cannot be measured".to_string(), |c| format!("costs {c:.0} ns"));
        let (mode, because) = match option {
            MetricModeOption::Exact => (MetricMode::Exact, "metric-mode=exact".to_string()),
            MetricModeOption::Sampled => (MetricMode::Sampled, "metric-mode=sampled".to_string()),
            MetricModeOption::Auto => match cost {
                Some(c) if c <= Self::EXACT_READ_LIMIT_NS => (MetricMode::Exact, format!("at most {} ns", Self::EXACT_READ_LIMIT_NS)),
                _ => (
                    MetricMode::Sampled,
                    format!("over the {} ns at which reading at every entry and exit pays; metric-mode=exact forces it", Self::EXACT_READ_LIMIT_NS),
                ),
            },
        };
        let how = match mode {
            MetricMode::Exact => "read at every entry and exit (exact)",
            MetricMode::Sampled => "sampled into the exact contexts",
        };
        // Which reads are system calls: what decides the cost, and what a machine with a hardware
        // PMU changes (rdpmc for its counters).
        let mut paths = "cpu-time by clock_gettime of the thread's CPU clock (a system call), wall-time by CLOCK_MONOTONIC (vDSO)".to_string();
        if let Some(e) = events_read {
            paths = format!("{paths}, events by {e}");
        }
        ProbeMetrics { mode, why: format!("time and counters {how}: one read of [{names}] {cost_text} here ({because}); read: {paths}") }
    }
}

/// The agent: options, recorder and the VM-specific part.
pub struct AgentState {
    pub options: Options,
    pub out: PathBuf,
    recorder: Arc<Recorder>,
    /// The recorder's metric set (`cpu-time`, `wall-time`, `event=` counters), shared so that the
    /// research VM's processors can open it on their own threads.
    metric_set: Arc<Metrics>,
    /// With bytecode probes on HotSpot: how their contexts get the metrics, and why.
    pub probe_metrics: Option<ProbeMetrics>,
    /// Write `/tmp/perf-<pid>.map` with every dump (`perf-map=`, HotSpot with `collect=code`).
    perf_map: bool,
    pub vm: Vm,
    /// Serialises dumps (VMDeath and the control socket may ask at the same time).
    dumping: Mutex<()>,
    /// One line per requested `event=` that could not be opened (for the control socket's `events`).
    pub refused_events: Vec<String>,
    /// The control socket, once started (VMInit); dropped (socket removed) at VMDeath.
    server: Mutex<Option<hpm_control::Server>>,
    /// On HotSpot: the process's CPU time by kind of thread (`vm-cost.txt`).
    pub(crate) vm_cost: Option<Arc<vmcost::VmCost>>,
}

static AGENT: OnceLock<Arc<AgentState>> = OnceLock::new();

/// The loaded agent, if `Agent_OnLoad` (or `Agent_OnLoad_rvm`) succeeded.
pub fn agent() -> Option<&'static Arc<AgentState>> {
    AGENT.get()
}

pub(crate) fn set_agent(state: Arc<AgentState>) {
    let _ = AGENT.set(state);
}

impl AgentState {
    /// Builds the recorder for `options` (metrics: `cpu-time`, `wall-time`, the `event=` counters
    /// this machine can count, then the allocation metrics with `collect=alloc`).
    pub fn new(options: Options, vm: Vm) -> AgentState {
        let mut metrics = Metrics::new().with(ThreadCpuClock).with(WallClock);
        let mut refused_events = Vec::new();
        let mut events_read = None;
        // The same counters for every thread of the process by its id (vm-cost.txt).
        let mut vm_counters = None;
        if !options.events.is_empty() {
            // Opened once here to find what this machine counts; each refused event gets one line.
            let probe = hpm_collectors::counters::probe(&options.events, CounterOptions::default());
            for r in &probe.refusals {
                log::warn(&r.to_string());
                refused_events.push(r.to_string());
            }
            if !probe.spec.events().is_empty() {
                events_read = Some(match probe.syscall_because {
                    None => "rdpmc (no system call)".to_string(),
                    Some(why) => format!("read() of their group (a system call: {why})"),
                });
                vm_counters = Some(CounterSetSpec::new(probe.spec.events().to_vec(), probe.spec.options()));
                metrics.push(Box::new(probe.spec));
            }
        }
        // Bytecode probes count calls; time and counters are read at every change of context or
        // sampled into the contexts.
        let probes = options.calls && options.calls_via == hotspot_backend::CallsVia::Probes && matches!(vm, Vm::HotSpot { .. });
        let probe_metrics = probes.then(|| ProbeMetrics::choose(options.metric_mode, &metrics, events_read));
        let cfg = RecorderConfig {
            calls: options.calls,
            gc: options.gc,
            locks: options.locks,
            waits: options.waits,
            alloc: options.alloc,
            code: options.code,
            filter: ClassFilter { include: options.include.clone(), exclude: options.exclude.clone() },
            metrics_from_sampler: probe_metrics.as_ref().map(|p| p.mode),
            // Stack samples carry every metric the threads' sampler reads (not allocation).
            stack_samples: (options.sample != SampleMode::Off && matches!(vm, Vm::HotSpot { .. })).then(|| metrics.metrics()),
            alloc_samples: options.sample_alloc.filter(|_| matches!(vm, Vm::HotSpot { .. })),
        };
        let out = options.out_dir();
        let metric_set = Arc::new(metrics);
        let recorder = Arc::new(Recorder::new(cfg, Box::new(metric_set.clone())));
        // This calibration measures the JVMTI path's probe (a native call per event). The bytecode
        // probes are calibrated by their runtime at the first dump, once their code is compiled
        // (hotspot-backend's `ProbeRuntime::calibrate_once`).
        let jvmti_calls = options.calls_via == hotspot_backend::CallsVia::Jvmti || matches!(vm, Vm::Rvm);
        if options.compensate && options.calls && jvmti_calls {
            // Overhead compensation: the probe cost, measured once here (~10k dummy calls).
            let c = recorder.calibrate(10, 1000);
            log::debug(&format!("probe cost per call: callee {:?}, caller {:?} ({:?})", c.callee, c.caller, c.metrics));
        }
        // Decided once: `auto` asks whether the JVM's parent is `perf record`.
        let perf_map = matches!(vm, Vm::HotSpot { .. }) && options.code && options.perf_map.wanted();
        let vm_cost = matches!(vm, Vm::HotSpot { .. }).then(|| Arc::new(vmcost::VmCost::new(recorder.clone(), vm_counters)));
        AgentState {
            options,
            out,
            recorder,
            metric_set,
            probe_metrics,
            perf_map,
            vm,
            dumping: Mutex::new(()),
            refused_events,
            server: Mutex::new(None),
            vm_cost,
        }
    }

    /// The recorder's metric set (without the allocation metrics).
    pub fn metric_set(&self) -> &Arc<Metrics> {
        &self.metric_set
    }

    fn set_control(&self, control: &Control) {
        if let Vm::HotSpot { control: c, .. } = &self.vm {
            let _ = c.set(control.clone());
        }
    }

    pub fn recorder(&self) -> &Arc<Recorder> {
        &self.recorder
    }

    /// The VM's `JavaVM*` (null before Agent_OnLoad). A thread of the agent's own (the control socket)
    /// must attach itself with it (`AttachCurrentThreadAsDaemon`) before [`AgentState::pause`] or
    /// [`AgentState::resume`]: HotSpot refuses JVMTI calls from unattached threads.
    pub fn java_vm(&self) -> *mut JavaVM {
        self.vm.java_vm()
    }

    /// Stops recording method events: they are turned off in the VM, which goes back to compiled
    /// code. Returns false if already paused. When the VM refuses, nothing changes.
    pub fn pause(&self) -> Result<bool, String> {
        if self.recorder.is_paused() {
            return Ok(false);
        }
        // Stack samples up to now are kept: drained while the recorder still records.
        if let Some(c) = self.vm.control() {
            c.stop_sampling();
        }
        if !self.recorder.pause() {
            return Ok(false);
        }
        if self.options.calls {
            if let Err(e) = self.vm.set_method_events(false) {
                self.recorder.resume();
                if let Some(c) = self.vm.control() {
                    c.start_sampling();
                }
                return Err(format!("{e}; still collecting"));
            }
        }
        Ok(true)
    }

    /// Resumes recording; each thread re-synchronises its context with its real stack at its next
    /// event. Returns false if not paused. When the VM refuses, nothing changes.
    pub fn resume(&self) -> Result<bool, String> {
        if !self.recorder.resume() {
            return Ok(false);
        }
        if self.options.calls {
            if let Err(e) = self.vm.set_method_events(true) {
                self.recorder.pause();
                return Err(format!("{e}; still paused"));
            }
        }
        if let Some(c) = self.vm.control() {
            c.start_sampling();
        }
        Ok(true)
    }

    /// Drops everything recorded so far.
    pub fn reset(&self) {
        self.recorder.reset();
        if let Some(c) = self.vm.control() {
            c.reset_calls();
        }
    }

    /// Copies call trees that the VM keeps (bytecode probes) into the recorder; on HotSpot the
    /// calling thread must be attached to the VM.
    pub fn sync_calls(&self) {
        if let Some(c) = self.vm.control() {
            c.sync_calls();
        }
    }

    /// The VM's live threads (name, kind); on HotSpot the calling thread must be attached to the VM.
    pub fn vm_threads(&self) -> Result<Vec<(String, String)>, String> {
        self.vm.threads()
    }

    pub fn status(&self) -> Status {
        self.recorder.status()
    }

    /// Writes all reports into `dir` (default: the `out=` directory) now. Safe while threads run.
    /// Returns the files written.
    pub fn dump(&self, dir: Option<&Path>) -> io::Result<Vec<PathBuf>> {
        let _g = self.dumping.lock().unwrap_or_else(|e| e.into_inner());
        let dir = dir.unwrap_or(&self.out);
        // The trees first: the dump is of this moment, not of the end of the calibration (which
        // takes 10-200 ms the first time, while the threads run on).
        self.sync_calls();
        if let Some(c) = self.vm.control() {
            c.calibrate_calls();
            c.sync_code_map();
        }
        let snap = self.recorder.snapshot();
        let mut files = write_snapshot(&snap, dir)?;
        files.push(control::write_marks(dir)?);
        if let Some(v) = &self.vm_cost {
            let p = dir.join("vm-cost.txt");
            hpm_reports::write_atomic(&p, v.report().as_bytes())?;
            files.push(p);
        }
        // The dump owns its directory: what an earlier run wrote there and this dump did not goes.
        run_dir::remove_stale_reports(dir, &files);
        if self.perf_map {
            let path = PathBuf::from(format!("/tmp/perf-{}.map", std::process::id()));
            match hpm_reports::write_atomic(&path, hpm_reports::vm::perf_map(&snap.code).as_bytes()) {
                Ok(()) => files.push(path),
                Err(e) => log::warn(&format!("cannot write perf map: {e}")),
            }
        }
        Ok(files)
    }
}

/// Per-thread views (`threads/NNN-name/`) are written when a run has at most this many threads.
pub const MAX_PER_THREAD_VIEWS: usize = 512;

/// Writes the reports of a snapshot into `dir`: the arcflow reports of the call trees (all threads,
/// and per thread under `threads/`), `threads.txt`, `gc.txt`, `locks.txt`, `waits.txt`,
/// `alloc.txt`, `code.txt`, and the lock and wait trees under `locks/` and `waits/`.
pub fn write_snapshot(snap: &Snapshot, dir: &Path) -> io::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir).map_err(|e| io::Error::new(e.kind(), format!("cannot create {}: {e}", dir.display())))?;
    // Per-thread views cost three synced files per thread: beyond MAX_PER_THREAD_VIEWS threads (a
    // program that churns thousands of short threads) only the all-threads reports are written.
    let per_thread = snap.calls.threads.len() <= MAX_PER_THREAD_VIEWS;
    if !per_thread {
        log::info(&format!("{} threads: per-thread views skipped (limit {MAX_PER_THREAD_VIEWS})", snap.calls.threads.len()));
    }
    let opts = ReportOptions { per_thread, ..ReportOptions::default() };
    // With overhead compensation the reports show compensated values; arcflow-raw.json keeps the raw.
    let compensated = snap.compensation.as_ref().map(|_| snap.compensated_calls());
    let mut files = hpm_reports::write_reports(compensated.as_ref().unwrap_or(&snap.calls), dir, &opts)?;
    if compensated.is_some() {
        let p = dir.join("arcflow-raw.json");
        hpm_reports::write_atomic(&p, &hpm_reports::json::to_vec(&snap.calls))?;
        files.push(p);
    }
    let sub = ReportOptions::default();
    if let Some(samples) = &snap.samples {
        // Sampled trees: counts are samples (the reports' count label says so).
        files.extend(hpm_reports::write_reports(samples, &dir.join("sampled"), &ReportOptions { per_thread, ..ReportOptions::default() })?);
        let p = dir.join("sampled/forms.txt");
        hpm_reports::write_atomic(&p, hpm_reports::vm::forms::forms(&snap.sample_forms, samples.bindings.metric_index("cpu-time")).as_bytes())?;
        files.push(p);
        let p = dir.join("sampled/jit.txt");
        hpm_reports::write_atomic(&p, hpm_reports::vm::jit::jit(&snap.compiles).as_bytes())?;
        files.push(p);
    }
    if let Some(alloc) = &snap.alloc_samples {
        files.extend(hpm_reports::write_reports(alloc, &dir.join("sampled-alloc"), &ReportOptions { per_thread, ..ReportOptions::default() })?);
    }
    files.extend(hpm_reports::write_reports(&snap.locks, &dir.join("locks"), &sub)?);
    files.extend(hpm_reports::write_reports(&snap.waits, &dir.join("waits"), &sub)?);
    let run = run_dir::RunIdentity::current();
    let now = std::time::SystemTime::now();
    for (name, mut text) in hpm_reports::vm::all_reports(snap) {
        // Which run these reports belong to.
        if name == "threads.txt" {
            text = format!("{}\n{text}", run.line(now));
        } else if name == "threads.json" {
            if let Ok(serde_json::Value::Object(mut obj)) = serde_json::from_str::<serde_json::Value>(&text) {
                obj.insert("run".into(), run.json(now));
                text = serde_json::to_string_pretty(&obj).unwrap_or(text) + "\n";
            }
        }
        let p = dir.join(name);
        hpm_reports::write_atomic(&p, text.as_bytes())?;
        files.push(p);
    }
    Ok(files)
}

struct AgentHooks(Arc<AgentState>);

impl Hooks for AgentHooks {
    fn vm_init(&self, control: &Control) {
        self.0.set_control(control);
        if let Some(v) = &self.0.vm_cost {
            v.start();
        }
        self.0.start_control_socket();
    }

    fn thread_started(&self) {
        if let Some(v) = &self.0.vm_cost {
            v.thread_started();
        }
    }

    fn thread_ended(&self, info: &hpm_collectors::recorder::ThreadInfo) {
        if let Some(v) = &self.0.vm_cost {
            v.thread_ended(info);
        }
    }

    fn data_dump_request(&self, control: &Control) {
        self.0.set_control(control);
        match self.0.dump(None) {
            Ok(_) => log::line(&format!("hpmagent: reports written to {} (dump on request)", self.0.out.display())),
            Err(e) => log::line(&format!("hpmagent: error: cannot write reports to {}: {e}", self.0.out.display())),
        }
    }

    fn vm_death(&self, control: &Control) {
        self.0.set_control(control);
        if let Some(v) = &self.0.vm_cost {
            v.stop();
        }
        self.0.stop_control_socket();
        self.0.final_dump();
    }
}

impl AgentState {
    /// Starts the control socket (at VM init); a failure is one warning line.
    pub(crate) fn start_control_socket(self: &Arc<Self>) {
        log::info(&format!("recording; reports will go to {}", self.out.display()));
        match control::start(self) {
            Ok(server) => {
                if let Some(srv) = &server {
                    log::info(&format!("control socket {}", srv.path().display()));
                }
                *self.server.lock().unwrap_or_else(|e| e.into_inner()) = server;
            }
            // The program runs on without a socket.
            Err(e) => log::warn(&format!("{e}; running without a control socket (option socket=PATH or socket=off)")),
        }
    }

    /// Stops taking commands (and removes the socket file), before the final dump.
    pub(crate) fn stop_control_socket(&self) {
        if let Some(server) = self.server.lock().unwrap_or_else(|e| e.into_inner()).take() {
            server.shutdown();
            control::remove_default_socket_dir_if_empty(&self.options.socket);
        }
    }

    /// The dump at VM death, with its one line on stderr.
    pub(crate) fn final_dump(&self) {
        if let Some(line) = hotspot_backend::stack_sampling_summary() {
            log::info(&line);
        }
        match self.dump(None) {
            Ok(_) => log::line(&format!("hpmagent: reports written to {}", self.out.display())),
            Err(e) => log::line(&format!("hpmagent: error: cannot write reports to {}: {e}", self.out.display())),
        }
    }
}

/// Parses the options, sets up the backend. The error is the one line to print.
///
/// # Safety
/// `vm` is the JavaVM passed to Agent_OnLoad.
unsafe fn on_load(vm: *mut JavaVM, options: *const c_char) -> Result<(), String> {
    // SAFETY: forwarded (caller's contract).
    unsafe { load(vm, options, false) }
}

/// Loads the agent at start-up (`late` false: recording starts at VMInit) or into a running VM
/// (`late` true, Agent_OnAttach: recording starts at once with what the VM still offers).
///
/// # Safety
/// `vm` is the JavaVM passed to Agent_OnLoad or Agent_OnAttach; `options` a C string or null.
unsafe fn load(vm: *mut JavaVM, options: *const c_char, late: bool) -> Result<(), String> {
    let text = if options.is_null() {
        None
    } else {
        // SAFETY: the JVM passes a NUL-terminated option string (or null).
        Some(unsafe { CStr::from_ptr(options) }.to_string_lossy().into_owned())
    };
    let opts = options::parse(text.as_deref())?;
    if opts.help {
        log::line(options::help_text().trim_end());
        return Err("help printed; the JVM does not start (remove 'help' to run)".into());
    }
    run_dir::check_writable(&opts.out_dir())?;
    log::set_level(opts.log);
    quiet_panics();
    if opts.quantum != options::QuantumMode::Off {
        log::warn("quantum traces need the research VM (rvm); ignored");
    }
    let state = Arc::new(AgentState::new(opts, Vm::hotspot()));
    let bcfg = BackendConfig {
        start_paused: state.options.start_paused,
        // One heap sampler: allocation samples' interval, or collect=alloc's (options refuse both).
        alloc_interval: state.options.sample_alloc.map_or(state.options.alloc_interval, |b| b as i32),
        calls_via: state.options.calls_via,
        compensate: state.options.compensate,
    };
    // Set before the backend goes live: after a late attach the control socket starts at once.
    if let Vm::HotSpot { java_vm, .. } = &state.vm {
        let _ = java_vm.set(vm as usize);
    }
    start_samplers(&state);
    let hooks = Box::new(AgentHooks(state.clone()));
    // SAFETY: vm is the JavaVM of Agent_OnLoad/Agent_OnAttach (our caller's contract).
    let control = if late {
        unsafe { hotspot_backend::init_live(vm, state.recorder.clone(), bcfg, hooks) }?
    } else {
        unsafe { hotspot_backend::init(vm, state.recorder.clone(), bcfg, hooks) }?
    };
    state.set_control(&control);
    let _ = AGENT.set(state);
    Ok(())
}

/// Sets up the process's one sampler (before the backend): with bytecode probes it samples time
/// and counters into their exact contexts, with `sample=cpu` it also stores stack samples; the
/// stack interval is a multiple of the probes' 1 ms period, or the sampler's own period without
/// probes. What cannot be set up is one warning, and the rest carries on.
fn start_samplers(state: &AgentState) {
    let opts = &state.options;
    let walker = if opts.sample != SampleMode::Off {
        match hotspot_backend::AsgctWalker::find() {
            Ok(w) => Some(Arc::new(w)),
            Err(e) => {
                log::warn(&format!("sample=: {e}; no sampled trees"));
                None
            }
        }
    } else {
        None
    };
    let wall = opts.sample == SampleMode::Wall;
    let mut config = SamplerConfig::default();
    if state.probe_metrics.is_none() {
        // Stacks only: a CPU-time signal per stack sample (none for wall-clock samples), and no
        // wall sampler (it credits probe contexts).
        config.cpu_period_ns = opts.sample_interval_ns;
        config.wall_period_ns = 0;
        if wall {
            config.source = SignalSource::None;
        }
    }
    let stacks = walker.map(|w| StackConfig {
        walker: w,
        max_depth: STACK_DEPTH,
        ring_words: ring_words(opts.sample_interval_ns),
        every: if wall { 1 } else { (opts.sample_interval_ns / config.cpu_period_ns).clamp(1, u32::MAX as u64) as u32 },
        trigger: if wall { StackTrigger::WallClock { period_ns: opts.sample_interval_ns } } else { StackTrigger::CpuTime },
    });
    if state.probe_metrics.is_none() && stacks.is_none() {
        return;
    }
    if let Some(p) = &state.probe_metrics {
        // Bytecode probes count calls exactly; time and counters are read at every change of
        // context or sampled into their contexts.
        log::info(&p.why);
    }
    let with_stacks = stacks.is_some();
    match ContextSampler::with_stacks(state.metric_set.clone(), config, stacks) {
        Ok(s) => {
            log::info(&s.describe());
            if with_stacks {
                log::info(&format!(
                    "stack samples every {} µs of {}, up to {STACK_DEPTH} frames, into sampled/",
                    opts.sample_interval_ns / 1000,
                    if wall { "wall time, of every thread" } else { "each thread's CPU time" }
                ));
                hotspot_backend::use_stack_sampler(s.clone(), state.probe_metrics.is_some());
            }
            if let Some(p) = &state.probe_metrics {
                hotspot_backend::use_sampler(s, p.mode == MetricMode::Exact);
            }
        }
        Err(e) if state.probe_metrics.is_some() => {
            log::warn(&format!("time and counters are not sampled (call trees have calls only{}): {e}", if with_stacks { ", and no stack samples" } else { "" }))
        }
        Err(e) => log::warn(&format!("sample=cpu: stacks are not sampled: {e}")),
    }
}

/// Frames kept per stack sample (the outermost frames of deeper stacks are cut).
const STACK_DEPTH: usize = 1024;
/// Each sampled thread's ring of raw stack samples, in 8-byte words: room for twice the samples
/// a thread can take between two drains (100 ms) at 128 words each (about 60 frames), at least
/// 32 KiB (10 ms: 32 KiB; 1 ms: 200 KiB). Deeper stacks fill it sooner; a sample that finds it
/// full goes to the thread's next.
fn ring_words(interval_ns: u64) -> usize {
    let per_drain = (100_000_000 / interval_ns.max(1)).max(1) as usize;
    (2 * per_drain * 128).clamp(4096, 1 << 20)
}

/// A panic inside a callback is caught by the backend's guard and reported once; the default hook
/// would print every one of them (with a backtrace hint) into the program's stderr.
fn quiet_panics() {
    std::panic::set_hook(Box::new(|info| {
        if log::enabled(log::Level::Debug) {
            log::line(&format!("hpmagent: debug: panic: {info}"));
        }
    }));
}

/// Called by the JVM for `-agentpath:libhpmagent.so=OPTIONS`.
///
/// # Safety
/// Called by the JVM with its JavaVM and the option string.
#[no_mangle]
pub unsafe extern "C" fn Agent_OnLoad(vm: *mut JavaVM, options: *mut c_char, _reserved: *mut c_void) -> jint {
    // SAFETY: forwarded from the JVM's call.
    match catch_unwind(AssertUnwindSafe(|| unsafe { on_load(vm, options) })) {
        Ok(Ok(())) => JNI_OK as jint,
        Ok(Err(msg)) => {
            log::line(&format!("hpmagent: error: {msg}"));
            JNI_ERR as jint
        }
        Err(_) => {
            log::line("hpmagent: error: internal error while loading; the JVM does not start");
            JNI_ERR as jint
        }
    }
}

/// Called for dynamic attach (`jcmd <pid> JVMTI.agent_load`). Loads the agent into a running JVM;
/// what attach can and cannot record is in `docs/agent.md`.
///
/// # Safety
/// Called by the JVM.
#[no_mangle]
pub unsafe extern "C" fn Agent_OnAttach(vm: *mut JavaVM, options: *mut c_char, _reserved: *mut c_void) -> jint {
    // SAFETY: forwarded from the JVM's call.
    match catch_unwind(AssertUnwindSafe(|| unsafe { load(vm, options, true) })) {
        Ok(Ok(())) => {
            log::line(&format!("hpmagent: attached; control with `hpm ctl {} status`", std::process::id()));
            JNI_OK as jint
        }
        // The JVM keeps running: a failed attach only means no agent.
        Ok(Err(msg)) => {
            log::line(&format!("hpmagent: error: {msg}"));
            JNI_ERR as jint
        }
        Err(_) => {
            log::line("hpmagent: error: internal error while attaching; the JVM continues without the agent");
            JNI_ERR as jint
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Control from Java code: `hpmagent.Agent`'s native methods.
//
// A program (or a test) may declare
//
//     package hpmagent;
//     public final class Agent {
//         public static native boolean pause();
//         public static native boolean resume();
//         public static native void reset();
//         public static native boolean dump();
//         public static native String status();
//     }
//
// HotSpot looks native methods up in the JVMTI agent libraries too, so these symbols bind to it
// when the agent is loaded (and calls throw UnsatisfiedLinkError when it is not).

use hotspot_backend::sys::jvmti::{jboolean, jclass, jstring, JNIEnv};

fn java_call<T>(what: &str, default: T, f: impl FnOnce(&AgentState) -> T) -> T {
    match catch_unwind(AssertUnwindSafe(|| agent().map(|a| f(a)))) {
        Ok(Some(v)) => v,
        Ok(None) => default,
        Err(_) => {
            log::error(&format!("internal error in hpmagent.Agent.{what}"));
            default
        }
    }
}

fn report_err(what: &str, r: Result<bool, String>) -> jboolean {
    match r {
        Ok(b) => b as jboolean,
        Err(e) => {
            log::error(&format!("{what}: {e}"));
            0
        }
    }
}

/// `hpmagent.Agent.pause()`: true if recording was running.
///
/// # Safety
/// Called by the JVM as a JNI native method.
#[no_mangle]
pub unsafe extern "C" fn Java_hpmagent_Agent_pause(_env: *mut JNIEnv, _cls: jclass) -> jboolean {
    java_call("pause", 0, |a| report_err("pause", a.pause()))
}

/// `hpmagent.Agent.resume()`: true if recording was paused.
///
/// # Safety
/// Called by the JVM as a JNI native method.
#[no_mangle]
pub unsafe extern "C" fn Java_hpmagent_Agent_resume(_env: *mut JNIEnv, _cls: jclass) -> jboolean {
    java_call("resume", 0, |a| report_err("resume", a.resume()))
}

/// `hpmagent.Agent.reset()`.
///
/// # Safety
/// Called by the JVM as a JNI native method.
#[no_mangle]
pub unsafe extern "C" fn Java_hpmagent_Agent_reset(_env: *mut JNIEnv, _cls: jclass) {
    java_call("reset", (), |a| a.reset())
}

/// `hpmagent.Agent.dump()`: writes the reports into `out=` now; false (and one error line) on failure.
///
/// # Safety
/// Called by the JVM as a JNI native method.
#[no_mangle]
pub unsafe extern "C" fn Java_hpmagent_Agent_dump(_env: *mut JNIEnv, _cls: jclass) -> jboolean {
    java_call("dump", 0, |a| match a.dump(None) {
        Ok(_) => {
            log::line(&format!("hpmagent: reports written to {} (dump on request)", a.out.display()));
            1
        }
        Err(e) => {
            log::line(&format!("hpmagent: error: cannot write reports to {}: {e}", a.out.display()));
            0
        }
    })
}

/// `hpmagent.Agent.status()`: one line, `key=value` pairs.
///
/// # Safety
/// Called by the JVM as a JNI native method with a valid JNIEnv.
#[no_mangle]
pub unsafe extern "C" fn Java_hpmagent_Agent_status(env: *mut JNIEnv, _cls: jclass) -> jstring {
    let text = java_call("status", String::new(), |a| {
        let s = a.status();
        format!(
            "paused={} live_threads={} finished_threads={} methods_known={} method_events={} gc_count={} classes_loaded={} code_blobs={} uptime_ms={}",
            s.paused, s.live_threads, s.finished_threads, s.methods_known, s.method_events, s.gc_count, s.classes_loaded, s.code_blobs, s.uptime_ns / 1_000_000
        )
    });
    let Ok(c) = std::ffi::CString::new(text) else { return std::ptr::null_mut() };
    // SAFETY: env is the calling thread's JNIEnv; NewStringUTF copies the NUL-terminated string.
    unsafe { ((**env).NewStringUTF.expect("JNI NewStringUTF"))(env, c.as_ptr()) }
}

/// `hpmagent.Trace.mark0(kind, run, text)`: the native behind `hpmagent.Trace.appStart`,
/// `appComplete`, `runStart`, `runComplete` and `note`. HotSpot writes no quantum traces, so the
/// marker joins the control socket's markers (`marks.txt`, e.g. `run-start 1: warmup`); on the
/// research VM the same Java call reaches the agent's `marker` callback instead.
///
/// # Safety
/// Called by the JVM as a JNI native method with a valid JNIEnv; `text` is a `java.lang.String`
/// reference or null.
#[no_mangle]
pub unsafe extern "C" fn Java_hpmagent_Trace_mark0(env: *mut JNIEnv, _cls: jclass, kind: jint, run: jint, text: jstring) {
    let text = if text.is_null() || env.is_null() {
        String::new()
    } else {
        // SAFETY: env is the calling thread's JNIEnv and text a live local reference to a String;
        // the UTF chars are released below on the same thread, before the reference goes away.
        unsafe {
            match ((**env).GetStringUTFChars, (**env).ReleaseStringUTFChars) {
                (Some(get), Some(release)) => {
                    let chars = get(env, text, std::ptr::null_mut());
                    if chars.is_null() {
                        String::new()
                    } else {
                        let s = CStr::from_ptr(chars).to_string_lossy().into_owned();
                        release(env, text, chars);
                        s
                    }
                }
                _ => String::new(),
            }
        }
    };
    java_call("Trace.mark0", (), |a| {
        control::add_mark(a, control::trace_mark_text(kind as u32, run as u32, &text));
    })
}

#[cfg(test)]
mod tests {
    use super::ring_words;

    #[test]
    fn stack_rings_hold_two_drains_of_samples() {
        assert_eq!(ring_words(10_000_000), 4096, "10 ms: the 32 KiB floor");
        assert_eq!(ring_words(1_000_000), 2 * 100 * 128, "1 ms: 100 samples per drain, twice");
        assert_eq!(ring_words(100_000), 2 * 1000 * 128);
    }
}
