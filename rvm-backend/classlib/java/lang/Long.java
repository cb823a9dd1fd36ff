package java.lang;

public final class Long extends Number implements Comparable<Long> {
    public static Long decode(String nm) throws NumberFormatException {
        int radix = 10;
        int index = 0;
        boolean negative = false;
        long result;
        if (nm.isEmpty()) throw new NumberFormatException("Zero length string");
        char firstChar = nm.charAt(0);
        if (firstChar == '-') { negative = true; index++; }
        else if (firstChar == '+') index++;
        if (nm.startsWith("0x", index) || nm.startsWith("0X", index)) { index += 2; radix = 16; }
        else if (nm.startsWith("#", index)) { index++; radix = 16; }
        else if (nm.startsWith("0", index) && nm.length() > 1 + index) { index++; radix = 8; }
        if (nm.startsWith("-", index) || nm.startsWith("+", index)) throw new NumberFormatException("Sign character in wrong position");
        try {
            result = Long.parseLong(nm.substring(index), radix);
            result = negative ? -result : result;
        } catch (NumberFormatException e) {
            String constant = negative ? ("-" + nm.substring(index)) : nm.substring(index);
            result = Long.parseLong(constant, radix);
        }
        if (result < Long.MIN_VALUE || result > Long.MAX_VALUE) throw new NumberFormatException("Value " + result + " out of range from input " + nm);
        return Long.valueOf((long) result);
    }

    @SuppressWarnings("unchecked")
    public static final Class<Long> TYPE = (Class<Long>) Class.getPrimitiveClass("long");
    public static final long MIN_VALUE = 0x8000000000000000L;
    public static final long MAX_VALUE = 0x7fffffffffffffffL;
    public static final int SIZE = 64;
    public static final int BYTES = 8;
    private final long value;

    private static class LongCache {
        static final Long[] cache = new Long[256];
        static { for (int i = 0; i < 256; i++) cache[i] = new Long(i - 128); }
    }
    public static Long valueOf(long l) {
        if (l >= -128 && l <= 127) return LongCache.cache[(int) l + 128];
        return new Long(l);
    }
    public static Long valueOf(String s) { return valueOf(parseLong(s, 10)); }
    @Deprecated public Long(long value) { this.value = value; }

    public static String toString(long i) { return toString(i, 10); }
    public static String toString(long i, int radix) {
        if (radix < 2 || radix > 36) radix = 10;
        char[] buf = new char[65];
        int pos = 65;
        boolean neg = i < 0;
        if (!neg) i = -i;
        while (i <= -radix) { buf[--pos] = Character.forDigit((int) (-(i % radix)), radix); i = i / radix; }
        buf[--pos] = Character.forDigit((int) (-i), radix);
        if (neg) buf[--pos] = '-';
        return new String(buf, pos, 65 - pos);
    }
    private static String toUnsigned(long i, int shift) {
        char[] buf = new char[64];
        int pos = 64;
        long mask = (1L << shift) - 1;
        do { buf[--pos] = Character.forDigit((int) (i & mask), 1 << shift); i >>>= shift; } while (i != 0);
        return new String(buf, pos, 64 - pos);
    }
    public static long divideUnsigned(long dividend, long divisor) {
        if (divisor < 0) return compareUnsigned(dividend, divisor) < 0 ? 0L : 1L;
        if (dividend > 0) return dividend / divisor;
        long q = ((dividend >>> 1) / divisor) << 1;
        long r = dividend - q * divisor;
        return q + (compareUnsigned(r, divisor) >= 0 ? 1 : 0);
    }
    public static long remainderUnsigned(long dividend, long divisor) { return dividend - divideUnsigned(dividend, divisor) * divisor; }
    public static String toUnsignedString(long i) { return toUnsignedString(i, 10); }
    public static String toUnsignedString(long i, int radix) {
        if (i >= 0) return toString(i, radix);
        long quot = (i >>> 1) / radix << 1;
        long rem = i - quot * radix;
        if (rem >= radix) { quot++; rem -= radix; }
        return toString(quot, radix) + Character.forDigit((int) rem, radix);
    }
    public static String toHexString(long i) { return toUnsigned(i, 4); }
    public static String toOctalString(long i) { return toUnsigned(i, 3); }
    public static String toBinaryString(long i) { return toUnsigned(i, 1); }

    public static long parseLong(String s) throws NumberFormatException { return parseLong(s, 10); }
    public static long parseLong(String s, int radix) throws NumberFormatException {
        if (s == null) throw new NumberFormatException("Cannot parse null string: null");
        int len = s.length();
        if (len == 0) throw new NumberFormatException("For input string: \"\"" + (radix == 10 ? "" : " under radix " + radix));
        boolean negative = false;
        int i = 0;
        long limit = -MAX_VALUE;
        char first = s.charAt(0);
        if (first < '0') {
            if (first == '-') { negative = true; limit = MIN_VALUE; }
            else if (first != '+') throw NumberFormatException.forInputString(s, radix);
            if (len == 1) throw NumberFormatException.forInputString(s, radix);
            i++;
        }
        long multmin = limit / radix;
        long result = 0;
        while (i < len) {
            int digit = Character.digit(s.charAt(i++), radix);
            if (digit < 0 || result < multmin) throw NumberFormatException.forInputString(s, radix);
            result *= radix;
            if (result < limit + digit) throw NumberFormatException.forInputString(s, radix);
            result -= digit;
        }
        return negative ? result : -result;
    }
    public int intValue() { return (int) value; }
    public long longValue() { return value; }
    public float floatValue() { return value; }
    public double doubleValue() { return value; }
    public String toString() { return toString(value); }
    public int hashCode() { return hashCode(value); }
    public static int hashCode(long value) { return (int) (value ^ (value >>> 32)); }
    public boolean equals(Object obj) { return obj instanceof Long && value == ((Long) obj).longValue(); }
    public int compareTo(Long anotherLong) { return compare(value, anotherLong.value); }
    public static int compare(long x, long y) { return (x < y) ? -1 : ((x == y) ? 0 : 1); }
    public static int compareUnsigned(long x, long y) { return compare(x + MIN_VALUE, y + MIN_VALUE); }
    public static int signum(long i) { return (int) ((i >> 63) | (-i >>> 63)); }
    public static long abs(long a) { return a < 0 ? -a : a; }
    public static long max(long a, long b) { return Math.max(a, b); }
    public static long min(long a, long b) { return Math.min(a, b); }
    public static long sum(long a, long b) { return a + b; }
    public static int bitCount(long i) { return Integer.bitCount((int) i) + Integer.bitCount((int) (i >>> 32)); }
    public static int numberOfLeadingZeros(long i) {
        int hi = (int) (i >>> 32);
        return hi == 0 ? 32 + Integer.numberOfLeadingZeros((int) i) : Integer.numberOfLeadingZeros(hi);
    }
    public static int numberOfTrailingZeros(long i) {
        int lo = (int) i;
        return lo == 0 ? 32 + Integer.numberOfTrailingZeros((int) (i >>> 32)) : Integer.numberOfTrailingZeros(lo);
    }
    public static long rotateLeft(long i, int distance) { return (i << distance) | (i >>> -distance); }
    public static long rotateRight(long i, int distance) { return (i >>> distance) | (i << -distance); }
    public static long highestOneBit(long i) { return i & (MIN_VALUE >>> numberOfLeadingZeros(i)); }
    public static long lowestOneBit(long i) { return i & -i; }
}
