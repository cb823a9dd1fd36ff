/**
 * Shutdown hooks run by System.exit: every registered hook, each on its own thread, before the
 * program ends with the exit code; a removed hook does not run; registering twice, a running
 * thread, and registering or removing during shutdown are refused as on the JDK.
 */
public class LibShutdownHooks {
    public static void main(String[] args) throws Exception {
        Runtime rt = Runtime.getRuntime();
        Object lock = new Object();
        int[] ran = new int[1];
        Thread a = new Thread(() -> {
            synchronized (lock) {
                ran[0]++;
            }
            System.out.println("hook a on " + Thread.currentThread().getName());
            try {
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {}));
            } catch (IllegalStateException e) {
                System.out.println("hook a: add during shutdown: " + e.getMessage());
            }
            try {
                Runtime.getRuntime().removeShutdownHook(Thread.currentThread());
            } catch (IllegalStateException e) {
                System.out.println("hook a: remove during shutdown: " + e.getMessage());
            }
        }, "hook-a");
        Thread b = new Thread(() -> System.out.println("hook b (removed) ran"), "hook-b");
        rt.addShutdownHook(a);
        rt.addShutdownHook(b);
        try {
            rt.addShutdownHook(a);
        } catch (IllegalArgumentException e) {
            System.out.println("again: " + e.getMessage());
        }
        System.out.println("removed b: " + rt.removeShutdownHook(b) + ", again: " + rt.removeShutdownHook(b));
        Thread running = new Thread(() -> {
            synchronized (lock) {
                try {
                    lock.wait();
                } catch (InterruptedException e) {
                    // ends
                }
            }
        });
        running.setDaemon(true);
        running.start();
        try {
            rt.addShutdownHook(running);
        } catch (IllegalArgumentException e) {
            System.out.println("running: " + e.getMessage());
        }
        try {
            rt.addShutdownHook(null);
        } catch (NullPointerException e) {
            System.out.println("null: NullPointerException");
        }
        System.out.println("exiting");
        System.exit(3);
        System.out.println("not reached");
    }
}
