package java.time.temporal;

/** The standard fields, in the JDK's order and with its names; ranges are not modelled. */
public enum ChronoField implements TemporalField {
    NANO_OF_SECOND("NanoOfSecond", false),
    NANO_OF_DAY("NanoOfDay", false),
    MICRO_OF_SECOND("MicroOfSecond", false),
    MICRO_OF_DAY("MicroOfDay", false),
    MILLI_OF_SECOND("MilliOfSecond", false),
    MILLI_OF_DAY("MilliOfDay", false),
    SECOND_OF_MINUTE("SecondOfMinute", false),
    SECOND_OF_DAY("SecondOfDay", false),
    MINUTE_OF_HOUR("MinuteOfHour", false),
    MINUTE_OF_DAY("MinuteOfDay", false),
    HOUR_OF_AMPM("HourOfAmPm", false),
    CLOCK_HOUR_OF_AMPM("ClockHourOfAmPm", false),
    HOUR_OF_DAY("HourOfDay", false),
    CLOCK_HOUR_OF_DAY("ClockHourOfDay", false),
    AMPM_OF_DAY("AmPmOfDay", false),
    DAY_OF_WEEK("DayOfWeek", true),
    ALIGNED_DAY_OF_WEEK_IN_MONTH("AlignedDayOfWeekInMonth", true),
    ALIGNED_DAY_OF_WEEK_IN_YEAR("AlignedDayOfWeekInYear", true),
    DAY_OF_MONTH("DayOfMonth", true),
    DAY_OF_YEAR("DayOfYear", true),
    EPOCH_DAY("EpochDay", true),
    ALIGNED_WEEK_OF_MONTH("AlignedWeekOfMonth", true),
    ALIGNED_WEEK_OF_YEAR("AlignedWeekOfYear", true),
    MONTH_OF_YEAR("MonthOfYear", true),
    PROLEPTIC_MONTH("ProlepticMonth", true),
    YEAR_OF_ERA("YearOfEra", true),
    YEAR("Year", true),
    ERA("Era", true),
    INSTANT_SECONDS("InstantSeconds", null),
    OFFSET_SECONDS("OffsetSeconds", null);

    private final String name;
    private final Boolean dateBased;

    ChronoField(String name, Boolean dateBased) {
        this.name = name;
        this.dateBased = dateBased;
    }

    /** Whether every valid value fits an int (the JDK's {@code range().isIntValue()}). */
    public boolean isIntValue() {
        return this != NANO_OF_DAY && this != MICRO_OF_DAY && this != EPOCH_DAY && this != PROLEPTIC_MONTH && this != INSTANT_SECONDS;
    }

    @Override
    public boolean isDateBased() { return dateBased == Boolean.TRUE; }
    @Override
    public boolean isTimeBased() { return dateBased == Boolean.FALSE; }
    @Override
    public boolean isSupportedBy(TemporalAccessor temporal) { return temporal.isSupported(this); }
    @Override
    public long getFrom(TemporalAccessor temporal) { return temporal.getLong(this); }
    @Override
    public String toString() { return name; }
}
