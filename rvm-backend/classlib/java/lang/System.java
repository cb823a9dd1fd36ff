package java.lang;

import java.io.PrintStream;

public final class System {
    private System() {}
    public static final PrintStream out = new PrintStream(1);
    public static final PrintStream err = new PrintStream(2);
    public static native void arraycopy(Object src, int srcPos, Object dest, int destPos, int length);
    public static native long currentTimeMillis();
    public static native long nanoTime();
    public static void exit(int status) { out.flush(); exit0(status); }
    private static native void exit0(int status);
    public static native int identityHashCode(Object x);
    public static void gc() { gc0(); }
    private static native void gc0();
    public static String lineSeparator() { return "\n"; }
    public static String getProperty(String key) {
        if (key.equals("line.separator")) return "\n";
        if (key.equals("java.vm.name")) return "rvm";
        if (key.equals("java.version")) return "17";
        if (key.equals("file.separator")) return "/";
        if (key.equals("path.separator")) return ":";
        return null;
    }
    public static String getProperty(String key, String def) { String v = getProperty(key); return v == null ? def : v; }
    public static String getenv(String name) { return null; }
}
