package java.util.zip;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * Reads the entries of a zip archive in order from their local headers, stored or deflated,
 * with or without data descriptors, checking each entry's size and CRC-32 as the JDK's does.
 */
public class ZipInputStream extends InflaterInputStream {
    private static final long LOCSIG = 0x04034b50L, EXTSIG = 0x08074b50L;
    private ZipEntry entry;
    private long remaining;
    private final CRC32 crc = new CRC32();
    private boolean closed, entryEOF;
    private final Charset charset;
    /** Bytes read from the stream and not yet used: the inflater's leftovers go back here. */
    private byte[] pending = new byte[0];
    private int pendingOff, pendingLen;

    public ZipInputStream(InputStream in) { this(in, StandardCharsets.UTF_8); }
    public ZipInputStream(InputStream in, Charset charset) {
        super(in, new Inflater(true), 512);
        if (charset == null) throw new NullPointerException("charset is null");
        this.charset = charset;
    }

    private void ensureOpen() throws IOException {
        if (closed) throw new IOException("Stream closed");
    }

    /** Reads from the pending bytes first, then from the stream. */
    private int rawRead(byte[] b, int off, int len) throws IOException {
        if (pendingLen > 0) {
            int n = Math.min(len, pendingLen);
            System.arraycopy(pending, pendingOff, b, off, n);
            pendingOff += n; pendingLen -= n;
            return n;
        }
        return in.read(b, off, len);
    }

    private void readFully(byte[] b, int off, int len) throws IOException {
        while (len > 0) {
            int n = rawRead(b, off, len);
            if (n == -1) throw new EOFException();
            off += n; len -= n;
        }
    }

    private static int get16(byte[] b, int off) { return (b[off] & 0xff) | ((b[off + 1] & 0xff) << 8); }
    private static long get32(byte[] b, int off) { return (get16(b, off) | ((long) get16(b, off + 2) << 16)) & 0xffffffffL; }

    public ZipEntry getNextEntry() throws IOException {
        ensureOpen();
        if (entry != null) closeEntry();
        crc.reset();
        inf.reset();
        entry = readLOC();
        if (entry == null) return null;
        if (entry.method == ZipEntry.STORED) remaining = entry.size;
        entryEOF = false;
        return entry;
    }

    public void closeEntry() throws IOException {
        ensureOpen();
        byte[] tmp = new byte[512];
        while (read(tmp, 0, tmp.length) != -1) {}
        entryEOF = true;
    }

    public int available() throws IOException {
        ensureOpen();
        return entryEOF ? 0 : 1;
    }

    public int read(byte[] b, int off, int len) throws IOException {
        ensureOpen();
        if (off < 0 || len < 0 || off > b.length - len) throw new IndexOutOfBoundsException();
        if (len == 0) return 0;
        if (entry == null) return -1;
        switch (entry.method) {
            case ZipEntry.DEFLATED: {
                int n;
                try {
                    while ((n = inf.inflate(b, off, len)) == 0) {
                        if (inf.finished()) break;
                        if (inf.needsInput()) {
                            // The inflater's unused input was handed back by the last call's end.
                            int k = rawRead(buf, 0, buf.length);
                            if (k == -1) throw new EOFException("Unexpected end of ZLIB input stream");
                            inf.setInput(buf, 0, k);
                            lastInputEnd = k;
                        }
                    }
                } catch (DataFormatException e) {
                    String s = e.getMessage();
                    throw new ZipException(s != null ? s : "Invalid ZLIB data format");
                }
                if (n == 0 && inf.finished()) {
                    giveBack();
                    readEnd(entry);
                    entryEOF = true;
                    entry = null;
                    return -1;
                }
                crc.update(b, off, n);
                return n;
            }
            case ZipEntry.STORED: {
                if (remaining <= 0) {
                    entryEOF = true;
                    entry = null;
                    return -1;
                }
                if (len > remaining) len = (int) remaining;
                len = rawRead(b, off, len);
                if (len == -1) throw new ZipException("unexpected EOF");
                crc.update(b, off, len);
                remaining -= len;
                if (remaining == 0 && entry.crc != crc.getValue()) {
                    throw new ZipException("invalid entry CRC (expected 0x" + Long.toHexString(entry.crc) + " but got 0x" + Long.toHexString(crc.getValue()) + ")");
                }
                return len;
            }
            default:
                throw new ZipException("invalid compression method");
        }
    }

    /** The input the inflater did not use goes back in front of the stream. */
    private void giveBack() {
        int n = inf.getRemaining();
        if (n > 0) {
            byte[] rest = new byte[n + pendingLen];
            System.arraycopy(buf, lastInputEnd - n, rest, 0, n);
            System.arraycopy(pending, pendingOff, rest, n, pendingLen);
            pending = rest; pendingOff = 0; pendingLen = rest.length;
            inf.setInput(new byte[0]);
        }
    }

    /** The end of the input last given to the inflater, in `buf`. */
    private int lastInputEnd;

    public long skip(long n) throws IOException {
        if (n < 0) throw new IllegalArgumentException("negative skip length");
        ensureOpen();
        byte[] b = new byte[512];
        long total = 0;
        while (total < n) {
            int k = read(b, 0, (int) Math.min(n - total, b.length));
            if (k == -1) { entryEOF = true; break; }
            total += k;
        }
        return total;
    }

    public void close() throws IOException {
        if (!closed) {
            super.close();
            closed = true;
        }
    }

    private ZipEntry readLOC() throws IOException {
        byte[] h = new byte[30];
        try {
            readFully(h, 0, 30);
        } catch (EOFException e) {
            return null;
        }
        if (get32(h, 0) != LOCSIG) return null;
        int flag = get16(h, 6);
        int nameLen = get16(h, 26), extraLen = get16(h, 28);
        byte[] name = new byte[nameLen];
        readFully(name, 0, nameLen);
        ZipEntry e = createZipEntry((flag & 0x800) != 0 ? new String(name, StandardCharsets.UTF_8) : new String(name, charset));
        e.flag = flag;
        e.method = get16(h, 8);
        if ((flag & 8) == 0) {
            e.crc = get32(h, 14);
            e.csize = get32(h, 18);
            e.size = get32(h, 22);
        } else if (e.method != ZipEntry.DEFLATED) {
            throw new ZipException("only DEFLATED entries can have EXT descriptor");
        }
        if (extraLen > 0) {
            byte[] extra = new byte[extraLen];
            readFully(extra, 0, extraLen);
            e.extra = extra;
        }
        return e;
    }

    protected ZipEntry createZipEntry(String name) { return new ZipEntry(name); }

    /** After a deflated entry: its data descriptor (if any), and the checks of sizes and CRC. */
    private void readEnd(ZipEntry e) throws IOException {
        if ((e.flag & 8) != 0) {
            byte[] d = new byte[16];
            readFully(d, 0, 12);
            long sig = get32(d, 0);
            if (sig == EXTSIG) {
                readFully(d, 12, 4);
                e.crc = get32(d, 4);
                e.csize = get32(d, 8);
                e.size = get32(d, 12);
            } else {
                e.crc = sig;
                e.csize = get32(d, 4);
                e.size = get32(d, 8);
            }
        }
        if (e.size != inf.getBytesWritten()) {
            throw new ZipException("invalid entry size (expected " + e.size + " but got " + inf.getBytesWritten() + " bytes)");
        }
        if (e.csize != inf.getBytesRead()) {
            throw new ZipException("invalid entry compressed size (expected " + e.csize + " but got " + inf.getBytesRead() + " bytes)");
        }
        if (e.crc != crc.getValue()) {
            throw new ZipException("invalid entry CRC (expected 0x" + Long.toHexString(e.crc) + " but got 0x" + Long.toHexString(crc.getValue()) + ")");
        }
    }
}
