package itest;

/** tableswitch and lookupswitch (whose padding depends on their new offset), returns in every case. */
public class Switches {
    static int sink;

    public static void scenario() {
        for (int k = -1; k <= 4; k++) {
            sink += table(k);
        }
        for (int k : new int[] {-100, 7, 100000, 8}) {
            sink += lookup(k);
        }
        for (String s : new String[] {"a", "bb", "zz"}) {
            sink += str(s);
        }
    }

    static int table(int k) {
        switch (k) {
            case 0: return 10;
            case 1: return 11;
            case 2: return 12;
            case 3: return 13;
            default: return -1;
        }
    }

    static int lookup(int k) {
        switch (k) {
            case -100: return 1;
            case 7: return 2;
            case 100000: return 3;
            default: return 0;
        }
    }

    static int str(String s) {
        switch (s) {
            case "a": return 1;
            case "bb": return 2;
            default: return 3;
        }
    }
}
