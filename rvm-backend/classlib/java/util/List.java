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
    static <E> List<E> copyOf(Collection<? extends E> coll) { return Collections.unmodifiableList(new ArrayList<E>(coll)); }
}
