package java.lang;

import java.io.PrintStream;

public class Throwable implements java.io.Serializable {
    private String detailMessage;
    private Throwable cause = this;
    private Object backtrace;
    private Throwable[] suppressed;

    public Throwable() { fillInStackTrace(); }
    public Throwable(String message) { fillInStackTrace(); detailMessage = message; }
    public Throwable(String message, Throwable cause) { fillInStackTrace(); detailMessage = message; this.cause = cause; }
    public Throwable(Throwable cause) {
        fillInStackTrace();
        detailMessage = (cause == null ? null : cause.toString());
        this.cause = cause;
    }
    protected Throwable(String message, Throwable cause, boolean enableSuppression, boolean writableStackTrace) {
        if (writableStackTrace) fillInStackTrace();
        detailMessage = message;
        this.cause = cause;
    }
    public String getMessage() { return detailMessage; }
    public String getLocalizedMessage() { return getMessage(); }
    public Throwable getCause() { return (cause == this ? null : cause); }
    public Throwable initCause(Throwable cause) {
        if (this.cause != this)
            throw new IllegalStateException("Can't overwrite cause with " + (cause == null ? "a null" : cause.toString()), this);
        if (cause == this) throw new IllegalArgumentException("Self-causation not permitted", this);
        this.cause = cause;
        return this;
    }
    public String toString() {
        String s = getClass().getName();
        String message = getLocalizedMessage();
        return (message != null) ? (s + ": " + message) : s;
    }
    public Throwable fillInStackTrace() { fillInStackTrace0(); return this; }
    private native void fillInStackTrace0();
    private native int stackDepth0();
    private native String stackLine0(int i);

    public final void addSuppressed(Throwable exception) {
        if (exception == this) throw new IllegalArgumentException("Self-suppression not permitted", exception);
        if (exception == null) throw new NullPointerException("Cannot suppress a null exception.");
        if (suppressed == null) suppressed = new Throwable[0];
        Throwable[] n = new Throwable[suppressed.length + 1];
        System.arraycopy(suppressed, 0, n, 0, suppressed.length);
        n[suppressed.length] = exception;
        suppressed = n;
    }
    public final Throwable[] getSuppressed() { return suppressed == null ? new Throwable[0] : suppressed.clone(); }

    public StackTraceElement[] getStackTrace() {
        String[] lines = lines();
        StackTraceElement[] r = new StackTraceElement[lines.length];
        for (int i = 0; i < lines.length; i++) r[i] = StackTraceElement.parse(lines[i]);
        return r;
    }
    public void setStackTrace(StackTraceElement[] stackTrace) {}

    public void printStackTrace() { printStackTrace(System.err); }
    public void printStackTrace(java.io.PrintWriter s) {
        java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
        printStackTrace(new PrintStream(b, false, java.nio.charset.StandardCharsets.UTF_8));
        s.print(b.toString(java.nio.charset.StandardCharsets.UTF_8));
        s.flush();
    }

    public void printStackTrace(PrintStream s) {
        s.println(this);
        String[] trace = lines();
        for (int i = 0; i < trace.length; i++) s.println("\tat " + trace[i]);
        if (suppressed != null)
            for (int i = 0; i < suppressed.length; i++) suppressed[i].printEnclosed(s, trace, "Suppressed: ", "\t");
        Throwable c = getCause();
        if (c != null) c.printEnclosed(s, trace, "Caused by: ", "");
    }

    private String[] lines() {
        int n = stackDepth0();
        String[] r = new String[n];
        for (int i = 0; i < n; i++) r[i] = stackLine0(i);
        return r;
    }

    private void printEnclosed(PrintStream s, String[] enclosing, String caption, String prefix) {
        String[] trace = lines();
        int m = trace.length - 1, n = enclosing.length - 1;
        while (m >= 0 && n >= 0 && trace[m].equals(enclosing[n])) { m--; n--; }
        int common = trace.length - 1 - m;
        s.println(prefix + caption + this);
        for (int i = 0; i <= m; i++) s.println(prefix + "\tat " + trace[i]);
        if (common != 0) s.println(prefix + "\t... " + common + " more");
        if (suppressed != null)
            for (int i = 0; i < suppressed.length; i++) suppressed[i].printEnclosed(s, trace, "Suppressed: ", prefix + "\t");
        Throwable c = getCause();
        if (c != null) c.printEnclosed(s, trace, "Caused by: ", prefix);
    }
}
