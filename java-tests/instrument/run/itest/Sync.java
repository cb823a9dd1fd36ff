package itest;

/** synchronized methods and blocks left by exceptions: the monitor must be released. */
public class Sync {
    int x;

    synchronized int syncThrow(int v) {
        if (v > 0) {
            throw new IllegalStateException("sync");
        }
        return x + v;
    }

    static void block(Object o, boolean fail) {
        synchronized (o) {
            if (fail) {
                throw new IllegalStateException("block");
            }
        }
    }

    public static void scenario() {
        Sync s = new Sync();
        try {
            s.syncThrow(1);
        } catch (IllegalStateException e) {
            s.x = 1;
        }
        if (Thread.holdsLock(s)) {
            throw new AssertionError("monitor still held after synchronized method threw");
        }
        s.x = s.syncThrow(0);
        try {
            block(s, true);
        } catch (IllegalStateException e) {
            s.x = 2;
        }
        if (Thread.holdsLock(s)) {
            throw new AssertionError("monitor still held after synchronized block threw");
        }
        block(s, false);
    }
}
