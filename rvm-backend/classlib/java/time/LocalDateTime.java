package java.time;

import java.time.temporal.ChronoField;
import java.time.temporal.TemporalAccessor;
import java.time.temporal.TemporalField;
import java.time.temporal.TemporalQueries;
import java.time.temporal.TemporalQuery;

/** A date and a time of day without a zone; the JDK's arithmetic, text and hash. */
public final class LocalDateTime implements java.time.chrono.ChronoLocalDateTime<LocalDate>, java.io.Serializable {
    public static final LocalDateTime MIN = new LocalDateTime(LocalDate.MIN, LocalTime.MIN);
    public static final LocalDateTime MAX = new LocalDateTime(LocalDate.MAX, LocalTime.MAX);

    private final LocalDate date;
    private final LocalTime time;

    private LocalDateTime(LocalDate date, LocalTime time) {
        this.date = date;
        this.time = time;
    }

    public static LocalDateTime now() { return now(ZoneId.systemDefault()); }
    public static LocalDateTime now(ZoneId zone) { return ofInstant(Instant.now(), zone); }

    public static LocalDateTime of(int year, int month, int dayOfMonth, int hour, int minute) {
        return new LocalDateTime(LocalDate.of(year, month, dayOfMonth), LocalTime.of(hour, minute));
    }
    public static LocalDateTime of(int year, int month, int dayOfMonth, int hour, int minute, int second) {
        return new LocalDateTime(LocalDate.of(year, month, dayOfMonth), LocalTime.of(hour, minute, second));
    }
    public static LocalDateTime of(int year, int month, int dayOfMonth, int hour, int minute, int second, int nanoOfSecond) {
        return new LocalDateTime(LocalDate.of(year, month, dayOfMonth), LocalTime.of(hour, minute, second, nanoOfSecond));
    }
    public static LocalDateTime of(int year, Month month, int dayOfMonth, int hour, int minute, int second, int nanoOfSecond) {
        return of(year, month.getValue(), dayOfMonth, hour, minute, second, nanoOfSecond);
    }
    public static LocalDateTime of(LocalDate date, LocalTime time) {
        if (date == null) throw new NullPointerException("date");
        if (time == null) throw new NullPointerException("time");
        return new LocalDateTime(date, time);
    }

    public static LocalDateTime ofInstant(Instant instant, ZoneId zone) {
        ZoneOffset offset = zone.getRules().getOffset(instant);
        return ofEpochSecond(instant.getEpochSecond(), instant.getNano(), offset);
    }

    public static LocalDateTime ofEpochSecond(long epochSecond, int nanoOfSecond, ZoneOffset offset) {
        if (nanoOfSecond < 0 || nanoOfSecond > 999_999_999) throw new DateTimeException(Iso.invalid("NanoOfSecond", 0, 999_999_999, nanoOfSecond));
        long localSecond = epochSecond + offset.getTotalSeconds();
        long localEpochDay = Math.floorDiv(localSecond, 86400);
        int secsOfDay = (int) Math.floorMod(localSecond, 86400);
        LocalDate date = LocalDate.ofEpochDay(localEpochDay);
        LocalTime time = LocalTime.ofNanoOfDay(secsOfDay * LocalTime.NANOS_PER_SECOND + nanoOfSecond);
        return new LocalDateTime(date, time);
    }

    public static LocalDateTime from(TemporalAccessor temporal) {
        if (temporal instanceof LocalDateTime) return (LocalDateTime) temporal;
        if (temporal instanceof ZonedDateTime) return ((ZonedDateTime) temporal).toLocalDateTime();
        if (temporal instanceof OffsetDateTime) return ((OffsetDateTime) temporal).toLocalDateTime();
        try {
            return new LocalDateTime(LocalDate.from(temporal), LocalTime.from(temporal));
        } catch (DateTimeException ex) {
            throw new DateTimeException("Unable to obtain LocalDateTime from TemporalAccessor: " + temporal + " of type " + temporal.getClass().getName(), ex);
        }
    }

    public static LocalDateTime parse(CharSequence text) { return Iso.parseDateTime(text); }

    public LocalDate toLocalDate() { return date; }
    public LocalTime toLocalTime() { return time; }
    public int getYear() { return date.getYear(); }
    public int getMonthValue() { return date.getMonthValue(); }
    public Month getMonth() { return date.getMonth(); }
    public int getDayOfMonth() { return date.getDayOfMonth(); }
    public int getDayOfYear() { return date.getDayOfYear(); }
    public DayOfWeek getDayOfWeek() { return date.getDayOfWeek(); }
    public int getHour() { return time.getHour(); }
    public int getMinute() { return time.getMinute(); }
    public int getSecond() { return time.getSecond(); }
    public int getNano() { return time.getNano(); }

    public long toEpochSecond(ZoneOffset offset) {
        long epochDay = date.toEpochDay();
        long secs = epochDay * 86400 + time.toSecondOfDay();
        return secs - offset.getTotalSeconds();
    }
    public Instant toInstant(ZoneOffset offset) { return Instant.ofEpochSecond(toEpochSecond(offset), time.getNano()); }
    public OffsetDateTime atOffset(ZoneOffset offset) { return OffsetDateTime.of(this, offset); }
    public ZonedDateTime atZone(ZoneId zone) { return ZonedDateTime.of(this, zone); }

    private LocalDateTime with(LocalDate newDate, LocalTime newTime) {
        if (date == newDate && time == newTime) return this;
        return new LocalDateTime(newDate, newTime);
    }
    public LocalDateTime withYear(int year) { return with(date.withYear(year), time); }
    public LocalDateTime withMonth(int month) { return with(date.withMonth(month), time); }
    public LocalDateTime withDayOfMonth(int dayOfMonth) { return with(date.withDayOfMonth(dayOfMonth), time); }
    public LocalDateTime withHour(int hour) { return with(date, time.withHour(hour)); }
    public LocalDateTime withMinute(int minute) { return with(date, time.withMinute(minute)); }
    public LocalDateTime withSecond(int second) { return with(date, time.withSecond(second)); }
    public LocalDateTime withNano(int nanoOfSecond) { return with(date, time.withNano(nanoOfSecond)); }

    public LocalDateTime plusYears(long years) { return with(date.plusYears(years), time); }
    public LocalDateTime plusMonths(long months) { return with(date.plusMonths(months), time); }
    public LocalDateTime plusWeeks(long weeks) { return with(date.plusWeeks(weeks), time); }
    public LocalDateTime plusDays(long days) { return with(date.plusDays(days), time); }
    public LocalDateTime plusHours(long hours) { return plusWithOverflow(hours, 0, 0, 0); }
    public LocalDateTime plusMinutes(long minutes) { return plusWithOverflow(0, minutes, 0, 0); }
    public LocalDateTime plusSeconds(long seconds) { return plusWithOverflow(0, 0, seconds, 0); }
    public LocalDateTime plusNanos(long nanos) { return plusWithOverflow(0, 0, 0, nanos); }
    public LocalDateTime minusYears(long n) { return n == Long.MIN_VALUE ? plusYears(Long.MAX_VALUE).plusYears(1) : plusYears(-n); }
    public LocalDateTime minusMonths(long n) { return n == Long.MIN_VALUE ? plusMonths(Long.MAX_VALUE).plusMonths(1) : plusMonths(-n); }
    public LocalDateTime minusWeeks(long n) { return n == Long.MIN_VALUE ? plusWeeks(Long.MAX_VALUE).plusWeeks(1) : plusWeeks(-n); }
    public LocalDateTime minusDays(long n) { return n == Long.MIN_VALUE ? plusDays(Long.MAX_VALUE).plusDays(1) : plusDays(-n); }
    public LocalDateTime minusHours(long n) { return plusWithOverflow(-n, 0, 0, 0); }
    public LocalDateTime minusMinutes(long n) { return plusWithOverflow(0, -n, 0, 0); }
    public LocalDateTime minusSeconds(long n) { return plusWithOverflow(0, 0, -n, 0); }
    public LocalDateTime minusNanos(long n) { return plusWithOverflow(0, 0, 0, -n); }

    /** The JDK's algorithm: whole days and the rest, each part added without overflow. */
    private LocalDateTime plusWithOverflow(long hours, long minutes, long seconds, long nanos) {
        if ((hours | minutes | seconds | nanos) == 0) return this;
        long totDays = nanos / 86_400_000_000_000L + seconds / 86400 + minutes / 1440 + hours / 24;
        long totNanos = nanos % 86_400_000_000_000L
                + (seconds % 86400) * 1_000_000_000L
                + (minutes % 1440) * 60_000_000_000L
                + (hours % 24) * 3600_000_000_000L;
        long curNoD = time.toNanoOfDay();
        totNanos = totNanos + curNoD;
        totDays += Math.floorDiv(totNanos, 86_400_000_000_000L);
        long newNoD = Math.floorMod(totNanos, 86_400_000_000_000L);
        LocalTime newTime = (newNoD == curNoD ? time : LocalTime.ofNanoOfDay(newNoD));
        return with(date.plusDays(totDays), newTime);
    }

    @Override
    public boolean isSupported(TemporalField field) {
        return field instanceof ChronoField && (field.isDateBased() || field.isTimeBased());
    }
    @Override
    public long getLong(TemporalField field) {
        if (field instanceof ChronoField) return field.isTimeBased() ? time.getLong(field) : date.getLong(field);
        return field.getFrom(this);
    }
    @Override
    @SuppressWarnings("unchecked")
    public <R> R query(TemporalQuery<R> query) {
        if (query == TemporalQueries.localDate()) return (R) date;
        if (query == TemporalQueries.localTime()) return (R) time;
        return java.time.chrono.ChronoLocalDateTime.super.query(query);
    }

    @Override
    public int compareTo(java.time.chrono.ChronoLocalDateTime<?> o) {
        LocalDateTime other = (LocalDateTime) o;
        int cmp = date.compareTo(other.date);
        if (cmp == 0) cmp = time.compareTo(other.time);
        return cmp;
    }
    public boolean isAfter(java.time.chrono.ChronoLocalDateTime<?> other) { return compareTo(other) > 0; }
    public boolean isBefore(java.time.chrono.ChronoLocalDateTime<?> other) { return compareTo(other) < 0; }
    public boolean isEqual(java.time.chrono.ChronoLocalDateTime<?> other) { return compareTo(other) == 0; }

    @Override
    public boolean equals(Object obj) {
        if (this == obj) return true;
        return obj instanceof LocalDateTime && date.equals(((LocalDateTime) obj).date) && time.equals(((LocalDateTime) obj).time);
    }
    @Override
    public int hashCode() { return date.hashCode() ^ time.hashCode(); }
    @Override
    public String toString() { return date.toString() + 'T' + time.toString(); }
}
