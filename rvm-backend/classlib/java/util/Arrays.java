package java.util;

public final class Arrays {
    private Arrays() {}

    static native Object[] newArrayLike(Object[] a, int length);
    private static native Object[] newArray0(Class<?> arrayClass, int length);

    static void rangeCheck(int arrayLength, int fromIndex, int toIndex) {
        if (fromIndex > toIndex) throw new IllegalArgumentException("fromIndex(" + fromIndex + ") > toIndex(" + toIndex + ")");
        if (fromIndex < 0) throw new ArrayIndexOutOfBoundsException("Array index out of range: " + fromIndex);
        if (toIndex > arrayLength) throw new ArrayIndexOutOfBoundsException("Array index out of range: " + toIndex);
    }

    // ---- object sorting: a stable merge sort, like the JDK's TimSort in result ----
    public static void sort(Object[] a) { sort(a, 0, a.length); }
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static void sort(Object[] a, int fromIndex, int toIndex) {
        rangeCheck(a.length, fromIndex, toIndex);
        mergeSort(a, fromIndex, toIndex, NaturalCmp.INSTANCE);
    }
    public static <T> void sort(T[] a, Comparator<? super T> c) { sort(a, 0, a.length, c); }
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static <T> void sort(T[] a, int fromIndex, int toIndex, Comparator<? super T> c) {
        rangeCheck(a.length, fromIndex, toIndex);
        mergeSort(a, fromIndex, toIndex, c == null ? (Comparator) NaturalCmp.INSTANCE : (Comparator) c);
    }
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static final class NaturalCmp implements Comparator<Object> {
        static final NaturalCmp INSTANCE = new NaturalCmp();
        public int compare(Object a, Object b) { return ((Comparable) a).compareTo(b); }
    }
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void mergeSort(Object[] a, int lo, int hi, Comparator c) {
        int n = hi - lo;
        if (n < 2) return;
        if (n <= 16) {
            for (int i = lo + 1; i < hi; i++) {
                Object x = a[i];
                int j = i - 1;
                while (j >= lo && c.compare(a[j], x) > 0) { a[j + 1] = a[j]; j--; }
                a[j + 1] = x;
            }
            return;
        }
        int mid = (lo + hi) >>> 1;
        mergeSort(a, lo, mid, c);
        mergeSort(a, mid, hi, c);
        if (c.compare(a[mid - 1], a[mid]) <= 0) return;
        Object[] left = new Object[mid - lo];
        System.arraycopy(a, lo, left, 0, left.length);
        int i = 0, j = mid, k = lo;
        while (i < left.length && j < hi) {
            if (c.compare(a[j], left[i]) < 0) a[k++] = a[j++]; else a[k++] = left[i++];
        }
        while (i < left.length) a[k++] = left[i++];
    }


    public static void sort(int[] a) { sort1(a, 0, a.length); }
    public static void sort(int[] a, int fromIndex, int toIndex) { rangeCheck(a.length, fromIndex, toIndex); sort1(a, fromIndex, toIndex); }
    private static void sort1(int[] a, int lo, int hi) {
        while (hi - lo > 16) {
            int mid = (lo + hi) >>> 1;
            int x = a[lo], y = a[mid], z = a[hi - 1];
            int p = (x < y) ? ((y < z) ? y : ((x < z) ? z : x)) : ((x < z) ? x : ((y < z) ? z : y));
            int i = lo, j = hi - 1;
            while (i <= j) {
                while (a[i] < p) i++;
                while (p < a[j]) j--;
                if (i <= j) { int tmp = a[i]; a[i] = a[j]; a[j] = tmp; i++; j--; }
            }
            if (j - lo < hi - i) { sort1(a, lo, j + 1); lo = i; } else { sort1(a, i, hi); hi = j + 1; }
        }
        for (int i = lo + 1; i < hi; i++) {
            int x = a[i];
            int j = i - 1;
            while (j >= lo && x < a[j]) { a[j + 1] = a[j]; j--; }
            a[j + 1] = x;
        }
    }
    public static int binarySearch(int[] a, int key) {
        int low = 0, high = a.length - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            int midVal = a[mid];
            if (midVal < key) low = mid + 1;
            else if (key < midVal) high = mid - 1;
            else return mid;
        }
        return -(low + 1);
    }

    public static void fill(int[] a, int val) { for (int i = 0, len = a.length; i < len; i++) a[i] = val; }
    public static void fill(int[] a, int fromIndex, int toIndex, int val) { rangeCheck(a.length, fromIndex, toIndex); for (int i = fromIndex; i < toIndex; i++) a[i] = val; }
    public static int[] copyOf(int[] original, int newLength) {
        int[] copy = new int[newLength];
        System.arraycopy(original, 0, copy, 0, Math.min(original.length, newLength));
        return copy;
    }
    public static int[] copyOfRange(int[] original, int from, int to) {
        int newLength = to - from;
        if (newLength < 0) throw new IllegalArgumentException(from + " > " + to);
        int[] copy = new int[newLength];
        System.arraycopy(original, from, copy, 0, Math.min(original.length - from, newLength));
        return copy;
    }
    public static String toString(int[] a) {
        if (a == null) return "null";
        int iMax = a.length - 1;
        if (iMax == -1) return "[]";
        StringBuilder b = new StringBuilder();
        b.append('[');
        for (int i = 0; ; i++) {
            b.append(a[i]);
            if (i == iMax) return b.append(']').toString();
            b.append(", ");
        }
    }
    public static boolean equals(int[] a, int[] a2) {
        if (a == a2) return true;
        if (a == null || a2 == null) return false;
        if (a2.length != a.length) return false;
        for (int i = 0; i < a.length; i++) if (a[i] != a2[i]) return false;
        return true;
    }
    public static int hashCode(int[] a) {
        if (a == null) return 0;
        int result = 1;
        for (int e : a) result = 31 * result + Integer.hashCode(e);
        return result;
    }

    public static void sort(long[] a) { sort1(a, 0, a.length); }
    public static void sort(long[] a, int fromIndex, int toIndex) { rangeCheck(a.length, fromIndex, toIndex); sort1(a, fromIndex, toIndex); }
    private static void sort1(long[] a, int lo, int hi) {
        while (hi - lo > 16) {
            int mid = (lo + hi) >>> 1;
            long x = a[lo], y = a[mid], z = a[hi - 1];
            long p = (x < y) ? ((y < z) ? y : ((x < z) ? z : x)) : ((x < z) ? x : ((y < z) ? z : y));
            int i = lo, j = hi - 1;
            while (i <= j) {
                while (a[i] < p) i++;
                while (p < a[j]) j--;
                if (i <= j) { long tmp = a[i]; a[i] = a[j]; a[j] = tmp; i++; j--; }
            }
            if (j - lo < hi - i) { sort1(a, lo, j + 1); lo = i; } else { sort1(a, i, hi); hi = j + 1; }
        }
        for (int i = lo + 1; i < hi; i++) {
            long x = a[i];
            int j = i - 1;
            while (j >= lo && x < a[j]) { a[j + 1] = a[j]; j--; }
            a[j + 1] = x;
        }
    }
    public static int binarySearch(long[] a, long key) {
        int low = 0, high = a.length - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            long midVal = a[mid];
            if (midVal < key) low = mid + 1;
            else if (key < midVal) high = mid - 1;
            else return mid;
        }
        return -(low + 1);
    }

    public static void fill(long[] a, long val) { for (int i = 0, len = a.length; i < len; i++) a[i] = val; }
    public static void fill(long[] a, int fromIndex, int toIndex, long val) { rangeCheck(a.length, fromIndex, toIndex); for (int i = fromIndex; i < toIndex; i++) a[i] = val; }
    public static long[] copyOf(long[] original, int newLength) {
        long[] copy = new long[newLength];
        System.arraycopy(original, 0, copy, 0, Math.min(original.length, newLength));
        return copy;
    }
    public static long[] copyOfRange(long[] original, int from, int to) {
        int newLength = to - from;
        if (newLength < 0) throw new IllegalArgumentException(from + " > " + to);
        long[] copy = new long[newLength];
        System.arraycopy(original, from, copy, 0, Math.min(original.length - from, newLength));
        return copy;
    }
    public static String toString(long[] a) {
        if (a == null) return "null";
        int iMax = a.length - 1;
        if (iMax == -1) return "[]";
        StringBuilder b = new StringBuilder();
        b.append('[');
        for (int i = 0; ; i++) {
            b.append(a[i]);
            if (i == iMax) return b.append(']').toString();
            b.append(", ");
        }
    }
    public static boolean equals(long[] a, long[] a2) {
        if (a == a2) return true;
        if (a == null || a2 == null) return false;
        if (a2.length != a.length) return false;
        for (int i = 0; i < a.length; i++) if (a[i] != a2[i]) return false;
        return true;
    }
    public static int hashCode(long[] a) {
        if (a == null) return 0;
        int result = 1;
        for (long e : a) result = 31 * result + Long.hashCode(e);
        return result;
    }

    public static void sort(short[] a) { sort1(a, 0, a.length); }
    public static void sort(short[] a, int fromIndex, int toIndex) { rangeCheck(a.length, fromIndex, toIndex); sort1(a, fromIndex, toIndex); }
    private static void sort1(short[] a, int lo, int hi) {
        while (hi - lo > 16) {
            int mid = (lo + hi) >>> 1;
            short x = a[lo], y = a[mid], z = a[hi - 1];
            short p = (x < y) ? ((y < z) ? y : ((x < z) ? z : x)) : ((x < z) ? x : ((y < z) ? z : y));
            int i = lo, j = hi - 1;
            while (i <= j) {
                while (a[i] < p) i++;
                while (p < a[j]) j--;
                if (i <= j) { short tmp = a[i]; a[i] = a[j]; a[j] = tmp; i++; j--; }
            }
            if (j - lo < hi - i) { sort1(a, lo, j + 1); lo = i; } else { sort1(a, i, hi); hi = j + 1; }
        }
        for (int i = lo + 1; i < hi; i++) {
            short x = a[i];
            int j = i - 1;
            while (j >= lo && x < a[j]) { a[j + 1] = a[j]; j--; }
            a[j + 1] = x;
        }
    }
    public static int binarySearch(short[] a, short key) {
        int low = 0, high = a.length - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            short midVal = a[mid];
            if (midVal < key) low = mid + 1;
            else if (key < midVal) high = mid - 1;
            else return mid;
        }
        return -(low + 1);
    }

    public static void fill(short[] a, short val) { for (int i = 0, len = a.length; i < len; i++) a[i] = val; }
    public static void fill(short[] a, int fromIndex, int toIndex, short val) { rangeCheck(a.length, fromIndex, toIndex); for (int i = fromIndex; i < toIndex; i++) a[i] = val; }
    public static short[] copyOf(short[] original, int newLength) {
        short[] copy = new short[newLength];
        System.arraycopy(original, 0, copy, 0, Math.min(original.length, newLength));
        return copy;
    }
    public static short[] copyOfRange(short[] original, int from, int to) {
        int newLength = to - from;
        if (newLength < 0) throw new IllegalArgumentException(from + " > " + to);
        short[] copy = new short[newLength];
        System.arraycopy(original, from, copy, 0, Math.min(original.length - from, newLength));
        return copy;
    }
    public static String toString(short[] a) {
        if (a == null) return "null";
        int iMax = a.length - 1;
        if (iMax == -1) return "[]";
        StringBuilder b = new StringBuilder();
        b.append('[');
        for (int i = 0; ; i++) {
            b.append(a[i]);
            if (i == iMax) return b.append(']').toString();
            b.append(", ");
        }
    }
    public static boolean equals(short[] a, short[] a2) {
        if (a == a2) return true;
        if (a == null || a2 == null) return false;
        if (a2.length != a.length) return false;
        for (int i = 0; i < a.length; i++) if (a[i] != a2[i]) return false;
        return true;
    }
    public static int hashCode(short[] a) {
        if (a == null) return 0;
        int result = 1;
        for (short e : a) result = 31 * result + Short.hashCode(e);
        return result;
    }

    public static void sort(char[] a) { sort1(a, 0, a.length); }
    public static void sort(char[] a, int fromIndex, int toIndex) { rangeCheck(a.length, fromIndex, toIndex); sort1(a, fromIndex, toIndex); }
    private static void sort1(char[] a, int lo, int hi) {
        while (hi - lo > 16) {
            int mid = (lo + hi) >>> 1;
            char x = a[lo], y = a[mid], z = a[hi - 1];
            char p = (x < y) ? ((y < z) ? y : ((x < z) ? z : x)) : ((x < z) ? x : ((y < z) ? z : y));
            int i = lo, j = hi - 1;
            while (i <= j) {
                while (a[i] < p) i++;
                while (p < a[j]) j--;
                if (i <= j) { char tmp = a[i]; a[i] = a[j]; a[j] = tmp; i++; j--; }
            }
            if (j - lo < hi - i) { sort1(a, lo, j + 1); lo = i; } else { sort1(a, i, hi); hi = j + 1; }
        }
        for (int i = lo + 1; i < hi; i++) {
            char x = a[i];
            int j = i - 1;
            while (j >= lo && x < a[j]) { a[j + 1] = a[j]; j--; }
            a[j + 1] = x;
        }
    }
    public static int binarySearch(char[] a, char key) {
        int low = 0, high = a.length - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            char midVal = a[mid];
            if (midVal < key) low = mid + 1;
            else if (key < midVal) high = mid - 1;
            else return mid;
        }
        return -(low + 1);
    }

    public static void fill(char[] a, char val) { for (int i = 0, len = a.length; i < len; i++) a[i] = val; }
    public static void fill(char[] a, int fromIndex, int toIndex, char val) { rangeCheck(a.length, fromIndex, toIndex); for (int i = fromIndex; i < toIndex; i++) a[i] = val; }
    public static char[] copyOf(char[] original, int newLength) {
        char[] copy = new char[newLength];
        System.arraycopy(original, 0, copy, 0, Math.min(original.length, newLength));
        return copy;
    }
    public static char[] copyOfRange(char[] original, int from, int to) {
        int newLength = to - from;
        if (newLength < 0) throw new IllegalArgumentException(from + " > " + to);
        char[] copy = new char[newLength];
        System.arraycopy(original, from, copy, 0, Math.min(original.length - from, newLength));
        return copy;
    }
    public static String toString(char[] a) {
        if (a == null) return "null";
        int iMax = a.length - 1;
        if (iMax == -1) return "[]";
        StringBuilder b = new StringBuilder();
        b.append('[');
        for (int i = 0; ; i++) {
            b.append(a[i]);
            if (i == iMax) return b.append(']').toString();
            b.append(", ");
        }
    }
    public static boolean equals(char[] a, char[] a2) {
        if (a == a2) return true;
        if (a == null || a2 == null) return false;
        if (a2.length != a.length) return false;
        for (int i = 0; i < a.length; i++) if (a[i] != a2[i]) return false;
        return true;
    }
    public static int hashCode(char[] a) {
        if (a == null) return 0;
        int result = 1;
        for (char e : a) result = 31 * result + Character.hashCode(e);
        return result;
    }

    public static void sort(byte[] a) { sort1(a, 0, a.length); }
    public static void sort(byte[] a, int fromIndex, int toIndex) { rangeCheck(a.length, fromIndex, toIndex); sort1(a, fromIndex, toIndex); }
    private static void sort1(byte[] a, int lo, int hi) {
        while (hi - lo > 16) {
            int mid = (lo + hi) >>> 1;
            byte x = a[lo], y = a[mid], z = a[hi - 1];
            byte p = (x < y) ? ((y < z) ? y : ((x < z) ? z : x)) : ((x < z) ? x : ((y < z) ? z : y));
            int i = lo, j = hi - 1;
            while (i <= j) {
                while (a[i] < p) i++;
                while (p < a[j]) j--;
                if (i <= j) { byte tmp = a[i]; a[i] = a[j]; a[j] = tmp; i++; j--; }
            }
            if (j - lo < hi - i) { sort1(a, lo, j + 1); lo = i; } else { sort1(a, i, hi); hi = j + 1; }
        }
        for (int i = lo + 1; i < hi; i++) {
            byte x = a[i];
            int j = i - 1;
            while (j >= lo && x < a[j]) { a[j + 1] = a[j]; j--; }
            a[j + 1] = x;
        }
    }
    public static int binarySearch(byte[] a, byte key) {
        int low = 0, high = a.length - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            byte midVal = a[mid];
            if (midVal < key) low = mid + 1;
            else if (key < midVal) high = mid - 1;
            else return mid;
        }
        return -(low + 1);
    }

    public static void fill(byte[] a, byte val) { for (int i = 0, len = a.length; i < len; i++) a[i] = val; }
    public static void fill(byte[] a, int fromIndex, int toIndex, byte val) { rangeCheck(a.length, fromIndex, toIndex); for (int i = fromIndex; i < toIndex; i++) a[i] = val; }
    public static byte[] copyOf(byte[] original, int newLength) {
        byte[] copy = new byte[newLength];
        System.arraycopy(original, 0, copy, 0, Math.min(original.length, newLength));
        return copy;
    }
    public static byte[] copyOfRange(byte[] original, int from, int to) {
        int newLength = to - from;
        if (newLength < 0) throw new IllegalArgumentException(from + " > " + to);
        byte[] copy = new byte[newLength];
        System.arraycopy(original, from, copy, 0, Math.min(original.length - from, newLength));
        return copy;
    }
    public static String toString(byte[] a) {
        if (a == null) return "null";
        int iMax = a.length - 1;
        if (iMax == -1) return "[]";
        StringBuilder b = new StringBuilder();
        b.append('[');
        for (int i = 0; ; i++) {
            b.append(a[i]);
            if (i == iMax) return b.append(']').toString();
            b.append(", ");
        }
    }
    public static boolean equals(byte[] a, byte[] a2) {
        if (a == a2) return true;
        if (a == null || a2 == null) return false;
        if (a2.length != a.length) return false;
        for (int i = 0; i < a.length; i++) if (a[i] != a2[i]) return false;
        return true;
    }
    public static int hashCode(byte[] a) {
        if (a == null) return 0;
        int result = 1;
        for (byte e : a) result = 31 * result + Byte.hashCode(e);
        return result;
    }

    public static void sort(float[] a) { sort1(a, 0, a.length); }
    public static void sort(float[] a, int fromIndex, int toIndex) { rangeCheck(a.length, fromIndex, toIndex); sort1(a, fromIndex, toIndex); }
    private static void sort1(float[] a, int lo, int hi) {
        while (hi - lo > 16) {
            int mid = (lo + hi) >>> 1;
            float x = a[lo], y = a[mid], z = a[hi - 1];
            float p = (Float.compare(x, y) < 0) ? ((Float.compare(y, z) < 0) ? y : ((Float.compare(x, z) < 0) ? z : x)) : ((Float.compare(x, z) < 0) ? x : ((Float.compare(y, z) < 0) ? z : y));
            int i = lo, j = hi - 1;
            while (i <= j) {
                while (Float.compare(a[i], p) < 0) i++;
                while (Float.compare(p, a[j]) < 0) j--;
                if (i <= j) { float tmp = a[i]; a[i] = a[j]; a[j] = tmp; i++; j--; }
            }
            if (j - lo < hi - i) { sort1(a, lo, j + 1); lo = i; } else { sort1(a, i, hi); hi = j + 1; }
        }
        for (int i = lo + 1; i < hi; i++) {
            float x = a[i];
            int j = i - 1;
            while (j >= lo && Float.compare(x, a[j]) < 0) { a[j + 1] = a[j]; j--; }
            a[j + 1] = x;
        }
    }
    public static int binarySearch(float[] a, float key) {
        int low = 0, high = a.length - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            float midVal = a[mid];
            if (Float.compare(midVal, key) < 0) low = mid + 1;
            else if (Float.compare(key, midVal) < 0) high = mid - 1;
            else return mid;
        }
        return -(low + 1);
    }

    public static void fill(float[] a, float val) { for (int i = 0, len = a.length; i < len; i++) a[i] = val; }
    public static void fill(float[] a, int fromIndex, int toIndex, float val) { rangeCheck(a.length, fromIndex, toIndex); for (int i = fromIndex; i < toIndex; i++) a[i] = val; }
    public static float[] copyOf(float[] original, int newLength) {
        float[] copy = new float[newLength];
        System.arraycopy(original, 0, copy, 0, Math.min(original.length, newLength));
        return copy;
    }
    public static float[] copyOfRange(float[] original, int from, int to) {
        int newLength = to - from;
        if (newLength < 0) throw new IllegalArgumentException(from + " > " + to);
        float[] copy = new float[newLength];
        System.arraycopy(original, from, copy, 0, Math.min(original.length - from, newLength));
        return copy;
    }
    public static String toString(float[] a) {
        if (a == null) return "null";
        int iMax = a.length - 1;
        if (iMax == -1) return "[]";
        StringBuilder b = new StringBuilder();
        b.append('[');
        for (int i = 0; ; i++) {
            b.append(a[i]);
            if (i == iMax) return b.append(']').toString();
            b.append(", ");
        }
    }
    public static boolean equals(float[] a, float[] a2) {
        if (a == a2) return true;
        if (a == null || a2 == null) return false;
        if (a2.length != a.length) return false;
        for (int i = 0; i < a.length; i++) if (Float.floatToIntBits(a[i]) != Float.floatToIntBits(a2[i])) return false;
        return true;
    }
    public static int hashCode(float[] a) {
        if (a == null) return 0;
        int result = 1;
        for (float e : a) result = 31 * result + Float.hashCode(e);
        return result;
    }

    public static void sort(double[] a) { sort1(a, 0, a.length); }
    public static void sort(double[] a, int fromIndex, int toIndex) { rangeCheck(a.length, fromIndex, toIndex); sort1(a, fromIndex, toIndex); }
    private static void sort1(double[] a, int lo, int hi) {
        while (hi - lo > 16) {
            int mid = (lo + hi) >>> 1;
            double x = a[lo], y = a[mid], z = a[hi - 1];
            double p = (Double.compare(x, y) < 0) ? ((Double.compare(y, z) < 0) ? y : ((Double.compare(x, z) < 0) ? z : x)) : ((Double.compare(x, z) < 0) ? x : ((Double.compare(y, z) < 0) ? z : y));
            int i = lo, j = hi - 1;
            while (i <= j) {
                while (Double.compare(a[i], p) < 0) i++;
                while (Double.compare(p, a[j]) < 0) j--;
                if (i <= j) { double tmp = a[i]; a[i] = a[j]; a[j] = tmp; i++; j--; }
            }
            if (j - lo < hi - i) { sort1(a, lo, j + 1); lo = i; } else { sort1(a, i, hi); hi = j + 1; }
        }
        for (int i = lo + 1; i < hi; i++) {
            double x = a[i];
            int j = i - 1;
            while (j >= lo && Double.compare(x, a[j]) < 0) { a[j + 1] = a[j]; j--; }
            a[j + 1] = x;
        }
    }
    public static int binarySearch(double[] a, double key) {
        int low = 0, high = a.length - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            double midVal = a[mid];
            if (Double.compare(midVal, key) < 0) low = mid + 1;
            else if (Double.compare(key, midVal) < 0) high = mid - 1;
            else return mid;
        }
        return -(low + 1);
    }

    public static void fill(double[] a, double val) { for (int i = 0, len = a.length; i < len; i++) a[i] = val; }
    public static void fill(double[] a, int fromIndex, int toIndex, double val) { rangeCheck(a.length, fromIndex, toIndex); for (int i = fromIndex; i < toIndex; i++) a[i] = val; }
    public static double[] copyOf(double[] original, int newLength) {
        double[] copy = new double[newLength];
        System.arraycopy(original, 0, copy, 0, Math.min(original.length, newLength));
        return copy;
    }
    public static double[] copyOfRange(double[] original, int from, int to) {
        int newLength = to - from;
        if (newLength < 0) throw new IllegalArgumentException(from + " > " + to);
        double[] copy = new double[newLength];
        System.arraycopy(original, from, copy, 0, Math.min(original.length - from, newLength));
        return copy;
    }
    public static String toString(double[] a) {
        if (a == null) return "null";
        int iMax = a.length - 1;
        if (iMax == -1) return "[]";
        StringBuilder b = new StringBuilder();
        b.append('[');
        for (int i = 0; ; i++) {
            b.append(a[i]);
            if (i == iMax) return b.append(']').toString();
            b.append(", ");
        }
    }
    public static boolean equals(double[] a, double[] a2) {
        if (a == a2) return true;
        if (a == null || a2 == null) return false;
        if (a2.length != a.length) return false;
        for (int i = 0; i < a.length; i++) if (Double.doubleToLongBits(a[i]) != Double.doubleToLongBits(a2[i])) return false;
        return true;
    }
    public static int hashCode(double[] a) {
        if (a == null) return 0;
        int result = 1;
        for (double e : a) result = 31 * result + Double.hashCode(e);
        return result;
    }

    public static void fill(boolean[] a, boolean val) { for (int i = 0, len = a.length; i < len; i++) a[i] = val; }
    public static void fill(boolean[] a, int fromIndex, int toIndex, boolean val) { rangeCheck(a.length, fromIndex, toIndex); for (int i = fromIndex; i < toIndex; i++) a[i] = val; }
    public static boolean[] copyOf(boolean[] original, int newLength) {
        boolean[] copy = new boolean[newLength];
        System.arraycopy(original, 0, copy, 0, Math.min(original.length, newLength));
        return copy;
    }
    public static boolean[] copyOfRange(boolean[] original, int from, int to) {
        int newLength = to - from;
        if (newLength < 0) throw new IllegalArgumentException(from + " > " + to);
        boolean[] copy = new boolean[newLength];
        System.arraycopy(original, from, copy, 0, Math.min(original.length - from, newLength));
        return copy;
    }
    public static String toString(boolean[] a) {
        if (a == null) return "null";
        int iMax = a.length - 1;
        if (iMax == -1) return "[]";
        StringBuilder b = new StringBuilder();
        b.append('[');
        for (int i = 0; ; i++) {
            b.append(a[i]);
            if (i == iMax) return b.append(']').toString();
            b.append(", ");
        }
    }
    public static boolean equals(boolean[] a, boolean[] a2) {
        if (a == a2) return true;
        if (a == null || a2 == null) return false;
        if (a2.length != a.length) return false;
        for (int i = 0; i < a.length; i++) if (a[i] != a2[i]) return false;
        return true;
    }
    public static int hashCode(boolean[] a) {
        if (a == null) return 0;
        int result = 1;
        for (boolean e : a) result = 31 * result + Boolean.hashCode(e);
        return result;
    }

    public static void fill(Object[] a, Object val) { for (int i = 0, len = a.length; i < len; i++) a[i] = val; }
    public static void fill(Object[] a, int fromIndex, int toIndex, Object val) { rangeCheck(a.length, fromIndex, toIndex); for (int i = fromIndex; i < toIndex; i++) a[i] = val; }
    @SuppressWarnings("unchecked")
    public static <T> T[] copyOf(T[] original, int newLength) {
        if (newLength < 0) throw new NegativeArraySizeException(String.valueOf(newLength));
        T[] copy = (T[]) newArrayLike(original, newLength);
        System.arraycopy(original, 0, copy, 0, Math.min(original.length, newLength));
        return copy;
    }
    @SuppressWarnings("unchecked")
    public static <T, U> T[] copyOf(U[] original, int newLength, Class<? extends T[]> newType) {
        if (newLength < 0) throw new NegativeArraySizeException(String.valueOf(newLength));
        T[] copy = (T[]) newArray0(newType, newLength);
        System.arraycopy(original, 0, copy, 0, Math.min(original.length, newLength));
        return copy;
    }
    @SuppressWarnings("unchecked")
    public static <T> T[] copyOfRange(T[] original, int from, int to) {
        int newLength = to - from;
        if (newLength < 0) throw new IllegalArgumentException(from + " > " + to);
        T[] copy = (T[]) newArrayLike(original, newLength);
        System.arraycopy(original, from, copy, 0, Math.min(original.length - from, newLength));
        return copy;
    }
    public static String toString(Object[] a) {
        if (a == null) return "null";
        int iMax = a.length - 1;
        if (iMax == -1) return "[]";
        StringBuilder b = new StringBuilder();
        b.append('[');
        for (int i = 0; ; i++) {
            b.append(String.valueOf(a[i]));
            if (i == iMax) return b.append(']').toString();
            b.append(", ");
        }
    }
    public static String deepToString(Object[] a) {
        if (a == null) return "null";
        StringBuilder b = new StringBuilder();
        b.append('[');
        for (int i = 0; i < a.length; i++) {
            if (i > 0) b.append(", ");
            Object e = a[i];
            if (e instanceof Object[]) b.append(deepToString((Object[]) e));
            else if (e instanceof int[]) b.append(toString((int[]) e));
            else if (e instanceof long[]) b.append(toString((long[]) e));
            else if (e instanceof double[]) b.append(toString((double[]) e));
            else if (e instanceof char[]) b.append(toString((char[]) e));
            else if (e instanceof boolean[]) b.append(toString((boolean[]) e));
            else if (e instanceof byte[]) b.append(toString((byte[]) e));
            else if (e instanceof float[]) b.append(toString((float[]) e));
            else if (e instanceof short[]) b.append(toString((short[]) e));
            else b.append(String.valueOf(e));
        }
        return b.append(']').toString();
    }
    public static boolean equals(Object[] a, Object[] a2) {
        if (a == a2) return true;
        if (a == null || a2 == null) return false;
        if (a2.length != a.length) return false;
        for (int i = 0; i < a.length; i++) if (!Objects.equals(a[i], a2[i])) return false;
        return true;
    }
    public static int hashCode(Object[] a) {
        if (a == null) return 0;
        int result = 1;
        for (Object element : a) result = 31 * result + (element == null ? 0 : element.hashCode());
        return result;
    }
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static int binarySearch(Object[] a, Object key) {
        int low = 0, high = a.length - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            int cmp = ((Comparable) a[mid]).compareTo(key);
            if (cmp < 0) low = mid + 1; else if (cmp > 0) high = mid - 1; else return mid;
        }
        return -(low + 1);
    }
    public static <T> java.util.stream.Stream<T> stream(T[] array) { return stream(array, 0, array.length); }
    public static <T> java.util.stream.Stream<T> stream(T[] array, int from, int to) {
        checkRange(array.length, from, to);
        return java.util.stream.StreamSupport.lazy(asList(array).subList(from, to));
    }
    public static java.util.stream.IntStream stream(int[] array) { return stream(array, 0, array.length); }
    public static java.util.stream.IntStream stream(int[] array, int from, int to) {
        checkRange(array.length, from, to);
        return java.util.stream.IntStream.range(from, to).map(i -> array[i]);
    }
    public static java.util.stream.LongStream stream(long[] array) { return stream(array, 0, array.length); }
    public static java.util.stream.LongStream stream(long[] array, int from, int to) {
        checkRange(array.length, from, to);
        return java.util.stream.IntStream.range(from, to).mapToLong(i -> array[i]);
    }
    public static java.util.stream.DoubleStream stream(double[] array) { return stream(array, 0, array.length); }
    public static java.util.stream.DoubleStream stream(double[] array, int from, int to) {
        checkRange(array.length, from, to);
        return java.util.stream.IntStream.range(from, to).mapToDouble(i -> array[i]);
    }
    private static void checkRange(int length, int from, int to) {
        if (from > to) throw new IllegalArgumentException("fromIndex(" + from + ") > toIndex(" + to + ")");
        if (from < 0) throw new ArrayIndexOutOfBoundsException("Array index out of range: " + from);
        if (to > length) throw new ArrayIndexOutOfBoundsException("Array index out of range: " + to);
    }
    public static <T> void setAll(T[] array, java.util.function.IntFunction<? extends T> generator) {
        for (int i = 0; i < array.length; i++) array[i] = generator.apply(i);
    }
    public static void setAll(int[] array, java.util.function.IntUnaryOperator generator) {
        for (int i = 0; i < array.length; i++) array[i] = generator.applyAsInt(i);
    }
    @SuppressWarnings("unchecked")
    public static <T, U> T[] copyOfRange(U[] original, int from, int to, Class<? extends T[]> newType) {
        int newLength = to - from;
        if (newLength < 0) throw new IllegalArgumentException(from + " > " + to);
        T[] copy = (T[]) java.lang.reflect.Array.newInstance(newType.getComponentType(), newLength);
        System.arraycopy(original, from, copy, 0, Math.min(original.length - from, newLength));
        return copy;
    }
    public static boolean deepEquals(Object[] a1, Object[] a2) {
        if (a1 == a2) return true;
        if (a1 == null || a2 == null || a1.length != a2.length) return false;
        for (int i = 0; i < a1.length; i++) {
            Object e1 = a1[i], e2 = a2[i];
            if (e1 == e2) continue;
            if (e1 == null || e2 == null) return false;
            boolean eq;
            if (e1 instanceof Object[] && e2 instanceof Object[]) eq = deepEquals((Object[]) e1, (Object[]) e2);
            else if (e1 instanceof int[] && e2 instanceof int[]) eq = equals((int[]) e1, (int[]) e2);
            else if (e1 instanceof long[] && e2 instanceof long[]) eq = equals((long[]) e1, (long[]) e2);
            else if (e1 instanceof char[] && e2 instanceof char[]) eq = equals((char[]) e1, (char[]) e2);
            else if (e1 instanceof byte[] && e2 instanceof byte[]) eq = equals((byte[]) e1, (byte[]) e2);
            else if (e1 instanceof double[] && e2 instanceof double[]) eq = equals((double[]) e1, (double[]) e2);
            else if (e1 instanceof boolean[] && e2 instanceof boolean[]) eq = equals((boolean[]) e1, (boolean[]) e2);
            else eq = e1.equals(e2);
            if (!eq) return false;
        }
        return true;
    }
    @SafeVarargs
    public static <T> List<T> asList(T... a) { return new ArrayAsList<>(a); }
    private static class ArrayAsList<E> extends AbstractList<E> implements RandomAccess, java.io.Serializable {
        private final E[] a;
        ArrayAsList(E[] array) { a = Objects.requireNonNull(array); }
        public int size() { return a.length; }
        public Object[] toArray() { return Arrays.copyOf(a, a.length, Object[].class); }
        public E get(int index) { return a[index]; }
        public E set(int index, E element) { E oldValue = a[index]; a[index] = element; return oldValue; }
        public int indexOf(Object o) { for (int i = 0; i < a.length; i++) if (Objects.equals(o, a[i])) return i; return -1; }
        public boolean contains(Object o) { return indexOf(o) >= 0; }
        public void sort(Comparator<? super E> c) { Arrays.sort(a, c); }
    }
}
