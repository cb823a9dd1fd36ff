package java.util.zip;

public class DataFormatException extends Exception {
    public DataFormatException() {}
    public DataFormatException(String s) { super(s); }
}
