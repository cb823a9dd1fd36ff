//! Live recording: per-thread recorder state fed by a VM backend.
