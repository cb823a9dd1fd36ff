package jarapp;

/** Run from a jar: classes of two packages, lambdas and concatenation. */
public class JarMain {
    public static void main(String[] args) {
        jarapp.util.Helper h = new jarapp.util.Helper("jar");
        java.util.function.Function<String, String> f = h::wrap;
        System.out.println(f.apply("hello") + " args=" + args.length + (args.length > 0 ? " first=" + args[0] : ""));
    }
}
