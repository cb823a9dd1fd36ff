import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/** Lambdas capturing every kind of value, and concatenations, allocated under many collections. */
public class IndyGc {
    public static void main(String[] a) {
        List<Supplier<String>> keep = new ArrayList<>();
        long total = 0;
        for (int i = 0; i < 200000; i++) {
            long l = i * 3L; double d = i / 2.0; String s = "s" + i; char c = (char) ('a' + i % 26); boolean z = i % 2 == 0;
            Supplier<String> sup = () -> s + ":" + l + ":" + d + ":" + c + ":" + z;
            if (i % 1000 == 0) keep.add(sup);
            total += sup.get().length();
            BiFunction<Long, Long, Long> op = (x, y) -> x * y + l;
            total += op.apply(2L, 3L);
            Supplier<String> constant = () -> "nc";
            total += constant.get().length();
        }
        System.out.println(total + " " + keep.size() + " " + keep.get(17).get() + " " + keep.get(199).get());
    }
}
