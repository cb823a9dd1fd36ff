package calls;

/**
 * Deterministic contention: the main thread holds a Lock while three threads named blocked-1..3
 * try to enter it (each blocks exactly once, in blocked()), and keeps holding it 1.5 s after all
 * three have reached it, however late a loaded machine starts them.
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
        /** Set just before blocked(): a field write, no call, so the call trees stay the same. */
        volatile boolean arrived;

        Blocked(String name) { super(name); }

        @Override
        public void run() {
            arrived = true;
            blocked();
        }
    }

    static void hold(Blocked[] ts) throws InterruptedException {
        synchronized (LOCK) {
            for (Thread t : ts) t.start();
            for (Blocked t : ts) {
                while (!t.arrived) Thread.sleep(1);
            }
            Thread.sleep(1500);
        }
    }

    public static void main(String[] args) throws Exception {
        Blocked[] ts = new Blocked[3];
        for (int i = 0; i < 3; i++) {
            ts[i] = new Blocked("blocked-" + (i + 1));
        }
        hold(ts);
        for (Thread t : ts) t.join();
        System.out.println("contention " + counter);
    }
}
