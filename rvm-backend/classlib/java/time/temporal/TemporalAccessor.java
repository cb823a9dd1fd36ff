package java.time.temporal;

/** Read-only access to the fields of a date, time or offset. */
public interface TemporalAccessor {
    boolean isSupported(TemporalField field);
    long getLong(TemporalField field);

    default int get(TemporalField field) {
        long value = getLong(field);
        if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE)
            throw new UnsupportedTemporalTypeException("Invalid field " + field + " for get() method, use getLong() instead");
        return (int) value;
    }

    default <R> R query(TemporalQuery<R> query) {
        if (query == TemporalQueries.zoneId()) return null;
        return query.queryFrom(this);
    }
}
