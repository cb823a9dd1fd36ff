package calls;

import java.lang.reflect.Field;

/**
 * Where the probes keep each thread's call tree (agent/tests/probes.rs): whether java.lang.Thread
 * has the field the agent adds at its load, and, for main and a worker thread after probed calls,
 * whether that field holds the thread's Shadow (the object the probes' ThreadLocal holds too).
 * Needs --add-opens java.base/java.lang=ALL-UNNAMED. Lines: {@code field yes|no} and
 * {@code THREAD same|other|null calls=N}.
 */
public class ThreadField {
    static int leaf(int i) {
        return i + 1;
    }

    static int work(int n) {
        int s = 0;
        for (int i = 0; i < n; i++) {
            s += leaf(i);
        }
        return s;
    }

    static void report(Field field) throws Exception {
        int sum = work(1000);
        String name = Thread.currentThread().getName();
        if (field == null) {
            System.out.println(name + " calls=" + sum);
            return;
        }
        Class<?> probe = Class.forName("hpmagent.probe.Probe", false, null);
        Field tl = probe.getDeclaredField("SHADOW");
        tl.setAccessible(true);
        Object viaThreadLocal = ((ThreadLocal<?>) tl.get(null)).get();
        Object viaField = field.get(Thread.currentThread());
        String how = viaField == null ? "null" : viaField == viaThreadLocal ? "same" : "other";
        System.out.println(name + " " + how + " calls=" + sum);
    }

    public static void main(String[] args) throws Exception {
        Field field = null;
        try {
            field = Thread.class.getDeclaredField("hpmagent$shadow");
            field.setAccessible(true);
            System.out.println("field yes");
        } catch (NoSuchFieldException e) {
            System.out.println("field no");
        }
        final Field f = field;
        report(f);
        Thread worker = new Thread(() -> {
            try {
                report(f);
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        }, "worker");
        worker.start();
        worker.join();
    }
}
