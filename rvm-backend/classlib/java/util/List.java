package java.util;

public interface List<E> extends Collection<E> {
    E get(int index);
    E set(int index, E element);
    void add(int index, E element);
    E remove(int index);
    int indexOf(Object o);
    int lastIndexOf(Object o);
    ListIterator<E> listIterator();
    ListIterator<E> listIterator(int index);
    List<E> subList(int fromIndex, int toIndex);
    boolean addAll(int index, Collection<? extends E> c);
    @SuppressWarnings({"unchecked", "rawtypes"})
    default void sort(Comparator<? super E> c) {
        Object[] a = this.toArray();
        Arrays.sort(a, (Comparator) c);
        ListIterator<E> i = this.listIterator();
        for (Object e : a) { i.next(); i.set((E) e); }
    }
    default void replaceAll(java.util.function.UnaryOperator<E> operator) {
        Objects.requireNonNull(operator);
        final ListIterator<E> li = this.listIterator();
        while (li.hasNext()) li.set(operator.apply(li.next()));
    }
    @SafeVarargs
    @SuppressWarnings("unchecked")
    static <E> List<E> of(E... elements) {
        for (E e : elements) Objects.requireNonNull(e);
        return Collections.unmodifiableList(new ArrayList<E>(Arrays.asList(elements)));
    }
    // The fixed-arity overloads javac picks for up to 10 elements (JDK signatures).
    @SuppressWarnings("unchecked")
    static <E> List<E> of() { return of((E[]) new Object[] {  }); }
    @SuppressWarnings("unchecked")
    static <E> List<E> of(E e1) { return of((E[]) new Object[] { e1 }); }
    @SuppressWarnings("unchecked")
    static <E> List<E> of(E e1, E e2) { return of((E[]) new Object[] { e1, e2 }); }
    @SuppressWarnings("unchecked")
    static <E> List<E> of(E e1, E e2, E e3) { return of((E[]) new Object[] { e1, e2, e3 }); }
    @SuppressWarnings("unchecked")
    static <E> List<E> of(E e1, E e2, E e3, E e4) { return of((E[]) new Object[] { e1, e2, e3, e4 }); }
    @SuppressWarnings("unchecked")
    static <E> List<E> of(E e1, E e2, E e3, E e4, E e5) { return of((E[]) new Object[] { e1, e2, e3, e4, e5 }); }
    @SuppressWarnings("unchecked")
    static <E> List<E> of(E e1, E e2, E e3, E e4, E e5, E e6) { return of((E[]) new Object[] { e1, e2, e3, e4, e5, e6 }); }
    @SuppressWarnings("unchecked")
    static <E> List<E> of(E e1, E e2, E e3, E e4, E e5, E e6, E e7) { return of((E[]) new Object[] { e1, e2, e3, e4, e5, e6, e7 }); }
    @SuppressWarnings("unchecked")
    static <E> List<E> of(E e1, E e2, E e3, E e4, E e5, E e6, E e7, E e8) { return of((E[]) new Object[] { e1, e2, e3, e4, e5, e6, e7, e8 }); }
    @SuppressWarnings("unchecked")
    static <E> List<E> of(E e1, E e2, E e3, E e4, E e5, E e6, E e7, E e8, E e9) { return of((E[]) new Object[] { e1, e2, e3, e4, e5, e6, e7, e8, e9 }); }
    @SuppressWarnings("unchecked")
    static <E> List<E> of(E e1, E e2, E e3, E e4, E e5, E e6, E e7, E e8, E e9, E e10) { return of((E[]) new Object[] { e1, e2, e3, e4, e5, e6, e7, e8, e9, e10 }); }
    static <E> List<E> copyOf(Collection<? extends E> coll) { return Collections.unmodifiableList(new ArrayList<E>(coll)); }
}
