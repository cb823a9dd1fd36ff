package calls.counters;

/**
 * Hot code where a stack sample often lands on an instruction that AsyncGetCallTrace cannot start
 * a walk from: the prologue and epilogue of small compiled methods that are not inlined (run with
 * {@code -XX:CompileCommand=dontinline,calls.counters.Edges*::*}), interface calls through
 * itable stubs, array copies in the VM's copy stubs, and allocations that go into the VM through
 * runtime stubs. Each phase has a method of its own under {@code run}, so a sample's caller is
 * known: {@code tiny} only ever runs under {@code calls}, the shapes' {@code area} under
 * {@code virtuals}. {@code Edges ROUNDS THREADS} prints a checksum.
 */
public class Edges {
    static volatile long sink;

    interface Shape {
        long area(long x);
    }

    static final class Square implements Shape {
        public long area(long x) { return x * x; }
    }

    static final class Line implements Shape {
        public long area(long x) { return x + 1; }
    }

    static final class Tri implements Shape {
        public long area(long x) { return x * 3 >>> 1; }
    }

    static final class Dot implements Shape {
        public long area(long x) { return x ^ 7; }
    }

    static long tiny(long x) {
        return x * 31 + 7;
    }

    static long calls(int n) {
        long x = 0;
        for (int i = 0; i < n; i++) x = tiny(x + i);
        return x;
    }

    static long virtuals(Shape[] shapes, int n) {
        long x = 0;
        for (int i = 0; i < n; i++) x += shapes[i & 3].area(x + i);
        return x;
    }

    static long copies(int[] from, int[] to, int n) {
        long x = 0;
        for (int i = 0; i < n; i++) {
            System.arraycopy(from, i & 63, to, 0, 4096);
            x += to[i & 4095];
        }
        return x;
    }

    static long allocs(int n) {
        long x = 0;
        for (int i = 0; i < n; i++) {
            long[] a = new long[64 + (i & 1023)];
            a[i & 63] = i;
            x += a.length + a[i & 63];
        }
        return x;
    }

    static long run(int rounds) {
        Shape[] shapes = {new Square(), new Line(), new Tri(), new Dot()};
        int[] from = new int[4096 + 64];
        int[] to = new int[4096];
        for (int i = 0; i < from.length; i++) from[i] = i * 7;
        long x = 0;
        for (int r = 0; r < rounds; r++) {
            x += calls(200_000);
            x += virtuals(shapes, 200_000);
            x += copies(from, to, 2_000);
            x += allocs(20_000);
        }
        return x;
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 2;
        long sum = Workers.run(threads, "edges", id -> run(rounds));
        sink = sum;
        System.out.println("edges " + (sum & 0xffff));
    }
}
