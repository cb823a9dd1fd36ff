package java.nio.charset;

/**
 * The charsets rvm knows: UTF-8, ISO-8859-1, US-ASCII and UTF-16 (big-endian with a byte-order
 * mark when encoding, as the JDK's "UTF-16"), UTF-16BE and UTF-16LE. Malformed input decodes to
 * U+FFFD and unmappable characters encode to '?', as String's constructors and getBytes do.
 */
public abstract class Charset implements Comparable<Charset> {
    private final String name;
    private final String[] aliases;

    protected Charset(String canonicalName, String[] aliases) {
        this.name = canonicalName;
        this.aliases = aliases == null ? new String[0] : aliases;
    }

    public final String name() { return name; }
    public String displayName() { return name; }
    public final java.util.Set<String> aliases() { return new java.util.HashSet<>(java.util.Arrays.asList(aliases)); }
    public final boolean isRegistered() { return true; }
    public boolean canEncode() { return true; }
    public final String toString() { return name; }
    public final int hashCode() { return name.hashCode(); }
    public final boolean equals(Object o) { return o instanceof Charset && name.equals(((Charset) o).name); }
    public final int compareTo(Charset that) { return name.compareToIgnoreCase(that.name); }

    /** Decodes bytes to UTF-16 units (malformed input becomes U+FFFD). */
    public abstract char[] decodeChars(byte[] b, int off, int len);
    /** Encodes UTF-16 units (unmappable ones become '?'). */
    public abstract byte[] encodeChars(char[] c, int off, int len);

    public static Charset defaultCharset() { return StandardCharsets.UTF_8; }

    public static boolean isSupported(String charsetName) { return lookup(charsetName) != null; }

    public static Charset forName(String charsetName) {
        Charset c = lookup(charsetName);
        if (c == null) throw new UnsupportedCharsetException(charsetName);
        return c;
    }
    public static Charset forName(String charsetName, Charset fallback) {
        Charset c = charsetName == null ? null : lookup(charsetName);
        return c == null ? fallback : c;
    }

    /** For String and the java.io classes taking a charset name. */
    public static Charset lookupForIo(String charsetName) throws java.io.UnsupportedEncodingException {
        if (charsetName == null) throw new NullPointerException("charsetName");
        Charset c = lookup(charsetName);
        if (c == null) throw new java.io.UnsupportedEncodingException(charsetName);
        return c;
    }

    static Charset lookup(String n) {
        if (n == null) throw new IllegalArgumentException("Null charset name");
        if (n.isEmpty()) throw new IllegalCharsetNameException(n);
        String u = n.toUpperCase();
        switch (u) {
            case "UTF-8": case "UTF8": case "UNICODE-1-1-UTF-8": return StandardCharsets.UTF_8;
            case "ISO-8859-1": case "ISO8859_1": case "ISO_8859_1": case "LATIN1": case "L1": case "ISO-LATIN-1": case "8859_1": case "ISO8859-1": return StandardCharsets.ISO_8859_1;
            case "US-ASCII": case "ASCII": case "US_ASCII": case "ISO646-US": return StandardCharsets.US_ASCII;
            case "UTF-16": case "UTF_16": case "UTF16": return StandardCharsets.UTF_16;
            case "UTF-16BE": case "UTF_16BE": case "X-UTF-16BE": return StandardCharsets.UTF_16BE;
            case "UTF-16LE": case "UTF_16LE": case "X-UTF-16LE": return StandardCharsets.UTF_16LE;
            default: return null;
        }
    }

    static final class Utf8 extends Charset {
        Utf8() { super("UTF-8", new String[] { "unicode-1-1-utf-8", "UTF8" }); }
        public char[] decodeChars(byte[] b, int off, int len) {
            char[] out = new char[len];
            int n = 0, i = off, end = off + len;
            while (i < end) {
                int c = b[i] & 0xff;
                if (c < 0x80) { out[n++] = (char) c; i++; continue; }
                int need, cp;
                if (c >= 0xC2 && c <= 0xDF) { need = 1; cp = c & 0x1F; }
                else if (c >= 0xE0 && c <= 0xEF) { need = 2; cp = c & 0x0F; }
                else if (c >= 0xF0 && c <= 0xF4) { need = 3; cp = c & 0x07; }
                else { out[n++] = '\uFFFD'; i++; continue; }
                int j = i + 1, k = 0;
                boolean ok = true;
                while (k < need) {
                    if (j >= end || (b[j] & 0xC0) != 0x80) { ok = false; break; }
                    int cc = b[j] & 0x3F;
                    if (k == 0) {
                        if (c == 0xE0 && (b[j] & 0xff) < 0xA0) { ok = false; break; }
                        if (c == 0xED && (b[j] & 0xff) > 0x9F) { ok = false; break; }
                        if (c == 0xF0 && (b[j] & 0xff) < 0x90) { ok = false; break; }
                        if (c == 0xF4 && (b[j] & 0xff) > 0x8F) { ok = false; break; }
                    }
                    cp = (cp << 6) | cc;
                    j++;
                    k++;
                }
                if (!ok) { out[n++] = '\uFFFD'; i = j > i + 1 ? j : i + 1; continue; }
                if (cp >= 0x10000) {
                    cp -= 0x10000;
                    out[n++] = (char) (0xD800 + (cp >> 10));
                    out[n++] = (char) (0xDC00 + (cp & 0x3FF));
                } else {
                    out[n++] = (char) cp;
                }
                i = j;
            }
            return java.util.Arrays.copyOf(out, n);
        }
        public byte[] encodeChars(char[] s, int off, int len) {
            byte[] out = new byte[len * 3];
            int n = 0, end = off + len;
            for (int i = off; i < end; i++) {
                char c = s[i];
                if (c < 0x80) out[n++] = (byte) c;
                else if (c < 0x800) { out[n++] = (byte) (0xC0 | (c >> 6)); out[n++] = (byte) (0x80 | (c & 0x3F)); }
                else if (Character.isHighSurrogate(c) && i + 1 < end && Character.isLowSurrogate(s[i + 1])) {
                    int cp = 0x10000 + ((c - 0xD800) << 10) + (s[i + 1] - 0xDC00);
                    out[n++] = (byte) (0xF0 | (cp >> 18));
                    out[n++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                    out[n++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                    out[n++] = (byte) (0x80 | (cp & 0x3F));
                    i++;
                } else if (Character.isHighSurrogate(c) || Character.isLowSurrogate(c)) {
                    out[n++] = '?';
                } else {
                    out[n++] = (byte) (0xE0 | (c >> 12));
                    out[n++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                    out[n++] = (byte) (0x80 | (c & 0x3F));
                }
            }
            return java.util.Arrays.copyOf(out, n);
        }
    }

    static final class SingleByte extends Charset {
        private final int max;
        SingleByte(String name, String[] aliases, int max) { super(name, aliases); this.max = max; }
        public char[] decodeChars(byte[] b, int off, int len) {
            char[] out = new char[len];
            for (int i = 0; i < len; i++) {
                int c = b[off + i] & 0xff;
                out[i] = c <= max ? (char) c : '\uFFFD';
            }
            return out;
        }
        public byte[] encodeChars(char[] s, int off, int len) {
            byte[] out = new byte[len];
            int n = 0;
            for (int i = off; i < off + len; i++) {
                char c = s[i];
                if (Character.isHighSurrogate(c) && i + 1 < off + len && Character.isLowSurrogate(s[i + 1])) i++;
                out[n++] = c <= max ? (byte) c : (byte) '?';
            }
            return java.util.Arrays.copyOf(out, n);
        }
    }

    static final class Utf16 extends Charset {
        private final int order; // 0: BOM when encoding, big-endian; 1: big-endian; 2: little-endian
        Utf16(String name, int order) { super(name, new String[0]); this.order = order; }
        public char[] decodeChars(byte[] b, int off, int len) {
            boolean little = order == 2;
            int i = off, end = off + len;
            if (order == 0 && len >= 2) {
                int bom = ((b[i] & 0xff) << 8) | (b[i + 1] & 0xff);
                if (bom == 0xFEFF) i += 2;
                else if (bom == 0xFFFE) { little = true; i += 2; }
            }
            char[] out = new char[(end - i + 1) / 2];
            int n = 0;
            for (; i + 1 < end; i += 2) {
                int hi = b[i] & 0xff, lo = b[i + 1] & 0xff;
                out[n++] = little ? (char) ((lo << 8) | hi) : (char) ((hi << 8) | lo);
            }
            if (i < end) out[n++] = '\uFFFD';
            return java.util.Arrays.copyOf(out, n);
        }
        public byte[] encodeChars(char[] s, int off, int len) {
            int bom = order == 0 ? 2 : 0;
            byte[] out = new byte[bom + len * 2];
            if (bom == 2) { out[0] = (byte) 0xFE; out[1] = (byte) 0xFF; }
            for (int i = 0; i < len; i++) {
                char c = s[off + i];
                if (order == 2) { out[bom + 2 * i] = (byte) c; out[bom + 2 * i + 1] = (byte) (c >> 8); }
                else { out[bom + 2 * i] = (byte) (c >> 8); out[bom + 2 * i + 1] = (byte) c; }
            }
            return out;
        }
    }
}
