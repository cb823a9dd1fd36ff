package java.lang.management;

/**
 * The thread CPU-time part of the JDK's interface. rvm measures a thread's CPU time as the CPU
 * time of its processor's OS thread while that processor ran it (from the switch to it to the
 * switch away), so it includes the interpreter's own work for the thread and nothing of others'.
 */
public interface ThreadMXBean {
    boolean isThreadCpuTimeSupported();
    boolean isCurrentThreadCpuTimeSupported();
    boolean isThreadCpuTimeEnabled();
    void setThreadCpuTimeEnabled(boolean enable);
    long getCurrentThreadCpuTime();
    long getCurrentThreadUserTime();
    /** The current thread's CPU time for its own id; -1 for other threads (rvm does not read them). */
    long getThreadCpuTime(long id);
}
