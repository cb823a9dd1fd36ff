package java.io;

import java.util.Arrays;
import java.util.Objects;

public abstract class InputStream implements Closeable {
    public InputStream() {}
    public static InputStream nullInputStream() {
        return new InputStream() {
            public int read() { return -1; }
        };
    }
    public abstract int read() throws IOException;
    public int read(byte[] b) throws IOException { return read(b, 0, b.length); }
    public int read(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        if (len == 0) return 0;
        int c = read();
        if (c == -1) return -1;
        b[off] = (byte) c;
        int i = 1;
        for (; i < len; i++) {
            c = read();
            if (c == -1) break;
            b[off + i] = (byte) c;
        }
        return i;
    }
    public byte[] readAllBytes() throws IOException { return readNBytes(Integer.MAX_VALUE); }
    public byte[] readNBytes(int len) throws IOException {
        if (len < 0) throw new IllegalArgumentException("len < 0");
        byte[] buf = new byte[Math.min(len, 8192)];
        int n = 0;
        while (n < len) {
            if (n == buf.length) buf = Arrays.copyOf(buf, (int) Math.min((long) len, buf.length * 2L));
            int r = read(buf, n, buf.length - n);
            if (r < 0) break;
            n += r;
        }
        return Arrays.copyOf(buf, n);
    }
    public int readNBytes(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        int n = 0;
        while (n < len) {
            int count = read(b, off + n, len - n);
            if (count < 0) break;
            n += count;
        }
        return n;
    }
    public long skip(long n) throws IOException {
        long remaining = n;
        if (n <= 0) return 0;
        int size = (int) Math.min(2048, remaining);
        byte[] skipBuffer = new byte[size];
        while (remaining > 0) {
            int nr = read(skipBuffer, 0, (int) Math.min(size, remaining));
            if (nr < 0) break;
            remaining -= nr;
        }
        return n - remaining;
    }
    public int available() throws IOException { return 0; }
    public void close() throws IOException {}
    public synchronized void mark(int readlimit) {}
    public synchronized void reset() throws IOException { throw new IOException("mark/reset not supported"); }
    public boolean markSupported() { return false; }
    public long transferTo(OutputStream out) throws IOException {
        long transferred = 0;
        byte[] buffer = new byte[8192];
        int read;
        while ((read = this.read(buffer, 0, 8192)) >= 0) {
            out.write(buffer, 0, read);
            transferred += read;
        }
        return transferred;
    }
}
