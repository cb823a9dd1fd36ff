package java.lang;

public interface Readable {
    int read(java.nio.CharBuffer cb) throws java.io.IOException;
}
