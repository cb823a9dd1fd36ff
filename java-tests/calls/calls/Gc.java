package calls;

/** Calls System.gc() exactly 5 times from collect(). */
public class Gc {
    static void collect() { System.gc(); }

    public static void main(String[] args) {
        for (int i = 0; i < 5; i++) {
            collect();
        }
        System.out.println("gc done");
    }
}
