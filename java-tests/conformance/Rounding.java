/** Math.round and StrictMath.round (the same function in the JDK) on halves, limits and specials. */
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
    }
}
