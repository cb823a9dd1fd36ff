package java.sql;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;

/**
 * A java.util.Date with nanoseconds, as the JDK's: whole seconds in the Date's milliseconds and the
 * fraction in {@code nanos}. Its text and the local-date-time conversions use
 * {@code ZoneId.systemDefault()} (UTC or a fixed offset in rvm).
 */
public class Timestamp extends java.util.Date {
    private int nanos;

    public Timestamp(long time) {
        super((time / 1000) * 1000);
        nanos = (int) ((time % 1000) * 1000000);
        if (nanos < 0) {
            nanos = 1000000000 + nanos;
            super.setTime(((time / 1000) - 1) * 1000);
        }
    }

    @Override
    public void setTime(long time) {
        super.setTime((time / 1000) * 1000);
        nanos = (int) ((time % 1000) * 1000000);
        if (nanos < 0) {
            nanos = 1000000000 + nanos;
            super.setTime(((time / 1000) - 1) * 1000);
        }
    }

    @Override
    public long getTime() {
        long time = super.getTime();
        return (time + (nanos / 1000000));
    }

    public int getNanos() { return nanos; }
    public void setNanos(int n) {
        if (n > 999999999 || n < 0) throw new IllegalArgumentException("nanos > 999999999 or < 0");
        nanos = n;
    }

    /**
     * {@code yyyy-[m]m-[d]d hh:mm:ss[.f...]} as JDK 17 reads it (fractions of 1 to 9 digits; time
     * fields out of range roll over, as the deprecated constructor does).
     */
    public static Timestamp valueOf(String s) {
        final String formatError = "Timestamp format must be yyyy-mm-dd hh:mm:ss[.fffffffff]";
        if (s == null) throw new IllegalArgumentException("null string");
        s = s.trim();
        int dividingSpace = s.indexOf(' ');
        if (dividingSpace <= 0) throw new IllegalArgumentException(formatError);
        int[] date = Date.parseDate(s.substring(0, dividingSpace));
        if (date == null) throw new IllegalArgumentException(formatError);
        String time = s.substring(dividingSpace + 1);
        int firstColon = time.indexOf(':');
        int secondColon = time.indexOf(':', firstColon + 1);
        int period = time.indexOf('.', secondColon + 1);
        int len = time.length();
        if (!(firstColon > 0 && secondColon > 0 && secondColon < len - 1)) throw new IllegalArgumentException(formatError);
        int hour = Integer.parseInt(time, 0, firstColon, 10);
        int minute = Integer.parseInt(time, firstColon + 1, secondColon, 10);
        int second;
        int aNanos = 0;
        if (period > 0 && period < len - 1) {
            second = Integer.parseInt(time, secondColon + 1, period, 10);
            int nanoPrecision = len - (period + 1);
            if (nanoPrecision > 9) throw new IllegalArgumentException(formatError);
            if (!Character.isDigit(time.charAt(period + 1))) throw new IllegalArgumentException(formatError);
            aNanos = Integer.parseInt(time, period + 1, len, 10);
            for (int i = nanoPrecision; i < 9; i++) aNanos *= 10;
        } else if (period > 0) {
            throw new IllegalArgumentException(formatError);
        } else {
            second = Integer.parseInt(time, secondColon + 1, len, 10);
        }
        LocalDateTime ldt = LocalDate.of(date[0], date[1], 1).plusDays(date[2] - 1).atStartOfDay()
                .plusSeconds(hour * 3600L + minute * 60L + second).plusNanos(aNanos);
        return valueOf(ldt);
    }

    @Override
    public String toString() {
        LocalDateTime ldt = toLocalDateTime();
        StringBuilder b = new StringBuilder(29);
        b.append(ldt.toLocalDate()).append(' ');
        int h = ldt.getHour(), m = ldt.getMinute(), s = ldt.getSecond();
        b.append(h < 10 ? "0" : "").append(h).append(m < 10 ? ":0" : ":").append(m).append(s < 10 ? ":0" : ":").append(s).append('.');
        if (nanos == 0) return b.append('0').toString();
        String digits = Integer.toString(1000000000 + nanos).substring(1);
        int end = 9;
        while (digits.charAt(end - 1) == '0') end--;
        return b.append(digits, 0, end).toString();
    }

    public boolean equals(Timestamp ts) {
        return ts != null && super.equals(ts) && nanos == ts.nanos;
    }
    @Override
    public boolean equals(Object ts) { return ts instanceof Timestamp && equals((Timestamp) ts); }
    public boolean before(Timestamp ts) { return compareTo(ts) < 0; }
    public boolean after(Timestamp ts) { return compareTo(ts) > 0; }
    public int compareTo(Timestamp ts) {
        long thisTime = getTime();
        long anotherTime = ts.getTime();
        int i = (thisTime < anotherTime ? -1 : (thisTime == anotherTime ? 0 : 1));
        if (i == 0) {
            if (nanos < ts.nanos) return -1;
            else if (nanos > ts.nanos) return 1;
        }
        return i;
    }
    @Override
    public int compareTo(java.util.Date o) {
        if (o instanceof Timestamp) return compareTo((Timestamp) o);
        Timestamp ts = new Timestamp(o.getTime());
        return compareTo(ts);
    }
    @Override
    public int hashCode() { return super.hashCode(); }

    public static Timestamp valueOf(LocalDateTime dateTime) {
        return from(dateTime.atZone(ZoneId.systemDefault()).toInstant());
    }
    public LocalDateTime toLocalDateTime() {
        long seconds = Math.floorDiv(super.getTime(), 1000L);
        return LocalDateTime.ofInstant(Instant.ofEpochSecond(seconds, nanos), ZoneId.systemDefault());
    }
    public static Timestamp from(Instant instant) {
        try {
            Timestamp stamp = new Timestamp(Math.multiplyExact(instant.getEpochSecond(), 1000L));
            stamp.nanos = instant.getNano();
            return stamp;
        } catch (ArithmeticException ex) {
            throw new IllegalArgumentException(ex);
        }
    }
    @Override
    public Instant toInstant() { return Instant.ofEpochSecond(Math.floorDiv(super.getTime(), 1000L), nanos); }
}
