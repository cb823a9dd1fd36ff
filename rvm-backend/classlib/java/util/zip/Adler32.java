package java.util.zip;

public class Adler32 implements Checksum {
    private static final int BASE = 65521;
    private int adler = 1;
    public Adler32() {}
    public void update(int b) {
        int s1 = adler & 0xffff, s2 = adler >>> 16;
        s1 = (s1 + (b & 0xff)) % BASE;
        s2 = (s2 + s1) % BASE;
        adler = (s2 << 16) | s1;
    }
    public void update(byte[] b, int off, int len) {
        java.util.Objects.checkFromIndexSize(off, len, b.length);
        for (int i = off; i < off + len; i++) update(b[i]);
    }
    public void reset() { adler = 1; }
    public long getValue() { return (long) adler & 0xffffffffL; }
}
