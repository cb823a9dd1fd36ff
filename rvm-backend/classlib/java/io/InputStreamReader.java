package java.io;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/** Decodes bytes read in blocks; a character split across blocks waits for its remaining bytes. */
public class InputStreamReader extends Reader {
    private final InputStream in;
    private final Charset cs;
    private final byte[] bytes = new byte[8192];
    private int nbytes;
    private char[] chars = new char[0];
    private int cpos;
    private boolean eof;

    public InputStreamReader(InputStream in) { this(in, Charset.defaultCharset()); }
    public InputStreamReader(InputStream in, String charsetName) throws UnsupportedEncodingException {
        this(in, Charset.lookupForIo(charsetName));
    }
    public InputStreamReader(InputStream in, Charset cs) {
        super(in);
        this.in = java.util.Objects.requireNonNull(in);
        this.cs = java.util.Objects.requireNonNull(cs, "charset");
    }
    public String getEncoding() { return cs.name(); }

    /** How many of the first n bytes form whole characters. */
    private int whole(int n) {
        if (eof) return n;
        String name = cs.name();
        if (name.startsWith("UTF-16")) return n & ~1;
        if (!name.equals("UTF-8")) return n;
        for (int back = 1; back <= 3 && back <= n; back++) {
            int b = bytes[n - back] & 0xff;
            if ((b & 0xC0) == 0x80) continue; // continuation byte
            int need = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1;
            return need > back ? n - back : n;
        }
        return n;
    }

    private boolean fill() throws IOException {
        while (cpos >= chars.length) {
            if (eof && nbytes == 0) return false;
            if (!eof) {
                int r = in.read(bytes, nbytes, bytes.length - nbytes);
                if (r < 0) eof = true; else nbytes += r;
            }
            int use = whole(nbytes);
            if (use == 0 && !eof) continue;
            chars = cs.decodeChars(bytes, 0, use);
            cpos = 0;
            System.arraycopy(bytes, use, bytes, 0, nbytes - use);
            nbytes -= use;
        }
        return true;
    }

    public int read() throws IOException {
        synchronized (lock) {
            if (!fill()) return -1;
            return chars[cpos++];
        }
    }
    public int read(char[] cbuf, int off, int len) throws IOException {
        java.util.Objects.checkFromIndexSize(off, len, cbuf.length);
        if (len == 0) return 0;
        synchronized (lock) {
            if (!fill()) return -1;
            int n = Math.min(len, chars.length - cpos);
            System.arraycopy(chars, cpos, cbuf, off, n);
            cpos += n;
            return n;
        }
    }
    public boolean ready() throws IOException { return cpos < chars.length || in.available() > 0; }
    public void close() throws IOException { in.close(); }
}
