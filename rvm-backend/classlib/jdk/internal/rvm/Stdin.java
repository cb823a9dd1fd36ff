package jdk.internal.rvm;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;

/**
 * {@code System.in}: the VM reads file descriptor 0 on an OS thread of its own into a buffer
 * (stdin.rs); a read takes what is there, and while nothing is the thread sleeps a millisecond at
 * a time, so waiting for input never holds a processor.
 */
public final class Stdin extends InputStream {
    private static native int read0(byte[] b, int off, int len);
    private static native int available0();

    public int read() throws IOException {
        byte[] b = new byte[1];
        int n = read(b, 0, 1);
        return n <= 0 ? -1 : b[0] & 0xff;
    }

    public int read(byte[] b, int off, int len) throws IOException {
        java.util.Objects.checkFromIndexSize(off, len, b.length);
        if (len == 0) return 0;
        for (;;) {
            int n = read0(b, off, len);
            if (n != 0) return n;
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("read interrupted");
            }
        }
    }

    public int available() { return available0(); }
}
