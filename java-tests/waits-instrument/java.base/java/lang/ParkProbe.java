package java.lang;

/**
 * Stands in for the agent's park natives in the instrumentation test of the park wrappers:
 * patched into java.base (so LockSupport, a java.base class, can call it), it logs the calls of
 * the watched thread.
 */
public final class ParkProbe {
    private static volatile Thread watched;
    private static final StringBuilder LOG = new StringBuilder();

    private ParkProbe() {}

    public static void watch(Thread t) {
        watched = t;
    }

    public static String log() {
        synchronized (LOG) {
            return LOG.toString();
        }
    }

    private static void add(String what, Object blocker, long time) {
        if (Thread.currentThread() != watched) {
            return;
        }
        synchronized (LOG) {
            LOG.append(what).append('(').append(blocker == null ? "null" : blocker.getClass().getName());
            LOG.append(',').append(time > 0 ? "t" : String.valueOf(time)).append(") ");
        }
    }

    public static void untimed(Object blocker, long time) {
        add("untimed", blocker, time);
    }

    public static void nanos(Object blocker, long nanos) {
        add("nanos", blocker, nanos);
    }

    public static void until(Object blocker, long deadline) {
        add("until", blocker, deadline);
    }

    public static void exit(int method) {
        if (Thread.currentThread() == watched) {
            synchronized (LOG) {
                LOG.append("exit ");
            }
        }
    }
}
