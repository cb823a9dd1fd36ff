package java.lang;

public final class Character implements java.io.Serializable, Comparable<Character> {
    @SuppressWarnings("unchecked")
    public static final Class<Character> TYPE = (Class<Character>) Class.getPrimitiveClass("char");
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
    public static boolean isUpperCase(int ch) { return ch < 0x10000 && isUpperCase((char) ch); }
    public static boolean isLowerCase(int ch) { return ch < 0x10000 && isLowerCase((char) ch); }
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
    public static final char MIN_HIGH_SURROGATE = '\uD800';
    public static final char MAX_HIGH_SURROGATE = '\uDBFF';
    public static final char MIN_LOW_SURROGATE = '\uDC00';
    public static final char MAX_LOW_SURROGATE = '\uDFFF';
    public static final char MIN_SURROGATE = MIN_HIGH_SURROGATE;
    public static final char MAX_SURROGATE = MAX_LOW_SURROGATE;
    public static final int MIN_SUPPLEMENTARY_CODE_POINT = 0x010000;
    public static final int MIN_CODE_POINT = 0x000000;
    public static final int MAX_CODE_POINT = 0X10FFFF;
    public static final int SIZE = 16;
    public static final int BYTES = 2;
    public static boolean isSurrogate(char ch) { return ch >= MIN_SURROGATE && ch < (MAX_SURROGATE + 1); }
    public static boolean isSurrogatePair(char high, char low) { return isHighSurrogate(high) && isLowSurrogate(low); }
    public static boolean isValidCodePoint(int codePoint) { int plane = codePoint >>> 16; return plane < ((MAX_CODE_POINT + 1) >>> 16); }
    public static boolean isBmpCodePoint(int codePoint) { return codePoint >>> 16 == 0; }
    public static boolean isSupplementaryCodePoint(int codePoint) { return codePoint >= MIN_SUPPLEMENTARY_CODE_POINT && codePoint < MAX_CODE_POINT + 1; }
    public static int toCodePoint(char high, char low) { return ((high << 10) + low) + (MIN_SUPPLEMENTARY_CODE_POINT - (MIN_HIGH_SURROGATE << 10) - MIN_LOW_SURROGATE); }
    public static char highSurrogate(int codePoint) { return (char) ((codePoint >>> 10) + (MIN_HIGH_SURROGATE - (MIN_SUPPLEMENTARY_CODE_POINT >>> 10))); }
    public static char lowSurrogate(int codePoint) { return (char) ((codePoint & 0x3ff) + MIN_LOW_SURROGATE); }
    public static int codePointAt(CharSequence seq, int index) {
        char c1 = seq.charAt(index);
        if (isHighSurrogate(c1) && ++index < seq.length()) {
            char c2 = seq.charAt(index);
            if (isLowSurrogate(c2)) return toCodePoint(c1, c2);
        }
        return c1;
    }
    public static int codePointAt(char[] a, int index) {
        char c1 = a[index];
        if (isHighSurrogate(c1) && ++index < a.length) {
            char c2 = a[index];
            if (isLowSurrogate(c2)) return toCodePoint(c1, c2);
        }
        return c1;
    }
    public static int codePointBefore(CharSequence seq, int index) {
        char c2 = seq.charAt(--index);
        if (isLowSurrogate(c2) && index > 0) {
            char c1 = seq.charAt(--index);
            if (isHighSurrogate(c1)) return toCodePoint(c1, c2);
        }
        return c2;
    }
    public static int codePointCount(CharSequence seq, int beginIndex, int endIndex) {
        int n = endIndex - beginIndex;
        for (int i = beginIndex; i < endIndex; ) {
            if (isHighSurrogate(seq.charAt(i++)) && i < endIndex && isLowSurrogate(seq.charAt(i))) { n--; i++; }
        }
        return n;
    }
    public static char[] toChars(int codePoint) {
        if (isBmpCodePoint(codePoint)) return new char[] { (char) codePoint };
        if (isValidCodePoint(codePoint)) return new char[] { highSurrogate(codePoint), lowSurrogate(codePoint) };
        throw new IllegalArgumentException(String.format("Not a valid Unicode code point: 0x%X", codePoint));
    }
    public static int toChars(int codePoint, char[] dst, int dstIndex) {
        char[] c = toChars(codePoint);
        System.arraycopy(c, 0, dst, dstIndex, c.length);
        return c.length;
    }
    public static String toString(int codePoint) { return new String(toChars(codePoint)); }
    /** Title case is upper case for the characters rvm maps (Latin-1, and the few title-case digraphs). */
    public static char toTitleCase(char ch) {
        switch (ch) {
            case 0x01C4: case 0x01C5: case 0x01C6: return (char) 0x01C5;
            case 0x01C7: case 0x01C8: case 0x01C9: return (char) 0x01C8;
            case 0x01CA: case 0x01CB: case 0x01CC: return (char) 0x01CB;
            case 0x01F1: case 0x01F2: case 0x01F3: return (char) 0x01F2;
            default: return toUpperCase(ch);
        }
    }
    public static int toTitleCase(int codePoint) { return codePoint < 0x10000 ? toTitleCase((char) codePoint) : codePoint; }
    public static boolean isTitleCase(char ch) { return ch == 0x01C5 || ch == 0x01C8 || ch == 0x01CB || ch == 0x01F2; }
    public static boolean isTitleCase(int ch) { return ch < 0x10000 && isTitleCase((char) ch); }
    public static boolean isDefined(int ch) { return ch >= 0 && ch <= MAX_CODE_POINT; }
    public static boolean isJavaIdentifierStart(char ch) { return isJavaIdentifierStart((int) ch); }
    public static boolean isJavaIdentifierStart(int ch) { return isLetter(ch) || ch == '$' || ch == '_'; }
    public static boolean isJavaIdentifierPart(char ch) { return isJavaIdentifierPart((int) ch); }
    public static boolean isJavaIdentifierPart(int ch) { return isLetterOrDigit(ch) || ch == '$' || ch == '_' || (ch >= 0 && ch <= 8) || (ch >= 0x0E && ch <= 0x1B) || (ch >= 0x7F && ch <= 0x9F); }
    public static boolean isUnicodeIdentifierStart(int ch) { return isLetter(ch); }
    public static boolean isUnicodeIdentifierPart(int ch) { return isLetterOrDigit(ch) || ch == '_'; }
    public static boolean isISOControl(char ch) { return isISOControl((int) ch); }
    public static boolean isISOControl(int codePoint) { return codePoint <= 0x9F && (codePoint >= 0x7F || (codePoint >>> 5 == 0)); }
    public static boolean isSpaceChar(int ch) { return ch < 0x10000 && isSpaceChar((char) ch); }
    public static int getNumericValue(int ch) { return digit(ch, 36); }
    public static char reverseBytes(char ch) { return (char) (((ch & 0xFF00) >> 8) | (ch << 8)); }
    public static final byte UNASSIGNED = 0, UPPERCASE_LETTER = 1, LOWERCASE_LETTER = 2, TITLECASE_LETTER = 3, MODIFIER_LETTER = 4, OTHER_LETTER = 5,
        NON_SPACING_MARK = 6, ENCLOSING_MARK = 7, COMBINING_SPACING_MARK = 8, DECIMAL_DIGIT_NUMBER = 9, LETTER_NUMBER = 10, OTHER_NUMBER = 11,
        SPACE_SEPARATOR = 12, LINE_SEPARATOR = 13, PARAGRAPH_SEPARATOR = 14, CONTROL = 15, FORMAT = 16, PRIVATE_USE = 18, SURROGATE = 19,
        DASH_PUNCTUATION = 20, START_PUNCTUATION = 21, END_PUNCTUATION = 22, CONNECTOR_PUNCTUATION = 23, OTHER_PUNCTUATION = 24, MATH_SYMBOL = 25,
        CURRENCY_SYMBOL = 26, MODIFIER_SYMBOL = 27, OTHER_SYMBOL = 28, INITIAL_QUOTE_PUNCTUATION = 29, FINAL_QUOTE_PUNCTUATION = 30;
    /** HotSpot's categories of U+0000 to U+024F ('A' + category); beyond, letters and digits by the predicates above. */
    private static final String TYPES = "PPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPMYYY[YYYVWYZYUYYJJJJJJJJJJYYZZZYYBBBBBBBBBBBBBBBBBBBBBBBBBBVYW\\X\\CCCCCCCCCCCCCCCCCCCCCCCCCCVZWZPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPMY[[[[]Y\\]F^ZQ]\\]ZLL\\CYY\\LF_LLLYBBBBBBBBBBBBBBBBBBBBBBBZBBBBBBBCCCCCCCCCCCCCCCCCCCCCCCCZCCCCCCCCBCBCBCBCBCBCBCBCBCBCBCBCBCBCBCBCBCBCBCBCBCBCBCBCBCBCBCBCCBCBCBCBCBCBCBCBCCBCBCBCBCBCBCBCBCBCBCBCBCBCBCBCBCBCBCBCBCBCBCBCBBCBCBCCCBBCBCBBCBBBCCBBBBCBBCBBBCCCBBCBBCBCBCBBCBCCBCBBCBBBCBCBBCCFBCCCFFFFBDCBDCBDCBCBCBCBCBCBCBCBCCBCBCBCBCBCBCBCBCBCCBDCBCBBBCBCBCBCBCBCBCBCBCBCBCBCBCBCBCBCBCBCBCBCBCBCBCBCBCBCBCBCBCBCCCCCCCBBCBBCCBCBBBBCBCBCBCBC";
    public static int getType(char ch) { return getType((int) ch); }
    public static int getType(int ch) {
        if (ch >= 0 && ch < TYPES.length()) return TYPES.charAt(ch) - 'A';
        if (ch >= 0xD800 && ch <= 0xDFFF) return SURROGATE;
        if (ch >= 0xE000 && ch <= 0xF8FF) return PRIVATE_USE;
        if (ch >= 0x0300 && ch <= 0x036F) return NON_SPACING_MARK;
        if (ch == 0x2028) return LINE_SEPARATOR;
        if (ch == 0x2029) return PARAGRAPH_SEPARATOR;
        if (isUpperCase(ch)) return UPPERCASE_LETTER;
        if (isLowerCase(ch)) return LOWERCASE_LETTER;
        if (isLetter(ch)) return OTHER_LETTER;
        if (isDigit(ch)) return DECIMAL_DIGIT_NUMBER;
        return UNASSIGNED;
    }
}
