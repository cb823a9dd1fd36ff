//! The agent's core, shared by both VMs' entry points (the `hpmagent` crate, which builds
//! libhpmagent.so, and the research VM's adapter, `hpm-rvm-agent`): options, the [`AgentState`]
//! with the operations the control socket calls (pause, resume, reset, dump, status), the control
//! socket and markers, the run directory, the VM cost ticks, and the saved run every report is
//! written from (`hpm_reports::write_all`).
//!
//! On HotSpot, [`load`] (called by `Agent_OnLoad` and `Agent_OnAttach`) parses the options, creates
//! the [`Recorder`] and hands it to the HotSpot backend. At VM death (normal exit, `System.exit` or
//! SIGTERM) the agent writes its reports into the `out=` directory. The part that differs between
//! the two VMs is behind the [`Backend`] trait, which each VM's side implements.

#![forbid(unsafe_code)]

pub mod backend;
pub mod control;
pub mod options;
pub mod run_dir;
pub mod vmcost;


use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use hpm_support::log;
use hpm_model::arcflow::MetricMode;
use hpm_collectors::counters::{CounterOptions, CounterSetSpec, Metrics, ThreadCpuClock, WallClock};
use hpm_model::metrics::{MetricSet, ThreadMetrics};
use hpm_model::snapshot::{ClassFilter, RecorderConfig};
use hpm_collectors::recorder::{Recorder, Status};

use hpm_model::saved::SavedRun;
use options::{MetricModeOption, SampleMode};

pub use backend::{AttachedThread, Backend, Features, ProbeChange};
pub use options::Options;

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
    /// `processor`: on the research VM, the reader its threads read through.
    fn choose(option: MetricModeOption, metrics: &Metrics, events_read: Option<String>, processor: Option<&mut ProcessorReader>) -> ProbeMetrics {
        let names = metrics.metrics().iter().map(|m| m.name.clone()).collect::<Vec<_>>().join(", ");
        const CPU_CLOCK: &str = "cpu-time by clock_gettime of the thread's CPU clock (a system call)";
        let (cost, cpu_time_read) = match processor {
            Some(p) => (
                Some(hpm_collectors::sampling::reader_cost_ns(p.reader.as_mut(), metrics.metrics().len())),
                if p.switch_records { "cpu-time from the processor's context-switch records (no system call)" } else { CPU_CLOCK },
            ),
            None => (hpm_collectors::sampling::read_cost_ns(metrics), CPU_CLOCK),
        };
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
        let mut paths = format!("{cpu_time_read}, wall-time by CLOCK_MONOTONIC (vDSO)");
        if let Some(e) = events_read {
            paths = format!("{paths}, events by {e}");
        }
        ProbeMetrics { mode, why: format!("time and counters {how}: one read of [{names}] {cost_text} here ({because}); read: {paths}") }
    }
}

/// On the research VM, the reader its threads' metrics are read through (their processors'), opened
/// once at start-up on the loading thread to measure a read (`metric-mode=auto`) and to calibrate
/// the overhead compensation with.
struct ProcessorReader {
    reader: Box<dyn ThreadMetrics>,
    /// `cpu-time` comes from the thread's context-switch records, not its CPU clock.
    switch_records: bool,
}

/// The agent: options, recorder and the VM-specific part.
pub struct AgentState {
    pub options: Options,
    pub out: PathBuf,
    recorder: Arc<Recorder>,
    /// The recorder's metric set (`cpu-time`, `wall-time`, `event=` counters), shared so that the
    /// research VM's processors can open it on their own threads.
    metric_set: Arc<Metrics>,
    /// With bytecode probes on HotSpot, and always on the research VM: how call-tree contexts
    /// (and, on rvm, green threads) get the metrics, and why.
    pub probe_metrics: Option<ProbeMetrics>,
    /// Write `/tmp/perf-<pid>.map` with every dump (`perf-map=`, HotSpot with `collect=code`).
    perf_map: bool,
    /// The VM's side of the agent.
    pub vm: Box<dyn Backend>,
    /// What the VM gives the agent with these options.
    features: Features,
    /// Serialises dumps (VMDeath and the control socket may ask at the same time).
    dumping: Mutex<()>,
    /// One line per requested `event=` that could not be opened (for the control socket's `events`).
    pub refused_events: Vec<String>,
    /// The control socket, once started (VMInit); dropped (socket removed) at VMDeath.
    server: Mutex<Option<hpm_control::Server>>,
    /// On HotSpot: the process's CPU time by kind of thread (`vm-cost.txt`).
    pub vm_cost: Option<Arc<vmcost::VmCost>>,
}

static AGENT: OnceLock<Arc<AgentState>> = OnceLock::new();

/// The loaded agent, if `Agent_OnLoad` (or `Agent_OnLoad_rvm`) succeeded.
pub fn agent() -> Option<&'static Arc<AgentState>> {
    AGENT.get()
}

pub fn set_agent(state: Arc<AgentState>) {
    let _ = AGENT.set(state);
}

impl AgentState {
    /// Builds the recorder for `options` (metrics: `cpu-time`, `wall-time`, the `event=` counters
    /// this machine can count, then the allocation metrics with `collect=alloc`).
    pub fn new(options: Options, vm: Box<dyn Backend>) -> AgentState {
        let features = vm.features(&options);
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
        // On the research VM the choice holds for every green thread's metrics, calls or not: in
        // sampled mode a sampler of the processors credits them, in exact mode each switch and
        // event reads them.
        let probes = options.calls && features.call_probes;
        let rvm = features.green_threads;
        let mut processor = rvm.then(|| {
            let (reader, refused) = hpm_collectors::counters::switch_clock::processor_reader(&metrics);
            ProcessorReader { reader, switch_records: refused.is_none() }
        });
        let probe_metrics = (probes || rvm).then(|| ProbeMetrics::choose(options.metric_mode, &metrics, events_read, processor.as_mut()));
        let cfg = RecorderConfig {
            calls: options.calls,
            gc: options.gc,
            locks: options.locks,
            waits: options.waits,
            alloc: options.alloc,
            code: options.code,
            filter: ClassFilter { include: options.include.clone(), exclude: options.exclude.clone() },
            // On rvm exact mode is the recorder's own reads (of the green-thread metrics).
            metrics_from_sampler: probe_metrics.as_ref().map(|p| p.mode).filter(|&m| !rvm || m == MetricMode::Sampled),
            // Stack samples carry every metric the threads' sampler reads (not allocation).
            stack_samples: (options.sample != SampleMode::Off && features.samples).then(|| metrics.metrics()),
            alloc_samples: options.sample_alloc.filter(|_| features.samples),
            sample_lines: options.sample_lines,
            sample_native: options.sample_native,
            ..RecorderConfig::default()
        };
        let out = options.out_dir();
        let metric_set = Arc::new(metrics);
        let recorder = Arc::new(Recorder::new(cfg, Box::new(metric_set.clone())));
        // This calibration measures the JVMTI path's probe (a native call per event). The bytecode
        // probes are calibrated by their runtime at the first dump, once their code is compiled
        // (hotspot-backend's `ProbeRuntime::calibrate_once`).
        if options.compensate && options.calls && !features.call_probes {
            // Overhead compensation: the probe cost, measured once here (~10k dummy calls). On
            // rvm in exact mode the threads' reads go through their processors' reader, which
            // reads `cpu-time` from switch records rather than by a system call: calibrated with
            // the metric set's own reader, a call's cost would be overstated several times.
            let exact = probe_metrics.as_ref().is_some_and(|p| p.mode == MetricMode::Exact);
            let c = match processor.take().filter(|_| exact) {
                Some(p) => {
                    let read_by = if p.switch_records {
                        "the processors' reader: cpu-time from the thread's context-switch records"
                    } else {
                        "the processors' reader: cpu-time from the thread's CPU clock"
                    };
                    recorder.calibrate_reading(p.reader, read_by, 10, 1000)
                }
                None => recorder.calibrate(10, 1000),
            };
            log::debug(&format!("probe cost per call: callee {:?}, caller {:?} ({:?})", c.callee, c.caller, c.metrics));
        }
        // Decided once: `auto` asks whether the JVM's parent is `perf record`.
        let perf_map = features.perf_map && options.code && options.perf_map.wanted();
        let vm_cost = features.vm_cost.then(|| Arc::new(vmcost::VmCost::new(recorder.clone(), vm_counters)));
        AgentState {
            options,
            out,
            recorder,
            metric_set,
            probe_metrics,
            perf_map,
            vm,
            features,
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

    pub fn recorder(&self) -> &Arc<Recorder> {
        &self.recorder
    }

    /// Stops recording method events: they are turned off in the VM, which goes back to compiled
    /// code. Returns false if already paused. When the VM refuses, nothing changes.
    pub fn pause(&self) -> Result<bool, String> {
        if self.recorder.is_paused() {
            return Ok(false);
        }
        // Stack samples up to now are kept: drained while the recorder still records.
        self.vm.stopping();
        if !self.recorder.pause() {
            return Ok(false);
        }
        if self.options.calls {
            if let Err(e) = self.vm.set_method_events(false) {
                self.recorder.resume();
                self.vm.started();
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
        self.vm.started();
        Ok(true)
    }

    /// Drops everything recorded so far.
    pub fn reset(&self) {
        self.vm.reset(&|| self.recorder.reset());
    }

    /// Copies call trees that the VM keeps (bytecode probes) into the recorder; on HotSpot the
    /// calling thread must be attached to the VM.
    pub fn sync_calls(&self) {
        self.vm.sync();
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
        self.dump_with(dir, Page::Write).map(|d| d.files)
    }

    /// Writes the saved run (`arcflow.json`) alone into `dir` (default: `out=`) now: the cheapest
    /// dump, for a tool that renders the reports outside the VM (`hpm consult PID`).
    pub fn save(&self, dir: Option<&Path>) -> io::Result<PathBuf> {
        let d = self.dump_with(dir, Page::RunOnly)?;
        Ok(d.files.into_iter().next().unwrap_or_default())
    }

    /// [`AgentState::dump`], with the explorer page written or left for later (then the saved
    /// run is returned for it).
    fn dump_with(&self, dir: Option<&Path>, page: Page) -> io::Result<Dumped> {
        let _g = self.dumping.lock().unwrap_or_else(|e| e.into_inner());
        let dir = dir.unwrap_or(&self.out);
        // The trees first: the dump is of this moment, not of the end of the calibration (which
        // takes 10-200 ms the first time, while the threads run on).
        self.sync_calls();
        self.vm.prepare_dump();
        // The snapshot and what the agent adds (which run, the VM-cost timeline, the markers) are
        // the saved run that arcflow.json holds; every report is rendered from it, as `hpm report
        // DIR` renders them from the file.
        let saved = SavedRun {
            snapshot: self.recorder.snapshot(),
            run: Some(run_dir::run_identity(std::time::SystemTime::now())),
            vm_cost: self.vm_cost.as_ref().map(|v| v.data()),
            marks: Some(control::marks()),
        };
        let mut files = match page {
            Page::Write => write_saved(&saved, dir)?,
            Page::Later => write_saved_without_page(&saved, dir)?,
            Page::RunOnly => vec![hpm_reports::saved::write_run(&saved, dir)?],
        };
        // The dump owns its directory: what an earlier run wrote there and this dump did not goes
        // (a page left for later is written after this). A saved run alone leaves the rest.
        if page != Page::RunOnly {
            run_dir::remove_stale_reports(dir, &files);
        }
        if self.perf_map {
            let path = PathBuf::from(format!("/tmp/perf-{}.map", std::process::id()));
            match hpm_reports::write_atomic(&path, hpm_reports::vm::perf_map(&saved.snapshot.code).as_bytes()) {
                Ok(()) => files.push(path),
                Err(e) => log::warn(&format!("cannot write perf map: {e}")),
            }
        }
        let compensation_note = hpm_reports::vm::compensation_note(&saved.snapshot);
        Ok(Dumped { files, run: (page == Page::Later).then_some(saved), compensation_note })
    }
}

/// What a dump wrote: its files, its saved run when the explorer page was left for later, and the
/// compensation's note when the probes' cost was most of what was measured.
struct Dumped {
    files: Vec<PathBuf>,
    run: Option<SavedRun>,
    compensation_note: Option<String>,
}

/// Whether a dump writes the explorer page with the other reports.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Page {
    Write,
    /// After the dump (the final dump on HotSpot with `quantum`, whose traces finish later).
    Later,
    /// No page and no other report: `arcflow.json` alone ([`AgentState::save`]).
    RunOnly,
}

/// Says at exit what a quantum tracer wrote into `dir` (`files`: those written in full): one
/// line naming them, or, where records were lost, one error line per loss (`errors`) and never
/// that the traces were written.
pub fn say_quantum_traces(dir: &Path, files: &[PathBuf], errors: &[String]) {
    let names: Vec<String> = files.iter().filter_map(|p| p.file_name()).map(|n| n.to_string_lossy().into_owned()).collect();
    if errors.is_empty() {
        if !names.is_empty() {
            log::line(&format!("hpmagent: quantum traces written to {}: {}", dir.display(), names.join(", ")));
        }
    } else {
        for e in errors {
            log::error(e);
        }
        let complete = if names.is_empty() { "none".to_string() } else { names.join(", ") };
        log::error(&format!("quantum traces in {} are incomplete (see above); written in full: {complete}", dir.display()));
    }
}

/// One warning, the first time a page is written without the run's quantum trace because it is
/// too large to read back in this process (`hpm_reports::explore::PAGE_TRACE_LIMIT`).
fn say_trace_left_out(dir: &Path) {
    static SAID: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    if let Some(bytes) = hpm_reports::explore::trace_left_out_of_page(dir) {
        if !SAID.swap(true, std::sync::atomic::Ordering::Relaxed) {
            log::warn(&hpm_reports::explore::trace_left_out_note(bytes, dir, dir));
        }
    }
}

/// Writes every report of a saved run into `dir` (what `hpm_reports::write_all` writes, with the
/// agent's options) and returns the files written. The explorer page comes last and on its own:
/// a page that cannot be written (it holds the quantum trace, so it is the largest file) is one
/// error line, and the other reports still count as written.
pub fn write_saved(saved: &SavedRun, dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut files = write_saved_without_page(saved, dir)?;
    files.extend(write_page(saved, dir));
    Ok(files)
}

/// Every report of [`write_saved`] but the explorer page.
fn write_saved_without_page(saved: &SavedRun, dir: &Path) -> io::Result<Vec<PathBuf>> {
    let opts = hpm_reports::saved::run_options(saved);
    if !opts.per_thread {
        let n = saved.snapshot.calls.threads.len();
        log::info(&format!("{n} threads: per-thread views skipped (limit {})", hpm_reports::saved::MAX_PER_THREAD_VIEWS));
    }
    hpm_reports::saved::write_reports_of_run(saved, dir, &opts)
}

/// The explorer page of a saved run (with the quantum trace in `dir`, if any); a failure is one
/// error line.
fn write_page(saved: &SavedRun, dir: &Path) -> Option<PathBuf> {
    match hpm_reports::explore::write_explorer(saved, dir, dir) {
        Ok(p) => {
            say_trace_left_out(dir);
            Some(p)
        }
        // The error names the page ("cannot write DIR/explore.html: …").
        Err(e) => {
            log::error(&format!("{e}; the other reports are written (`hpm explore {}` writes the page again)", dir.display()));
            None
        }
    }
}

impl AgentState {
    /// Starts the control socket (at VM init); a failure is one warning line.
    pub fn start_control_socket(self: &Arc<Self>) {
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
    pub fn stop_control_socket(&self) {
        if let Some(server) = self.server.lock().unwrap_or_else(|e| e.into_inner()).take() {
            server.shutdown();
            control::remove_default_socket_dir_if_empty(&self.options.socket);
        }
    }

    /// Whether the final dump leaves the explorer page for [`AgentState::write_explorer_with_traces`]:
    /// on HotSpot with `quantum`, whose tracers finish after the final dump, so that the page
    /// (which reads the whole trace back) is written once, with the complete traces.
    fn page_after_traces(&self) -> bool {
        self.options.quantum != options::QuantumMode::Off && self.features.traces_after_final_dump
    }

    /// The explorer page of the final dump's `run`, with the quantum traces, once they are
    /// complete (HotSpot; see [`AgentState::page_after_traces`]).
    pub fn write_explorer_with_traces(&self, run: &SavedRun) {
        write_page(run, &self.out);
    }

    /// The dump at VM death, with its one line on stderr. Returns the dump's run when its explorer
    /// page is left for [`AgentState::write_explorer_with_traces`] (HotSpot with `quantum`).
    pub fn final_dump(&self) -> Option<SavedRun> {
        if let Some(line) = self.vm.stack_sampling_summary() {
            log::info(&line);
        }
        let page = if self.page_after_traces() { Page::Later } else { Page::Write };
        match self.dump_with(None, page) {
            Ok(d) => {
                log::line(&format!("hpmagent: reports written to {}", self.out.display()));
                if let Some(note) = d.compensation_note {
                    log::line(&format!("hpmagent: {note} (compensation.txt)"));
                }
                d.run
            }
            Err(e) => {
                log::line(&format!("hpmagent: error: cannot write reports to {}: {e}", self.out.display()));
                None
            }
        }
    }
}

/// A panic inside a callback is caught by the backend's guard and reported once; the default hook
/// would print every one of them (with a backtrace hint) into the program's stderr.
pub fn quiet_panics() {
    std::panic::set_hook(Box::new(|info| {
        if log::enabled(log::Level::Debug) {
            log::line(&format!("hpmagent: debug: panic: {info}"));
        }
    }));
}
