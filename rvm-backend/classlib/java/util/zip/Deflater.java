package java.util.zip;

import jdk.internal.rvm.Deflate;

/**
 * Compresses into deflate streams (zlib-wrapped, or raw with nowrap) through rvm's natives (the
 * flate2 crate). The compressed bytes are a valid stream for the same input and level, but not
 * necessarily the bytes HotSpot's zlib writes. A level or strategy set after compression began
 * applies from the next reset; strategies other than the default are accepted and not used.
 */
public class Deflater {
    public static final int DEFLATED = 8;
    public static final int NO_COMPRESSION = 0;
    public static final int BEST_SPEED = 1;
    public static final int BEST_COMPRESSION = 9;
    public static final int DEFAULT_COMPRESSION = -1;
    public static final int FILTERED = 1;
    public static final int HUFFMAN_ONLY = 2;
    public static final int DEFAULT_STRATEGY = 0;
    public static final int NO_FLUSH = 0;
    public static final int SYNC_FLUSH = 2;
    public static final int FULL_FLUSH = 3;

    private final boolean nowrap;
    private int level;
    private int handle;
    private byte[] input = new byte[0];
    private int inOff, inLen;
    private boolean finish, finished, ended, started;
    private long bytesRead, bytesWritten;

    public Deflater(int level, boolean nowrap) {
        if ((level < 0 || level > 9) && level != DEFAULT_COMPRESSION) throw new IllegalArgumentException("invalid compression level");
        this.level = level;
        this.nowrap = nowrap;
        this.handle = Deflate.init(level, nowrap);
    }
    public Deflater(int level) { this(level, false); }
    public Deflater() { this(DEFAULT_COMPRESSION, false); }

    private void open() {
        if (ended) throw new NullPointerException("Deflater has been closed");
    }

    public void setInput(byte[] b, int off, int len) {
        if (off < 0 || len < 0 || off > b.length - len) throw new ArrayIndexOutOfBoundsException();
        open();
        input = b;
        inOff = off;
        inLen = len;
    }
    public void setInput(byte[] b) { setInput(b, 0, b.length); }
    public void setDictionary(byte[] b) { throw new UnsupportedOperationException("rvm: Deflater dictionaries are not supported"); }
    public void setDictionary(byte[] b, int off, int len) { setDictionary(b); }

    public void setStrategy(int strategy) {
        if (strategy != DEFAULT_STRATEGY && strategy != FILTERED && strategy != HUFFMAN_ONLY) throw new IllegalArgumentException();
    }
    public void setLevel(int level) {
        if ((level < 0 || level > 9) && level != DEFAULT_COMPRESSION) throw new IllegalArgumentException("invalid compression level");
        open();
        this.level = level;
        if (!started) Deflate.reset(handle, level, nowrap);
    }

    public boolean needsInput() { return inLen <= 0; }
    public void finish() { finish = true; }
    public boolean finished() { return finished; }

    public int deflate(byte[] b, int off, int len, int flush) {
        if (off < 0 || len < 0 || off > b.length - len) throw new ArrayIndexOutOfBoundsException();
        if (flush != NO_FLUSH && flush != SYNC_FLUSH && flush != FULL_FLUSH) throw new IllegalArgumentException();
        open();
        if (finished || len == 0) return 0;
        started = true;
        long r = Deflate.deflate(handle, input, inOff, inLen, b, off, len, finish ? 4 : flush);
        int consumed = (int) (r & 0x7fffffffL), produced = (int) ((r >>> 31) & 0x7fffffffL);
        finished = ((r >>> 62) & 1) != 0;
        inOff += consumed;
        inLen -= consumed;
        bytesRead += consumed;
        bytesWritten += produced;
        return produced;
    }
    public int deflate(byte[] b, int off, int len) { return deflate(b, off, len, NO_FLUSH); }
    public int deflate(byte[] b) { return deflate(b, 0, b.length, NO_FLUSH); }

    public int getAdler() { throw new UnsupportedOperationException("rvm: Deflater.getAdler is not supported"); }
    public int getTotalIn() { return (int) bytesRead; }
    public long getBytesRead() { return bytesRead; }
    public int getTotalOut() { return (int) bytesWritten; }
    public long getBytesWritten() { return bytesWritten; }

    public void reset() {
        open();
        Deflate.reset(handle, level, nowrap);
        input = new byte[0];
        inOff = inLen = 0;
        finish = finished = started = false;
        bytesRead = bytesWritten = 0;
    }

    public void end() {
        if (!ended) {
            ended = true;
            Deflate.end(handle);
        }
    }
}
