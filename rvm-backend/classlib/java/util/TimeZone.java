package java.util;

import java.time.DateTimeException;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A time zone, for the legacy date API. As {@code java.time}'s zones in rvm, every zone has one
 * offset for all time (no daylight saving): the UTC aliases, {@code Etc/GMT±n} and custom IDs
 * ({@code GMT+05:30}); any other ID is GMT, as an unknown ID is on the JDK. The default is the
 * machine's zone when rvm knows it (see {@code ZoneId.systemDefault()}, which is this default's
 * {@code toZoneId()}), else UTC; {@code setDefault} changes both.
 */
public abstract class TimeZone implements java.io.Serializable, Cloneable {
    public static final int SHORT = 0;
    public static final int LONG = 1;

    private String ID;
    private static volatile TimeZone defaultTimeZone;

    public TimeZone() {}

    public abstract int getOffset(int era, int year, int month, int day, int dayOfWeek, int milliseconds);
    public int getOffset(long date) { return inDaylightTime(new Date(date)) ? getRawOffset() + getDSTSavings() : getRawOffset(); }
    public abstract void setRawOffset(int offsetMillis);
    public abstract int getRawOffset();
    public abstract boolean useDaylightTime();
    public boolean observesDaylightTime() { return useDaylightTime(); }
    public abstract boolean inDaylightTime(Date date);
    public int getDSTSavings() { return useDaylightTime() ? 3600000 : 0; }

    public String getID() { return ID; }
    public void setID(String ID) {
        if (ID == null) throw new NullPointerException();
        this.ID = ID;
    }

    public boolean hasSameRules(TimeZone other) {
        return other != null && getRawOffset() == other.getRawOffset() && useDaylightTime() == other.useDaylightTime();
    }

    public ZoneId toZoneId() { return ZoneId.of(getID(), ZoneId.SHORT_IDS); }

    public static synchronized TimeZone getTimeZone(String ID) {
        if (ID == null) throw new NullPointerException();
        TimeZone tz = known(ID);
        return tz != null ? tz : new SimpleTimeZone(0, "GMT");
    }

    public static TimeZone getTimeZone(ZoneId zoneId) {
        String tzid = zoneId.getId();
        if (zoneId instanceof ZoneOffset) {
            char c = tzid.charAt(0);
            if (c == '+' || c == '-') tzid = "GMT" + tzid;
            else if (c == 'Z' && tzid.length() == 1) tzid = "UTC";
        }
        return getTimeZone(tzid);
    }

    /** The zone of an ID rvm knows (a fixed region or a custom GMT offset), or null. */
    private static TimeZone known(String ID) {
        if (ID.startsWith("GMT") && ID.length() > 3 && (ID.charAt(3) == '+' || ID.charAt(3) == '-')) return custom(ID);
        if (ID.isEmpty() || ID.charAt(0) == '+' || ID.charAt(0) == '-') return null;
        if ((ID.startsWith("UTC") || ID.startsWith("GMT") || ID.startsWith("UT")) && (ID.indexOf('+') > 0 || ID.indexOf('-') > 0)) return null;
        try {
            ZoneId z = ZoneId.of(ID);
            if (z instanceof ZoneOffset) return null;
            return new SimpleTimeZone(z.getRules().getOffset(java.time.Instant.EPOCH).getTotalSeconds() * 1000, ID);
        } catch (DateTimeException e) {
            return null;
        }
    }

    /** {@code GMT[+-]h[h][[:]mm]}, as the JDK's parseCustomTimeZone: named {@code GMT+hh:mm}. */
    private static TimeZone custom(String id) {
        int length = id.length();
        int index = 3;
        boolean negative = id.charAt(index++) == '-';
        int hours = 0, num = 0, countDelim = 0, len = 0;
        while (index < length) {
            char c = id.charAt(index++);
            if (c == ':') {
                if (countDelim > 0) return null;
                if (len > 2) return null;
                hours = num;
                countDelim++;
                num = 0;
                len = 0;
                continue;
            }
            if (c < '0' || c > '9') return null;
            num = num * 10 + (c - '0');
            len++;
        }
        if (index != length) return null;
        if (countDelim == 0) {
            if (len <= 2) {
                hours = num;
                num = 0;
            } else {
                hours = num / 100;
                num %= 100;
            }
        } else if (len != 2) {
            return null;
        }
        if (hours > 23 || num > 59) return null;
        int gmtOffset = (hours * 60 + num) * 60 * 1000;
        if (gmtOffset == 0) return new SimpleTimeZone(0, "GMT");
        if (negative) gmtOffset = -gmtOffset;
        StringBuilder b = new StringBuilder("GMT").append(negative ? '-' : '+');
        b.append(hours < 10 ? "0" : "").append(hours).append(num < 10 ? ":0" : ":").append(num);
        return new SimpleTimeZone(gmtOffset, b.toString());
    }

    public static String[] getAvailableIDs() {
        Set<String> ids = ZoneId.getAvailableZoneIds();
        return ids.toArray(new String[0]);
    }

    public static TimeZone getDefault() { return (TimeZone) defaultZone().clone(); }

    static TimeZone defaultZone() {
        TimeZone tz = defaultTimeZone;
        if (tz == null) {
            synchronized (TimeZone.class) {
                tz = defaultTimeZone;
                if (tz == null) {
                    String id = System.getenv("TZ");
                    if (id != null && id.startsWith(":")) id = id.substring(1);
                    if (id == null || id.isEmpty()) {
                        String target = jdk.internal.rvm.FileIO.canonical("/etc/localtime");
                        int at = target == null ? -1 : target.indexOf("/zoneinfo/");
                        if (at >= 0) id = target.substring(at + "/zoneinfo/".length());
                    }
                    tz = id == null || id.isEmpty() ? null : known(id);
                    // A zone rvm does not know (one with daylight saving or historical changes) is replaced by UTC.
                    if (tz == null) tz = new SimpleTimeZone(0, "UTC");
                    defaultTimeZone = tz;
                }
            }
        }
        return tz;
    }

    public static void setDefault(TimeZone zone) {
        defaultTimeZone = zone == null ? null : (TimeZone) zone.clone();
    }

    public String getDisplayName() { return getID(); }

    @Override
    public Object clone() {
        try {
            return super.clone();
        } catch (CloneNotSupportedException e) {
            throw new InternalError(e);
        }
    }
}
