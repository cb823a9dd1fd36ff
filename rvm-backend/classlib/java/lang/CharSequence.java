package java.lang;

public interface CharSequence {
    int length();
    char charAt(int index);
    String toString();
    default boolean isEmpty() { return length() == 0; }
}
