package flex;

/**
 * Flexible constructor bodies (JDK 25): statements, branches, loops and a try/catch before super(),
 * all while this is uninitialized. Compiled by the test with JDK 25's javac.
 */
public class Flexible {
    static Object sink;

    static class Base {
        Base(int v) {
            if (v == 1) {
                throw new IllegalArgumentException("base");
            }
        }
    }

    static class Sub extends Base {
        int f;

        Sub(int v) {
            if (v < 0) {
                throw new IllegalArgumentException("negative");
            }
            int w = v;
            while (w > 10) {
                w -= 10;
            }
            super(check(w));
            f = w;
        }

        /** The loop head is the first instruction: a branch to offset 0 in a constructor. */
        Sub(long n) {
            while (n > 0) {
                n = n - 1;
            }
            super(0);
        }

        Sub(String s) {
            int v;
            try {
                v = Integer.parseInt(s);
            } catch (NumberFormatException e) {
                v = 5;
            }
            super(check(v));
        }
    }

    static int check(int v) {
        if (v == 3) {
            throw new IllegalArgumentException("before super");
        }
        return v;
    }

    public static void scenario() {
        sink = new Sub(25);
        sink = new Sub(3L);
        sink = new Sub("x");
        for (int v : new int[] {-1, 13, 2}) {
            try {
                sink = new Sub(v);
            } catch (IllegalArgumentException e) {
                sink = e;
            }
        }
        try {
            sink = new Sub("3");
        } catch (IllegalArgumentException e) {
            sink = e;
        }
    }
}
