package java.lang;

/** The superclass of every record; javac gives each record its toString, equals and hashCode
 *  through an invokedynamic of ObjectMethods.bootstrap, which rvm links itself. */
public abstract class Record {
    protected Record() {}
    @Override public abstract boolean equals(Object obj);
    @Override public abstract int hashCode();
    @Override public abstract String toString();
}
