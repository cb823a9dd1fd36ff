package phases;

/**
 * Two phases for the explorer's sample timeline: {@code SampledPhases MS} computes in
 * {@code alpha()} for MS milliseconds (default 600), then in {@code beta()} for as long, each
 * after an {@code hpmagent.Trace} note ("alpha", "beta"; "done" at the end). Then a thread named
 * {@code waiter} contends for a monitor main holds and waits on it, main allocates, and sorts
 * arrays for MS/2 milliseconds (time in the JDK's {@code java.util.Arrays.sort}, under
 * {@code sortAll}), so a run that records stack samples, allocation samples, locks and waits has a
 * tree of each, and one that records the JDK's frames ({@code include=*}) has some.
 */
public class SampledPhases {
    static volatile long sink;
    static final Object LOCK = new Object();

    static long spin(long ms, long x) {
        long end = System.nanoTime() + ms * 1_000_000L;
        while (System.nanoTime() < end) {
            for (int i = 0; i < 1000; i++) x = x * 6364136223846793005L + 1442695040888963407L;
        }
        return x;
    }

    static long alpha(long ms) { return spin(ms, 1); }

    static long beta(long ms) { return spin(ms, 2); }

    static void waiter() {
        synchronized (LOCK) {
            try {
                LOCK.wait(100);
            } catch (InterruptedException e) {
                throw new RuntimeException(e);
            }
        }
    }

    static long allocate() {
        long n = 0;
        for (int i = 0; i < 2000; i++) n += new byte[64 * 1024].length;
        return n;
    }

    static long sortAll(long ms) {
        long end = System.nanoTime() + ms * 1_000_000L, n = 0;
        java.util.Random r = new java.util.Random(1);
        int[] a = new int[100_000];
        while (System.nanoTime() < end) {
            for (int i = 0; i < a.length; i++) a[i] = r.nextInt();
            java.util.Arrays.sort(a);
            n += a[0];
        }
        return n;
    }

    public static void main(String[] args) throws Exception {
        long ms = args.length > 0 ? Long.parseLong(args[0]) : 600;
        hpmagent.Trace.note("alpha");
        sink += alpha(ms);
        hpmagent.Trace.note("beta");
        sink += beta(ms);
        hpmagent.Trace.note("done");
        Thread w = new Thread(SampledPhases::waiter, "waiter");
        synchronized (LOCK) {
            w.start();
            Thread.sleep(100);
        }
        w.join();
        sink += allocate();
        sink += sortAll(ms / 2);
        System.out.println("phases " + sink);
    }
}
