package java.time.chrono;

import java.time.temporal.Temporal;

/** A date-time in some calendar; in rvm only {@code LocalDateTime} (see {@link ChronoLocalDate}). */
public interface ChronoLocalDateTime<D extends ChronoLocalDate> extends Temporal, Comparable<ChronoLocalDateTime<?>> {
}
