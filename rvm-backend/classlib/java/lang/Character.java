package java.lang;

public final class Character implements java.io.Serializable, Comparable<Character> {
    public static final char MIN_VALUE = '\u0000';
    public static final char MAX_VALUE = '\uFFFF';
    public static final int MIN_RADIX = 2;
    public static final int MAX_RADIX = 36;
    private final char value;
    private static class CharacterCache {
        static final Character[] cache = new Character[128];
        static { for (int i = 0; i < 128; i++) cache[i] = new Character((char) i); }
    }
    @Deprecated public Character(char value) { this.value = value; }
    public static Character valueOf(char c) {
        if (c < 128) return CharacterCache.cache[c];
        return new Character(c);
    }
    public char charValue() { return value; }
    public int hashCode() { return value; }
    public static int hashCode(char value) { return value; }
    public boolean equals(Object obj) { return obj instanceof Character && value == ((Character) obj).charValue(); }
    public String toString() { return String.valueOf(value); }
    public static String toString(char c) { return String.valueOf(c); }
    public int compareTo(Character another) { return value - another.value; }
    public static int compare(char x, char y) { return x - y; }
    public static boolean isDigit(char ch) { return ch >= '0' && ch <= '9'; }
    public static boolean isDigit(int ch) { return ch >= '0' && ch <= '9'; }
    public static boolean isLetter(char ch) { return isLetter((int) ch); }
    public static boolean isLetter(int ch) {
        return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= 0xC0 && ch <= 0x24F && ch != 0xD7 && ch != 0xF7);
    }
    public static boolean isLetterOrDigit(char ch) { return isLetter(ch) || isDigit(ch); }
    public static boolean isLetterOrDigit(int ch) { return isLetter(ch) || isDigit(ch); }
    public static boolean isAlphabetic(int ch) { return isLetter(ch); }
    public static boolean isUpperCase(char ch) { return (ch >= 'A' && ch <= 'Z') || (ch >= 0xC0 && ch <= 0xDE && ch != 0xD7); }
    public static boolean isLowerCase(char ch) { return (ch >= 'a' && ch <= 'z') || (ch >= 0xDF && ch <= 0xFF && ch != 0xF7); }
    public static boolean isWhitespace(char ch) { return isWhitespace((int) ch); }
    public static boolean isWhitespace(int ch) { return ch == ' ' || (ch >= 0x09 && ch <= 0x0D) || (ch >= 0x1C && ch <= 0x1F); }
    public static boolean isSpaceChar(char ch) { return ch == ' ' || ch == 0xA0; }
    public static char toUpperCase(char ch) {
        if (ch >= 'a' && ch <= 'z') return (char) (ch - 32);
        if (ch >= 0xE0 && ch <= 0xFE && ch != 0xF7) return (char) (ch - 32);
        if (ch == 0xB5) return (char) 0x39C;
        if (ch == 0xFF) return (char) 0x178;
        return ch;
    }
    public static int toUpperCase(int ch) { return toUpperCase((char) ch); }
    public static char toLowerCase(char ch) {
        if (ch >= 'A' && ch <= 'Z') return (char) (ch + 32);
        if (ch >= 0xC0 && ch <= 0xDE && ch != 0xD7) return (char) (ch + 32);
        return ch;
    }
    public static int toLowerCase(int ch) { return toLowerCase((char) ch); }
    public static int digit(char ch, int radix) { return digit((int) ch, radix); }
    public static int digit(int ch, int radix) {
        int d;
        if (ch >= '0' && ch <= '9') d = ch - '0';
        else if (ch >= 'a' && ch <= 'z') d = ch - 'a' + 10;
        else if (ch >= 'A' && ch <= 'Z') d = ch - 'A' + 10;
        else return -1;
        return d < radix ? d : -1;
    }
    public static int getNumericValue(char ch) { return digit(ch, 36); }
    public static char forDigit(int digit, int radix) {
        if (digit >= radix || digit < 0 || radix < MIN_RADIX || radix > MAX_RADIX) return '\0';
        if (digit < 10) return (char) ('0' + digit);
        return (char) ('a' - 10 + digit);
    }
    public static boolean isHighSurrogate(char ch) { return ch >= 0xD800 && ch <= 0xDBFF; }
    public static boolean isLowSurrogate(char ch) { return ch >= 0xDC00 && ch <= 0xDFFF; }
    public static int charCount(int codePoint) { return codePoint >= 0x10000 ? 2 : 1; }
}
