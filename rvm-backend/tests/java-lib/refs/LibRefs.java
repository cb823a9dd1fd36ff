import java.lang.ref.*;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** Weak and phantom references cleared and enqueued by the collector, and Cleaner's actions. */
public class LibRefs {
    static Object keep;

    public static void main(String[] args) throws Exception {
        ReferenceQueue<Object> q = new ReferenceQueue<>();
        keep = new int[] {1, 2, 3};
        WeakReference<Object> held = new WeakReference<>(keep, q);
        WeakReference<Object> dropped = new WeakReference<>(new int[100], q);
        Object node = new Object[] {new StringBuilder("inner")};
        WeakReference<Object> outer = new WeakReference<>(node);
        WeakReference<Object> inner = new WeakReference<>(((Object[]) node)[0]);
        node = null;
        PhantomReference<Object> phantom = new PhantomReference<>(new Object(), q);
        System.out.println("before: dropped " + (dropped.get() != null) + " phantom get " + phantom.get() + " enqueued " + dropped.isEnqueued());
        System.gc();
        List<String> got = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            Reference<?> r = q.remove(10_000);
            got.add(r == dropped ? "dropped" : r == phantom ? "phantom" : r == held ? "held" : String.valueOf(r));
        }
        got.sort(null);
        System.out.println("enqueued " + got + " then poll " + q.poll());
        System.out.println("after: held " + (held.get() == keep) + " dropped " + dropped.get() + " outer " + outer.get() + " inner " + inner.get()
                + " refersTo(null) " + dropped.refersTo(null) + " enqueued " + dropped.isEnqueued());
        keep = null;
        System.gc();
        System.out.println("held cleared once unreachable: " + (q.remove(10_000) == held) + " " + held.get());

        // a cleaner runs each action once, when its object is unreachable or at clean()
        Cleaner cleaner = Cleaner.create();
        AtomicInteger cleaned = new AtomicInteger();
        for (int i = 0; i < 20; i++) cleaner.register(new byte[64], cleaned::incrementAndGet);
        Object alive = new Object();
        AtomicInteger explicit = new AtomicInteger();
        Cleaner.Cleanable c = cleaner.register(alive, explicit::incrementAndGet);
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (cleaned.get() < 20 && System.nanoTime() < deadline) {
            System.gc();
            Thread.sleep(10);
        }
        System.out.println("cleaned " + cleaned.get() + " explicit before clean " + explicit.get());
        c.clean();
        c.clean();
        System.out.println("explicit after two cleans " + explicit.get() + ", object still here " + (alive != null));
    }
}
