package java.time;

import java.time.temporal.ChronoField;
import java.time.temporal.TemporalAccessor;
import java.time.temporal.TemporalField;
import java.time.temporal.TemporalQueries;
import java.time.temporal.TemporalQuery;
import java.time.temporal.UnsupportedTemporalTypeException;
import java.time.zone.ZoneRules;

/** A fixed offset from UTC, from -18:00 to +18:00, with the JDK's IDs ({@code Z}, {@code +01:00}, {@code -05:30:15}). */
public final class ZoneOffset extends ZoneId implements TemporalAccessor, Comparable<ZoneOffset> {
    private static final int MAX_SECONDS = 18 * 3600;
    public static final ZoneOffset UTC = new ZoneOffset(0);
    public static final ZoneOffset MIN = new ZoneOffset(-MAX_SECONDS);
    public static final ZoneOffset MAX = new ZoneOffset(MAX_SECONDS);

    private final int totalSeconds;
    private final String id;
    private ZoneRules rules;

    private ZoneOffset(int totalSeconds) {
        this.totalSeconds = totalSeconds;
        this.id = buildId(totalSeconds);
    }

    private static String buildId(int totalSeconds) {
        if (totalSeconds == 0) return "Z";
        int abs = Math.abs(totalSeconds);
        int h = abs / 3600, m = (abs / 60) % 60, s = abs % 60;
        StringBuilder b = new StringBuilder();
        b.append(totalSeconds < 0 ? "-" : "+").append(h < 10 ? "0" : "").append(h).append(m < 10 ? ":0" : ":").append(m);
        if (s != 0) b.append(s < 10 ? ":0" : ":").append(s);
        return b.toString();
    }

    public static ZoneOffset of(String offsetId) {
        if (offsetId == null) throw new NullPointerException("offsetId");
        if (offsetId.equals("Z")) return UTC;
        int hours, minutes, seconds;
        int len = offsetId.length();
        switch (len) {
            case 2:
                offsetId = offsetId.charAt(0) + "0" + offsetId.charAt(1);
                // fall through
            case 3:
                hours = parseNumber(offsetId, 1, false);
                minutes = 0;
                seconds = 0;
                break;
            case 5:
                hours = parseNumber(offsetId, 1, false);
                minutes = parseNumber(offsetId, 3, false);
                seconds = 0;
                break;
            case 6:
                hours = parseNumber(offsetId, 1, false);
                minutes = parseNumber(offsetId, 4, true);
                seconds = 0;
                break;
            case 7:
                hours = parseNumber(offsetId, 1, false);
                minutes = parseNumber(offsetId, 3, false);
                seconds = parseNumber(offsetId, 5, false);
                break;
            case 9:
                hours = parseNumber(offsetId, 1, false);
                minutes = parseNumber(offsetId, 4, true);
                seconds = parseNumber(offsetId, 7, true);
                break;
            default:
                throw new DateTimeException("Invalid ID for ZoneOffset, invalid format: " + offsetId);
        }
        char first = offsetId.charAt(0);
        if (first != '+' && first != '-') throw new DateTimeException("Invalid ID for ZoneOffset, plus/minus not found when expected: " + offsetId);
        if (first == '-') return ofHoursMinutesSeconds(-hours, -minutes, -seconds);
        return ofHoursMinutesSeconds(hours, minutes, seconds);
    }

    private static int parseNumber(CharSequence offsetId, int pos, boolean precededByColon) {
        if (precededByColon && offsetId.charAt(pos - 1) != ':') throw new DateTimeException("Invalid ID for ZoneOffset, colon not found when expected: " + offsetId);
        char ch1 = offsetId.charAt(pos);
        char ch2 = offsetId.charAt(pos + 1);
        if (ch1 < '0' || ch1 > '9' || ch2 < '0' || ch2 > '9') throw new DateTimeException("Invalid ID for ZoneOffset, non numeric characters found: " + offsetId);
        return (ch1 - 48) * 10 + (ch2 - 48);
    }

    public static ZoneOffset ofHours(int hours) { return ofHoursMinutesSeconds(hours, 0, 0); }
    public static ZoneOffset ofHoursMinutes(int hours, int minutes) { return ofHoursMinutesSeconds(hours, minutes, 0); }

    public static ZoneOffset ofHoursMinutesSeconds(int hours, int minutes, int seconds) {
        validate(hours, minutes, seconds);
        return ofTotalSeconds(hours * 3600 + minutes * 60 + seconds);
    }

    private static void validate(int hours, int minutes, int seconds) {
        if (hours < -18 || hours > 18) throw new DateTimeException("Zone offset hours not in valid range: value " + hours + " is not in the range -18 to 18");
        if (hours > 0) {
            if (minutes < 0 || seconds < 0) throw new DateTimeException("Zone offset minutes and seconds must be positive because hours is positive");
        } else if (hours < 0) {
            if (minutes > 0 || seconds > 0) throw new DateTimeException("Zone offset minutes and seconds must be negative because hours is negative");
        } else if ((minutes > 0 && seconds < 0) || (minutes < 0 && seconds > 0)) {
            throw new DateTimeException("Zone offset minutes and seconds must have the same sign");
        }
        if (minutes < -59 || minutes > 59) throw new DateTimeException("Zone offset minutes not in valid range: value " + minutes + " is not in the range -59 to 59");
        if (seconds < -59 || seconds > 59) throw new DateTimeException("Zone offset seconds not in valid range: value " + seconds + " is not in the range -59 to 59");
        if (Math.abs(hours) == 18 && (minutes | seconds) != 0) throw new DateTimeException("Zone offset not in valid range: -18:00 to +18:00");
    }

    public static ZoneOffset ofTotalSeconds(int totalSeconds) {
        if (totalSeconds < -MAX_SECONDS || totalSeconds > MAX_SECONDS) throw new DateTimeException("Zone offset not in valid range: -18:00 to +18:00");
        if (totalSeconds == 0) return UTC;
        return new ZoneOffset(totalSeconds);
    }

    public static ZoneOffset from(TemporalAccessor temporal) {
        ZoneOffset offset = temporal.query(TemporalQueries.offset());
        if (offset == null) throw new DateTimeException("Unable to obtain ZoneOffset from TemporalAccessor: " + temporal + " of type " + temporal.getClass().getName());
        return offset;
    }

    public int getTotalSeconds() { return totalSeconds; }
    @Override
    public String getId() { return id; }
    @Override
    public ZoneRules getRules() {
        ZoneRules r = rules;
        if (r == null) rules = r = ZoneRules.of(this);
        return r;
    }
    @Override
    public ZoneId normalized() { return this; }

    @Override
    public boolean isSupported(TemporalField field) {
        return field == ChronoField.OFFSET_SECONDS;
    }
    @Override
    public long getLong(TemporalField field) {
        if (field == ChronoField.OFFSET_SECONDS) return totalSeconds;
        throw new UnsupportedTemporalTypeException("Unsupported field: " + field);
    }
    @Override
    @SuppressWarnings("unchecked")
    public <R> R query(TemporalQuery<R> query) {
        if (query == TemporalQueries.offset() || query == TemporalQueries.zone()) return (R) this;
        return TemporalAccessor.super.query(query);
    }

    @Override
    public int compareTo(ZoneOffset other) { return other.totalSeconds - totalSeconds; }
    @Override
    public boolean equals(Object obj) {
        if (this == obj) return true;
        return obj instanceof ZoneOffset && totalSeconds == ((ZoneOffset) obj).totalSeconds;
    }
    @Override
    public int hashCode() { return totalSeconds; }
    @Override
    public String toString() { return id; }
}
