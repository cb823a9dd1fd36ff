/** Monitor contention on a {@code LockBox} and Object.wait with and without a timeout. */
public class Contend {
    static final class LockBox {
        int count;
    }

    static final LockBox box = new LockBox();

    public static void main(String[] args) throws InterruptedException {
        Thread[] ts = new Thread[3];
        for (int k = 0; k < ts.length; k++) {
            ts[k] = new Thread(new Runnable() {
                public void run() {
                    for (int i = 0; i < 10; i++) {
                        synchronized (box) {
                            box.count++;
                            try {
                                Thread.sleep(2);
                            } catch (InterruptedException e) {
                                throw new RuntimeException(e);
                            }
                        }
                    }
                }
            }, "contender-" + k);
            ts[k].start();
        }
        for (Thread t : ts) t.join();
        // A wait that times out.
        synchronized (box) {
            box.wait(30);
        }
        // A wait ended by notify.
        final Object signal = new Object();
        Thread notifier = new Thread(new Runnable() {
            public void run() {
                try {
                    Thread.sleep(30);
                } catch (InterruptedException e) {
                    throw new RuntimeException(e);
                }
                synchronized (signal) {
                    signal.notifyAll();
                }
            }
        }, "notifier");
        synchronized (signal) {
            notifier.start();
            signal.wait();
        }
        notifier.join();
        System.out.println("count " + box.count);
    }
}
