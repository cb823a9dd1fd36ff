package java.io;

import java.nio.charset.Charset;

/**
 * Standard output and error write through the VM (fd 1 and 2, buffered by rvm); a PrintStream
 * over an OutputStream encodes with its charset (UTF-8 by default) and writes to it.
 */
public class PrintStream extends FilterOutputStream implements Appendable, Closeable {
    private final int fd;
    private final Charset charset;
    private final boolean autoFlush;
    private boolean trouble;

    public PrintStream(int fd) { super(null); this.fd = fd; this.charset = Charset.defaultCharset(); this.autoFlush = true; }
    public PrintStream(OutputStream out) { this(out, false); }
    public PrintStream(OutputStream out, boolean autoFlush) { this(out, autoFlush, Charset.defaultCharset()); }
    public PrintStream(OutputStream out, boolean autoFlush, String encoding) throws UnsupportedEncodingException { this(out, autoFlush, Charset.lookupForIo(encoding)); }
    public PrintStream(OutputStream out, boolean autoFlush, Charset charset) {
        super(java.util.Objects.requireNonNull(out, "Null output stream"));
        this.fd = -1;
        this.charset = charset;
        this.autoFlush = autoFlush;
    }
    public PrintStream(String fileName) throws FileNotFoundException { this(new FileOutputStream(fileName), false); }
    public PrintStream(File file) throws FileNotFoundException { this(new FileOutputStream(file), false); }

    private static native void write0(int fd, String s, boolean newline);
    private static native void writeBytes0(int fd, byte[] b, int off, int len);
    private static native void flush0(int fd);

    private void emit(String s, boolean newline) {
        if (fd >= 0) {
            write0(fd, s, newline);
            return;
        }
        try {
            synchronized (this) {
                String t = newline ? s + System.lineSeparator() : s;
                byte[] b = t.getBytes(charset);
                out.write(b, 0, b.length);
                if (autoFlush && (newline || s.indexOf('\n') >= 0)) out.flush();
            }
        } catch (IOException e) {
            trouble = true;
        }
    }

    public void flush() {
        if (fd >= 0) { flush0(fd); return; }
        try {
            out.flush();
        } catch (IOException e) {
            trouble = true;
        }
    }
    public void close() {
        if (fd >= 0) { flush(); return; }
        try {
            out.close();
        } catch (IOException e) {
            trouble = true;
        }
    }
    public boolean checkError() { flush(); return trouble; }
    public void write(int b) {
        if (fd >= 0) { writeBytes0(fd, new byte[] { (byte) b }, 0, 1); return; }
        try {
            out.write(b);
            if (b == '\n' && autoFlush) out.flush();
        } catch (IOException e) {
            trouble = true;
        }
    }
    public void write(byte[] buf, int off, int len) {
        java.util.Objects.checkFromIndexSize(off, len, buf.length);
        if (fd >= 0) { writeBytes0(fd, buf, off, len); return; }
        try {
            out.write(buf, off, len);
            if (autoFlush) out.flush();
        } catch (IOException e) {
            trouble = true;
        }
    }
    public void write(byte[] buf) throws IOException { write(buf, 0, buf.length); }
    public void writeBytes(byte[] buf) { write(buf, 0, buf.length); }
    public void print(String s) { emit(s == null ? "null" : s, false); }
    public void print(Object obj) { print(String.valueOf(obj)); }
    public void print(boolean b) { print(b ? "true" : "false"); }
    public void print(char c) { print(String.valueOf(c)); }
    public void print(int i) { print(String.valueOf(i)); }
    public void print(long l) { print(String.valueOf(l)); }
    public void print(float f) { print(String.valueOf(f)); }
    public void print(double d) { print(String.valueOf(d)); }
    public void print(char[] s) { print(new String(s)); }
    public void println() { emit("", true); }
    public void println(String x) { emit(x == null ? "null" : x, true); }
    public void println(Object x) { println(String.valueOf(x)); }
    public void println(boolean x) { println(x ? "true" : "false"); }
    public void println(char x) { println(String.valueOf(x)); }
    public void println(int x) { println(String.valueOf(x)); }
    public void println(long x) { println(String.valueOf(x)); }
    public void println(float x) { println(String.valueOf(x)); }
    public void println(double x) { println(String.valueOf(x)); }
    public void println(char[] x) { println(new String(x)); }
    public PrintStream printf(String format, Object... args) { print(String.format(format, args)); return this; }
    public PrintStream format(String format, Object... args) { return printf(format, args); }
    public PrintStream append(CharSequence csq) { print(String.valueOf(csq)); return this; }
    public PrintStream append(CharSequence csq, int start, int end) {
        if (csq == null) csq = "null";
        return append(csq.subSequence(start, end));
    }
    public PrintStream append(char c) { print(c); return this; }
}
