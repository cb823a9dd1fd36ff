package java.lang.management;

/** Only the thread bean, for threads' CPU time (see ThreadMXBean). */
public final class ManagementFactory {
    private ManagementFactory() {}

    private static native long currentThreadCpuTime0();

    private static final ThreadMXBean THREADS = new ThreadMXBean() {
        private boolean enabled = true;
        public boolean isThreadCpuTimeSupported() { return true; }
        public boolean isCurrentThreadCpuTimeSupported() { return true; }
        public boolean isThreadCpuTimeEnabled() { return enabled; }
        public void setThreadCpuTimeEnabled(boolean enable) { enabled = enable; }
        public long getCurrentThreadCpuTime() { return enabled ? currentThreadCpuTime0() : -1; }
        public long getCurrentThreadUserTime() { return getCurrentThreadCpuTime(); }
        public long getThreadCpuTime(long id) {
            if (id <= 0) throw new IllegalArgumentException("Invalid thread ID parameter: " + id);
            return id == Thread.currentThread().getId() ? getCurrentThreadCpuTime() : -1;
        }
    };

    public static ThreadMXBean getThreadMXBean() { return THREADS; }
}
