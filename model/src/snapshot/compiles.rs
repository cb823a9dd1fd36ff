//! Compilations, as looking at the JIT compiler threads sees them (the looks:
//! `hpm_collectors::recorder::compiles`).

use crate::sampling::Tier;

/// What a backend saw a compiler thread doing at one look.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CompilerActivity {
    /// Compiling `method` (a consumer name) at `tier`; `id` is the VM's compile id, `osr` whether
    /// it is an on-stack-replacement compilation.
    Compiling { method: String, tier: Tier, id: u64, osr: bool },
    /// No compile task: waiting for one, or between two (the thread's compiler's `tier`, if
    /// known).
    Idle { tier: Tier },
}

/// One method compiled at one tier: the compiler threads' CPU time estimated for it, the looks
/// that found it, and the distinct compilations seen (a compilation shorter than the interval
/// between looks may be missed: the counts are a lower bound).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompileRow {
    /// The method, or `(no compile task)` for the time of compiler threads never found busy.
    pub method: String,
    pub tier: Tier,
    pub cpu_ns: u64,
    pub looks: u64,
    pub compilations: u64,
    pub osr_compilations: u64,
}

/// The pseudo-method of the time of compiler threads no look found busy.
pub const NO_TASK: &str = "(no compile task)";
