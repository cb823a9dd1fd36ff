package java.time.temporal;

/** Read-only access to the fields of a date, time or offset. */
public interface TemporalAccessor {
    boolean isSupported(TemporalField field);
    long getLong(TemporalField field);

    /** The field's value as an int; as on the JDK, a field whose range exceeds an int (EpochDay, NanoOfDay, ...) is refused whatever its value. */
    default int get(TemporalField field) {
        if (field instanceof ChronoField && !((ChronoField) field).isIntValue())
            throw new UnsupportedTemporalTypeException("Invalid field '" + field + "' for get() method, use getLong() instead");
        long value = getLong(field);
        if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE)
            throw new UnsupportedTemporalTypeException("Invalid field '" + field + "' for get() method, use getLong() instead");
        return (int) value;
    }

    default <R> R query(TemporalQuery<R> query) {
        if (query == TemporalQueries.zoneId()) return null;
        return query.queryFrom(this);
    }
}
