package phases;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Known busy phases and sleeps, for quantum traces of OS threads: {@code QuantumPhases THREADS
 * ROUNDS BUSY_MS SLEEP_MS} runs THREADS workers, each ROUNDS rounds of BUSY_MS spinning then
 * SLEEP_MS asleep, between {@code hpmagent.Trace} run markers. At its end each worker prints its
 * kernel thread id and the time the kernel says it ran ({@code /proc/thread-self/stat} and
 * {@code schedstat}: {@code worker TID ran NS}), for a test to compare with the trace.
 */
public class QuantumPhases {
    static volatile long sink;

    public static void main(String[] args) throws Exception {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 2;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        long busyMs = args.length > 2 ? Long.parseLong(args[2]) : 30;
        long sleepMs = args.length > 3 ? Long.parseLong(args[3]) : 20;
        hpmagent.Trace.runStart(1, "phases");
        Thread[] ts = new Thread[threads];
        for (int i = 0; i < threads; i++) {
            ts[i] = new Thread(() -> work(rounds, busyMs, sleepMs), "phases-" + i);
            ts[i].start();
        }
        for (Thread t : ts) t.join();
        hpmagent.Trace.runComplete(1, "phases");
        System.out.println("phases done");
    }

    static void work(int rounds, long busyMs, long sleepMs) {
        try {
            for (int r = 0; r < rounds; r++) {
                long end = System.nanoTime() + busyMs * 1_000_000;
                long x = r;
                while (System.nanoTime() < end) x = x * 31 + 7;
                sink = x;
                Thread.sleep(sleepMs);
            }
            String stat = Files.readString(Path.of("/proc/thread-self/stat"));
            String tid = stat.substring(0, stat.indexOf(' '));
            String ran = Files.readString(Path.of("/proc/thread-self/schedstat")).trim().split(" ")[0];
            synchronized (QuantumPhases.class) {
                System.out.println("worker " + tid + " ran " + ran);
            }
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }
}
