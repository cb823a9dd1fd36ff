//! What reading the metrics costs, in the metrics' own units (Golm et al. 2002, section 2: overhead
//! compensation). A probe that reads the counters at method entry and exit charges part of its own
//! cost to the method; the recorder can subtract a calibrated cost per call.

use hpm_model::metrics::{MetricSet, ThreadMetrics};

/// The cost of one read, per metric: the median and the minimum of the differences between
/// back-to-back reads on the calling thread (ns for time metrics, counts otherwise; 0 for metrics
/// a read does not move, such as page-faults).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadCost {
    pub median: Vec<u64>,
    pub min: Vec<u64>,
    pub samples: usize,
}

/// Measures [`ReadCost`] on an open reader with `n_metrics` values, over `samples` pairs of reads.
pub fn measure_read_cost(reader: &mut dyn ThreadMetrics, n_metrics: usize, samples: usize) -> ReadCost {
    let samples = samples.max(1);
    let mut prev = vec![0u64; n_metrics];
    let mut cur = vec![0u64; n_metrics];
    let mut deltas: Vec<Vec<u64>> = vec![Vec::with_capacity(samples); n_metrics];
    // Warm up caches and the kernel paths.
    for _ in 0..16 {
        reader.read(&mut prev);
    }
    reader.read(&mut prev);
    for _ in 0..samples {
        reader.read(&mut cur);
        for i in 0..n_metrics {
            deltas[i].push(cur[i].saturating_sub(prev[i]));
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    let mut median = Vec::with_capacity(n_metrics);
    let mut min = Vec::with_capacity(n_metrics);
    for d in &mut deltas {
        d.sort_unstable();
        median.push(d[d.len() / 2]);
        min.push(d[0]);
    }
    ReadCost { median, min, samples }
}

/// Opens `set` on the calling thread and measures its [`ReadCost`].
pub fn read_cost(set: &dyn MetricSet, samples: usize) -> ReadCost {
    let n = set.metrics().len();
    let mut r = set.open_current_thread();
    measure_read_cost(r.as_mut(), n, samples)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::counters::{probe, CounterOptions, Metrics, ThreadCpuClock, WallClock};

    #[test]
    fn read_cost_is_small_and_zero_for_counts() {
        let p = probe(&["task-clock", "page-faults"], CounterOptions::default());
        let m = Metrics::new().with(ThreadCpuClock).with(WallClock).with(p.spec);
        let c = read_cost(&m, 2000);
        // cpu-time, wall-time, task-clock: more than 0 and far less than 1 ms per read.
        for i in 0..3 {
            assert!(c.median[i] > 0 && c.median[i] < 1_000_000, "{c:?}");
        }
        assert_eq!(c.median[3], 0, "reading does not fault: {c:?}");
    }
}
