package java.lang;

import java.util.ArrayList;
import java.util.Comparator;

public final class String implements java.io.Serializable, Comparable<String>, CharSequence {
    private final char[] value;
    private int hash;

    public static final Comparator<String> CASE_INSENSITIVE_ORDER = new CaseInsensitiveComparator();

    private static class CaseInsensitiveComparator implements Comparator<String> {
        public int compare(String s1, String s2) { return s1.compareToIgnoreCase(s2); }
    }

    public String() { value = new char[0]; }
    public String(String original) { value = original.value; hash = original.hash; }
    public String(char[] value) { this.value = java.util.Arrays.copyOf(value, value.length); }
    public String(char[] value, int offset, int count) {
        checkBoundsOffCount(offset, count, value.length);
        this.value = java.util.Arrays.copyOfRange(value, offset, offset + count);
    }
    public String(byte[] bytes) {
        char[] v = new char[bytes.length];
        for (int i = 0; i < bytes.length; i++) v[i] = (char) (bytes[i] & 0xff);
        value = v;
    }
    public String(byte[] bytes, java.nio.charset.Charset charset) { this(bytes, 0, bytes.length, charset); }
    public String(byte[] bytes, int offset, int length, java.nio.charset.Charset charset) {
        checkBoundsOffCount(offset, length, bytes.length);
        value = charset.decodeChars(bytes, offset, length);
    }
    public String(byte[] bytes, String charsetName) throws java.io.UnsupportedEncodingException { this(bytes, 0, bytes.length, charsetName); }
    public String(byte[] bytes, int offset, int length, String charsetName) throws java.io.UnsupportedEncodingException {
        this(bytes, offset, length, java.nio.charset.Charset.lookupForIo(charsetName));
    }
    public String(byte[] bytes, int offset, int length) {
        checkBoundsOffCount(offset, length, bytes.length);
        char[] v = new char[length];
        for (int i = 0; i < length; i++) v[i] = (char) (bytes[offset + i] & 0xff);
        value = v;
    }
    public String(int[] codePoints, int offset, int count) {
        checkBoundsOffCount(offset, count, codePoints.length);
        StringBuilder sb = new StringBuilder();
        for (int i = offset; i < offset + count; i++) sb.appendCodePoint(codePoints[i]);
        value = java.util.Arrays.copyOf(sb.value, sb.count);
    }
    public String(StringBuilder sb) { value = java.util.Arrays.copyOf(sb.value, sb.count); }
    public String(StringBuffer sb) { value = java.util.Arrays.copyOf(sb.value, sb.count); }
    String(char[] v, boolean share) { value = v; }

    static void checkBoundsOffCount(int offset, int count, int length) {
        if (offset < 0 || count < 0 || offset > length - count)
            throw new StringIndexOutOfBoundsException("offset " + offset + ", count " + count + ", length " + length);
    }

    public int length() { return value.length; }
    public boolean isEmpty() { return value.length == 0; }
    public char charAt(int index) {
        if (index < 0 || index >= value.length)
            throw new StringIndexOutOfBoundsException(index);
        return value[index];
    }
    public int codePointAt(int index) { charAt(index); return Character.codePointAt(this, index); }
    public void getChars(int srcBegin, int srcEnd, char[] dst, int dstBegin) {
        if (srcBegin < 0 || srcBegin > srcEnd || srcEnd > value.length)
            throw new StringIndexOutOfBoundsException("begin " + srcBegin + ", end " + srcEnd + ", length " + value.length);
        System.arraycopy(value, srcBegin, dst, dstBegin, srcEnd - srcBegin);
    }
    public char[] toCharArray() { return java.util.Arrays.copyOf(value, value.length); }
    public byte[] getBytes() {
        byte[] b = new byte[value.length];
        for (int i = 0; i < b.length; i++) b[i] = (byte) value[i];
        return b;
    }

    public byte[] getBytes(java.nio.charset.Charset charset) { return charset.encodeChars(value, 0, value.length); }
    public byte[] getBytes(String charsetName) throws java.io.UnsupportedEncodingException {
        return getBytes(java.nio.charset.Charset.lookupForIo(charsetName));
    }
    public java.util.stream.IntStream chars() {
        final char[] v = value;
        return java.util.stream.IntStream.range(0, v.length).map(i -> v[i]);
    }
    public java.util.stream.IntStream codePoints() {
        int[] cps = new int[value.length];
        int n = 0;
        for (int i = 0; i < value.length; ) {
            int cp = codePointAt(i);
            cps[n++] = cp;
            i += Character.charCount(cp);
        }
        return java.util.Arrays.stream(cps, 0, n);
    }
    public java.util.stream.Stream<String> lines() {
        ArrayList<String> out = new ArrayList<>();
        int start = 0, n = value.length;
        for (int i = 0; i < n; i++) {
            char c = value[i];
            if (c == '\n' || c == '\r') {
                out.add(substring(start, i));
                if (c == '\r' && i + 1 < n && value[i + 1] == '\n') i++;
                start = i + 1;
            }
        }
        if (start < n) out.add(substring(start, n));
        return out.stream();
    }
    public boolean matches(String regex) { return java.util.regex.Pattern.matches(regex, this); }
    public String replaceAll(String regex, String replacement) { return java.util.regex.Pattern.compile(regex).matcher(this).replaceAll(replacement); }
    public String replaceFirst(String regex, String replacement) { return java.util.regex.Pattern.compile(regex).matcher(this).replaceFirst(replacement); }
    public String stripLeading() {
        int i = 0;
        while (i < value.length && Character.isWhitespace(value[i])) i++;
        return substring(i);
    }
    public String stripTrailing() {
        int j = value.length;
        while (j > 0 && Character.isWhitespace(value[j - 1])) j--;
        return substring(0, j);
    }
    public String formatted(Object... args) { return format(this, args); }
    /** Case mapping is the same in every locale on rvm (Turkish dotted i is not special). */
    public String toLowerCase(java.util.Locale locale) { return toLowerCase(); }
    public String toUpperCase(java.util.Locale locale) { return toUpperCase(); }
    public static String format(java.util.Locale l, String format, Object... args) { return format(format, args); }
    public int codePointCount(int beginIndex, int endIndex) {
        if (beginIndex < 0 || beginIndex > endIndex || endIndex > value.length) throw new IndexOutOfBoundsException();
        return Character.codePointCount(this, beginIndex, endIndex);
    }
    public int codePointBefore(int index) { return Character.codePointBefore(this, index); }
    public int offsetByCodePoints(int index, int codePointOffset) {
        int x = index;
        for (int i = 0; i < codePointOffset; i++) {
            if (x >= value.length) throw new IndexOutOfBoundsException();
            if (Character.isHighSurrogate(value[x++]) && x < value.length && Character.isLowSurrogate(value[x])) x++;
        }
        return x;
    }
    public boolean contentEquals(StringBuffer sb) { return equals(sb.toString()); }
    public String indent(int n) {
        if (isEmpty()) return "";
        StringBuilder sb = new StringBuilder();
        lines().forEach(l -> {
            if (n > 0) sb.append(" ".repeat(n)).append(l);
            else if (n < 0) {
                int k = 0;
                while (k < -n && k < l.length() && Character.isWhitespace(l.charAt(k))) k++;
                sb.append(l.substring(k));
            } else sb.append(l);
            sb.append('\n');
        });
        return sb.toString();
    }

    public boolean equals(Object anObject) {
        if (this == anObject) return true;
        if (!(anObject instanceof String)) return false;
        char[] a = value, b = ((String) anObject).value;
        if (a.length != b.length) return false;
        for (int i = 0; i < a.length; i++) if (a[i] != b[i]) return false;
        return true;
    }
    public boolean contentEquals(CharSequence cs) { return equals(cs.toString()); }
    public boolean equalsIgnoreCase(String other) {
        if (this == other) return true;
        if (other == null || other.value.length != value.length) return false;
        return regionMatches(true, 0, other, 0, value.length);
    }
    public int compareTo(String another) {
        char[] a = value, b = another.value;
        int lim = Math.min(a.length, b.length);
        for (int k = 0; k < lim; k++) if (a[k] != b[k]) return a[k] - b[k];
        return a.length - b.length;
    }
    public int compareToIgnoreCase(String str) {
        int n1 = value.length, n2 = str.value.length;
        int min = Math.min(n1, n2);
        for (int i = 0; i < min; i++) {
            char c1 = value[i], c2 = str.value[i];
            if (c1 != c2) {
                c1 = Character.toUpperCase(c1); c2 = Character.toUpperCase(c2);
                if (c1 != c2) {
                    c1 = Character.toLowerCase(c1); c2 = Character.toLowerCase(c2);
                    if (c1 != c2) return c1 - c2;
                }
            }
        }
        return n1 - n2;
    }
    public boolean regionMatches(int toffset, String other, int ooffset, int len) { return regionMatches(false, toffset, other, ooffset, len); }
    public boolean regionMatches(boolean ignoreCase, int toffset, String other, int ooffset, int len) {
        if (ooffset < 0 || toffset < 0 || toffset > (long) value.length - len || ooffset > (long) other.value.length - len) return false;
        while (len-- > 0) {
            char c1 = value[toffset++], c2 = other.value[ooffset++];
            if (c1 == c2) continue;
            if (ignoreCase) {
                char u1 = Character.toUpperCase(c1), u2 = Character.toUpperCase(c2);
                if (u1 == u2 || Character.toLowerCase(u1) == Character.toLowerCase(u2)) continue;
            }
            return false;
        }
        return true;
    }
    public boolean startsWith(String prefix, int toffset) {
        if (toffset < 0 || toffset > value.length - prefix.value.length) return false;
        for (int i = 0; i < prefix.value.length; i++) if (value[toffset + i] != prefix.value[i]) return false;
        return true;
    }
    public boolean startsWith(String prefix) { return startsWith(prefix, 0); }
    public boolean endsWith(String suffix) { return startsWith(suffix, value.length - suffix.value.length); }

    public int hashCode() {
        int h = hash;
        if (h == 0 && value.length > 0) {
            char[] v = value;
            for (int i = 0; i < v.length; i++) h = 31 * h + v[i];
            hash = h;
        }
        return h;
    }

    public int indexOf(int ch) { return indexOf(ch, 0); }
    public int indexOf(int ch, int fromIndex) {
        if (fromIndex < 0) fromIndex = 0;
        for (int i = fromIndex; i < value.length; i++) if (value[i] == ch) return i;
        return -1;
    }
    public int lastIndexOf(int ch) { return lastIndexOf(ch, value.length - 1); }
    public int lastIndexOf(int ch, int fromIndex) {
        for (int i = Math.min(fromIndex, value.length - 1); i >= 0; i--) if (value[i] == ch) return i;
        return -1;
    }
    public int indexOf(String str) { return indexOf(str, 0); }
    public int indexOf(String str, int fromIndex) {
        char[] t = str.value;
        if (fromIndex < 0) fromIndex = 0;
        outer:
        for (int i = fromIndex; i <= value.length - t.length; i++) {
            for (int j = 0; j < t.length; j++) if (value[i + j] != t[j]) continue outer;
            return i;
        }
        return -1;
    }
    public int lastIndexOf(String str) { return lastIndexOf(str, value.length); }
    public int lastIndexOf(String str, int fromIndex) {
        char[] t = str.value;
        outer:
        for (int i = Math.min(fromIndex, value.length - t.length); i >= 0; i--) {
            for (int j = 0; j < t.length; j++) if (value[i + j] != t[j]) continue outer;
            return i;
        }
        return -1;
    }
    public boolean contains(CharSequence s) { return indexOf(s.toString()) >= 0; }

    public String substring(int beginIndex) { return substring(beginIndex, value.length); }
    public String substring(int beginIndex, int endIndex) {
        int length = value.length;
        if (beginIndex < 0 || beginIndex > endIndex || endIndex > length)
            throw new StringIndexOutOfBoundsException("begin " + beginIndex + ", end " + endIndex + ", length " + length);
        if (beginIndex == 0 && endIndex == length) return this;
        return new String(java.util.Arrays.copyOfRange(value, beginIndex, endIndex), true);
    }
    public CharSequence subSequence(int beginIndex, int endIndex) { return substring(beginIndex, endIndex); }
    public String concat(String str) {
        if (str.value.length == 0) return this;
        char[] r = java.util.Arrays.copyOf(value, value.length + str.value.length);
        System.arraycopy(str.value, 0, r, value.length, str.value.length);
        return new String(r, true);
    }
    public String replace(char oldChar, char newChar) {
        if (oldChar == newChar) return this;
        int i = indexOf(oldChar);
        if (i < 0) return this;
        char[] r = toCharArray();
        for (; i < r.length; i++) if (r[i] == oldChar) r[i] = newChar;
        return new String(r, true);
    }
    public String replace(CharSequence target, CharSequence replacement) {
        String t = target.toString(), rep = replacement.toString();
        StringBuilder sb = new StringBuilder();
        if (t.isEmpty()) {
            for (int i = 0; i < value.length; i++) { sb.append(rep); sb.append(value[i]); }
            sb.append(rep);
            return sb.toString();
        }
        int from = 0, j;
        while ((j = indexOf(t, from)) >= 0) {
            sb.append(this, from, j).append(rep);
            from = j + t.length();
        }
        if (from == 0) return this;
        sb.append(this, from, value.length);
        return sb.toString();
    }
    public String toLowerCase() {
        char[] r = toCharArray();
        for (int i = 0; i < r.length; i++) r[i] = Character.toLowerCase(r[i]);
        return new String(r, true);
    }
    public String toUpperCase() {
        char[] r = toCharArray();
        for (int i = 0; i < r.length; i++) r[i] = Character.toUpperCase(r[i]);
        return new String(r, true);
    }
    public String trim() {
        int st = 0, len = value.length;
        while (st < len && value[st] <= ' ') st++;
        while (st < len && value[len - 1] <= ' ') len--;
        return (st > 0 || len < value.length) ? substring(st, len) : this;
    }
    public String strip() {
        int st = 0, len = value.length;
        while (st < len && Character.isWhitespace(value[st])) st++;
        while (st < len && Character.isWhitespace(value[len - 1])) len--;
        return substring(st, len);
    }
    public boolean isBlank() { return strip().isEmpty(); }
    public String repeat(int count) {
        if (count < 0) throw new IllegalArgumentException("count is negative: " + count);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < count; i++) sb.append(this);
        return sb.toString();
    }
    /** Splits around matches of {@code regex}: literal separators, escaped single characters, the
     * empty pattern, "\\s+" and " +" directly, other expressions with {@link java.util.regex.Pattern}. */
    public String[] split(String regex) { return split(regex, 0); }
    public String[] split(String regex, int limit) {
        int mode;
        String sep = regex;
        if (regex.isEmpty()) mode = 3;
        else if (regex.equals("\\s+")) mode = 1;
        else if (regex.equals(" +")) mode = 2;
        else if (regex.length() == 2 && regex.charAt(0) == '\\' && !Character.isLetterOrDigit(regex.charAt(1))) { mode = 0; sep = regex.substring(1); }
        else {
            for (int i = 0; i < regex.length(); i++)
                if (".$|()[{^?*+\\".indexOf(regex.charAt(i)) >= 0)
                    return java.util.regex.Pattern.compile(regex).split(this, limit);
            mode = 0;
        }
        ArrayList<String> list = new ArrayList<>();
        int index = 0, n = value.length, pos = 0;
        while (pos <= n) {
            int start, end;
            if (mode == 0) {
                start = indexOf(sep, pos);
                if (start < 0) break;
                end = start + sep.length();
            } else if (mode == 3) {
                start = pos; end = pos;
                if (start >= n) break;
            } else {
                start = pos;
                while (start < n && !(mode == 1 ? Character.isWhitespace(value[start]) : value[start] == ' ')) start++;
                if (start >= n) break;
                end = start;
                while (end < n && (mode == 1 ? Character.isWhitespace(value[end]) : value[end] == ' ')) end++;
            }
            if (limit > 0 && list.size() >= limit - 1) break;
            if (!(index == 0 && start == 0 && end == 0)) {
                list.add(substring(index, start));
                index = end;
            }
            pos = (end == start) ? end + 1 : end;
        }
        if (index == 0) return new String[] { this };
        list.add(substring(index, n));
        int size = list.size();
        if (limit == 0) while (size > 0 && list.get(size - 1).isEmpty()) size--;
        String[] r = new String[size];
        for (int i = 0; i < size; i++) r[i] = list.get(i);
        return r;
    }
    public static String join(CharSequence delimiter, CharSequence... elements) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < elements.length; i++) { if (i > 0) sb.append(delimiter); sb.append(elements[i]); }
        return sb.toString();
    }
    public static String join(CharSequence delimiter, Iterable<? extends CharSequence> elements) {
        StringBuilder sb = new StringBuilder();
        boolean first = true;
        for (CharSequence cs : elements) { if (!first) sb.append(delimiter); sb.append(cs); first = false; }
        return sb.toString();
    }
    public String toString() { return this; }
    public native String intern();

    public static String valueOf(Object obj) { return (obj == null) ? "null" : obj.toString(); }
    public static String valueOf(char[] data) { return new String(data); }
    public static String valueOf(char[] data, int offset, int count) { return new String(data, offset, count); }
    public static String copyValueOf(char[] data) { return new String(data); }
    public static String valueOf(boolean b) { return b ? "true" : "false"; }
    public static String valueOf(char c) { return new String(new char[] { c }, true); }
    public static String valueOf(int i) { return Integer.toString(i); }
    public static String valueOf(long l) { return Long.toString(l); }
    public static String valueOf(float f) { return Float.toString(f); }
    public static String valueOf(double d) { return Double.toString(d); }
    public static String format(String format, Object... args) { return java.util.Formatter.format(format, args); }
    public char[] value() { return value; }
}
