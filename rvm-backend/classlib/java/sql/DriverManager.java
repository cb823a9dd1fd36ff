package java.sql;

import java.util.ArrayList;
import java.util.Enumeration;
import java.util.Properties;

/**
 * Drivers register themselves (a driver class's static initialiser calls registerDriver). As the
 * JDK's, the first use also loads the drivers a jar declares in
 * {@code META-INF/services/java.sql.Driver} (the first such file on the class path).
 */
public class DriverManager {
    private static final ArrayList<Driver> registeredDrivers = new ArrayList<>();
    private static volatile int loginTimeout = 0;
    private static volatile java.io.PrintWriter logWriter = null;
    private DriverManager() {}

    public static java.io.PrintWriter getLogWriter() { return logWriter; }
    public static void setLogWriter(java.io.PrintWriter out) { logWriter = out; }

    public static Connection getConnection(String url, Properties info) throws SQLException { return getConnection0(url, info); }
    public static Connection getConnection(String url, String user, String password) throws SQLException {
        Properties info = new Properties();
        if (user != null) info.put("user", user);
        if (password != null) info.put("password", password);
        return getConnection0(url, info);
    }
    public static Connection getConnection(String url) throws SQLException { return getConnection0(url, new Properties()); }

    private static Connection getConnection0(String url, Properties info) throws SQLException {
        if (url == null) throw new SQLException("The url cannot be null", "08001");
        SQLException reason = null;
        for (Driver d : snapshot()) {
            try {
                Connection con = d.connect(url, info);
                if (con != null) return con;
            } catch (SQLException ex) {
                if (reason == null) reason = ex;
            }
        }
        if (reason != null) throw reason;
        throw new SQLException("No suitable driver found for " + url, "08001");
    }

    public static Driver getDriver(String url) throws SQLException {
        for (Driver d : snapshot()) {
            try {
                if (d.acceptsURL(url)) return d;
            } catch (SQLException sqe) {
            }
        }
        throw new SQLException("No suitable driver", "08001");
    }

    private static boolean servicesLoaded;

    /** Loads (initialises) the drivers named in META-INF/services/java.sql.Driver, once. */
    private static void loadServices() {
        synchronized (DriverManager.class) {
            if (servicesLoaded) return;
            servicesLoaded = true;
        }
        java.io.InputStream in = ClassLoader.getSystemResourceAsStream("META-INF/services/java.sql.Driver");
        if (in == null) return;
        try (java.io.BufferedReader r = new java.io.BufferedReader(new java.io.InputStreamReader(in, java.nio.charset.StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                int hash = line.indexOf('#');
                String name = (hash >= 0 ? line.substring(0, hash) : line).trim();
                if (name.isEmpty()) continue;
                try {
                    Class.forName(name);
                } catch (Throwable t) {
                    // As the JDK's: a driver that cannot be loaded is skipped.
                }
            }
        } catch (java.io.IOException e) {
            // Unreadable: no service drivers.
        }
    }

    private static Driver[] snapshot() {
        loadServices();
        synchronized (DriverManager.class) {
            return registeredDrivers.toArray(new Driver[0]);
        }
    }

    public static synchronized void registerDriver(Driver driver) throws SQLException {
        if (driver == null) throw new NullPointerException();
        if (!registeredDrivers.contains(driver)) registeredDrivers.add(driver);
    }
    public static void registerDriver(Driver driver, DriverAction da) throws SQLException { registerDriver(driver); }
    public static synchronized void deregisterDriver(Driver driver) throws SQLException { registeredDrivers.remove(driver); }
    public static Enumeration<Driver> getDrivers() { return java.util.Collections.enumeration(java.util.Arrays.asList(snapshot())); }
    public static java.util.stream.Stream<Driver> drivers() { return java.util.Arrays.stream(snapshot()); }
    public static void setLoginTimeout(int seconds) { loginTimeout = seconds; }
    public static int getLoginTimeout() { return loginTimeout; }
    public static void println(String message) {
        java.io.PrintWriter w = logWriter;
        if (w != null) { w.println(message); w.flush(); }
    }
}
