package java.io;

public class PrintStream {
    private final int fd;
    public PrintStream(int fd) { this.fd = fd; }
    private static native void write0(int fd, String s, boolean newline);
    private static native void flush0(int fd);
    public void flush() { flush0(fd); }
    public void close() { flush(); }
    public void write(int b) { write0(fd, String.valueOf((char) (b & 0xff)), false); }
    public void print(String s) { write0(fd, s == null ? "null" : s, false); }
    public void print(Object obj) { print(String.valueOf(obj)); }
    public void print(boolean b) { print(b ? "true" : "false"); }
    public void print(char c) { print(String.valueOf(c)); }
    public void print(int i) { print(String.valueOf(i)); }
    public void print(long l) { print(String.valueOf(l)); }
    public void print(float f) { print(String.valueOf(f)); }
    public void print(double d) { print(String.valueOf(d)); }
    public void print(char[] s) { print(new String(s)); }
    public void println() { write0(fd, "", true); }
    public void println(String x) { write0(fd, x == null ? "null" : x, true); }
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
    public PrintStream append(char c) { print(c); return this; }
}
