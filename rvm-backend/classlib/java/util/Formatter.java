package java.util;

/** A small subset of java.util.Formatter: %[-0+,][width][.precision] with the conversions
 * d s S x X c b n % f e. %f rounds the shortest decimal representation half-up, as the JDK does. */
public final class Formatter {
    private Formatter() {}

    public static String format(String fmt, Object... args) {
        StringBuilder sb = new StringBuilder();
        int argi = 0;
        int n = fmt.length();
        for (int i = 0; i < n; i++) {
            char c = fmt.charAt(i);
            if (c != '%') { sb.append(c); continue; }
            i++;
            if (i >= n) throw new IllegalArgumentException("Format specifier '%'");
            boolean left = false, zero = false, plus = false, comma = false;
            for (;; i++) {
                char f = fmt.charAt(i);
                if (f == '-') left = true;
                else if (f == '0') zero = true;
                else if (f == '+') plus = true;
                else if (f == ',') comma = true;
                else break;
            }
            int width = -1, prec = -1;
            int st = i;
            while (i < n && Character.isDigit(fmt.charAt(i))) i++;
            if (i > st) width = Integer.parseInt(fmt.substring(st, i));
            if (i < n && fmt.charAt(i) == '.') {
                i++;
                st = i;
                while (i < n && Character.isDigit(fmt.charAt(i))) i++;
                prec = Integer.parseInt(fmt.substring(st, i));
            }
            char conv = fmt.charAt(i);
            String s;
            switch (conv) {
                case 'n': sb.append('\n'); continue;
                case '%': s = "%"; break;
                case 'd': {
                    Object a = args[argi++];
                    long v = ((Number) a).longValue();
                    s = Long.toString(Math.abs(v));
                    if (v == Long.MIN_VALUE) s = s.substring(1);
                    if (comma) s = group(s);
                    if (v < 0) s = "-" + s; else if (plus) s = "+" + s;
                    break;
                }
                case 'x': case 'X': {
                    Object a = args[argi++];
                    s = (a instanceof Long) ? Long.toHexString((Long) a) : Integer.toHexString(((Number) a).intValue());
                    if (conv == 'X') s = s.toUpperCase();
                    break;
                }
                case 'c': s = String.valueOf(args[argi++]); break;
                case 'b': { Object a = args[argi++]; s = a == null ? "false" : (a instanceof Boolean ? a.toString() : "true"); break; }
                case 's': case 'S': {
                    s = String.valueOf(args[argi++]);
                    if (prec >= 0 && s.length() > prec) s = s.substring(0, prec);
                    if (conv == 'S') s = s.toUpperCase();
                    break;
                }
                case 'f': case 'e': {
                    double v = ((Number) args[argi++]).doubleValue();
                    if (prec < 0) prec = 6;
                    if (Double.isNaN(v) || Double.isInfinite(v)) s = Double.isNaN(v) ? "NaN" : (v > 0 ? (plus ? "+Infinity" : "Infinity") : "-Infinity");
                    else {
                        boolean neg = v < 0 || (v == 0 && 1 / v < 0);
                        s = conv == 'f' ? fixed(Math.abs(v), prec) : sci(Math.abs(v), prec);
                        if (comma && conv == 'f') {
                            int dot = s.indexOf('.');
                            s = dot < 0 ? group(s) : group(s.substring(0, dot)) + s.substring(dot);
                        }
                        if (neg) s = "-" + s; else if (plus) s = "+" + s;
                    }
                    break;
                }
                default: throw new UnsupportedOperationException("rvm: format conversion %" + conv);
            }
            if (width > s.length()) {
                StringBuilder pad = new StringBuilder();
                for (int k = s.length(); k < width; k++) pad.append(zero && !left ? '0' : ' ');
                if (left) s = s + pad;
                else if (zero && (s.startsWith("-") || s.startsWith("+"))) s = s.charAt(0) + pad.toString() + s.substring(1);
                else s = pad + s;
            }
            sb.append(s);
        }
        return sb.toString();
    }

    private static String group(String digits) {
        StringBuilder sb = new StringBuilder();
        int n = digits.length();
        for (int i = 0; i < n; i++) {
            if (i > 0 && (n - i) % 3 == 0) sb.append(',');
            sb.append(digits.charAt(i));
        }
        return sb.toString();
    }

    /** Digits and decimal exponent of the shortest representation: value = 0.d1d2... * 10^exp. */
    private static int digits(double v, StringBuilder out) {
        String s = Double.toString(v);
        int e = s.indexOf('E');
        int exp = 0;
        if (e >= 0) { exp = Integer.parseInt(s.substring(e + 1)); s = s.substring(0, e); }
        int dot = s.indexOf('.');
        String intPart = s.substring(0, dot), frac = s.substring(dot + 1);
        String all = intPart + frac;
        int pointPos = intPart.length() + exp;
        int lead = 0;
        while (lead < all.length() - 1 && all.charAt(lead) == '0') { lead++; pointPos--; }
        all = all.substring(lead);
        int end = all.length();
        while (end > 1 && all.charAt(end - 1) == '0') end--;
        out.append(all, 0, end);
        return pointPos;
    }

    private static String fixed(double v, int prec) {
        StringBuilder d = new StringBuilder();
        int point = digits(v, d);
        if (v == 0) { d.setLength(0); d.append('0'); point = 1; }
        // digits d with the decimal point after `point` digits; round half-up at prec decimals.
        int keep = point + prec;
        char[] ds;
        if (keep < 0) { ds = new char[0]; }
        else if (keep < d.length()) {
            ds = d.substring(0, keep).toCharArray();
            if (d.charAt(keep) >= '5') {
                int k = ds.length - 1;
                while (k >= 0 && ds[k] == '9') { ds[k] = '0'; k--; }
                if (k >= 0) ds[k]++;
                else { char[] n2 = new char[ds.length + 1]; n2[0] = '1'; System.arraycopy(ds, 0, n2, 1, ds.length); ds = n2; point++; }
            }
        } else {
            ds = d.toString().toCharArray();
        }
        StringBuilder r = new StringBuilder();
        String digs = new String(ds);
        // integer part
        if (point <= 0) r.append('0');
        else for (int i = 0; i < point; i++) r.append(i < digs.length() ? digs.charAt(i) : '0');
        if (prec > 0) {
            r.append('.');
            for (int i = 0; i < prec; i++) {
                int idx = point + i;
                r.append(idx >= 0 && idx < digs.length() ? digs.charAt(idx) : '0');
            }
        }
        return r.toString();
    }

    private static String sci(double v, int prec) {
        if (v == 0) {
            StringBuilder z = new StringBuilder("0");
            if (prec > 0) { z.append('.'); for (int i = 0; i < prec; i++) z.append('0'); }
            return z.append("e+00").toString();
        }
        StringBuilder d = new StringBuilder();
        int point = digits(v, d);
        int exp = point - 1;
        char[] ds = d.toString().toCharArray();
        if (prec + 1 < ds.length) {
            boolean up = ds[prec + 1] >= '5';
            char[] t = new char[prec + 1];
            System.arraycopy(ds, 0, t, 0, prec + 1);
            if (up) {
                int k = prec;
                while (k >= 0 && t[k] == '9') { t[k] = '0'; k--; }
                if (k >= 0) t[k]++;
                else { t[0] = '1'; exp++; }
            }
            ds = t;
        }
        StringBuilder r = new StringBuilder();
        r.append(ds[0]);
        if (prec > 0) {
            r.append('.');
            for (int i = 1; i <= prec; i++) r.append(i < ds.length ? ds[i] : '0');
        }
        r.append('e').append(exp < 0 ? '-' : '+');
        int ae = Math.abs(exp);
        if (ae < 10) r.append('0');
        r.append(ae);
        return r.toString();
    }
}
