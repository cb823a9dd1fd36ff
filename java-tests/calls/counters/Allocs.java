package calls.counters;

/**
 * Known allocation volumes in two methods, for allocation samples: small() allocates
 * ROUNDS x 1000 long[16] (144 bytes each with the 16-byte array header of a compressed-oops heap),
 * big() ROUNDS x 50 byte[8192] (8208 bytes each): per round 144,000 and 410,400 bytes, 26.0% and
 * 74.0%. Every array is stored in a slot of a static table, so none can be scalar-replaced by the
 * JIT. `Allocs ROUNDS` prints a checksum.
 */
public class Allocs {
    static final Object[] slots = new Object[4096];
    static int next;

    static void keep(Object o) {
        slots[next++ & (slots.length - 1)] = o;
    }

    static void small() {
        for (int i = 0; i < 1000; i++) {
            long[] a = new long[16];
            a[0] = i;
            keep(a);
        }
    }

    static void big() {
        for (int i = 0; i < 50; i++) {
            byte[] b = new byte[8192];
            b[0] = (byte) i;
            keep(b);
        }
    }

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
        for (int r = 0; r < rounds; r++) {
            small();
            big();
        }
        long sum = 0;
        for (Object o : slots) sum += o == null ? 0 : 1;
        System.out.println("allocs " + rounds + " " + sum);
    }
}
