package java.time;

import java.time.temporal.ChronoField;
import java.time.temporal.TemporalAccessor;
import java.time.temporal.TemporalField;
import java.time.temporal.TemporalQueries;
import java.time.temporal.TemporalQuery;
import java.time.temporal.UnsupportedTemporalTypeException;

/** A time of day to the nanosecond; the JDK's arithmetic, text and hash. */
public final class LocalTime implements java.time.temporal.Temporal, Comparable<LocalTime>, java.io.Serializable {
    static final long NANOS_PER_SECOND = 1000_000_000L;
    static final long NANOS_PER_DAY = 86400L * NANOS_PER_SECOND;

    public static final LocalTime MIN = new LocalTime(0, 0, 0, 0);
    public static final LocalTime MAX = new LocalTime(23, 59, 59, 999_999_999);
    public static final LocalTime MIDNIGHT = MIN;
    public static final LocalTime NOON = new LocalTime(12, 0, 0, 0);

    private final byte hour;
    private final byte minute;
    private final byte second;
    private final int nano;

    private LocalTime(int hour, int minute, int second, int nanoOfSecond) {
        this.hour = (byte) hour;
        this.minute = (byte) minute;
        this.second = (byte) second;
        this.nano = nanoOfSecond;
    }

    public static LocalTime now() { return now(ZoneId.systemDefault()); }
    public static LocalTime now(ZoneId zone) { return ofInstant(Instant.now(), zone); }

    public static LocalTime ofInstant(Instant instant, ZoneId zone) {
        ZoneOffset offset = zone.getRules().getOffset(instant);
        long localSecond = instant.getEpochSecond() + offset.getTotalSeconds();
        return ofNanoOfDay(Math.floorMod(localSecond, 86400L) * NANOS_PER_SECOND + instant.getNano());
    }

    public static LocalTime of(int hour, int minute) { return of(hour, minute, 0, 0); }
    public static LocalTime of(int hour, int minute, int second) { return of(hour, minute, second, 0); }

    public static LocalTime of(int hour, int minute, int second, int nanoOfSecond) {
        check("HourOfDay", 0, 23, hour);
        check("MinuteOfHour", 0, 59, minute);
        check("SecondOfMinute", 0, 59, second);
        check("NanoOfSecond", 0, 999_999_999, nanoOfSecond);
        return new LocalTime(hour, minute, second, nanoOfSecond);
    }

    private static void check(String field, long min, long max, long value) {
        if (value < min || value > max) throw new DateTimeException(Iso.invalid(field, min, max, value));
    }

    public static LocalTime ofSecondOfDay(long secondOfDay) {
        check("SecondOfDay", 0, 86399, secondOfDay);
        int hours = (int) (secondOfDay / 3600);
        secondOfDay -= hours * 3600L;
        int minutes = (int) (secondOfDay / 60);
        secondOfDay -= minutes * 60L;
        return new LocalTime(hours, minutes, (int) secondOfDay, 0);
    }

    public static LocalTime ofNanoOfDay(long nanoOfDay) {
        check("NanoOfDay", 0, NANOS_PER_DAY - 1, nanoOfDay);
        int hours = (int) (nanoOfDay / 3600_000_000_000L);
        nanoOfDay -= hours * 3600_000_000_000L;
        int minutes = (int) (nanoOfDay / 60_000_000_000L);
        nanoOfDay -= minutes * 60_000_000_000L;
        int seconds = (int) (nanoOfDay / NANOS_PER_SECOND);
        nanoOfDay -= seconds * NANOS_PER_SECOND;
        return new LocalTime(hours, minutes, seconds, (int) nanoOfDay);
    }

    public static LocalTime from(TemporalAccessor temporal) {
        LocalTime time = temporal.query(TemporalQueries.localTime());
        if (time == null) throw new DateTimeException("Unable to obtain LocalTime from TemporalAccessor: " + temporal + " of type " + temporal.getClass().getName());
        return time;
    }

    public static LocalTime parse(CharSequence text) { return Iso.parseTime(text); }

    public int getHour() { return hour; }
    public int getMinute() { return minute; }
    public int getSecond() { return second; }
    public int getNano() { return nano; }

    public int toSecondOfDay() { return hour * 3600 + minute * 60 + second; }
    public long toNanoOfDay() { return toSecondOfDay() * NANOS_PER_SECOND + nano; }
    public long toEpochSecond(LocalDate date, ZoneOffset offset) {
        return date.toEpochDay() * 86400 + toSecondOfDay() - offset.getTotalSeconds();
    }

    public LocalTime withHour(int hour) { return this.hour == hour ? this : of(hour, minute, second, nano); }
    public LocalTime withMinute(int minute) { return this.minute == minute ? this : of(hour, minute, second, nano); }
    public LocalTime withSecond(int second) { return this.second == second ? this : of(hour, minute, second, nano); }
    public LocalTime withNano(int nanoOfSecond) { return this.nano == nanoOfSecond ? this : of(hour, minute, second, nanoOfSecond); }

    public LocalTime plusHours(long hoursToAdd) { return plusNanos((hoursToAdd % 24) * 3600_000_000_000L); }
    public LocalTime plusMinutes(long minutesToAdd) { return plusNanos((minutesToAdd % 1440) * 60_000_000_000L); }
    public LocalTime plusSeconds(long secondstoAdd) { return plusNanos((secondstoAdd % 86400) * NANOS_PER_SECOND); }
    public LocalTime plusNanos(long nanosToAdd) {
        if (nanosToAdd == 0) return this;
        long nofd = toNanoOfDay();
        long newNofd = ((nanosToAdd % NANOS_PER_DAY) + nofd + NANOS_PER_DAY) % NANOS_PER_DAY;
        if (nofd == newNofd) return this;
        return ofNanoOfDay(newNofd);
    }
    public LocalTime minusHours(long n) { return plusHours(-(n % 24)); }
    public LocalTime minusMinutes(long n) { return plusMinutes(-(n % 1440)); }
    public LocalTime minusSeconds(long n) { return plusSeconds(-(n % 86400)); }
    public LocalTime minusNanos(long n) { return plusNanos(-(n % NANOS_PER_DAY)); }

    public LocalDateTime atDate(LocalDate date) { return LocalDateTime.of(date, this); }

    @Override
    public boolean isSupported(TemporalField field) {
        return field instanceof ChronoField && field.isTimeBased();
    }

    @Override
    public long getLong(TemporalField field) {
        if (!(field instanceof ChronoField)) return field.getFrom(this);
        switch ((ChronoField) field) {
            case NANO_OF_SECOND: return nano;
            case NANO_OF_DAY: return toNanoOfDay();
            case MICRO_OF_SECOND: return nano / 1000;
            case MICRO_OF_DAY: return toNanoOfDay() / 1000;
            case MILLI_OF_SECOND: return nano / 1000_000;
            case MILLI_OF_DAY: return toNanoOfDay() / 1000_000;
            case SECOND_OF_MINUTE: return second;
            case SECOND_OF_DAY: return toSecondOfDay();
            case MINUTE_OF_HOUR: return minute;
            case MINUTE_OF_DAY: return hour * 60 + minute;
            case HOUR_OF_AMPM: return hour % 12;
            case CLOCK_HOUR_OF_AMPM: { int ham = hour % 12; return ham % 12 == 0 ? 12 : ham; }
            case HOUR_OF_DAY: return hour;
            case CLOCK_HOUR_OF_DAY: return hour == 0 ? 24 : hour;
            case AMPM_OF_DAY: return hour / 12;
            default: throw new UnsupportedTemporalTypeException("Unsupported field: " + field);
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public <R> R query(TemporalQuery<R> query) {
        if (query == TemporalQueries.localTime()) return (R) this;
        return java.time.temporal.Temporal.super.query(query);
    }

    @Override
    public int compareTo(LocalTime other) {
        int cmp = Integer.compare(hour, other.hour);
        if (cmp == 0) {
            cmp = Integer.compare(minute, other.minute);
            if (cmp == 0) {
                cmp = Integer.compare(second, other.second);
                if (cmp == 0) cmp = Integer.compare(nano, other.nano);
            }
        }
        return cmp;
    }
    public boolean isAfter(LocalTime other) { return compareTo(other) > 0; }
    public boolean isBefore(LocalTime other) { return compareTo(other) < 0; }

    @Override
    public boolean equals(Object obj) {
        if (this == obj) return true;
        if (!(obj instanceof LocalTime)) return false;
        LocalTime o = (LocalTime) obj;
        return hour == o.hour && minute == o.minute && second == o.second && nano == o.nano;
    }
    @Override
    public int hashCode() { return Long.hashCode(toNanoOfDay()); }
    @Override
    public String toString() {
        StringBuilder buf = new StringBuilder(18);
        appendTo(buf);
        return buf.toString();
    }

    void appendTo(StringBuilder buf) {
        buf.append(hour < 10 ? "0" : "").append(hour).append(minute < 10 ? ":0" : ":").append(minute);
        if (second > 0 || nano > 0) {
            buf.append(second < 10 ? ":0" : ":").append(second);
            Iso.appendNanos(buf, nano);
        }
    }
}
