package java.nio.charset;

public final class StandardCharsets {
    private StandardCharsets() {}
    public static final Charset US_ASCII = new Charset.SingleByte("US-ASCII", new String[] { "ASCII", "us-ascii" }, 0x7F);
    public static final Charset ISO_8859_1 = new Charset.SingleByte("ISO-8859-1", new String[] { "latin1", "ISO8859_1" }, 0xFF);
    public static final Charset UTF_8 = new Charset.Utf8();
    public static final Charset UTF_16BE = new Charset.Utf16("UTF-16BE", 1);
    public static final Charset UTF_16LE = new Charset.Utf16("UTF-16LE", 2);
    public static final Charset UTF_16 = new Charset.Utf16("UTF-16", 0);
}
