/* The JNI library of calls.counters.NativeSpin: CPU time spent in C code under a Java native
   method, for the native frames of stack samples. Built by the agent's tests with frame pointers
   (-fno-omit-frame-pointer); both functions are exported, so the process's dynamic symbols name
   them. */
#include <jni.h>
#include <stdint.h>

__attribute__((noinline)) uint64_t hpm_spin_inner(uint64_t n) {
    volatile uint64_t x = 1;
    for (uint64_t i = 0; i < n; i++) x = x * 6364136223846793005ULL + i;
    return x;
}

JNIEXPORT jlong JNICALL Java_calls_counters_NativeSpin_spin(JNIEnv *env, jclass cls, jlong n) {
    (void) env;
    (void) cls;
    /* Not a tail call: this frame stays on the stack under hpm_spin_inner. */
    return (jlong) hpm_spin_inner((uint64_t) n) + 1;
}
