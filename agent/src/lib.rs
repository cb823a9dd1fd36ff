//! libhpmagent.so entry points. Filled in by the HotSpot agent work.
