import java.time.DateTimeException;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.Month;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoField;
import java.time.temporal.TemporalQueries;
import java.time.zone.ZoneRules;

/** The java.time subset: zones and offsets, dates, times, instants, durations; text, order, hash, errors. */
public class LibTime {
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
        zones();
        dates();
        times();
        dateTimes();
        instants();
        durations();
        accessors();
    }

    static void zones() {
        for (String id : new String[] {"Z", "+01:00", "-05", "+0530", "+05:30:15", "-18:00", "+18:01", "UTC", "GMT", "UT", "UTC+01:00", "GMT-5",
                "UT+0", "Etc/UTC", "Etc/GMT+5", "Etc/GMT-14", "Zulu", "GMT0", "+1", "1", "", "/bad", "UTC+x"}) {
            p("zone " + id, () -> {
                ZoneId z = ZoneId.of(id, ZoneId.SHORT_IDS);
                ZoneRules r = z.getRules();
                return z + " " + z.getClass().getSimpleName() + " " + z.getId() + " normalized " + z.normalized() + " fixed " + r.isFixedOffset()
                        + " offset " + r.getOffset(Instant.EPOCH) + " hash " + z.hashCode();
            });
        }
        p("short ids", () -> ZoneId.SHORT_IDS.get("PST") + " " + ZoneId.SHORT_IDS.get("CTT") + " " + ZoneId.SHORT_IDS.size());
        p("offset fields", () -> {
            ZoneOffset o = ZoneOffset.ofHoursMinutesSeconds(-3, -30, -15);
            return o + " " + o.getTotalSeconds() + " " + o.get(ChronoField.OFFSET_SECONDS) + " " + o.compareTo(ZoneOffset.UTC) + " " + ZoneOffset.UTC.compareTo(o)
                    + " " + o.equals(ZoneOffset.of("-03:30:15")) + " " + (ZoneOffset.ofHours(0) == ZoneOffset.UTC);
        });
        p("offset mixed signs", () -> ZoneOffset.ofHoursMinutes(1, -30));
        p("offset minutes", () -> ZoneOffset.ofHoursMinutes(0, 75));
        p("offset total", () -> ZoneOffset.ofTotalSeconds(64801));
        p("systemDefault fixed", () -> ZoneId.systemDefault().getRules().isFixedOffset());
        p("zone equals", () -> ZoneId.of("UTC").equals(ZoneId.of("UTC")) + " " + ZoneId.of("UTC").equals(ZoneOffset.UTC) + " " + ZoneId.of("UTC").normalized().equals(ZoneOffset.UTC));
        p("ofOffset", () -> ZoneId.ofOffset("GMT", ZoneOffset.ofHours(2)) + " " + ZoneId.ofOffset("", ZoneOffset.ofHours(2)) + " " + ZoneId.ofOffset("UT", ZoneOffset.UTC));
        p("ofOffset bad", () -> ZoneId.ofOffset("CET", ZoneOffset.UTC));
    }

    static void dates() {
        LocalDate d = LocalDate.of(2024, 2, 29);
        p("date", () -> d + " " + d.getYear() + " " + d.getMonthValue() + " " + d.getMonth() + " " + d.getDayOfMonth() + " " + d.getDayOfYear() + " " + d.getDayOfWeek()
                + " leap " + d.isLeapYear() + " len " + d.lengthOfMonth() + "/" + d.lengthOfYear() + " epoch " + d.toEpochDay() + " hash " + d.hashCode());
        for (long e : new long[] {0, -1, 59, 60, -719528, -719529, 2932896, 365241780471L, -365243219162L, 19000, -100000}) {
            p("epoch day " + e, () -> {
                LocalDate x = LocalDate.ofEpochDay(e);
                return x + " back " + x.toEpochDay() + " " + x.getDayOfWeek() + " hash " + x.hashCode();
            });
        }
        p("epoch day too big", () -> LocalDate.ofEpochDay(365241780472L));
        p("years", () -> LocalDate.of(-1, 1, 1) + " " + LocalDate.of(0, 12, 31) + " " + LocalDate.of(999, 3, 4) + " " + LocalDate.of(10000, 1, 1) + " " + LocalDate.of(-10000, 1, 1)
                + " " + LocalDate.MIN + " " + LocalDate.MAX);
        p("feb 29 2023", () -> LocalDate.of(2023, 2, 29));
        p("apr 31", () -> LocalDate.of(2023, 4, 31));
        p("month 13", () -> LocalDate.of(2023, 13, 1));
        p("day 0", () -> LocalDate.of(2023, 1, 0));
        p("year too big", () -> LocalDate.of(1_000_000_000, 1, 1));
        p("plus", () -> d.plusDays(1) + " " + d.plusDays(-60) + " " + d.plusMonths(12) + " " + d.plusYears(1) + " " + d.minusMonths(1) + " " + d.plusWeeks(52)
                + " " + LocalDate.of(2024, 1, 31).plusMonths(1) + " " + d.minusDays(366));
        p("with", () -> d.withYear(2023) + " " + d.withMonth(4) + " " + d.withDayOfMonth(1) + " " + d.withDayOfYear(365));
        p("ofYearDay", () -> LocalDate.ofYearDay(2024, 60) + " " + LocalDate.ofYearDay(2023, 365) + " " + LocalDate.ofYearDay(2024, 366));
        p("ofYearDay 366", () -> LocalDate.ofYearDay(2023, 366));
        p("compare", () -> d.compareTo(LocalDate.of(2024, 3, 1)) + " " + d.isBefore(LocalDate.EPOCH) + " " + d.isAfter(LocalDate.EPOCH) + " " + d.equals(LocalDate.parse("2024-02-29")));
        for (String s : new String[] {"2024-02-29", "0001-01-01", "-0001-12-31", "+10000-01-01", "2023-02-29", "2024-2-29", "2024-02-29x", "10000-01-01", "2024-13-01"}) {
            p("parse date " + s, () -> LocalDate.parse(s));
        }
        p("days of week", () -> DayOfWeek.of(7) + " " + DayOfWeek.MONDAY.plus(-1) + " " + DayOfWeek.SUNDAY.plus(8) + " " + DayOfWeek.from(d) + " " + DayOfWeek.SUNDAY.getValue());
        p("day of week 8", () -> DayOfWeek.of(8));
        p("months", () -> Month.of(2).length(true) + " " + Month.FEBRUARY.minLength() + " " + Month.DECEMBER.plus(1) + " " + Month.MARCH.firstDayOfYear(true) + " " + Month.from(d));
        p("month 0", () -> Month.of(0));
    }

    static void times() {
        for (String s : new String[] {"00:00", "23:59:59.999999999", "10:15:30", "10:15:30.5", "10:15:30.000001", "10:15:00.000000100", "24:00", "10:60", "10:15:30.", "1:00", "10:15:30.1234567890"}) {
            p("parse time " + s, () -> {
                LocalTime t = LocalTime.parse(s);
                return t + " nod " + t.toNanoOfDay() + " sod " + t.toSecondOfDay() + " hash " + t.hashCode();
            });
        }
        LocalTime t = LocalTime.of(13, 5, 7, 1_000_000);
        p("time", () -> t.getHour() + " " + t.getMinute() + " " + t.getSecond() + " " + t.getNano() + " " + t.get(ChronoField.HOUR_OF_AMPM) + " " + t.get(ChronoField.CLOCK_HOUR_OF_AMPM)
                + " " + t.get(ChronoField.AMPM_OF_DAY) + " " + t.get(ChronoField.MILLI_OF_DAY) + " " + t.getLong(ChronoField.MICRO_OF_DAY) + " " + LocalTime.MIDNIGHT.get(ChronoField.CLOCK_HOUR_OF_DAY));
        p("time plus", () -> t.plusHours(11) + " " + t.plusMinutes(-1440 * 3 - 1) + " " + t.plusSeconds(86399) + " " + t.plusNanos(-1_000_001) + " " + t.minusHours(14) + " " + t.withNano(0));
        p("time of", () -> LocalTime.of(24, 0));
        p("time nanos", () -> LocalTime.of(0, 0, 0, 1_000_000_000));
        p("time ofSecondOfDay", () -> LocalTime.ofSecondOfDay(3661) + " " + LocalTime.ofNanoOfDay(86_399_999_999_999L) + " " + LocalTime.NOON + " " + LocalTime.MAX);
        p("time compare", () -> t.compareTo(LocalTime.NOON) + " " + t.isBefore(LocalTime.NOON) + " " + LocalTime.NOON.isBefore(t));
        p("time field", () -> t.getLong(ChronoField.DAY_OF_MONTH));
    }

    static void dateTimes() {
        LocalDateTime dt = LocalDateTime.of(2024, 12, 31, 23, 59, 59, 999_000_000);
        p("datetime", () -> dt + " " + dt.hashCode() + " " + dt.toLocalDate() + " " + dt.toLocalTime() + " " + dt.getDayOfWeek() + " " + dt.toEpochSecond(ZoneOffset.UTC)
                + " " + dt.toEpochSecond(ZoneOffset.ofHours(2)) + " " + dt.toInstant(ZoneOffset.ofHours(-3)));
        p("datetime plus", () -> dt.plusNanos(1_000_000) + " " + dt.plusSeconds(1) + " " + dt.plusHours(-48) + " " + dt.plusMinutes(1441) + " " + dt.minusSeconds(86400 * 365L)
                + " " + dt.plusMonths(2) + " " + dt.minusYears(4) + " " + dt.minusNanos(999_000_001));
        p("datetime of", () -> LocalDateTime.of(2020, 1, 1, 0, 0) + " " + LocalDateTime.of(2020, 1, 1, 0, 0, 1) + " " + LocalDateTime.of(LocalDate.EPOCH, LocalTime.NOON));
        for (long s : new long[] {0, -1, 86399, 1_700_000_000L, -62_135_596_800L, -62_167_219_201L, 253_402_300_800L}) {
            p("epoch second " + s, () -> LocalDateTime.ofEpochSecond(s, 5, ZoneOffset.UTC) + " " + LocalDateTime.ofEpochSecond(s, 0, ZoneOffset.ofHoursMinutes(-9, -30)));
        }
        for (String s : new String[] {"2024-02-29T10:15:30", "2024-02-29t00:00", "2024-02-29 10:15", "2024-02-29T25:00", "2024-02-29T10:15:30.123Z"}) {
            p("parse datetime " + s, () -> LocalDateTime.parse(s));
        }
        OffsetDateTime o = OffsetDateTime.of(dt, ZoneOffset.ofHours(5));
        p("offset datetime", () -> o + " " + o.hashCode() + " " + o.toEpochSecond() + " " + o.toInstant() + " " + o.getOffset() + " " + o.withOffsetSameInstant(ZoneOffset.UTC)
                + " " + o.withOffsetSameLocal(ZoneOffset.UTC) + " " + o.toLocalDateTime());
        OffsetDateTime o2 = o.withOffsetSameInstant(ZoneOffset.ofHours(-2));
        p("offset compare", () -> o.compareTo(o2) + " " + o2.compareTo(o) + " " + o.isEqual(o2) + " " + o.equals(o2) + " " + o.isBefore(o2) + " " + o.plusHours(1).isAfter(o2));
        p("offset ofInstant", () -> OffsetDateTime.ofInstant(Instant.ofEpochSecond(1_000_000_000L, 123), ZoneId.of("UTC+03:00")) + " " + OffsetDateTime.of(2000, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC));
        ZonedDateTime z = ZonedDateTime.of(dt, ZoneId.of("Etc/GMT-3"));
        p("zoned", () -> z + " " + z.hashCode() + " " + z.getOffset() + " " + z.getZone() + " " + z.toOffsetDateTime() + " " + z.toEpochSecond() + " " + z.toInstant());
        p("zoned offset", () -> ZonedDateTime.of(dt, ZoneOffset.ofHours(1)) + " " + ZonedDateTime.ofInstant(Instant.EPOCH, ZoneId.of("UTC")) + " "
                + ZonedDateTime.of(2000, 2, 3, 4, 5, 6, 7, ZoneId.of("GMT")).withZoneSameInstant(ZoneId.of("+02:00")));
        p("zoned unknown", () -> ZonedDateTime.of(dt, ZoneId.of("Mars/Olympus")));
    }

    static void instants() {
        for (long[] sn : new long[][] {{0, 0}, {0, 1}, {-1, 999_999_999}, {1_700_000_000L, 500_000_000}, {1_700_000_000L, 120_000}, {1_700_000_000L, 123_456_789},
                {-62_135_596_800L, 0}, {253_402_300_799L, 0}, {-1, -1}, {5, 3_000_000_001L}}) {
            p("instant " + sn[0] + "," + sn[1], () -> {
                Instant i = Instant.ofEpochSecond(sn[0], sn[1]);
                return i + " " + i.getEpochSecond() + " " + i.getNano() + " ms " + i.toEpochMilli() + " hash " + i.hashCode();
            });
        }
        p("instant millis", () -> Instant.ofEpochMilli(-1) + " " + Instant.ofEpochMilli(1_700_000_000_123L) + " " + Instant.ofEpochMilli(-1).toEpochMilli());
        p("instant plus", () -> Instant.EPOCH.plusMillis(-1) + " " + Instant.EPOCH.plusNanos(1_500_000_000L) + " " + Instant.EPOCH.plusSeconds(86400)
                + " " + Instant.EPOCH.plus(Duration.ofMillis(2500)) + " " + Instant.EPOCH.minus(Duration.ofNanos(1)) + " " + Instant.EPOCH.minusSeconds(1));
        p("instant range", () -> Instant.MAX.plusNanos(1));
        p("instant min max", () -> Instant.MIN.getEpochSecond() + " " + Instant.MAX.getEpochSecond());
        p("instant compare", () -> Instant.EPOCH.compareTo(Instant.ofEpochSecond(0, 1)) + " " + Instant.EPOCH.isBefore(Instant.ofEpochMilli(1)) + " " + Instant.ofEpochMilli(5).isAfter(Instant.EPOCH)
                + " " + Instant.ofEpochSecond(3).equals(Instant.ofEpochMilli(3000)));
        p("instant fields", () -> Instant.ofEpochSecond(7, 123_456_789).getLong(ChronoField.MILLI_OF_SECOND) + " " + Instant.ofEpochSecond(7, 123_456_789).get(ChronoField.MICRO_OF_SECOND)
                + " " + Instant.ofEpochSecond(7).getLong(ChronoField.INSTANT_SECONDS));
        p("instant field", () -> Instant.EPOCH.getLong(ChronoField.HOUR_OF_DAY));
        p("instant atOffset", () -> Instant.ofEpochSecond(86399).atOffset(ZoneOffset.ofHours(1)) + " " + Instant.ofEpochSecond(86399).atZone(ZoneId.of("UT")));
        p("instant now", () -> {
            long before = System.currentTimeMillis();
            Instant now = Instant.now();
            long after = System.currentTimeMillis();
            return now.toEpochMilli() >= before && now.toEpochMilli() <= after;
        });
        p("now in zone", () -> {
            LocalDate today = LocalDate.now(ZoneOffset.UTC);
            LocalDateTime ldt = LocalDateTime.now(ZoneOffset.UTC);
            return !today.isAfter(ldt.toLocalDate()) && LocalTime.now(ZoneOffset.UTC) != null && OffsetDateTime.now(ZoneOffset.UTC).getOffset() == ZoneOffset.UTC;
        });
    }

    static void durations() {
        Duration[] ds = {Duration.ZERO, Duration.ofSeconds(1), Duration.ofMillis(1500), Duration.ofMillis(-1500), Duration.ofNanos(-1), Duration.ofSeconds(-1, 1),
            Duration.ofHours(25), Duration.ofMinutes(61), Duration.ofDays(2).plusNanos(10), Duration.ofSeconds(3661, 100_000_000), Duration.ofSeconds(-3661, -100_000_000), Duration.ofSeconds(0, -500)};
        for (Duration d : ds) {
            p("duration " + d.getSeconds() + "," + d.getNano(), () -> d + " ms " + d.toMillis() + " ns " + d.toNanos() + " s " + d.toSeconds() + " m " + d.toMinutes() + " h " + d.toHours()
                    + " neg " + d.isNegative() + " zero " + d.isZero() + " hash " + d.hashCode() + " negated " + d.negated() + " abs " + d.abs() + " x3 " + d.multipliedBy(3));
        }
        p("duration arithmetic", () -> Duration.ofSeconds(10).minus(Duration.ofMillis(1)) + " " + Duration.ofSeconds(1).plus(Duration.ofNanos(-1)) + " " + Duration.ofMinutes(1).compareTo(Duration.ofSeconds(60))
                + " " + Duration.ofMinutes(1).equals(Duration.ofSeconds(60)) + " " + Duration.ofMillis(999).compareTo(Duration.ofSeconds(1)) + " " + Duration.ofHours(26).toHoursPart()
                + " " + Duration.ofSeconds(3725).toMinutesPart() + " " + Duration.ofMillis(1234).toMillisPart());
        p("between", () -> Duration.between(Instant.EPOCH, Instant.ofEpochMilli(-2500)) + " " + Duration.between(LocalTime.NOON, LocalTime.MIDNIGHT)
                + " " + Duration.between(LocalDateTime.of(2024, 1, 1, 0, 0), LocalDateTime.of(2024, 3, 1, 0, 0, 0, 5)));
        p("overflow", () -> Duration.ofSeconds(Long.MAX_VALUE).plusSeconds(1));
        p("toMillis overflow", () -> Duration.ofSeconds(Long.MAX_VALUE / 100).toMillis());
    }

    static void accessors() {
        LocalDate d = LocalDate.of(2021, 7, 18);
        StringBuilder b = new StringBuilder();
        for (ChronoField f : ChronoField.values()) {
            b.append(f).append(f.isDateBased() ? "/d" : "").append(f.isTimeBased() ? "/t" : "").append(d.isSupported(f) ? "=" + d.getLong(f) : "").append(' ');
        }
        p("fields", () -> b);
        p("queries", () -> d.query(TemporalQueries.localDate()) + " " + d.query(TemporalQueries.localTime()) + " " + d.query(TemporalQueries.zone())
                + " " + OffsetDateTime.of(d.atStartOfDay(), ZoneOffset.ofHours(1)).query(TemporalQueries.zone()) + " " + ZonedDateTime.of(d.atTime(1, 2), ZoneId.of("UTC")).query(TemporalQueries.zoneId())
                + " " + ZoneOffset.ofHours(4).query(TemporalQueries.offset()) + " " + LocalDateTime.of(d, LocalTime.NOON).query(TemporalQueries.localTime()));
        p("from", () -> LocalDate.from(LocalDateTime.of(d, LocalTime.NOON)) + " " + LocalTime.from(OffsetDateTime.of(d.atTime(3, 4), ZoneOffset.UTC)) + " " + Instant.from(OffsetDateTime.of(d.atTime(3, 4), ZoneOffset.UTC))
                + " " + ZoneOffset.from(ZonedDateTime.of(d.atTime(1, 2), ZoneId.of("GMT+2"))) + " " + ZoneId.from(OffsetDateTime.of(d.atTime(3, 4), ZoneOffset.ofHours(-1))));
        p("from fails", () -> LocalDate.from(LocalTime.NOON));
        p("get too big", () -> LocalDate.MAX.get(ChronoField.EPOCH_DAY) + 0);
        p("get big", () -> LocalDate.MAX.get(ChronoField.PROLEPTIC_MONTH));
        p("get epoch day", () -> d.get(ChronoField.EPOCH_DAY));
        p("get nano of day", () -> LocalTime.NOON.get(ChronoField.NANO_OF_DAY));
        p("get instant seconds", () -> Instant.EPOCH.get(ChronoField.INSTANT_SECONDS));
        p("get milli of day", () -> LocalTime.NOON.get(ChronoField.MILLI_OF_DAY));
        p("date field", () -> d.getLong(ChronoField.OFFSET_SECONDS));
        p("atTime", () -> d.atStartOfDay() + " " + d.atTime(23, 59, 59) + " " + d.atTime(LocalTime.of(1, 2, 3, 4)) + " " + LocalTime.NOON.atDate(d) + " " + d.atStartOfDay().atZone(ZoneOffset.UTC));
        p("exception type", () -> {
            try {
                ZoneId.of("Nowhere/Atall");
                return "no exception";
            } catch (DateTimeException e) {
                return e.getClass().getName() + " is DateTimeException";
            }
        });
    }
}
