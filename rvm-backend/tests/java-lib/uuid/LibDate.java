import java.util.Date;

/** java.util.Date: milliseconds, order, equality and hash as HotSpot's (its text is the time zone's). */
public class LibDate {
    public static void main(String[] args) {
        long[] times = { 0L, 1_700_000_000_123L, -86_400_001L, Long.MAX_VALUE / 2 };
        Date prev = null;
        for (long t : times) {
            Date d = new Date(t);
            System.out.println(t + ": time " + d.getTime() + " hash " + d.hashCode() + (prev == null ? "" : " before " + d.before(prev) + " after " + d.after(prev) + " compare " + d.compareTo(prev)));
            prev = d;
        }
        Date a = new Date(5), b = (Date) a.clone();
        b.setTime(5);
        System.out.println("equals " + a.equals(b) + " " + a.equals(new Date(6)) + " now after epoch " + new Date().after(new Date(0)));
    }
}
