package calls;

/**
 * Waits with known times: "timed" waits 300 ms on a Monitor and times out; "notified" waits without
 * a timeout and is notified by main after 500 ms.
 */
public class WaitNotify {
    static final class Monitor {}

    static final Monitor M = new Monitor();
    static boolean ready;

    static void timedWait() {
        synchronized (M) {
            try {
                M.wait(300);
            } catch (InterruptedException e) {
                throw new RuntimeException(e);
            }
        }
    }

    static void waitForSignal() {
        synchronized (M) {
            while (!ready) {
                try {
                    M.wait();
                } catch (InterruptedException e) {
                    throw new RuntimeException(e);
                }
            }
        }
    }

    static void signal() {
        synchronized (M) {
            ready = true;
            M.notifyAll();
        }
    }

    static final class Waiter extends Thread {
        final boolean timed;

        Waiter(String name, boolean timed) {
            super(name);
            this.timed = timed;
        }

        @Override
        public void run() {
            if (timed) timedWait(); else waitForSignal();
        }
    }

    public static void main(String[] args) throws Exception {
        Thread timed = new Waiter("timed", true);
        timed.start();
        timed.join();
        Thread notified = new Waiter("notified", false);
        notified.start();
        Thread.sleep(500);
        signal();
        notified.join();
        System.out.println("waits done");
    }
}
