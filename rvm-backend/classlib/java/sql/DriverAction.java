package java.sql;

public interface DriverAction {
    void deregister();
}
