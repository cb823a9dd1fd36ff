package vthreads;

import java.util.ArrayList;
import java.util.List;

/**
 * A mount-heavy program for benchmarks: {@code threads} virtual threads (default 4) each yield
 * {@code rounds} times (default 100000) with a little work between, every yield an unmount and a
 * mount. Prints {@code yields N ms T}.
 */
public class YieldLoop {
    static long step(long x) {
        return x * 6364136223846793005L + 1442695040888963407L;
    }

    public static void main(String[] args) throws Exception {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 4;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 100_000;
        long[] sink = new long[threads];
        long t0 = System.nanoTime();
        List<Thread> started = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int me = t;
            started.add(Thread.ofVirtual().start(() -> {
                long x = me;
                for (int r = 0; r < rounds; r++) {
                    for (int i = 0; i < 20; i++) {
                        x = step(x);
                    }
                    Thread.yield();
                }
                sink[me] = x;
            }));
        }
        for (Thread t : started) {
            t.join();
        }
        long ms = (System.nanoTime() - t0) / 1_000_000;
        long s = 0;
        for (long v : sink) {
            s ^= v;
        }
        System.out.println("yields " + (long) threads * rounds + " ms " + ms + " check " + (s & 0xff));
    }
}
