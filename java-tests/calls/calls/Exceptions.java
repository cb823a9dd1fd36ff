package calls;

/** An exception thrown three frames down (thrower <- middle <- upper), caught in catcher; 4 times. */
public class Exceptions {
    static int caught;

    static void thrower(int i) {
        throw new IllegalStateException("boom " + i);
    }

    static void middle(int i) { thrower(i); }

    static void upper(int i) { middle(i); }

    static void catcher(int i) {
        try {
            upper(i);
        } catch (IllegalStateException e) {
            caught++;
        }
    }

    public static void main(String[] args) {
        for (int i = 0; i < 4; i++) {
            catcher(i);
        }
        after();
        System.out.println("exceptions " + caught);
    }

    static void after() { caught += 0; }
}
