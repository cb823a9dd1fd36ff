package java.security;

import jdk.internal.rvm.FileIO;

/**
 * Random bytes from the kernel ({@code /dev/urandom}) for every algorithm name rvm accepts
 * ({@code NativePRNG}, {@code NativePRNGBlocking}, {@code NativePRNGNonBlocking}, {@code SHA1PRNG},
 * {@code DRBG}); a seed given with {@code setSeed} is accepted and, as with the JDK's NativePRNG,
 * only adds to the kernel's randomness (the output is never reproducible). No providers.
 */
public class SecureRandom extends java.util.Random {
    private static final String[] ALGORITHMS = { "NativePRNG", "NativePRNGBlocking", "NativePRNGNonBlocking", "SHA1PRNG", "DRBG" };
    private static int urandom = -1;
    private final String algorithm;

    public SecureRandom() { this("NativePRNG"); }
    public SecureRandom(byte[] seed) {
        this("NativePRNG");
        setSeed(seed);
    }
    private SecureRandom(String algorithm) {
        super(0);
        this.algorithm = algorithm;
    }

    public static SecureRandom getInstance(String algorithm) throws NoSuchAlgorithmException {
        if (algorithm == null) throw new NullPointerException("null algorithm name");
        for (String a : ALGORITHMS) if (a.equalsIgnoreCase(algorithm)) return new SecureRandom(a);
        throw new NoSuchAlgorithmException(algorithm + " SecureRandom not available");
    }
    public static SecureRandom getInstanceStrong() throws NoSuchAlgorithmException { return new SecureRandom("NativePRNGBlocking"); }

    public String getAlgorithm() { return algorithm; }
    public void setSeed(byte[] seed) {
        if (seed == null) throw new NullPointerException();
    }
    @Override
    public void setSeed(long seed) {}

    @Override
    public void nextBytes(byte[] bytes) { fill(bytes); }
    public byte[] generateSeed(int numBytes) {
        if (numBytes < 0) throw new IllegalArgumentException("numBytes cannot be negative");
        byte[] b = new byte[numBytes];
        fill(b);
        return b;
    }
    public static byte[] getSeed(int numBytes) { return new SecureRandom().generateSeed(numBytes); }

    @Override
    protected final int next(int numBits) {
        int numBytes = (numBits + 7) / 8;
        byte[] b = new byte[numBytes];
        int next = 0;
        fill(b);
        for (int i = 0; i < numBytes; i++) next = (next << 8) + (b[i] & 0xFF);
        return next >>> (numBytes * 8 - numBits);
    }

    private static synchronized void fill(byte[] b) {
        if (urandom < 0) urandom = FileIO.open("/dev/urandom", 0);
        int off = 0;
        while (off < b.length) {
            int n = FileIO.read(urandom, b, off, b.length - off);
            if (n <= 0) throw new ProviderException("rvm: reading /dev/urandom failed");
            off += n;
        }
    }

    @Override
    public String toString() { return algorithm; }
}
