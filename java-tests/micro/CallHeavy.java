/**
 * A call-heavy micro-benchmark: static recursion, virtual calls through a class hierarchy,
 * interface calls and small accessors. Usage: CallHeavy [scale]
 */
public class CallHeavy {
    interface Op { int apply(int x); }
    static abstract class Shape { abstract int area(); int twice() { return area() * 2; } }
    static final class Sq extends Shape { final int s; Sq(int s) { this.s = s; } int area() { return s * s; } }
    static final class Rect extends Shape { final int w, h; Rect(int w, int h) { this.w = w; this.h = h; } int area() { return w * h; } }
    static final class Inc implements Op { public int apply(int x) { return x + 1; } }
    static final class Dbl implements Op { public int apply(int x) { return x * 2 % 100003; } }
    private int v;
    int get() { return v; }
    void set(int x) { v = x; }

    static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

    public static void main(String[] args) {
        int scale = args.length > 0 ? Integer.parseInt(args[0]) : 1;
        long total = 0;
        for (int rep = 0; rep < scale; rep++) {
            total += fib(27);
            Shape[] shapes = { new Sq(3), new Rect(2, 5), new Sq(7), new Rect(4, 4) };
            for (int i = 0; i < 300000; i++) total += shapes[i & 3].twice();
            Op[] ops = { new Inc(), new Dbl() };
            int x = 1;
            for (int i = 0; i < 300000; i++) x = ops[i & 1].apply(x);
            total += x;
            CallHeavy c = new CallHeavy();
            for (int i = 0; i < 300000; i++) c.set(c.get() + i % 7);
            total += c.get();
        }
        System.out.println("total " + total);
    }
}
