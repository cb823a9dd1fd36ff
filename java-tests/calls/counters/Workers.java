package calls.counters;

import java.util.function.IntToLongFunction;

/** Runs the same work on N threads named PREFIX-0 … PREFIX-(N-1) and sums what they return. */
final class Workers {
    private Workers() {}

    static long run(int threads, String prefix, IntToLongFunction work) throws InterruptedException {
        Thread[] ts = new Thread[threads];
        long[] out = new long[threads];
        for (int t = 0; t < threads; t++) {
            final int id = t;
            ts[t] = new Thread(() -> out[id] = work.applyAsLong(id), prefix + "-" + t);
            ts[t].start();
        }
        long sum = 0;
        for (int t = 0; t < threads; t++) {
            ts[t].join();
            sum += out[t];
        }
        return sum;
    }
}
