package java.sql;

/** A batch that failed part-way: the update counts of the statements run before the failure. */
public class BatchUpdateException extends SQLException {
    private final int[] updateCounts;
    private final long[] longUpdateCounts;

    public BatchUpdateException() { this(null, null, 0, (int[]) null, null); }
    public BatchUpdateException(int[] updateCounts) { this(null, null, 0, updateCounts, null); }
    public BatchUpdateException(Throwable cause) { this(cause == null ? null : cause.toString(), null, 0, (int[]) null, cause); }
    public BatchUpdateException(int[] updateCounts, Throwable cause) { this(cause == null ? null : cause.toString(), null, 0, updateCounts, cause); }
    public BatchUpdateException(String reason, int[] updateCounts) { this(reason, null, 0, updateCounts, null); }
    public BatchUpdateException(String reason, int[] updateCounts, Throwable cause) { this(reason, null, 0, updateCounts, cause); }
    public BatchUpdateException(String reason, String SQLState, int[] updateCounts) { this(reason, SQLState, 0, updateCounts, null); }
    public BatchUpdateException(String reason, String SQLState, int[] updateCounts, Throwable cause) { this(reason, SQLState, 0, updateCounts, cause); }
    public BatchUpdateException(String reason, String SQLState, int vendorCode, int[] updateCounts) { this(reason, SQLState, vendorCode, updateCounts, null); }
    public BatchUpdateException(String reason, String SQLState, int vendorCode, int[] updateCounts, Throwable cause) {
        super(reason, SQLState, vendorCode, cause);
        this.updateCounts = updateCounts == null ? null : updateCounts.clone();
        this.longUpdateCounts = updateCounts == null ? null : copy(updateCounts);
    }
    public BatchUpdateException(String reason, String SQLState, int vendorCode, long[] updateCounts, Throwable cause) {
        super(reason, SQLState, vendorCode, cause);
        this.longUpdateCounts = updateCounts == null ? null : updateCounts.clone();
        this.updateCounts = updateCounts == null ? null : copy(updateCounts);
    }

    private static long[] copy(int[] a) {
        long[] r = new long[a.length];
        for (int i = 0; i < a.length; i++) r[i] = a[i];
        return r;
    }
    private static int[] copy(long[] a) {
        int[] r = new int[a.length];
        for (int i = 0; i < a.length; i++) r[i] = (int) a[i];
        return r;
    }

    public int[] getUpdateCounts() { return updateCounts == null ? null : updateCounts.clone(); }
    public long[] getLargeUpdateCounts() { return longUpdateCounts == null ? null : longUpdateCounts.clone(); }
}
