package java.io;

import java.util.Objects;

public abstract class Reader implements Readable, Closeable {
    protected Object lock;
    protected Reader() { this.lock = this; }
    protected Reader(Object lock) { this.lock = Objects.requireNonNull(lock); }
    public static Reader nullReader() {
        return new Reader() {
            public int read(char[] cbuf, int off, int len) { return -1; }
            public void close() {}
        };
    }
    public int read(java.nio.CharBuffer target) throws IOException { throw new UnsupportedOperationException("rvm: java.nio buffers are not implemented"); }
    public int read() throws IOException {
        char[] cb = new char[1];
        return read(cb, 0, 1) == -1 ? -1 : cb[0];
    }
    public int read(char[] cbuf) throws IOException { return read(cbuf, 0, cbuf.length); }
    public abstract int read(char[] cbuf, int off, int len) throws IOException;
    public long skip(long n) throws IOException {
        if (n < 0L) throw new IllegalArgumentException("skip value is negative");
        char[] skipBuffer = new char[(int) Math.min(n, 8192)];
        long r = n;
        while (r > 0) {
            int nc = read(skipBuffer, 0, (int) Math.min(r, skipBuffer.length));
            if (nc == -1) break;
            r -= nc;
        }
        return n - r;
    }
    public boolean ready() throws IOException { return false; }
    public boolean markSupported() { return false; }
    public void mark(int readAheadLimit) throws IOException { throw new IOException("mark() not supported"); }
    public void reset() throws IOException { throw new IOException("reset() not supported"); }
    public abstract void close() throws IOException;
    public long transferTo(Writer out) throws IOException {
        long transferred = 0;
        char[] buffer = new char[8192];
        int nRead;
        while ((nRead = read(buffer, 0, 8192)) >= 0) {
            out.write(buffer, 0, nRead);
            transferred += nRead;
        }
        return transferred;
    }
}
