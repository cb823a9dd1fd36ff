package bench;

/**
 * Runs another program's main and prints when it started and ended ("phases START END", epoch ms),
 * so that bench/paused-phases.sh can split a run into start-up, the program's own work and exit.
 * Args: CLASS ARGS...
 */
public class Phases {
    public static void main(String[] args) throws Exception {
        String[] rest = java.util.Arrays.copyOfRange(args, 1, args.length);
        java.lang.reflect.Method main = Class.forName(args[0]).getMethod("main", String[].class);
        long start = System.currentTimeMillis();
        main.invoke(null, (Object) rest);
        long end = System.currentTimeMillis();
        System.out.println("phases " + start + " " + end);
    }
}
