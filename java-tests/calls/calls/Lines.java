package calls;

/**
 * Two lines of one method that cost very different amounts (agent/tests/sampling.rs, with
 * sample-lines=on): `heavy` spends most of its time on the line marked HEAVY, a little on the line
 * marked LIGHT. Prints "lines N".
 */
public class Lines {
    static long heavy(long seed, int n) {
        long x = seed;
        for (int i = 0; i < n; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L; x ^= x >>> 13; x *= 0x9E3779B97F4A7C15L; x ^= x >>> 29; // HEAVY
        }
        x += seed; // LIGHT
        return x;
    }

    public static void main(String[] args) {
        long s = 0;
        long end = System.nanoTime() + 1_500_000_000L;
        while (System.nanoTime() < end) {
            s += heavy(s, 1_000_000);
        }
        System.out.println("lines " + (s != 42));
    }
}
