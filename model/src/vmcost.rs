//! The VM-cost timeline's tables: CPU time (and counts) per kind of thread and interval, as
//! `vm-cost.txt` shows them. The timeline that reads them from the kernel while a VM runs is
//! `hpm_collectors::vmcost`.

/// What a thread works for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ThreadKind {
    /// The program's own Java threads.
    Application,
    /// Garbage collection (collector workers, concurrent markers and refiners).
    Gc,
    /// JIT compilation (compiler threads, the code sweeper).
    Jit,
    /// The VM's other work: the VM thread (safepoint operations), service and periodic threads,
    /// the JDK's own Java threads (reference handling, finalization, signal dispatch, cleaners).
    Vm,
    /// The profiler's own threads.
    Agent,
    /// Threads the classifier does not know (the launcher's primordial thread, native threads of
    /// libraries).
    Other,
}

impl ThreadKind {
    pub const ALL: [ThreadKind; 6] = [ThreadKind::Application, ThreadKind::Gc, ThreadKind::Jit, ThreadKind::Vm, ThreadKind::Agent, ThreadKind::Other];

    pub fn name(self) -> &'static str {
        match self {
            ThreadKind::Application => "application",
            ThreadKind::Gc => "gc",
            ThreadKind::Jit => "jit",
            ThreadKind::Vm => "vm",
            ThreadKind::Agent => "agent",
            ThreadKind::Other => "other",
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }
}

/// A value (CPU ns, or a counter's count) per [`ThreadKind`], in the order of [`ThreadKind::ALL`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PerKind(pub [u64; 6]);

impl PerKind {
    pub fn get(&self, k: ThreadKind) -> u64 {
        self.0[k.index()]
    }
    pub fn total(&self) -> u64 {
        self.0.iter().sum()
    }
    pub fn add(&mut self, other: &PerKind) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a += b;
        }
    }
}

/// One interval of the timeline: from the previous row's `at_ns` (or the start) to `at_ns`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CostRow {
    /// ns since the timeline's origin.
    pub at_ns: u64,
    pub cpu: PerKind,
    /// Per counter of `CostTimeline::counter_names`, its counts in this interval by kind.
    pub counters: Vec<PerKind>,
    /// The marker that ended this interval, if a marker did.
    pub marker: Option<String>,
}
