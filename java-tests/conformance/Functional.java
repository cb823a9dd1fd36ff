import java.util.*;
import java.util.function.*;

/** The functional-interface defaults of the collections, used through anonymous classes. */
public class Functional {
    static class P {
        final String name; final int age;
        P(String n, int a) { name = n; age = a; }
        public String toString() { return name + ":" + age; }
    }
    public static void main(String[] args) {
        List<Integer> l = new ArrayList<>(Arrays.asList(5, 1, 4, 2, 3, 8, 6));
        final int[] sum = new int[1];
        l.forEach(new Consumer<Integer>() { public void accept(Integer x) { sum[0] += x; } });
        System.out.println("sum " + sum[0]);
        l.removeIf(new Predicate<Integer>() { public boolean test(Integer x) { return x % 2 == 0; } });
        l.replaceAll(new UnaryOperator<Integer>() { public Integer apply(Integer x) { return x * 10; } });
        System.out.println(l);
        Map<String, Integer> m = new HashMap<>();
        for (String w : "a b a c b a d".split(" ")) {
            m.merge(w, 1, new BiFunction<Integer, Integer, Integer>() { public Integer apply(Integer a, Integer b) { return a + b; } });
        }
        m.computeIfAbsent("z", new Function<String, Integer>() { public Integer apply(String k) { return k.length() * 100; } });
        m.computeIfPresent("d", new BiFunction<String, Integer, Integer>() { public Integer apply(String k, Integer v) { return null; } });
        final StringBuilder sb = new StringBuilder();
        m.forEach(new BiConsumer<String, Integer>() { public void accept(String k, Integer v) { sb.append(k).append('=').append(v).append(';'); } });
        System.out.println(sb);
        List<P> ps = new ArrayList<>(Arrays.asList(new P("x", 30), new P("y", 20), new P("a", 30), new P("b", 20)));
        ps.sort(Comparator.comparingInt(new ToIntFunction<P>() { public int applyAsInt(P p) { return p.age; } })
                .thenComparing(new Function<P, String>() { public String apply(P p) { return p.name; } }));
        System.out.println(ps);
        ps.sort(Comparator.comparing(new Function<P, String>() { public String apply(P p) { return p.name; } }).reversed());
        System.out.println(ps);
    }
}
