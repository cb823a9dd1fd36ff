package calls.counters;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * Many calls of a tiny method of known work: tiny() runs K loop iterations. inline() runs the same
 * iterations without the call (no method events inside); its CPU time per iteration block is the
 * true cost of tiny()'s body, printed as "inline-ns-per-call N" for the test to compare with the
 * profile's base of tiny() per call, compensated and raw.
 */
public class Tiny {
    static final int K = 100;
    static volatile long sink;

    static long tiny(long x) {
        for (int i = 0; i < K; i++) x = x * 31 + i;
        return x;
    }

    static void calls(int n) {
        long x = 0;
        for (int i = 0; i < n; i++) x = tiny(x);
        sink += x;
    }

    static void inline(int n) {
        long x = 0;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < K; j++) x = x * 31 + j;
        }
        sink += x;
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        inline(n / 10);
        calls(n / 10);
        long best = Long.MAX_VALUE;
        for (int r = 0; r < 5; r++) {
            long t0 = mx.getCurrentThreadCpuTime();
            inline(n);
            best = Math.min(best, mx.getCurrentThreadCpuTime() - t0);
        }
        calls(n);
        System.out.println("inline-ns-per-call " + (double) best / n);
    }
}
