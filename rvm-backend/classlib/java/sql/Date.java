package java.sql;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;

/** An SQL DATE: milliseconds of the day's start in the default zone (UTC or a fixed offset in rvm). */
public class Date extends java.util.Date {
    public Date(long date) { super(date); }

    /**
     * {@code yyyy-[m]m-[d]d} as JDK 17 reads it: {year, month, day}, or null when the dashes or
     * lengths are wrong or month or day out of range; a non-digit is its NumberFormatException.
     */
    static int[] parseDate(String s) {
        int firstDash = s.indexOf('-');
        int secondDash = s.indexOf('-', firstDash + 1);
        int len = s.length();
        if (firstDash > 0 && secondDash > 0 && secondDash < len - 1) {
            if (firstDash == 4 && (secondDash - firstDash > 1 && secondDash - firstDash <= 3) && (len - secondDash > 1 && len - secondDash <= 3)) {
                int year = Integer.parseInt(s, 0, firstDash, 10);
                int month = Integer.parseInt(s, firstDash + 1, secondDash, 10);
                int day = Integer.parseInt(s, secondDash + 1, len, 10);
                if (month >= 1 && month <= 12 && day >= 1 && day <= 31) return new int[] {year, month, day};
            }
        }
        return null;
    }

    public static Date valueOf(String s) {
        if (s == null) throw new IllegalArgumentException();
        int[] d = parseDate(s);
        if (d == null) throw new IllegalArgumentException();
        // As the JDK's deprecated Date(year, month, day): a day past the month's end rolls into the next.
        return valueOf(LocalDate.of(d[0], d[1], 1).plusDays(d[2] - 1));
    }

    public static Date valueOf(LocalDate date) {
        return new Date(date.atStartOfDay(ZoneId.systemDefault()).toInstant().toEpochMilli());
    }

    public LocalDate toLocalDate() {
        return LocalDate.ofInstant(Instant.ofEpochMilli(getTime()), ZoneId.systemDefault());
    }

    @Override
    public String toString() { return toLocalDate().toString(); }

    @Override
    public Instant toInstant() { throw new UnsupportedOperationException(); }
}
