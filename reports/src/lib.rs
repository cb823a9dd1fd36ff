//! Reports of the arcflow model.

pub mod vm;
