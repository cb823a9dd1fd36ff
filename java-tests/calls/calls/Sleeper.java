package calls;

/** Prints "ready" then sleeps in nap() for a minute (the test sends SIGTERM). */
public class Sleeper {
    static void nap() throws InterruptedException { Thread.sleep(60_000); }

    static void before() { }

    public static void main(String[] args) throws Exception {
        before();
        System.out.println("ready");
        System.out.flush();
        nap();
    }
}
