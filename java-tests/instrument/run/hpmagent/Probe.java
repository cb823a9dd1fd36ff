package hpmagent;

import java.util.ArrayList;
import java.util.List;

/**
 * Recording probe for the instrumentation tests: a per-thread log of events, each {@code id << 2 | kind}
 * with kind 0 for an entry, 1 for an exit, 2 for an exit by exception ({@link #thrown}) and 3 for the
 * start of an exception handler ({@link #caught}), as longs, so that every int id, negative ones too,
 * is told apart.
 *
 * <p>With a carried context the entry probe is {@link #enterCarried}, whose {@link Context} the
 * method hands to its other probes; each checks that it got the context of its own entry, on its
 * own thread, and records a mismatch ({@link #takeMismatches}) when not.
 */
public final class Probe {
    private static final ThreadLocal<List<Long>> LOG = ThreadLocal.withInitial(ArrayList::new);
    private static final ThreadLocal<List<String>> MISMATCHES = ThreadLocal.withInitial(ArrayList::new);

    private Probe() {}

    /** What {@link #enterCarried} returns: which entry, on which thread. */
    public static final class Context {
        final int id;
        final Thread thread;

        Context(int id) {
            this.id = id;
            this.thread = Thread.currentThread();
        }
    }

    private static void log(int id, int kind) {
        LOG.get().add((long) id << 2 | kind);
    }

    public static void enter(int id) {
        log(id, 0);
    }

    public static void exit(int id) {
        log(id, 1);
    }

    public static void thrown(int id) {
        log(id, 2);
    }

    public static void caught(int id) {
        log(id, 3);
    }

    public static Context enterCarried(int id) {
        log(id, 0);
        return new Context(id);
    }

    public static void exit(Context c, int id) {
        check(c, id, "exit");
        log(id, 1);
    }

    public static void thrown(Context c, int id) {
        check(c, id, "thrown");
        log(id, 2);
    }

    public static void caught(Context c, int id) {
        check(c, id, "caught");
        log(id, 3);
    }

    private static void check(Context c, int id, String probe) {
        if (c == null || c.id != id || c.thread != Thread.currentThread()) {
            String got = c == null ? "null" : "the context of " + c.id + " on " + c.thread;
            MISMATCHES.get().add(probe + " of " + id + " on " + Thread.currentThread() + " got " + got);
        }
    }

    /** This thread's mismatched contexts since the last call. */
    public static List<String> takeMismatches() {
        List<String> m = MISMATCHES.get();
        MISMATCHES.set(new ArrayList<>());
        return m;
    }

    /** This thread's events since the last call, oldest first. */
    public static List<Long> take() {
        List<Long> events = LOG.get();
        LOG.set(new ArrayList<>());
        return events;
    }
}
