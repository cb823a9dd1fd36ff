package java.util;

/** A bit vector over the enum's constants (any number of them); iterates in ordinal order. */
public class EnumSet<E extends Enum<E>> extends AbstractSet<E> implements Cloneable, java.io.Serializable {
    final Class<E> elementType;
    final E[] universe;
    private long[] bits;
    private int size;

    EnumSet(Class<E> elementType, E[] universe) {
        this.elementType = elementType;
        this.universe = universe;
        bits = new long[(universe.length + 63) >>> 6];
    }
    private static <E extends Enum<E>> E[] universe(Class<E> elementType) {
        E[] u = elementType.getEnumConstants();
        if (u == null) throw new ClassCastException(elementType + " not an enum");
        return u;
    }
    public static <E extends Enum<E>> EnumSet<E> noneOf(Class<E> elementType) { return new EnumSet<>(elementType, universe(elementType)); }
    public static <E extends Enum<E>> EnumSet<E> allOf(Class<E> elementType) {
        EnumSet<E> s = noneOf(elementType);
        for (E e : s.universe) s.add(e);
        return s;
    }
    public static <E extends Enum<E>> EnumSet<E> copyOf(EnumSet<E> s) { return s.clone(); }
    public static <E extends Enum<E>> EnumSet<E> copyOf(Collection<E> c) {
        if (c instanceof EnumSet) return ((EnumSet<E>) c).clone();
        if (c.isEmpty()) throw new IllegalArgumentException("Collection is empty");
        Iterator<E> i = c.iterator();
        E first = i.next();
        EnumSet<E> result = EnumSet.of(first);
        while (i.hasNext()) result.add(i.next());
        return result;
    }
    public static <E extends Enum<E>> EnumSet<E> complementOf(EnumSet<E> s) {
        EnumSet<E> r = noneOf(s.elementType);
        for (E e : s.universe) if (!s.contains(e)) r.add(e);
        return r;
    }
    public static <E extends Enum<E>> EnumSet<E> of(E e) {
        EnumSet<E> result = noneOf(e.getDeclaringClass());
        result.add(e);
        return result;
    }
    public static <E extends Enum<E>> EnumSet<E> of(E e1, E e2) { EnumSet<E> r = of(e1); r.add(e2); return r; }
    public static <E extends Enum<E>> EnumSet<E> of(E e1, E e2, E e3) { EnumSet<E> r = of(e1, e2); r.add(e3); return r; }
    public static <E extends Enum<E>> EnumSet<E> of(E e1, E e2, E e3, E e4) { EnumSet<E> r = of(e1, e2, e3); r.add(e4); return r; }
    public static <E extends Enum<E>> EnumSet<E> of(E e1, E e2, E e3, E e4, E e5) { EnumSet<E> r = of(e1, e2, e3, e4); r.add(e5); return r; }
    @SafeVarargs
    public static <E extends Enum<E>> EnumSet<E> of(E first, E... rest) {
        EnumSet<E> result = noneOf(first.getDeclaringClass());
        result.add(first);
        for (E e : rest) result.add(e);
        return result;
    }
    public static <E extends Enum<E>> EnumSet<E> range(E from, E to) {
        if (from.compareTo(to) > 0) throw new IllegalArgumentException(from + " > " + to);
        EnumSet<E> result = noneOf(from.getDeclaringClass());
        for (int i = from.ordinal(); i <= to.ordinal(); i++) result.add(result.universe[i]);
        return result;
    }
    private boolean valid(Object e) {
        if (e == null) return false;
        Class<?> c = e.getClass();
        return c == elementType || c.getSuperclass() == elementType;
    }
    public int size() { return size; }
    public boolean contains(Object e) {
        if (!valid(e)) return false;
        int o = ((Enum<?>) e).ordinal();
        return (bits[o >>> 6] & (1L << o)) != 0;
    }
    public boolean add(E e) {
        if (e == null) throw new NullPointerException();
        if (!valid(e)) throw new ClassCastException(e.getClass() + " != " + elementType);
        int o = e.ordinal();
        long old = bits[o >>> 6];
        bits[o >>> 6] |= (1L << o);
        if (old == bits[o >>> 6]) return false;
        size++;
        return true;
    }
    public boolean remove(Object e) {
        if (!valid(e)) return false;
        int o = ((Enum<?>) e).ordinal();
        long old = bits[o >>> 6];
        bits[o >>> 6] &= ~(1L << o);
        if (old == bits[o >>> 6]) return false;
        size--;
        return true;
    }
    public void clear() {
        Arrays.fill(bits, 0);
        size = 0;
    }
    public Iterator<E> iterator() {
        return new Iterator<E>() {
            int next = advance(0);
            int last = -1;
            int advance(int i) {
                while (i < universe.length && (bits[i >>> 6] & (1L << i)) == 0) i++;
                return i;
            }
            public boolean hasNext() { return next < universe.length; }
            public E next() {
                if (!hasNext()) throw new NoSuchElementException();
                last = next;
                next = advance(next + 1);
                return universe[last];
            }
            public void remove() {
                if (last < 0) throw new IllegalStateException();
                EnumSet.this.remove(universe[last]);
                last = -1;
            }
        };
    }
    /** Object.clone with its own bits. */
    @SuppressWarnings("unchecked")
    public EnumSet<E> clone() {
        try {
            EnumSet<E> s = (EnumSet<E>) super.clone();
            s.bits = bits.clone();
            return s;
        } catch (CloneNotSupportedException e) {
            throw new InternalError(e);
        }
    }
}
