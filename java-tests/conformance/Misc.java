import java.util.*;

/** Language features javac compiles to interesting bytecode: nestmates, varargs, boxing, switches,
 * initializer blocks, interface private/static methods, long/double stack shuffles, labels. */
public class Misc {
    private int secret = 7;
    private static String hidden() { return "hidden"; }
    class Peeker { int peek() { return secret + hidden().length(); } }
    interface Greeter {
        default String greet(String n) { return prefix() + n; }
        static String prefix() { return "hi "; }
        static Greeter make() { return new Greeter() {}; }
    }
    static int sum(int... xs) { int s = 0; for (int x : xs) s += x; return s; }
    static String kinds(Object... os) { StringBuilder sb = new StringBuilder(); for (Object o : os) sb.append(o == null ? "null" : o.getClass().getSimpleName()).append(' '); return sb.toString().trim(); }
    int inst;
    { inst = 41; }
    Misc() { inst++; }
    static long[] longs = new long[4];
    static double dd(double a, long b, double c) { return a * b + c; }
    enum Planet { MERCURY(3.303e+23, 2.4397e6), EARTH(5.976e+24, 6.37814e6);
        final double mass, radius;
        Planet(double m, double r) { mass = m; radius = r; }
        double gravity() { return 6.67300E-11 * mass / (radius * radius); } }
    public static void main(String[] args) {
        Misc m = new Misc();
        System.out.println(m.new Peeker().peek() + " " + m.inst + " " + Greeter.make().greet("bob"));
        System.out.println(sum() + " " + sum(1) + " " + sum(1, 2, 3) + " " + kinds(1, 2L, 3.0f, 'c', "s", null, new int[0]));
        Integer a = 1000, b = 1000;
        int c = a;
        Long L = 5L;
        Double D = 2.5;
        System.out.println((a.equals(b)) + " " + (c == a) + " " + (L + D) + " " + (a < b) + " " + (a + b));
        Object o = 'x';
        char ch = (Character) o;
        System.out.println(ch + 1);
        System.out.println(ch += 1);
        long[] ls = longs;
        ls[1] = 10; ls[2] = ls[1]++ + ++ls[1];
        long x = ls[2]--;
        System.out.println(Arrays.toString(ls) + " " + x);
        double[] ds = { 1.5 };
        ds[0] += ds[0]++;
        System.out.println(ds[0] + " " + dd(1.5, 3L, 0.25));
        for (String s : new String[] { "Aa", "BB", "C" }) {
            switch (s) { case "Aa": System.out.println("Aa!"); break; case "BB": System.out.println("BB!"); break; default: System.out.println("?" + s); }
        }
        for (Planet p : Planet.values()) System.out.printf("%s %.2f%n", p, p.gravity());
        outer:
        for (int i = 0; ; i++) {
            int j = 0;
            while (true) {
                if (++j > i) continue outer;
                if (i * j == 12) { System.out.println("found " + i + "," + j); break outer; }
            }
        }
        int[][] tri = new int[5][];
        for (int i = 0; i < tri.length; i++) {
            tri[i] = new int[i + 1];
            tri[i][0] = tri[i][i] = 1;
            for (int j = 1; j < i; j++) tri[i][j] = tri[i - 1][j - 1] + tri[i - 1][j];
        }
        System.out.println(Arrays.deepToString(tri));
        StringBuilder bits = new StringBuilder();
        for (byte bt = -3; bt < 3; bt++) bits.append(bt >> 1).append(bt >>> 30).append(',');
        System.out.println(bits);
        boolean[] flags = new boolean[3];
        flags[1] = true;
        System.out.println(Arrays.toString(flags) + " " + (flags[1] ^ true) + " " + (!flags[0] & flags[1]));
        short sh = 10; sh *= 1000; sh *= 10;
        byte by = 10; by += 120;
        System.out.println(sh + " " + by + " " + (sh >> 1) + " " + (char) ('A' + 2));
        Object[] grid = new Object[2];
        grid[0] = new int[] { 1 };
        grid[1] = "s";
        System.out.println(grid[0] instanceof int[] ? "ints" : "other");
        int h = 0;
        for (int i = 0; i < 1000; i++) h = 31 * h + (i % 3 == 0 ? i : -i) ^ (h >>> 7);
        System.out.println(h);
        StringBuilder tern = new StringBuilder();
        for (int i = -2; i <= 2; i++) tern.append(i < 0 ? "neg" : i == 0 ? "zero" : "pos").append(i == 2 ? "" : "/");
        System.out.println(tern);
        Iterator<Integer> it = new Iterator<Integer>() {
            int n = 0;
            public boolean hasNext() { return n < 3; }
            public Integer next() { return n++ * n; }
        };
        while (it.hasNext()) System.out.print(it.next() + " ");
        System.out.println();
        final int base = 100;
        class Local { int f(int y) { return base + y; } }
        System.out.println(new Local().f(5));
    }
}
