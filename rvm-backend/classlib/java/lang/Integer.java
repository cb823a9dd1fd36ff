package java.lang;

public final class Integer extends Number implements Comparable<Integer> {
    public static Integer decode(String nm) throws NumberFormatException {
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
            result = Integer.parseInt(nm.substring(index), radix);
            result = negative ? -result : result;
        } catch (NumberFormatException e) {
            String constant = negative ? ("-" + nm.substring(index)) : nm.substring(index);
            result = Integer.parseInt(constant, radix);
        }
        if (result < Integer.MIN_VALUE || result > Integer.MAX_VALUE) throw new NumberFormatException("Value " + result + " out of range from input " + nm);
        return Integer.valueOf((int) result);
    }

    @SuppressWarnings("unchecked")
    public static final Class<Integer> TYPE = (Class<Integer>) Class.getPrimitiveClass("int");
    public static final int MIN_VALUE = 0x80000000;
    public static final int MAX_VALUE = 0x7fffffff;
    public static final int SIZE = 32;
    public static final int BYTES = 4;
    private final int value;

    private static class IntegerCache {
        static final Integer[] cache = new Integer[256];
        static { for (int i = 0; i < 256; i++) cache[i] = new Integer(i - 128); }
    }
    public static Integer valueOf(int i) {
        if (i >= -128 && i <= 127) return IntegerCache.cache[i + 128];
        return new Integer(i);
    }
    public static Integer valueOf(String s) { return valueOf(parseInt(s, 10)); }
    public static Integer valueOf(String s, int radix) { return valueOf(parseInt(s, radix)); }
    @Deprecated public Integer(int value) { this.value = value; }
    @Deprecated public Integer(String s) { this.value = parseInt(s, 10); }

    public static String toString(int i) {
        if (i == MIN_VALUE) return "-2147483648";
        char[] buf = new char[11];
        int pos = 11;
        boolean neg = i < 0;
        if (neg) i = -i;
        do { buf[--pos] = (char) ('0' + i % 10); i /= 10; } while (i != 0);
        if (neg) buf[--pos] = '-';
        return new String(buf, pos, 11 - pos);
    }
    public static String toString(int i, int radix) {
        if (radix < 2 || radix > 36) radix = 10;
        if (radix == 10) return toString(i);
        return Long.toString(i, radix);
    }
    private static String toUnsigned(int i, int shift) {
        char[] buf = new char[32];
        int pos = 32, mask = (1 << shift) - 1;
        do { buf[--pos] = Character.forDigit(i & mask, 1 << shift); i >>>= shift; } while (i != 0);
        return new String(buf, pos, 32 - pos);
    }
    public static String toHexString(int i) { return toUnsigned(i, 4); }
    public static String toOctalString(int i) { return toUnsigned(i, 3); }
    public static String toBinaryString(int i) { return toUnsigned(i, 1); }
    public static String toUnsignedString(int i) { return Long.toString(i & 0xffffffffL); }

    public static int parseInt(String s) throws NumberFormatException { return parseInt(s, 10); }
    /** The digits of {@code s} from {@code beginIndex} to {@code endIndex}, with the JDK's messages ("Error at index N in: ..."). */
    public static int parseInt(CharSequence s, int beginIndex, int endIndex, int radix) throws NumberFormatException {
        if (s == null) throw new NullPointerException();
        if (beginIndex < 0 || beginIndex > endIndex || endIndex > s.length()) throw new IndexOutOfBoundsException();
        if (radix < 2) throw new NumberFormatException("radix " + radix + " less than Character.MIN_RADIX");
        if (radix > 36) throw new NumberFormatException("radix " + radix + " greater than Character.MAX_RADIX");
        if (beginIndex == endIndex) throw new NumberFormatException("For input string: \"\"" + (radix == 10 ? "" : " under radix " + radix));
        boolean negative = false;
        int i = beginIndex;
        int limit = -Integer.MAX_VALUE;
        char firstChar = s.charAt(i);
        if (firstChar < '0') {
            if (firstChar == '-') {
                negative = true;
                limit = Integer.MIN_VALUE;
            } else if (firstChar != '+') {
                throw errorAt(s, beginIndex, endIndex, i);
            }
            i++;
            if (i == endIndex) throw errorAt(s, beginIndex, endIndex, i);
        }
        int multmin = limit / radix;
        int result = 0;
        while (i < endIndex) {
            int digit = Character.digit(s.charAt(i), radix);
            if (digit < 0 || result < multmin) throw errorAt(s, beginIndex, endIndex, i);
            result *= radix;
            if (result < limit + digit) throw errorAt(s, beginIndex, endIndex, i);
            i++;
            result -= digit;
        }
        return negative ? result : -result;
    }
    private static NumberFormatException errorAt(CharSequence s, int beginIndex, int endIndex, int errorIndex) {
        return new NumberFormatException("Error at index " + (errorIndex - beginIndex) + " in: \"" + s.subSequence(beginIndex, endIndex) + "\"");
    }
    public static int parseInt(String s, int radix) throws NumberFormatException {
        if (s == null) throw new NumberFormatException("Cannot parse null string: null");
        if (radix < 2) throw new NumberFormatException("radix " + radix + " less than Character.MIN_RADIX");
        if (radix > 36) throw new NumberFormatException("radix " + radix + " greater than Character.MAX_RADIX");
        int len = s.length();
        if (len == 0) throw new NumberFormatException("For input string: \"\"" + (radix == 10 ? "" : " under radix " + radix));
        boolean negative = false;
        int i = 0;
        int limit = -MAX_VALUE;
        char first = s.charAt(0);
        if (first < '0') {
            if (first == '-') { negative = true; limit = MIN_VALUE; }
            else if (first != '+') throw NumberFormatException.forInputString(s, radix);
            if (len == 1) throw NumberFormatException.forInputString(s, radix);
            i++;
        }
        int multmin = limit / radix;
        int result = 0;
        while (i < len) {
            int digit = Character.digit(s.charAt(i++), radix);
            if (digit < 0 || result < multmin) throw NumberFormatException.forInputString(s, radix);
            result *= radix;
            if (result < limit + digit) throw NumberFormatException.forInputString(s, radix);
            result -= digit;
        }
        return negative ? result : -result;
    }
    public byte byteValue() { return (byte) value; }
    public short shortValue() { return (short) value; }
    public int intValue() { return value; }
    public long longValue() { return value; }
    public float floatValue() { return value; }
    public double doubleValue() { return value; }
    public String toString() { return toString(value); }
    public int hashCode() { return value; }
    public static int hashCode(int value) { return value; }
    public boolean equals(Object obj) { return obj instanceof Integer && value == ((Integer) obj).intValue(); }
    public int compareTo(Integer anotherInteger) { return compare(value, anotherInteger.value); }
    public static int compare(int x, int y) { return (x < y) ? -1 : ((x == y) ? 0 : 1); }
    public static int compareUnsigned(int x, int y) { return compare(x + MIN_VALUE, y + MIN_VALUE); }
    public static int signum(int i) { return (i >> 31) | (-i >>> 31); }
    public static int abs(int a) { return a < 0 ? -a : a; }
    public static int max(int a, int b) { return Math.max(a, b); }
    public static int min(int a, int b) { return Math.min(a, b); }
    public static int sum(int a, int b) { return a + b; }
    public static int bitCount(int i) {
        i = i - ((i >>> 1) & 0x55555555);
        i = (i & 0x33333333) + ((i >>> 2) & 0x33333333);
        i = (i + (i >>> 4)) & 0x0f0f0f0f;
        i = i + (i >>> 8);
        i = i + (i >>> 16);
        return i & 0x3f;
    }
    public static int numberOfLeadingZeros(int i) {
        if (i <= 0) return i == 0 ? 32 : 0;
        int n = 31;
        if (i >= 1 << 16) { n -= 16; i >>>= 16; }
        if (i >= 1 << 8) { n -= 8; i >>>= 8; }
        if (i >= 1 << 4) { n -= 4; i >>>= 4; }
        if (i >= 1 << 2) { n -= 2; i >>>= 2; }
        return n - (i >>> 1);
    }
    public static int numberOfTrailingZeros(int i) {
        if (i == 0) return 32;
        int n = 0;
        while ((i & 1) == 0) { i >>>= 1; n++; }
        return n;
    }
    public static int highestOneBit(int i) { return i & (MIN_VALUE >>> numberOfLeadingZeros(i)); }
    public static int lowestOneBit(int i) { return i & -i; }
    public static int rotateLeft(int i, int distance) { return (i << distance) | (i >>> -distance); }
    public static int rotateRight(int i, int distance) { return (i >>> distance) | (i << -distance); }
    public static int reverse(int i) {
        int r = 0;
        for (int k = 0; k < 32; k++) { r = (r << 1) | (i & 1); i >>>= 1; }
        return r;
    }
    public static int reverseBytes(int i) { return (i << 24) | ((i & 0xff00) << 8) | ((i >>> 8) & 0xff00) | (i >>> 24); }
    public static int divideUnsigned(int dividend, int divisor) { return (int) ((dividend & 0xffffffffL) / (divisor & 0xffffffffL)); }
    public static int remainderUnsigned(int dividend, int divisor) { return (int) ((dividend & 0xffffffffL) % (divisor & 0xffffffffL)); }
}
