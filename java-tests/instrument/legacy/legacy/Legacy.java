package legacy;

/**
 * Compiled with --release 7 and turned into a version 49 class file without StackMapTable by the test,
 * so that the JVM verifies it with the old inference verifier.
 */
public class Legacy {
    static int sink;

    static class Base {
        Base(int v) {
            if (v == 1) {
                throw new IllegalArgumentException("base");
            }
        }
    }

    static class Sub extends Base {
        Sub(int v) {
            super(check(v));
            if (v == 2) {
                throw new IllegalStateException("after super");
            }
        }

        Sub(boolean b, int k) {
            super(b ? check(k) : 0);
        }
    }

    static int check(int v) {
        if (v == 3) {
            throw new IllegalArgumentException("before super");
        }
        return v;
    }

    public static void exceptions() {
        try {
            mid();
        } catch (IllegalStateException e) {
            sink = -1;
        }
    }

    static void mid() {
        deep(2);
    }

    static void deep(int n) {
        if (n == 0) {
            throw new IllegalStateException("deep");
        }
        deep(n - 1);
    }

    public static void ctors() {
        Object o = new Sub(0);
        for (int v = 2; v <= 3; v++) {
            try {
                o = new Sub(v);
            } catch (RuntimeException e) {
                o = e;
            }
        }
        try {
            o = new Sub(true, 3);
        } catch (RuntimeException e) {
            o = e;
        }
        sink = o.hashCode() & 0;
    }

    public static void finallyAndSwitch() {
        sink = fin(1) + sw(2) + sw(100000) + sw(5);
        try {
            sink = fin(0);
        } catch (IllegalStateException e) {
            sink = -1;
        }
    }

    static int fin(int n) {
        try {
            if (n > 0) {
                return n;
            }
            throw new IllegalStateException();
        } finally {
            sink++;
        }
    }

    static int sw(int k) {
        switch (k) {
            case 1: return 1;
            case 2: return 2;
            case 3: return 3;
            case 100000: return 4;
            default: return 0;
        }
    }

    public static void loopsAndSync() {
        sink = whileAtZero(3);
        Legacy l = new Legacy();
        try {
            l.syncThrow();
        } catch (IllegalStateException e) {
            sink = -1;
        }
        if (Thread.holdsLock(l)) {
            throw new AssertionError("monitor still held");
        }
    }

    static int whileAtZero(int n) {
        while (n > 0) {
            n--;
        }
        return n;
    }

    synchronized void syncThrow() {
        throw new IllegalStateException("sync");
    }
}
