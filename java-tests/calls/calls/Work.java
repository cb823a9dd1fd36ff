package calls;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A call-heavy workload for overhead benchmarks: recursive fib, a HashMap of small keys and sorting
 * with a comparator, on a few threads. `Work ROUNDS THREADS` prints a checksum.
 */
public class Work {
    static int fib(int n) {
        return n < 2 ? n : fib(n - 1) + fib(n - 2);
    }

    static final class Key implements Comparable<Key> {
        final int a;
        final int b;

        Key(int a, int b) {
            this.a = a;
            this.b = b;
        }

        @Override
        public int hashCode() {
            return a * 31 + b;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key && ((Key) o).a == a && ((Key) o).b == b;
        }

        @Override
        public int compareTo(Key o) {
            return a != o.a ? Integer.compare(a, o.a) : Integer.compare(b, o.b);
        }
    }

    static long maps(int n) {
        Map<Key, Integer> m = new HashMap<>();
        for (int i = 0; i < n; i++) {
            m.merge(new Key(i % 1000, i % 7), 1, Integer::sum);
        }
        long s = 0;
        for (int i = 0; i < n; i++) {
            Integer v = m.get(new Key(i % 1000, i % 7));
            s += v == null ? 0 : v;
        }
        return s;
    }

    static long sorts(int n, int seed) {
        List<Key> l = new ArrayList<>(n);
        int x = seed;
        for (int i = 0; i < n; i++) {
            x = x * 1103515245 + 12345;
            l.add(new Key((x >>> 8) % 5000, i));
        }
        Collections.sort(l);
        return l.get(n / 2).a;
    }

    static long round(int r) {
        return fib(22) + maps(50_000) + sorts(50_000, r);
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 2;
        long[] sums = new long[threads];
        Thread[] ts = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            final int id = t;
            ts[t] = new Thread(() -> {
                for (int r = 0; r < rounds; r++) {
                    sums[id] += round(r);
                }
            }, "work-" + t);
            ts[t].start();
        }
        long total = 0;
        for (int t = 0; t < threads; t++) {
            ts[t].join();
            total += sums[t];
        }
        System.out.println("work " + total);
    }
}
