package java.time.chrono;

import java.time.temporal.Temporal;

/**
 * A date in some calendar. rvm has the ISO calendar only, so {@code LocalDate} is the one
 * implementation; the type exists for the JDK's method descriptors ({@code LocalDate.compareTo},
 * {@code isBefore}, ...) and declares none of the generic methods.
 */
public interface ChronoLocalDate extends Temporal, Comparable<ChronoLocalDate> {
}
