/* A JVMTI agent that only sets the native method prefix given as its options, as the profiler
 * agent does when it wraps native methods: -agentpath:libprefix_agent.so=PREFIX */
#include <jvmti.h>
#include <string.h>

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *options, void *reserved) {
    jvmtiEnv *jvmti;
    jvmtiCapabilities caps;
    if ((*vm)->GetEnv(vm, (void **) &jvmti, JVMTI_VERSION_1_1) != JNI_OK) {
        return 1;
    }
    memset(&caps, 0, sizeof caps);
    caps.can_set_native_method_prefix = 1;
    if ((*jvmti)->AddCapabilities(jvmti, &caps) != JVMTI_ERROR_NONE) {
        return 2;
    }
    if (options == NULL || (*jvmti)->SetNativeMethodPrefix(jvmti, options) != JVMTI_ERROR_NONE) {
        return 3;
    }
    return 0;
}
