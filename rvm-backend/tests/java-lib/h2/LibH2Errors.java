import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLNonTransientException;
import java.sql.SQLTransientException;
import java.sql.Statement;

/**
 * H2's errors as a program sees them: each failing statement's exception class (and which of the
 * JDK's SQLException families it belongs to), SQL state, error code and message (H2 formats its
 * messages with java.text.MessageFormat), and a batch's update counts; then a few values H2
 * computes with java.time (dates, times, intervals of fixed dates, not the clock), and JDBC's
 * Timestamp, Date and Time written and read back (run with TZ=UTC).
 */
public class LibH2Errors {
    static void fail(Statement s, String sql) {
        try {
            s.execute(sql);
            System.out.println(sql + ": no error");
        } catch (SQLException e) {
            String family = e instanceof SQLNonTransientException ? "non-transient" : e instanceof SQLTransientException ? "transient" : "other";
            String message = e.getMessage();
            int nl = message.indexOf('\n');
            System.out.println(sql + ": " + e.getClass().getName() + " (" + family + ") state " + e.getSQLState() + " code " + e.getErrorCode() + ": "
                    + (nl < 0 ? message : message.substring(0, nl)));
        }
    }

    public static void main(String[] args) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:h2:mem:errors"); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t(id INT PRIMARY KEY, name VARCHAR(5) NOT NULL, d DATE)");
            s.execute("INSERT INTO t VALUES (1, 'one', DATE '2024-02-29')");
            fail(s, "SELEC 1");
            fail(s, "SELECT * FROM missing");
            fail(s, "INSERT INTO t VALUES (1, 'dup', NULL)");
            fail(s, "INSERT INTO t VALUES (2, NULL, NULL)");
            fail(s, "INSERT INTO t VALUES (3, 'too long', NULL)");
            fail(s, "SELECT 1 / 0");
            fail(s, "SELECT CAST('x' AS INT)");
            fail(s, "INSERT INTO t VALUES (4, 'bad', DATE '2023-02-29')");
            fail(s, "SELECT nosuchcolumn FROM t");
            try (PreparedStatement p = c.prepareStatement("INSERT INTO t VALUES (?, 'b', NULL)")) {
                for (int id : new int[] {10, 11, 1, 12}) {
                    p.setInt(1, id);
                    p.addBatch();
                }
                p.executeBatch();
            } catch (BatchUpdateException e) {
                StringBuilder b = new StringBuilder();
                for (int n : e.getUpdateCounts()) b.append(n).append(' ');
                System.out.println("batch: " + e.getClass().getName() + " counts " + b + "state " + e.getSQLState());
            }
            try {
                DriverManager.getConnection("jdbc:h2:mem:x;NO_SUCH_SETTING=1");
            } catch (SQLException e) {
                System.out.println("setting: " + e.getClass().getName() + " " + e.getErrorCode() + ": " + e.getMessage());
            }
            try (ResultSet r = s.executeQuery("SELECT d, DATEADD(DAY, 366, d), DATEDIFF(DAY, d, DATE '2025-01-01'), EXTRACT(ISO_DAY_OF_WEEK FROM d), "
                    + "CAST(TIMESTAMP '2024-02-29 23:59:59.5' AS TIME), TIMESTAMP WITH TIME ZONE '2024-02-29 10:00:00+05:30', "
                    + "INTERVAL '1 02:03:04' DAY TO SECOND, CAST(d AS VARCHAR) FROM t ORDER BY id")) {
                while (r.next()) {
                    StringBuilder b = new StringBuilder("dates:");
                    for (int i = 1; i <= 8; i++) b.append(' ').append(r.getString(i));
                    System.out.println(b);
                }
            }
            // JDBC's date types both ways (the program runs in UTC, so their text is the same on both VMs).
            s.execute("CREATE TABLE ev(id INT, ts TIMESTAMP(9), d DATE, t TIME)");
            try (PreparedStatement p = c.prepareStatement("INSERT INTO ev VALUES (?, ?, ?, ?)")) {
                p.setInt(1, 1);
                p.setTimestamp(2, java.sql.Timestamp.valueOf("2024-02-29 10:15:30.123456789"));
                p.setDate(3, java.sql.Date.valueOf("1999-12-31"));
                p.setTime(4, java.sql.Time.valueOf("23:59:58"));
                p.executeUpdate();
            }
            try (ResultSet r = s.executeQuery("SELECT ts, d, t, TIMESTAMP '1970-01-01 00:00:00.5', CAST(ts AS VARCHAR) FROM ev")) {
                while (r.next()) {
                    java.sql.Timestamp ts = r.getTimestamp(1);
                    System.out.println("jdbc: " + ts + " " + ts.getTime() + " " + ts.getNanos() + " " + r.getDate(2) + " " + r.getDate(2).getTime() + " " + r.getTime(3) + " "
                            + r.getTime(3).getTime() + " " + r.getTimestamp(4).getTime() + " " + r.getString(5) + " " + r.getObject(1).getClass().getName());
                }
            }
        }
    }
}
