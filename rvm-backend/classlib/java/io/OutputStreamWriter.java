package java.io;

import java.nio.charset.Charset;

public class OutputStreamWriter extends Writer {
    private final OutputStream out;
    private final Charset cs;
    private final StringBuilder pending = new StringBuilder();

    public OutputStreamWriter(OutputStream out) { this(out, Charset.defaultCharset()); }
    public OutputStreamWriter(OutputStream out, String charsetName) throws UnsupportedEncodingException { this(out, Charset.lookupForIo(charsetName)); }
    public OutputStreamWriter(OutputStream out, Charset cs) {
        super(out);
        this.out = java.util.Objects.requireNonNull(out);
        this.cs = java.util.Objects.requireNonNull(cs, "charset");
    }
    public String getEncoding() { return cs.name(); }
    public void write(char[] cbuf, int off, int len) throws IOException {
        java.util.Objects.checkFromIndexSize(off, len, cbuf.length);
        synchronized (lock) {
            pending.append(cbuf, off, len);
            if (pending.length() >= 8192) flushBuffer();
        }
    }
    /** Encodes what is pending, keeping a trailing high surrogate for its partner. */
    void flushBuffer() throws IOException {
        int n = pending.length();
        if (n == 0) return;
        if (Character.isHighSurrogate(pending.charAt(n - 1))) n--;
        char[] c = new char[n];
        pending.getChars(0, n, c, 0);
        pending.delete(0, n);
        byte[] b = cs.encodeChars(c, 0, n);
        out.write(b, 0, b.length);
    }
    public void flush() throws IOException {
        synchronized (lock) {
            flushBuffer();
            out.flush();
        }
    }
    public void close() throws IOException {
        synchronized (lock) {
            flushBuffer();
            out.close();
        }
    }
}
