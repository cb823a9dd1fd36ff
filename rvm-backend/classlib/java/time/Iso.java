package java.time;

import java.time.format.DateTimeParseException;

/** A parser of the ISO-8601 local forms ({@code 2024-02-29}, {@code 10:15:30.5}, joined by {@code T}). */
final class Iso {
    private final CharSequence text;
    private int pos;

    private Iso(CharSequence text) { this.text = text; }

    private DateTimeParseException fail() {
        return new DateTimeParseException("Text '" + text + "' could not be parsed at index " + pos, text, pos);
    }

    private int digits(int min, int max) {
        int start = pos;
        long v = 0;
        while (pos < text.length() && pos - start < max) {
            char c = text.charAt(pos);
            if (c < '0' || c > '9') break;
            v = v * 10 + (c - '0');
            pos++;
        }
        if (pos - start < min) {
            pos = start;
            throw fail();
        }
        return (int) v;
    }

    private void expect(char c) {
        if (pos >= text.length() || text.charAt(pos) != c) throw fail();
        pos++;
    }

    private void end() {
        if (pos != text.length()) throw new DateTimeParseException("Text '" + text + "' could not be parsed, unparsed text found at index " + pos, text, pos);
    }

    private LocalDate date() {
        boolean signed = pos < text.length() && (text.charAt(pos) == '+' || text.charAt(pos) == '-');
        int sign = signed && text.charAt(pos) == '-' ? -1 : 1;
        if (signed) pos++;
        int start = pos;
        int year = digits(4, 9);
        if ((!signed && pos - start > 4) || (sign < 0 && year == 0)) {
            pos = signed ? start - 1 : start;
            throw fail();
        }
        expect('-');
        int month = digits(2, 2);
        expect('-');
        int day = digits(2, 2);
        return resolve(() -> LocalDate.of(sign * year, month, day));
    }

    private LocalTime time() {
        int hour = digits(2, 2);
        expect(':');
        int minute = digits(2, 2);
        int second = 0, nano = 0;
        if (pos < text.length() && text.charAt(pos) == ':') {
            pos++;
            second = digits(2, 2);
            if (pos < text.length() && text.charAt(pos) == '.') {
                pos++;
                int start = pos;
                int f = digits(0, 9);
                for (int i = pos - start; i < 9; i++) f *= 10;
                nano = f;
            }
        }
        int s = second, n = nano;
        return resolve(() -> LocalTime.of(hour, minute, s, n));
    }

    private <T> T resolve(java.util.function.Supplier<T> make) {
        try {
            return make.get();
        } catch (DateTimeException e) {
            throw new DateTimeParseException("Text '" + text + "' could not be parsed: " + e.getMessage(), text, 0, e);
        }
    }

    static LocalDate parseDate(CharSequence text) {
        Iso p = new Iso(requireText(text));
        LocalDate d = p.date();
        p.end();
        return d;
    }

    static LocalTime parseTime(CharSequence text) {
        Iso p = new Iso(requireText(text));
        LocalTime t = p.time();
        p.end();
        return t;
    }

    static LocalDateTime parseDateTime(CharSequence text) {
        Iso p = new Iso(requireText(text));
        LocalDate d = p.date();
        if (p.pos >= text.length() || (text.charAt(p.pos) != 'T' && text.charAt(p.pos) != 't')) throw p.fail();
        p.pos++;
        LocalTime t = p.time();
        p.end();
        return LocalDateTime.of(d, t);
    }

    private static CharSequence requireText(CharSequence text) {
        if (text == null) throw new NullPointerException("text");
        return text;
    }

    /** {@code 2024}, {@code 0001}, {@code -0001}, {@code +10000}: the year as ISO_LOCAL_DATE prints it. */
    static void appendYear(StringBuilder buf, int yearValue) {
        int absYear = Math.abs(yearValue);
        if (absYear < 1000) {
            if (yearValue < 0) buf.append(yearValue - 10000).deleteCharAt(buf.length() - 5);
            else buf.append(yearValue + 10000).deleteCharAt(buf.length() - 5);
        } else {
            if (yearValue > 9999) buf.append('+');
            buf.append(yearValue);
        }
    }

    /** A fraction of a second in groups of three digits, none for 0. */
    static void appendNanos(StringBuilder buf, int nanoValue) {
        if (nanoValue > 0) {
            buf.append('.');
            if (nanoValue % 1000_000 == 0) buf.append(Integer.toString((nanoValue / 1000_000) + 1000).substring(1));
            else if (nanoValue % 1000 == 0) buf.append(Integer.toString((nanoValue / 1000) + 1000_000).substring(1));
            else buf.append(Integer.toString((nanoValue) + 1000_000_000).substring(1));
        }
    }

    static String invalid(String field, long min, long max, long value) {
        return "Invalid value for " + field + " (valid values " + min + " - " + max + "): " + value;
    }
}
