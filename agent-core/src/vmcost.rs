//! The VM-cost timeline on HotSpot (`vm-cost.txt`): every thread's CPU time by what it works for,
//! read once a second by a thread of the agent's own (`hpm-vm-cost`), at every marker and at
//! every dump; Java threads are told apart by the recorder's registry, the VM's own threads by
//! their names (`hpm_collectors::vmcost`).

use std::collections::HashMap;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use hpm_collectors::recorder::{Recorder, ThreadInfo};
use hpm_collectors::counters::CounterSetSpec;
use hpm_model::metrics::ThreadMetrics;
use hpm_model::saved::VmCostData;
use hpm_support::lock;
use hpm_model::vmcost::ThreadKind;
use hpm_collectors::vmcost::{hotspot_native_thread_kind, CostTimeline, CounterOpener, ThreadClassifier};

/// How often the timeline ticks.
const TICK: Duration = Duration::from_secs(1);

pub struct VmCost {
    recorder: Arc<Recorder>,
    timeline: Mutex<CostTimeline>,
    ticker: Mutex<Option<Ticker>>,
}

/// The ticking thread and its stop flag.
struct Ticker {
    stop: Arc<(Mutex<bool>, Condvar)>,
    handle: std::thread::JoinHandle<()>,
}

/// Java threads by OS thread id (with their kind), then HotSpot's thread names.
struct Classifier {
    java: HashMap<u32, Option<String>>,
}

impl ThreadClassifier for Classifier {
    fn classify(&self, tid: u32, comm: &str) -> ThreadKind {
        match self.java.get(&tid) {
            // The JDK's own Java threads (reference handling, finalization, signal dispatch,
            // cleaners) are the VM's work; a Java thread the agent started is the agent's.
            Some(kind) => match hotspot_native_thread_kind(comm) {
                Some(k @ (ThreadKind::Vm | ThreadKind::Agent)) => k,
                _ if kind.as_deref() == Some("system") => ThreadKind::Vm,
                _ => ThreadKind::Application,
            },
            None => hotspot_native_thread_kind(comm).unwrap_or(ThreadKind::Other),
        }
    }
}

impl VmCost {
    /// With `counters` (the `event=` counters this machine opens) every thread also gets them
    /// opened by its id.
    pub fn new(recorder: Arc<Recorder>, counters: Option<CounterSetSpec>) -> VmCost {
        let timeline = match counters {
            Some(spec) => {
                let names = spec.events().iter().map(|e| e.name.clone()).collect();
                let open: Box<CounterOpener> =
                    Box::new(move |tid| spec.open_thread(tid as i32).ok().map(|g| Box::new(g) as Box<dyn ThreadMetrics>));
                CostTimeline::with_counters(names, open)
            }
            None => CostTimeline::new(),
        };
        VmCost { recorder, timeline: Mutex::new(timeline), ticker: Mutex::new(None) }
    }

    /// Adds a row now (ns since the recorder started, as markers are), ended by `marker` if given.
    pub fn tick(&self, marker: Option<String>) {
        let java = self.recorder.os_threads().into_iter().map(|(t, k)| (t as u32, k)).collect();
        let at = self.recorder.wall_ns();
        lock(&self.timeline).tick(at, marker, &Classifier { java });
    }

    /// On a Java thread at its start: its counters count from now.
    pub fn thread_started(&self) {
        let tid = hpm_collectors::counters::clock::current_tid() as u32;
        lock(&self.timeline).thread_started(tid);
    }

    /// On a Java thread at its end (`info`: its kind): its CPU time now goes to the next row.
    pub fn thread_ended(&self, info: &ThreadInfo) {
        let tid = hpm_collectors::counters::clock::current_tid() as u32;
        let cpu = hpm_collectors::counters::thread_cpu_ns();
        let comm = std::fs::read_to_string("/proc/thread-self/comm").unwrap_or_default();
        let kind = Classifier { java: HashMap::from([(tid, info.kind.clone())]) }.classify(tid, comm.trim_end());
        lock(&self.timeline).thread_ended(tid, cpu, kind);
    }

    /// Starts the once-a-second ticks (at VM init). A thread that cannot start is one warning.
    pub fn start(self: &Arc<Self>) {
        self.tick(None);
        let control = Arc::new((Mutex::new(false), Condvar::new()));
        let (c, me) = (control.clone(), self.clone());
        let spawned = std::thread::Builder::new().name("hpm-vm-cost".into()).spawn(move || {
            let (stop, cv) = &*c;
            let mut stopped = lock(stop);
            loop {
                stopped = cv.wait_timeout(stopped, TICK).unwrap_or_else(|e| e.into_inner()).0;
                if *stopped {
                    return;
                }
                drop(stopped);
                me.tick(None);
                stopped = lock(stop);
            }
        });
        match spawned {
            Ok(handle) => *lock(&self.ticker) = Some(Ticker { stop: control, handle }),
            Err(e) => hpm_support::log::warn(&format!("vm-cost.txt has rows only at markers and dumps: cannot start its thread: {e}")),
        }
    }

    /// Stops the ticks (at VM death, before the final dump).
    pub fn stop(&self) {
        if let Some(t) = lock(&self.ticker).take() {
            *lock(&t.stop.0) = true;
            t.stop.1.notify_all();
            let _ = t.handle.join();
        }
    }

    /// The timeline up to now (a row is added first), as `vm-cost.txt` shows it.
    pub fn data(&self) -> VmCostData {
        self.tick(None);
        let t = lock(&self.timeline);
        VmCostData { counters: t.counter_names().to_vec(), rows: t.rows().to_vec(), lost_threads: t.lost_threads() }
    }
}
