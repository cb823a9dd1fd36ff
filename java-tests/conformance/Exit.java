public class Exit {
    public static void main(String[] args) throws Exception {
        Thread t = new Thread(new Runnable() {
            public void run() { try { Thread.sleep(1000000); } catch (InterruptedException e) { } }
        });
        t.start();
        System.out.println("exiting with 3");
        System.exit(3);
        System.out.println("not reached");
    }
}
