package calls;

/** Three named threads with different work: worker-N calls step() N*10 times through work(). */
public class Threads {
    static volatile long sink;

    // synchronized: the sum printed at the end is then the same on every run and VM (the tests compare it)
    static synchronized void step(int i) { sink += i; }

    static void work(int n) {
        for (int i = 0; i < n * 10; i++) {
            step(i);
        }
    }

    static final class Worker extends Thread {
        final int n;

        Worker(int n) {
            super("worker-" + n);
            this.n = n;
        }

        @Override
        public void run() { work(n); }
    }

    public static void main(String[] args) throws Exception {
        Thread[] ts = new Thread[3];
        for (int k = 1; k <= 3; k++) {
            ts[k - 1] = new Worker(k);
        }
        for (Thread t : ts) t.start();
        for (Thread t : ts) t.join();
        System.out.println("threads " + sink);
    }
}
