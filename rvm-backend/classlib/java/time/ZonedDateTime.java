package java.time;

import java.time.temporal.ChronoField;
import java.time.temporal.Temporal;
import java.time.temporal.TemporalAccessor;
import java.time.temporal.TemporalField;
import java.time.temporal.TemporalQueries;
import java.time.temporal.TemporalQuery;

/**
 * A local date-time in a zone. rvm's zones have one fixed offset, so there are no gaps or overlaps
 * to resolve; the text and hash are the JDK's.
 */
public final class ZonedDateTime implements java.time.chrono.ChronoZonedDateTime<LocalDate>, java.io.Serializable {
    private final LocalDateTime dateTime;
    private final ZoneOffset offset;
    private final ZoneId zone;

    private ZonedDateTime(LocalDateTime dateTime, ZoneOffset offset, ZoneId zone) {
        this.dateTime = dateTime;
        this.offset = offset;
        this.zone = zone;
    }

    public static ZonedDateTime now() { return now(ZoneId.systemDefault()); }
    public static ZonedDateTime now(ZoneId zone) { return ofInstant(Instant.now(), zone); }
    public static ZonedDateTime of(LocalDateTime localDateTime, ZoneId zone) {
        if (localDateTime == null) throw new NullPointerException("localDateTime");
        if (zone == null) throw new NullPointerException("zone");
        if (zone instanceof ZoneOffset) return new ZonedDateTime(localDateTime, (ZoneOffset) zone, zone);
        return new ZonedDateTime(localDateTime, zone.getRules().getOffset(localDateTime), zone);
    }
    public static ZonedDateTime of(LocalDate date, LocalTime time, ZoneId zone) { return of(LocalDateTime.of(date, time), zone); }
    public static ZonedDateTime of(int year, int month, int dayOfMonth, int hour, int minute, int second, int nanoOfSecond, ZoneId zone) {
        return of(LocalDateTime.of(year, month, dayOfMonth, hour, minute, second, nanoOfSecond), zone);
    }
    public static ZonedDateTime ofInstant(Instant instant, ZoneId zone) {
        if (instant == null) throw new NullPointerException("instant");
        if (zone == null) throw new NullPointerException("zone");
        ZoneOffset offset = zone.getRules().getOffset(instant);
        return new ZonedDateTime(LocalDateTime.ofEpochSecond(instant.getEpochSecond(), instant.getNano(), offset), offset, zone);
    }
    public static ZonedDateTime ofInstant(LocalDateTime localDateTime, ZoneOffset offset, ZoneId zone) {
        return ofInstant(localDateTime.toInstant(offset), zone);
    }

    public ZoneOffset getOffset() { return offset; }
    public ZoneId getZone() { return zone; }
    public LocalDateTime toLocalDateTime() { return dateTime; }
    public LocalDate toLocalDate() { return dateTime.toLocalDate(); }
    public LocalTime toLocalTime() { return dateTime.toLocalTime(); }
    public OffsetDateTime toOffsetDateTime() { return OffsetDateTime.of(dateTime, offset); }
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

    public ZonedDateTime withZoneSameInstant(ZoneId zone) { return zone.equals(this.zone) ? this : ofInstant(toInstant(), zone); }
    public ZonedDateTime withZoneSameLocal(ZoneId zone) { return zone.equals(this.zone) ? this : of(dateTime, zone); }
    public ZonedDateTime plusDays(long days) { return of(dateTime.plusDays(days), zone); }
    public ZonedDateTime plusHours(long hours) { return ofInstant(toInstant().plusSeconds(Math.multiplyExact(hours, 3600)), zone); }
    public ZonedDateTime plusMinutes(long minutes) { return ofInstant(toInstant().plusSeconds(Math.multiplyExact(minutes, 60)), zone); }
    public ZonedDateTime plusSeconds(long seconds) { return ofInstant(toInstant().plusSeconds(seconds), zone); }
    public ZonedDateTime plusNanos(long nanos) { return ofInstant(toInstant().plusNanos(nanos), zone); }

    @Override
    public boolean isSupported(TemporalField field) { return field instanceof ChronoField; }
    @Override
    public long getLong(TemporalField field) {
        if (field == ChronoField.INSTANT_SECONDS) return toEpochSecond();
        if (field == ChronoField.OFFSET_SECONDS) return offset.getTotalSeconds();
        return dateTime.getLong(field);
    }
    @Override
    @SuppressWarnings("unchecked")
    public <R> R query(TemporalQuery<R> query) {
        if (query == TemporalQueries.zoneId() || query == TemporalQueries.zone()) return (R) zone;
        if (query == TemporalQueries.offset()) return (R) offset;
        if (query == TemporalQueries.localDate()) return (R) toLocalDate();
        if (query == TemporalQueries.localTime()) return (R) toLocalTime();
        return query.queryFrom(this);
    }

    @Override
    public int compareTo(java.time.chrono.ChronoZonedDateTime<?> o) {
        ZonedDateTime other = (ZonedDateTime) o;
        int cmp = Long.compare(toEpochSecond(), other.toEpochSecond());
        if (cmp == 0) {
            cmp = getNano() - other.getNano();
            if (cmp == 0) {
                cmp = dateTime.compareTo(other.dateTime);
                if (cmp == 0) cmp = zone.getId().compareTo(other.zone.getId());
            }
        }
        return cmp;
    }
    public boolean isAfter(java.time.chrono.ChronoZonedDateTime<?> other) { return toInstant().isAfter(((ZonedDateTime) other).toInstant()); }
    public boolean isBefore(java.time.chrono.ChronoZonedDateTime<?> other) { return toInstant().isBefore(((ZonedDateTime) other).toInstant()); }
    public boolean isEqual(java.time.chrono.ChronoZonedDateTime<?> other) { return toInstant().equals(((ZonedDateTime) other).toInstant()); }

    @Override
    public boolean equals(Object obj) {
        if (this == obj) return true;
        if (!(obj instanceof ZonedDateTime)) return false;
        ZonedDateTime o = (ZonedDateTime) obj;
        return dateTime.equals(o.dateTime) && offset.equals(o.offset) && zone.equals(o.zone);
    }
    @Override
    public int hashCode() { return dateTime.hashCode() ^ offset.hashCode() ^ Integer.rotateLeft(zone.hashCode(), 3); }
    @Override
    public String toString() {
        String str = dateTime.toString() + offset.toString();
        if (offset != zone) str = str + '[' + zone.toString() + ']';
        return str;
    }
}
