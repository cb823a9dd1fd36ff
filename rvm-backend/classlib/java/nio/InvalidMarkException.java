package java.nio;

public class InvalidMarkException extends IllegalStateException {
    public InvalidMarkException() {}
}
