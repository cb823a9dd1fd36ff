package java.util;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.Reader;
import java.io.Writer;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * As the JDK's since 9: the entries live in a ConcurrentHashMap (so they print and iterate in
 * HotSpot's order); load reads the JDK's line format (comments, continuation lines, ':' or '='
 * or whitespace separators, escapes including \\uXXXX; an InputStream is ISO-8859-1).
 */
public class Properties extends Hashtable<Object, Object> {
    protected volatile Properties defaults;
    private ConcurrentHashMap<Object, Object> map;

    public Properties() { this(null, 8); }
    public Properties(int initialCapacity) { this(null, initialCapacity); }
    public Properties(Properties defaults) { this(defaults, 8); }
    private Properties(Properties defaults, int initialCapacity) {
        super((Void) null);
        map = new ConcurrentHashMap<>(initialCapacity);
        this.defaults = defaults;
    }

    public synchronized Object setProperty(String key, String value) { return put(key, value); }

    public synchronized void load(Reader reader) throws IOException { load0(new LineReader(reader)); }
    public synchronized void load(InputStream inStream) throws IOException {
        load0(new LineReader(new InputStreamReader(inStream, java.nio.charset.StandardCharsets.ISO_8859_1)));
    }

    private void load0(LineReader lr) throws IOException {
        StringBuilder outBuffer = new StringBuilder();
        int limit;
        while ((limit = lr.readLine()) >= 0) {
            char[] lineBuf = lr.lineBuf;
            int keyLen = 0;
            int valueStart = limit;
            boolean hasSep = false;
            boolean precedingBackslash = false;
            while (keyLen < limit) {
                char c = lineBuf[keyLen];
                if ((c == '=' || c == ':') && !precedingBackslash) {
                    valueStart = keyLen + 1;
                    hasSep = true;
                    break;
                } else if ((c == ' ' || c == '\t' || c == '\f') && !precedingBackslash) {
                    valueStart = keyLen + 1;
                    break;
                }
                if (c == '\\') precedingBackslash = !precedingBackslash; else precedingBackslash = false;
                keyLen++;
            }
            while (valueStart < limit) {
                char c = lineBuf[valueStart];
                if (c != ' ' && c != '\t' && c != '\f') {
                    if (!hasSep && (c == '=' || c == ':')) hasSep = true; else break;
                }
                valueStart++;
            }
            String key = loadConvert(lineBuf, 0, keyLen, outBuffer);
            String value = loadConvert(lineBuf, valueStart, limit - valueStart, outBuffer);
            put(key, value);
        }
    }

    private static final class LineReader {
        final Reader reader;
        char[] lineBuf = new char[1024];
        final char[] inCharBuf = new char[8192];
        int inLimit = 0, inOff = 0;
        LineReader(Reader reader) { this.reader = reader; }

        int readLine() throws IOException {
            int len = 0;
            boolean skipWhiteSpace = true, appendedLineBegin = false, precedingBackslash = false, fromStart = true, isCommentLine = false, skipLF = false;
            while (true) {
                if (inOff >= inLimit) {
                    inLimit = reader.read(inCharBuf);
                    inOff = 0;
                    if (inLimit <= 0) {
                        if (len == 0 || isCommentLine) return -1;
                        if (precedingBackslash) len--;
                        return len;
                    }
                }
                char c = inCharBuf[inOff++];
                if (skipLF) {
                    skipLF = false;
                    if (c == '\n') continue;
                }
                if (skipWhiteSpace) {
                    if (c == ' ' || c == '\t' || c == '\f') continue;
                    if (!appendedLineBegin && (c == '\r' || c == '\n')) continue;
                    skipWhiteSpace = false;
                    appendedLineBegin = false;
                }
                if (fromStart) {
                    fromStart = false;
                    if (c == '#' || c == '!') {
                        isCommentLine = true;
                        // skip the rest of the comment line
                        while (true) {
                            if (inOff >= inLimit) {
                                inLimit = reader.read(inCharBuf);
                                inOff = 0;
                                if (inLimit <= 0) return -1;
                            }
                            char d = inCharBuf[inOff++];
                            if (d == '\n' || d == '\r') break;
                        }
                        isCommentLine = false;
                        skipWhiteSpace = true;
                        fromStart = true;
                        len = 0;
                        continue;
                    }
                }
                if (c != '\n' && c != '\r') {
                    if (len == lineBuf.length) lineBuf = Arrays.copyOf(lineBuf, len * 2);
                    lineBuf[len++] = c;
                    if (c == '\\') precedingBackslash = !precedingBackslash; else precedingBackslash = false;
                } else {
                    if (len == 0) {
                        skipWhiteSpace = true;
                        fromStart = true;
                        continue;
                    }
                    if (precedingBackslash) {
                        len -= 1;
                        skipWhiteSpace = true;
                        appendedLineBegin = true;
                        precedingBackslash = false;
                        if (c == '\r') skipLF = true;
                    } else {
                        if (c == '\r' && inOff < inLimit && inCharBuf[inOff] == '\n') inOff++;
                        else if (c == '\r') skipLF = true;
                        if (skipLF) {
                            // a lone \r: the next read may start with \n
                        }
                        return len;
                    }
                }
            }
        }
    }

    private String loadConvert(char[] in, int off, int len, StringBuilder out) {
        char aChar;
        int end = off + len;
        int start = off;
        while (off < end) {
            aChar = in[off++];
            if (aChar == '\\') break;
        }
        if (off == end) return new String(in, start, len);
        out.setLength(0);
        off--;
        out.append(in, start, off - start);
        while (off < end) {
            aChar = in[off++];
            if (aChar == '\\') {
                aChar = in[off++];
                if (aChar == 'u') {
                    if (off > end - 4) throw new IllegalArgumentException("Malformed \\uxxxx encoding.");
                    int value = 0;
                    for (int i = 0; i < 4; i++) {
                        aChar = in[off++];
                        int d = Character.digit(aChar, 16);
                        if (d < 0) throw new IllegalArgumentException("Malformed \\uxxxx encoding.");
                        value = (value << 4) + d;
                    }
                    out.append((char) value);
                } else {
                    if (aChar == 't') aChar = '\t';
                    else if (aChar == 'r') aChar = '\r';
                    else if (aChar == 'n') aChar = '\n';
                    else if (aChar == 'f') aChar = '\f';
                    out.append(aChar);
                }
            } else {
                out.append(aChar);
            }
        }
        return out.toString();
    }

    private static String saveConvert(String theString, boolean escapeSpace) {
        int len = theString.length();
        StringBuilder outBuffer = new StringBuilder(len * 2);
        for (int x = 0; x < len; x++) {
            char aChar = theString.charAt(x);
            if ((aChar > 61) && (aChar < 127)) {
                if (aChar == '\\') { outBuffer.append('\\'); outBuffer.append('\\'); continue; }
                outBuffer.append(aChar);
                continue;
            }
            switch (aChar) {
                case ' ': if (x == 0 || escapeSpace) outBuffer.append('\\'); outBuffer.append(' '); break;
                case '\t': outBuffer.append('\\'); outBuffer.append('t'); break;
                case '\n': outBuffer.append('\\'); outBuffer.append('n'); break;
                case '\r': outBuffer.append('\\'); outBuffer.append('r'); break;
                case '\f': outBuffer.append('\\'); outBuffer.append('f'); break;
                case '=': case ':': case '#': case '!': outBuffer.append('\\'); outBuffer.append(aChar); break;
                default:
                    if ((aChar < 0x0020) || (aChar > 0x007e)) {
                        outBuffer.append("\\u");
                        String h = Integer.toHexString(aChar).toUpperCase();
                        for (int k = h.length(); k < 4; k++) outBuffer.append('0');
                        outBuffer.append(h);
                    } else {
                        outBuffer.append(aChar);
                    }
            }
        }
        return outBuffer.toString();
    }

    /** The date line store writes, as Date.toString prints the current time (in UTC). */
    static String utcDate(long millis) {
        long secs = Math.floorDiv(millis, 1000L);
        long days = Math.floorDiv(secs, 86400L);
        int sod = (int) Math.floorMod(secs, 86400L);
        long z = days + 719468;
        long era = Math.floorDiv(z, 146097);
        long doe = z - era * 146097;
        long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
        long y = yoe + era * 400;
        long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        long mp = (5 * doy + 2) / 153;
        int d = (int) (doy - (153 * mp + 2) / 5 + 1);
        int m = (int) (mp < 10 ? mp + 3 : mp - 9);
        if (m <= 2) y++;
        String[] days3 = {"Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"};
        String[] months = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
        return String.format("%s %s %02d %02d:%02d:%02d UTC %d", days3[(int) Math.floorMod(days, 7L)], months[m - 1], d, sod / 3600, sod / 60 % 60, sod % 60, y);
    }
    /** Writes the comment, a date line (the time in UTC) and the entries, as the JDK's store does. */
    public void store(Writer writer, String comments) throws IOException {
        StringBuilder sb = new StringBuilder();
        if (comments != null) sb.append('#').append(comments).append('\n');
        sb.append('#').append(utcDate(System.currentTimeMillis())).append('\n');
        synchronized (this) {
            for (Map.Entry<Object, Object> e : entrySet()) {
                String key = (String) e.getKey();
                String val = (String) e.getValue();
                sb.append(saveConvert(key, true)).append('=').append(saveConvert(val, false)).append('\n');
            }
        }
        writer.write(sb.toString());
        writer.flush();
    }
    public void store(OutputStream out, String comments) throws IOException {
        store(new OutputStreamWriter(out, java.nio.charset.StandardCharsets.ISO_8859_1), comments);
    }

    public String getProperty(String key) {
        Object oval = map.get(key);
        String sval = (oval instanceof String) ? (String) oval : null;
        Properties defaults;
        return ((sval == null) && ((defaults = this.defaults) != null)) ? defaults.getProperty(key) : sval;
    }
    public String getProperty(String key, String defaultValue) {
        String val = getProperty(key);
        return (val == null) ? defaultValue : val;
    }
    public Enumeration<?> propertyNames() {
        Hashtable<String, Object> h = new Hashtable<>();
        enumerate(h);
        return h.keys();
    }
    public Set<String> stringPropertyNames() {
        Map<String, String> h = new HashMap<>();
        enumerateStringProperties(h);
        return Collections.unmodifiableSet(h.keySet());
    }
    public void list(PrintStream out) {
        out.println("-- listing properties --");
        Map<String, Object> h = new HashMap<>();
        enumerate(h);
        for (Map.Entry<String, Object> e : h.entrySet()) {
            String key = e.getKey();
            String val = (String) e.getValue();
            if (val.length() > 40) val = val.substring(0, 37) + "...";
            out.println(key + "=" + val);
        }
    }
    public void list(PrintWriter out) {
        out.println("-- listing properties --");
        Map<String, Object> h = new HashMap<>();
        enumerate(h);
        for (Map.Entry<String, Object> e : h.entrySet()) {
            String key = e.getKey();
            String val = (String) e.getValue();
            if (val.length() > 40) val = val.substring(0, 37) + "...";
            out.println(key + "=" + val);
        }
    }
    private void enumerate(Map<String, Object> h) {
        if (defaults != null) defaults.enumerate(h);
        for (Map.Entry<Object, Object> e : entrySet()) h.put((String) e.getKey(), e.getValue());
    }
    private void enumerateStringProperties(Map<String, String> h) {
        if (defaults != null) defaults.enumerateStringProperties(h);
        for (Map.Entry<Object, Object> e : entrySet()) {
            Object k = e.getKey(), v = e.getValue();
            if (k instanceof String && v instanceof String) h.put((String) k, (String) v);
        }
    }

    public int size() { return map.size(); }
    public boolean isEmpty() { return map.isEmpty(); }
    public Enumeration<Object> keys() { return Collections.enumeration(map.keySet()); }
    public Enumeration<Object> elements() { return Collections.enumeration(map.values()); }
    public boolean contains(Object value) { return map.containsValue(value); }
    public boolean containsValue(Object value) { return map.containsValue(value); }
    public boolean containsKey(Object key) { return map.containsKey(key); }
    public Object get(Object key) { return map.get(key); }
    public synchronized Object put(Object key, Object value) { return map.put(key, value); }
    public synchronized Object remove(Object key) { return map.remove(key); }
    public synchronized void putAll(Map<?, ?> t) { map.putAll(t); }
    public synchronized void clear() { map.clear(); }
    public synchronized String toString() { return map.toString(); }
    public Set<Object> keySet() { return map.keySet(); }
    public Collection<Object> values() { return map.values(); }
    public Set<Map.Entry<Object, Object>> entrySet() { return map.entrySet(); }
    public synchronized boolean equals(Object o) { return map.equals(o); }
    public synchronized int hashCode() { return map.hashCode(); }
    public Object getOrDefault(Object key, Object defaultValue) { return map.getOrDefault(key, defaultValue); }
    public synchronized void forEach(BiConsumer<? super Object, ? super Object> action) { map.forEach(action); }
    public synchronized Object putIfAbsent(Object key, Object value) { return map.putIfAbsent(key, value); }
    public synchronized Object computeIfAbsent(Object key, Function<? super Object, ?> mappingFunction) { return map.computeIfAbsent(key, mappingFunction); }
    public synchronized Object merge(Object key, Object value, BiFunction<? super Object, ? super Object, ?> remappingFunction) { return map.merge(key, value, remappingFunction); }
    /** Object.clone (so a subclass's clone is of the subclass, its fields and defaults copied) with
     * a new map of the entries, as the JDK's. */
    public synchronized Object clone() {
        Properties clone = (Properties) cloneHashtable();
        clone.map = new ConcurrentHashMap<>(map);
        return clone;
    }
}
