/* Native code of nat.Natives, named for the original methods (Java_nat_Natives_<name>): with the
 * native method prefix set, the JVM binds the renamed natives to these. `registered` is bound by
 * RegisterNatives in JNI_OnLoad instead. */
#include <jni.h>
#include <stdio.h>

JNIEXPORT jint JNICALL Java_nat_Natives_add(JNIEnv *env, jclass cls, jint a, jint b) {
    return a + b;
}

JNIEXPORT jlong JNICALL Java_nat_Natives_mix(JNIEnv *env, jobject self, jlong a, jdouble d, jintArray arr, jstring s) {
    return a * 1000 + (jlong) (d * 80) + (*env)->GetArrayLength(env, arr) * 10 + (*env)->GetStringLength(env, s);
}

JNIEXPORT jdouble JNICALL Java_nat_Natives_half(JNIEnv *env, jclass cls, jdouble d) {
    return d / 2;
}

JNIEXPORT jstring JNICALL Java_nat_Natives_greet(JNIEnv *env, jclass cls, jstring who) {
    char buf[256];
    const char *w = (*env)->GetStringUTFChars(env, who, NULL);
    snprintf(buf, sizeof buf, "hello, %s", w);
    (*env)->ReleaseStringUTFChars(env, who, w);
    return (*env)->NewStringUTF(env, buf);
}

JNIEXPORT jfloat JNICALL Java_nat_Natives_widen(JNIEnv *env, jobject self, jfloat f, jbyte b, jchar c, jshort s, jboolean z) {
    return f + b + c + s + (z ? 1 : 0);
}

static jboolean holds_lock(JNIEnv *env, jobject o) {
    jclass thread = (*env)->FindClass(env, "java/lang/Thread");
    jmethodID holds = (*env)->GetStaticMethodID(env, thread, "holdsLock", "(Ljava/lang/Object;)Z");
    return (*env)->CallStaticBooleanMethod(env, thread, holds, o);
}

JNIEXPORT jboolean JNICALL Java_nat_Natives_holdsOwnLock(JNIEnv *env, jobject self) {
    return holds_lock(env, self);
}

JNIEXPORT jboolean JNICALL Java_nat_Natives_holdsClassLock(JNIEnv *env, jclass cls) {
    return holds_lock(env, cls);
}

JNIEXPORT void JNICALL Java_nat_Natives_fail(JNIEnv *env, jclass cls, jstring msg) {
    const char *m = (*env)->GetStringUTFChars(env, msg, NULL);
    (*env)->ThrowNew(env, (*env)->FindClass(env, "java/io/IOException"), m);
    (*env)->ReleaseStringUTFChars(env, msg, m);
}

JNIEXPORT jint JNICALL Java_nat_Natives_callback(JNIEnv *env, jobject self, jint x) {
    jclass cls = (*env)->GetObjectClass(env, self);
    jmethodID twice = (*env)->GetMethodID(env, cls, "twice", "(I)I");
    return (*env)->CallIntMethod(env, self, twice, x) + 1;
}

JNIEXPORT void JNICALL Java_nat_Natives_nothing(JNIEnv *env, jclass cls) {}

JNIEXPORT jobjectArray JNICALL Java_nat_Natives_array(JNIEnv *env, jobject self, jobject o) {
    return (*env)->NewObjectArray(env, 1, (*env)->FindClass(env, "java/lang/Object"), o);
}

JNIEXPORT jint JNICALL Java_nat_Natives_sum(JNIEnv *env, jobject self, jintArray xs) {
    jint n = (*env)->GetArrayLength(env, xs), total = 0;
    jint *e = (*env)->GetIntArrayElements(env, xs, NULL);
    for (jint i = 0; i < n; i++) {
        total += e[i];
    }
    (*env)->ReleaseIntArrayElements(env, xs, e, JNI_ABORT);
    return total;
}

static jint registered(JNIEnv *env, jclass cls, jint x) {
    return 3 * x;
}

/* RegisterNatives names the original method; with the prefix set, the JVM binds the renamed one. */
JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM *vm, void *reserved) {
    JNIEnv *env;
    if ((*vm)->GetEnv(vm, (void **) &env, JNI_VERSION_1_8) != JNI_OK) {
        return JNI_ERR;
    }
    jclass cls = (*env)->FindClass(env, "nat/Natives");
    JNINativeMethod m = {"registered", "(I)I", (void *) registered};
    if (cls == NULL || (*env)->RegisterNatives(env, cls, &m, 1) != 0) {
        /* Without the prefix the wrapper is not native: registered() stays unbound. */
        (*env)->ExceptionClear(env);
    }
    return JNI_VERSION_1_8;
}
