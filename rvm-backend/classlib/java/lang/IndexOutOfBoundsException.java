package java.lang;

public class IndexOutOfBoundsException extends RuntimeException {
    public IndexOutOfBoundsException() { super(); }
    public IndexOutOfBoundsException(String message) { super(message); }
    public IndexOutOfBoundsException(String message, Throwable cause) { super(message, cause); }
    public IndexOutOfBoundsException(Throwable cause) { super(cause); }
    public IndexOutOfBoundsException(int index) { super("Index out of range: " + index); }
    public IndexOutOfBoundsException(long index) { super("Index out of range: " + index); }
}
