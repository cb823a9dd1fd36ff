package java.sql;

public class SQLWarning extends SQLException {
    public SQLWarning(String reason, String SQLState, int vendorCode) { super(reason, SQLState, vendorCode); }
    public SQLWarning(String reason, String SQLState) { super(reason, SQLState); }
    public SQLWarning(String reason) { super(reason); }
    public SQLWarning() { super(); }
    public SQLWarning(Throwable cause) { super(cause); }
    public SQLWarning getNextWarning() { return (SQLWarning) getNextException(); }
    public void setNextWarning(SQLWarning w) { setNextException(w); }
}
