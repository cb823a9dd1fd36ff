package itest;

/** Exceptions through several frames, recursion unwound by an exception and caught half way. */
public class Throws {
    static int sink;

    public static void scenario() {
        try {
            mid();
        } catch (IllegalStateException e) {
            caught();
        }
    }

    static void mid() {
        low();
    }

    static void low() {
        deep(3);
    }

    static void deep(int n) {
        if (n == 0) {
            throw new IllegalStateException("deep");
        }
        deep(n - 1);
    }

    static void caught() {}

    public static void recursion() {
        sink = rec(8);
    }

    static int rec(int n) {
        if (n == 0) {
            throw new ArithmeticException("bottom");
        }
        if (n == 4) {
            try {
                return rec(n - 1);
            } catch (ArithmeticException e) {
                return -1;
            }
        }
        return rec(n - 1) + 1;
    }

    /** The scenario method itself ends by an exception. */
    public static void escapes() {
        mid();
    }
}
