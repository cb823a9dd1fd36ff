package java.lang;

public final class Double extends Number implements Comparable<Double> {
    @SuppressWarnings("unchecked")
    public static final Class<Double> TYPE = (Class<Double>) Class.getPrimitiveClass("double");
    public static final double POSITIVE_INFINITY = 1.0 / 0.0;
    public static final double NEGATIVE_INFINITY = -1.0 / 0.0;
    public static final double NaN = 0.0d / 0.0;
    public static final double MAX_VALUE = 0x1.fffffffffffffP+1023;
    public static final double MIN_NORMAL = 0x1.0p-1022;
    public static final double MIN_VALUE = 0x0.0000000000001P-1022;
    public static final int SIZE = 64;
    private final double value;
    @Deprecated public Double(double value) { this.value = value; }
    public static native String toString(double d);
    public static Double valueOf(double d) { return new Double(d); }
    public static Double valueOf(String s) { return new Double(parseDouble(s)); }
    public static double parseDouble(String s) {
        if (s == null) throw new NullPointerException();
        return parse0(s);
    }
    private static native double parse0(String s);
    public static boolean isNaN(double v) { return v != v; }
    public static boolean isInfinite(double v) { return v == POSITIVE_INFINITY || v == NEGATIVE_INFINITY; }
    public static boolean isFinite(double d) { return Math.abs(d) <= MAX_VALUE; }
    public boolean isNaN() { return isNaN(value); }
    public boolean isInfinite() { return isInfinite(value); }
    public String toString() { return toString(value); }
    public int intValue() { return (int) value; }
    public long longValue() { return (long) value; }
    public float floatValue() { return (float) value; }
    public double doubleValue() { return value; }
    public int hashCode() { return hashCode(value); }
    public static int hashCode(double value) { long bits = doubleToLongBits(value); return (int) (bits ^ (bits >>> 32)); }
    public boolean equals(Object obj) { return obj instanceof Double && doubleToLongBits(((Double) obj).value) == doubleToLongBits(value); }
    public static long doubleToLongBits(double value) { return isNaN(value) ? 0x7ff8000000000000L : doubleToRawLongBits(value); }
    public static native long doubleToRawLongBits(double value);
    public static native double longBitsToDouble(long bits);
    public int compareTo(Double anotherDouble) { return compare(value, anotherDouble.value); }
    public static int compare(double d1, double d2) {
        if (d1 < d2) return -1;
        if (d1 > d2) return 1;
        long b1 = doubleToLongBits(d1), b2 = doubleToLongBits(d2);
        return (b1 == b2 ? 0 : (b1 < b2 ? -1 : 1));
    }
    public static double sum(double a, double b) { return a + b; }
    public static double max(double a, double b) { return Math.max(a, b); }
    public static double min(double a, double b) { return Math.min(a, b); }
}
