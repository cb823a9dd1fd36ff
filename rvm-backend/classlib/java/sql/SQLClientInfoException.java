package java.sql;

public class SQLClientInfoException extends SQLException {
    public SQLClientInfoException() { super(); }
    public SQLClientInfoException(String reason) { super(reason); }
}
