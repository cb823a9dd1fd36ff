package calls.counters;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * Short visits of known cost, each well under the sampler's 1 ms CPU period: spin() uses 300 µs of
 * the thread's CPU per call and nap() sleeps 2 ms, 100 and 20 times, alternating. The program
 * measures each call from its caller (thread CPU time around spin(), System.nanoTime() around
 * nap()) and prints the sums as "spin-cpu-ns N" and "nap-wall-ns N", for the test to compare with
 * the base of each method's context when the agent reads the metrics at every entry and exit.
 * It times an empty call the same way ("empty-cpu-ns N", 100 calls): what a measurement from the
 * caller adds to the callee's own cost (its clock reads, half of each probe), which the test takes
 * off both sides.
 */
public class Visits {
    static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();
    static volatile long sink;

    static void spin() {
        long end = MX.getCurrentThreadCpuTime() + 300_000;
        long x = 0;
        while (MX.getCurrentThreadCpuTime() < end) {
            for (int i = 0; i < 100; i++) x = x * 31 + i;
        }
        sink += x;
    }

    static void empty() {}

    static void nap() throws InterruptedException {
        Thread.sleep(2);
    }

    public static void main(String[] args) throws Exception {
        long spinCpu = 0, emptyCpu = 0, napWall = 0;
        for (int i = 0; i < 100; i++) {
            long c0 = MX.getCurrentThreadCpuTime();
            spin();
            spinCpu += MX.getCurrentThreadCpuTime() - c0;
            long e0 = MX.getCurrentThreadCpuTime();
            empty();
            emptyCpu += MX.getCurrentThreadCpuTime() - e0;
            if (i % 5 == 0) {
                long w0 = System.nanoTime();
                nap();
                napWall += System.nanoTime() - w0;
            }
        }
        System.out.println("spin-cpu-ns " + spinCpu);
        System.out.println("empty-cpu-ns " + emptyCpu);
        System.out.println("nap-wall-ns " + napWall);
    }
}
