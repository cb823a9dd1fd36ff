package java.nio;

/** A byte buffer over a Java array (rvm has no direct buffers: allocateDirect makes a heap one). */
public class ByteBuffer extends Buffer implements Comparable<ByteBuffer> {
    final byte[] hb;
    final int offset;
    boolean bigEndian = true;

    ByteBuffer(int mark, int pos, int lim, int cap, byte[] hb, int offset) {
        super(mark, pos, lim, cap);
        this.hb = hb;
        this.offset = offset;
    }
    public static ByteBuffer allocate(int capacity) {
        if (capacity < 0) throw new IllegalArgumentException("capacity < 0: (" + capacity + " < 0)");
        return new ByteBuffer(-1, 0, capacity, capacity, new byte[capacity], 0);
    }
    public static ByteBuffer allocateDirect(int capacity) { return allocate(capacity); }
    public static ByteBuffer wrap(byte[] array, int offset, int length) {
        java.util.Objects.checkFromIndexSize(offset, length, array.length);
        return new ByteBuffer(-1, offset, offset + length, array.length, array, 0);
    }
    public static ByteBuffer wrap(byte[] array) { return wrap(array, 0, array.length); }

    public ByteBuffer slice() {
        int pos = position(), lim = limit(), rem = (pos <= lim ? lim - pos : 0);
        ByteBuffer b = new ByteBuffer(-1, 0, rem, rem, hb, pos + offset);
        return b;
    }
    public ByteBuffer duplicate() {
        ByteBuffer b = new ByteBuffer(markValue(), position(), limit(), capacity(), hb, offset);
        b.bigEndian = bigEndian;
        return b;
    }
    private int ix(int i) { return i + offset; }

    public byte get() { return hb[ix(nextGetIndex(1))]; }
    public byte get(int i) { return hb[ix(checkIndex(i, 1))]; }
    public ByteBuffer get(byte[] dst, int off, int length) {
        java.util.Objects.checkFromIndexSize(off, length, dst.length);
        if (length > remaining()) throw new BufferUnderflowException();
        System.arraycopy(hb, ix(position()), dst, off, length);
        position(position() + length);
        return this;
    }
    public ByteBuffer get(byte[] dst) { return get(dst, 0, dst.length); }
    public ByteBuffer put(byte x) { hb[ix(nextPutIndex(1))] = x; return this; }
    public ByteBuffer put(int i, byte x) { hb[ix(checkIndex(i, 1))] = x; return this; }
    public ByteBuffer put(byte[] src, int off, int length) {
        java.util.Objects.checkFromIndexSize(off, length, src.length);
        if (length > remaining()) throw new BufferOverflowException();
        System.arraycopy(src, off, hb, ix(position()), length);
        position(position() + length);
        return this;
    }
    public final ByteBuffer put(byte[] src) { return put(src, 0, src.length); }
    public ByteBuffer put(ByteBuffer src) {
        if (src == this) throw new IllegalArgumentException("The source buffer is this buffer");
        int n = src.remaining();
        if (n > remaining()) throw new BufferOverflowException();
        for (int i = 0; i < n; i++) put(src.get());
        return this;
    }
    public ByteBuffer compact() {
        int pos = position(), lim = limit(), rem = (pos <= lim ? lim - pos : 0);
        System.arraycopy(hb, ix(pos), hb, ix(0), rem);
        position(rem);
        limit(capacity());
        return this;
    }
    public final boolean hasArray() { return true; }
    public final byte[] array() { return hb; }
    public final int arrayOffset() { return offset; }
    public boolean isDirect() { return false; }
    public boolean isReadOnly() { return false; }
    public final ByteOrder order() { return bigEndian ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN; }
    public final ByteBuffer order(ByteOrder bo) { bigEndian = (bo == ByteOrder.BIG_ENDIAN); return this; }

    public ByteBuffer position(int p) { super.position(p); return this; }
    public ByteBuffer limit(int l) { super.limit(l); return this; }
    public ByteBuffer mark() { super.mark(); return this; }
    public ByteBuffer reset() { super.reset(); return this; }
    public ByteBuffer clear() { super.clear(); return this; }
    public ByteBuffer flip() { super.flip(); return this; }
    public ByteBuffer rewind() { super.rewind(); return this; }

    private long getN(int at, int n) {
        long v = 0;
        if (bigEndian) for (int k = 0; k < n; k++) v = (v << 8) | (hb[ix(at + k)] & 0xff);
        else for (int k = n - 1; k >= 0; k--) v = (v << 8) | (hb[ix(at + k)] & 0xff);
        return v;
    }
    private void putN(int at, int n, long v) {
        if (bigEndian) for (int k = n - 1; k >= 0; k--) { hb[ix(at + k)] = (byte) v; v >>>= 8; }
        else for (int k = 0; k < n; k++) { hb[ix(at + k)] = (byte) v; v >>>= 8; }
    }
    public char getChar() { return (char) getN(nextGetIndex(2), 2); }
    public char getChar(int i) { return (char) getN(checkIndex(i, 2), 2); }
    public short getShort() { return (short) getN(nextGetIndex(2), 2); }
    public short getShort(int i) { return (short) getN(checkIndex(i, 2), 2); }
    public int getInt() { return (int) getN(nextGetIndex(4), 4); }
    public int getInt(int i) { return (int) getN(checkIndex(i, 4), 4); }
    public long getLong() { return getN(nextGetIndex(8), 8); }
    public long getLong(int i) { return getN(checkIndex(i, 8), 8); }
    public float getFloat() { return Float.intBitsToFloat(getInt()); }
    public float getFloat(int i) { return Float.intBitsToFloat(getInt(i)); }
    public double getDouble() { return Double.longBitsToDouble(getLong()); }
    public double getDouble(int i) { return Double.longBitsToDouble(getLong(i)); }
    public ByteBuffer putChar(char v) { putN(nextPutIndex(2), 2, v); return this; }
    public ByteBuffer putChar(int i, char v) { putN(checkIndex(i, 2), 2, v); return this; }
    public ByteBuffer putShort(short v) { putN(nextPutIndex(2), 2, v); return this; }
    public ByteBuffer putShort(int i, short v) { putN(checkIndex(i, 2), 2, v); return this; }
    public ByteBuffer putInt(int v) { putN(nextPutIndex(4), 4, v); return this; }
    public ByteBuffer putInt(int i, int v) { putN(checkIndex(i, 4), 4, v); return this; }
    public ByteBuffer putLong(long v) { putN(nextPutIndex(8), 8, v); return this; }
    public ByteBuffer putLong(int i, long v) { putN(checkIndex(i, 8), 8, v); return this; }
    public ByteBuffer putFloat(float v) { return putInt(Float.floatToRawIntBits(v)); }
    public ByteBuffer putFloat(int i, float v) { return putInt(i, Float.floatToRawIntBits(v)); }
    public ByteBuffer putDouble(double v) { return putLong(Double.doubleToRawLongBits(v)); }
    public ByteBuffer putDouble(int i, double v) { return putLong(i, Double.doubleToRawLongBits(v)); }

    public String toString() { return "java.nio.HeapByteBuffer[pos=" + position() + " lim=" + limit() + " cap=" + capacity() + "]"; }
    public int hashCode() {
        int h = 1;
        int p = position();
        for (int i = limit() - 1; i >= p; i--) h = 31 * h + (int) get(i);
        return h;
    }
    public boolean equals(Object ob) {
        if (this == ob) return true;
        if (!(ob instanceof ByteBuffer)) return false;
        ByteBuffer that = (ByteBuffer) ob;
        int n = remaining();
        if (n != that.remaining()) return false;
        for (int i = 0; i < n; i++) if (get(position() + i) != that.get(that.position() + i)) return false;
        return true;
    }
    public int compareTo(ByteBuffer that) {
        int n = Math.min(remaining(), that.remaining());
        for (int i = 0; i < n; i++) {
            int c = Byte.compare(get(position() + i), that.get(that.position() + i));
            if (c != 0) return c;
        }
        return remaining() - that.remaining();
    }
}
