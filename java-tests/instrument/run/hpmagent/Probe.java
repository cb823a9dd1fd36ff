package hpmagent;

import java.util.ArrayList;
import java.util.List;

/** Recording probe for the instrumentation tests: a per-thread log of enter (id) and exit (~id) events. */
public final class Probe {
    private static final ThreadLocal<List<Integer>> LOG = ThreadLocal.withInitial(ArrayList::new);

    private Probe() {}

    public static void enter(int id) {
        LOG.get().add(id);
    }

    public static void exit(int id) {
        LOG.get().add(~id);
    }

    /** This thread's events since the last call, oldest first. */
    public static List<Integer> take() {
        List<Integer> events = LOG.get();
        LOG.set(new ArrayList<>());
        return events;
    }
}
