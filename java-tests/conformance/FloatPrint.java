import java.util.Random;

/** Double.toString and Float.toString of many values, including the ranges where JDK 17 prints
 * more digits than the shortest representation. */
public class FloatPrint {
    public static void main(String[] args) {
        Random r = new Random(2026);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 20000; i++) {
            double d;
            switch (i % 5) {
                case 0: d = Double.longBitsToDouble(r.nextLong()); break;
                case 1: d = r.nextDouble() * Math.pow(10, r.nextInt(40) - 20); break;
                case 2: d = (r.nextInt(2000000) - 1000000) / 1000.0; break;
                case 3: d = (double) (r.nextLong() >> r.nextInt(40)); break;
                default: d = r.nextInt(100000) * 0.1;
            }
            sb.append(d);
            double a = Math.abs(d);
            if (a > 1e-37 && a < 9e18) sb.append(' ').append((float) d);
            sb.append('\n');
        }
        // Powers of two (JDK 17 prints some of them with one more digit than the shortest form).
        for (long e = 1; e < 2047; e++) sb.append(Double.longBitsToDouble(e << 52)).append(' ').append(Double.longBitsToDouble((e << 52) | (1L << 51))).append('\n');
        for (int e = 1; e < 190; e++) sb.append(Float.intBitsToFloat(e << 23)).append(' ').append(Float.intBitsToFloat((e << 23) | (1 << 21))).append('\n');
        System.out.print(sb);
        // (through id() so that javac does not fold them into the string at compile time)
        System.out.println(id(Double.MIN_VALUE) + " " + id(Double.MAX_VALUE) + " " + id(Float.MAX_VALUE) + " " + id(Float.MIN_NORMAL) + " " + id(2e-3) + " " + id(1.0E7) + " " + id(9999999.999) + " " + id(0.1 + 0.7) + " " + idf(100.0f / 3) + " " + idf(Float.MIN_NORMAL));
    }
    static double id(double d) { return d; }
    static float idf(float f) { return f; }
}
