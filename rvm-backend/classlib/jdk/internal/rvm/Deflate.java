package jdk.internal.rvm;

/** The deflate natives (rvm's deflate.rs): a compressor is an int handle. */
public final class Deflate {
    private Deflate() {}
    public static native int init(int level, boolean nowrap);
    /** flush: 0 none, 2 sync, 3 full, 4 finish. Returns consumed | produced << 31 | finished << 62. */
    public static native long deflate(int handle, byte[] in, int inOff, int inLen, byte[] out, int outOff, int outLen, int flush);
    public static native void reset(int handle, int level, boolean nowrap);
    public static native void end(int handle);
}
