package java.util.logging;

public class LogRecord implements java.io.Serializable {
    private Level level;
    private String message;
    private String loggerName;
    private Object[] parameters;
    private Throwable thrown;
    private String sourceClassName, sourceMethodName;
    private long millis;
    public LogRecord(Level level, String msg) {
        this.level = java.util.Objects.requireNonNull(level);
        this.message = msg;
        this.millis = System.currentTimeMillis();
    }
    public Level getLevel() { return level; }
    public void setLevel(Level level) { this.level = java.util.Objects.requireNonNull(level); }
    public String getMessage() { return message; }
    public void setMessage(String message) { this.message = message; }
    public String getLoggerName() { return loggerName; }
    public void setLoggerName(String name) { loggerName = name; }
    public Object[] getParameters() { return parameters; }
    public void setParameters(Object[] parameters) { this.parameters = parameters; }
    public Throwable getThrown() { return thrown; }
    public void setThrown(Throwable thrown) { this.thrown = thrown; }
    public String getSourceClassName() { return sourceClassName; }
    public void setSourceClassName(String s) { sourceClassName = s; }
    public String getSourceMethodName() { return sourceMethodName; }
    public void setSourceMethodName(String s) { sourceMethodName = s; }
    public long getMillis() { return millis; }
    public void setMillis(long millis) { this.millis = millis; }
}
