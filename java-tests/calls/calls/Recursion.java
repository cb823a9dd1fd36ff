package calls;

/** Direct recursion (fact 10 deep) and mutual recursion (isEven/isOdd of 6). */
public class Recursion {
    static long fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }

    static boolean isEven(int n) { return n == 0 || isOdd(n - 1); }

    static boolean isOdd(int n) { return n != 0 && isEven(n - 1); }

    public static void main(String[] args) {
        long f = fact(10);
        boolean e = isEven(6);
        System.out.println("recursion " + f + " " + e);
    }
}
