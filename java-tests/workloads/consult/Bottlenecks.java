package consult;

/**
 * Three planted bottlenecks for a bottleneck search, each in a phase of its own between
 * {@code hpmagent.Trace} notes: {@code compute} spends its CPU time in {@code hot()}, four calls
 * deep under {@code compute()}; {@code contend} runs four threads that take turns on one monitor
 * (a {@code Ledger}) and do their work inside it; {@code allocate} allocates short-lived arrays
 * fast enough to keep the collector busy (the last 8,192 live on, so that each young collection
 * copies them). {@code Bottlenecks MS [ROUNDS]} gives each phase MS milliseconds (default 1500)
 * and runs the three ROUNDS times (default 1; 0: until killed, as a server would).
 */
public class Bottlenecks {
    static volatile long sink;

    static final class Ledger {
        long total;
    }

    static final Ledger LEDGER = new Ledger();

    static long hot(long x) {
        for (int i = 0; i < 1000; i++) x = x * 6364136223846793005L + 1442695040888963407L;
        return x;
    }

    static long inner(long x) { return hot(x) ^ hot(x + 1); }

    static long middle(long x) { return inner(x) + 1; }

    static long outer(long x) { return middle(x) - 1; }

    static void compute(long ms) {
        long end = System.nanoTime() + ms * 1_000_000L, x = 1;
        while (System.nanoTime() < end) x = outer(x);
        sink = x;
    }

    static void book(long ms) {
        long end = System.nanoTime() + ms * 1_000_000L;
        while (System.nanoTime() < end) {
            synchronized (LEDGER) {
                long x = LEDGER.total;
                for (int i = 0; i < 20_000; i++) x = x * 31 + i;
                LEDGER.total = x;
            }
        }
    }

    static void contend(long ms) throws InterruptedException {
        Thread[] ts = new Thread[4];
        for (int i = 0; i < ts.length; i++) {
            ts[i] = new Thread(() -> book(ms), "booker-" + i);
            ts[i].start();
        }
        for (Thread t : ts) t.join();
    }

    /** Arrays that live a while: each young collection copies the recent ones. */
    static final long[][] RECENT = new long[8192][];

    static void allocate(long ms) {
        long end = System.nanoTime() + ms * 1_000_000L, n = 0;
        int at = 0;
        while (System.nanoTime() < end) {
            for (int i = 0; i < 1000; i++) {
                long[] a = new long[256 + (i & 255)];
                RECENT[at++ & (RECENT.length - 1)] = a;
                n += a.length;
            }
        }
        sink = n;
    }

    public static void main(String[] args) throws Exception {
        long ms = args.length > 0 ? Long.parseLong(args[0]) : 1500;
        long rounds = args.length > 1 ? Long.parseLong(args[1]) : 1;
        for (long r = 0; rounds == 0 || r < rounds; r++) {
            hpmagent.Trace.note("compute");
            compute(ms);
            hpmagent.Trace.note("contend");
            contend(ms);
            hpmagent.Trace.note("allocate");
            allocate(ms);
        }
        hpmagent.Trace.note("done");
        System.out.println("bottlenecks done " + sink);
    }
}
