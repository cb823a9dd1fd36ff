package java.lang;

import java.util.Iterator;

public interface Iterable<T> {
    Iterator<T> iterator();
    default void forEach(java.util.function.Consumer<? super T> action) {
        java.util.Objects.requireNonNull(action);
        for (T t : this) action.accept(t);
    }
}
