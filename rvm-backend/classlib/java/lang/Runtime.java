package java.lang;

public class Runtime {
    private static final Runtime currentRuntime = new Runtime();
    private Runtime() {}
    public static Runtime getRuntime() { return currentRuntime; }
    public int availableProcessors() { return availableProcessors0(); }
    public long maxMemory() { return maxMemory0(); }
    public long totalMemory() { return totalMemory0(); }
    public long freeMemory() { return freeMemory0(); }
    public void gc() { System.gc(); }
    public void exit(int status) { System.exit(status); }
    public void halt(int status) { System.exit(status); }
    private static native int availableProcessors0();
    private static native long maxMemory0();
    private static native long totalMemory0();
    private static native long freeMemory0();
}
