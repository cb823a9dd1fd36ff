//! The HotSpot load path: options to a running agent (`Agent_OnLoad`, `Agent_OnAttach`), the
//! process's one sampler, and the hooks the HotSpot backend calls at VM init, thread start and
//! end, data dump requests and VM death.

use std::ffi::{c_char, CStr};
use std::sync::Arc;

use hotspot_backend::sys::jvmti::JavaVM;
use hotspot_backend::{BackendConfig, Control, HotSpot, Hooks};
use hpm_agent_core::options::{self, SampleMode};
use hpm_agent_core::{quiet_panics, run_dir, set_agent, AgentState};
use hpm_model::arcflow::MetricMode;
use hpm_collectors::sampling::{ContextSampler, SamplerConfig, SignalSource, StackConfig, StackTrigger};
use hpm_support::log;

struct AgentHooks(Arc<AgentState>);

impl Hooks for AgentHooks {
    fn vm_init(&self, _control: &Control) {
        crate::quanta::vm_init();
        if let Some(v) = &self.0.vm_cost {
            v.start();
        }
        self.0.start_control_socket();
    }

    fn thread_started(&self, info: &hpm_collectors::recorder::ThreadInfo) {
        if let Some(v) = &self.0.vm_cost {
            v.thread_started();
        }
        crate::quanta::thread_started(info);
    }

    fn thread_ended(&self, info: &hpm_collectors::recorder::ThreadInfo) {
        if let Some(v) = &self.0.vm_cost {
            v.thread_ended(info);
        }
        crate::quanta::thread_ended(info);
    }

    fn vthread_started(&self, id: u32, info: &hpm_collectors::recorder::ThreadInfo) {
        let set: Arc<dyn hpm_model::metrics::MetricSet> = self.0.metric_set().clone();
        crate::quanta::vthread_started(id, &info.name, &set);
    }

    fn vthread_mounted(&self, id: u32) {
        crate::quanta::vthread_mounted(id);
    }

    fn vthread_unmounted(&self, id: u32) {
        crate::quanta::vthread_unmounted(id);
    }

    fn data_dump_request(&self, _control: &Control) {
        match self.0.dump(None) {
            Ok(_) => log::line(&format!("hpmagent: reports written to {} (dump on request)", self.0.out.display())),
            Err(e) => log::line(&format!("hpmagent: error: cannot write reports to {}: {e}", self.0.out.display())),
        }
    }

    fn vm_death(&self, _control: &Control) {
        if let Some(v) = &self.0.vm_cost {
            v.stop();
        }
        self.0.stop_control_socket();
        let page_later = self.0.final_dump();
        let origin = self.0.recorder().origin_ns();
        crate::quanta::vm_death(page_later.as_ref().and_then(|run| crate::quanta::TopMethods::of_run(&run.snapshot, origin)));
        if let Some(run) = page_later {
            self.0.write_explorer_with_traces(&run);
        }
    }
}

/// Parses the options, sets up the backend. The error is the one line to print.
///
/// # Safety
/// `vm` is the JavaVM passed to Agent_OnLoad.
pub unsafe fn on_load(vm: *mut JavaVM, options: *const c_char) -> Result<(), String> {
    // SAFETY: forwarded (caller's contract).
    unsafe { load(vm, options, false) }
}

/// Loads the agent at start-up (`late` false: recording starts at VMInit) or into a running VM
/// (`late` true, Agent_OnAttach: recording starts at once with what the VM still offers).
///
/// # Safety
/// `vm` is the JavaVM passed to Agent_OnLoad or Agent_OnAttach; `options` a C string or null.
pub unsafe fn load(vm: *mut JavaVM, options: *const c_char, late: bool) -> Result<(), String> {
    let text = if options.is_null() {
        None
    } else {
        // SAFETY: the JVM passes a NUL-terminated option string (or null).
        Some(options::text_of(unsafe { CStr::from_ptr(options) }.to_bytes())?)
    };
    let opts = options::parse(text.as_deref())?;
    if opts.help {
        log::line(options::help_text().trim_end());
        return Err("help printed; the JVM does not start (remove 'help' to run)".into());
    }
    run_dir::prepare(&opts.out_dir())?;
    log::set_level(opts.log);
    quiet_panics();
    crate::quanta::setup(opts.quantum, &opts.out_dir(), &opts.events, late);
    let state = Arc::new(AgentState::new(opts, Box::new(HotSpot)));
    let bcfg = BackendConfig {
        start_paused: state.options.start_paused,
        // One heap sampler: allocation samples' interval, or collect=alloc's (options refuse both).
        alloc_interval: state.options.sample_alloc.map_or(state.options.alloc_interval, |b| b as i32),
        calls_via: state.options.calls_via,
        compensate: state.options.compensate,
        thread_field: state.options.thread_field && !late,
        skip_trivial: state.options.skip_trivial,
        virtual_threads: {
            let o = &state.options;
            o.calls || o.locks || o.waits || o.alloc || o.quantum != options::QuantumMode::Off
        },
    };
    start_samplers(&state);
    let hooks = Box::new(AgentHooks(state.clone()));
    // SAFETY: vm is the JavaVM of Agent_OnLoad/Agent_OnAttach (our caller's contract).
    if late {
        unsafe { hotspot_backend::init_live(vm, state.recorder().clone(), bcfg, hooks) }?;
    } else {
        unsafe { hotspot_backend::init(vm, state.recorder().clone(), bcfg, hooks) }?;
    }
    set_agent(state);
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
    } else if opts.calls_via == options::CallsVia::Requested && opts.sample == SampleMode::Cpu {
        // Probes only where asked, for a while: most of the time no context has probes, so a
        // signal per stack sample also credits them (ten times fewer signals than the 1 ms period
        // of calls=probes; a 5 s window of a busy thread still gets 500 samples).
        config.cpu_period_ns = opts.sample_interval_ns;
    }
    let stacks = walker.map(|w| StackConfig {
        walker: w,
        max_depth: STACK_DEPTH,
        ring_words: ring_words(opts.sample_interval_ns),
        every: if wall { 1 } else { (opts.sample_interval_ns / config.cpu_period_ns).clamp(1, u32::MAX as u64) as u32 },
        trigger: if wall { StackTrigger::WallClock { period_ns: opts.sample_interval_ns } } else { StackTrigger::CpuTime },
        kernel: opts.sample_kernel,
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
    match ContextSampler::with_stacks(state.metric_set().clone(), config, stacks) {
        Ok(s) => {
            log::info(&s.describe());
            if let Some(why) = s.kernel_refusal() {
                log::warn(&format!("sample-kernel=on: samples will have no kernel frames: {why}"));
            }
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
