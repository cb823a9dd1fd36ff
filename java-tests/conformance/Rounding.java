/**
 * Math and StrictMath functions the JDK specifies identically (round, abs, min, max, signum, exact and
 * floor arithmetic) on halves, limits and specials.
 */
public class Rounding {
    public static void main(String[] args) {
        float[] fs = {0f, -0f, 0.5f, -0.5f, 1.5f, 2.5f, -2.5f, 0.49999997f, 8388607.5f, 16777216f, 1e20f, -1e20f,
                Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.MIN_VALUE, 3.4999998f, 1234.5f};
        for (float f : fs) {
            System.out.println("float " + f + " Math " + Math.round(f) + " StrictMath " + StrictMath.round(f));
        }
        double[] ds = {0.0, -0.0, 0.5, -0.5, 1.5, 2.5, -2.5, 0.49999999999999994, 4503599627370495.5, 9007199254740992.0,
                1e300, -1e300, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MIN_VALUE, 1234.5};
        for (double d : ds) {
            System.out.println("double " + d + " Math " + Math.round(d) + " StrictMath " + StrictMath.round(d));
        }
    
        double[] ps = {0.0, -0.0, 1.5, -1.5, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MIN_VALUE};
        for (double a : ps) {
            for (double b : ps) {
                System.out.println("min/max " + a + " " + b + " Math " + Math.min(a, b) + " " + Math.max(a, b)
                        + " StrictMath " + StrictMath.min(a, b) + " " + StrictMath.max(a, b)
                        + " float " + StrictMath.min((float) a, (float) b) + " " + StrictMath.max((float) a, (float) b));
            }
            System.out.println("abs/signum " + a + " " + StrictMath.abs(a) + " " + StrictMath.signum(a) + " " + StrictMath.abs((float) a) + " " + StrictMath.signum((float) a));
        }
        int[] is = {0, 1, -1, 7, -7, Integer.MAX_VALUE, Integer.MIN_VALUE};
        for (int x : is) {
            System.out.println("int " + x + " abs " + StrictMath.abs(x) + " " + Math.abs(x) + " abs(long) " + StrictMath.abs((long) x * 3));
            for (int y : is) {
                String line = "int " + x + " " + y + " min " + StrictMath.min(x, y) + " max " + StrictMath.max(x, y);
                if (y != 0) line += " floorDiv " + StrictMath.floorDiv(x, y) + " floorMod " + StrictMath.floorMod(x, y)
                        + " floorDivL " + StrictMath.floorDiv((long) x, (long) y) + " floorModLI " + StrictMath.floorMod((long) x * 5, y);
                for (int op = 0; op < 6; op++) line += " " + exact(op, x, y);
                System.out.println(line);
            }
        }
    }

    /** One exact-arithmetic operation, or the ArithmeticException it throws. */
    static String exact(int op, int x, int y) {
        try {
            switch (op) {
                case 0: return "add " + StrictMath.addExact(x, y) + " " + StrictMath.addExact((long) x << 32, (long) y << 32);
                case 1: return "sub " + StrictMath.subtractExact(x, y);
                case 2: return "mul " + StrictMath.multiplyExact(x, y);
                case 3: return "mulL " + StrictMath.multiplyExact((long) x << 20, (long) y << 20);
                case 4: return "neg " + Math.negateExact(x); // StrictMath.negateExact is Java 14+; this suite also builds with --release 8
                default: return "toInt " + StrictMath.toIntExact((long) x * y);
            }
        } catch (ArithmeticException e) {
            return "op" + op + " ArithmeticException(" + e.getMessage() + ")";
        }
    }
}
