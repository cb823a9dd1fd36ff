package calls;

import java.util.function.IntSupplier;

/**
 * Every kind of method exit, for comparing bytecode probes with JVMTI method events: exceptions
 * through several frames, constructors that throw before and after super(), finally blocks, static
 * initialisers (one that fails), lambdas, switches, synchronized methods, recursion unwound by an
 * exception. Deterministic: the same calls on every run.
 */
public class Exits {
    static int sink;

    static class Base {
        final int v;

        Base(int v) {
            if (v < 0) {
                throw new IllegalArgumentException("negative");
            }
            this.v = v;
        }
    }

    /** Throws before super() (while evaluating its argument) or after it. */
    static class Derived extends Base {
        Derived(int v, boolean failAfter) {
            super(check(v));
            if (failAfter) {
                throw new IllegalStateException("after super");
            }
        }

        static int check(int v) {
            if (v == 13) {
                throw new IllegalArgumentException("before super");
            }
            return v;
        }
    }

    static class Init {
        static final int VALUE = compute();

        static int compute() {
            return 42;
        }
    }

    static class BadInit {
        static final int VALUE = fail();

        static int fail() {
            throw new RuntimeException("static initialiser fails");
        }
    }

    static void thrower(int depth) {
        if (depth == 0) {
            throw new RuntimeException("deep");
        }
        thrower(depth - 1);
    }

    static int middle(int depth) {
        try {
            thrower(depth);
            return 0;
        } finally {
            sink++;
        }
    }

    static int catcher() {
        try {
            return middle(3);
        } catch (RuntimeException e) {
            return 1;
        }
    }

    static int withFinally(int i) {
        try {
            if (i % 2 == 0) {
                return leaf(i);
            }
            throw new IllegalStateException();
        } catch (IllegalStateException e) {
            return -leaf(i);
        } finally {
            leaf(0);
        }
    }

    static int leaf(int i) {
        return i + 1;
    }

    static int tableSwitch(int i) {
        switch (i) {
            case 0: return leaf(10);
            case 1: return leaf(11);
            case 2: return leaf(12);
            case 3: throw new IllegalArgumentException("three");
            default: return leaf(13);
        }
    }

    static int lookupSwitch(int i) {
        switch (i * 1000) {
            case 0: return leaf(20);
            case 1000: return leaf(21);
            case 100000: return leaf(22);
            default: return leaf(23);
        }
    }

    static synchronized int locked(int i) {
        if (i == 2) {
            throw new IllegalStateException("locked");
        }
        return leaf(i);
    }

    static int recurse(int n) {
        if (n == 0) {
            throw new ArithmeticException("bottom");
        }
        return recurse(n - 1) + 1;
    }

    static int lambdas() {
        IntSupplier a = () -> leaf(1);
        IntSupplier b = () -> {
            throw new UnsupportedOperationException("lambda");
        };
        int s = a.getAsInt();
        try {
            s += b.getAsInt();
        } catch (UnsupportedOperationException e) {
            s++;
        }
        return s;
    }

    static void constructors() {
        sink += new Derived(1, false).v;
        try {
            new Derived(13, false);
        } catch (IllegalArgumentException e) {
            sink++;
        }
        try {
            new Derived(2, true);
        } catch (IllegalStateException e) {
            sink++;
        }
        try {
            new Derived(-1, false);
        } catch (IllegalArgumentException e) {
            // Thrown by the super constructor: the call after the catch belongs to this method.
            sink += leaf(5);
        }
    }

    static void statics() {
        sink += Init.VALUE;
        for (int i = 0; i < 2; i++) {
            try {
                sink += BadInit.VALUE;
            } catch (ExceptionInInitializerError | NoClassDefFoundError e) {
                sink++;
            }
        }
    }

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        for (int r = 0; r < rounds; r++) {
            sink += catcher();
            for (int i = 0; i < 4; i++) {
                sink += withFinally(i);
                try {
                    sink += tableSwitch(i);
                } catch (IllegalArgumentException e) {
                    sink++;
                }
                sink += lookupSwitch(i);
                try {
                    sink += locked(i);
                } catch (IllegalStateException e) {
                    sink++;
                }
            }
            try {
                recurse(20);
            } catch (ArithmeticException e) {
                sink++;
            }
            sink += lambdas();
            constructors();
        }
        statics();
        System.out.println("exits " + sink);
    }
}
