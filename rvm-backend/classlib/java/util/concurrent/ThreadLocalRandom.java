package java.util.concurrent;

import java.util.Random;

/**
 * rvm: one shared, thread-safe generator (java.util.Random's algorithm, seeded from the clock)
 * rather than one per thread; the values are as unpredictable as the JDK's, only not per-thread
 * streams.
 */
public class ThreadLocalRandom extends Random {
    private static final ThreadLocalRandom INSTANCE = new ThreadLocalRandom();

    private ThreadLocalRandom() { super(System.nanoTime() ^ 0x5DEECE66DL); }

    public static ThreadLocalRandom current() { return INSTANCE; }

    public long nextLong(long bound) {
        if (bound <= 0) throw new IllegalArgumentException("bound must be positive");
        long r = nextLong();
        long m = bound - 1;
        if ((bound & m) == 0L) return r & m;
        for (long u = r >>> 1; u + m - (r = u % bound) < 0L; u = nextLong() >>> 1);
        return r;
    }
    public long nextLong(long origin, long bound) {
        if (origin >= bound) throw new IllegalArgumentException("bound must be greater than origin");
        long n = bound - origin;
        if (n > 0) return origin + nextLong(n);
        long r;
        do {
            r = nextLong();
        } while (r < origin || r >= bound);
        return r;
    }
    /** The largest double below {@code d}. */
    private static double below(double d) {
        if (d == 0.0) return -Double.MIN_VALUE;
        long bits = Double.doubleToRawLongBits(d);
        return Double.longBitsToDouble(d > 0.0 ? bits - 1 : bits + 1);
    }
    public double nextDouble(double bound) {
        if (!(bound > 0.0)) throw new IllegalArgumentException("bound must be positive");
        double r = nextDouble() * bound;
        return r < bound ? r : below(bound);
    }
    public double nextDouble(double origin, double bound) {
        if (!(origin < bound)) throw new IllegalArgumentException("bound must be greater than origin");
        double r = origin + nextDouble() * (bound - origin);
        return r < bound ? r : below(bound);
    }
}
