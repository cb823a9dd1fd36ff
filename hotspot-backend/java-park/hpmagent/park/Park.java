package hpmagent.park;

/**
 * The natives that {@code java.util.concurrent.locks.LockSupport}'s park methods call once the
 * agent has wrapped them (see the instrument crate's park module): an entry native per kind of
 * park, with the blocker (null without one) and the method's time argument, and the exit native
 * at every return and exceptional exit. Defined by the agent in the boot loader, which registers
 * the natives before it wraps LockSupport; the agent times each park of the calling thread.
 */
public final class Park {
    private Park() {}

    /** park(), park(Object blocker): until unparked ({@code time} is 0). */
    public static native void untimed(Object blocker, long time);

    /** parkNanos: at most {@code nanos} nanoseconds. */
    public static native void nanos(Object blocker, long nanos);

    /** parkUntil: until {@code deadline}, milliseconds since the epoch. */
    public static native void until(Object blocker, long deadline);

    /** Every exit of a wrapped method; {@code method} names it. */
    public static native void exit(int method);
}
