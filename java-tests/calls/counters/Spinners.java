package calls.counters;

import java.util.concurrent.CountDownLatch;

/**
 * Four threads "spinner-0".."spinner-3" burn different, known amounts of CPU in work() (calls of
 * step()), then all park on a latch. Main prints "ready" once they all finished their work and waits
 * for a line on stdin (the test reads /proc and asks for a dump meanwhile), then releases them.
 */
public class Spinners {
    static volatile long sink;

    static long step(long x) {
        for (int i = 0; i < 200; i++) x = x * 31 + i;
        return x;
    }

    static void work(int steps) {
        long x = 0;
        for (int i = 0; i < steps; i++) x = step(x);
        sink += x;
    }

    public static void main(String[] args) throws Exception {
        int base = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        CountDownLatch done = new CountDownLatch(4);
        CountDownLatch release = new CountDownLatch(1);
        Thread[] ts = new Thread[4];
        for (int t = 0; t < 4; t++) {
            final int steps = base * (t + 1);
            ts[t] = new Thread(() -> {
                work(steps);
                done.countDown();
                try { release.await(); } catch (InterruptedException e) { }
            }, "spinner-" + t);
            ts[t].start();
        }
        done.await();
        System.out.println("ready");
        System.out.flush();
        System.in.read();
        release.countDown();
        for (Thread t : ts) t.join();
    }
}
