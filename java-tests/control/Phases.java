import java.io.BufferedReader;
import java.io.InputStreamReader;

/**
 * A program driven from stdin, for testing collection windows: each line names a phase, the program
 * runs that phase's method a fixed number of times and prints "done <phase>". "quit" ends it.
 * phaseA: 10 calls of workA, phaseB: 20 calls of workB, phaseC: 30 calls of workC, each workX
 * calling leaf() once.
 */
public class Phases {
    static long sink;

    static void leaf(int i) { sink += i; }
    static void workA(int i) { leaf(i); }
    static void workB(int i) { leaf(i); }
    static void workC(int i) { leaf(i); }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        System.out.println("ready");
        System.out.flush();
        String line;
        while ((line = in.readLine()) != null) {
            line = line.trim();
            if (line.equals("quit")) break;
            switch (line) {
                case "A": for (int i = 0; i < 10; i++) workA(i); break;
                case "B": for (int i = 0; i < 20; i++) workB(i); break;
                case "C": for (int i = 0; i < 30; i++) workC(i); break;
                case "spin":
                    // Call-heavy work for speed comparisons: many tiny calls.
                    for (int i = 0; i < 500_000_000; i++) leaf(i);
                    break;
                default: System.out.println("unknown " + line);
            }
            System.out.println("done " + line);
            System.out.flush();
        }
        System.out.println("sink " + sink);
    }
}
