package itest;

/**
 * Exception handlers of every kind javac emits, for the caught and thrown probes: catch, multi-catch,
 * finally run by an exception, synchronized blocks, nested handlers, and constructors whose super(...)
 * call throws (no exit event for them: the caller's caught probe closes them).
 */
public class Handlers {
    static Object sink;
    static final Object LOCK = new Object();

    static class Base {
        Base(int v) {
            if (v < 0) {
                throw new IllegalArgumentException("base");
            }
        }
    }

    static class Derived extends Base {
        Derived(int v) {
            super(v);
        }
    }

    static class Derived2 extends Derived {
        Derived2(int v) {
            super(v);
        }
    }

    static void after() {}

    static void boom() {
        throw new IllegalStateException("boom");
    }

    /** Derived's super(...) throws: Derived reports no exit, the caller's handler says it is current. */
    public static void superThrows() {
        try {
            sink = new Derived(-1);
        } catch (IllegalArgumentException e) {
            after();
        }
    }

    /** Two constructors left without exit events. */
    public static void superThrowsTwoLevels() {
        try {
            sink = new Derived2(-1);
        } catch (IllegalArgumentException e) {
            after();
        }
        sink = new Derived2(1);
    }

    public static void catchAndFinally() {
        for (int i = 0; i < 2; i++) {
            try {
                if (i == 1) {
                    boom();
                }
                after();
            } catch (IllegalStateException e) {
                after();
            } finally {
                after();
            }
        }
    }

    /** The finally handler (catch type 0) runs, then the outer catch. */
    public static void finallyRethrows() {
        try {
            try {
                boom();
            } finally {
                after();
            }
        } catch (IllegalStateException e) {
            after();
        }
    }

    static void leaky() {
        try {
            boom();
        } finally {
            after();
        }
    }

    /** leaky's finally handler runs, then leaky exits by exception. */
    public static void escapesThroughFinally() {
        try {
            leaky();
        } catch (IllegalStateException e) {
            sink = e;
        }
    }

    /** The synchronized block's any-handler (it covers itself) releases the monitor and rethrows. */
    public static void syncBlock() {
        try {
            synchronized (LOCK) {
                boom();
            }
        } catch (IllegalStateException e) {
            sink = e;
        }
        if (Thread.holdsLock(LOCK)) {
            throw new AssertionError("monitor still held");
        }
    }

    public static void multiCatch() {
        for (int i = 0; i < 2; i++) {
            try {
                if (i == 0) {
                    boom();
                }
                sink = new Derived(-1);
            } catch (IllegalStateException | IllegalArgumentException e) {
                sink = e;
            }
        }
    }

    /** A handler inside a handler. */
    public static void nested() {
        try {
            boom();
        } catch (IllegalStateException e) {
            try {
                boom();
            } catch (IllegalStateException f) {
                after();
            }
        }
    }
}
