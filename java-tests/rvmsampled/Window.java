/** One thread spins in outside() for about 300 ms, says "inside" and spins in inside() for about
 * 1.5 s, says "outside" and spins in outside() again, in calls of 10 ms each. The agent tests open
 * and close recording windows through the control socket while it is inside. */
public class Window {
    static volatile long sink;

    static long spin(long nanos) {
        long end = System.nanoTime() + nanos;
        long x = 0;
        while (System.nanoTime() < end) {
            for (int i = 0; i < 2000; i++) {
                x += i ^ (x >>> 3);
            }
        }
        return x;
    }

    static void outside() {
        sink += spin(10_000_000L);
    }

    static void inside() {
        sink += spin(10_000_000L);
    }

    public static void main(String[] args) {
        for (int i = 0; i < 30; i++) {
            outside();
        }
        System.out.println("inside");
        System.out.flush();
        for (int i = 0; i < 150; i++) {
            inside();
        }
        System.out.println("outside");
        System.out.flush();
        for (int i = 0; i < 30; i++) {
            outside();
        }
        System.out.println("done");
    }
}
