package java.util.logging;

import java.util.Enumeration;
import java.util.HashMap;

/** Keeps the loggers by name; there is no configuration file and no output. */
public class LogManager {
    private static final LogManager manager = new LogManager();
    private final HashMap<String, Logger> loggers = new HashMap<>();
    protected LogManager() {}
    public static LogManager getLogManager() { return manager; }
    public synchronized boolean addLogger(Logger logger) {
        String name = logger.getName();
        if (name == null) throw new NullPointerException();
        if (loggers.containsKey(name)) return false;
        loggers.put(name, logger);
        if (!name.isEmpty()) logger.setParent(Logger.getLogger(""));
        return true;
    }
    public synchronized Logger getLogger(String name) { return loggers.get(name); }
    public synchronized Enumeration<String> getLoggerNames() {
        return java.util.Collections.enumeration(new java.util.ArrayList<>(loggers.keySet()));
    }
    public void reset() {}
    public void readConfiguration() {}
    public String getProperty(String name) { return null; }
}
