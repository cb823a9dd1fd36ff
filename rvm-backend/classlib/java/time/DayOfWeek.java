package java.time;

import java.time.temporal.ChronoField;
import java.time.temporal.TemporalAccessor;
import java.time.temporal.TemporalField;
import java.time.temporal.UnsupportedTemporalTypeException;

public enum DayOfWeek implements TemporalAccessor {
    MONDAY, TUESDAY, WEDNESDAY, THURSDAY, FRIDAY, SATURDAY, SUNDAY;

    private static final DayOfWeek[] ENUMS = values();

    public static DayOfWeek of(int dayOfWeek) {
        if (dayOfWeek < 1 || dayOfWeek > 7) throw new DateTimeException("Invalid value for DayOfWeek: " + dayOfWeek);
        return ENUMS[dayOfWeek - 1];
    }
    public static DayOfWeek from(TemporalAccessor temporal) {
        if (temporal instanceof DayOfWeek) return (DayOfWeek) temporal;
        return of(temporal.get(ChronoField.DAY_OF_WEEK));
    }
    public int getValue() { return ordinal() + 1; }
    public DayOfWeek plus(long days) { return ENUMS[(ordinal() + (int) (days % 7) + 7) % 7]; }
    public DayOfWeek minus(long days) { return plus(-(days % 7)); }

    @Override
    public boolean isSupported(TemporalField field) { return field == ChronoField.DAY_OF_WEEK; }
    @Override
    public long getLong(TemporalField field) {
        if (field == ChronoField.DAY_OF_WEEK) return getValue();
        throw new UnsupportedTemporalTypeException("Unsupported field: " + field);
    }
}
