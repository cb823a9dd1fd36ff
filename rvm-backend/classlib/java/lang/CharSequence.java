package java.lang;

public interface CharSequence {
    int length();
    char charAt(int index);
    CharSequence subSequence(int start, int end);
    String toString();
    default boolean isEmpty() { return length() == 0; }
    default java.util.stream.IntStream chars() {
        return java.util.stream.IntStream.range(0, length()).map(this::charAt);
    }
    default java.util.stream.IntStream codePoints() { return toString().codePoints(); }
    static int compare(CharSequence cs1, CharSequence cs2) {
        if (cs1 == cs2) return 0;
        for (int i = 0, len = Math.min(cs1.length(), cs2.length()); i < len; i++) {
            char a = cs1.charAt(i);
            char b = cs2.charAt(i);
            if (a != b) return a - b;
        }
        return cs1.length() - cs2.length();
    }
}
