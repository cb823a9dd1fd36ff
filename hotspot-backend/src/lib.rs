//! The JVMTI side of hpmagent. Filled in by the HotSpot agent work.
