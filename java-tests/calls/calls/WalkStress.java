package calls;

import java.lang.invoke.MethodHandles;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntUnaryOperator;

/**
 * The JDK's own heavy paths, for stack walks from signal handlers: each of `THREADS` threads loops
 * for `SECONDS` over class loading (hidden classes defined from bytes, a fresh class loader's
 * classes), deoptimisation (a call site compiled for one receiver class, then given others; class
 * loading that invalidates compiled code), exceptions thrown through deep stacks, and allocation
 * that keeps the collector busy. `WalkStress SECONDS THREADS` prints a checksum of the work done.
 */
public class WalkStress {
    interface Shape {
        int area(int x);
    }

    static final class Square implements Shape {
        public int area(int x) {
            return x * x;
        }
    }

    static final class Twice implements Shape {
        public int area(int x) {
            return 2 * x;
        }
    }

    static final class Cube implements Shape {
        public int area(int x) {
            return x * x * x;
        }
    }

    static volatile Object sink;

    /** A call site that C2 compiles for one receiver, then deoptimises when others come. */
    static int areas(Shape[] shapes, int n) {
        int s = 0;
        for (int i = 0; i < n; i++) {
            s += shapes[i % shapes.length].area(i);
        }
        return s;
    }

    static int deopt(int round) {
        Shape[] one = {new Square()};
        int s = areas(one, 20_000);
        Shape[] mixed = round % 2 == 0 ? new Shape[] {new Square(), new Twice()} : new Shape[] {new Cube(), new Twice(), new Square()};
        return s + areas(mixed, 20_000);
    }

    static int throwDeep(int depth) {
        if (depth == 0) {
            throw new IllegalStateException("bottom");
        }
        return throwDeep(depth - 1) + 1;
    }

    static int exceptions() {
        int caught = 0;
        for (int i = 0; i < 200; i++) {
            try {
                throwDeep(20 + i % 40);
            } catch (IllegalStateException e) {
                caught += e.getStackTrace().length > 0 ? 1 : 0;
            }
        }
        return caught;
    }

    /** Lambdas are hidden classes: each new capture site spun at run time loads one. */
    static int lambdas(int round) {
        int s = 0;
        IntUnaryOperator f = x -> x + round;
        s += f.applyAsInt(1);
        // A hidden class defined from this class's own bytes, each time a new one.
        try {
            byte[] bytes;
            try (var in = WalkStress.class.getResourceAsStream("WalkStress$Square.class")) {
                bytes = in.readAllBytes();
            }
            var lookup = MethodHandles.lookup();
            Class<?> hidden = lookup.defineHiddenClass(bytes, false).lookupClass();
            s += hidden.getName().length();
        } catch (Exception e) {
            s -= 1;
        }
        return s;
    }

    /** A fresh loader each time: the classes of this program loaded again, then unloadable. */
    static int classLoading() {
        try {
            var url = WalkStress.class.getProtectionDomain().getCodeSource().getLocation();
            try (var loader = new java.net.URLClassLoader(new java.net.URL[] {url}, null)) {
                Class<?> c = loader.loadClass("calls.WalkStress$Cube");
                Object o = c.getDeclaredConstructor().newInstance();
                return o.hashCode() & 1;
            }
        } catch (Exception e) {
            return -1;
        }
    }

    static long allocate(int round) {
        List<int[]> keep = new ArrayList<>();
        long s = 0;
        for (int i = 0; i < 2_000; i++) {
            int[] a = new int[64 + (i + round) % 512];
            a[0] = i;
            s += a.length;
            if (i % 16 == 0) {
                keep.add(a);
            }
        }
        sink = keep;
        return s;
    }

    public static void main(String[] args) throws Exception {
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 5;
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 2;
        long end = System.nanoTime() + (long) (seconds * 1e9);
        long[] sums = new long[threads];
        int[] rounds = new int[threads];
        List<Thread> ts = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            final int id = t;
            Thread th = new Thread(() -> {
                long s = 0;
                int r = 0;
                while (System.nanoTime() < end) {
                    s += deopt(r) + exceptions() + lambdas(r) + classLoading() + allocate(r);
                    if (r % 50 == 0) {
                        System.gc();
                    }
                    r++;
                }
                sums[id] = s;
                rounds[id] = r;
            }, "stress-" + t);
            ts.add(th);
            th.start();
        }
        for (Thread th : ts) {
            th.join();
        }
        int total = 0;
        for (int r : rounds) {
            total += r;
        }
        System.out.println("walk-stress rounds " + total + (total > 0 ? " ok" : " none"));
    }
}
