package java.util;

/**
 * A 128-bit universally unique identifier, as the JDK's: the layout, text form, ordering and
 * hash of {@code java.util.UUID}. rvm: {@code randomUUID} draws from a Random seeded from the
 * clock (no SecureRandom); name-based UUIDs (MD5) are not supported.
 */
public final class UUID implements java.io.Serializable, Comparable<UUID> {
    private static final Random RANDOM = new Random(System.nanoTime() ^ 0x5DEECE66DL);
    private final long mostSigBits, leastSigBits;

    public UUID(long mostSigBits, long leastSigBits) {
        this.mostSigBits = mostSigBits;
        this.leastSigBits = leastSigBits;
    }

    public static UUID randomUUID() {
        byte[] b = new byte[16];
        synchronized (RANDOM) {
            RANDOM.nextBytes(b);
        }
        b[6] = (byte) ((b[6] & 0x0f) | 0x40);
        b[8] = (byte) ((b[8] & 0x3f) | 0x80);
        long msb = 0, lsb = 0;
        for (int i = 0; i < 8; i++) msb = (msb << 8) | (b[i] & 0xff);
        for (int i = 8; i < 16; i++) lsb = (lsb << 8) | (b[i] & 0xff);
        return new UUID(msb, lsb);
    }

    public static UUID nameUUIDFromBytes(byte[] name) {
        throw new UnsupportedOperationException("rvm: name-based UUIDs (MD5) are not supported");
    }

    public static UUID fromString(String name) {
        String[] c = name.split("-");
        if (c.length != 5 || name.length() > 36) throw new IllegalArgumentException("Invalid UUID string: " + name);
        long msb = Long.parseLong(c[0], 16);
        msb = (msb << 16) | Long.parseLong(c[1], 16);
        msb = (msb << 16) | Long.parseLong(c[2], 16);
        long lsb = Long.parseLong(c[3], 16);
        lsb = (lsb << 48) | Long.parseLong(c[4], 16);
        return new UUID(msb, lsb);
    }

    public long getLeastSignificantBits() { return leastSigBits; }
    public long getMostSignificantBits() { return mostSigBits; }
    public int version() { return (int) ((mostSigBits >> 12) & 0x0f); }
    public int variant() {
        return (int) ((leastSigBits >>> (64 - (leastSigBits >>> 62))) & (leastSigBits >> 63));
    }

    private static String digits(long val, int n) {
        long hi = 1L << (n * 4);
        return Long.toHexString(hi | (val & (hi - 1))).substring(1);
    }

    public String toString() {
        return digits(mostSigBits >> 32, 8) + "-" + digits(mostSigBits >> 16, 4) + "-" + digits(mostSigBits, 4) + "-"
                + digits(leastSigBits >> 48, 4) + "-" + digits(leastSigBits, 12);
    }

    public int hashCode() {
        long x = mostSigBits ^ leastSigBits;
        return ((int) (x >> 32)) ^ (int) x;
    }

    public boolean equals(Object obj) {
        if (!(obj instanceof UUID)) return false;
        UUID id = (UUID) obj;
        return mostSigBits == id.mostSigBits && leastSigBits == id.leastSigBits;
    }

    public int compareTo(UUID val) {
        int mostSigBits = Long.compare(this.mostSigBits, val.mostSigBits);
        return mostSigBits != 0 ? mostSigBits : Long.compare(this.leastSigBits, val.leastSigBits);
    }
}
