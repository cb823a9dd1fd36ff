package java.util;

/**
 * A point in time in milliseconds since the epoch, as the JDK's Date: comparison, equality, hash.
 * rvm: {@code toString} writes UTC (rvm has no time zones), the deprecated calendar-field methods
 * are not there.
 */
public class Date implements java.io.Serializable, Cloneable, Comparable<Date> {
    private long fastTime;

    public Date() { this(System.currentTimeMillis()); }
    public Date(long date) { fastTime = date; }

    public long getTime() { return fastTime; }
    public void setTime(long time) { fastTime = time; }
    public boolean before(Date when) { return fastTime < when.getTime(); }
    public boolean after(Date when) { return fastTime > when.getTime(); }
    public boolean equals(Object obj) { return obj instanceof Date && getTime() == ((Date) obj).getTime(); }
    public int compareTo(Date anotherDate) { return Long.compare(fastTime, anotherDate.getTime()); }
    public int hashCode() { long ht = getTime(); return (int) ht ^ (int) (ht >> 32); }
    /** Object.clone, so a subclass's clone is of the subclass, its fields copied. */
    public Object clone() {
        try {
            return super.clone();
        } catch (CloneNotSupportedException e) {
            throw new InternalError(e);
        }
    }
    public java.time.Instant toInstant() { return java.time.Instant.ofEpochMilli(getTime()); }
    public static Date from(java.time.Instant instant) {
        try {
            return new Date(instant.toEpochMilli());
        } catch (ArithmeticException ex) {
            throw new IllegalArgumentException(ex);
        }
    }

    private static final String[] DAYS = { "Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed" };
    private static final String[] MONTHS = { "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };

    /** {@code EEE MMM dd HH:mm:ss UTC yyyy}, in UTC. */
    public String toString() {
        long days = Math.floorDiv(fastTime, 86_400_000L);
        long ms = Math.floorMod(fastTime, 86_400_000L);
        // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
        long z = days + 719468, era = Math.floorDiv(z, 146097), doe = z - era * 146097;
        long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
        long y = yoe + era * 400, doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153;
        long d = doy - (153 * mp + 2) / 5 + 1, m = mp < 10 ? mp + 3 : mp - 9;
        if (m <= 2) y++;
        String dow = DAYS[(int) Math.floorMod(days, 7L)];
        return dow + " " + MONTHS[(int) m - 1] + " " + two(d) + " " + two(ms / 3_600_000) + ":" + two(ms / 60_000 % 60) + ":" + two(ms / 1000 % 60) + " UTC " + y;
    }

    private static String two(long v) { return v < 10 ? "0" + v : String.valueOf(v); }
}
