package java.lang;

public final class Math {
    private Math() {}
    public static final double E = 2.718281828459045;
    public static final double PI = 3.141592653589793;
    public static native double sin(double a);
    public static native double cos(double a);
    public static native double tan(double a);
    public static native double asin(double a);
    public static native double acos(double a);
    public static native double atan(double a);
    public static native double exp(double a);
    public static native double log(double a);
    public static native double log10(double a);
    public static native double sqrt(double a);
    public static native double cbrt(double a);
    public static native double floor(double a);
    public static native double ceil(double a);
    public static native double rint(double a);
    public static native double atan2(double y, double x);
    public static native double pow(double a, double b);
    public static native double sinh(double x);
    public static native double cosh(double x);
    public static native double tanh(double x);
    public static native double hypot(double x, double y);
    public static native double expm1(double x);
    public static native double log1p(double x);
    public static double copySign(double magnitude, double sign) {
        return Double.longBitsToDouble((Double.doubleToRawLongBits(sign) & 0x8000000000000000L) | (Double.doubleToRawLongBits(magnitude) & 0x7fffffffffffffffL));
    }
    public static float copySign(float magnitude, float sign) {
        return Float.intBitsToFloat((Float.floatToRawIntBits(sign) & 0x80000000) | (Float.floatToRawIntBits(magnitude) & 0x7fffffff));
    }
    public static int getExponent(double d) { return (int) (((Double.doubleToRawLongBits(d) & 0x7ff0000000000000L) >> 52) - 1023); }
    public static int getExponent(float f) { return ((Float.floatToRawIntBits(f) & 0x7f800000) >> 23) - 127; }
    public static double nextUp(double d) {
        if (Double.isNaN(d) || d == Double.POSITIVE_INFINITY) return d;
        d += 0.0d;
        return Double.longBitsToDouble(Double.doubleToRawLongBits(d) + ((d >= 0.0d) ? +1L : -1L));
    }
    public static double nextDown(double d) {
        if (Double.isNaN(d) || d == Double.NEGATIVE_INFINITY) return d;
        if (d == 0.0) return -Double.MIN_VALUE;
        return Double.longBitsToDouble(Double.doubleToRawLongBits(d) + ((d > 0.0d) ? -1L : +1L));
    }
    public static double ulp(double d) {
        int exp = getExponent(d);
        if (exp == 1024) return Math.abs(d);
        if (exp == -1023) return Double.MIN_VALUE;
        exp = exp - 52;
        if (exp >= -1022) return Double.longBitsToDouble(((long) (exp + 1023)) << 52);
        return Double.longBitsToDouble(1L << (exp - (-1022 - 52)));
    }
    public static double toRadians(double angdeg) { return angdeg * 0.017453292519943295; }
    public static double toDegrees(double angrad) { return angrad * 57.29577951308232; }
    public static int round(float a) { return roundF(a); }
    private static int roundF(float a) {
        int intBits = Float.floatToRawIntBits(a);
        int biasedExp = (intBits & 0x7F800000) >> 23;
        int shift = (22 + 127) - biasedExp;
        if ((shift & -32) == 0) {
            int r = ((intBits & 0x007FFFFF) | 0x00800000);
            if (intBits < 0) r = -r;
            return ((r >> shift) + 1) >> 1;
        } else {
            return (int) a;
        }
    }
    public static long round(double a) {
        long longBits = Double.doubleToRawLongBits(a);
        long biasedExp = (longBits & 0x7FF0000000000000L) >> 52;
        long shift = (51 + 1023) - biasedExp;
        if ((shift & -64) == 0) {
            long r = ((longBits & 0x000FFFFFFFFFFFFFL) | 0x0010000000000000L);
            if (longBits < 0) r = -r;
            return ((r >> shift) + 1) >> 1;
        } else {
            return (long) a;
        }
    }
    public static double random() { return RandomHolder.r.nextDouble(); }
    private static class RandomHolder { static final java.util.Random r = new java.util.Random(); }
    public static int abs(int a) { return (a < 0) ? -a : a; }
    public static long abs(long a) { return (a < 0) ? -a : a; }
    public static float abs(float a) { return Float.intBitsToFloat(Float.floatToRawIntBits(a) & 0x7fffffff); }
    public static double abs(double a) { return Double.longBitsToDouble(Double.doubleToRawLongBits(a) & 0x7fffffffffffffffL); }
    public static int max(int a, int b) { return (a >= b) ? a : b; }
    public static long max(long a, long b) { return (a >= b) ? a : b; }
    public static int min(int a, int b) { return (a <= b) ? a : b; }
    public static long min(long a, long b) { return (a <= b) ? a : b; }
    public static float max(float a, float b) {
        if (a != a) return a;
        if ((a == 0.0f) && (b == 0.0f) && (Float.floatToRawIntBits(a) == Float.floatToRawIntBits(-0.0f))) return b;
        return (a >= b) ? a : b;
    }
    public static double max(double a, double b) {
        if (a != a) return a;
        if ((a == 0.0d) && (b == 0.0d) && (Double.doubleToRawLongBits(a) == Double.doubleToRawLongBits(-0.0d))) return b;
        return (a >= b) ? a : b;
    }
    public static float min(float a, float b) {
        if (a != a) return a;
        if ((a == 0.0f) && (b == 0.0f) && (Float.floatToRawIntBits(b) == Float.floatToRawIntBits(-0.0f))) return b;
        return (a <= b) ? a : b;
    }
    public static double min(double a, double b) {
        if (a != a) return a;
        if ((a == 0.0d) && (b == 0.0d) && (Double.doubleToRawLongBits(b) == Double.doubleToRawLongBits(-0.0d))) return b;
        return (a <= b) ? a : b;
    }
    public static double signum(double d) { return (d == 0.0 || d != d) ? d : (d > 0 ? 1.0 : -1.0); }
    public static float signum(float f) { return (f == 0.0f || f != f) ? f : (f > 0 ? 1.0f : -1.0f); }
    public static int addExact(int x, int y) {
        int r = x + y;
        if (((x ^ r) & (y ^ r)) < 0) throw new ArithmeticException("integer overflow");
        return r;
    }
    public static long addExact(long x, long y) {
        long r = x + y;
        if (((x ^ r) & (y ^ r)) < 0) throw new ArithmeticException("long overflow");
        return r;
    }
    public static int subtractExact(int x, int y) {
        int r = x - y;
        if (((x ^ y) & (x ^ r)) < 0) throw new ArithmeticException("integer overflow");
        return r;
    }
    public static int multiplyExact(int x, int y) {
        long r = (long) x * (long) y;
        if ((int) r != r) throw new ArithmeticException("integer overflow");
        return (int) r;
    }
    public static long multiplyExact(long x, long y) {
        long r = x * y;
        long ax = Math.abs(x), ay = Math.abs(y);
        if (((ax | ay) >>> 31 != 0)) {
            if (((y != 0) && (r / y != x)) || (x == Long.MIN_VALUE && y == -1)) throw new ArithmeticException("long overflow");
        }
        return r;
    }
    public static long subtractExact(long x, long y) {
        long r = x - y;
        if (((x ^ y) & (x ^ r)) < 0) throw new ArithmeticException("long overflow");
        return r;
    }
    public static long multiplyExact(long x, int y) { return multiplyExact(x, (long) y); }
    public static long negateExact(long a) { if (a == Long.MIN_VALUE) throw new ArithmeticException("long overflow"); return -a; }
    public static int incrementExact(int a) { if (a == Integer.MAX_VALUE) throw new ArithmeticException("integer overflow"); return a + 1; }
    public static long incrementExact(long a) { if (a == Long.MAX_VALUE) throw new ArithmeticException("long overflow"); return a + 1L; }
    public static int decrementExact(int a) { if (a == Integer.MIN_VALUE) throw new ArithmeticException("integer overflow"); return a - 1; }
    public static long decrementExact(long a) { if (a == Long.MIN_VALUE) throw new ArithmeticException("long overflow"); return a - 1L; }
    public static long floorDiv(long x, int y) { return floorDiv(x, (long) y); }
    public static int negateExact(int a) { if (a == Integer.MIN_VALUE) throw new ArithmeticException("integer overflow"); return -a; }
    public static int toIntExact(long value) { if ((int) value != value) throw new ArithmeticException("integer overflow"); return (int) value; }
    public static int floorDiv(int x, int y) { int q = x / y; if ((x ^ y) < 0 && (q * y != x)) q--; return q; }
    public static long floorDiv(long x, long y) { long q = x / y; if ((x ^ y) < 0 && (q * y != x)) q--; return q; }
    public static int floorMod(int x, int y) { int m = x % y; if ((m ^ y) < 0 && m != 0) m += y; return m; }
    public static long floorMod(long x, long y) { long m = x % y; if ((m ^ y) < 0 && m != 0) m += y; return m; }
    public static int floorMod(long x, int y) { return (int) floorMod(x, (long) y); }
}
