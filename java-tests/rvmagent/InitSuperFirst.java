/** The main class and its superclass both have static initialisers: the launcher initialises the
 * superclass, then the main class, then calls {@code main}. */
public class InitSuperFirst extends InitSuperFirstBase {
    static {
        System.out.println("InitSuperFirst.<clinit>");
    }

    public static void main(String[] args) {
        System.out.println("main");
    }
}

class InitSuperFirstBase {
    static {
        System.out.println("InitSuperFirstBase.<clinit>");
    }
}
