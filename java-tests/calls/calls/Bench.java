package calls;

/** Call-heavy benchmark: fib(n) recursively (adding through add(), which the JIT inlines), `reps` times. Args: n reps (default 27 10). */
public class Bench {
    static int add(int a, int b) { return a + b; }

    static int fib(int n) { return n < 2 ? n : add(fib(n - 1), fib(n - 2)); }

    /** With -Dhpm.pause=true: pause the agent from Java before the work (hpmagent.Agent.pause()). */
    static void pauseAgent() {
        if (!hpmagent.Agent.pause()) throw new IllegalStateException("agent was not recording");
    }

    public static void main(String[] args) {
        if (Boolean.getBoolean("hpm.pause")) pauseAgent();
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 27;
        int reps = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        long s = 0;
        for (int i = 0; i < reps; i++) s += fib(n);
        System.out.println("bench " + s);
    }
}
