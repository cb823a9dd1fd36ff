import java.util.function.IntSupplier;

/** Nest-based access (Java 11): inner, static nested, local and anonymous classes read and write
 *  the outer class's private fields and call its private methods directly (no access$ bridges),
 *  and the outer class uses its nestmates' private members; private interface methods. */
public class ModernNest {
    private int count;
    private static String prefix = "p";
    private String name() { return prefix + count; }
    private static int twice(int x) { return 2 * x; }

    class Inner {
        private int secret = 7;
        void bump() { count += secret; prefix = prefix + "!"; }
        String show() { return name() + " " + twice(count); }
        private String hidden() { return "inner-hidden " + secret; }
    }

    static class Nested {
        private long total;
        private Nested add(ModernNest o) { total += o.count; o.count++; return this; }
    }

    interface Greeter {
        private String base() { return "hello"; }
        private static String suffix() { return "!"; }
        default String greet(String who) { return base() + " " + who + suffix(); }
    }

    static class Sub extends ModernNest {
        private String own() { return "sub-own"; }
    }

    public static void main(String[] args) {
        ModernNest o = new ModernNest();
        Inner in = o.new Inner();
        in.bump();
        in.bump();
        System.out.println(in.show() + " " + in.hidden() + " " + in.secret);
        in.secret = 1;
        in.bump();
        System.out.println(o.count + " " + o.name());
        Nested n = new Nested().add(o).add(o);
        System.out.println(n.total + " " + o.count);
        Greeter g = new Greeter() {};
        System.out.println(g.greet("nest"));
        class Local {
            int peek() { return o.count * 100; }
        }
        System.out.println(new Local().peek());
        IntSupplier s = new IntSupplier() {
            public int getAsInt() { return twice(o.count); }
        };
        System.out.println(s.getAsInt());
        Sub sub = new Sub();
        ((ModernNest) sub).count = 5;
        System.out.println(sub.own() + " " + ((ModernNest) sub).name());
    }
}
