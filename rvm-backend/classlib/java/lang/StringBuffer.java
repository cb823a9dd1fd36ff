package java.lang;

public final class StringBuffer implements CharSequence, Appendable, java.io.Serializable {
    char[] value;
    int count;

    public StringBuffer() { value = new char[16]; }
    public StringBuffer(int capacity) {
        if (capacity < 0) throw new NegativeArraySizeException(String.valueOf(capacity));
        value = new char[capacity];
    }
    public StringBuffer(StringBuilder sb) { this(sb.toString()); }
    public StringBuffer(String str) { value = new char[str.length() + 16]; append(str); }
    public StringBuffer(CharSequence seq) { this(seq.toString()); }

    private void ensure(int min) {
        if (min > value.length) {
            int n = value.length * 2 + 2;
            if (n < min) n = min;
            char[] v = new char[n];
            System.arraycopy(value, 0, v, 0, count);
            value = v;
        }
    }
    public int length() { return count; }
    public void getChars(int srcBegin, int srcEnd, char[] dst, int dstBegin) {
        if (srcBegin < 0 || srcBegin > srcEnd || srcEnd > count)
            throw new StringIndexOutOfBoundsException("start " + srcBegin + ", end " + srcEnd + ", length " + count);
        System.arraycopy(value, srcBegin, dst, dstBegin, srcEnd - srcBegin);
    }
    public int capacity() { return value.length; }
    public char charAt(int index) {
        if (index < 0 || index >= count) throw new StringIndexOutOfBoundsException("index " + index + ",length " + count);
        return value[index];
    }
    public void setCharAt(int index, char ch) {
        if (index < 0 || index >= count) throw new StringIndexOutOfBoundsException("index " + index + ",length " + count);
        value[index] = ch;
    }
    public void setLength(int newLength) {
        if (newLength < 0) throw new StringIndexOutOfBoundsException(newLength);
        ensure(newLength);
        for (int i = count; i < newLength; i++) value[i] = 0;
        count = newLength;
    }
    public synchronized StringBuffer append(String str) {
        if (str == null) str = "null";
        int len = str.length();
        ensure(count + len);
        str.getChars(0, len, value, count);
        count += len;
        return this;
    }
    public synchronized StringBuffer append(Object obj) { return append(String.valueOf(obj)); }
    public synchronized StringBuffer append(StringBuffer sb) {
        if (sb == null) return append("null");
        ensure(count + sb.count);
        System.arraycopy(sb.value, 0, value, count, sb.count);
        count += sb.count;
        return this;
    }
    public synchronized StringBuffer append(CharSequence s) { return append(String.valueOf(s)); }
    public synchronized StringBuffer append(CharSequence s, int start, int end) {
        if (s == null) s = "null";
        ensure(count + end - start);
        for (int i = start; i < end; i++) value[count++] = s.charAt(i);
        return this;
    }
    public synchronized StringBuffer append(char[] str) {
        ensure(count + str.length);
        System.arraycopy(str, 0, value, count, str.length);
        count += str.length;
        return this;
    }
    public synchronized StringBuffer append(char[] str, int offset, int len) {
        ensure(count + len);
        System.arraycopy(str, offset, value, count, len);
        count += len;
        return this;
    }
    public synchronized StringBuffer append(boolean b) { return append(b ? "true" : "false"); }
    public synchronized StringBuffer append(char c) {
        ensure(count + 1);
        value[count++] = c;
        return this;
    }
    public synchronized StringBuffer append(int i) {
        if (i >= 0 && i < 10) return append((char) ('0' + i));
        return append(Integer.toString(i));
    }
    public synchronized StringBuffer append(long l) { return append(Long.toString(l)); }
    public synchronized StringBuffer append(float f) { return append(Float.toString(f)); }
    public synchronized StringBuffer append(double d) { return append(Double.toString(d)); }
    public synchronized StringBuffer appendCodePoint(int cp) { return append((char) cp); }
    public synchronized StringBuffer insert(int offset, String str) {
        if (offset < 0 || offset > count) throw new StringIndexOutOfBoundsException("offset " + offset + ", length " + count);
        if (str == null) str = "null";
        int len = str.length();
        ensure(count + len);
        System.arraycopy(value, offset, value, offset + len, count - offset);
        str.getChars(0, len, value, offset);
        count += len;
        return this;
    }
    public synchronized StringBuffer insert(int offset, char c) { return insert(offset, String.valueOf(c)); }
    public synchronized StringBuffer insert(int offset, int i) { return insert(offset, String.valueOf(i)); }
    public synchronized StringBuffer insert(int offset, long l) { return insert(offset, String.valueOf(l)); }
    public synchronized StringBuffer insert(int offset, Object o) { return insert(offset, String.valueOf(o)); }
    public synchronized StringBuffer insert(int offset, boolean b) { return insert(offset, String.valueOf(b)); }
    public synchronized StringBuffer insert(int offset, double d) { return insert(offset, String.valueOf(d)); }
    public synchronized StringBuffer delete(int start, int end) {
        if (end > count) end = count;
        if (start < 0 || start > end) throw new StringIndexOutOfBoundsException("start " + start + ", end " + end + ", length " + count);
        int len = end - start;
        if (len > 0) {
            System.arraycopy(value, start + len, value, start, count - end);
            count -= len;
        }
        return this;
    }
    public synchronized StringBuffer deleteCharAt(int index) {
        if (index < 0 || index >= count) throw new StringIndexOutOfBoundsException("index " + index + ",length " + count);
        return delete(index, index + 1);
    }
    public synchronized StringBuffer replace(int start, int end, String str) {
        if (end > count) end = count;
        delete(start, end);
        return insert(start, str);
    }
    public synchronized StringBuffer reverse() {
        for (int i = 0, j = count - 1; i < j; i++, j--) { char t = value[i]; value[i] = value[j]; value[j] = t; }
        return this;
    }
    public int indexOf(String str) { return toString().indexOf(str); }
    public int indexOf(String str, int from) { return toString().indexOf(str, from); }
    public int lastIndexOf(String str) { return toString().lastIndexOf(str); }
    public int lastIndexOf(String str, int from) { return toString().lastIndexOf(str, from); }
    public void ensureCapacity(int minimumCapacity) {
        if (minimumCapacity > value.length) value = java.util.Arrays.copyOf(value, Math.max(minimumCapacity, value.length * 2 + 2));
    }
    public void trimToSize() { if (count < value.length) value = java.util.Arrays.copyOf(value, count); }
    public int codePointAt(int index) { return Character.codePointAt(this, index); }
    public String substring(int start) { return substring(start, count); }
    public String substring(int start, int end) {
        if (start < 0 || end > count || start > end) throw new StringIndexOutOfBoundsException("start " + start + ", end " + end + ", length " + count);
        return new String(value, start, end - start);
    }
    public CharSequence subSequence(int start, int end) { return substring(start, end); }
    public synchronized String toString() { return new String(value, 0, count); }
}
