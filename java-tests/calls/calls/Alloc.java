package calls;

/** allocate() creates exactly 1000 long[16] arrays (144 bytes each with a 16-byte header). */
public class Alloc {
    static long[][] keep = new long[1000][];

    static void allocate() {
        for (int i = 0; i < 1000; i++) {
            keep[i] = new long[16];
        }
    }

    static int noAlloc() {
        int s = 0;
        for (int i = 0; i < 1000; i++) s += i;
        return s;
    }

    public static void main(String[] args) {
        allocate();
        int s = noAlloc();
        System.out.println("alloc " + keep.length + " " + s);
    }
}
