import java.util.*;

public class Oom {
    public static void main(String[] args) {
        List<long[]> hoard = new ArrayList<>();
        try {
            while (true) hoard.add(new long[64 * 1024]);
        } catch (OutOfMemoryError e) {
            int n = hoard.size();
            hoard = null;
            System.out.println("caught " + e.getClass().getName() + ": " + e.getMessage() + " after more than 10: " + (n > 10));
        }
        List<Object> again = new ArrayList<>();
        for (int i = 0; i < 100; i++) again.add(new long[1000]);
        System.out.println("recovered " + again.size());
        try {
            long[] huge = new long[Integer.MAX_VALUE - 8];
            System.out.println(huge.length);
        } catch (OutOfMemoryError e) {
            System.out.println("huge array: OutOfMemoryError");
        }
    }
}
