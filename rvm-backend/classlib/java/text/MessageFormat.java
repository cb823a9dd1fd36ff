package java.text;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Messages with numbered arguments, {@code "General error: {0}"}. rvm's subset: quoting with
 * {@code '} ({@code ''} is a quote), arguments {@code {n}} and {@code {n,number}} /
 * {@code {n,number,integer}}; a number is printed as the JDK's US-English {@code NumberFormat}
 * prints it (grouping, at most three fraction digits, half-even) and anything else with
 * {@code String.valueOf}; an argument beyond the array is left as {@code {n}}. Other format types
 * (date, time, choice, number patterns) are refused with {@code IllegalArgumentException}, and a
 * date given to a plain {@code {n}} is printed with its {@code toString} (the JDK uses a DateFormat).
 */
public class MessageFormat {
    private String pattern;
    private Locale locale;
    /** Literal text before each argument, then the text after the last. */
    private List<String> texts;
    private int[] args;
    private boolean[] integer;

    public MessageFormat(String pattern) { this(pattern, Locale.getDefault()); }
    public MessageFormat(String pattern, Locale locale) {
        this.locale = locale;
        applyPattern(pattern);
    }

    public static String format(String pattern, Object... arguments) {
        return new MessageFormat(pattern).format(arguments);
    }

    public void applyPattern(String pattern) {
        List<String> texts = new ArrayList<>();
        List<int[]> args = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        boolean quoted = false;
        int n = pattern.length();
        for (int i = 0; i < n; i++) {
            char c = pattern.charAt(i);
            if (c == '\'') {
                if (i + 1 < n && pattern.charAt(i + 1) == '\'') {
                    text.append('\'');
                    i++;
                } else {
                    quoted = !quoted;
                }
            } else if (c == '{' && !quoted) {
                int close = pattern.indexOf('}', i + 1);
                if (close < 0) throw new IllegalArgumentException("Unmatched braces in the pattern.");
                String[] parts = pattern.substring(i + 1, close).split(",", -1);
                int index;
                try {
                    index = Integer.parseInt(parts[0].trim());
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("can't parse argument number: " + parts[0]);
                }
                if (index < 0) throw new IllegalArgumentException("negative argument number: " + index);
                int kind = 0;
                if (parts.length > 1) {
                    String type = parts[1].trim();
                    String style = parts.length > 2 ? parts[2].trim() : "";
                    if (!type.equalsIgnoreCase("number") || parts.length > 3 || !(style.isEmpty() || style.equalsIgnoreCase("integer")))
                        throw new IllegalArgumentException("rvm: MessageFormat supports {n}, {n,number} and {n,number,integer} only, not {" + pattern.substring(i + 1, close) + "}");
                    kind = style.isEmpty() ? 1 : 2;
                }
                texts.add(text.toString());
                text.setLength(0);
                args.add(new int[] {index, kind});
                i = close;
            } else if (c == '}' && !quoted) {
                text.append(c);
            } else {
                text.append(c);
            }
        }
        texts.add(text.toString());
        this.pattern = pattern;
        this.texts = texts;
        this.args = new int[args.size()];
        this.integer = new boolean[args.size()];
        for (int i = 0; i < this.args.length; i++) {
            this.args[i] = args.get(i)[0];
            this.integer[i] = args.get(i)[1] == 2;
        }
    }

    public String toPattern() { return pattern; }
    public Locale getLocale() { return locale; }
    public void setLocale(Locale locale) { this.locale = locale; }

    public final String format(Object obj) {
        Object[] arguments = (Object[]) obj; // as the JDK: the arguments are an array (null: none)
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < args.length; i++) {
            b.append(texts.get(i));
            int index = args[i];
            if (arguments == null || index >= arguments.length) {
                b.append('{').append(index).append('}');
                continue;
            }
            Object a = arguments[index];
            if (a == null) b.append("null");
            else if (a instanceof Number) b.append(number((Number) a, integer[i]));
            else b.append(a);
        }
        b.append(texts.get(args.length));
        return b.toString();
    }

    /** The JDK's default NumberFormat in US English: grouping by three, up to three fraction digits, half-even. */
    static String number(Number n, boolean integerOnly) {
        if (n instanceof Double || n instanceof Float) {
            double d = n.doubleValue();
            if (Double.isNaN(d)) return "NaN";
            if (Double.isInfinite(d)) return d > 0 ? "\u221E" : "-\u221E";
            boolean negative = d < 0 || (d == 0 && 1 / d < 0);
            // DecimalFormat rounds the shortest decimal of the double (Double.toString's digits).
            BigDecimal v = BigDecimal.valueOf(Math.abs(d));
            return grouped(v, integerOnly, negative);
        }
        BigDecimal v;
        if (n instanceof BigDecimal) v = (BigDecimal) n;
        else if (n instanceof BigInteger) v = new BigDecimal((BigInteger) n);
        else v = BigDecimal.valueOf(n.longValue());
        return grouped(v.abs(), integerOnly, v.signum() < 0);
    }

    private static String grouped(BigDecimal v, boolean integerOnly, boolean negative) {
        v = v.setScale(integerOnly ? 0 : 3, RoundingMode.HALF_EVEN);
        String plain = v.toPlainString();
        int dot = plain.indexOf('.');
        String whole = dot < 0 ? plain : plain.substring(0, dot);
        String fraction = dot < 0 ? "" : plain.substring(dot + 1);
        int end = fraction.length();
        while (end > 0 && fraction.charAt(end - 1) == '0') end--;
        fraction = fraction.substring(0, end);
        StringBuilder b = new StringBuilder();
        int first = whole.length() % 3 == 0 ? 3 : whole.length() % 3;
        b.append(whole, 0, first);
        for (int i = first; i < whole.length(); i += 3) b.append(',').append(whole, i, i + 3);
        if (!fraction.isEmpty()) b.append('.').append(fraction);
        // As DecimalFormat: a negative number that rounds to zero is "-0".
        return negative ? "-" + b : b.toString();
    }
}
