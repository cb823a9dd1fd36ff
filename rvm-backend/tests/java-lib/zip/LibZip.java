import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FileInputStream;
import java.io.InputStream;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import java.util.zip.InflaterInputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * java.util.zip: every archive given is read entry by entry with ZipInputStream (stored and
 * deflated entries, with and without data descriptors), each entry's bytes checked by its CRC-32;
 * an entry's data also read through InflaterInputStream and a bare Inflater; a corrupt stream's
 * error.
 */
public class LibZip {
    public static void main(String[] args) throws Exception {
        for (String path : args) {
            long entries = 0, bytes = 0;
            CRC32 all = new CRC32();
            try (ZipInputStream z = new ZipInputStream(new BufferedInputStream(new FileInputStream(path)))) {
                ZipEntry e;
                byte[] b = new byte[1000];
                while ((e = z.getNextEntry()) != null) {
                    CRC32 c = new CRC32();
                    int k;
                    long n = 0;
                    while ((k = z.read(b, 0, b.length)) != -1) {
                        c.update(b, 0, k);
                        all.update(b, 0, k);
                        n += k;
                    }
                    entries++;
                    bytes += n;
                    if (entries % 50 == 1) System.out.println(e.getName() + " method " + e.getMethod() + " dir " + e.isDirectory() + " " + n + " bytes crc " + Long.toHexString(c.getValue()));
                }
            }
            System.out.println(path.substring(path.lastIndexOf('/') + 1) + ": " + entries + " entries, " + bytes + " bytes, crc " + Long.toHexString(all.getValue()));
        }
        // A zlib stream (compressed here by hand: "hello hello hello" at level 6).
        byte[] zlib = { 120, -100, -53, 72, -51, -55, -55, 87, -56, 64, -112, 0, 58, 46, 6, 125 };
        Inflater inf = new Inflater();
        inf.setInput(zlib);
        byte[] out = new byte[64];
        int n = inf.inflate(out);
        System.out.println("inflater: " + new String(out, 0, n, "UTF-8") + " finished " + inf.finished() + " in " + inf.getBytesRead() + " out " + inf.getBytesWritten());
        inf.end();
        InputStream s = new InflaterInputStream(new ByteArrayInputStream(zlib));
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        int c;
        while ((c = s.read()) != -1) o.write(c);
        System.out.println("stream: " + o.toString("UTF-8"));
        Inflater bad = new Inflater();
        bad.setInput(new byte[] { 1, 2, 3, 4, 5 });
        try {
            bad.inflate(out);
            System.out.println("corrupt: no error");
        } catch (DataFormatException e) {
            System.out.println("corrupt: DataFormatException");
        }
    }
}
