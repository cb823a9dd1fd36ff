//! CPU-bound work measured by the thread's own CPU clock, shared by the sampler tests
//! (`collectors/tests/sampling.rs`, `collectors/tests/stack_samples.rs`).
#![allow(dead_code)]

use hpm_collectors::counters::thread_cpu_ns;

pub const MS: u64 = 1_000_000;

/// Spins until the calling thread has used `ms` more of CPU time.
pub fn spin_cpu(ms: u64) {
    let end = thread_cpu_ns() + ms * MS;
    let mut x = 0u64;
    while thread_cpu_ns() < end {
        for i in 0..200u64 {
            x = x.wrapping_mul(31).wrapping_add(std::hint::black_box(i));
        }
    }
    std::hint::black_box(x);
}
