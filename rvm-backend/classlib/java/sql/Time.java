package java.sql;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;

/** An SQL TIME: milliseconds of that time on 1970-01-01 in the default zone (UTC or a fixed offset in rvm). */
public class Time extends java.util.Date {
    public Time(long time) { super(time); }

    /** {@code hh:mm:ss} as JDK 17 reads it; fields out of range roll over, as the deprecated Time(h, m, s) does. */
    public static Time valueOf(String s) {
        if (s == null) throw new IllegalArgumentException();
        int firstColon = s.indexOf(':');
        int secondColon = s.indexOf(':', firstColon + 1);
        int len = s.length();
        if (firstColon > 0 && secondColon > 0 && secondColon < len - 1) {
            int hour = Integer.parseInt(s, 0, firstColon, 10);
            int minute = Integer.parseInt(s, firstColon + 1, secondColon, 10);
            int second = Integer.parseInt(s, secondColon + 1, len, 10);
            long seconds = hour * 3600L + minute * 60L + second;
            return new Time(LocalDate.EPOCH.atStartOfDay(ZoneId.systemDefault()).toInstant().toEpochMilli() + seconds * 1000);
        }
        throw new IllegalArgumentException();
    }

    public static Time valueOf(LocalTime time) {
        return new Time(time.atDate(LocalDate.EPOCH).atZone(ZoneId.systemDefault()).toInstant().toEpochMilli());
    }

    public LocalTime toLocalTime() {
        return LocalTime.ofInstant(Instant.ofEpochMilli(getTime()), ZoneId.systemDefault()).withNano(0);
    }

    @Override
    public String toString() {
        LocalTime t = toLocalTime();
        int h = t.getHour(), m = t.getMinute(), s = t.getSecond();
        return (h < 10 ? "0" : "") + h + (m < 10 ? ":0" : ":") + m + (s < 10 ? ":0" : ":") + s;
    }

    @Override
    public Instant toInstant() { throw new UnsupportedOperationException(); }
}
