package java.util.zip;

/** CRC-32 (the zip polynomial, reflected), computed in Java with a 256-entry table. */
public class CRC32 implements Checksum {
    private static final int[] TABLE = new int[256];
    static {
        for (int n = 0; n < 256; n++) {
            int c = n;
            for (int k = 0; k < 8; k++) c = (c & 1) != 0 ? 0xEDB88320 ^ (c >>> 1) : c >>> 1;
            TABLE[n] = c;
        }
    }
    private int crc;
    public CRC32() {}
    public void update(int b) {
        int c = ~crc;
        c = TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
        crc = ~c;
    }
    public void update(byte[] b, int off, int len) {
        java.util.Objects.checkFromIndexSize(off, len, b.length);
        int c = ~crc;
        for (int i = off; i < off + len; i++) c = TABLE[(c ^ b[i]) & 0xff] ^ (c >>> 8);
        crc = ~c;
    }
    public void reset() { crc = 0; }
    public long getValue() { return (long) crc & 0xffffffffL; }
}
