package java.math;

import java.util.Arrays;

/**
 * Arbitrary-precision integers in the JDK's representation (a sign and a big-endian magnitude of
 * 32-bit words, so hashCode and toByteArray agree with HotSpot's), with schoolbook arithmetic:
 * multiplication word by word, division by a one-word divisor directly and otherwise bit by bit.
 */
public class BigInteger extends Number implements Comparable<BigInteger> {
    private static final long LONG_MASK = 0xffffffffL;
    final int signum;
    final int[] mag;

    public static final BigInteger ZERO = new BigInteger(new int[0], 0);
    public static final BigInteger ONE = valueOf(1);
    public static final BigInteger TWO = valueOf(2);
    public static final BigInteger TEN = valueOf(10);

    BigInteger(int[] magnitude, int signum) {
        this.mag = stripLeadingZeros(magnitude);
        this.signum = this.mag.length == 0 ? 0 : signum;
    }

    private static int[] stripLeadingZeros(int[] m) {
        int k = 0;
        while (k < m.length && m[k] == 0) k++;
        return k == 0 ? m : Arrays.copyOfRange(m, k, m.length);
    }

    public static BigInteger valueOf(long val) {
        if (val == 0) return ZERO == null ? new BigInteger(new int[0], 0) : ZERO;
        int sign = val < 0 ? -1 : 1;
        long m = val < 0 ? -val : val;
        int hi = (int) (m >>> 32);
        int[] mag = hi == 0 ? new int[] { (int) m } : new int[] { hi, (int) m };
        if (val == Long.MIN_VALUE) mag = new int[] { 0x80000000, 0 };
        return new BigInteger(mag, sign);
    }

    public BigInteger(String val) { this(val, 10); }
    public BigInteger(String val, int radix) {
        int len = val.length();
        if (radix < Character.MIN_RADIX || radix > Character.MAX_RADIX) throw new NumberFormatException("Radix out of range");
        if (len == 0) throw new NumberFormatException("Zero length BigInteger");
        int sign = 1, cursor = 0;
        int index1 = val.lastIndexOf('-'), index2 = val.lastIndexOf('+');
        if (index1 >= 0) {
            if (index1 != 0 || index2 >= 0) throw new NumberFormatException("Illegal embedded sign character");
            sign = -1;
            cursor = 1;
        } else if (index2 >= 0) {
            if (index2 != 0) throw new NumberFormatException("Illegal embedded sign character");
            cursor = 1;
        }
        if (cursor == len) throw new NumberFormatException("Zero length BigInteger");
        int[] m = new int[0];
        for (int i = cursor; i < len; i++) {
            int d = Character.digit(val.charAt(i), radix);
            if (d < 0) throw new NumberFormatException("For input string: \"" + val + "\"" + (radix == 10 ? "" : " under radix " + radix));
            m = mulAdd(m, radix, d);
        }
        int[] s = stripLeadingZeros(m);
        this.mag = s;
        this.signum = s.length == 0 ? 0 : sign;
    }
    public BigInteger(byte[] val) {
        if (val.length == 0) throw new NumberFormatException("Zero length BigInteger");
        boolean neg = val[0] < 0;
        byte[] b = val.clone();
        if (neg) {
            // two's complement negation of the bytes
            int carry = 1;
            for (int i = b.length - 1; i >= 0; i--) {
                int v = (~b[i] & 0xff) + carry;
                b[i] = (byte) v;
                carry = v >>> 8;
            }
        }
        int words = (b.length + 3) / 4;
        int[] m = new int[words];
        for (int i = 0; i < b.length; i++) {
            int byteFromEnd = b.length - 1 - i;
            m[words - 1 - byteFromEnd / 4] |= (b[i] & 0xff) << (8 * (byteFromEnd % 4));
        }
        int[] s = stripLeadingZeros(m);
        this.mag = s;
        this.signum = s.length == 0 ? 0 : (neg ? -1 : 1);
    }

    /** m * mul + add for a one-word multiplier. */
    private static int[] mulAdd(int[] m, int mul, int add) {
        int[] r = new int[m.length + 1];
        long carry = add & LONG_MASK;
        for (int i = m.length - 1; i >= 0; i--) {
            long p = (m[i] & LONG_MASK) * (mul & LONG_MASK) + carry;
            r[i + 1] = (int) p;
            carry = p >>> 32;
        }
        r[0] = (int) carry;
        return stripLeadingZeros(r);
    }

    private static int compareMagnitude(int[] a, int[] b) {
        if (a.length != b.length) return a.length < b.length ? -1 : 1;
        for (int i = 0; i < a.length; i++) {
            int x = a[i], y = b[i];
            if (x != y) return ((x & LONG_MASK) < (y & LONG_MASK)) ? -1 : 1;
        }
        return 0;
    }
    private static int[] addMag(int[] a, int[] b) {
        if (a.length < b.length) { int[] t = a; a = b; b = t; }
        int[] r = new int[a.length + 1];
        long carry = 0;
        for (int i = 0; i < a.length; i++) {
            long s = (a[a.length - 1 - i] & LONG_MASK) + (i < b.length ? (b[b.length - 1 - i] & LONG_MASK) : 0) + carry;
            r[r.length - 1 - i] = (int) s;
            carry = s >>> 32;
        }
        r[0] = (int) carry;
        return stripLeadingZeros(r);
    }
    /** a - b for |a| >= |b|. */
    private static int[] subMag(int[] a, int[] b) {
        int[] r = new int[a.length];
        long borrow = 0;
        for (int i = 0; i < a.length; i++) {
            long d = (a[a.length - 1 - i] & LONG_MASK) - (i < b.length ? (b[b.length - 1 - i] & LONG_MASK) : 0) - borrow;
            r[r.length - 1 - i] = (int) d;
            borrow = d < 0 ? 1 : 0;
        }
        return stripLeadingZeros(r);
    }
    private static int[] mulMag(int[] a, int[] b) {
        int[] r = new int[a.length + b.length];
        for (int i = b.length - 1; i >= 0; i--) {
            long carry = 0;
            long y = b[i] & LONG_MASK;
            for (int j = a.length - 1; j >= 0; j--) {
                int k = i + j + 1;
                long p = (a[j] & LONG_MASK) * y + (r[k] & LONG_MASK) + carry;
                r[k] = (int) p;
                carry = p >>> 32;
            }
            r[i] = (int) carry;
        }
        return stripLeadingZeros(r);
    }
    private static int bitLen(int[] m) { return m.length == 0 ? 0 : (m.length - 1) * 32 + (32 - Integer.numberOfLeadingZeros(m[0])); }
    private static boolean magBit(int[] m, int n) {
        int w = n >>> 5;
        if (w >= m.length) return false;
        return ((m[m.length - 1 - w] >>> (n & 31)) & 1) != 0;
    }
    private static int[] shiftLeftMag(int[] m, int n) {
        if (m.length == 0) return m;
        int words = n >>> 5, bits = n & 31;
        int[] r = new int[m.length + words + 1];
        for (int i = 0; i < m.length; i++) {
            long v = (m[m.length - 1 - i] & LONG_MASK) << bits;
            int at = r.length - 1 - words - i;
            r[at] |= (int) v;
            r[at - 1] |= (int) (v >>> 32);
        }
        return stripLeadingZeros(r);
    }
    private static int[] shiftRightMag(int[] m, int n) {
        int words = n >>> 5, bits = n & 31;
        if (words >= m.length) return new int[0];
        int len = m.length - words;
        int[] r = new int[len];
        for (int i = 0; i < len; i++) {
            long v = m[i] & LONG_MASK;
            if (bits != 0) {
                v = v >>> bits;
                if (i > 0) v |= ((m[i - 1] & LONG_MASK) << (32 - bits)) & LONG_MASK;
            }
            r[i] = (int) v;
        }
        return stripLeadingZeros(r);
    }
    /** {quotient, remainder} of magnitudes. */
    private static int[][] divMag(int[] a, int[] b) {
        if (b.length == 0) throw new ArithmeticException("BigInteger divide by zero");
        if (compareMagnitude(a, b) < 0) return new int[][] { new int[0], a };
        if (b.length == 1) {
            long d = b[0] & LONG_MASK, rem = 0;
            int[] q = new int[a.length];
            for (int i = 0; i < a.length; i++) {
                long cur = (rem << 32) | (a[i] & LONG_MASK);
                q[i] = (int) Long.divideUnsigned(cur, d);
                rem = Long.remainderUnsigned(cur, d);
            }
            return new int[][] { stripLeadingZeros(q), stripLeadingZeros(new int[] { (int) rem }) };
        }
        int n = bitLen(a);
        int[] q = new int[a.length];
        int[] r = new int[0];
        for (int i = n - 1; i >= 0; i--) {
            r = shiftLeftMag(r, 1);
            if (magBit(a, i)) r = r.length == 0 ? new int[] { 1 } : orLowBit(r);
            if (compareMagnitude(r, b) >= 0) {
                r = subMag(r, b);
                q[q.length - 1 - (i >>> 5)] |= 1 << (i & 31);
            }
        }
        return new int[][] { stripLeadingZeros(q), r };
    }
    private static int[] orLowBit(int[] r) {
        int[] c = r.clone();
        c[c.length - 1] |= 1;
        return c;
    }

    public BigInteger add(BigInteger val) {
        if (val.signum == 0) return this;
        if (signum == 0) return val;
        if (val.signum == signum) return new BigInteger(addMag(mag, val.mag), signum);
        int cmp = compareMagnitude(mag, val.mag);
        if (cmp == 0) return ZERO;
        return cmp > 0 ? new BigInteger(subMag(mag, val.mag), signum) : new BigInteger(subMag(val.mag, mag), val.signum);
    }
    public BigInteger subtract(BigInteger val) { return add(val.negate()); }
    public BigInteger multiply(BigInteger val) {
        if (signum == 0 || val.signum == 0) return ZERO;
        return new BigInteger(mulMag(mag, val.mag), signum * val.signum);
    }
    public BigInteger divide(BigInteger val) { return new BigInteger(divMag(mag, val.mag)[0], signum * val.signum); }
    public BigInteger remainder(BigInteger val) { return new BigInteger(divMag(mag, val.mag)[1], signum); }
    public BigInteger[] divideAndRemainder(BigInteger val) {
        int[][] qr = divMag(mag, val.mag);
        return new BigInteger[] { new BigInteger(qr[0], signum * val.signum), new BigInteger(qr[1], signum) };
    }
    public BigInteger mod(BigInteger m) {
        if (m.signum <= 0) throw new ArithmeticException("BigInteger: modulus not positive");
        BigInteger result = remainder(m);
        return (result.signum >= 0 ? result : result.add(m));
    }
    public BigInteger negate() { return new BigInteger(mag, -signum); }
    public BigInteger abs() { return signum >= 0 ? this : negate(); }
    public int signum() { return signum; }
    public BigInteger pow(int exponent) {
        if (exponent < 0) throw new ArithmeticException("Negative exponent");
        BigInteger result = ONE, base = this;
        while (exponent != 0) {
            if ((exponent & 1) != 0) result = result.multiply(base);
            exponent >>>= 1;
            if (exponent != 0) base = base.multiply(base);
        }
        return result;
    }
    public BigInteger gcd(BigInteger val) {
        BigInteger a = abs(), b = val.abs();
        while (b.signum != 0) {
            BigInteger t = a.remainder(b);
            a = b;
            b = t;
        }
        return a;
    }
    public BigInteger modPow(BigInteger exponent, BigInteger m) {
        if (m.signum <= 0) throw new ArithmeticException("BigInteger: modulus not positive");
        if (exponent.signum < 0) throw new ArithmeticException("BigInteger: negative exponent");
        BigInteger result = ONE.mod(m), base = mod(m);
        for (int i = exponent.bitLength() - 1; i >= 0; i--) {
            result = result.multiply(result).mod(m);
            if (exponent.testBit(i)) result = result.multiply(base).mod(m);
        }
        return result;
    }
    public BigInteger min(BigInteger val) { return compareTo(val) < 0 ? this : val; }
    public BigInteger max(BigInteger val) { return compareTo(val) > 0 ? this : val; }
    public int compareTo(BigInteger val) {
        if (signum != val.signum) return signum > val.signum ? 1 : -1;
        int c = compareMagnitude(mag, val.mag);
        return signum >= 0 ? c : -c;
    }
    public boolean equals(Object x) {
        if (x == this) return true;
        if (!(x instanceof BigInteger)) return false;
        BigInteger b = (BigInteger) x;
        return b.signum == signum && Arrays.equals(mag, b.mag);
    }
    public int hashCode() {
        int hashCode = 0;
        for (int i = 0; i < mag.length; i++) hashCode = (int) (31 * hashCode + (mag[i] & LONG_MASK));
        return hashCode * signum;
    }

    /** Two's complement word n (0 the lowest), as the JDK's getInt. */
    private int word(int n) {
        if (n < 0) return 0;
        if (n >= mag.length) return signum < 0 ? -1 : 0;
        int magInt = mag[mag.length - n - 1];
        if (signum >= 0) return magInt;
        int firstNonzero = 0;
        for (int i = mag.length - 1; i >= 0 && mag[i] == 0; i--) firstNonzero++;
        return n <= firstNonzero ? (n == firstNonzero ? -magInt : 0) : ~magInt;
    }
    private static BigInteger fromTwos(int[] w) {
        // w little-endian two's complement words
        boolean neg = w[w.length - 1] < 0;
        int[] m = new int[w.length];
        for (int i = 0; i < w.length; i++) m[w.length - 1 - i] = neg ? ~w[i] : w[i];
        BigInteger r = new BigInteger(m, 1);
        return neg ? r.add(ONE).negate() : r;
    }
    private int words() { return Math.max(mag.length, 1) + 1; }
    public BigInteger and(BigInteger val) {
        int n = Math.max(words(), val.words());
        int[] w = new int[n];
        for (int i = 0; i < n; i++) w[i] = word(i) & val.word(i);
        return fromTwos(w);
    }
    public BigInteger or(BigInteger val) {
        int n = Math.max(words(), val.words());
        int[] w = new int[n];
        for (int i = 0; i < n; i++) w[i] = word(i) | val.word(i);
        return fromTwos(w);
    }
    public BigInteger xor(BigInteger val) {
        int n = Math.max(words(), val.words());
        int[] w = new int[n];
        for (int i = 0; i < n; i++) w[i] = word(i) ^ val.word(i);
        return fromTwos(w);
    }
    public BigInteger not() { return negate().subtract(ONE); }
    public BigInteger andNot(BigInteger val) { return and(val.not()); }
    public boolean testBit(int n) {
        if (n < 0) throw new ArithmeticException("Negative bit address");
        return (word(n >>> 5) & (1 << (n & 31))) != 0;
    }
    public BigInteger setBit(int n) { return or(ONE.shiftLeft(n)); }
    public BigInteger clearBit(int n) { return andNot(ONE.shiftLeft(n)); }
    public BigInteger flipBit(int n) { return xor(ONE.shiftLeft(n)); }
    public int getLowestSetBit() {
        if (signum == 0) return -1;
        int i = 0;
        while (!magBit(mag, i)) i++;
        return i;
    }
    public int bitLength() {
        int n = bitLen(mag);
        if (signum < 0) {
            boolean pow2 = Integer.bitCount(mag[0]) == 1;
            for (int i = 1; i < mag.length && pow2; i++) pow2 = mag[i] == 0;
            if (pow2) n--;
        }
        return n;
    }
    public int bitCount() {
        int bc = 0;
        for (int m : mag) bc += Integer.bitCount(m);
        if (signum < 0) {
            int magTrailingZeroCount = getLowestSetBit();
            bc += magTrailingZeroCount - 1;
        }
        return bc;
    }
    public BigInteger shiftLeft(int n) {
        if (signum == 0) return ZERO;
        if (n < 0) return shiftRight(-n);
        return new BigInteger(shiftLeftMag(mag, n), signum);
    }
    public BigInteger shiftRight(int n) {
        if (signum == 0) return ZERO;
        if (n < 0) return shiftLeft(-n);
        int[] r = shiftRightMag(mag, n);
        BigInteger q = new BigInteger(r, signum);
        if (signum < 0) {
            // round toward negative infinity when bits were shifted out
            boolean lost = false;
            for (int i = 0; i < n && !lost; i++) lost = magBit(mag, i);
            if (lost) q = q.subtract(ONE);
        }
        return q;
    }

    public String toString() { return toString(10); }
    public String toString(int radix) {
        if (signum == 0) return "0";
        if (radix < Character.MIN_RADIX || radix > Character.MAX_RADIX) radix = 10;
        StringBuilder sb = new StringBuilder();
        int[] m = mag;
        int[] r = { radix };
        while (m.length > 0) {
            int[][] qr = divMag(m, r);
            int d = qr[1].length == 0 ? 0 : qr[1][0];
            sb.append(Character.forDigit(d, radix));
            m = qr[0];
        }
        if (signum < 0) sb.append('-');
        return sb.reverse().toString();
    }
    public byte[] toByteArray() {
        int byteLen = bitLength() / 8 + 1;
        byte[] byteArray = new byte[byteLen];
        for (int i = byteLen - 1, bytesCopied = 4, nextInt = 0, intIndex = 0; i >= 0; i--) {
            if (bytesCopied == 4) {
                nextInt = word(intIndex++);
                bytesCopied = 1;
            } else {
                nextInt >>>= 8;
                bytesCopied++;
            }
            byteArray[i] = (byte) nextInt;
        }
        return byteArray;
    }
    public int intValue() { return word(0); }
    public long longValue() { return ((long) word(1) << 32) | (word(0) & LONG_MASK); }
    public float floatValue() { return Float.parseFloat(toString()); }
    public double doubleValue() { return Double.parseDouble(toString()); }
    public long longValueExact() {
        if (bitLength() <= 63) return longValue();
        throw new ArithmeticException("BigInteger out of long range");
    }
    public int intValueExact() {
        if (bitLength() <= 31) return intValue();
        throw new ArithmeticException("BigInteger out of int range");
    }
    public BigInteger sqrt() {
        if (signum < 0) throw new ArithmeticException("Negative BigInteger");
        if (signum == 0) return ZERO;
        BigInteger x = ONE.shiftLeft((bitLength() + 1) / 2);
        while (true) {
            BigInteger y = x.add(divide(x)).shiftRight(1);
            if (y.compareTo(x) >= 0) return x;
            x = y;
        }
    }
    public boolean isProbablePrime(int certainty) {
        throw new UnsupportedOperationException("rvm: BigInteger.isProbablePrime is not implemented");
    }
}
