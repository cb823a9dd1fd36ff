package calls.counters;

import java.io.FileInputStream;
import java.io.IOException;

/**
 * read() spends its CPU time in the kernel: it reads /dev/zero into a 1 MiB array, so the kernel
 * clears the buffer (and the JDK copies it into the array). Runs for args[0] × 100 ms of wall time.
 */
public class KernelRead {
    static volatile long sink;

    static void read(FileInputStream in, byte[] buf) throws IOException {
        sink += in.read(buf);
    }

    public static void main(String[] args) throws IOException {
        long end = System.nanoTime() + Long.parseLong(args[0]) * 100_000_000L;
        byte[] buf = new byte[1 << 20];
        try (FileInputStream in = new FileInputStream("/dev/zero")) {
            while (System.nanoTime() < end) read(in, buf);
        }
    }
}
