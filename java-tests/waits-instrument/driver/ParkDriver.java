package driver;

import java.util.concurrent.locks.LockSupport;

/**
 * Runs each of LockSupport's six park methods once on the watched thread (each returns at once
 * or within a millisecond: a permit is given before the untimed ones), then prints what the
 * stand-in for the agent's natives logged.
 */
public class ParkDriver {
    public static void main(String[] args) throws Exception {
        Class<?> probe = Class.forName("java.lang.ParkProbe");
        Thread me = Thread.currentThread();
        probe.getMethod("watch", Thread.class).invoke(null, me);
        Object blocker = new StringBuilder();
        LockSupport.unpark(me);
        LockSupport.park();
        LockSupport.unpark(me);
        LockSupport.park(blocker);
        LockSupport.parkNanos(1_000_000L);
        LockSupport.parkNanos(blocker, 1_000_000L);
        LockSupport.parkUntil(System.currentTimeMillis() + 1);
        LockSupport.parkUntil(blocker, System.currentTimeMillis() + 1);
        probe.getMethod("watch", Thread.class).invoke(null, (Thread) null);
        System.out.println(probe.getMethod("log").invoke(null));
    }
}
