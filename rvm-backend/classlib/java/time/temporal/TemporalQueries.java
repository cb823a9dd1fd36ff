package java.time.temporal;

import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** The common queries: zone, offset, local date and time (no chronology or precision in rvm). */
public final class TemporalQueries {
    private TemporalQueries() {}

    private static final TemporalQuery<ZoneId> ZONE_ID = t -> t.query(TemporalQueries.ZONE_ID);
    private static final TemporalQuery<ZoneOffset> OFFSET = t -> t.isSupported(ChronoField.OFFSET_SECONDS)
            ? ZoneOffset.ofTotalSeconds(t.get(ChronoField.OFFSET_SECONDS)) : null;
    private static final TemporalQuery<ZoneId> ZONE = t -> {
        ZoneId zone = t.query(ZONE_ID);
        return zone != null ? zone : t.query(OFFSET);
    };
    private static final TemporalQuery<LocalDate> LOCAL_DATE = t -> t.isSupported(ChronoField.EPOCH_DAY)
            ? LocalDate.ofEpochDay(t.getLong(ChronoField.EPOCH_DAY)) : null;
    private static final TemporalQuery<LocalTime> LOCAL_TIME = t -> t.isSupported(ChronoField.NANO_OF_DAY)
            ? LocalTime.ofNanoOfDay(t.getLong(ChronoField.NANO_OF_DAY)) : null;

    public static TemporalQuery<ZoneId> zoneId() { return ZONE_ID; }
    public static TemporalQuery<ZoneOffset> offset() { return OFFSET; }
    public static TemporalQuery<ZoneId> zone() { return ZONE; }
    public static TemporalQuery<LocalDate> localDate() { return LOCAL_DATE; }
    public static TemporalQuery<LocalTime> localTime() { return LOCAL_TIME; }
}
