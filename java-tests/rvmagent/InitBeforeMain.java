/** A main class whose static initialiser calls a static method. HotSpot's launcher initialises the
 * main class before it calls {@code main} (JNI GetStaticMethodID), so the main thread enters and
 * leaves {@code <clinit>} (with {@code setUp} under it) and only then enters {@code main}: the two
 * are siblings at the root of its call tree. rvm must report the same events. */
public class InitBeforeMain {
    static final int[] TABLE = setUp(4);

    static int[] setUp(int n) {
        int[] t = new int[n];
        for (int i = 0; i < n; i++) {
            t[i] = i * i;
        }
        return t;
    }

    public static void main(String[] args) {
        System.out.println("table " + TABLE[3]);
    }
}
