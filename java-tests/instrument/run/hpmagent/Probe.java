package hpmagent;

import java.util.ArrayList;
import java.util.List;

/**
 * Recording probe for the instrumentation tests: a per-thread log of events, each {@code id << 2 | kind}
 * with kind 0 for an entry, 1 for an exit, 2 for an exit by exception ({@link #thrown}) and 3 for the
 * start of an exception handler ({@link #caught}), as longs, so that every int id, negative ones too,
 * is told apart.
 */
public final class Probe {
    private static final ThreadLocal<List<Long>> LOG = ThreadLocal.withInitial(ArrayList::new);

    private Probe() {}

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

    /** This thread's events since the last call, oldest first. */
    public static List<Long> take() {
        List<Long> events = LOG.get();
        LOG.set(new ArrayList<>());
        return events;
    }
}
