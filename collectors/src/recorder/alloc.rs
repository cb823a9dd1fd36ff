//! Allocation in exact trees: bytes and objects credited to the thread's current context
//! (`collect=alloc`), and the VM's own allocations per thread.

use super::*;

impl Recorder {
    /// An object of `bytes` allocated by the thread (charged to its current context through the
    /// `alloc-bytes`/`alloc-objects` metrics at the next event).
    #[inline]
    pub fn object_alloc(&self, t: &ThreadRecorder, bytes: u64) {
        if !self.config.alloc || self.is_paused() {
            return;
        }
        let mut s = lock(&t.state);
        s.alloc_bytes = s.alloc_bytes.wrapping_add(bytes);
        s.alloc_objects += 1;
    }

    /// An object allocated by the VM on behalf of the thread (reflection, JNI, …), counted per thread.
    pub fn vm_object_alloc(&self, t: &ThreadRecorder, bytes: u64) {
        if !self.config.alloc || self.is_paused() {
            return;
        }
        let mut s = lock(&t.state);
        s.vm_alloc_bytes = s.vm_alloc_bytes.wrapping_add(bytes);
        s.vm_alloc_objects += 1;
    }
}
