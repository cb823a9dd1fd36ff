package itest;

/** Static initialisers, one of which throws. */
public class StaticInit {
    static class Init {
        static final int VALUE = compute();

        static int compute() {
            return 40 + Integer.parseInt("2");
        }
    }

    static class BadInit {
        static final int VALUE = boom();

        static int boom() {
            throw new IllegalStateException("init");
        }
    }

    static int sink;

    public static void scenario() {
        sink = Init.VALUE;
        try {
            sink = BadInit.VALUE;
        } catch (ExceptionInInitializerError e) {
            sink = -1;
        }
    }
}
