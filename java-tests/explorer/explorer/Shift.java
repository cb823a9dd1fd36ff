package explorer;

/**
 * Two runs to compare with `hpm explore A B`: `Shift STEADY GROWS` calls steady() STEADY times and
 * grows() GROWS times, each doing the same small amount of work, so between `Shift 200 100` and
 * `Shift 200 400` only the context main → grows changes (its calls and time grow fourfold).
 */
public class Shift {
    static long work(int seed) {
        long x = seed;
        for (int i = 0; i < 20_000; i++) x = x * 6364136223846793005L + 1442695040888963407L;
        return x;
    }

    static long steady(int i) { return work(i); }

    static long grows(int i) { return work(-i); }

    public static void main(String[] args) {
        int steady = Integer.parseInt(args[0]);
        int grows = Integer.parseInt(args[1]);
        long s = 0;
        for (int i = 0; i < steady; i++) s += steady(i);
        for (int i = 0; i < grows; i++) s += grows(i);
        System.out.println("shift " + s);
    }
}
