package java.time;

/** An amount of time in seconds and nanoseconds; the JDK's arithmetic, text and hash. */
public final class Duration implements java.time.temporal.TemporalAmount, Comparable<Duration>, java.io.Serializable {
    private static final long NANOS_PER_SECOND = 1000_000_000L;
    public static final Duration ZERO = new Duration(0, 0);

    private final long seconds;
    private final int nanos;

    private Duration(long seconds, int nanos) {
        this.seconds = seconds;
        this.nanos = nanos;
    }

    private static Duration create(long seconds, int nanoAdjustment) {
        if ((seconds | nanoAdjustment) == 0) return ZERO;
        return new Duration(seconds, nanoAdjustment);
    }

    public static Duration ofDays(long days) { return create(Math.multiplyExact(days, 86400), 0); }
    public static Duration ofHours(long hours) { return create(Math.multiplyExact(hours, 3600), 0); }
    public static Duration ofMinutes(long minutes) { return create(Math.multiplyExact(minutes, 60), 0); }
    public static Duration ofSeconds(long seconds) { return create(seconds, 0); }
    public static Duration ofSeconds(long seconds, long nanoAdjustment) {
        long secs = Math.addExact(seconds, Math.floorDiv(nanoAdjustment, NANOS_PER_SECOND));
        int nos = (int) Math.floorMod(nanoAdjustment, NANOS_PER_SECOND);
        return create(secs, nos);
    }
    public static Duration ofMillis(long millis) {
        long secs = millis / 1000;
        int mos = (int) (millis % 1000);
        if (mos < 0) {
            mos += 1000;
            secs--;
        }
        return create(secs, mos * 1000_000);
    }
    public static Duration ofNanos(long nanos) {
        long secs = nanos / NANOS_PER_SECOND;
        int nos = (int) (nanos % NANOS_PER_SECOND);
        if (nos < 0) {
            nos += (int) NANOS_PER_SECOND;
            secs--;
        }
        return create(secs, nos);
    }

    /** Between two instants, local times or local date-times (rvm has no general {@code Temporal.until}). */
    public static Duration between(java.time.temporal.Temporal startInclusive, java.time.temporal.Temporal endExclusive) {
        if (startInclusive instanceof Instant && endExclusive instanceof Instant) {
            Instant a = (Instant) startInclusive, b = (Instant) endExclusive;
            return ofSeconds(Math.subtractExact(b.getEpochSecond(), a.getEpochSecond()), (long) b.getNano() - a.getNano());
        }
        if (startInclusive instanceof LocalDateTime && endExclusive instanceof LocalDateTime) {
            LocalDateTime a = (LocalDateTime) startInclusive, b = (LocalDateTime) endExclusive;
            return ofSeconds(b.toEpochSecond(ZoneOffset.UTC) - a.toEpochSecond(ZoneOffset.UTC), (long) b.getNano() - a.getNano());
        }
        if (startInclusive instanceof LocalTime && endExclusive instanceof LocalTime) {
            return ofNanos(((LocalTime) endExclusive).toNanoOfDay() - ((LocalTime) startInclusive).toNanoOfDay());
        }
        if (startInclusive instanceof OffsetDateTime && endExclusive instanceof OffsetDateTime) {
            return between(((OffsetDateTime) startInclusive).toInstant(), ((OffsetDateTime) endExclusive).toInstant());
        }
        if (startInclusive instanceof ZonedDateTime && endExclusive instanceof ZonedDateTime) {
            return between(((ZonedDateTime) startInclusive).toInstant(), ((ZonedDateTime) endExclusive).toInstant());
        }
        throw new java.time.temporal.UnsupportedTemporalTypeException("rvm: Duration.between supports instants and local and offset date-times only, not " + startInclusive + " and " + endExclusive);
    }

    public long getSeconds() { return seconds; }
    public int getNano() { return nanos; }
    public boolean isZero() { return (seconds | nanos) == 0; }
    public boolean isNegative() { return seconds < 0; }

    public Duration plus(Duration duration) { return plus(duration.getSeconds(), duration.getNano()); }
    public Duration plusDays(long daysToAdd) { return plus(Math.multiplyExact(daysToAdd, 86400), 0); }
    public Duration plusHours(long hoursToAdd) { return plus(Math.multiplyExact(hoursToAdd, 3600), 0); }
    public Duration plusMinutes(long minutesToAdd) { return plus(Math.multiplyExact(minutesToAdd, 60), 0); }
    public Duration plusSeconds(long secondsToAdd) { return plus(secondsToAdd, 0); }
    public Duration plusMillis(long millisToAdd) { return plus(millisToAdd / 1000, (millisToAdd % 1000) * 1000_000); }
    public Duration plusNanos(long nanosToAdd) { return plus(0, nanosToAdd); }
    private Duration plus(long secondsToAdd, long nanosToAdd) {
        if ((secondsToAdd | nanosToAdd) == 0) return this;
        long epochSec = Math.addExact(seconds, secondsToAdd);
        epochSec = Math.addExact(epochSec, nanosToAdd / NANOS_PER_SECOND);
        nanosToAdd = nanosToAdd % NANOS_PER_SECOND;
        long nanoAdjustment = nanos + nanosToAdd;
        return ofSeconds(epochSec, nanoAdjustment);
    }
    public Duration minus(Duration duration) {
        long secsToSubtract = duration.getSeconds();
        int nanosToSubtract = duration.getNano();
        if (secsToSubtract == Long.MIN_VALUE) return plus(Long.MAX_VALUE, -nanosToSubtract).plus(1, 0);
        return plus(-secsToSubtract, -nanosToSubtract);
    }
    public Duration minusSeconds(long n) { return n == Long.MIN_VALUE ? plusSeconds(Long.MAX_VALUE).plusSeconds(1) : plusSeconds(-n); }
    public Duration minusMillis(long n) { return n == Long.MIN_VALUE ? plusMillis(Long.MAX_VALUE).plusMillis(1) : plusMillis(-n); }
    public Duration minusNanos(long n) { return n == Long.MIN_VALUE ? plusNanos(Long.MAX_VALUE).plusNanos(1) : plusNanos(-n); }

    public Duration multipliedBy(long multiplicand) {
        if (multiplicand == 0) return ZERO;
        if (multiplicand == 1) return this;
        java.math.BigInteger total = java.math.BigInteger.valueOf(seconds).multiply(java.math.BigInteger.valueOf(NANOS_PER_SECOND))
                .add(java.math.BigInteger.valueOf(nanos)).multiply(java.math.BigInteger.valueOf(multiplicand));
        java.math.BigInteger[] qr = total.divideAndRemainder(java.math.BigInteger.valueOf(NANOS_PER_SECOND));
        long secs = qr[0].longValueExact();
        long nos = qr[1].longValue();
        return ofSeconds(secs, nos);
    }
    public Duration negated() { return multipliedBy(-1); }
    public Duration abs() { return isNegative() ? negated() : this; }

    public long toDays() { return seconds / 86400; }
    public long toHours() { return seconds / 3600; }
    public long toMinutes() { return seconds / 60; }
    public long toSeconds() { return seconds; }
    public long toMillis() {
        long tempSeconds = seconds;
        long tempNanos = nanos;
        if (tempSeconds < 0) {
            tempSeconds = tempSeconds + 1;
            tempNanos = tempNanos - NANOS_PER_SECOND;
        }
        long millis = Math.multiplyExact(tempSeconds, 1000);
        return Math.addExact(millis, tempNanos / 1000_000);
    }
    public long toNanos() {
        long tempSeconds = seconds;
        long tempNanos = nanos;
        if (tempSeconds < 0) {
            tempSeconds = tempSeconds + 1;
            tempNanos = tempNanos - NANOS_PER_SECOND;
        }
        long totalNanos = Math.multiplyExact(tempSeconds, NANOS_PER_SECOND);
        return Math.addExact(totalNanos, tempNanos);
    }
    public int toMillisPart() { return nanos / 1000_000; }
    public int toNanosPart() { return nanos; }
    public int toSecondsPart() { return (int) (seconds % 60); }
    public int toMinutesPart() { return (int) (toMinutes() % 60); }
    public int toHoursPart() { return (int) (toHours() % 24); }

    @Override
    public int compareTo(Duration other) {
        int cmp = Long.compare(seconds, other.seconds);
        if (cmp != 0) return cmp;
        return nanos - other.nanos;
    }
    @Override
    public boolean equals(Object obj) {
        if (this == obj) return true;
        return obj instanceof Duration && seconds == ((Duration) obj).seconds && nanos == ((Duration) obj).nanos;
    }
    @Override
    public int hashCode() { return ((int) (seconds ^ (seconds >>> 32))) + (51 * nanos); }
    @Override
    public String toString() {
        if (this == ZERO) return "PT0S";
        long effectiveTotalSecs = seconds;
        if (seconds < 0 && nanos > 0) effectiveTotalSecs++;
        long hours = effectiveTotalSecs / 3600;
        int minutes = (int) ((effectiveTotalSecs % 3600) / 60);
        int secs = (int) (effectiveTotalSecs % 60);
        StringBuilder buf = new StringBuilder(24);
        buf.append("PT");
        if (hours != 0) buf.append(hours).append('H');
        if (minutes != 0) buf.append(minutes).append('M');
        if (secs == 0 && nanos == 0 && buf.length() > 2) return buf.toString();
        if (seconds < 0 && nanos > 0) {
            if (secs == 0) buf.append("-0");
            else buf.append(secs);
        } else {
            buf.append(secs);
        }
        if (nanos > 0) {
            int pos = buf.length();
            if (seconds < 0) buf.append(2 * NANOS_PER_SECOND - nanos);
            else buf.append(nanos + NANOS_PER_SECOND);
            while (buf.charAt(buf.length() - 1) == '0') buf.setLength(buf.length() - 1);
            buf.setCharAt(pos, '.');
        }
        buf.append('S');
        return buf.toString();
    }
}
