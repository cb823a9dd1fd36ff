package waits;

import java.util.concurrent.locks.LockSupport;

/**
 * A park-heavy benchmark: two threads hand a turn back and forth, each parking
 * ({@code LockSupport.park(blocker)}) until the other gives it the turn and unparks it, for the
 * cost of the agent's park wrappers. Prints the best round's time per hand-over and the parks
 * per hand-over. Arguments: hand-overs (default 200000), rounds (default 5).
 */
public class ParkBench {
    static volatile int turn;
    static volatile long parks;

    static void await(int me, Object blocker) {
        long p = 0;
        while (turn != me) {
            LockSupport.park(blocker);
            p++;
        }
        parks += p;
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        double best = Double.MAX_VALUE;
        double parksPer = 0;
        Object blocker = new Object();
        for (int r = 0; r < rounds; r++) {
            turn = 0;
            parks = 0;
            Thread main = Thread.currentThread();
            Thread other = new Thread(() -> {
                for (int i = 0; i < n; i++) {
                    await(1, blocker);
                    turn = 0;
                    LockSupport.unpark(main);
                }
            }, "pong");
            other.start();
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                turn = 1;
                LockSupport.unpark(other);
                await(0, blocker);
            }
            long ns = System.nanoTime() - t0;
            other.join();
            double per = (double) ns / (2.0 * n);
            if (per < best) {
                best = per;
                parksPer = parks / (2.0 * n);
            }
        }
        System.out.printf("ns per hand-over %.0f, parks per hand-over %.2f%n", best, parksPer);
    }
}
