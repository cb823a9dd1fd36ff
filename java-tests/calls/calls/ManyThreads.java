package calls;

/** 200 short-lived threads short-000..short-199, each calling task() once; 20 run at a time. */
public class ManyThreads {
    static volatile long sink;

    // synchronized: the sum printed at the end is then the same on every run and VM (the tests compare it)
    static synchronized void task(int i) { sink += i; }

    static final class Short extends Thread {
        final int i;

        Short(int i) {
            super(String.format("short-%03d", i));
            this.i = i;
        }

        @Override
        public void run() { task(i); }
    }

    public static void main(String[] args) throws Exception {
        for (int batch = 0; batch < 10; batch++) {
            Thread[] ts = new Thread[20];
            for (int j = 0; j < 20; j++) {
                ts[j] = new Short(batch * 20 + j);
                ts[j].start();
            }
            for (Thread t : ts) t.join();
        }
        System.out.println("many threads " + sink);
    }
}
