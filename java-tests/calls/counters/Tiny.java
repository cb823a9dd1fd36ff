package calls.counters;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * Many calls of a tiny method of known work: tiny() runs K loop iterations. inline() runs the same
 * iterations without the call (no method events inside); its CPU time per iteration block is the
 * true cost of tiny()'s body, printed as "inline-ns-per-call N" for the test to compare with the
 * profile's base of tiny() per call (context main → calls → tiny), compensated and raw.
 *
 * Arguments: N calls per round, R rounds (default 1). Each round times inline(N) and then makes
 * N calls, so the truth and the profiled calls share whatever load the machine has; the truth is
 * the mean over the rounds. The warm-up runs under warm(), outside the measured context.
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

    static void warm(int n) {
        inline(n);
        calls(n);
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        warm(n / 10);
        long inlineNs = 0;
        for (int r = 0; r < rounds; r++) {
            long t0 = mx.getCurrentThreadCpuTime();
            inline(n);
            inlineNs += mx.getCurrentThreadCpuTime() - t0;
            calls(n);
        }
        System.out.println("inline-ns-per-call " + (double) inlineNs / ((double) n * rounds));
    }
}
