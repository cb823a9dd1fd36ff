package java.time.temporal;

/** A field of date-time, such as month-of-year; rvm's fields are those of {@link ChronoField}. */
public interface TemporalField {
    boolean isDateBased();
    boolean isTimeBased();
    boolean isSupportedBy(TemporalAccessor temporal);
    long getFrom(TemporalAccessor temporal);
}
