package itest;

/** Constructors that return, and that throw before and after super(). */
public class Ctors {
    static class Base {
        int v;

        Base(int v) {
            if (v == 1) {
                throw new IllegalArgumentException("base");
            }
            this.v = v;
        }
    }

    static class Helper {
        final int v;

        Helper(int v) {
            this.v = check(v);
        }
    }

    static class Sub extends Base {
        int f;

        Sub(int v) {
            super(check(v));
            if (v == 2) {
                throw new IllegalStateException("after super");
            }
            f = v;
        }

        Sub(String s) {
            this(Integer.parseInt(s));
        }

        /** Branches before super(), with uninitializedThis on the stack at the join. */
        Sub(boolean b, int k) {
            super(b ? pick(k) : pick(0));
        }

        /** Another object constructed (new, dup, invokespecial) while this is uninitialized. */
        Sub(Helper h, Helper more) {
            super(new Helper(h.v + more.v).v);
        }

        /** A try/catch after super(). */
        Sub(long l) {
            super(0);
            try {
                f = check((int) l);
            } catch (IllegalArgumentException e) {
                f = -1;
            }
        }
    }

    /** Inner class: javac stores this$0 into the uninitialized object before super(). */
    class Inner extends Base {
        Inner(int v) {
            super(check(v));
        }
    }

    static int check(int v) {
        if (v == 3) {
            throw new IllegalArgumentException("before super");
        }
        return v;
    }

    static int pick(int v) {
        return check(v);
    }

    static Object sink;

    public static void normal() {
        sink = new Sub(0);
    }

    public static void throwsAfterSuper() {
        try {
            sink = new Sub(2);
        } catch (IllegalStateException e) {
            sink = e;
        }
    }

    public static void throwsBeforeSuper() {
        try {
            sink = new Sub(3);
        } catch (IllegalArgumentException e) {
            sink = e;
        }
    }

    public static void thisArgumentThrows() {
        try {
            sink = new Sub("x");
        } catch (NumberFormatException e) {
            sink = e;
        }
    }

    /** The exception comes out of the super constructor itself: see the crate docs. */
    public static void superThrows() {
        try {
            sink = new Sub(1);
        } catch (IllegalArgumentException e) {
            sink = e;
        }
    }

    public static void ternary() {
        sink = new Sub(true, 5);
        sink = new Sub(false, 5);
        try {
            sink = new Sub(true, 3);
        } catch (IllegalArgumentException e) {
            sink = e;
        }
    }

    public static void nestedNew() {
        sink = new Sub(new Helper(4), new Helper(5));
        try {
            sink = new Sub(new Helper(1), new Helper(2));
        } catch (IllegalArgumentException e) {
            sink = e;
        }
    }

    public static void tryAfterSuper() {
        sink = new Sub(3L);
    }

    public static void inner() {
        Ctors outer = new Ctors();
        sink = outer.new Inner(4);
        try {
            sink = outer.new Inner(3);
        } catch (IllegalArgumentException e) {
            sink = e;
        }
    }
}
