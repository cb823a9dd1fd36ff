import java.util.*;

/**
 * clone() of the library's collections, Date, Timestamp, Properties and ZipEntry: a subclass whose clone() calls
 * super.clone() gets an instance of itself with its own fields copied; the clone has the same
 * contents and order, and the clone and the original change independently (storage, entries,
 * iterators and their concurrent-modification checks).
 */
public class LibCollectionClone {
    static final class MyList extends ArrayList<Integer> {
        String tag = "list";
        @Override public MyList clone() { return (MyList) super.clone(); }
    }
    static final class MyLinkedList extends LinkedList<Integer> {
        String tag = "linked";
        @Override public MyLinkedList clone() { return (MyLinkedList) super.clone(); }
    }
    static final class MyDeque extends ArrayDeque<Integer> {
        String tag = "deque";
        @Override public MyDeque clone() { return (MyDeque) super.clone(); }
    }
    static final class MyHashSet extends HashSet<Integer> {
        String tag = "hashset";
        @Override public MyHashSet clone() { return (MyHashSet) super.clone(); }
    }
    static final class MyLinkedHashSet extends LinkedHashSet<Integer> {
        String tag = "linkedhashset";
        @Override public MyLinkedHashSet clone() { return (MyLinkedHashSet) super.clone(); }
    }
    static final class MyTreeSet extends TreeSet<Integer> {
        String tag = "treeset";
        MyTreeSet(Comparator<Integer> c) { super(c); }
        @Override public MyTreeSet clone() { return (MyTreeSet) super.clone(); }
    }
    static final class MyHashMap extends HashMap<Integer, String> {
        String tag = "hashmap";
        @Override public MyHashMap clone() { return (MyHashMap) super.clone(); }
    }
    static final class MyLinkedHashMap extends LinkedHashMap<Integer, String> {
        String tag = "linkedhashmap";
        MyLinkedHashMap(boolean accessOrder) { super(16, 0.75f, accessOrder); }
        @Override public MyLinkedHashMap clone() { return (MyLinkedHashMap) super.clone(); }
    }
    /** An LRU cache: its bound and its count of removeEldestEntry calls are fields the clone copies. */
    static final class Lru extends LinkedHashMap<Integer, String> {
        int max;
        int asked;
        Lru(int max) { super(16, 0.75f, true); this.max = max; }
        @Override protected boolean removeEldestEntry(Map.Entry<Integer, String> eldest) { asked++; return size() > max; }
        @Override public Lru clone() { return (Lru) super.clone(); }
    }
    static final class MyTreeMap extends TreeMap<Integer, String> {
        String tag = "treemap";
        MyTreeMap(Comparator<Integer> c) { super(c); }
        @Override public MyTreeMap clone() { return (MyTreeMap) super.clone(); }
    }
    static final class MyIdentityMap extends IdentityHashMap<Integer, String> {
        String tag = "identity";
        @Override public MyIdentityMap clone() { return (MyIdentityMap) super.clone(); }
    }
    static final class MyHashtable extends Hashtable<Integer, String> {
        String tag = "hashtable";
        @Override public synchronized MyHashtable clone() { return (MyHashtable) super.clone(); }
    }
    enum Color { RED, GREEN, BLUE, BLACK }
    static final class MyEnumMap extends EnumMap<Color, Integer> {
        String tag = "enummap";
        MyEnumMap() { super(Color.class); }
        @Override public MyEnumMap clone() { return (MyEnumMap) super.clone(); }
    }
    static final class MyProperties extends Properties {
        String tag = "properties";
        MyProperties(Properties defaults) { super(defaults); }
        @Override public synchronized MyProperties clone() { return (MyProperties) super.clone(); }
    }
    static final class MyDate extends Date {
        String tag = "date";
        MyDate(long t) { super(t); }
        @Override public MyDate clone() { return (MyDate) super.clone(); }
    }
    static final class MyTimestamp extends java.sql.Timestamp {
        String tag = "timestamp";
        MyTimestamp(long t) { super(t); }
        @Override public MyTimestamp clone() { return (MyTimestamp) super.clone(); }
    }
    static final class MyZipEntry extends java.util.zip.ZipEntry {
        String tag = "zipentry";
        MyZipEntry(String name) { super(name); }
        @Override public MyZipEntry clone() { return (MyZipEntry) super.clone(); }
    }

    static String show(Object o, boolean sorted) {
        if (!sorted) return String.valueOf(o);
        if (o instanceof Map) return new TreeMap<Object, Object>((Map<?, ?>) o).toString();
        return new TreeSet<Object>((Collection<?>) o).toString();
    }

    /** The clone's class and contents, then changes to each side seen from both, with iterators. */
    static void collection(String what, Collection<Integer> orig, Collection<Integer> copy, String tag, boolean sorted) {
        System.out.println(what + ": " + copy.getClass().getName() + " tag " + tag + " distinct " + (copy != orig)
            + " size " + copy.size() + " " + show(copy, sorted) + " same " + show(copy, sorted).equals(show(orig, sorted)));
        Iterator<Integer> before = orig.iterator();
        copy.add(100);
        copy.remove(2);
        System.out.println("  clone changed: original " + show(orig, sorted) + " clone " + show(copy, sorted));
        System.out.println("  original's iterator goes on: " + before.next());
        Iterator<Integer> ofClone = copy.iterator();
        orig.add(200);
        orig.remove(3);
        System.out.println("  original changed: original " + show(orig, sorted) + " clone " + show(copy, sorted));
        int n = 0;
        while (ofClone.hasNext()) {
            Integer x = ofClone.next();
            if (x == 1) ofClone.remove();
            n++;
        }
        System.out.println("  clone iterated (" + n + ") removing 1: original " + show(orig, sorted) + " clone " + show(copy, sorted));
        if (orig instanceof ArrayDeque) return; // the JDK's ArrayDeque iterator notices a change only when it meets an emptied slot
        try {
            Iterator<Integer> it = orig.iterator();
            orig.add(300);
            it.next();
            System.out.println("  no ConcurrentModificationException");
        } catch (ConcurrentModificationException e) {
            System.out.println("  original's iterator after a change: ConcurrentModificationException");
        }
    }

    static void map(String what, Map<Integer, String> orig, Map<Integer, String> copy, String tag, boolean sorted) {
        System.out.println(what + ": " + copy.getClass().getName() + " tag " + tag + " distinct " + (copy != orig)
            + " size " + copy.size() + " " + show(copy, sorted) + " equal " + copy.equals(orig) + " hash " + (copy.hashCode() == orig.hashCode()));
        Iterator<Integer> before = orig.keySet().iterator();
        copy.put(50, "fifty");
        copy.remove(2);
        copy.put(1, "ONE");
        System.out.println("  clone changed: original " + show(orig, sorted) + " clone " + show(copy, sorted));
        System.out.println("  original's iterator goes on: " + (before.next() != null));
        for (Map.Entry<Integer, String> e : copy.entrySet()) {
            if (e.getKey() == 3) e.setValue("three!");
        }
        System.out.println("  clone's entry set: original " + show(orig, sorted) + " clone " + show(copy, sorted));
        Iterator<Map.Entry<Integer, String>> ofClone = copy.entrySet().iterator();
        orig.put(60, "sixty");
        orig.remove(4);
        System.out.println("  original changed: original " + show(orig, sorted) + " clone " + show(copy, sorted));
        int n = 0;
        while (ofClone.hasNext()) {
            if (ofClone.next().getKey() == 50) ofClone.remove();
            n++;
        }
        System.out.println("  clone iterated (" + n + ") removing 50: original " + show(orig, sorted) + " clone " + show(copy, sorted));
        copy.clear();
        System.out.println("  clone cleared: original " + show(orig, sorted) + " clone " + show(copy, sorted));
    }

    static void fill(Collection<Integer> c) {
        for (int i : new int[] { 5, 1, 4, 2, 3 }) c.add(i);
    }
    static void fill(Map<Integer, String> m) {
        String[] names = { "zero", "one", "two", "three", "four", "five", "six" };
        for (int i : new int[] { 5, 1, 4, 2, 3, 6 }) m.put(i, names[i]);
    }

    public static void main(String[] args) {
        MyList list = new MyList();
        fill(list);
        list.tag = "list*";
        MyList listClone = list.clone();
        collection("ArrayList subclass", list, listClone, listClone.tag, false);
        listClone.set(0, -1);
        System.out.println("  set on clone: " + list + " " + listClone);
        ArrayList<Integer> plainList = new ArrayList<>(List.of(7, 8, 9));
        @SuppressWarnings("unchecked") ArrayList<Integer> plainListClone = (ArrayList<Integer>) plainList.clone();
        collection("ArrayList", plainList, plainListClone, "-", false);
        @SuppressWarnings("unchecked") ArrayList<Integer> emptyClone = (ArrayList<Integer>) new ArrayList<Integer>().clone();
        for (int i = 0; i < 20; i++) emptyClone.add(i);
        System.out.println("  empty ArrayList's clone grows: " + emptyClone.size());

        MyLinkedList linked = new MyLinkedList();
        fill(linked);
        linked.tag = "linked*";
        MyLinkedList linkedClone = linked.clone();
        collection("LinkedList subclass", linked, linkedClone, linkedClone.tag, false);
        linkedClone.addFirst(-5);
        linkedClone.removeLast();
        ListIterator<Integer> li = linkedClone.listIterator(linkedClone.size());
        StringBuilder back = new StringBuilder();
        while (li.hasPrevious()) back.append(li.previous()).append(' ');
        System.out.println("  deque ends on clone: " + linked + " " + linkedClone + " backwards " + back);
        LinkedList<Integer> plainLinked = new LinkedList<>(List.of(7, 8, 9));
        @SuppressWarnings("unchecked") LinkedList<Integer> plainLinkedClone = (LinkedList<Integer>) plainLinked.clone();
        collection("LinkedList", plainLinked, plainLinkedClone, "-", false);

        MyDeque deque = new MyDeque();
        fill(deque);
        deque.addFirst(0);
        deque.tag = "deque*";
        MyDeque dequeClone = deque.clone();
        collection("ArrayDeque subclass", deque, dequeClone, dequeClone.tag, false);
        dequeClone.pollFirst();
        dequeClone.addFirst(-7);
        System.out.println("  ends on clone: " + deque + " " + dequeClone + " " + dequeClone.peekFirst() + " " + dequeClone.peekLast());
        ArrayDeque<Integer> plainDeque = new ArrayDeque<>(List.of(7, 8, 9));
        ArrayDeque<Integer> plainDequeClone = plainDeque.clone();
        collection("ArrayDeque", plainDeque, plainDequeClone, "-", false);

        MyHashSet hashSet = new MyHashSet();
        fill(hashSet);
        hashSet.tag = "hashset*";
        MyHashSet hashSetClone = hashSet.clone();
        collection("HashSet subclass", hashSet, hashSetClone, hashSetClone.tag, false);
        HashSet<String> words = new HashSet<>(List.of("pear", "apple", "fig", "plum", "kiwi"));
        @SuppressWarnings("unchecked") HashSet<String> wordsClone = (HashSet<String>) words.clone();
        wordsClone.remove("fig");
        System.out.println("HashSet: " + wordsClone.getClass().getName() + " " + show(words, true) + " " + show(wordsClone, true));

        MyLinkedHashSet linkedSet = new MyLinkedHashSet();
        fill(linkedSet);
        linkedSet.tag = "linkedhashset*";
        MyLinkedHashSet linkedSetClone = linkedSet.clone();
        collection("LinkedHashSet subclass", linkedSet, linkedSetClone, linkedSetClone.tag, false);
        System.out.println("  a HashSet: " + (linkedSetClone instanceof HashSet) + " " + LinkedHashSet.class.getSuperclass().getName());
        LinkedHashSet<String> plainLinkedSet = new LinkedHashSet<>(List.of("pear", "apple", "fig"));
        @SuppressWarnings("unchecked") LinkedHashSet<String> plainLinkedSetClone = (LinkedHashSet<String>) plainLinkedSet.clone();
        plainLinkedSetClone.add("banana");
        plainLinkedSet.remove("pear");
        System.out.println("LinkedHashSet: " + plainLinkedSetClone.getClass().getName() + " " + plainLinkedSet + " " + plainLinkedSetClone);

        MyTreeSet treeSet = new MyTreeSet(Comparator.reverseOrder());
        fill(treeSet);
        treeSet.tag = "treeset*";
        MyTreeSet treeSetClone = treeSet.clone();
        collection("TreeSet subclass (descending)", treeSet, treeSetClone, treeSetClone.tag, false);
        System.out.println("  comparator kept: " + (treeSetClone.comparator() == treeSet.comparator()) + " first " + treeSetClone.first()
            + " headSet(4) " + treeSetClone.headSet(4) + " descending " + treeSetClone.descendingSet());
        TreeSet<String> plainTreeSet = new TreeSet<>(List.of("pear", "apple", "fig"));
        @SuppressWarnings("unchecked") TreeSet<String> plainTreeSetClone = (TreeSet<String>) plainTreeSet.clone();
        plainTreeSetClone.add("banana");
        plainTreeSet.pollFirst();
        System.out.println("TreeSet: " + plainTreeSetClone.getClass().getName() + " " + plainTreeSet + " " + plainTreeSetClone);

        MyHashMap hashMap = new MyHashMap();
        fill(hashMap);
        hashMap.tag = "hashmap*";
        MyHashMap hashMapClone = hashMap.clone();
        map("HashMap subclass", hashMap, hashMapClone, hashMapClone.tag, false);
        HashMap<String, Integer> plainMap = new HashMap<>();
        for (String w : new String[] { "pear", "apple", "fig", "plum", "kiwi", "lime", "date" }) plainMap.put(w, w.length());
        @SuppressWarnings("unchecked") HashMap<String, Integer> plainMapClone = (HashMap<String, Integer>) plainMap.clone();
        plainMapClone.merge("fig", 10, Integer::sum);
        plainMap.remove("kiwi");
        System.out.println("HashMap: " + plainMapClone.getClass().getName() + " " + show(plainMap, true) + " " + show(plainMapClone, true));

        MyLinkedHashMap insertion = new MyLinkedHashMap(false);
        fill(insertion);
        insertion.tag = "insertion*";
        MyLinkedHashMap insertionClone = insertion.clone();
        map("LinkedHashMap subclass (insertion order)", insertion, insertionClone, insertionClone.tag, false);
        MyLinkedHashMap access = new MyLinkedHashMap(true);
        fill(access);
        access.get(5);
        MyLinkedHashMap accessClone = access.clone();
        System.out.println("LinkedHashMap subclass (access order): " + accessClone.getClass().getName() + " " + access + " " + accessClone);
        accessClone.get(1);
        access.get(4);
        System.out.println("  each accessed: " + access + " " + accessClone);
        Lru lru = new Lru(4);
        for (int i = 1; i <= 6; i++) lru.put(i, "v" + i);
        lru.get(3);
        Lru lruClone = lru.clone();
        System.out.println("LRU subclass: " + lruClone.getClass().getName() + " max " + lruClone.max + " asked " + lru.asked + " " + lruClone.asked
            + " " + lru + " " + lruClone);
        lruClone.put(7, "v7");
        lruClone.put(8, "v8");
        lru.put(9, "v9");
        System.out.println("  each put: asked " + lru.asked + " " + lruClone.asked + " " + lru + " " + lruClone);
        LinkedHashMap<String, Integer> plainLinkedMap = new LinkedHashMap<>();
        for (String w : new String[] { "pear", "apple", "fig" }) plainLinkedMap.put(w, w.length());
        @SuppressWarnings("unchecked") LinkedHashMap<String, Integer> plainLinkedMapClone = (LinkedHashMap<String, Integer>) plainLinkedMap.clone();
        plainLinkedMapClone.put("kiwi", 4);
        plainLinkedMap.remove("pear");
        System.out.println("LinkedHashMap: " + plainLinkedMapClone.getClass().getName() + " " + plainLinkedMap + " " + plainLinkedMapClone);

        MyTreeMap treeMap = new MyTreeMap(Comparator.reverseOrder());
        fill(treeMap);
        treeMap.tag = "treemap*";
        MyTreeMap treeMapClone = treeMap.clone();
        map("TreeMap subclass (descending)", treeMap, treeMapClone, treeMapClone.tag, false);
        fill(treeMapClone);
        System.out.println("  views of the clone: " + treeMapClone.firstKey() + " " + treeMapClone.headMap(3) + " " + treeMapClone.descendingMap()
            + " " + treeMapClone.navigableKeySet() + "; original " + treeMap.tailMap(3));
        TreeMap<String, Integer> plainTreeMap = new TreeMap<>();
        for (String w : new String[] { "pear", "apple", "fig", "plum", "kiwi" }) plainTreeMap.put(w, w.length());
        @SuppressWarnings("unchecked") TreeMap<String, Integer> plainTreeMapClone = (TreeMap<String, Integer>) plainTreeMap.clone();
        plainTreeMapClone.pollFirstEntry();
        plainTreeMap.put("banana", 6);
        System.out.println("TreeMap: " + plainTreeMapClone.getClass().getName() + " " + plainTreeMap + " " + plainTreeMapClone);
        TreeMap<Integer, Integer> big = new TreeMap<>();
        for (int i = 0; i < 1000; i++) big.put((i * 7919) % 1000, i);
        @SuppressWarnings("unchecked") TreeMap<Integer, Integer> bigClone = (TreeMap<Integer, Integer>) big.clone();
        for (int i = 0; i < 1000; i += 2) bigClone.remove(i);
        System.out.println("  1000 keys: " + big.size() + " " + bigClone.size() + " " + big.firstKey() + " " + bigClone.firstKey() + " " + big.equals(bigClone)
            + " " + bigClone.headMap(10) + " " + bigClone.ceilingKey(500));

        MyIdentityMap identity = new MyIdentityMap();
        fill(identity);
        identity.tag = "identity*";
        MyIdentityMap identityClone = identity.clone();
        map("IdentityHashMap subclass", identity, identityClone, identityClone.tag, true);

        MyHashtable table = new MyHashtable();
        fill(table);
        table.tag = "hashtable*";
        MyHashtable tableClone = table.clone();
        map("Hashtable subclass", table, tableClone, tableClone.tag, false);
        Hashtable<Integer, String> plainTable = new Hashtable<>();
        for (int i = 0; i < 30; i += 3) plainTable.put(i, "v" + i);
        @SuppressWarnings("unchecked") Hashtable<Integer, String> plainTableClone = (Hashtable<Integer, String>) plainTable.clone();
        plainTableClone.put(40, "v40");
        plainTable.remove(0);
        System.out.println("Hashtable: " + plainTableClone.getClass().getName() + " " + plainTable + " " + plainTableClone
            + " keys " + Collections.list(plainTableClone.keys()));

        MyEnumMap enumMap = new MyEnumMap();
        enumMap.put(Color.BLUE, 3);
        enumMap.put(Color.RED, 1);
        enumMap.tag = "enummap*";
        MyEnumMap enumMapClone = enumMap.clone();
        System.out.println("EnumMap subclass: " + enumMapClone.getClass().getName() + " tag " + enumMapClone.tag + " " + enumMapClone + " equal " + enumMapClone.equals(enumMap));
        Iterator<Color> beforeEnum = enumMap.keySet().iterator();
        enumMapClone.put(Color.GREEN, 2);
        enumMapClone.remove(Color.RED);
        enumMap.put(Color.BLACK, 4);
        System.out.println("  each changed: " + enumMap + " " + enumMapClone + " iterator " + beforeEnum.next());
        EnumMap<Color, String> plainEnumMap = new EnumMap<>(Color.class);
        plainEnumMap.put(Color.GREEN, "g");
        EnumMap<Color, String> plainEnumMapClone = plainEnumMap.clone();
        plainEnumMapClone.put(Color.GREEN, "G");
        System.out.println("EnumMap: " + plainEnumMapClone.getClass().getName() + " " + plainEnumMap + " " + plainEnumMapClone);
        EnumSet<Color> enumSet = EnumSet.of(Color.RED, Color.BLUE);
        EnumSet<Color> enumSetClone = enumSet.clone();
        enumSetClone.add(Color.GREEN);
        enumSet.remove(Color.RED);
        System.out.println("EnumSet: " + enumSet + " " + enumSetClone);

        Properties defaults = new Properties();
        defaults.setProperty("colour", "red");
        MyProperties props = new MyProperties(defaults);
        props.setProperty("name", "rvm");
        props.setProperty("size", "3");
        props.tag = "properties*";
        MyProperties propsClone = props.clone();
        System.out.println("Properties subclass: " + propsClone.getClass().getName() + " tag " + propsClone.tag + " " + show(propsClone, true)
            + " equal " + propsClone.equals(props) + " default " + propsClone.getProperty("colour"));
        propsClone.setProperty("name", "clone");
        propsClone.remove("size");
        props.setProperty("extra", "yes");
        defaults.setProperty("colour", "blue");
        System.out.println("  each changed: " + show(props, true) + " " + show(propsClone, true) + " defaults shared: " + props.getProperty("colour") + " " + propsClone.getProperty("colour")
            + " names " + new TreeSet<>(propsClone.stringPropertyNames()));
        Properties plainProps = new Properties();
        plainProps.setProperty("a", "1");
        Properties plainPropsClone = (Properties) plainProps.clone();
        plainPropsClone.setProperty("b", "2");
        System.out.println("Properties: " + plainPropsClone.getClass().getName() + " " + plainProps + " " + show(plainPropsClone, true));

        MyDate date = new MyDate(1_000_000L);
        date.tag = "date*";
        MyDate dateClone = date.clone();
        System.out.println("Date subclass: " + dateClone.getClass().getName() + " tag " + dateClone.tag + " " + dateClone.getTime() + " equal " + dateClone.equals(date));
        dateClone.setTime(5L);
        System.out.println("  clone set: " + date.getTime() + " " + dateClone.getTime());
        Date plainDate = new Date(42L);
        Date plainDateClone = (Date) plainDate.clone();
        plainDate.setTime(43L);
        System.out.println("Date: " + plainDateClone.getClass().getName() + " " + plainDate.getTime() + " " + plainDateClone.getTime());

        MyTimestamp stamp = new MyTimestamp(1_000_000L);
        stamp.setNanos(123_456_789);
        stamp.tag = "timestamp*";
        MyTimestamp stampClone = stamp.clone();
        System.out.println("Timestamp subclass: " + stampClone.getClass().getName() + " tag " + stampClone.tag + " " + stampClone.getTime() + " "
            + stampClone.getNanos() + " equal " + stampClone.equals(stamp));
        stampClone.setNanos(5);
        System.out.println("  clone set: " + stamp.getNanos() + " " + stampClone.getNanos());
        java.sql.Timestamp plainStamp = new java.sql.Timestamp(2_000L);
        plainStamp.setNanos(7);
        java.sql.Timestamp plainStampClone = (java.sql.Timestamp) plainStamp.clone();
        plainStamp.setNanos(8);
        System.out.println("Timestamp: " + plainStampClone.getClass().getName() + " " + plainStamp.getNanos() + " " + plainStampClone.getNanos());

        MyZipEntry entry = new MyZipEntry("dir/file.txt");
        entry.setSize(42);
        entry.setComment("note");
        entry.setExtra(new byte[] { (byte) 0xFE, (byte) 0xCA, 2, 0, 1, 2 });
        entry.tag = "zipentry*";
        MyZipEntry entryClone = entry.clone();
        System.out.println("ZipEntry subclass: " + entryClone.getClass().getName() + " tag " + entryClone.tag + " " + entryClone.getName() + " "
            + entryClone.getSize() + " " + entryClone.getComment() + " extra " + Arrays.toString(entryClone.getExtra())
            + " own copy " + (entryClone.getExtra() != entry.getExtra()));
        entryClone.getExtra()[4] = 9;
        entryClone.setSize(7);
        System.out.println("  clone changed: " + entry.getSize() + " " + Arrays.toString(entry.getExtra()) + " " + entryClone.getSize() + " " + Arrays.toString(entryClone.getExtra()));
        java.util.zip.ZipEntry plainEntry = new java.util.zip.ZipEntry("a");
        java.util.zip.ZipEntry plainEntryClone = (java.util.zip.ZipEntry) plainEntry.clone();
        System.out.println("ZipEntry: " + plainEntryClone.getClass().getName() + " " + plainEntryClone.getName() + " " + plainEntryClone.getExtra());
    }
}
