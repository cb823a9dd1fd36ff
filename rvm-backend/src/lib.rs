//! The research VM. Filled in by the research VM work.
