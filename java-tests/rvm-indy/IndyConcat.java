/** String concatenation as javac compiles it by default (invokedynamic, StringConcatFactory). */
public class IndyConcat {
    static final String CONST = "constant";
    static final int ICONST = 7;

    static class Point {
        final int x, y;
        Point(int x, int y) { this.x = x; this.y = y; }
        @Override public String toString() { return "(" + x + "," + y + ")"; }
    }

    static class NullString {
        @Override public String toString() { return null; }
    }

    public static void main(String[] args) {
        boolean z = true;
        byte b = -8;
        char c = 'q';
        short s = -300;
        int i = Integer.MIN_VALUE;
        long l = Long.MAX_VALUE;
        float f = 1.1f;
        double d = -2.5e-10;
        System.out.println("z=" + z + " b=" + b + " c=" + c + " s=" + s + " i=" + i + " l=" + l + " f=" + f + " d=" + d);
        System.out.println(z + "" + b + c + s + i + l + f + d);
        String nul = null;
        Object obj = null;
        System.out.println("null string: " + nul + ", null object: " + obj + ".");
        System.out.println("toString null: " + new NullString());
        System.out.println("objects: " + new Point(1, -2) + " and " + Integer.valueOf(42) + " " + Boolean.FALSE + " " + Character.valueOf('x'));
        System.out.println("constants: " + CONST + ICONST + " " + 'k' + 3 + 4L + " " + 0.5f + 1.25);
        char[] chars = {'a', 'b'};
        System.out.println("chars: " + chars[0] + chars[1] + (char) (chars[1] + 1));
        System.out.println("tags \u0001 and \u0002 in literals: " + i + " \u0001" + c + "\u0002");
        System.out.println(i + l);
        System.out.println("sum " + (i + 1) + " vs " + i + 1);
        float nan = Float.NaN;
        double inf = Double.NEGATIVE_INFINITY;
        System.out.println("special: " + nan + " " + inf + " " + (-0.0) + " " + Float.MIN_VALUE + " " + Double.MAX_VALUE);
        String acc = "";
        for (int k = 0; k < 5; k++) {
            acc += k + ",";
        }
        acc += 'e';
        System.out.println(acc);
        StringBuilder sb = new StringBuilder("builder");
        CharSequence cs = sb;
        System.out.println("cs=" + cs + " sb=" + sb);
        System.out.println("" + "");
        System.out.println(many(1, 2L, 3f, 4d, 'c', true, "s", null));
        System.out.println(big());
    }

    static String many(int a, long b, float c, double d, char e, boolean f, String g, Object h) {
        return a + "|" + b + "|" + c + "|" + d + "|" + e + "|" + f + "|" + g + "|" + h + "|" + a + b + c + d + e + f + g + h;
    }

    /** More arguments than one call site takes (javac splits at 200 argument slots). */
    static String big() {
        long v = 1;
        return v + "," + v + "," + v + "," + v + "," + v + "," + v + "," + v + "," + v + "," + v + "," + v + ","
            + v + "," + v + "," + v + "," + v + "," + v + "," + v + "," + v + "," + v + "," + v + "," + v + ","
            + v + "," + v + "," + v + "," + v + "," + v + "," + v + "," + v + "," + v + "," + v + "," + v + ","
            + v + "," + v + "," + v + "," + v + "," + v + "," + v + "," + v + "," + v + "," + v + "," + v + ","
            + v + "," + v + "," + v + "," + v + "," + v + "," + v + "," + v + "," + v + "," + v + "," + v + ","
            + v + "," + v + "," + v + "," + v + "," + v + "," + v + "," + v + "," + v + "," + v + "," + v + ","
            + v + "," + v + "," + v + "," + v + "," + v + "," + v + "," + v + "," + v + "," + v + "," + v + ","
            + v + "," + v + "," + v + "," + v + "," + v + "," + v + "," + v + "," + v + "," + v + "," + v + ","
            + v + "," + v + "," + v + "," + v + "," + v + "," + v + "," + v + "," + v + "," + v + "," + v + ","
            + v + "," + v + "," + v + "," + v + "," + v + "," + v + "," + v + "," + v + "," + v + "," + v + ","
            + v + "," + v + "," + v + "," + v + "," + v + "," + v + "," + v + "," + v + "," + v + "," + v + "!";
    }
}
