package java.util.concurrent;

public enum TimeUnit {
    NANOSECONDS(1L),
    MICROSECONDS(1000L),
    MILLISECONDS(1000L * 1000L),
    SECONDS(1000L * 1000L * 1000L),
    MINUTES(60L * 1000L * 1000L * 1000L),
    HOURS(60L * 60L * 1000L * 1000L * 1000L),
    DAYS(24L * 60L * 60L * 1000L * 1000L * 1000L);

    /** Nanoseconds in one unit. */
    private final long scale;

    TimeUnit(long scale) { this.scale = scale; }

    /** d units of this into units of scale {@code to}, saturating. */
    private long to(long d, long to) {
        if (scale == to) return d;
        if (scale < to) return d / (to / scale);
        long ratio = scale / to;
        long max = Long.MAX_VALUE / ratio;
        if (d > max) return Long.MAX_VALUE;
        if (d < -max) return Long.MIN_VALUE;
        return d * ratio;
    }

    public long convert(long sourceDuration, TimeUnit sourceUnit) { return sourceUnit.to(sourceDuration, scale); }
    public long toNanos(long duration) { return to(duration, NANOSECONDS.scale); }
    public long toMicros(long duration) { return to(duration, MICROSECONDS.scale); }
    public long toMillis(long duration) { return to(duration, MILLISECONDS.scale); }
    public long toSeconds(long duration) { return to(duration, SECONDS.scale); }
    public long toMinutes(long duration) { return to(duration, MINUTES.scale); }
    public long toHours(long duration) { return to(duration, HOURS.scale); }
    public long toDays(long duration) { return to(duration, DAYS.scale); }

    public void sleep(long timeout) throws InterruptedException {
        if (timeout > 0) {
            long ms = toMillis(timeout);
            long ns = toNanos(timeout) - ms * 1000000L;
            Thread.sleep(ms + (ns > 0 ? 1 : 0));
        }
    }
    public void timedJoin(Thread thread, long timeout) throws InterruptedException {
        if (timeout > 0) thread.join(Math.max(1L, toMillis(timeout)));
    }
    public void timedWait(Object obj, long timeout) throws InterruptedException {
        if (timeout > 0) obj.wait(Math.max(1L, toMillis(timeout)));
    }
}
