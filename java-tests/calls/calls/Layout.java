package calls;

import java.lang.reflect.Field;

/**
 * Where each thread's probe state is, for the false-sharing test (agent/tests/probes.rs): two
 * worker threads run probed code at once, each then prints its own Shadow's native context cell
 * (an address) and the lengths of its arrays; main prints the lowest and highest offset of
 * Shadow's instance fields. Once more after a full GC, which copies the Shadows next to each
 * other. Lines: {@code shadow WORKER ROUND cell=ADDR parent=N calls=N hints=N} and
 * {@code fields first=OFFSET last=OFFSET}.
 */
public class Layout {
    static int depth(int n) {
        return n == 0 ? 0 : 1 + depth(n - 1);
    }

    static Object shadowOfThisThread() throws Exception {
        Class<?> probe = Class.forName("hpmagent.probe.Probe", false, null);
        Field f = probe.getDeclaredField("SHADOW");
        f.setAccessible(true);
        return ((ThreadLocal<?>) f.get(null)).get();
    }

    static long longField(Object o, String name) throws Exception {
        Field f = o.getClass().getDeclaredField(name);
        f.setAccessible(true);
        return f.getLong(o);
    }

    static int length(Object o, String name) throws Exception {
        Field f = o.getClass().getDeclaredField(name);
        f.setAccessible(true);
        return java.lang.reflect.Array.getLength(f.get(o));
    }

    static void report(String worker, int round) throws Exception {
        Object s = shadowOfThisThread();
        System.out.println("shadow " + worker + " " + round + " cell=" + longField(s, "cell") + " parent=" + length(s, "parent")
                + " calls=" + length(s, "calls") + " hints=" + length(s, "hints"));
    }

    public static void main(String[] args) throws Exception {
        for (int round = 0; round < 2; round++) {
            final int r = round;
            Thread[] ts = new Thread[2];
            java.util.concurrent.CyclicBarrier both = new java.util.concurrent.CyclicBarrier(2);
            for (int w = 0; w < 2; w++) {
                final String name = "worker" + w;
                ts[w] = new Thread(() -> {
                    try {
                        both.await(); // both threads alive at once
                        for (int i = 0; i < 1000; i++) {
                            depth(50);
                        }
                        report(name, r);
                        both.await();
                    } catch (Exception e) {
                        throw new RuntimeException(e);
                    }
                });
                ts[w].start();
            }
            for (Thread t : ts) {
                t.join();
            }
            System.gc();
        }
        Field uf = Class.forName("sun.misc.Unsafe").getDeclaredField("theUnsafe");
        uf.setAccessible(true);
        sun.misc.Unsafe u = (sun.misc.Unsafe) uf.get(null);
        long first = Long.MAX_VALUE;
        long last = 0;
        for (Field f : Class.forName("hpmagent.probe.Probe$Shadow", false, null).getDeclaredFields()) {
            if (java.lang.reflect.Modifier.isStatic(f.getModifiers())) {
                continue;
            }
            long off = u.objectFieldOffset(f);
            first = Math.min(first, off);
            last = Math.max(last, off);
        }
        System.out.println("fields first=" + first + " last=" + last);
    }
}
