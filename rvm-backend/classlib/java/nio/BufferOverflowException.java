package java.nio;

public class BufferOverflowException extends RuntimeException {
    public BufferOverflowException() {}
}
