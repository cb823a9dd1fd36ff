package java.lang;

public final class Byte extends Number implements Comparable<Byte> {
    public static Byte decode(String nm) throws NumberFormatException {
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
        if (result < Byte.MIN_VALUE || result > Byte.MAX_VALUE) throw new NumberFormatException("Value " + result + " out of range from input " + nm);
        return Byte.valueOf((byte) result);
    }

    @SuppressWarnings("unchecked")
    public static final Class<Byte> TYPE = (Class<Byte>) Class.getPrimitiveClass("byte");
    public static final byte MIN_VALUE = -128;
    public static final byte MAX_VALUE = 127;
    public static final int SIZE = 8;
    public static final int BYTES = 1;
    private final byte value;
    private static class ByteCache {
        static final Byte[] cache = new Byte[256];
        static { for (int i = 0; i < 256; i++) cache[i] = new Byte((byte) (i - 128)); }
    }
    public static Byte valueOf(byte b) { return ByteCache.cache[b + 128]; }
    @Deprecated public Byte(byte value) { this.value = value; }
    public static byte parseByte(String s) { return parseByte(s, 10); }
    public static byte parseByte(String s, int radix) {
        int i = Integer.parseInt(s, radix);
        if (i < MIN_VALUE || i > MAX_VALUE) throw new NumberFormatException("Value out of range. Value:\"" + s + "\" Radix:" + radix);
        return (byte) i;
    }
    public static Byte valueOf(String s) { return valueOf(parseByte(s)); }
    public static String toString(byte b) { return Integer.toString(b); }
    public int intValue() { return value; }
    public byte byteValue() { return value; }
    public long longValue() { return value; }
    public float floatValue() { return value; }
    public double doubleValue() { return value; }
    public String toString() { return Integer.toString(value); }
    public int hashCode() { return value; }
    public static int hashCode(byte v) { return v; }
    public boolean equals(Object obj) { return obj instanceof Byte && value == ((Byte) obj).byteValue(); }
    public int compareTo(Byte another) { return value - another.value; }
    public static int compare(byte x, byte y) { return x - y; }
    public static int toUnsignedInt(byte x) { return x & 0xff; }
}
