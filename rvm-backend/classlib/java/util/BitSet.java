package java.util;

/** The JDK's BitSet: 64-bit words, the same toString, hashCode and growth. */
public class BitSet implements Cloneable, java.io.Serializable {
    private long[] words;
    private int wordsInUse = 0;

    private static int wordIndex(int bitIndex) { return bitIndex >> 6; }
    public BitSet() { words = new long[1]; }
    public BitSet(int nbits) {
        if (nbits < 0) throw new NegativeArraySizeException("nbits < 0: " + nbits);
        words = new long[wordIndex(nbits - 1) + 1];
    }
    private BitSet(long[] words) { this.words = words; this.wordsInUse = words.length; recalculateWordsInUse(); }
    public static BitSet valueOf(long[] longs) {
        int n;
        for (n = longs.length; n > 0 && longs[n - 1] == 0; n--);
        return new BitSet(Arrays.copyOf(longs, n));
    }
    public long[] toLongArray() { return Arrays.copyOf(words, wordsInUse); }
    private void recalculateWordsInUse() {
        int i;
        for (i = wordsInUse - 1; i >= 0; i--) if (words[i] != 0) break;
        wordsInUse = i + 1;
    }
    private void ensureCapacity(int wordsRequired) {
        if (words.length < wordsRequired) words = Arrays.copyOf(words, Math.max(2 * words.length, wordsRequired));
    }
    private void expandTo(int wordIndex) {
        int wordsRequired = wordIndex + 1;
        if (wordsInUse < wordsRequired) {
            ensureCapacity(wordsRequired);
            wordsInUse = wordsRequired;
        }
    }
    private static void checkRange(int fromIndex, int toIndex) {
        if (fromIndex < 0) throw new IndexOutOfBoundsException("fromIndex < 0: " + fromIndex);
        if (toIndex < 0) throw new IndexOutOfBoundsException("toIndex < 0: " + toIndex);
        if (fromIndex > toIndex) throw new IndexOutOfBoundsException("fromIndex: " + fromIndex + " > toIndex: " + toIndex);
    }
    public void flip(int bitIndex) {
        if (bitIndex < 0) throw new IndexOutOfBoundsException("bitIndex < 0: " + bitIndex);
        int wordIndex = wordIndex(bitIndex);
        expandTo(wordIndex);
        words[wordIndex] ^= (1L << bitIndex);
        recalculateWordsInUse();
    }
    public void flip(int fromIndex, int toIndex) {
        checkRange(fromIndex, toIndex);
        for (int i = fromIndex; i < toIndex; i++) flip(i);
    }
    public void set(int bitIndex) {
        if (bitIndex < 0) throw new IndexOutOfBoundsException("bitIndex < 0: " + bitIndex);
        int wordIndex = wordIndex(bitIndex);
        expandTo(wordIndex);
        words[wordIndex] |= (1L << bitIndex);
    }
    public void set(int bitIndex, boolean value) { if (value) set(bitIndex); else clear(bitIndex); }
    public void set(int fromIndex, int toIndex) {
        checkRange(fromIndex, toIndex);
        for (int i = fromIndex; i < toIndex; i++) set(i);
    }
    public void set(int fromIndex, int toIndex, boolean value) { if (value) set(fromIndex, toIndex); else clear(fromIndex, toIndex); }
    public void clear(int bitIndex) {
        if (bitIndex < 0) throw new IndexOutOfBoundsException("bitIndex < 0: " + bitIndex);
        int wordIndex = wordIndex(bitIndex);
        if (wordIndex >= wordsInUse) return;
        words[wordIndex] &= ~(1L << bitIndex);
        recalculateWordsInUse();
    }
    public void clear(int fromIndex, int toIndex) {
        checkRange(fromIndex, toIndex);
        for (int i = fromIndex; i < toIndex && wordIndex(i) < wordsInUse; i++) clear(i);
    }
    public void clear() {
        while (wordsInUse > 0) words[--wordsInUse] = 0;
    }
    public boolean get(int bitIndex) {
        if (bitIndex < 0) throw new IndexOutOfBoundsException("bitIndex < 0: " + bitIndex);
        int wordIndex = wordIndex(bitIndex);
        return (wordIndex < wordsInUse) && ((words[wordIndex] & (1L << bitIndex)) != 0);
    }
    public BitSet get(int fromIndex, int toIndex) {
        checkRange(fromIndex, toIndex);
        BitSet r = new BitSet();
        for (int i = nextSetBit(fromIndex); i >= 0 && i < toIndex; i = nextSetBit(i + 1)) r.set(i - fromIndex);
        return r;
    }
    public int nextSetBit(int fromIndex) {
        if (fromIndex < 0) throw new IndexOutOfBoundsException("fromIndex < 0: " + fromIndex);
        int u = wordIndex(fromIndex);
        if (u >= wordsInUse) return -1;
        long word = words[u] & (-1L << fromIndex);
        while (true) {
            if (word != 0) return (u * 64) + Long.numberOfTrailingZeros(word);
            if (++u == wordsInUse) return -1;
            word = words[u];
        }
    }
    public int nextClearBit(int fromIndex) {
        if (fromIndex < 0) throw new IndexOutOfBoundsException("fromIndex < 0: " + fromIndex);
        int u = wordIndex(fromIndex);
        if (u >= wordsInUse) return fromIndex;
        long word = ~words[u] & (-1L << fromIndex);
        while (true) {
            if (word != 0) return (u * 64) + Long.numberOfTrailingZeros(word);
            if (++u == wordsInUse) return wordsInUse * 64;
            word = ~words[u];
        }
    }
    public int previousSetBit(int fromIndex) {
        if (fromIndex < 0) {
            if (fromIndex == -1) return -1;
            throw new IndexOutOfBoundsException("fromIndex < -1: " + fromIndex);
        }
        for (int i = fromIndex; i >= 0; i--) if (get(i)) return i;
        return -1;
    }
    public int length() {
        if (wordsInUse == 0) return 0;
        return 64 * (wordsInUse - 1) + (64 - Long.numberOfLeadingZeros(words[wordsInUse - 1]));
    }
    public boolean isEmpty() { return wordsInUse == 0; }
    public boolean intersects(BitSet set) {
        for (int i = Math.min(wordsInUse, set.wordsInUse) - 1; i >= 0; i--) if ((words[i] & set.words[i]) != 0) return true;
        return false;
    }
    public int cardinality() {
        int sum = 0;
        for (int i = 0; i < wordsInUse; i++) sum += Long.bitCount(words[i]);
        return sum;
    }
    public void and(BitSet set) {
        if (this == set) return;
        while (wordsInUse > set.wordsInUse) words[--wordsInUse] = 0;
        for (int i = 0; i < wordsInUse; i++) words[i] &= set.words[i];
        recalculateWordsInUse();
    }
    public void or(BitSet set) {
        if (this == set) return;
        int wordsInCommon = Math.min(wordsInUse, set.wordsInUse);
        if (wordsInUse < set.wordsInUse) {
            ensureCapacity(set.wordsInUse);
            wordsInUse = set.wordsInUse;
        }
        for (int i = 0; i < wordsInCommon; i++) words[i] |= set.words[i];
        if (wordsInCommon < set.wordsInUse) System.arraycopy(set.words, wordsInCommon, words, wordsInCommon, wordsInUse - wordsInCommon);
    }
    public void xor(BitSet set) {
        int wordsInCommon = Math.min(wordsInUse, set.wordsInUse);
        if (wordsInUse < set.wordsInUse) {
            ensureCapacity(set.wordsInUse);
            wordsInUse = set.wordsInUse;
        }
        for (int i = 0; i < wordsInCommon; i++) words[i] ^= set.words[i];
        if (wordsInCommon < set.wordsInUse) System.arraycopy(set.words, wordsInCommon, words, wordsInCommon, set.wordsInUse - wordsInCommon);
        recalculateWordsInUse();
    }
    public void andNot(BitSet set) {
        for (int i = Math.min(wordsInUse, set.wordsInUse) - 1; i >= 0; i--) words[i] &= ~set.words[i];
        recalculateWordsInUse();
    }
    public int hashCode() {
        long h = 1234;
        for (int i = wordsInUse; --i >= 0; ) h ^= words[i] * (i + 1);
        return (int) ((h >> 32) ^ h);
    }
    public int size() { return words.length * 64; }
    public boolean equals(Object obj) {
        if (!(obj instanceof BitSet)) return false;
        if (this == obj) return true;
        BitSet set = (BitSet) obj;
        if (wordsInUse != set.wordsInUse) return false;
        for (int i = 0; i < wordsInUse; i++) if (words[i] != set.words[i]) return false;
        return true;
    }
    public Object clone() {
        // Object.clone, so that a subclass's clone is of the subclass (H2's VersionedBitSet casts it).
        BitSet result;
        try {
            result = (BitSet) super.clone();
        } catch (CloneNotSupportedException e) {
            throw new InternalError(e);
        }
        result.words = words.clone();
        result.wordsInUse = wordsInUse;
        return result;
    }
    public String toString() {
        StringBuilder b = new StringBuilder();
        b.append('{');
        int i = nextSetBit(0);
        if (i != -1) {
            b.append(i);
            while (true) {
                if (++i < 0) break;
                if ((i = nextSetBit(i)) < 0) break;
                int endOfRun = nextClearBit(i);
                do { b.append(", ").append(i); } while (++i != endOfRun);
            }
        }
        b.append('}');
        return b.toString();
    }
    public java.util.stream.IntStream stream() {
        ArrayList<Integer> l = new ArrayList<>();
        for (int i = nextSetBit(0); i >= 0; i = nextSetBit(i + 1)) l.add(i);
        return l.stream().mapToInt(Integer::intValue);
    }
}
