/** switch on strings (hashCode, then equals, also with colliding hashes), on enums (javac's
 *  $SwitchMap$ classes), in statements and arrow/yield expressions (Java 14). */
public class ModernSwitch {
    enum Color { RED, GREEN, BLUE, BLACK }
    enum Planet {
        MERCURY(3.303e+23), EARTH(5.976e+24);
        final double mass;
        Planet(double m) { mass = m; }
    }

    static int classic(String s) {
        switch (s) {
            case "one": return 1;
            case "two": return 2;
            case "Aa": return 10;   // "Aa" and "BB" have the same hashCode
            case "BB": return 11;
            case "": return 0;
            default: return -1;
        }
    }

    static String arrow(String s) {
        return switch (s) {
            case "x", "y", "z" -> "axis " + s;
            case "AaAa", "BBBB", "AaBB" -> "collision " + s;
            default -> {
                String t = s.toUpperCase();
                yield "other " + t;
            }
        };
    }

    static String color(Color c) {
        switch (c) {
            case RED: return "warm";
            case GREEN:
            case BLUE: return "cool";
            default: return "dark";
        }
    }

    static int colorExpr(Color c) {
        return switch (c) {
            case RED -> 1;
            case GREEN -> 2;
            case BLUE -> 3;
            case BLACK -> 4;
        };
    }

    public static void main(String[] args) {
        for (String s : new String[] { "one", "two", "Aa", "BB", "", "three", "C#" }) System.out.println(s + " -> " + classic(s));
        for (String s : new String[] { "x", "z", "AaAa", "BBBB", "AaBB", "BBAa", "w" }) System.out.println(arrow(s));
        for (Color c : Color.values()) System.out.println(c + " " + c.ordinal() + " " + color(c) + " " + colorExpr(c));
        for (Planet p : Planet.values()) {
            String d = switch (p) { case MERCURY -> "small"; case EARTH -> "home"; };
            System.out.println(p + " " + d + " " + p.mass);
        }
        try {
            classic(null);
        } catch (NullPointerException e) {
            System.out.println("null string: NullPointerException");
        }
        try {
            color(null);
        } catch (NullPointerException e) {
            System.out.println("null enum: NullPointerException");
        }
        char ch = 'b';
        switch (ch) { case 'a' -> System.out.println("a"); case 'b' -> System.out.println("b"); default -> System.out.println("?"); }
    }
}
