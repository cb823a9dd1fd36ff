package calls.counters;

import java.util.Arrays;

/**
 * CPU time spread over a few methods that each do microseconds of work per call: a profile whose
 * exact per-context times the probes barely disturb, for comparing sampled trees with exact ones.
 * work() calls middle() (which calls leafA() twice), leafB() (which sorts through the JDK) and
 * leafA(). `Shares ROUNDS THREADS` prints a checksum.
 */
public class Shares {
    static volatile long sink;

    static long leafA(long x) {
        for (int i = 0; i < 4000; i++) x = x * 31 + i;
        return x;
    }

    static long leafB(long x) {
        int[] a = new int[256];
        for (int i = 0; i < a.length; i++) a[i] = (int) (x >>> (i & 31)) ^ i;
        Arrays.sort(a);
        for (int i = 0; i < 3000; i++) x = x * 17 + a[i & 255];
        return x;
    }

    static long middle(long x) {
        for (int i = 0; i < 3000; i++) x = x * 13 + i;
        return leafA(x) + leafA(x + 1);
    }

    static long work(int rounds) {
        long x = 0;
        for (int r = 0; r < rounds; r++) {
            x = middle(x);
            x ^= leafB(x);
            x += leafA(x);
        }
        return x;
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 50_000;
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 2;
        Thread[] ts = new Thread[threads];
        long[] out = new long[threads];
        for (int t = 0; t < threads; t++) {
            final int id = t;
            ts[t] = new Thread(() -> out[id] = work(rounds), "shares-" + t);
            ts[t].start();
        }
        long sum = 0;
        for (int t = 0; t < threads; t++) {
            ts[t].join();
            sum += out[t];
        }
        sink = sum;
        System.out.println("shares " + (sum & 0xffff));
    }
}
