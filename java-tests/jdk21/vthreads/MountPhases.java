package vthreads;

import java.util.ArrayList;
import java.util.List;

/**
 * Virtual threads (JDK 21+) with known work and known mounts: each of {@code threads} virtual
 * threads (named {@code vt-0}, {@code vt-1}, ...) runs {@code rounds} rounds of a busy phase of
 * {@code busyMs} (calls to {@link #work}, each calling {@link #leaf} 1000 times) followed by a
 * sleep of {@code sleepMs}, which unmounts it. Each thread prints the calls it made and the
 * wall time of its busy phases, then when it ran and slept on {@code System.nanoTime}'s clock
 * (CLOCK_MONOTONIC on Linux, the agent's time base): its first statement, the call to and the
 * return from each sleep, and its last statement:
 * {@code vthread NAME work W leaf L busy NS times FIRST CALL1 RETURN1 ... LAST}.
 * A first thread, {@code warm-up}, runs one short round first and prints nothing.
 */
public class MountPhases {
    static long sink;

    static long leaf(int i) {
        return i * 31L + (i >>> 3);
    }

    static long work() {
        long s = 0;
        for (int i = 0; i < 1000; i++) {
            s += leaf(i);
        }
        return s;
    }

    /** The body of each virtual thread: its rounds, then its line. */
    static void phases(int rounds, long busyNs, long sleepMs, List<String> lines) {
        long first = System.nanoTime();
        long[] sleeps = new long[2 * rounds];
        long works = 0, busy = 0, s = 0;
        for (int r = 0; r < rounds; r++) {
            long t0 = System.nanoTime();
            long end = t0 + busyNs;
            do {
                s += work();
                works++;
            } while (System.nanoTime() < end);
            busy += System.nanoTime() - t0;
            sleeps[2 * r] = System.nanoTime();
            try {
                Thread.sleep(sleepMs);
            } catch (InterruptedException e) {
                throw new RuntimeException(e);
            }
            sleeps[2 * r + 1] = System.nanoTime();
        }
        sink += s;
        // A StringBuilder, not `+`: string concatenation's first use bootstraps a call site, which
        // takes milliseconds of the thread's mounted time.
        StringBuilder b = new StringBuilder("vthread ").append(Thread.currentThread().getName());
        b.append(" work ").append(works).append(" leaf ").append(works * 1000).append(" busy ").append(busy);
        b.append(" times ").append(first);
        for (long t : sleeps) {
            b.append(' ').append(t);
        }
        b.append(' ').append(System.nanoTime());
        lines.add(b.toString());
    }

    public static void main(String[] args) throws Exception {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 4;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        long busyNs = (args.length > 2 ? Long.parseLong(args[2]) : 20) * 1_000_000L;
        long sleepMs = args.length > 3 ? Long.parseLong(args[3]) : 10;
        List<String> lines = java.util.Collections.synchronizedList(new ArrayList<>());
        // A first virtual thread does everything once (first sleep, the timer behind it, class
        // loading), so that the measured threads spend their mounted time in their busy phases.
        Thread.ofVirtual().name("warm-up").start(() -> phases(1, 1_000_000L, sleepMs, new ArrayList<>())).join();
        List<Thread> started = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            started.add(Thread.ofVirtual().name("vt-" + t).start(() -> phases(rounds, busyNs, sleepMs, lines)));
        }
        for (Thread t : started) {
            t.join();
        }
        for (String l : lines) {
            System.out.println(l);
        }
        System.out.println("mount phases done");
    }
}
