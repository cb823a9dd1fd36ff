package java.util.zip;

import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/** Decompresses a deflate stream read from another stream. */
public class InflaterInputStream extends FilterInputStream {
    protected Inflater inf;
    protected byte[] buf;
    protected int len;
    private boolean closed, reachEOF, ownsInflater;
    private final byte[] one = new byte[1];

    public InflaterInputStream(InputStream in, Inflater inf, int size) {
        super(in);
        if (in == null || inf == null) throw new NullPointerException();
        if (size <= 0) throw new IllegalArgumentException("buffer size <= 0");
        this.inf = inf;
        this.buf = new byte[size];
    }
    public InflaterInputStream(InputStream in, Inflater inf) { this(in, inf, 512); }
    public InflaterInputStream(InputStream in) {
        this(in, new Inflater(), 512);
        ownsInflater = true;
    }

    private void ensureOpen() throws IOException {
        if (closed) throw new IOException("Stream closed");
    }

    public int read() throws IOException {
        ensureOpen();
        return read(one, 0, 1) == -1 ? -1 : one[0] & 0xff;
    }

    public int read(byte[] b, int off, int len) throws IOException {
        ensureOpen();
        if (off < 0 || len < 0 || len > b.length - off) throw new IndexOutOfBoundsException();
        if (len == 0) return 0;
        try {
            int n;
            while ((n = inf.inflate(b, off, len)) == 0) {
                if (inf.finished() || inf.needsDictionary()) {
                    reachEOF = true;
                    return -1;
                }
                if (inf.needsInput()) fill();
            }
            return n;
        } catch (DataFormatException e) {
            String s = e.getMessage();
            throw new ZipException(s != null ? s : "Invalid ZLIB data format");
        }
    }

    public int available() throws IOException {
        ensureOpen();
        return reachEOF ? 0 : 1;
    }

    public long skip(long n) throws IOException {
        if (n < 0) throw new IllegalArgumentException("negative skip length");
        ensureOpen();
        byte[] b = new byte[(int) Math.min(n, 512)];
        long total = 0;
        while (total < n) {
            int k = read(b, 0, (int) Math.min(n - total, b.length));
            if (k == -1) { reachEOF = true; break; }
            total += k;
        }
        return total;
    }

    public void close() throws IOException {
        if (!closed) {
            if (ownsInflater) inf.end();
            in.close();
            closed = true;
        }
    }

    protected void fill() throws IOException {
        ensureOpen();
        len = in.read(buf, 0, buf.length);
        if (len == -1) throw new EOFException("Unexpected end of ZLIB input stream");
        inf.setInput(buf, 0, len);
    }

    public boolean markSupported() { return false; }
    public void mark(int readlimit) {}
    public void reset() throws IOException { throw new IOException("mark/reset not supported"); }
}
