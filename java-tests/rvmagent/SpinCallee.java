/** Two threads spin in {@code spin()} (loops with backward-branch yieldpoints) long enough to be
 * preempted many times; the agent tests check the callee/caller of those switches. */
public class SpinCallee {
    static volatile long sink;

    static long spin(long nanos) {
        long end = System.nanoTime() + nanos;
        long x = 0;
        while (true) {
            for (int i = 0; i < 20000; i++) {
                x += i ^ (x >>> 3);
            }
            if (System.nanoTime() > end) {
                return x;
            }
        }
    }

    public static void main(String[] args) throws InterruptedException {
        Thread t = new Thread(new Runnable() {
            public void run() {
                sink = spin(300_000_000L);
            }
        }, "spinner");
        t.start();
        sink = spin(300_000_000L);
        t.join();
        System.out.println("done");
    }
}
