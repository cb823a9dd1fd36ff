import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/** Deflater: zlib and raw streams at every level, in one call and in small steps, read back by Inflater. */
public class LibDeflate {
    static byte[] words(int size, long seed) {
        byte[] b = new byte[size];
        long x = seed;
        for (int i = 0; i < size; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            int r = (int) (x & 31);
            b[i] = (byte) (r < 26 ? 'a' + r : ' ');
        }
        return b;
    }

    static byte[] deflate(byte[] in, int level, boolean nowrap, int chunk) {
        Deflater d = new Deflater(level, nowrap);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[chunk];
        int fed = 0;
        while (!d.finished()) {
            if (d.needsInput() && fed < in.length) {
                int n = Math.min(chunk, in.length - fed);
                d.setInput(in, fed, n);
                fed += n;
                if (fed == in.length) d.finish();
            } else if (fed == in.length) {
                d.finish();
            }
            int n = d.deflate(buf);
            out.write(buf, 0, n);
        }
        if (d.getBytesRead() != in.length || d.getTotalIn() != in.length || d.getBytesWritten() != out.size()) throw new AssertionError("counts");
        d.end();
        return out.toByteArray();
    }

    static byte[] inflate(byte[] in, boolean nowrap, int expected) throws DataFormatException {
        Inflater inf = new Inflater(nowrap);
        inf.setInput(in);
        byte[] out = new byte[expected + 16];
        int n = 0;
        while (!inf.finished()) n += inf.inflate(out, n, out.length - n);
        inf.end();
        return Arrays.copyOf(out, n);
    }

    public static void main(String[] args) throws Exception {
        byte[] text = words(200_000, 88172645463325252L);
        byte[] repetitive = new byte[50_000];
        for (int i = 0; i < repetitive.length; i++) repetitive[i] = (byte) "abcabcabd".charAt(i % 9);
        for (byte[] input : new byte[][] {text, repetitive, new byte[0], "x".getBytes()}) {
            CRC32 crc = new CRC32();
            crc.update(input);
            StringBuilder line = new StringBuilder("input " + input.length + " crc " + Long.toHexString(crc.getValue()) + ":");
            for (int level : new int[] {Deflater.DEFAULT_COMPRESSION, 0, 1, 6, 9}) {
                for (boolean nowrap : new boolean[] {false, true}) {
                    byte[] whole = deflate(input, level, nowrap, Math.max(1, input.length + 1024));
                    byte[] steps = deflate(input, level, nowrap, 777);
                    boolean back = Arrays.equals(inflate(whole, nowrap, input.length), input) && Arrays.equals(inflate(steps, nowrap, input.length), input);
                    boolean smaller = level == 0 || input.length < 100 || whole.length < input.length;
                    line.append(' ').append(level).append(nowrap ? "r" : "z").append(back ? "=" : "!").append(smaller ? "" : "?");
                }
            }
            System.out.println(line);
        }
        // a zlib stream starts with the zlib header (78 and a level byte), a raw one does not
        byte[] z = deflate(text, 9, false, 1 << 20);
        System.out.println("zlib header " + Integer.toHexString(z[0] & 0xff) + " check " + (((z[0] & 0xff) << 8 | (z[1] & 0xff)) % 31 == 0));
        Deflater d = new Deflater();
        d.setInput("hello hello hello".getBytes());
        byte[] out = new byte[100];
        int n = d.deflate(out, 0, out.length, Deflater.SYNC_FLUSH);
        System.out.println("sync flush wrote bytes " + (n > 0) + " finished " + d.finished() + " needs input " + d.needsInput());
        d.finish();
        int m = d.deflate(out, n, out.length - n);
        System.out.println("then finished " + d.finished() + " reads back " + new String(inflate(Arrays.copyOf(out, n + m), false, 17)));
        d.reset();
        System.out.println("after reset: finished " + d.finished() + " read " + d.getBytesRead());
        d.end();
        try {
            d.deflate(out);
        } catch (NullPointerException | IllegalStateException e) {
            // JDK 17 throws the one, JDK 21+ the other
            System.out.println("deflate after end refused");
        }
        try {
            new Deflater(12);
        } catch (IllegalArgumentException e) {
            System.out.println("level 12: IllegalArgumentException");
        }
    }
}
