/** Thousands of short-lived threads, started in waves, each joined. */
public class ManyThreads {
    public static void main(String[] args) throws Exception {
        final long[] results = new long[3000];
        for (int wave = 0; wave < 60; wave++) {
            Thread[] ts = new Thread[50];
            for (int k = 0; k < ts.length; k++) {
                final int id = wave * 50 + k;
                ts[k] = new Thread(new Runnable() {
                    public void run() {
                        long s = id;
                        int[] junk = new int[256];
                        for (int i = 0; i < 200; i++) { s = s * 31 + i; junk[i & 255] = (int) s; }
                        results[id] = s ^ junk[id & 255];
                    }
                });
                ts[k].start();
            }
            for (Thread t : ts) t.join();
        }
        long sum = 0;
        for (long r : results) sum += r;
        System.out.println("threads 3000 sum " + sum + " alive " + Thread.currentThread().isAlive());
    }
}
