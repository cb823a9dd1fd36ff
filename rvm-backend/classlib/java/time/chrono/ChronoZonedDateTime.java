package java.time.chrono;

import java.time.temporal.Temporal;

/** A zoned date-time in some calendar; in rvm only {@code ZonedDateTime} (see {@link ChronoLocalDate}). */
public interface ChronoZonedDateTime<D extends ChronoLocalDate> extends Temporal, Comparable<ChronoZonedDateTime<?>> {
}
