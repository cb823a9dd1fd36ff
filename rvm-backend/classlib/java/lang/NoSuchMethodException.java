package java.lang;

public class NoSuchMethodException extends ReflectiveOperationException {
    public NoSuchMethodException() { super(); }
    public NoSuchMethodException(String s) { super(s); }
}
