package hpmagent;

/**
 * Control of the hpmagent profiler from Java code. The native methods are implemented by
 * libhpmagent.so (HotSpot binds natives from JVMTI agent libraries); without the agent they throw
 * UnsatisfiedLinkError. A program may copy this class as it is.
 */
public final class Agent {
    private Agent() {}

    /** Stops recording method events (the JVM runs compiled code again); true if it was recording. */
    public static native boolean pause();

    /** Resumes recording; true if it was paused. */
    public static native boolean resume();

    /** Drops everything recorded so far. */
    public static native void reset();

    /** Writes the reports into the agent's out= directory now; false on failure. */
    public static native boolean dump();

    /** One line of key=value pairs: paused, threads, methods, events, GC count, … */
    public static native String status();
}
