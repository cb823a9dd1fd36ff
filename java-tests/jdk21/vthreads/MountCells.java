package vthreads;

import java.lang.reflect.Field;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Where two virtual threads store their current context while both are mounted at once (on two
 * carriers), for the false-sharing test (agent/tests/vthreads.rs): each runs probed code, waits
 * (spinning, so it stays mounted) until the other runs too, then prints its Shadow's cell, the
 * address its probes store into: {@code cell THREAD ADDR}. Run with two carriers
 * (-Djdk.virtualThreadScheduler.parallelism=2).
 */
public class MountCells {
    static int depth(int n) {
        return n == 0 ? 0 : 1 + depth(n - 1);
    }

    static long cellOfThisThread() throws Exception {
        Class<?> probe = Class.forName("hpmagent.probe.Probe", false, null);
        Field f = probe.getDeclaredField("SHADOW");
        f.setAccessible(true);
        Object s = ((ThreadLocal<?>) f.get(null)).get();
        Field c = s.getClass().getDeclaredField("cell");
        c.setAccessible(true);
        return c.getLong(s);
    }

    public static void main(String[] args) throws Exception {
        AtomicInteger running = new AtomicInteger();
        AtomicInteger read = new AtomicInteger();
        Thread[] ts = new Thread[2];
        for (int i = 0; i < 2; i++) {
            final String name = "v" + i;
            ts[i] = Thread.ofVirtual().name(name).start(() -> {
                try {
                    for (int k = 0; k < 1000; k++) {
                        depth(30);
                    }
                    running.incrementAndGet();
                    while (running.get() < 2) {
                        Thread.onSpinWait();
                    }
                    long cell = cellOfThisThread();
                    read.incrementAndGet();
                    while (read.get() < 2) {
                        Thread.onSpinWait();
                    }
                    System.out.println("cell " + name + " " + cell);
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
        }
        for (Thread t : ts) {
            t.join();
        }
    }
}
