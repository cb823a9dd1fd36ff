//! What the agent's core asks of the VM it runs in: the [`Backend`] trait, which each VM's side
//! implements (HotSpot's in `hotspot-backend` (`vm.rs`), the research VM's in `hpm-rvm-agent`),
//! and what its answers carry. The core never names a VM: where the two differ, a method of the
//! trait answers, with a default where a VM has nothing to add.

use std::any::Any;

use crate::options::Options;

/// The calling thread attached to the VM for as long as this value lives (dropped on the same
/// thread): [`Backend::attach_thread`].
pub type AttachedThread = Box<dyn Any>;

/// What a VM gives the agent, decided once at start-up ([`Backend::features`]): the parts of
/// the agent that only make sense on some VMs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Features {
    /// `calls` with these options are counted by bytecode probes in the VM's own code (HotSpot's
    /// `calls=probes|requested`): their contexts get time and counters as `metric-mode=` says,
    /// and the VM calibrates their cost itself. Otherwise each call is an event the core's
    /// calibration measures.
    pub call_probes: bool,
    /// The VM runs green threads on processors (the research VM): their metrics are read through
    /// the processors' reader, and `metric-mode=` holds for them whether or not calls are counted.
    pub green_threads: bool,
    /// Stack and allocation samples (`sample=`, `sample-alloc=`).
    pub samples: bool,
    /// `/tmp/perf-PID.map` from the code map (`perf-map=`, with `collect=code`).
    pub perf_map: bool,
    /// The process's CPU time by kind of thread (`vm-cost.txt`).
    pub vm_cost: bool,
    /// Quantum traces (`quantum=`) finish after the final dump, so that dump leaves its explorer
    /// page for [`crate::AgentState::write_explorer_with_traces`].
    pub traces_after_final_dump: bool,
}

/// What a probe request did ([`Backend::request_probes`], `hpm ctl PID probe add|remove`).
#[derive(Debug, Clone)]
pub struct ProbeChange {
    /// Loaded classes retransformed, and those the VM refused.
    pub classes: usize,
    pub failed: usize,
    /// Recording was on: the change is in the code now (else at the next start).
    pub recording: bool,
    /// Methods with requested probes in, after the request.
    pub methods_in: usize,
    /// The rules now, in order (`+pattern`, `-pattern`).
    pub rules: Vec<String>,
}

/// The VM-specific part of the agent: what pause/resume, `status` and dumps need from the VM.
/// Called from the VM's own threads (its callbacks) and from the control socket's, each command
/// inside [`Backend::attach_thread`].
pub trait Backend: Send + Sync {
    /// `"hotspot"` or `"rvm"` (the control socket's `status` says which).
    fn name(&self) -> &'static str;

    /// What this VM gives the agent with these options.
    fn features(&self, options: &Options) -> Features;

    /// Attaches the calling thread (one of the agent's own, named `name`) to the VM until the
    /// returned value is dropped, on this thread: for a VM that refuses calls from threads it
    /// does not know. The default: nothing to attach.
    fn attach_thread(&self, _name: &str) -> Result<AttachedThread, String> {
        Ok(Box::new(()))
    }

    /// Turns method events on or off in the VM. The default: the VM's callbacks stay installed
    /// (they cost a branch in the paused recorder) and only the recorder pauses.
    fn set_method_events(&self, _on: bool) -> Result<(), String> {
        Ok(())
    }

    /// The VM's live threads as (name, kind); called on an attached thread.
    fn threads(&self) -> Result<Vec<(String, String)>, String>;

    /// Before recording stops (the recorder still records): what the VM's samplers took up to
    /// now goes in.
    fn stopping(&self) {}

    /// After recording started again (and when stopping failed and recording goes on).
    fn started(&self) {}

    /// Drops everything recorded: `reset` resets the recorder, called by the VM at the right
    /// moment among its own parts. The default: `reset` alone.
    fn reset(&self, reset: &dyn Fn()) {
        reset()
    }

    /// Before a snapshot (dumps, `status`, markers): what the VM keeps of its own (call counts,
    /// samples, credits) goes into the recorder; called on an attached thread.
    fn sync(&self) {}

    /// Before a dump's snapshot, after [`Backend::sync`]: the VM's own preparations (a cost
    /// calibration, the code map brought up to date).
    fn prepare_dump(&self) {}

    /// What this VM could not give the agent, one line each.
    fn missing_capabilities(&self) -> Vec<String> {
        Vec::new()
    }

    /// Probes into or out of the methods `patterns` match, now (`hpm ctl PID probe`); an error
    /// is the one line that says why not. Called on an attached thread.
    fn request_probes(&self, add: bool, patterns: &[String]) -> Result<ProbeChange, String>;

    /// The probe requests in force and how many methods have probes by them.
    fn requested_probes(&self) -> Option<(Vec<String>, usize)> {
        None
    }

    /// With bytecode probes, how many classes carry probes now.
    fn probed_classes(&self) -> Option<usize> {
        None
    }

    /// One line on stack sampling so far, for the log at the final dump, if it is on.
    fn stack_sampling_summary(&self) -> Option<String> {
        None
    }
}
