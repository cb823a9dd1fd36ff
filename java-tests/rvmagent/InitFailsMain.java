/** The main class's static initialiser throws: HotSpot's launcher reports the
 * ExceptionInInitializerError as an uncaught exception of thread "main" (with no frame of its own,
 * {@code main} never ran) and exits with code 1. */
public class InitFailsMain {
    static int value = fail();

    static int fail() {
        throw new IllegalStateException("static initialiser fails");
    }

    public static void main(String[] args) {
        System.out.println("main ran: " + value);
    }
}
