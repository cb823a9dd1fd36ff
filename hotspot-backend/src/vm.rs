//! HotSpot as the agent's core sees it: [`HotSpot`], the `hpm_agent_core::Backend` of
//! libhpmagent.so's HotSpot entry points. Everything it answers comes from the backend set up
//! by [`crate::init`] (or [`crate::init_live`]): before that, the VM is not initialised.

use hpm_agent_core::options::Options;
use hpm_agent_core::{AttachedThread, Features, ProbeChange};

use crate::{probes, stacks, AgentThread, Control, BACKEND};

/// The agent's core's view of HotSpot through JVMTI (one per process, like the backend).
pub struct HotSpot;

impl HotSpot {
    /// The backend's control handle, once [`crate::init`] set the backend up.
    fn control(&self) -> Option<Control> {
        BACKEND.get().map(|b| Control { env: b.env })
    }

    /// Runs `f` with the control handle; before the backend is set up, nothing.
    fn with_control(&self, f: impl FnOnce(&Control)) {
        if let Some(c) = self.control() {
            f(&c);
        }
    }
}

impl hpm_agent_core::Backend for HotSpot {
    fn name(&self) -> &'static str {
        "hotspot"
    }

    fn features(&self, options: &Options) -> Features {
        Features {
            call_probes: options.calls_via.probes(),
            green_threads: false,
            samples: true,
            perf_map: true,
            vm_cost: true,
            // The OS-thread tracers (libhpmagent.so's `quanta.rs`) end after the final dump.
            traces_after_final_dump: true,
        }
    }

    /// Attached as a daemon (`AttachCurrentThreadAsDaemon`): HotSpot refuses JVMTI calls from
    /// unattached threads.
    fn attach_thread(&self, name: &str) -> Result<AttachedThread, String> {
        let vm = BACKEND.get().map_or(std::ptr::null_mut(), |b| b.vm as *mut crate::sys::jvmti::JavaVM);
        // SAFETY: vm is the JavaVM of Agent_OnLoad or Agent_OnAttach, valid while the VM lives
        // (or null, which attach refuses); the caller drops the guard on this thread.
        let thread = unsafe { AgentThread::attach(vm, name) }?;
        Ok(Box::new(thread))
    }

    fn set_method_events(&self, on: bool) -> Result<(), String> {
        match self.control() {
            Some(c) => c.set_method_events(on),
            None => Ok(()),
        }
    }

    fn threads(&self) -> Result<Vec<(String, String)>, String> {
        self.control().ok_or("the VM is not initialised yet")?.vm_threads()
    }

    fn stopping(&self) {
        self.with_control(Control::stop_sampling);
    }

    fn started(&self) {
        self.with_control(Control::start_sampling);
    }

    fn reset(&self, reset: &dyn Fn()) {
        reset();
        self.with_control(Control::reset_calls);
    }

    fn sync(&self) {
        self.with_control(Control::sync_calls);
    }

    fn prepare_dump(&self) {
        self.with_control(|c| {
            c.calibrate_calls();
            c.sync_code_map();
        });
    }

    /// What the VM could not give this agent: one line per kind of data, naming it and the fix.
    fn missing_capabilities(&self) -> Vec<String> {
        BACKEND.get().map(|b| b.missing.clone()).unwrap_or_default()
    }

    /// `hpm ctl PID probe add|remove PATTERN...` (`CLASS_GLOB` or `CLASS_GLOB::METHOD_GLOB`):
    /// bytecode probes into, or out of, the matching methods while the program runs, in one
    /// retransformation.
    fn request_probes(&self, add: bool, patterns: &[String]) -> Result<ProbeChange, String> {
        match probes::runtime() {
            Some(rt) => rt.request(add, patterns),
            None => Err("this run counts no calls with bytecode probes (calls=none or calls=jvmti): start the agent with calls=requested (probes only where asked) or calls=probes".into()),
        }
    }

    /// The probe requests in force, in order (`+pattern`, `-pattern`), and how many methods
    /// have probes by them now; `None` without bytecode probes.
    fn requested_probes(&self) -> Option<(Vec<String>, usize)> {
        probes::runtime().map(|rt| rt.requested())
    }

    /// With bytecode probes (`calls=probes`), how many classes carry probes now (none while
    /// recording is stopped: they are retransformed without them); `None` in the JVMTI mode.
    fn probed_classes(&self) -> Option<usize> {
        probes::runtime().map(|rt| rt.probed_class_count())
    }

    /// One line on stack sampling so far (walks stored, failed, faulted), if it is on.
    fn stack_sampling_summary(&self) -> Option<String> {
        stacks::runtime().map(|rt| rt.summary())
    }
}
