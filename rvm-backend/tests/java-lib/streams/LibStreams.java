import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.IntSummaryStatistics;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.DoubleStream;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import java.util.stream.Stream;

/** Streams, collectors and Optional: sequential pipelines whose results are printed. */
public class LibStreams {
    record City(String name, String country, int people) {}

    public static void main(String[] args) {
        List<City> cities = List.of(new City("Paris", "FR", 2100), new City("Lyon", "FR", 520), new City("Berlin", "DE", 3600),
                new City("Munich", "DE", 1500), new City("Rome", "IT", 2800), new City("Nice", "FR", 340));
        System.out.println(cities.stream().filter(c -> c.people() > 1000).map(City::name).collect(Collectors.toList()));
        System.out.println(cities.stream().map(City::country).distinct().sorted().collect(Collectors.joining(", ", "[", "]")));
        System.out.println(cities.stream().sorted(Comparator.comparingInt(City::people).reversed()).limit(3).map(City::name).toList());
        System.out.println(cities.stream().skip(2).map(c -> c.name().toUpperCase()).collect(Collectors.joining("|")));
        System.out.println(new TreeMap<>(cities.stream().collect(Collectors.groupingBy(City::country, Collectors.counting()))));
        System.out.println(new TreeMap<>(cities.stream().collect(Collectors.groupingBy(City::country, Collectors.summingInt(City::people)))));
        TreeMap<String, List<String>> byCountry = cities.stream().collect(Collectors.groupingBy(City::country, TreeMap::new, Collectors.mapping(City::name, Collectors.toList())));
        System.out.println(byCountry);
        System.out.println(cities.stream().collect(Collectors.groupingBy(City::country)).get("DE"));
        System.out.println(cities.stream().collect(Collectors.partitioningBy(c -> c.people() > 1000, Collectors.counting())));
        System.out.println(cities.stream().collect(Collectors.toMap(City::name, City::people)));
        LinkedHashMap<String, Integer> sums = cities.stream().collect(Collectors.toMap(City::country, City::people, Integer::sum, LinkedHashMap::new));
        System.out.println(sums);
        System.out.println(cities.stream().map(City::name).collect(Collectors.toSet()).size() + " " + cities.stream().collect(Collectors.averagingInt(City::people)) + " " + cities.stream().collect(Collectors.summarizingInt(City::people)));
        System.out.println(cities.stream().max(Comparator.comparingInt(City::people)).map(City::name).orElse("none") + " " + cities.stream().min(Comparator.comparing(City::name)).get().name());
        System.out.println(cities.stream().anyMatch(c -> c.country().equals("IT")) + " " + cities.stream().allMatch(c -> c.people() > 300) + " " + cities.stream().noneMatch(c -> c.name().isEmpty()) + " " + cities.stream().count());
        System.out.println(cities.stream().map(City::people).reduce(0, Integer::sum) + " " + cities.stream().map(City::people).reduce(Integer::max).get() + " " + cities.stream().reduce(0, (acc, c) -> acc + c.name().length(), Integer::sum));
        System.out.println(cities.stream().mapToInt(City::people).sum() + " " + cities.stream().mapToInt(City::people).average().getAsDouble() + " " + cities.stream().mapToInt(City::people).max().getAsInt() + " " + cities.stream().mapToLong(City::people).sum());
        try {
            cities.stream().collect(Collectors.toMap(City::country, City::name));
        } catch (IllegalStateException e) {
            System.out.println("ISE " + e.getMessage());
        }
        // IntStream and friends
        System.out.println(IntStream.range(0, 10).filter(i -> i % 3 == 0).boxed().collect(Collectors.toList()) + " " + IntStream.rangeClosed(1, 5).sum() + " " + IntStream.rangeClosed(1, 5).reduce(1, (a, b) -> a * b));
        System.out.println(IntStream.of(3, 1, 2).sorted().mapToObj(i -> "n" + i).collect(Collectors.joining(",")) + " " + Arrays.toString(IntStream.iterate(1, i -> i * 2).limit(8).toArray()) + " " + Arrays.toString(IntStream.iterate(0, i -> i < 10, i -> i + 3).toArray()));
        IntSummaryStatistics st = IntStream.of(4, 8, 15, 16, 23, 42).summaryStatistics();
        System.out.println(st.getMin() + " " + st.getMax() + " " + st.getAverage() + " " + st.getSum() + " " + st.getCount() + " " + st);
        System.out.println(LongStream.rangeClosed(1, 20).reduce(1L, (a, b) -> a * b) + " " + DoubleStream.of(1.5, 2.5, 3.0).sum() + " " + DoubleStream.of(1, 2, 3, 4).average().getAsDouble() + " " + DoubleStream.of(0.1, 0.2, 0.3).map(d -> d * 10).boxed().toList());
        System.out.println(IntStream.range(0, 5).mapToObj(Integer::toString).collect(Collectors.joining()) + " " + IntStream.of(1, 2, 2, 3, 3, 3).distinct().count() + " " + IntStream.empty().max() + " " + IntStream.of(7).findFirst() + " " + IntStream.range(0, 100).anyMatch(i -> i == 50));
        System.out.println("hello world".chars().filter(Character::isLetter).mapToObj(c -> String.valueOf((char) c)).collect(Collectors.joining()) + " " + "banana".chars().filter(c -> c == 'a').count() + " " + "abc".chars().sum());
        // flatMap, iterate, generate, concat, peek, takeWhile, dropWhile
        System.out.println(Stream.of("a b", "c d e").flatMap(s -> Arrays.stream(s.split(" "))).collect(Collectors.toList()) + " " + Stream.of(List.of(1, 2), List.of(3)).flatMap(List::stream).map(i -> i * i).toList());
        System.out.println(Stream.iterate(1, x -> x * 3).limit(5).toList() + " " + Stream.iterate(1, x -> x < 100, x -> x * 2).toList() + " " + Stream.generate(() -> "z").limit(3).collect(Collectors.joining()));
        List<String> peeked = new ArrayList<>();
        System.out.println(Stream.concat(Stream.of(1, 2), Stream.of(3)).peek(x -> peeked.add("p" + x)).map(x -> x + 1).toList() + " " + peeked);
        System.out.println(Stream.of(1, 2, 3, 10, 4).takeWhile(x -> x < 5).toList() + " " + Stream.of(1, 2, 3, 10, 4).dropWhile(x -> x < 5).toList() + " " + Stream.of(5, 3, 5, 1, 3).distinct().toList());
        System.out.println(Arrays.stream(new String[] {"x", "yy", "zzz"}).mapToInt(String::length).boxed().toList() + " " + Arrays.stream(new int[] {5, 6, 7}, 1, 3).sum() + " " + Arrays.toString(Stream.of("q", "r").toArray(String[]::new)));
        System.out.println(Stream.of("b", "a", "c").sorted(Comparator.reverseOrder()).toList() + " " + Stream.of("bb", "a", "ccc").sorted(Comparator.comparing(String::length)).findFirst().get() + " " + Stream.empty().findAny().isPresent());
        Map<Boolean, List<Integer>> parts = IntStream.rangeClosed(1, 8).boxed().collect(Collectors.partitioningBy(i -> i % 2 == 0));
        System.out.println(parts + " " + Stream.of("a", "bb", "cc").collect(Collectors.groupingBy(String::length, TreeMap::new, Collectors.joining("+"))));
        System.out.println(Stream.of(1, 2, 3, 4).collect(Collectors.collectingAndThen(Collectors.toList(), List::size)) + " " + Stream.of(1, 2, 3).collect(Collectors.reducing(0, x -> x * 10, Integer::sum)) + " " + Stream.of("a", "b").collect(Collectors.toCollection(ArrayList::new)));
        System.out.println(Stream.of(3, 1, 2).collect(Collectors.teeing(Collectors.counting(), Collectors.summingInt(x -> x), (n, s) -> n + ":" + s)) + " " + Stream.of("x", "y").collect(StringBuilder::new, StringBuilder::append, StringBuilder::append));
        try {
            Stream<Integer> s = Stream.of(1, 2);
            s.count();
            s.count();
        } catch (IllegalStateException e) {
            System.out.println("ISE " + e.getMessage());
        }
        // Optional
        Optional<String> o = Optional.of("value"), e = Optional.empty();
        System.out.println(o + " " + e + " " + o.map(String::length).get() + " " + e.map(String::length).isPresent() + " " + e.orElse("dflt") + " " + e.orElseGet(() -> "got") + " " + o.filter(s -> s.startsWith("v")).isPresent() + " " + o.flatMap(s -> Optional.of(s + "!")).get());
        System.out.println(Optional.ofNullable(null).isEmpty() + " " + o.or(() -> Optional.of("other")).get() + " " + e.or(() -> Optional.of("other")).get() + " " + o.stream().count() + " " + o.equals(Optional.of("value")) + " " + o.hashCode());
        o.ifPresent(v -> System.out.println("present " + v));
        e.ifPresentOrElse(v -> System.out.println("no"), () -> System.out.println("empty"));
        try {
            e.get();
        } catch (java.util.NoSuchElementException ex) {
            System.out.println("NSEE " + ex.getMessage());
        }
        try {
            e.orElseThrow(() -> new IllegalArgumentException("missing"));
        } catch (IllegalArgumentException ex) {
            System.out.println("IAE " + ex.getMessage());
        }
        System.out.println(OptionalInt.of(3) + " " + OptionalInt.empty() + " " + OptionalLong.of(4L).getAsLong() + " " + OptionalDouble.of(2.5) + " " + OptionalDouble.empty().orElse(1.0) + " " + OptionalInt.of(9).equals(OptionalInt.of(9)));
        Set<Map.Entry<String, Integer>> entries = new TreeMap<>(Map.of("k", 1, "j", 2)).entrySet();
        System.out.println(entries.stream().sorted(Map.Entry.comparingByValue()).map(Map.Entry::getKey).toList() + " " + Function.<Integer>identity().andThen(x -> x + 1).apply(1));
    }
}
