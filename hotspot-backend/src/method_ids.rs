//! The jmethodIDs the VM gave the agent: made for every class (ClassPrepare, and the classes
//! loaded before stack sampling started) so that AsyncGetCallTrace finds them, and checked before
//! a method id read from a sampled stack reaches JVMTI (`names.rs`). Below both: it names neither.

use std::collections::HashSet;
use std::sync::Mutex;

use hpm_support::lock;

use crate::sys::jvmti::*;
use crate::{deallocate, jvmti_fn};

/// The jmethodIDs the VM gave the agent through JVMTI (`GetClassMethods` at ClassPrepare and for
/// the classes loaded before sampling started). A method id read from a sampled stack reaches
/// JVMTI only if it is here: HotSpot dereferences a jmethodID without checking it, so a bad one
/// (AGCT writes null for a method without an id, or a misread frame) would crash the JVM, while
/// one of these stays a valid slot for the life of the VM (after its class is unloaded JVMTI
/// answers INVALID_METHODID).
static KNOWN_METHOD_IDS: Mutex<Option<HashSet<u64>>> = Mutex::new(None);

/// Whether `method` is a jmethodID the VM gave the agent ([`KNOWN_METHOD_IDS`]).
pub(crate) fn is_known_method_id(method: u64) -> bool {
    lock(&KNOWN_METHOD_IDS).as_ref().is_some_and(|k| k.contains(&method))
}

/// Makes the jmethodIDs of `klass`'s methods (GetClassMethods makes them), so that AGCT, which
/// cannot make one in a signal handler, finds them; and keeps them as known.
pub(crate) fn make_method_ids(env: *mut jvmtiEnv, klass: jclass) {
    let mut count: jint = 0;
    let mut methods: *mut jmethodID = std::ptr::null_mut();
    // SAFETY: env valid; klass a live reference given by the caller; out-pointers valid.
    let err = unsafe { jvmti_fn!(env, GetClassMethods)(env, klass, &mut count, &mut methods) };
    if err == JVMTI_ERROR_NONE && !methods.is_null() {
        // SAFETY: GetClassMethods returned `count` method ids at `methods`.
        let ids = unsafe { std::slice::from_raw_parts(methods, count.max(0) as usize) };
        lock(&KNOWN_METHOD_IDS).get_or_insert_with(HashSet::new).extend(ids.iter().map(|&m| m as u64));
        deallocate(env, methods as *mut u8);
    }
}
