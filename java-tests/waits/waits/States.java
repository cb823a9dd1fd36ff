package waits;

import java.util.concurrent.locks.LockSupport;

/**
 * Four threads, each in one state for the whole run (about 1.5 s), for wall-clock samples:
 * {@code sleeper} sleeps, {@code blocked} waits to enter a monitor that {@code holder} keeps
 * (holder waits in {@code Object.wait} on another monitor meanwhile), {@code parker} parks and
 * {@code busy} computes.
 */
public class States {
    static final Object MONITOR = new Object();
    static final Object ELSEWHERE = new Object();
    static volatile boolean done;
    static volatile long sink;

    static void sleepLoop() {
        while (!done) {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    static void hold() {
        synchronized (MONITOR) {
            synchronized (ELSEWHERE) {
                while (!done) {
                    try {
                        ELSEWHERE.wait(50);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }
        }
    }

    static void enter() {
        synchronized (MONITOR) {
            sink++;
        }
    }

    static void parkLoop() {
        while (!done) {
            LockSupport.parkNanos(50_000_000L);
        }
    }

    static void spin() {
        long x = 1;
        while (!done) {
            for (int i = 0; i < 100_000; i++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
            sink = x;
        }
    }

    public static void main(String[] args) throws Exception {
        long ms = args.length > 0 ? Long.parseLong(args[0]) : 1500;
        Thread holder = new Thread(States::hold, "holder");
        holder.start();
        while (holder.getState() != Thread.State.TIMED_WAITING) {
            Thread.sleep(1);
        }
        Thread[] all = {
            new Thread(States::sleepLoop, "sleeper"),
            new Thread(States::enter, "blocked"),
            new Thread(States::parkLoop, "parker"),
            new Thread(States::spin, "busy"),
        };
        for (Thread t : all) {
            t.start();
        }
        Thread.sleep(ms);
        done = true;
        for (Thread t : all) {
            t.join();
        }
        holder.join();
        System.out.println("states done");
    }
}
