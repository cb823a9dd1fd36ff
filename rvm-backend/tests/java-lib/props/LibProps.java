import java.io.ByteArrayInputStream;
import java.io.StringReader;
import java.io.StringWriter;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Hashtable;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Properties;
import java.util.StringJoiner;
import java.util.StringTokenizer;
import java.util.WeakHashMap;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** Properties, System properties, java.util.logging, java.sql's DriverManager, and the small collections. */
public class LibProps {
    enum Day { MON, TUE, WED, THU, FRI, SAT, SUN }

    static class FakeDriver implements Driver {
        public Connection connect(String url, Properties info) throws SQLException {
            if (!acceptsURL(url)) return null;
            throw new SQLException("no database behind " + url + " for " + info.getProperty("user"), "08001", 17);
        }
        public boolean acceptsURL(String url) { return url.startsWith("jdbc:fake:"); }
        public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) { return new DriverPropertyInfo[0]; }
        public int getMajorVersion() { return 1; }
        public int getMinorVersion() { return 2; }
        public boolean jdbcCompliant() { return false; }
        public Logger getParentLogger() throws SQLFeatureNotSupportedException { throw new SQLFeatureNotSupportedException("no logger"); }
    }

    public static void main(String[] args) throws Exception {
        Properties p = new Properties();
        p.load(new StringReader("# a comment\n! another\nname = rvm\nkey:value\nspaced   value with spaces  \nmulti = one \\\n    two\nunicode=caf\\u00e9\nempty=\n  indented=yes\ncolon\\:key=escaped\n"));
        List<String> keys = new ArrayList<>(p.stringPropertyNames());
        Collections.sort(keys);
        for (String k : keys) System.out.println("[" + k + "] = [" + p.getProperty(k) + "]");
        System.out.println(p.getProperty("missing") + " " + p.getProperty("missing", "dflt") + " " + p.size() + " " + p.containsKey("name"));
        p.setProperty("added", "1");
        Properties q = new Properties(p);
        q.setProperty("own", "2");
        System.out.println(q.getProperty("added") + " " + q.getProperty("own") + " " + q.size() + " " + q.get("added"));
        Properties latin = new Properties();
        latin.load(new ByteArrayInputStream("k=v\u00e9\nx=1\n".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1)));
        System.out.println(latin.getProperty("k") + " " + latin);
        StringWriter w = new StringWriter();
        Properties small = new Properties();
        small.setProperty("a key", "a=value");
        small.store(w, null);
        String stored = w.toString();
        System.out.println(stored.substring(stored.indexOf('\n') + 1).trim());
        // system properties
        for (String k : new String[] {"line.separator", "file.separator", "path.separator", "file.encoding", "os.name", "os.arch"}) {
            System.out.println(k + "=" + System.getProperty(k).replace("\n", "\\n"));
        }
        for (String k : new String[] {"java.version", "java.vm.name", "user.dir", "user.home", "user.name", "java.io.tmpdir", "java.vendor"}) {
            System.out.println(k + " set: " + (System.getProperty(k) != null && !System.getProperty(k).isEmpty()));
        }
        System.out.println(System.getProperty("no.such.key") + " " + System.getProperty("no.such.key", "fallback") + " " + System.getProperty("user.dir").equals(new java.io.File("").getAbsolutePath()));
        System.setProperty("my.prop", "set");
        System.out.println(System.getProperty("my.prop") + " " + System.clearProperty("my.prop") + " " + System.getProperty("my.prop") + " " + (System.getenv("PATH") != null) + " " + System.getenv("NO_SUCH_VARIABLE_X"));
        // logging: levels, loggability, handlers
        Logger log = Logger.getLogger("lib.props");
        System.out.println(log.getName() + " " + (Logger.getLogger("lib.props") == log) + " " + log.isLoggable(Level.INFO) + " " + log.isLoggable(Level.FINE) + " " + log.isLoggable(Level.SEVERE) + " " + log.getLevel());
        List<String> seen = new ArrayList<>();
        log.setUseParentHandlers(false);
        log.addHandler(new Handler() {
            public void publish(LogRecord r) { seen.add(r.getLevel() + ":" + r.getMessage()); }
            public void flush() {}
            public void close() {}
        });
        log.info("hello");
        log.fine("hidden");
        log.log(Level.WARNING, "warn {0}", "x");
        log.setLevel(Level.ALL);
        log.finest(() -> "now visible");
        log.setLevel(Level.OFF);
        log.severe("off");
        System.out.println(seen + " " + Level.parse("WARNING").intValue() + " " + Level.parse("800") + " " + Level.FINE.getName() + " " + Level.SEVERE.intValue());
        // java.sql
        DriverManager.registerDriver(new FakeDriver());
        try {
            DriverManager.getConnection("jdbc:fake:mem", "sa", "");
        } catch (SQLException e) {
            System.out.println("SQLException " + e.getMessage() + " " + e.getSQLState() + " " + e.getErrorCode());
        }
        try {
            DriverManager.getConnection("jdbc:other:x");
        } catch (SQLException e) {
            System.out.println("SQLException " + e.getMessage() + " " + e.getSQLState());
        }
        System.out.println(DriverManager.getDriver("jdbc:fake:y").getMajorVersion() + " " + Collections.list(DriverManager.getDrivers()).size());
        SQLException chain = new SQLException("first");
        chain.setNextException(new SQLException("second"));
        System.out.println(chain.getNextException().getMessage());
        // small collections
        EnumMap<Day, Integer> em = new EnumMap<>(Day.class);
        em.put(Day.WED, 3);
        em.put(Day.MON, 1);
        em.put(Day.SUN, 7);
        em.remove(Day.WED);
        System.out.println(em + " " + em.containsKey(Day.MON) + " " + em.get(Day.TUE) + " " + em.keySet() + " " + em.values());
        EnumSet<Day> weekend = EnumSet.of(Day.SAT, Day.SUN);
        System.out.println(weekend + " " + EnumSet.complementOf(weekend) + " " + EnumSet.range(Day.TUE, Day.THU) + " " + EnumSet.allOf(Day.class).size() + " " + EnumSet.noneOf(Day.class) + " " + weekend.contains(Day.MON));
        BitSet bits = new BitSet();
        bits.set(1);
        bits.set(5, 9);
        bits.clear(6);
        BitSet other = new BitSet();
        other.set(5);
        other.set(100);
        System.out.println(bits + " " + bits.cardinality() + " " + bits.length() + " " + bits.nextSetBit(2) + " " + bits.nextClearBit(5) + " " + bits.get(7) + " " + bits.intersects(other));
        bits.or(other);
        System.out.println(bits + " " + bits.hashCode() + " " + bits.size());
        bits.and(other);
        System.out.println(bits + " " + bits.equals(other));
        StringJoiner sj = new StringJoiner(", ", "{", "}");
        sj.setEmptyValue("EMPTY");
        System.out.println(sj + " " + sj.add("a").add("b") + " " + sj.length() + " " + new StringJoiner("-").add("x").merge(new StringJoiner("+").add("y").add("z")));
        Hashtable<String, Integer> ht = new Hashtable<>();
        for (String k : new String[] {"one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"}) ht.put(k, k.length());
        System.out.println(ht + " " + ht.get("three") + " " + ht.contains(5) + " " + Collections.list(ht.keys()).size());
        WeakHashMap<String, Integer> wh = new WeakHashMap<>();
        for (String k : new String[] {"alpha", "beta", "gamma", "delta", "epsilon"}) wh.put(k, k.length());
        System.out.println(wh + " " + wh.get("beta") + " " + wh.remove("gamma") + " " + wh.size());
        IdentityHashMap<String, Integer> ih = new IdentityHashMap<>();
        String k1 = new String("k"), k2 = new String("k");
        ih.put(k1, 1);
        ih.put(k2, 2);
        System.out.println(ih.size() + " " + ih.get(k1) + " " + ih.get(k2) + " " + ih.get("k") + " " + ih.containsKey(k1));
        StringTokenizer st = new StringTokenizer("a,b;;c", ",;");
        StringBuilder toks = new StringBuilder();
        System.out.print(st.countTokens() + ":");
        while (st.hasMoreTokens()) toks.append(st.nextToken()).append('/');
        System.out.println(toks);
        java.util.TreeMap<Integer, String> tm = new java.util.TreeMap<>();
        for (int i = 1; i <= 9; i++) tm.put(i * 10, "v" + i);
        System.out.println(tm.headMap(40) + " " + tm.tailMap(70, false) + " " + tm.subMap(25, 55) + " " + tm.descendingMap() + " " + tm.descendingKeySet() + " " + tm.navigableKeySet().headSet(30, true));
        java.util.NavigableMap<Integer, String> view = tm.subMap(20, true, 80, false);
        view.put(45, "new");
        view.remove(30);
        System.out.println(view + " " + view.size() + " " + view.firstKey() + " " + view.lastEntry() + " " + view.ceilingKey(46) + " " + view.descendingMap().headMap(50) + " " + tm.size());
        try {
            view.put(99, "out");
        } catch (IllegalArgumentException e) {
            System.out.println("IAE " + e.getMessage());
        }
        java.util.TreeSet<String> ts = new java.util.TreeSet<>(List.of("pear", "apple", "fig", "kiwi", "plum"));
        System.out.println(ts.headSet("kiwi") + " " + ts.tailSet("kiwi") + " " + ts.subSet("b", "p") + " " + ts.descendingSet() + " " + ts.descendingSet().first() + " " + ts.tailSet("fig", false).pollFirst() + " " + ts);
        String accented = "\u00c5ngstr\u00f6m caf\u00e9 \u01d8 \u1e9b \u00bd \ufb01";
        for (java.text.Normalizer.Form form : java.text.Normalizer.Form.values()) {
            String n = java.text.Normalizer.normalize(accented, form);
            StringBuilder hex = new StringBuilder();
            for (char c : n.toCharArray()) hex.append(Integer.toHexString(c)).append(' ');
            System.out.println(form + " " + n.length() + " " + hex.toString().trim() + " " + java.text.Normalizer.isNormalized(n, form));
        }
        ThreadLocal<Integer> tl = ThreadLocal.withInitial(() -> 5);
        tl.set(tl.get() + 1);
        int[] fromOther = new int[1];
        Thread t = new Thread(() -> fromOther[0] = tl.get());
        t.start();
        t.join();
        System.out.println(tl.get() + " " + fromOther[0]);
    }
}
