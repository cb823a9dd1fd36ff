package itest;

/** try/finally and nested handlers: the method's own handlers keep precedence over the catch-all. */
public class Finally {
    static int sink;

    public static void scenario() {
        sink = fin(1);
        try {
            sink = fin(0);
        } catch (IllegalStateException e) {
            sink = -1;
        }
        sink = nested(0) + nested(1);
        sink = finallyReturns(5);
    }

    static int fin(int n) {
        try {
            if (n > 0) {
                return inner(n);
            }
            throw new IllegalStateException("fin");
        } finally {
            cleanup();
        }
    }

    static int nested(int n) {
        try {
            try {
                if (n == 0) {
                    throw new IllegalArgumentException();
                }
                return 1;
            } finally {
                cleanup();
            }
        } catch (IllegalArgumentException e) {
            return 2;
        }
    }

    @SuppressWarnings("finally")
    static int finallyReturns(int n) {
        try {
            throw new IllegalStateException();
        } finally {
            return inner(n);
        }
    }

    static int inner(int n) {
        return n;
    }

    static void cleanup() {}
}
