package calls.counters;

/**
 * CPU time in a JNI library's C code (java-tests/native/spin.c, loaded from the path in the
 * system property {@code hpm.native.lib}): {@code work} calls the native {@code spin}, whose C
 * function calls {@code hpm_spin_inner}. {@code NativeSpin ROUNDS} prints a checksum.
 */
public class NativeSpin {
    static native long spin(long n);

    static long work(int rounds) {
        long x = 0;
        for (int r = 0; r < rounds; r++) x += spin(20_000_000);
        return x;
    }

    public static void main(String[] args) {
        System.load(System.getProperty("hpm.native.lib"));
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        System.out.println("native " + (work(rounds) & 0xffff));
    }
}
