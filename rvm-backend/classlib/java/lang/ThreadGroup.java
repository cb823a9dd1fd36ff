package java.lang;

public class ThreadGroup {
    static final ThreadGroup MAIN = new ThreadGroup("main");
    private final String name;
    public ThreadGroup(String name) { this.name = name; }
    public final String getName() { return name; }
}
