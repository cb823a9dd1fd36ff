package java.util.zip;

public class ZipException extends java.io.IOException {
    public ZipException() {}
    public ZipException(String s) { super(s); }
}
