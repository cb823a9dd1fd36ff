import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/** Atomics from many threads at once: every count must come out exact. */
public class JucAtomics {
    static final int THREADS = 8, N = 100_000;

    static final class Node {
        final int value;
        final Node next;
        Node(int value, Node next) {
            this.value = value;
            this.next = next;
        }
    }

    public static void main(String[] args) throws Exception {
        AtomicInteger ai = new AtomicInteger();
        AtomicLong al = new AtomicLong(1L << 40);
        LongAdder adder = new LongAdder();
        AtomicInteger max = new AtomicInteger(Integer.MIN_VALUE);
        AtomicLong casLoop = new AtomicLong();
        AtomicReference<Node> stack = new AtomicReference<>();
        AtomicBoolean flag = new AtomicBoolean();
        AtomicInteger flips = new AtomicInteger();
        Thread[] ts = new Thread[THREADS];
        for (int t = 0; t < THREADS; t++) {
            final int id = t;
            ts[t] = new Thread(() -> {
                for (int i = 0; i < N; i++) {
                    ai.incrementAndGet();
                    al.addAndGet(3);
                    adder.increment();
                    if ((i & 15) == 0) max.accumulateAndGet(id * N + i, Math::max);
                    if ((i & 7) == 0) {
                        long v;
                        do {
                            v = casLoop.get();
                        } while (!casLoop.compareAndSet(v, v + 2));
                    }
                    if ((i & 63) == 0) {
                        Node h;
                        do {
                            h = stack.get();
                        } while (!stack.compareAndSet(h, new Node(id, h)));
                    }
                    if ((i & 31) == 0) {
                        boolean b = flag.get();
                        if (flag.compareAndSet(b, !b)) flips.getAndIncrement();
                    }
                }
            }, "atomics-" + t);
        }
        for (Thread t : ts) t.start();
        for (Thread t : ts) t.join();
        System.out.println("AtomicInteger " + ai.get() + " expected " + THREADS * N);
        System.out.println("AtomicLong " + al.get() + " expected " + ((1L << 40) + 3L * THREADS * N));
        System.out.println("LongAdder " + adder.sum() + " " + adder);
        System.out.println("max " + max.get());
        System.out.println("cas loop " + casLoop.get());
        int[] perThread = new int[THREADS];
        int nodes = 0;
        for (Node n = stack.get(); n != null; n = n.next) {
            perThread[n.value]++;
            nodes++;
        }
        System.out.println("stack nodes " + nodes + " per thread " + java.util.Arrays.toString(perThread));
        System.out.println("flag equals the parity of its flips: " + (((flips.get() & 1) == 1) == flag.get()));

        // Single-threaded API semantics.
        AtomicInteger x = new AtomicInteger(5);
        System.out.println(x.getAndIncrement() + " " + x.incrementAndGet() + " " + x.getAndAdd(10) + " " + x.addAndGet(-3) + " " + x.decrementAndGet() + " " + x.getAndDecrement() + " " + x);
        System.out.println(x.updateAndGet(v -> v * 2) + " " + x.getAndUpdate(v -> v + 1) + " " + x.accumulateAndGet(100, Integer::sum) + " " + x.getAndSet(-1) + " " + x.get());
        System.out.println(x.compareAndSet(-1, 7) + " " + x.compareAndSet(-1, 8) + " " + x.intValue() + " " + x.longValue() + " " + x.doubleValue());
        x.lazySet(42);
        x.set(x.get() + 1);
        System.out.println("lazySet/set " + x);
        AtomicLong y = new AtomicLong(Long.MAX_VALUE);
        System.out.println(y.incrementAndGet() + " " + y.getAndAdd(-1) + " " + y.updateAndGet(v -> v / 2) + " " + y.compareAndSet(Long.MIN_VALUE, 0) + " " + y.accumulateAndGet(7, Long::max));
        AtomicBoolean b = new AtomicBoolean(true);
        System.out.println(b.getAndSet(false) + " " + b.compareAndSet(true, true) + " " + b.compareAndSet(false, true) + " " + b);
        AtomicReference<String> r = new AtomicReference<>("a");
        String a = r.get();
        System.out.println(r.compareAndSet(a, "b") + " " + r.compareAndSet("a", "c") + " " + r.getAndSet("d") + " " + r.updateAndGet(s -> s + "!") + " " + r.accumulateAndGet("?", String::concat) + " " + r);
        AtomicReference<Object> empty = new AtomicReference<>();
        System.out.println("empty " + empty + " " + empty.compareAndSet(null, "set") + " " + empty.get());
        LongAdder la = new LongAdder();
        la.add(10);
        la.decrement();
        System.out.println("adder " + la.sum() + " " + la.sumThenReset() + " " + la.sum() + " " + la.intValue());
    }
}
