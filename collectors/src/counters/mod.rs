//! Counter sources: per-thread perf_event groups, thread CPU and wall clocks.
