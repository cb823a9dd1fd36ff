package java.lang;

public final class Short extends Number implements Comparable<Short> {
    public static Short decode(String nm) throws NumberFormatException {
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
        if (result < Short.MIN_VALUE || result > Short.MAX_VALUE) throw new NumberFormatException("Value " + result + " out of range from input " + nm);
        return Short.valueOf((short) result);
    }

    @SuppressWarnings("unchecked")
    public static final Class<Short> TYPE = (Class<Short>) Class.getPrimitiveClass("short");
    public static final short MIN_VALUE = -32768;
    public static final short MAX_VALUE = 32767;
    public static final int SIZE = 16;
    public static final int BYTES = 2;
    private final short value;
    private static class ShortCache {
        static final Short[] cache = new Short[256];
        static { for (int i = 0; i < 256; i++) cache[i] = new Short((short) (i - 128)); }
    }
    public static Short valueOf(short s) {
        if (s >= -128 && s <= 127) return ShortCache.cache[s + 128];
        return new Short(s);
    }
    @Deprecated public Short(short value) { this.value = value; }
    public static short parseShort(String s) { return parseShort(s, 10); }
    public static short parseShort(String s, int radix) {
        int i = Integer.parseInt(s, radix);
        if (i < MIN_VALUE || i > MAX_VALUE) throw new NumberFormatException("Value out of range. Value:\"" + s + "\" Radix:" + radix);
        return (short) i;
    }
    public static Short valueOf(String s) { return valueOf(parseShort(s)); }
    public static String toString(short s) { return Integer.toString(s); }
    public int intValue() { return value; }
    public short shortValue() { return value; }
    public long longValue() { return value; }
    public float floatValue() { return value; }
    public double doubleValue() { return value; }
    public String toString() { return Integer.toString(value); }
    public int hashCode() { return value; }
    public static int hashCode(short v) { return v; }
    public boolean equals(Object obj) { return obj instanceof Short && value == ((Short) obj).shortValue(); }
    public int compareTo(Short another) { return value - another.value; }
    public static int compare(short x, short y) { return x - y; }
}
