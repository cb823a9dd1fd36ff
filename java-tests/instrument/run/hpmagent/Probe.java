package hpmagent;

import java.util.ArrayList;
import java.util.List;

/**
 * Recording probe for the instrumentation tests: a per-thread log of events, each {@code id << 1} for
 * an entry and {@code id << 1 | 1} for an exit (as longs, so that every int id, negative ones too, is
 * told apart).
 */
public final class Probe {
    private static final ThreadLocal<List<Long>> LOG = ThreadLocal.withInitial(ArrayList::new);

    private Probe() {}

    public static void enter(int id) {
        LOG.get().add((long) id << 1);
    }

    public static void exit(int id) {
        LOG.get().add((long) id << 1 | 1);
    }

    /** This thread's events since the last call, oldest first. */
    public static List<Long> take() {
        List<Long> events = LOG.get();
        LOG.set(new ArrayList<>());
        return events;
    }
}
