package java.lang;

public final class StackTraceElement implements java.io.Serializable {
    private final String declaringClass;
    private final String methodName;
    private final String fileName;
    private final int lineNumber;
    public StackTraceElement(String declaringClass, String methodName, String fileName, int lineNumber) {
        this.declaringClass = declaringClass;
        this.methodName = methodName;
        this.fileName = fileName;
        this.lineNumber = lineNumber;
    }
    /** Parses rvm's frame text "pkg.Class.method(File.java:12)". */
    static StackTraceElement parse(String s) {
        int open = s.lastIndexOf('(');
        String qualified = s.substring(0, open);
        String loc = s.substring(open + 1, s.length() - 1);
        int dot = qualified.lastIndexOf('.');
        String cls = qualified.substring(0, dot), method = qualified.substring(dot + 1);
        if (loc.equals("Native Method")) return new StackTraceElement(cls, method, null, -2);
        if (loc.equals("Unknown Source")) return new StackTraceElement(cls, method, null, -1);
        int colon = loc.lastIndexOf(':');
        if (colon < 0) return new StackTraceElement(cls, method, loc, -1);
        return new StackTraceElement(cls, method, loc.substring(0, colon), Integer.parseInt(loc.substring(colon + 1)));
    }
    public String getClassName() { return declaringClass; }
    public String getMethodName() { return methodName; }
    public String getFileName() { return fileName; }
    public int getLineNumber() { return lineNumber; }
    public boolean isNativeMethod() { return lineNumber == -2; }
    public String toString() {
        String loc = isNativeMethod() ? "Native Method"
            : fileName == null ? "Unknown Source"
            : lineNumber >= 0 ? fileName + ":" + lineNumber : fileName;
        return declaringClass + "." + methodName + "(" + loc + ")";
    }
    public boolean equals(Object o) {
        if (!(o instanceof StackTraceElement)) return false;
        StackTraceElement e = (StackTraceElement) o;
        return declaringClass.equals(e.declaringClass) && methodName.equals(e.methodName)
            && java.util.Objects.equals(fileName, e.fileName) && lineNumber == e.lineNumber;
    }
    public int hashCode() { return 31 * declaringClass.hashCode() + methodName.hashCode() + lineNumber; }
}
