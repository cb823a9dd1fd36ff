import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/**
 * A JDBC driver found as the JDK finds one: named in META-INF/services/java.sql.Driver on the
 * class path (the resources directory beside these sources), loaded and initialised by
 * DriverManager's first use, never named by the program.
 */
public class LibSqlService {
    public static void main(String[] args) throws Exception {
        System.out.println("initialised before use: " + ServiceDriver.initialised);
        try {
            DriverManager.getConnection("jdbc:other:x");
        } catch (SQLException e) {
            System.out.println("other: " + e.getMessage() + " " + e.getSQLState());
        }
        System.out.println("initialised: " + ServiceDriver.initialised);
        try {
            Connection c = DriverManager.getConnection("jdbc:svc:demo");
            System.out.println("connected: " + c);
        } catch (SQLException e) {
            System.out.println("svc: " + e.getMessage() + " " + e.getSQLState());
        }
        System.out.println("drivers: " + DriverManager.drivers().map(d -> d.getClass().getName()).collect(java.util.stream.Collectors.joining(",")));
    }
}
