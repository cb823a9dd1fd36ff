//! Imports of other profilers' recordings into the arcflow model, one module per format, so that
//! `hpm report` and every export read them as they read the agent's profiles. See `docs/exports.md`.

pub mod jfr;
