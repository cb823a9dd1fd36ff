import java.util.List;

/** Pattern matching for switch (Java 21): a sealed interface of records switched with type and
 *  record patterns (SwitchBootstraps.typeSwitch, accessor calls), guards, nested record patterns,
 *  case null, switches on Object with String and Integer constants, and a pattern switch over an
 *  enum (SwitchBootstraps.enumSwitch). */
public class ModernPatterns {
    sealed interface Shape permits Circle, Rect, Tri {}
    record Circle(double r) implements Shape {}
    record Rect(double w, double h) implements Shape {}
    record Tri(double a, double b, double c) implements Shape {}
    record Pair<A, B>(A first, B second) {}
    enum Dir { N, E, S, W }

    static String area(Shape s) {
        return switch (s) {
            case Circle c when c.r() == 0 -> "dot";
            case Circle c -> "circle " + (Math.round(Math.PI * c.r() * c.r() * 100) / 100.0);
            case Rect(double w, double h) when w == h -> "square " + (w * h);
            case Rect(double w, double h) -> "rect " + (w * h);
            case Tri t -> "tri " + (t.a() + t.b() + t.c());
        };
    }

    static String describe(Object o) {
        return switch (o) {
            case null -> "null!";
            case String str when str.isEmpty() -> "empty string";
            case String str -> "string " + str.length();
            case Integer i when i > 100 -> "big int " + i;
            case Integer i -> "int " + i;
            case Long l -> "long " + l;
            case Pair(String a, Integer b) -> "pair of string and int " + a + b;
            case Pair(Pair(var a, var b), var c) -> "nested pair " + a + " " + b + " " + c;
            case Pair<?, ?> p -> "pair " + p;
            case int[] arr -> "int array " + arr.length;
            case Shape sh -> area(sh);
            case Dir d -> "dir " + d.name();
            default -> "other " + o.getClass().getName();
        };
    }

    static String dir(Dir d) {
        return switch (d) {
            case null -> "no direction";
            case N, S -> "vertical " + d;
            case Dir x when x == Dir.E -> "east";
            case Dir x -> "other " + x;
        };
    }

    static int statement(Object o) {
        int r = 0;
        switch (o) {
            case String s:
                r = s.length();
                break;
            case Integer i:
                r = i;
                break;
            default:
                r = -1;
        }
        return r;
    }

    public static void main(String[] args) {
        List<Object> things = List.of("", "hello", 7, 1000, 5L, new Pair<>("a", 1), new Pair<>(new Pair<>(1, 2), 3),
                new Pair<>(1.5, "x"), new int[3], new Circle(0), new Circle(1), new Rect(2, 2), new Rect(2, 3),
                new Tri(3, 4, 5), Dir.W, 2.5);
        for (Object o : things) System.out.println(describe(o));
        System.out.println(describe(null));
        for (Dir d : Dir.values()) System.out.println(dir(d));
        System.out.println(dir(null));
        System.out.println(statement("four") + " " + statement(42) + " " + statement(3.0));
        Object o = new Rect(1, 5);
        if (o instanceof Rect(var w, var h) && h > w) System.out.println("tall rect " + w + "x" + h);
        try {
            area(null);
        } catch (NullPointerException e) {
            System.out.println("null shape: NullPointerException");
        }
    }
}
