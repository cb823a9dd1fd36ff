package java.time;

import java.time.temporal.ChronoField;
import java.time.temporal.TemporalAccessor;
import java.time.temporal.TemporalField;
import java.time.temporal.TemporalQueries;
import java.time.temporal.TemporalQuery;
import java.time.temporal.UnsupportedTemporalTypeException;

/** A date in the proleptic ISO calendar, years -999999999 to 999999999; the JDK's arithmetic, text and hash. */
public final class LocalDate implements java.time.chrono.ChronoLocalDate, java.io.Serializable {
    static final int MIN_YEAR = -999_999_999, MAX_YEAR = 999_999_999;
    private static final long DAYS_PER_CYCLE = 146097L;
    static final long DAYS_0000_TO_1970 = (DAYS_PER_CYCLE * 5L) - (30L * 365L + 7L);

    public static final LocalDate MIN = new LocalDate(MIN_YEAR, 1, 1);
    public static final LocalDate MAX = new LocalDate(MAX_YEAR, 12, 31);
    public static final LocalDate EPOCH = new LocalDate(1970, 1, 1);

    private final int year;
    private final short month;
    private final short day;

    private LocalDate(int year, int month, int day) {
        this.year = year;
        this.month = (short) month;
        this.day = (short) day;
    }

    public static LocalDate now() { return now(ZoneId.systemDefault()); }
    public static LocalDate now(ZoneId zone) { return ofInstant(Instant.now(), zone); }

    public static LocalDate ofInstant(Instant instant, ZoneId zone) {
        ZoneOffset offset = zone.getRules().getOffset(instant);
        long localSecond = instant.getEpochSecond() + offset.getTotalSeconds();
        return ofEpochDay(Math.floorDiv(localSecond, 86400));
    }

    public static LocalDate of(int year, Month month, int dayOfMonth) { return of(year, month.getValue(), dayOfMonth); }

    public static LocalDate of(int year, int month, int dayOfMonth) {
        checkYear(year);
        if (month < 1 || month > 12) throw new DateTimeException(Iso.invalid("MonthOfYear", 1, 12, month));
        if (dayOfMonth < 1 || dayOfMonth > 31) throw new DateTimeException("Invalid value for DayOfMonth (valid values 1 - 28/31): " + dayOfMonth);
        if (dayOfMonth > 28) {
            int dom = Month.of(month).length(isLeap(year));
            if (dayOfMonth > dom) {
                if (dayOfMonth == 29) throw new DateTimeException("Invalid date 'February 29' as '" + year + "' is not a leap year");
                throw new DateTimeException("Invalid date '" + Month.of(month).name() + " " + dayOfMonth + "'");
            }
        }
        return new LocalDate(year, month, dayOfMonth);
    }

    private static void checkYear(long year) {
        if (year < MIN_YEAR || year > MAX_YEAR) throw new DateTimeException(Iso.invalid("Year", MIN_YEAR, MAX_YEAR, year));
    }

    public static LocalDate ofYearDay(int year, int dayOfYear) {
        checkYear(year);
        if (dayOfYear < 1 || dayOfYear > 366) throw new DateTimeException(Iso.invalid("DayOfYear", 1, 366, dayOfYear));
        boolean leap = isLeap(year);
        if (dayOfYear == 366 && !leap) throw new DateTimeException("Invalid date 'DayOfYear 366' as '" + year + "' is not a leap year");
        Month moy = Month.of((dayOfYear - 1) / 31 + 1);
        int monthEnd = moy.firstDayOfYear(leap) + moy.length(leap) - 1;
        if (dayOfYear > monthEnd) moy = moy.plus(1);
        int dom = dayOfYear - moy.firstDayOfYear(leap) + 1;
        return new LocalDate(year, moy.getValue(), dom);
    }

    public static LocalDate ofEpochDay(long epochDay) {
        if (epochDay < -365243219162L || epochDay > 365241780471L)
            throw new DateTimeException(Iso.invalid("EpochDay", -365243219162L, 365241780471L, epochDay));
        long zeroDay = epochDay + DAYS_0000_TO_1970;
        zeroDay -= 60;
        long adjust = 0;
        if (zeroDay < 0) {
            long adjustCycles = (zeroDay + 1) / DAYS_PER_CYCLE - 1;
            adjust = adjustCycles * 400;
            zeroDay += -adjustCycles * DAYS_PER_CYCLE;
        }
        long yearEst = (400 * zeroDay + 591) / DAYS_PER_CYCLE;
        long doyEst = zeroDay - (365 * yearEst + yearEst / 4 - yearEst / 100 + yearEst / 400);
        if (doyEst < 0) {
            yearEst--;
            doyEst = zeroDay - (365 * yearEst + yearEst / 4 - yearEst / 100 + yearEst / 400);
        }
        yearEst += adjust;
        int marchDoy0 = (int) doyEst;
        int marchMonth0 = (marchDoy0 * 5 + 2) / 153;
        int month = (marchMonth0 + 2) % 12 + 1;
        int dom = marchDoy0 - (marchMonth0 * 306 + 5) / 10 + 1;
        yearEst += marchMonth0 / 10;
        return new LocalDate((int) yearEst, month, dom);
    }

    public static LocalDate from(TemporalAccessor temporal) {
        LocalDate date = temporal.query(TemporalQueries.localDate());
        if (date == null) throw new DateTimeException("Unable to obtain LocalDate from TemporalAccessor: " + temporal + " of type " + temporal.getClass().getName());
        return date;
    }

    public static LocalDate parse(CharSequence text) { return Iso.parseDate(text); }

    public static boolean isLeap(long year) { return ((year & 3) == 0) && ((year % 100) != 0 || (year % 400) == 0); }

    public int getYear() { return year; }
    public int getMonthValue() { return month; }
    public Month getMonth() { return Month.of(month); }
    public int getDayOfMonth() { return day; }
    public int getDayOfYear() { return getMonth().firstDayOfYear(isLeapYear()) + day - 1; }
    public DayOfWeek getDayOfWeek() { return DayOfWeek.of((int) Math.floorMod(toEpochDay() + 3, 7L) + 1); }
    public boolean isLeapYear() { return isLeap(year); }
    public int lengthOfMonth() { return getMonth().length(isLeapYear()); }
    public int lengthOfYear() { return isLeapYear() ? 366 : 365; }

    public long toEpochDay() {
        long y = year;
        long m = month;
        long total = 0;
        total += 365 * y;
        if (y >= 0) total += (y + 3) / 4 - (y + 99) / 100 + (y + 399) / 400;
        else total -= y / -4 - y / -100 + y / -400;
        total += ((367 * m - 362) / 12);
        total += day - 1;
        if (m > 2) {
            total--;
            if (!isLeapYear()) total--;
        }
        return total - DAYS_0000_TO_1970;
    }

    private static LocalDate resolvePreviousValid(int year, int month, int day) {
        if (month == 2) day = Math.min(day, isLeap(year) ? 29 : 28);
        else if (month == 4 || month == 6 || month == 9 || month == 11) day = Math.min(day, 30);
        return new LocalDate(year, month, day);
    }

    public LocalDate withYear(int year) {
        if (this.year == year) return this;
        checkYear(year);
        return resolvePreviousValid(year, month, day);
    }
    public LocalDate withMonth(int month) {
        if (this.month == month) return this;
        if (month < 1 || month > 12) throw new DateTimeException(Iso.invalid("MonthOfYear", 1, 12, month));
        return resolvePreviousValid(year, month, day);
    }
    public LocalDate withDayOfMonth(int dayOfMonth) {
        if (this.day == dayOfMonth) return this;
        return of(year, month, dayOfMonth);
    }
    public LocalDate withDayOfYear(int dayOfYear) {
        if (getDayOfYear() == dayOfYear) return this;
        return ofYearDay(year, dayOfYear);
    }

    public LocalDate plusYears(long yearsToAdd) {
        if (yearsToAdd == 0) return this;
        long newYear = year + yearsToAdd;
        checkYear(newYear);
        return resolvePreviousValid((int) newYear, month, day);
    }
    public LocalDate plusMonths(long monthsToAdd) {
        if (monthsToAdd == 0) return this;
        long monthCount = year * 12L + (month - 1);
        long calcMonths = monthCount + monthsToAdd;
        long newYear = Math.floorDiv(calcMonths, 12);
        checkYear(newYear);
        int newMonth = (int) Math.floorMod(calcMonths, 12) + 1;
        return resolvePreviousValid((int) newYear, newMonth, day);
    }
    public LocalDate plusWeeks(long weeksToAdd) { return plusDays(Math.multiplyExact(weeksToAdd, 7)); }
    public LocalDate plusDays(long daysToAdd) {
        if (daysToAdd == 0) return this;
        long dom = day + daysToAdd;
        if (dom > 0 && dom <= 28) return new LocalDate(year, month, (int) dom);
        return ofEpochDay(Math.addExact(toEpochDay(), daysToAdd));
    }
    public LocalDate minusYears(long n) { return n == Long.MIN_VALUE ? plusYears(Long.MAX_VALUE).plusYears(1) : plusYears(-n); }
    public LocalDate minusMonths(long n) { return n == Long.MIN_VALUE ? plusMonths(Long.MAX_VALUE).plusMonths(1) : plusMonths(-n); }
    public LocalDate minusWeeks(long n) { return n == Long.MIN_VALUE ? plusWeeks(Long.MAX_VALUE).plusWeeks(1) : plusWeeks(-n); }
    public LocalDate minusDays(long n) { return n == Long.MIN_VALUE ? plusDays(Long.MAX_VALUE).plusDays(1) : plusDays(-n); }

    public LocalDateTime atStartOfDay() { return LocalDateTime.of(this, LocalTime.MIDNIGHT); }
    /** Midnight in {@code zone} (rvm's zones have no gaps, so it is always midnight). */
    public ZonedDateTime atStartOfDay(ZoneId zone) { return ZonedDateTime.of(atStartOfDay(), zone); }
    public LocalDateTime atTime(LocalTime time) { return LocalDateTime.of(this, time); }
    public LocalDateTime atTime(int hour, int minute) { return atTime(LocalTime.of(hour, minute)); }
    public LocalDateTime atTime(int hour, int minute, int second) { return atTime(LocalTime.of(hour, minute, second)); }
    public LocalDateTime atTime(int hour, int minute, int second, int nanoOfSecond) { return atTime(LocalTime.of(hour, minute, second, nanoOfSecond)); }

    @Override
    public boolean isSupported(TemporalField field) {
        return field instanceof ChronoField && field.isDateBased();
    }

    @Override
    public long getLong(TemporalField field) {
        if (!(field instanceof ChronoField)) return field.getFrom(this);
        switch ((ChronoField) field) {
            case DAY_OF_WEEK: return getDayOfWeek().getValue();
            case ALIGNED_DAY_OF_WEEK_IN_MONTH: return ((day - 1) % 7) + 1;
            case ALIGNED_DAY_OF_WEEK_IN_YEAR: return ((getDayOfYear() - 1) % 7) + 1;
            case DAY_OF_MONTH: return day;
            case DAY_OF_YEAR: return getDayOfYear();
            case EPOCH_DAY: return toEpochDay();
            case ALIGNED_WEEK_OF_MONTH: return ((day - 1) / 7) + 1;
            case ALIGNED_WEEK_OF_YEAR: return ((getDayOfYear() - 1) / 7) + 1;
            case MONTH_OF_YEAR: return month;
            case PROLEPTIC_MONTH: return year * 12L + month - 1;
            case YEAR_OF_ERA: return year >= 1 ? year : 1 - year;
            case YEAR: return year;
            case ERA: return year >= 1 ? 1 : 0;
            default: throw new UnsupportedTemporalTypeException("Unsupported field: " + field);
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public <R> R query(TemporalQuery<R> query) {
        if (query == TemporalQueries.localDate()) return (R) this;
        return java.time.chrono.ChronoLocalDate.super.query(query);
    }

    @Override
    public int compareTo(java.time.chrono.ChronoLocalDate o) {
        if (!(o instanceof LocalDate)) return Long.compare(toEpochDay(), o.getLong(ChronoField.EPOCH_DAY));
        LocalDate other = (LocalDate) o;
        int cmp = year - other.year;
        if (cmp == 0) {
            cmp = month - other.month;
            if (cmp == 0) cmp = day - other.day;
        }
        return cmp;
    }
    public boolean isAfter(java.time.chrono.ChronoLocalDate other) { return compareTo(other) > 0; }
    public boolean isBefore(java.time.chrono.ChronoLocalDate other) { return compareTo(other) < 0; }
    public boolean isEqual(java.time.chrono.ChronoLocalDate other) { return compareTo(other) == 0; }

    @Override
    public boolean equals(Object obj) {
        if (this == obj) return true;
        if (!(obj instanceof LocalDate)) return false;
        LocalDate o = (LocalDate) obj;
        return year == o.year && month == o.month && day == o.day;
    }
    @Override
    public int hashCode() {
        int yearValue = year, monthValue = month, dayValue = day;
        return (yearValue & 0xFFFFF800) ^ ((yearValue << 11) + (monthValue << 6) + (dayValue));
    }
    @Override
    public String toString() {
        StringBuilder buf = new StringBuilder(10);
        Iso.appendYear(buf, year);
        return buf.append(month < 10 ? "-0" : "-").append(month).append(day < 10 ? "-0" : "-").append(day).toString();
    }
}
