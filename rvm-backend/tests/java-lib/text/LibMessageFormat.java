import java.math.BigDecimal;
import java.math.BigInteger;
import java.text.MessageFormat;

/** MessageFormat's subset: arguments, quoting, numbers as the default NumberFormat prints them, malformed patterns. */
public class LibMessageFormat {
    static void p(String pattern, Object... args) {
        try {
            System.out.println(pattern + " -> " + MessageFormat.format(pattern, args));
        } catch (IllegalArgumentException e) {
            System.out.println(pattern + " -> IllegalArgumentException: " + e.getMessage());
        }
    }

    public static void main(String[] args) {
        p("General error: {0}", "\"java.lang.IllegalStateException: x\"");
        p("Table {0} not found; candidates are: {1}", "\"T\"", "\"A, B\"");
        p("{1} before {0}, {0} again", "a", "b");
        p("missing {2} and {0}", "x");
        p("null {0}", (Object) null);
        p("it''s {0}", "quoted");
        p("'{0}' is literal, '{'{0}'}' too", "arg");
        p("unterminated 'quote {0}", "x");
        p("numbers {0} {1} {2} {3} {4}", 1234567, -1234567L, 0, (short) 999, (byte) -5);
        p("doubles {0} {1} {2} {3} {4} {5} {6}", 1234.5678, 0.0004, 0.0006, -0.0001, 2.5, 1e20, 1.0);
        p("specials {0} {1} {2} {3}", Double.NaN, Double.POSITIVE_INFINITY, -0.0, 3.14159f);
        p("big {0} {1}", new BigInteger("123456789012345678901234567890"), new BigDecimal("-9876543.21098"));
        p("typed {0,number} {1,number,integer} {2, number , integer}", 12345.6789, 2.5, 3.5);
        p("strings are not numbers {0}", "12345");
        p("unmatched {0", "x");
        p("bad index {x}", "x");
        p("close } alone {0}", "x");
        MessageFormat f = new MessageFormat("{0} has {1} rows");
        System.out.println(f.format(new Object[] {"T", 1000}) + " / " + f.toPattern());
        System.out.println("no arguments: " + f.format(null));
        try {
            System.out.println(f.format("not an array"));
        } catch (ClassCastException e) {
            System.out.println("not an array: ClassCastException");
        }
    }
}
