package java.time;

import java.time.temporal.ChronoField;
import java.time.temporal.TemporalAccessor;
import java.time.temporal.TemporalField;
import java.time.temporal.UnsupportedTemporalTypeException;

/**
 * A point on the time line: seconds from 1970-01-01T00:00:00Z and nanoseconds. {@link #now()} has
 * the millisecond precision of {@code System.currentTimeMillis} (HotSpot's has microseconds).
 */
public final class Instant implements java.time.temporal.Temporal, Comparable<Instant>, java.io.Serializable {
    private static final long MIN_SECOND = -31557014167219200L;
    private static final long MAX_SECOND = 31556889864403199L;
    public static final Instant EPOCH = new Instant(0, 0);
    public static final Instant MIN = new Instant(MIN_SECOND, 0);
    public static final Instant MAX = new Instant(MAX_SECOND, 999_999_999);

    private final long seconds;
    private final int nanos;

    private Instant(long epochSecond, int nanos) {
        this.seconds = epochSecond;
        this.nanos = nanos;
    }

    private static Instant create(long seconds, int nanoOfSecond) {
        if ((seconds | nanoOfSecond) == 0) return EPOCH;
        if (seconds < MIN_SECOND || seconds > MAX_SECOND) throw new DateTimeException("Instant exceeds minimum or maximum instant");
        return new Instant(seconds, nanoOfSecond);
    }

    public static Instant now() {
        return ofEpochMilli(System.currentTimeMillis());
    }
    public static Instant ofEpochSecond(long epochSecond) { return create(epochSecond, 0); }
    public static Instant ofEpochSecond(long epochSecond, long nanoAdjustment) {
        long secs = Math.addExact(epochSecond, Math.floorDiv(nanoAdjustment, 1000_000_000L));
        int nos = (int) Math.floorMod(nanoAdjustment, 1000_000_000L);
        return create(secs, nos);
    }
    public static Instant ofEpochMilli(long epochMilli) {
        long secs = Math.floorDiv(epochMilli, 1000);
        int mos = (int) Math.floorMod(epochMilli, 1000);
        return create(secs, mos * 1000_000);
    }
    public static Instant from(TemporalAccessor temporal) {
        if (temporal instanceof Instant) return (Instant) temporal;
        try {
            long instantSecs = temporal.getLong(ChronoField.INSTANT_SECONDS);
            int nanoOfSecond = temporal.get(ChronoField.NANO_OF_SECOND);
            return ofEpochSecond(instantSecs, nanoOfSecond);
        } catch (DateTimeException ex) {
            throw new DateTimeException("Unable to obtain Instant from TemporalAccessor: " + temporal + " of type " + temporal.getClass().getName(), ex);
        }
    }

    public long getEpochSecond() { return seconds; }
    public int getNano() { return nanos; }

    public long toEpochMilli() {
        if (seconds < 0 && nanos > 0) {
            long millis = Math.multiplyExact(seconds + 1, 1000);
            long adjustment = nanos / 1000_000 - 1000;
            return Math.addExact(millis, adjustment);
        }
        long millis = Math.multiplyExact(seconds, 1000);
        return Math.addExact(millis, nanos / 1000_000);
    }

    private Instant plus(long secondsToAdd, long nanosToAdd) {
        if ((secondsToAdd | nanosToAdd) == 0) return this;
        long epochSec = Math.addExact(seconds, secondsToAdd);
        epochSec = Math.addExact(epochSec, nanosToAdd / 1000_000_000);
        nanosToAdd = nanosToAdd % 1000_000_000;
        long nanoAdjustment = nanos + nanosToAdd;
        return ofEpochSecond(epochSec, nanoAdjustment);
    }
    public Instant plus(java.time.temporal.TemporalAmount amount) {
        Duration d = Amounts.duration(amount);
        return plus(d.getSeconds(), d.getNano());
    }
    public Instant plusSeconds(long secondsToAdd) { return plus(secondsToAdd, 0); }
    public Instant plusMillis(long millisToAdd) { return plus(millisToAdd / 1000, (millisToAdd % 1000) * 1000_000); }
    public Instant plusNanos(long nanosToAdd) { return plus(0, nanosToAdd); }
    public Instant minus(java.time.temporal.TemporalAmount amount) {
        Duration d = Amounts.duration(amount);
        return plus(Math.negateExact(d.getSeconds()), -d.getNano());
    }
    public Instant minusSeconds(long n) { return n == Long.MIN_VALUE ? plusSeconds(Long.MAX_VALUE).plusSeconds(1) : plusSeconds(-n); }
    public Instant minusMillis(long n) { return n == Long.MIN_VALUE ? plusMillis(Long.MAX_VALUE).plusMillis(1) : plusMillis(-n); }
    public Instant minusNanos(long n) { return n == Long.MIN_VALUE ? plusNanos(Long.MAX_VALUE).plusNanos(1) : plusNanos(-n); }

    public OffsetDateTime atOffset(ZoneOffset offset) { return OffsetDateTime.ofInstant(this, offset); }
    public ZonedDateTime atZone(ZoneId zone) { return ZonedDateTime.ofInstant(this, zone); }

    @Override
    public boolean isSupported(TemporalField field) {
        return field == ChronoField.INSTANT_SECONDS || field == ChronoField.NANO_OF_SECOND
                || field == ChronoField.MICRO_OF_SECOND || field == ChronoField.MILLI_OF_SECOND;
    }
    @Override
    public int get(TemporalField field) {
        if (field == ChronoField.INSTANT_SECONDS) throw new UnsupportedTemporalTypeException("Unsupported field: " + field);
        return (int) getLong(field);
    }
    @Override
    public long getLong(TemporalField field) {
        if (field == ChronoField.NANO_OF_SECOND) return nanos;
        if (field == ChronoField.MICRO_OF_SECOND) return nanos / 1000;
        if (field == ChronoField.MILLI_OF_SECOND) return nanos / 1000_000;
        if (field == ChronoField.INSTANT_SECONDS) return seconds;
        throw new UnsupportedTemporalTypeException("Unsupported field: " + field);
    }

    @Override
    public int compareTo(Instant other) {
        int cmp = Long.compare(seconds, other.seconds);
        if (cmp != 0) return cmp;
        return nanos - other.nanos;
    }
    public boolean isAfter(Instant other) { return compareTo(other) > 0; }
    public boolean isBefore(Instant other) { return compareTo(other) < 0; }

    @Override
    public boolean equals(Object obj) {
        if (this == obj) return true;
        return obj instanceof Instant && seconds == ((Instant) obj).seconds && nanos == ((Instant) obj).nanos;
    }
    @Override
    public int hashCode() { return ((int) (seconds ^ (seconds >>> 32))) + 51 * nanos; }

    /** ISO-8601 in UTC as {@code DateTimeFormatter.ISO_INSTANT} prints it: seconds always, fractions in groups of three. */
    @Override
    public String toString() {
        LocalDateTime ldt = LocalDateTime.ofEpochSecond(seconds, 0, ZoneOffset.UTC);
        StringBuilder buf = new StringBuilder(32);
        Iso.appendYear(buf, ldt.getYear());
        int mo = ldt.getMonthValue(), d = ldt.getDayOfMonth(), h = ldt.getHour(), mi = ldt.getMinute(), s = ldt.getSecond();
        buf.append(mo < 10 ? "-0" : "-").append(mo).append(d < 10 ? "-0" : "-").append(d);
        buf.append(h < 10 ? "T0" : "T").append(h).append(mi < 10 ? ":0" : ":").append(mi).append(s < 10 ? ":0" : ":").append(s);
        Iso.appendNanos(buf, nanos);
        return buf.append('Z').toString();
    }
}
