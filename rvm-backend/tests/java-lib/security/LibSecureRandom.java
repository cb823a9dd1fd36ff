import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;

/** SecureRandom: the usual algorithm names, an unknown one refused, bytes, seeds and numbers in their ranges. */
public class LibSecureRandom {
    public static void main(String[] args) throws Exception {
        for (String alg : new String[] {"SHA1PRNG", "NativePRNG", "NoSuchPRNG"}) {
            try {
                SecureRandom r = SecureRandom.getInstance(alg);
                System.out.println(alg + ": " + r.getAlgorithm());
            } catch (NoSuchAlgorithmException e) {
                System.out.println(alg + ": " + e.getMessage());
            }
        }
        SecureRandom r = new SecureRandom();
        r.setSeed(new byte[] {1, 2, 3});
        byte[] seed = r.generateSeed(20);
        byte[] bytes = new byte[64];
        r.nextBytes(bytes);
        int nonZero = 0;
        for (byte b : bytes) if (b != 0) nonZero++;
        System.out.println("seed " + seed.length + ", bytes mostly non-zero " + (nonZero > 32));
        boolean inRange = true;
        long distinct = 0, last = 0;
        for (int i = 0; i < 1000; i++) {
            int n = r.nextInt(10);
            double d = r.nextDouble();
            long l = r.nextLong();
            if (l != last) distinct++;
            last = l;
            inRange &= n >= 0 && n < 10 && d >= 0 && d < 1;
        }
        System.out.println("in range " + inRange + ", longs differ " + (distinct > 990));
        try {
            r.generateSeed(-1);
        } catch (IllegalArgumentException e) {
            System.out.println("negative: " + e.getMessage());
        }
    }
}
