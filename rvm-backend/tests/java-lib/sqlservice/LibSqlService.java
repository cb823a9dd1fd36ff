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
        // ServiceDriver is not touched here before DriverManager: touching it would initialise it,
        // and it would register itself without the service file.
        try {
            DriverManager.getConnection("jdbc:other:x");
        } catch (SQLException e) {
            System.out.println("other: " + e.getMessage() + " " + e.getSQLState());
        }
        try {
            Connection c = DriverManager.getConnection("jdbc:svc:demo");
            System.out.println("connected: " + c);
        } catch (SQLException e) {
            System.out.println("svc: " + e.getMessage() + " " + e.getSQLState());
        }
        System.out.println("drivers: " + DriverManager.drivers().map(d -> d.getClass().getName()).collect(java.util.stream.Collectors.joining(",")));
    }
}
