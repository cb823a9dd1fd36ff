import java.sql.Date;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;

/** java.sql's Date, Time and Timestamp: millis and nanos, text, parsing, order, hash, java.time conversions (run in UTC). */
public class LibSqlTime {
    interface Step {
        Object run() throws Exception;
    }

    static void p(String what, Step s) {
        try {
            System.out.println(what + ": " + s.run());
        } catch (Exception e) {
            System.out.println(what + ": " + e.getClass().getName() + ": " + e.getMessage());
        }
    }

    public static void main(String[] args) {
        for (long ms : new long[] {0, 1, -1, 999, 1_700_000_000_123L, -12_219_292_800_000L, 253_402_300_799_999L}) {
            p("timestamp " + ms, () -> {
                Timestamp t = new Timestamp(ms);
                return t + " time " + t.getTime() + " nanos " + t.getNanos() + " hash " + t.hashCode() + " ldt " + t.toLocalDateTime() + " instant " + t.toInstant();
            });
        }
        Timestamp a = new Timestamp(1_000);
        a.setNanos(123_456_789);
        p("nanos", () -> a + " " + a.getTime() + " " + a.getNanos());
        p("bad nanos", () -> {
            a.setNanos(1_000_000_000);
            return a;
        });
        Timestamp b = new Timestamp(1_123);
        p("compare", () -> a.compareTo(b) + " " + b.compareTo(a) + " " + a.equals(b) + " " + a.equals((Object) b) + " " + b.equals(new Timestamp(1_123)) + " " + a.after(b)
                + " " + a.compareTo(new java.util.Date(1_123)) + " " + new java.util.Date(1_123).equals(b));
        for (String s : new String[] {"2024-02-29 10:15:30", "2024-02-29 10:15:30.5", "2024-2-9 1:02:03.000000001", "2024-02-29 10:15:30.1234567891", "2024-02-29T10:15:30",
                "2024-02-29 24:00:00", "2024-02-29", " 2024-02-29 10:15:30.010 ", "2024-0x-29 10:15:30", "2024-02-29 1x:15:30", "2024-02-29 10:15:30.1x",
                "2024-02-29 10:15:30.x", "2024-02-29 10:15:30.", "2024-02-29 10:75:30"}) {
            p("timestamp valueOf '" + s + "'", () -> Timestamp.valueOf(s));
        }
        p("timestamp from", () -> Timestamp.from(Instant.ofEpochSecond(-1, 5)) + " " + Timestamp.valueOf(LocalDateTime.of(2000, 1, 2, 3, 4, 5, 600)) + " "
                + Timestamp.from(Instant.ofEpochSecond(-1, 5)).getTime());
        for (String s : new String[] {"2024-02-29", "2024-2-9", "2023-02-31", "24-02-29", "2024-13-01", "2024/02/29", "2024-02-29 ", "2x24-02-29", "2024-0x-29"}) {
            p("date valueOf '" + s + "'", () -> {
                Date d = Date.valueOf(s);
                return d + " " + d.getTime() + " " + d.toLocalDate();
            });
        }
        p("date", () -> new Date(86_400_000L * 365 - 1) + " " + Date.valueOf(LocalDate.of(1969, 12, 31)).getTime() + " " + new Date(0).hashCode());
        p("date toInstant", () -> new Date(0).toInstant());
        for (String s : new String[] {"10:15:30", "1:2:3", "23:59:60", "10:15", "10:15:30.5", "x:1:2", "1::2", "25:61:61"}) {
            p("time valueOf '" + s + "'", () -> {
                Time t = Time.valueOf(s);
                return t + " " + t.getTime() + " " + t.toLocalTime();
            });
        }
        p("time", () -> new Time(-1) + " " + new Time(45_296_789) + " " + Time.valueOf(LocalTime.of(12, 34, 56, 789)).getTime());
        p("util date", () -> java.util.Date.from(Instant.ofEpochSecond(5, 999_999_999)).getTime() + " " + new java.util.Date(-1).toInstant());
    }
}
