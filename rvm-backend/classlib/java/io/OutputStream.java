package java.io;

import java.util.Objects;

public abstract class OutputStream implements Closeable, Flushable {
    public OutputStream() {}
    public static OutputStream nullOutputStream() {
        return new OutputStream() {
            public void write(int b) {}
        };
    }
    public abstract void write(int b) throws IOException;
    public void write(byte[] b) throws IOException { write(b, 0, b.length); }
    public void write(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        for (int i = 0; i < len; i++) write(b[off + i]);
    }
    public void flush() throws IOException {}
    public void close() throws IOException {}
}
