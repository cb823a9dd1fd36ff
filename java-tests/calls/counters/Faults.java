package calls.counters;

/** touch() allocates and writes 64 MiB of fresh memory; compute() only computes. */
public class Faults {
    static volatile long sink;

    static void touch() {
        byte[] a = new byte[64 << 20];
        for (int i = 0; i < a.length; i += 4096) a[i] = (byte) i;
        sink += a[a.length - 4096];
    }

    static void compute() {
        long x = 0;
        for (int i = 0; i < 2_000_000; i++) x = x * 31 + i;
        sink += x;
    }

    public static void main(String[] args) {
        compute();
        touch();
        compute();
    }
}
