// The only thread sleeps while every processor is idle: nothing but the sleeper's deadline wakes
// the processors (rvm's agent tests wake a service thread at that moment).
public class Sleep {
    public static void main(String[] args) throws Exception {
        long t0 = System.nanoTime();
        System.out.println("sleeping");
        Thread.sleep(1500);
        System.out.println("slept at least 1500 ms: " + ((System.nanoTime() - t0) >= 1500_000_000L));
    }
}
