package java.lang;

import java.io.PrintStream;

public final class System {
    private System() {}
    public static final PrintStream out = new PrintStream(1);
    public static final PrintStream err = new PrintStream(2);
    /** Standard input: file descriptor 0, read by a VM thread of its own (see Stdin). */
    public static final java.io.InputStream in = new jdk.internal.rvm.Stdin();
    public static native void arraycopy(Object src, int srcPos, Object dest, int destPos, int length);
    public static native long currentTimeMillis();
    public static native long nanoTime();
    public static void exit(int status) {
        Runtime.runHooks();
        halt(status);
    }
    static void halt(int status) { out.flush(); exit0(status); }
    private static native void exit0(int status);
    public static native int identityHashCode(Object x);
    public static void gc() { gc0(); }
    private static native void gc0();
    public static String lineSeparator() { return "\n"; }
    private static java.util.Properties props;
    /** The system properties, made at first use: the VM's and the platform's usual keys. */
    public static synchronized java.util.Properties getProperties() {
        if (props == null) {
            java.util.Properties p = new java.util.Properties();
            p.setProperty("line.separator", "\n");
            p.setProperty("file.separator", "/");
            p.setProperty("path.separator", ":");
            p.setProperty("java.version", "17");
            p.setProperty("java.specification.version", "17");
            p.setProperty("java.vm.specification.version", "17");
            p.setProperty("java.class.version", "61.0");
            p.setProperty("java.vendor", "hpmagent");
            p.setProperty("java.vm.name", "rvm");
            p.setProperty("java.vm.vendor", "hpmagent");
            p.setProperty("java.runtime.name", "rvm");
            p.setProperty("os.name", "Linux");
            p.setProperty("os.arch", "amd64");
            p.setProperty("file.encoding", "UTF-8");
            p.setProperty("native.encoding", "UTF-8");
            p.setProperty("sun.jnu.encoding", "UTF-8");
            p.setProperty("user.dir", jdk.internal.rvm.FileIO.cwd());
            p.setProperty("user.home", jdk.internal.rvm.FileIO.homeDir());
            p.setProperty("user.name", jdk.internal.rvm.FileIO.userName());
            String tmp = jdk.internal.rvm.FileIO.tempDir();
            p.setProperty("java.io.tmpdir", tmp.length() > 1 && tmp.endsWith("/") ? tmp.substring(0, tmp.length() - 1) : tmp);
            props = p;
        }
        return props;
    }
    public static synchronized void setProperties(java.util.Properties p) { props = p; }
    public static String getProperty(String key) {
        if (key == null) throw new NullPointerException("key can't be null");
        if (key.isEmpty()) throw new IllegalArgumentException("key can't be empty");
        return getProperties().getProperty(key);
    }
    public static String getProperty(String key, String def) { String v = getProperty(key); return v == null ? def : v; }
    public static String setProperty(String key, String value) { return (String) getProperties().setProperty(key, value); }
    public static String clearProperty(String key) { return (String) getProperties().remove(key); }
    public static String getenv(String name) {
        if (name == null) throw new NullPointerException();
        return jdk.internal.rvm.FileIO.getenv(name);
    }
    public static java.util.Map<String, String> getenv() {
        throw new UnsupportedOperationException("rvm: System.getenv() (the whole environment) is not supported; getenv(name) is");
    }
}
