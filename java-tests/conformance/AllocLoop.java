public class AllocLoop {
    public static void main(String[] args) {
        long limitMb = Long.parseLong(args[0]);
        long target = 50 * limitMb * 1024 * 1024;
        long allocated = 0;
        long sum = 0;
        int[] keep = new int[16];
        while (allocated < target) {
            int[] a = new int[250];
            a[(int) (allocated & 127)] = (int) allocated;
            sum += a.length;
            allocated += 1016;
            Object small = new Object[] { a, null };
            if ((allocated & 0xfffff) == 0) keep[(int) (allocated >> 20) & 15] = small.hashCode() & 1;
        }
        System.out.println("allocated at least " + (allocated >> 20) + " MB, sum " + sum);
    }
}
