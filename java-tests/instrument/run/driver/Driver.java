package driver;

import hpmagent.Probe;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.List;

/**
 * Runs scenarios (static no-argument methods of instrumented classes) and prints their probe events.
 * Each argument is {@code class.method:repetitions}. Output per scenario:
 * {@code S <spec> <repetitions whose events differ from the first>}, then {@code E <events of the
 * first repetition>} (as {@link Probe} records them), then {@code X <exception>} if the scenario threw,
 * then {@code M <count> <first>} if probes got another entry's carried context (all repetitions).
 */
public final class Driver {
    public static void main(String[] args) throws Exception {
        for (String spec : args) {
            int colon = spec.lastIndexOf(':');
            String target = spec.substring(0, colon);
            int reps = Integer.parseInt(spec.substring(colon + 1));
            int dot = target.lastIndexOf('.');
            Method m = Class.forName(target.substring(0, dot)).getDeclaredMethod(target.substring(dot + 1));
            m.setAccessible(true);
            Probe.take();
            Probe.takeMismatches();
            List<Long> first = null;
            Throwable thrown = null;
            int differing = 0;
            for (int i = 0; i < reps; i++) {
                try {
                    m.invoke(null);
                } catch (InvocationTargetException e) {
                    if (thrown == null) {
                        thrown = e.getCause();
                    }
                }
                List<Long> events = Probe.take();
                if (first == null) {
                    first = events;
                } else if (!first.equals(events)) {
                    differing++;
                }
            }
            StringBuilder out = new StringBuilder();
            out.append("S ").append(spec).append(' ').append(differing).append("\nE");
            for (long e : first) {
                out.append(' ').append(e);
            }
            out.append('\n');
            if (thrown != null) {
                out.append("X ").append(thrown).append('\n');
            }
            List<String> mismatches = Probe.takeMismatches();
            if (!mismatches.isEmpty()) {
                out.append("M ").append(mismatches.size()).append(' ').append(mismatches.get(0)).append('\n');
            }
            System.out.print(out);
        }
    }
}
