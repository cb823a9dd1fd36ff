import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicLongFieldUpdater;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;

/**
 * Field updaters (as H2's MVStore and many libraries use them): four threads adding through an
 * int, a long and a reference updater, so that lost updates would show; the functional forms; and
 * the errors for a field that is missing, of another type, or not volatile.
 */
public class LibUpdaters {
    volatile int count;
    volatile long total;
    volatile String last = "";
    int plain;
    volatile long wrongType;

    static final AtomicIntegerFieldUpdater<LibUpdaters> COUNT = AtomicIntegerFieldUpdater.newUpdater(LibUpdaters.class, "count");
    static final AtomicLongFieldUpdater<LibUpdaters> TOTAL = AtomicLongFieldUpdater.newUpdater(LibUpdaters.class, "total");
    static final AtomicReferenceFieldUpdater<LibUpdaters, String> LAST = AtomicReferenceFieldUpdater.newUpdater(LibUpdaters.class, String.class, "last");

    public static void main(String[] args) throws Exception {
        LibUpdaters o = new LibUpdaters();
        Thread[] ts = new Thread[4];
        for (int t = 0; t < ts.length; t++) {
            final int id = t;
            ts[t] = new Thread(() -> {
                for (int i = 0; i < 20000; i++) {
                    COUNT.incrementAndGet(o);
                    TOTAL.addAndGet(o, i);
                    String prev;
                    do { prev = LAST.get(o); } while (!LAST.compareAndSet(o, prev, prev.length() < 8 ? prev + id : "" + id));
                    if ((i & 1023) == 0) Thread.yield();
                }
            });
            ts[t].start();
        }
        for (Thread t : ts) t.join();
        System.out.println("count " + o.count + " total " + o.total + " last length " + o.last.length());
        System.out.println("getAndUpdate " + COUNT.getAndUpdate(o, x -> x * 2) + " now " + COUNT.get(o));
        System.out.println("accumulateAndGet " + TOTAL.accumulateAndGet(o, 5, Long::max) + " getAndSet " + TOTAL.getAndSet(o, 7) + " now " + TOTAL.get(o));
        System.out.println("updateAndGet " + LAST.updateAndGet(o, s -> s + "!").endsWith("!"));
        System.out.println("cas wrong expect " + COUNT.compareAndSet(o, -1, 0));
        for (String[] c : new String[][] { { "missing", "int" }, { "total", "int" }, { "plain", "int" }, { "wrongType", "ref" } }) {
            try {
                if (c[1].equals("int")) AtomicIntegerFieldUpdater.newUpdater(LibUpdaters.class, c[0]);
                else AtomicReferenceFieldUpdater.newUpdater(LibUpdaters.class, String.class, c[0]);
                System.out.println(c[0] + ": made");
            } catch (RuntimeException e) {
                System.out.println(c[0] + ": " + e.getClass().getName() + (e.getCause() != null ? " caused by " + e.getCause().getClass().getName() : ""));
            }
        }
    }
}
