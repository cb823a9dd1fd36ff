package hpmagent;

/**
 * Markers in hpmagent's quantum traces: the start and end of the application and of each measured
 * run, and free-text notes, each recorded with the time, processor and thread that placed it.
 *
 * <p>On the research VM (rvm) this class is part of the bundled class library (compiled from this
 * very file, which wins over a copy on the class path) and {@code mark0} is a VM native that
 * hands the marker to the loaded agent (without an agent a marker does nothing). On HotSpot the
 * agent library binds {@code mark0} ({@code Java_hpmagent_Trace_mark0}); without it the first
 * marker's {@link UnsatisfiedLinkError} turns marking off silently, so programs that place
 * markers run unchanged on plain {@code java}.
 */
public final class Trace {
    private Trace() {}

    // Marker kinds (rvm_abi::marker_kind, the quantum-trace record formats).
    private static final int APP_START = 2;
    private static final int APP_COMPLETE = 3;
    private static final int RUN_START = 4;
    private static final int RUN_COMPLETE = 5;
    private static final int NOTE = 7;

    /** False once the native turned out not to be there. */
    private static volatile boolean enabled = true;

    /** The application starts (call at the beginning of {@code main}). */
    public static void appStart(String name) {
        mark(APP_START, 0, name);
    }

    /** The application is done. */
    public static void appComplete(String name) {
        mark(APP_COMPLETE, 0, name);
    }

    /** Measured run number {@code run} starts. */
    public static void runStart(int run, String name) {
        mark(RUN_START, run, name);
    }

    /** Measured run number {@code run} is done. */
    public static void runComplete(int run, String name) {
        mark(RUN_COMPLETE, run, name);
    }

    /** A free-text note. */
    public static void note(String text) {
        mark(NOTE, 0, text);
    }

    private static void mark(int kind, int run, String text) {
        if (!enabled) {
            return;
        }
        try {
            mark0(kind, run, text == null ? "" : text);
        } catch (UnsatisfiedLinkError e) {
            enabled = false;
        }
    }

    private static native void mark0(int kind, int run, String text);
}
