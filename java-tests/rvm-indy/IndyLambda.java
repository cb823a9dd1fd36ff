import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.IntBinaryOperator;
import java.util.function.IntFunction;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;
import java.util.function.ToLongFunction;

/** Lambdas and method references as javac compiles them (invokedynamic, LambdaMetafactory). */
public class IndyLambda {
    private final String name;
    private int calls;

    IndyLambda(String name) { this.name = name; }
    IndyLambda() { this("default"); }

    String greet(String who) { calls++; return name + " greets " + who; }
    private String secret() { return "secret of " + name; }
    static int twice(int x) { return 2 * x; }
    static long widen(long x) { return x + 1; }

    /** A SAM whose lambdas need a bridge: the covariant override of make(). */
    interface Maker<T> { T make(); }
    interface StringMaker extends Maker<String> { String make(); }
    /** A bridge for a parameter: take(Object) and take(Integer). */
    interface Taker<T> { String take(T t); }
    interface IntegerTaker extends Taker<Integer> { String take(Integer t); }
    /** Two inherited methods that erase differently and no bridge in the interface: the lambda's
     *  class needs one (altMetafactory with FLAG_BRIDGES). */
    interface Generic<T> { String m(T t); }
    interface Plain { String m(String s); }
    interface Both extends Generic<String>, Plain {}
    interface Marker {}
    /** A functional interface of our own with a default method. */
    interface Op { int apply(int a, int b); default Op twiceOp() { return (a, b) -> 2 * apply(a, b); } }
    interface SerialSupplier extends Supplier<String>, Serializable {}

    static class Base { String who() { return "base"; } }
    static class Derived extends Base {
        @Override String who() { return "derived"; }
        Supplier<String> superWho() { return super::who; }
        Supplier<String> thisWho() { return this::who; }
    }

    Runnable counter() {
        // captures this
        return () -> { calls++; System.out.println(name + " calls=" + calls); };
    }
    Supplier<String> secretSupplier() { return this::secret; }

    public static void main(String[] args) {
        // Runnable capturing a local.
        String local = "local value";
        int n = 3;
        Runnable r = () -> System.out.println("runnable sees " + local + " and " + n);
        r.run();
        // Capturing this.
        IndyLambda me = new IndyLambda("me");
        Runnable c = me.counter();
        c.run();
        c.run();
        System.out.println(me.secretSupplier().get());
        // Method references: static, bound, unbound, constructor.
        IntBinaryOperator max = Math::max;
        System.out.println("max " + max.applyAsInt(3, 9));
        Function<Integer, Integer> tw = IndyLambda::twice;
        System.out.println("twice " + tw.apply(21));
        Function<String, String> bound = me::greet;
        System.out.println(bound.apply("you"));
        BiFunction<IndyLambda, String, String> unbound = IndyLambda::greet;
        System.out.println(unbound.apply(new IndyLambda("other"), "them"));
        ToIntFunction<String> len = String::length;
        System.out.println("length " + len.applyAsInt("hello"));
        Supplier<IndyLambda> ctor = IndyLambda::new;
        System.out.println(ctor.get().name);
        Function<String, IndyLambda> ctor1 = IndyLambda::new;
        System.out.println(ctor1.apply("built").greet("x"));
        IntFunction<int[]> arrays = int[]::new;
        System.out.println("array " + arrays.apply(4).length);
        Supplier<List<String>> listMaker = ArrayList::new;
        List<String> made = listMaker.get();
        made.add("a");
        System.out.println("list " + made);
        // super:: and this:: method references.
        Derived dv = new Derived();
        System.out.println(dv.superWho().get() + " " + dv.thisWho().get());
        // Comparator, sorting, defaults on a lambda.
        List<String> words = new ArrayList<>(Arrays.asList("pear", "fig", "banana", "kiwi", "apple"));
        words.sort((a, b) -> a.length() != b.length() ? a.length() - b.length() : a.compareTo(b));
        System.out.println(words);
        Comparator<String> byLast = Comparator.comparing(s -> s.charAt(s.length() - 1));
        words.sort(byLast.thenComparing(Comparator.naturalOrder()));
        System.out.println(words);
        words.sort(Comparator.comparingInt(String::length).reversed());
        System.out.println(words);
        words.forEach(w -> System.out.print(w + ";"));
        System.out.println();
        words.removeIf(w -> w.contains("a"));
        System.out.println(words);
        Predicate<String> p = String::isEmpty;
        System.out.println(p.test("x") + " " + p.test(""));
        // Boxing, unboxing and widening between the interface and the implementation.
        ToLongFunction<Integer> wl = IndyLambda::widen;
        System.out.println("widen " + wl.applyAsLong(41));
        Function<Integer, Long> boxedWiden = IndyLambda::widen;
        System.out.println("boxed widen " + boxedWiden.apply(9));
        Supplier<Object> boxed = () -> 5;
        System.out.println("boxed " + boxed.get() + " " + (boxed.get() instanceof Integer));
        Function<Character, Integer> charCode = ch -> (int) ch;
        System.out.println("char " + charCode.apply('A'));
        BiFunction<Double, Double, Double> dpow = Math::pow;
        System.out.println("pow " + dpow.apply(2.0, 10.0));
        // Bridges.
        StringMaker sm = () -> "made";
        Maker<String> mk = sm;
        System.out.println(sm.make() + " " + mk.make());
        IntegerTaker it = i -> "took " + (i + 1);
        Taker<Integer> tk = it;
        System.out.println(it.take(1) + " " + tk.take(2));
        Both both = x -> "both " + x;
        Generic<String> gen = both;
        Plain plain = both;
        System.out.println(gen.m("a") + ", " + plain.m("b"));
        Runnable marked = (Runnable & Marker) () -> System.out.println("marked runs");
        marked.run();
        System.out.println((marked instanceof Marker) + " " + (marked instanceof Serializable));
        // A serializable lambda and an intersection cast.
        SerialSupplier ser = () -> "serializable " + local;
        System.out.println(ser.get() + " " + (ser instanceof Serializable));
        Runnable rs = (Runnable & Serializable) () -> System.out.println("intersection runs");
        rs.run();
        System.out.println(rs instanceof Serializable);
        // An interface of our own, its default method making another lambda.
        Op add = (a, b) -> a + b;
        System.out.println("op " + add.apply(2, 3) + " " + add.twiceOp().apply(2, 3));
        // A non-capturing lambda is one object per call site; a capturing one is new each time.
        System.out.println("same instance " + (nonCapturing() == nonCapturing()) + ", fresh " + (capturing(1) == capturing(1)));
        // Lambdas in threads.
        int[] box = new int[1];
        Thread t = new Thread(() -> box[0] = 99);
        t.start();
        try { t.join(); } catch (InterruptedException e) { throw new RuntimeException(e); }
        System.out.println("thread set " + box[0]);
        // An exception thrown in a lambda body, caught outside.
        Supplier<String> bad = () -> { throw new IllegalStateException("from lambda"); };
        try {
            bad.get();
        } catch (IllegalStateException e) {
            System.out.println("caught " + e.getMessage() + " at " + e.getStackTrace()[0].getMethodName().startsWith("lambda$"));
        }
        // A wrong argument through the erased interface: the cast to the instantiated type fails.
        @SuppressWarnings({"rawtypes", "unchecked"})
        Function raw = (Function<String, Integer>) String::length;
        try {
            raw.apply(42);
        } catch (ClassCastException e) {
            System.out.println("ClassCastException");
        }
        Function<String, String> trim = String::trim;
        Function<String, String> chain = x -> trim.apply(x).toUpperCase();
        System.out.println(chain.apply("  chained  "));
    }

    static Runnable nonCapturing() { return () -> {}; }
    static Supplier<Integer> capturing(int v) { return () -> v; }
}
