package java.util.zip;

/** Decompresses deflate streams (zlib-wrapped, or raw with nowrap) through rvm's natives. */
public class Inflater {
    private final boolean nowrap;
    private int handle;
    private byte[] input = new byte[0];
    private int inOff, inLen;
    private boolean finished, ended;
    private long bytesRead, bytesWritten;

    public Inflater() { this(false); }
    public Inflater(boolean nowrap) {
        this.nowrap = nowrap;
        this.handle = jdk.internal.rvm.Zip.init(nowrap);
    }

    private void open() {
        if (ended) throw new NullPointerException("Inflater has been closed");
    }

    public void setInput(byte[] b, int off, int len) {
        if (off < 0 || len < 0 || off > b.length - len) throw new ArrayIndexOutOfBoundsException();
        open();
        input = b; inOff = off; inLen = len;
    }
    public void setInput(byte[] b) { setInput(b, 0, b.length); }
    public void setDictionary(byte[] b) { throw new UnsupportedOperationException("rvm: Inflater dictionaries are not supported"); }

    public int getRemaining() { return inLen; }
    public boolean needsInput() { return inLen <= 0; }
    public boolean needsDictionary() { return false; }
    public boolean finished() { return finished; }

    public int inflate(byte[] b, int off, int len) throws DataFormatException {
        if (off < 0 || len < 0 || off > b.length - len) throw new ArrayIndexOutOfBoundsException();
        open();
        if (finished || len == 0) return 0;
        long r = jdk.internal.rvm.Zip.inflate(handle, input, inOff, inLen, b, off, len);
        int consumed = (int) (r & 0x7fffffffL), produced = (int) ((r >>> 31) & 0x7fffffffL);
        finished = ((r >>> 62) & 1) != 0;
        inOff += consumed; inLen -= consumed;
        bytesRead += consumed; bytesWritten += produced;
        return produced;
    }
    public int inflate(byte[] b) throws DataFormatException { return inflate(b, 0, b.length); }

    public int getAdler() { throw new UnsupportedOperationException("rvm: Inflater.getAdler is not supported"); }
    public int getTotalIn() { return (int) bytesRead; }
    public long getBytesRead() { return bytesRead; }
    public int getTotalOut() { return (int) bytesWritten; }
    public long getBytesWritten() { return bytesWritten; }

    public void reset() {
        open();
        jdk.internal.rvm.Zip.reset(handle, nowrap);
        input = new byte[0]; inOff = inLen = 0;
        finished = false; bytesRead = bytesWritten = 0;
    }

    public void end() {
        if (!ended) {
            ended = true;
            jdk.internal.rvm.Zip.end(handle);
        }
    }
}
