//! JVMTI error numbers in words, for messages: `JVMTI error 99` says nothing to a user,
//! `JVMTI_ERROR_MUST_POSSESS_CAPABILITY (99): …` does.

use crate::sys::jvmti::*;

/// The error's name from `jvmti.h` and, for the errors an agent meets, what it means.
pub fn jvmti_error_text(err: jvmtiError) -> String {
    let (name, meaning) = match err {
        JVMTI_ERROR_NONE => ("JVMTI_ERROR_NONE", "no error"),
        JVMTI_ERROR_INVALID_THREAD => ("JVMTI_ERROR_INVALID_THREAD", "not a thread"),
        JVMTI_ERROR_THREAD_NOT_ALIVE => ("JVMTI_ERROR_THREAD_NOT_ALIVE", "the thread is not alive (not started or already ended)"),
        JVMTI_ERROR_INVALID_OBJECT => ("JVMTI_ERROR_INVALID_OBJECT", "not an object"),
        JVMTI_ERROR_INVALID_CLASS => ("JVMTI_ERROR_INVALID_CLASS", "not a class"),
        JVMTI_ERROR_CLASS_NOT_PREPARED => ("JVMTI_ERROR_CLASS_NOT_PREPARED", "the class is not prepared yet"),
        JVMTI_ERROR_INVALID_METHODID => ("JVMTI_ERROR_INVALID_METHODID", "not a method (its class may have been unloaded)"),
        JVMTI_ERROR_NO_MORE_FRAMES => ("JVMTI_ERROR_NO_MORE_FRAMES", "no Java frame at that depth"),
        JVMTI_ERROR_OPAQUE_FRAME => ("JVMTI_ERROR_OPAQUE_FRAME", "the frame cannot be inspected (a native frame)"),
        JVMTI_ERROR_INVALID_CLASS_FORMAT => ("JVMTI_ERROR_INVALID_CLASS_FORMAT", "the class file is malformed"),
        JVMTI_ERROR_FAILS_VERIFICATION => ("JVMTI_ERROR_FAILS_VERIFICATION", "the class file fails verification"),
        JVMTI_ERROR_UNMODIFIABLE_CLASS => ("JVMTI_ERROR_UNMODIFIABLE_CLASS", "the class cannot be redefined or retransformed"),
        JVMTI_ERROR_NOT_AVAILABLE => ("JVMTI_ERROR_NOT_AVAILABLE", "this VM does not offer the functionality"),
        JVMTI_ERROR_MUST_POSSESS_CAPABILITY => (
            "JVMTI_ERROR_MUST_POSSESS_CAPABILITY",
            "the agent does not hold the capability this needs (HotSpot grants some only at start-up, not after attach)",
        ),
        JVMTI_ERROR_NULL_POINTER => ("JVMTI_ERROR_NULL_POINTER", "a null pointer where one is not allowed"),
        JVMTI_ERROR_ABSENT_INFORMATION => ("JVMTI_ERROR_ABSENT_INFORMATION", "the class has no such information"),
        JVMTI_ERROR_INVALID_EVENT_TYPE => ("JVMTI_ERROR_INVALID_EVENT_TYPE", "not an event of this JVMTI version"),
        JVMTI_ERROR_ILLEGAL_ARGUMENT => ("JVMTI_ERROR_ILLEGAL_ARGUMENT", "an illegal argument"),
        JVMTI_ERROR_NATIVE_METHOD => ("JVMTI_ERROR_NATIVE_METHOD", "not possible for a native method"),
        JVMTI_ERROR_OUT_OF_MEMORY => ("JVMTI_ERROR_OUT_OF_MEMORY", "the VM is out of memory"),
        JVMTI_ERROR_ACCESS_DENIED => ("JVMTI_ERROR_ACCESS_DENIED", "access denied"),
        JVMTI_ERROR_WRONG_PHASE => ("JVMTI_ERROR_WRONG_PHASE", "not possible in the VM's current phase (starting up or shutting down)"),
        JVMTI_ERROR_INTERNAL => ("JVMTI_ERROR_INTERNAL", "an internal error of the VM"),
        JVMTI_ERROR_UNATTACHED_THREAD => ("JVMTI_ERROR_UNATTACHED_THREAD", "the calling thread is not attached to the VM"),
        JVMTI_ERROR_INVALID_ENVIRONMENT => ("JVMTI_ERROR_INVALID_ENVIRONMENT", "the JVMTI environment is no longer valid"),
        _ => return format!("JVMTI error {err}"),
    };
    format!("{name} ({err}): {meaning}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_have_names_and_meanings() {
        let t = jvmti_error_text(JVMTI_ERROR_MUST_POSSESS_CAPABILITY);
        assert!(t.starts_with("JVMTI_ERROR_MUST_POSSESS_CAPABILITY (99): the agent does not hold the capability"), "{t}");
        assert_eq!(jvmti_error_text(12345), "JVMTI error 12345");
    }
}
