package java.lang;

public interface Appendable {
    Appendable append(CharSequence csq);
    Appendable append(char c);
}
