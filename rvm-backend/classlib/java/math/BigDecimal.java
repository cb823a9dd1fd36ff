package java.math;

/**
 * Decimal numbers as the JDK's: an unscaled BigInteger and a scale, with the JDK's toString,
 * equals (scale-sensitive), hashCode and preferred scales. Rounding goes through one exact
 * integer division with the remainder deciding the last digit.
 */
public class BigDecimal extends Number implements Comparable<BigDecimal> {
    private final BigInteger intVal;
    private final int scale;
    private transient int precision;

    public static final BigDecimal ZERO = new BigDecimal(BigInteger.ZERO, 0);
    public static final BigDecimal ONE = new BigDecimal(BigInteger.ONE, 0);
    public static final BigDecimal TWO = new BigDecimal(BigInteger.TWO, 0);
    public static final BigDecimal TEN = new BigDecimal(BigInteger.TEN, 0);
    public static final int ROUND_UP = 0, ROUND_DOWN = 1, ROUND_CEILING = 2, ROUND_FLOOR = 3, ROUND_HALF_UP = 4, ROUND_HALF_DOWN = 5, ROUND_HALF_EVEN = 6, ROUND_UNNECESSARY = 7;

    public BigDecimal(BigInteger unscaledVal, int scale) { intVal = unscaledVal; this.scale = scale; }
    public BigDecimal(BigInteger val) { this(val, 0); }
    public BigDecimal(BigInteger unscaledVal, int scale, MathContext mc) { this(new BigDecimal(unscaledVal, scale).round(mc)); }
    private BigDecimal(BigDecimal d) { intVal = d.intVal; scale = d.scale; }
    public BigDecimal(int val) { this(BigInteger.valueOf(val), 0); }
    public BigDecimal(long val) { this(BigInteger.valueOf(val), 0); }
    public BigDecimal(char[] in) { this(new String(in)); }
    public BigDecimal(String val) { this(parse(val)); }
    public BigDecimal(String val, MathContext mc) { this(parse(val).round(mc)); }
    public BigDecimal(double val) { this(exact(val)); }
    public BigDecimal(double val, MathContext mc) { this(exact(val).round(mc)); }

    private static BigDecimal parse(String s) {
        int n = s.length();
        if (n == 0) throw new NumberFormatException("Character array is missing \"exponent\" mark 'e' or 'E'.");
        int i = 0;
        boolean neg = false;
        if (s.charAt(0) == '-' || s.charAt(0) == '+') { neg = s.charAt(0) == '-'; i++; }
        StringBuilder digits = new StringBuilder();
        int scale = 0;
        boolean dot = false, any = false;
        for (; i < n; i++) {
            char c = s.charAt(i);
            if (c >= '0' && c <= '9') { digits.append(c); any = true; if (dot) scale++; }
            else if (c == '.' && !dot) dot = true;
            else if (c == 'e' || c == 'E') break;
            else throw new NumberFormatException("Character " + c + " is neither a decimal digit number, decimal point, nor \"e\" notation exponential mark.");
        }
        if (!any) throw new NumberFormatException("No digits found.");
        if (i < n) {
            String e = s.substring(i + 1);
            if (e.isEmpty()) throw new NumberFormatException("No exponent digits.");
            long exp = Long.parseLong(e.startsWith("+") ? e.substring(1) : e);
            long sc = scale - exp;
            if (sc > Integer.MAX_VALUE || sc < Integer.MIN_VALUE) throw new NumberFormatException("Scale out of range.");
            scale = (int) sc;
        }
        BigInteger u = new BigInteger(digits.toString());
        return new BigDecimal(neg ? u.negate() : u, scale);
    }

    private static BigDecimal exact(double val) {
        if (Double.isInfinite(val) || Double.isNaN(val)) throw new NumberFormatException("Infinite or NaN");
        long bits = Double.doubleToLongBits(val);
        int sign = ((bits >> 63) == 0 ? 1 : -1);
        int exponent = (int) ((bits >> 52) & 0x7ffL);
        long significand = (exponent == 0 ? (bits & ((1L << 52) - 1)) << 1 : (bits & ((1L << 52) - 1)) | (1L << 52));
        exponent -= 1075;
        if (significand == 0) return new BigDecimal(BigInteger.ZERO, 0);
        while ((significand & 1) == 0) { significand >>= 1; exponent++; }
        BigInteger m = BigInteger.valueOf(sign * significand);
        if (exponent >= 0) return new BigDecimal(m.shiftLeft(exponent), 0);
        return new BigDecimal(m.multiply(BigInteger.valueOf(5).pow(-exponent)), -exponent);
    }

    public static BigDecimal valueOf(long unscaledVal, int scale) { return new BigDecimal(BigInteger.valueOf(unscaledVal), scale); }
    public static BigDecimal valueOf(long val) { return new BigDecimal(BigInteger.valueOf(val), 0); }
    public static BigDecimal valueOf(double val) { return new BigDecimal(Double.toString(val)); }

    private static BigInteger tenPow(int n) { return BigInteger.TEN.pow(n); }

    /** num / den rounded to an integer by mode. */
    private static BigInteger divideAndRound(BigInteger num, BigInteger den, RoundingMode mode) {
        BigInteger[] qr = num.divideAndRemainder(den);
        BigInteger q = qr[0], r = qr[1];
        if (r.signum() == 0) return q;
        int sign = num.signum() * den.signum();
        boolean up;
        int half = r.abs().shiftLeft(1).compareTo(den.abs());
        switch (mode) {
            case UNNECESSARY: throw new ArithmeticException("Rounding necessary");
            case UP: up = true; break;
            case DOWN: up = false; break;
            case CEILING: up = sign > 0; break;
            case FLOOR: up = sign < 0; break;
            case HALF_UP: up = half >= 0; break;
            case HALF_DOWN: up = half > 0; break;
            default: up = half > 0 || (half == 0 && q.testBit(0)); break;
        }
        return up ? q.add(BigInteger.valueOf(sign)) : q;
    }

    public BigInteger unscaledValue() { return intVal; }
    public int scale() { return scale; }
    public int signum() { return intVal.signum(); }
    public int precision() {
        int p = precision;
        if (p == 0) {
            p = intVal.signum() == 0 ? 1 : intVal.abs().toString().length();
            precision = p;
        }
        return p;
    }

    private static BigDecimal aligned(BigInteger v, int from, int to) { return new BigDecimal(v.multiply(tenPow(to - from)), to); }
    public BigDecimal add(BigDecimal augend) {
        if (scale == augend.scale) return new BigDecimal(intVal.add(augend.intVal), scale);
        if (scale > augend.scale) return new BigDecimal(intVal.add(augend.intVal.multiply(tenPow(scale - augend.scale))), scale);
        return new BigDecimal(intVal.multiply(tenPow(augend.scale - scale)).add(augend.intVal), augend.scale);
    }
    public BigDecimal add(BigDecimal augend, MathContext mc) { return add(augend).round(mc); }
    public BigDecimal subtract(BigDecimal subtrahend) { return add(subtrahend.negate()); }
    public BigDecimal subtract(BigDecimal subtrahend, MathContext mc) { return subtract(subtrahend).round(mc); }
    public BigDecimal multiply(BigDecimal multiplicand) { return new BigDecimal(intVal.multiply(multiplicand.intVal), checkScale((long) scale + multiplicand.scale)); }
    public BigDecimal multiply(BigDecimal multiplicand, MathContext mc) { return multiply(multiplicand).round(mc); }
    private static int checkScale(long s) {
        if (s > Integer.MAX_VALUE || s < Integer.MIN_VALUE) throw new ArithmeticException(s > 0 ? "Underflow" : "Overflow");
        return (int) s;
    }
    public BigDecimal negate() { return new BigDecimal(intVal.negate(), scale); }
    public BigDecimal abs() { return signum() < 0 ? negate() : this; }
    public BigDecimal plus() { return this; }

    public BigDecimal setScale(int newScale, RoundingMode roundingMode) {
        if (newScale == scale) return this;
        if (newScale > scale) return new BigDecimal(intVal.multiply(tenPow(newScale - scale)), newScale);
        return new BigDecimal(divideAndRound(intVal, tenPow(scale - newScale), roundingMode), newScale);
    }
    public BigDecimal setScale(int newScale, int roundingMode) { return setScale(newScale, RoundingMode.valueOf(roundingMode)); }
    public BigDecimal setScale(int newScale) { return setScale(newScale, RoundingMode.UNNECESSARY); }

    public BigDecimal round(MathContext mc) {
        int p = mc.precision;
        if (p == 0 || precision() <= p) return this;
        int drop = precision() - p;
        BigInteger r = divideAndRound(intVal, tenPow(drop), mc.roundingMode);
        int newScale = checkScale((long) scale - drop);
        BigDecimal d = new BigDecimal(r, newScale);
        if (d.precision() > p) d = new BigDecimal(divideAndRound(r, BigInteger.TEN, mc.roundingMode), checkScale((long) newScale - 1));
        return d;
    }

    private static void checkDivisor(BigDecimal dividend, BigDecimal divisor) {
        if (divisor.signum() == 0) {
            if (dividend.signum() == 0) throw new ArithmeticException("Division undefined");
            throw new ArithmeticException("Division by zero");
        }
    }
    public BigDecimal divide(BigDecimal divisor, int scale, RoundingMode roundingMode) {
        checkDivisor(this, divisor);
        // this / divisor at `scale`: (u1 * 10^(scale - s1 + s2)) / u2
        long shift = (long) scale - this.scale + divisor.scale;
        BigInteger num = intVal, den = divisor.intVal;
        if (shift >= 0) num = num.multiply(tenPow((int) shift)); else den = den.multiply(tenPow((int) -shift));
        return new BigDecimal(divideAndRound(num, den, roundingMode), scale);
    }
    public BigDecimal divide(BigDecimal divisor, int scale, int roundingMode) { return divide(divisor, scale, RoundingMode.valueOf(roundingMode)); }
    public BigDecimal divide(BigDecimal divisor, RoundingMode roundingMode) { return divide(divisor, scale, roundingMode); }
    public BigDecimal divide(BigDecimal divisor, int roundingMode) { return divide(divisor, scale, RoundingMode.valueOf(roundingMode)); }

    /** The exact quotient with the smallest scale not below the preferred one; a non-terminating quotient throws. */
    public BigDecimal divide(BigDecimal divisor) {
        checkDivisor(this, divisor);
        int preferredScale = checkScale((long) scale - divisor.scale);
        if (signum() == 0) return new BigDecimal(BigInteger.ZERO, preferredScale);
        BigInteger den = divisor.intVal.abs().divide(divisor.intVal.abs().gcd(intVal.abs()));
        int twos = 0, fives = 0;
        BigInteger five = BigInteger.valueOf(5);
        while (!den.testBit(0)) { den = den.shiftRight(1); twos++; }
        while (den.mod(five).signum() == 0) { den = den.divide(five); fives++; }
        if (!den.equals(BigInteger.ONE)) throw new ArithmeticException("Non-terminating decimal expansion; no exact representable decimal result.");
        int s = preferredScale + Math.max(twos, fives);
        BigDecimal q = divide(divisor, s, RoundingMode.UNNECESSARY);
        return q.stripZerosTo(preferredScale);
    }
    public BigDecimal divide(BigDecimal divisor, MathContext mc) {
        if (mc.precision == 0) return divide(divisor);
        checkDivisor(this, divisor);
        int preferredScale = checkScale((long) scale - divisor.scale);
        if (signum() == 0) return new BigDecimal(BigInteger.ZERO, preferredScale);
        long adj = ((long) precision() - scale) - ((long) divisor.precision() - divisor.scale);
        int s = checkScale(mc.precision + 3 - adj);
        long shift = (long) s - scale + divisor.scale;
        BigInteger num = intVal, den = divisor.intVal;
        if (shift >= 0) num = num.multiply(tenPow((int) shift)); else den = den.multiply(tenPow((int) -shift));
        BigInteger[] qr = num.divideAndRemainder(den);
        BigDecimal q;
        if (qr[1].signum() == 0) {
            q = new BigDecimal(qr[0], s);
        } else {
            // a sticky digit keeps the rounding of the inexact quotient right
            int sign = num.signum() * den.signum();
            q = new BigDecimal(qr[0].multiply(BigInteger.TEN).add(BigInteger.valueOf(sign)), s + 1);
        }
        q = q.round(mc);
        return qr[1].signum() == 0 ? q.stripOnly(preferredScale) : q;
    }
    /** Trailing zeros removed while the scale is above the preferred one (never padded). */
    private BigDecimal stripOnly(int preferredScale) {
        BigInteger v = intVal;
        int sc = scale;
        while (sc > preferredScale && v.signum() != 0) {
            BigInteger[] qr = v.divideAndRemainder(BigInteger.TEN);
            if (qr[1].signum() != 0) break;
            v = qr[0];
            sc--;
        }
        return new BigDecimal(v, sc);
    }
    private BigDecimal stripZerosTo(int preferredScale) {
        BigInteger v = intVal;
        int sc = scale;
        while (sc > preferredScale && v.signum() != 0) {
            BigInteger[] qr = v.divideAndRemainder(BigInteger.TEN);
            if (qr[1].signum() != 0) break;
            v = qr[0];
            sc--;
        }
        if (sc < preferredScale) return new BigDecimal(v, sc).setScale(preferredScale);
        return new BigDecimal(v, sc);
    }
    public BigDecimal stripTrailingZeros() {
        if (intVal.signum() == 0) return ZERO;
        return stripZerosTo(Integer.MIN_VALUE);
    }
    public BigDecimal divideToIntegralValue(BigDecimal divisor) {
        int preferredScale = checkScale((long) scale - divisor.scale);
        BigDecimal q = divide(divisor, 0, RoundingMode.DOWN);
        if (q.signum() == 0) return new BigDecimal(BigInteger.ZERO, preferredScale);
        if (preferredScale > 0) return q.setScale(preferredScale);
        return q.stripOnly(preferredScale);
    }
    public BigDecimal remainder(BigDecimal divisor) { return subtract(divideToIntegralValue(divisor).multiply(divisor)); }
    public BigDecimal[] divideAndRemainder(BigDecimal divisor) {
        BigDecimal q = divideToIntegralValue(divisor);
        return new BigDecimal[] { q, subtract(q.multiply(divisor)) };
    }
    public BigDecimal pow(int n) {
        if (n < 0 || n > 999999999) throw new ArithmeticException("Invalid operation");
        return new BigDecimal(intVal.pow(n), checkScale((long) scale * n));
    }
    public BigDecimal movePointLeft(int n) {
        BigDecimal num = new BigDecimal(intVal, checkScale((long) scale + n));
        return num.scale < 0 ? num.setScale(0, RoundingMode.UNNECESSARY) : num;
    }
    public BigDecimal movePointRight(int n) {
        BigDecimal num = new BigDecimal(intVal, checkScale((long) scale - n));
        return num.scale < 0 ? num.setScale(0, RoundingMode.UNNECESSARY) : num;
    }
    public BigDecimal scaleByPowerOfTen(int n) { return new BigDecimal(intVal, checkScale((long) scale - n)); }
    public BigDecimal min(BigDecimal val) { return compareTo(val) <= 0 ? this : val; }
    public BigDecimal max(BigDecimal val) { return compareTo(val) >= 0 ? this : val; }
    public BigDecimal ulp() { return new BigDecimal(BigInteger.ONE, scale); }

    public int compareTo(BigDecimal val) {
        if (scale == val.scale) return intVal.compareTo(val.intVal);
        if (scale > val.scale) return intVal.compareTo(val.intVal.multiply(tenPow(scale - val.scale)));
        return intVal.multiply(tenPow(val.scale - scale)).compareTo(val.intVal);
    }
    public boolean equals(Object x) {
        if (!(x instanceof BigDecimal)) return false;
        BigDecimal d = (BigDecimal) x;
        return scale == d.scale && intVal.equals(d.intVal);
    }
    public int hashCode() { return 31 * intVal.hashCode() + scale; }

    public String toString() {
        String coeff = intVal.abs().toString();
        StringBuilder buf = new StringBuilder();
        if (intVal.signum() < 0) buf.append('-');
        int coeffLen = coeff.length();
        long adjusted = -(long) scale + (coeffLen - 1);
        if ((scale >= 0) && (adjusted >= -6)) {
            int pad = scale - coeffLen;
            if (pad >= 0) {
                buf.append('0');
                buf.append('.');
                for (; pad > 0; pad--) buf.append('0');
                buf.append(coeff);
            } else {
                buf.append(coeff, 0, -pad);
                if (scale > 0) {
                    buf.append('.');
                    buf.append(coeff, -pad, coeffLen);
                }
            }
        } else {
            buf.append(coeff.charAt(0));
            if (coeffLen > 1) {
                buf.append('.');
                buf.append(coeff, 1, coeffLen);
            }
            if (adjusted != 0) {
                buf.append('E');
                if (adjusted > 0) buf.append('+');
                buf.append(adjusted);
            }
        }
        return buf.toString();
    }
    public String toPlainString() {
        if (scale == 0) return intVal.toString();
        if (scale < 0) {
            if (signum() == 0) return "0";
            StringBuilder b = new StringBuilder(intVal.toString());
            for (int i = 0; i < -scale; i++) b.append('0');
            return b.toString();
        }
        String coeff = intVal.abs().toString();
        StringBuilder b = new StringBuilder();
        if (signum() < 0) b.append('-');
        int insertionPoint = coeff.length() - scale;
        if (insertionPoint == 0) {
            b.append("0.").append(coeff);
        } else if (insertionPoint > 0) {
            b.append(coeff, 0, insertionPoint).append('.').append(coeff, insertionPoint, coeff.length());
        } else {
            b.append("0.");
            for (int i = 0; i < -insertionPoint; i++) b.append('0');
            b.append(coeff);
        }
        return b.toString();
    }
    public BigInteger toBigInteger() { return setScale(0, RoundingMode.DOWN).intVal; }
    public BigInteger toBigIntegerExact() { return setScale(0, RoundingMode.UNNECESSARY).intVal; }
    public long longValue() { return toBigInteger().longValue(); }
    public int intValue() { return toBigInteger().intValue(); }
    public long longValueExact() {
        BigInteger b = toBigIntegerExact();
        if (b.bitLength() > 63) throw new ArithmeticException("Overflow");
        return b.longValue();
    }
    public int intValueExact() {
        BigInteger b = toBigIntegerExact();
        if (b.bitLength() > 31) throw new ArithmeticException("Overflow");
        return b.intValue();
    }
    public float floatValue() { return Float.parseFloat(toString()); }
    public double doubleValue() { return Double.parseDouble(toString()); }
}
