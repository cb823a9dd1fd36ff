package jdk.internal.rvm;

/** The inflate natives (rvm's inflate.rs): a decompressor is an int handle. */
public final class Zip {
    private Zip() {}
    public static native int init(boolean nowrap);
    /** Returns consumed | produced << 31 | finished << 62. */
    public static native long inflate(int handle, byte[] in, int inOff, int inLen, byte[] out, int outOff, int outLen);
    public static native void reset(int handle, boolean nowrap);
    public static native void end(int handle);
}
