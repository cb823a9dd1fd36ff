package java.time;

import java.time.temporal.ChronoField;
import java.time.temporal.Temporal;
import java.time.temporal.TemporalAccessor;
import java.time.temporal.TemporalField;
import java.time.temporal.TemporalQueries;
import java.time.temporal.TemporalQuery;

/** A local date-time with a fixed offset from UTC; the JDK's ordering, text and hash. */
public final class OffsetDateTime implements Temporal, Comparable<OffsetDateTime>, java.io.Serializable {
    private final LocalDateTime dateTime;
    private final ZoneOffset offset;

    private OffsetDateTime(LocalDateTime dateTime, ZoneOffset offset) {
        if (dateTime == null) throw new NullPointerException("dateTime");
        if (offset == null) throw new NullPointerException("offset");
        this.dateTime = dateTime;
        this.offset = offset;
    }

    public static OffsetDateTime now() { return now(ZoneId.systemDefault()); }
    public static OffsetDateTime now(ZoneId zone) { return ofInstant(Instant.now(), zone); }
    public static OffsetDateTime of(LocalDateTime dateTime, ZoneOffset offset) { return new OffsetDateTime(dateTime, offset); }
    public static OffsetDateTime of(LocalDate date, LocalTime time, ZoneOffset offset) { return new OffsetDateTime(LocalDateTime.of(date, time), offset); }
    public static OffsetDateTime of(int year, int month, int dayOfMonth, int hour, int minute, int second, int nanoOfSecond, ZoneOffset offset) {
        return new OffsetDateTime(LocalDateTime.of(year, month, dayOfMonth, hour, minute, second, nanoOfSecond), offset);
    }
    public static OffsetDateTime ofInstant(Instant instant, ZoneId zone) {
        ZoneOffset offset = zone.getRules().getOffset(instant);
        return new OffsetDateTime(LocalDateTime.ofEpochSecond(instant.getEpochSecond(), instant.getNano(), offset), offset);
    }
    public static OffsetDateTime from(TemporalAccessor temporal) {
        if (temporal instanceof OffsetDateTime) return (OffsetDateTime) temporal;
        if (temporal instanceof ZonedDateTime) return ((ZonedDateTime) temporal).toOffsetDateTime();
        try {
            ZoneOffset offset = ZoneOffset.from(temporal);
            return new OffsetDateTime(LocalDateTime.from(temporal), offset);
        } catch (DateTimeException ex) {
            throw new DateTimeException("Unable to obtain OffsetDateTime from TemporalAccessor: " + temporal + " of type " + temporal.getClass().getName(), ex);
        }
    }

    public ZoneOffset getOffset() { return offset; }
    public LocalDateTime toLocalDateTime() { return dateTime; }
    public LocalDate toLocalDate() { return dateTime.toLocalDate(); }
    public LocalTime toLocalTime() { return dateTime.toLocalTime(); }
    public int getYear() { return dateTime.getYear(); }
    public int getMonthValue() { return dateTime.getMonthValue(); }
    public Month getMonth() { return dateTime.getMonth(); }
    public int getDayOfMonth() { return dateTime.getDayOfMonth(); }
    public int getDayOfYear() { return dateTime.getDayOfYear(); }
    public DayOfWeek getDayOfWeek() { return dateTime.getDayOfWeek(); }
    public int getHour() { return dateTime.getHour(); }
    public int getMinute() { return dateTime.getMinute(); }
    public int getSecond() { return dateTime.getSecond(); }
    public int getNano() { return dateTime.getNano(); }
    public long toEpochSecond() { return dateTime.toEpochSecond(offset); }
    public Instant toInstant() { return dateTime.toInstant(offset); }

    public OffsetDateTime withOffsetSameInstant(ZoneOffset offset) {
        if (offset.equals(this.offset)) return this;
        int difference = offset.getTotalSeconds() - this.offset.getTotalSeconds();
        return new OffsetDateTime(dateTime.plusSeconds(difference), offset);
    }
    public OffsetDateTime withOffsetSameLocal(ZoneOffset offset) { return new OffsetDateTime(dateTime, offset); }
    public ZonedDateTime atZoneSameInstant(ZoneId zone) { return ZonedDateTime.ofInstant(toInstant(), zone); }
    public OffsetDateTime plusDays(long days) { return new OffsetDateTime(dateTime.plusDays(days), offset); }
    public OffsetDateTime plusHours(long hours) { return new OffsetDateTime(dateTime.plusHours(hours), offset); }
    public OffsetDateTime plusMinutes(long minutes) { return new OffsetDateTime(dateTime.plusMinutes(minutes), offset); }
    public OffsetDateTime plusSeconds(long seconds) { return new OffsetDateTime(dateTime.plusSeconds(seconds), offset); }
    public OffsetDateTime plusNanos(long nanos) { return new OffsetDateTime(dateTime.plusNanos(nanos), offset); }

    @Override
    public boolean isSupported(TemporalField field) {
        return field instanceof ChronoField && field != null;
    }
    @Override
    public long getLong(TemporalField field) {
        if (field == ChronoField.INSTANT_SECONDS) return toEpochSecond();
        if (field == ChronoField.OFFSET_SECONDS) return offset.getTotalSeconds();
        return dateTime.getLong(field);
    }
    @Override
    @SuppressWarnings("unchecked")
    public <R> R query(TemporalQuery<R> query) {
        if (query == TemporalQueries.offset() || query == TemporalQueries.zone()) return (R) offset;
        if (query == TemporalQueries.zoneId()) return null;
        if (query == TemporalQueries.localDate()) return (R) toLocalDate();
        if (query == TemporalQueries.localTime()) return (R) toLocalTime();
        return query.queryFrom(this);
    }

    @Override
    public int compareTo(OffsetDateTime other) {
        int cmp;
        if (offset.equals(other.offset)) {
            cmp = dateTime.compareTo(other.dateTime);
        } else {
            cmp = Long.compare(toEpochSecond(), other.toEpochSecond());
            if (cmp == 0) cmp = getNano() - other.getNano();
        }
        if (cmp == 0) cmp = dateTime.compareTo(other.dateTime);
        return cmp;
    }
    public boolean isAfter(OffsetDateTime other) {
        long thisEpochSec = toEpochSecond(), otherEpochSec = other.toEpochSecond();
        return thisEpochSec > otherEpochSec || (thisEpochSec == otherEpochSec && getNano() > other.getNano());
    }
    public boolean isBefore(OffsetDateTime other) {
        long thisEpochSec = toEpochSecond(), otherEpochSec = other.toEpochSecond();
        return thisEpochSec < otherEpochSec || (thisEpochSec == otherEpochSec && getNano() < other.getNano());
    }
    public boolean isEqual(OffsetDateTime other) { return toEpochSecond() == other.toEpochSecond() && getNano() == other.getNano(); }

    @Override
    public boolean equals(Object obj) {
        if (this == obj) return true;
        return obj instanceof OffsetDateTime && dateTime.equals(((OffsetDateTime) obj).dateTime) && offset.equals(((OffsetDateTime) obj).offset);
    }
    @Override
    public int hashCode() { return dateTime.hashCode() ^ offset.hashCode(); }
    @Override
    public String toString() { return dateTime.toString() + offset.toString(); }
}
