package java.util.concurrent.locks;

import jdk.internal.rvm.Atomic;

/**
 * Park and unpark, implemented by rvm's scheduler: each thread has one permit; {@code park}
 * consumes it or blocks the green thread (its processor runs another thread) until
 * {@code unpark}, an interrupt or the timeout makes it ready. Both are quantum boundaries with
 * reasons {@code park} and {@code unpark} in quantum traces. Spurious returns do not happen in
 * rvm, but callers must not rely on that (the JDK allows them).
 */
public class LockSupport {
    private static final int BLOCKER = Atomic.offset(Thread.class, "parkBlocker");

    private LockSupport() {}

    private static native void park0(long nanos);
    private static native void unpark0(Thread t);

    public static void unpark(Thread thread) {
        if (thread != null) unpark0(thread);
    }
    public static void park() { park0(0L); }
    public static void park(Object blocker) {
        Thread t = Thread.currentThread();
        Atomic.putRef(t, BLOCKER, blocker);
        park0(0L);
        Atomic.putRef(t, BLOCKER, null);
    }
    public static void parkNanos(long nanos) {
        if (nanos > 0) park0(nanos);
    }
    public static void parkNanos(Object blocker, long nanos) {
        if (nanos > 0) {
            Thread t = Thread.currentThread();
            Atomic.putRef(t, BLOCKER, blocker);
            park0(nanos);
            Atomic.putRef(t, BLOCKER, null);
        }
    }
    public static void parkUntil(long deadline) {
        parkNanos((deadline - System.currentTimeMillis()) * 1000000L);
    }
    public static void parkUntil(Object blocker, long deadline) {
        parkNanos(blocker, (deadline - System.currentTimeMillis()) * 1000000L);
    }
    public static Object getBlocker(Thread t) {
        if (t == null) throw new NullPointerException();
        return Atomic.getRef(t, BLOCKER);
    }
}
