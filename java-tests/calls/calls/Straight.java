package calls;

/** Straight calls: main -> run -> a (x3) -> b (x2 each), c (x1). Exact counts. */
public class Straight {
    static int sink;

    static void b(int i) { sink += i; }

    static void a() {
        b(1);
        b(2);
    }

    static void c() { sink *= 3; }

    static void run() {
        for (int i = 0; i < 3; i++) {
            a();
        }
        c();
    }

    public static void main(String[] args) {
        run();
        System.out.println("straight " + sink);
    }
}
