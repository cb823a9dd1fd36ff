package calls;

/**
 * Two lambdas used as monitors: each is a class of its own (a hidden class), and the wait tree must
 * keep them apart on every JDK (JDK 21+ gives all lambda classes of Lambdas the same name).
 */
public class Lambdas {
    public static void main(String[] args) throws Exception {
        Runnable first = () -> {};
        Runnable second = () -> {};
        synchronized (first) { first.wait(10); }
        for (int i = 0; i < 2; i++) {
            synchronized (second) { second.wait(10); }
        }
        first.run();
        second.run();
        System.out.println("lambdas");
    }
}
