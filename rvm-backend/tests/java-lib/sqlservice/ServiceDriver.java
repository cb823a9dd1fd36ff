import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.util.Properties;

/** Registers itself when initialised; accepts jdbc:svc: URLs and answers with an error naming the URL. */
public class ServiceDriver implements Driver {
    static boolean initialised;

    static {
        initialised = true;
        try {
            DriverManager.registerDriver(new ServiceDriver());
        } catch (SQLException e) {
            throw new RuntimeException(e);
        }
    }

    public Connection connect(String url, Properties info) throws SQLException {
        if (!acceptsURL(url)) return null;
        throw new SQLException("ServiceDriver reached for " + url, "S1000");
    }

    public boolean acceptsURL(String url) { return url.startsWith("jdbc:svc:"); }
    public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) { return new DriverPropertyInfo[0]; }
    public int getMajorVersion() { return 1; }
    public int getMinorVersion() { return 0; }
    public boolean jdbcCompliant() { return false; }
    public java.util.logging.Logger getParentLogger() { return null; }
}
