//! The arcflow model and what feeds it.
