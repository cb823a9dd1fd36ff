package java.lang;

public class NumberFormatException extends IllegalArgumentException {
    public NumberFormatException() { super(); }
    public NumberFormatException(String message) { super(message); }
    public NumberFormatException(String message, Throwable cause) { super(message, cause); }
    public NumberFormatException(Throwable cause) { super(cause); }
    static NumberFormatException forInputString(String s) { return new NumberFormatException("For input string: \"" + s + "\""); }
    static NumberFormatException forInputString(String s, int radix) { return new NumberFormatException("For input string: \"" + s + "\"" + (radix == 10 ? "" : " under radix " + radix)); }
}
