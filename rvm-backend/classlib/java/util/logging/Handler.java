package java.util.logging;

public abstract class Handler {
    private volatile Level logLevel = Level.ALL;
    private volatile Filter filter;
    private volatile Formatter formatter;
    protected Handler() {}
    public abstract void publish(LogRecord record);
    public abstract void flush();
    public abstract void close() throws SecurityException;
    public void setLevel(Level newLevel) { logLevel = java.util.Objects.requireNonNull(newLevel); }
    public Level getLevel() { return logLevel; }
    public void setFilter(Filter newFilter) { filter = newFilter; }
    public Filter getFilter() { return filter; }
    public void setFormatter(Formatter newFormatter) { formatter = java.util.Objects.requireNonNull(newFormatter); }
    public Formatter getFormatter() { return formatter; }
    public boolean isLoggable(LogRecord record) {
        int levelValue = getLevel().intValue();
        if (record == null) return false;
        if (record.getLevel().intValue() < levelValue || levelValue == Level.OFF.intValue()) return false;
        Filter f = getFilter();
        return f == null || f.isLoggable(record);
    }
}
