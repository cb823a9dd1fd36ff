package java.util.logging;

import java.util.ArrayList;
import java.util.function.Supplier;

/**
 * A logger that keeps levels, handlers and the parent chain as the JDK's does, but whose records
 * go nowhere: rvm's java.util.logging is a sink. A level below the effective level (INFO unless
 * set) is not loggable; loggable records are given to this logger's handlers only.
 */
public class Logger {
    public static final String GLOBAL_LOGGER_NAME = "global";
    private final String name;
    private volatile Level level;
    private volatile Logger parent;
    private final ArrayList<Handler> handlers = new ArrayList<>();
    private volatile boolean useParentHandlers = true;
    private volatile Filter filter;

    protected Logger(String name, String resourceBundleName) { this.name = name; }

    @Deprecated
    public static final Logger global = new Logger(GLOBAL_LOGGER_NAME, null);

    public static final Logger getGlobal() { return global; }

    public static synchronized Logger getLogger(String name) {
        LogManager m = LogManager.getLogManager();
        Logger l = m.getLogger(name);
        if (l == null) {
            l = new Logger(name, null);
            if (name.isEmpty()) l.level = Level.INFO;
            m.addLogger(l);
        }
        return l;
    }
    public static Logger getLogger(String name, String resourceBundleName) { return getLogger(name); }
    public static Logger getAnonymousLogger() {
        Logger l = new Logger(null, null);
        l.parent = getLogger("");
        return l;
    }

    public String getName() { return name; }
    public Logger getParent() { return parent; }
    public void setParent(Logger parent) { this.parent = java.util.Objects.requireNonNull(parent); }
    public void setLevel(Level newLevel) { level = newLevel; }
    public Level getLevel() { return level; }
    public void setFilter(Filter newFilter) { filter = newFilter; }
    public Filter getFilter() { return filter; }
    public synchronized void addHandler(Handler handler) { handlers.add(java.util.Objects.requireNonNull(handler)); }
    public synchronized void removeHandler(Handler handler) { handlers.remove(handler); }
    public synchronized Handler[] getHandlers() { return handlers.toArray(new Handler[0]); }
    public void setUseParentHandlers(boolean useParentHandlers) { this.useParentHandlers = useParentHandlers; }
    public boolean getUseParentHandlers() { return useParentHandlers; }

    private int effectiveLevel() {
        for (Logger l = this; l != null; l = l.parent) if (l.level != null) return l.level.intValue();
        return Level.INFO.intValue();
    }

    public boolean isLoggable(Level level) {
        int levelValue = effectiveLevel();
        return level.intValue() >= levelValue && levelValue != Level.OFF.intValue();
    }

    public void log(LogRecord record) {
        if (!isLoggable(record.getLevel())) return;
        Filter f = filter;
        if (f != null && !f.isLoggable(record)) return;
        for (Handler h : getHandlers()) h.publish(record);
    }
    private void doLog(Level level, String msg, Object[] params, Throwable thrown) {
        if (!isLoggable(level)) return;
        LogRecord r = new LogRecord(level, msg);
        r.setLoggerName(name);
        r.setParameters(params);
        r.setThrown(thrown);
        log(r);
    }
    public void log(Level level, String msg) { doLog(level, msg, null, null); }
    public void log(Level level, Supplier<String> msgSupplier) { if (isLoggable(level)) doLog(level, msgSupplier.get(), null, null); }
    public void log(Level level, String msg, Object param1) { doLog(level, msg, new Object[] { param1 }, null); }
    public void log(Level level, String msg, Object[] params) { doLog(level, msg, params, null); }
    public void log(Level level, String msg, Throwable thrown) { doLog(level, msg, null, thrown); }
    public void log(Level level, Throwable thrown, Supplier<String> msgSupplier) { if (isLoggable(level)) doLog(level, msgSupplier.get(), null, thrown); }
    public void logp(Level level, String sourceClass, String sourceMethod, String msg) { doLog(level, msg, null, null); }
    public void logp(Level level, String sourceClass, String sourceMethod, String msg, Object param1) { doLog(level, msg, new Object[] { param1 }, null); }
    public void logp(Level level, String sourceClass, String sourceMethod, String msg, Object[] params) { doLog(level, msg, params, null); }
    public void logp(Level level, String sourceClass, String sourceMethod, String msg, Throwable thrown) { doLog(level, msg, null, thrown); }
    public void entering(String sourceClass, String sourceMethod) { logp(Level.FINER, sourceClass, sourceMethod, "ENTRY"); }
    public void entering(String sourceClass, String sourceMethod, Object param1) { logp(Level.FINER, sourceClass, sourceMethod, "ENTRY {0}", param1); }
    public void exiting(String sourceClass, String sourceMethod) { logp(Level.FINER, sourceClass, sourceMethod, "RETURN"); }
    public void exiting(String sourceClass, String sourceMethod, Object result) { logp(Level.FINER, sourceClass, sourceMethod, "RETURN {0}", result); }
    public void throwing(String sourceClass, String sourceMethod, Throwable thrown) { logp(Level.FINER, sourceClass, sourceMethod, "THROW", thrown); }
    public void severe(String msg) { log(Level.SEVERE, msg); }
    public void warning(String msg) { log(Level.WARNING, msg); }
    public void info(String msg) { log(Level.INFO, msg); }
    public void config(String msg) { log(Level.CONFIG, msg); }
    public void fine(String msg) { log(Level.FINE, msg); }
    public void finer(String msg) { log(Level.FINER, msg); }
    public void finest(String msg) { log(Level.FINEST, msg); }
    public void severe(Supplier<String> msgSupplier) { log(Level.SEVERE, msgSupplier); }
    public void warning(Supplier<String> msgSupplier) { log(Level.WARNING, msgSupplier); }
    public void info(Supplier<String> msgSupplier) { log(Level.INFO, msgSupplier); }
    public void config(Supplier<String> msgSupplier) { log(Level.CONFIG, msgSupplier); }
    public void fine(Supplier<String> msgSupplier) { log(Level.FINE, msgSupplier); }
    public void finer(Supplier<String> msgSupplier) { log(Level.FINER, msgSupplier); }
    public void finest(Supplier<String> msgSupplier) { log(Level.FINEST, msgSupplier); }
}
