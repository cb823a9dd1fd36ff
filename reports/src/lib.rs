//! Reports of the arcflow model.
