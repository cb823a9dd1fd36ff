package calls;

/**
 * Deterministic contention: the main thread holds a Lock for 1.5 s while three threads named
 * blocked-1..3 try to enter it (each blocks exactly once, in blocked()).
 */
public class Contention {
    static final class Lock {}

    static final Lock LOCK = new Lock();
    static int counter;

    static void blocked() {
        synchronized (LOCK) {
            counter++;
        }
    }

    static final class Blocked extends Thread {
        Blocked(String name) { super(name); }

        @Override
        public void run() { blocked(); }
    }

    static void hold(Thread[] ts) throws InterruptedException {
        synchronized (LOCK) {
            for (Thread t : ts) t.start();
            Thread.sleep(1500);
        }
    }

    public static void main(String[] args) throws Exception {
        Thread[] ts = new Thread[3];
        for (int i = 0; i < 3; i++) {
            ts[i] = new Blocked("blocked-" + (i + 1));
        }
        hold(ts);
        for (Thread t : ts) t.join();
        System.out.println("contention " + counter);
    }
}
