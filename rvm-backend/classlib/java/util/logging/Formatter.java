package java.util.logging;

public abstract class Formatter {
    protected Formatter() {}
    public abstract String format(LogRecord record);
    public String getHead(Handler h) { return ""; }
    public String getTail(Handler h) { return ""; }
    public String formatMessage(LogRecord record) {
        String format = record.getMessage();
        Object[] parameters = record.getParameters();
        if (format == null || parameters == null || parameters.length == 0) return format;
        StringBuilder sb = new StringBuilder(format);
        for (int i = 0; i < parameters.length; i++) {
            String key = "{" + i + "}";
            int at;
            while ((at = sb.indexOf(key)) >= 0) sb.replace(at, at + key.length(), String.valueOf(parameters[i]));
        }
        return sb.toString();
    }
}
