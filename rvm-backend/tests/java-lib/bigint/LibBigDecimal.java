import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Random;

/** java.math.BigDecimal: representation, arithmetic, rounding in every mode, division, on fixed and random values. */
public class LibBigDecimal {
    static String d(BigDecimal x) { return x + "|" + x.scale() + "|" + x.precision(); }

    static void pair(BigDecimal a, BigDecimal b) {
        StringBuilder sb = new StringBuilder();
        sb.append(d(a)).append(" , ").append(d(b)).append(": ").append(d(a.add(b))).append(' ').append(d(a.subtract(b))).append(' ').append(d(a.multiply(b)));
        sb.append(' ').append(a.compareTo(b)).append(' ').append(a.equals(b)).append(' ').append(a.max(b)).append(' ').append(a.min(b));
        if (b.signum() != 0) {
            sb.append(' ').append(d(a.divide(b, 5, RoundingMode.HALF_UP))).append(' ').append(d(a.divide(b, MathContext.DECIMAL64))).append(' ').append(d(a.divide(b, new MathContext(5, RoundingMode.DOWN))));
            sb.append(' ').append(d(a.divide(b, RoundingMode.HALF_EVEN))).append(' ').append(d(a.remainder(b))).append(' ').append(d(a.divideToIntegralValue(b)));
            try {
                sb.append(' ').append(d(a.divide(b)));
            } catch (ArithmeticException e) {
                sb.append(" AE:").append(e.getMessage());
            }
        }
        System.out.println(sb);
    }

    static void single(BigDecimal a) {
        StringBuilder sb = new StringBuilder();
        sb.append(d(a)).append(" plain=").append(a.toPlainString()).append(" hash=").append(a.hashCode()).append(" strip=").append(d(a.stripTrailingZeros()));
        for (RoundingMode m : RoundingMode.values()) {
            if (m == RoundingMode.UNNECESSARY) continue;
            sb.append(' ').append(m.name().charAt(0)).append(m.ordinal()).append('=').append(a.setScale(1, m)).append('/').append(a.round(new MathContext(3, m)));
        }
        sb.append(" int=").append(a.intValue()).append(" long=").append(a.longValue()).append(" bi=").append(a.toBigInteger()).append(" dbl=").append(Long.toHexString(Double.doubleToLongBits(a.doubleValue())));
        sb.append(" neg=").append(a.negate()).append(" pow3=").append(a.pow(3)).append(" mpl=").append(a.movePointLeft(3)).append(" mpr=").append(a.movePointRight(2)).append(" sbp=").append(a.scaleByPowerOfTen(-8)).append(" ulp=").append(a.ulp());
        try {
            sb.append(" exact0=").append(a.setScale(0));
        } catch (ArithmeticException e) {
            sb.append(" AE:").append(e.getMessage());
        }
        System.out.println(sb);
    }

    public static void main(String[] args) {
        String[] fixed = {"0", "1", "-1", "0.1", "2.50", "-3.14159", "100", "1E+3", "1.000", "123456789.987654321", "-0.000001234", "7", "3", "2.5E-10", "99.995", "0.00", "-1.5", "1e2", "12345678901234567890.5"};
        for (String s : fixed) single(new BigDecimal(s));
        for (int i = 0; i < fixed.length; i++) pair(new BigDecimal(fixed[i]), new BigDecimal(fixed[(i * 7 + 4) % fixed.length]));
        Random r = new Random(99);
        for (int i = 0; i < 30; i++) {
            BigDecimal a = BigDecimal.valueOf(r.nextLong() % 10000000, r.nextInt(9) - 2);
            BigDecimal b = new BigDecimal(BigInteger.valueOf(r.nextInt(20000) - 10000), r.nextInt(6));
            pair(a, b);
            single(a);
        }
        for (double x : new double[] {0.1, 0.5, 2.0, 100.0, 1e-5, -123.456, 1.0 / 3, 1e20, Double.MIN_VALUE}) {
            System.out.println(BigDecimal.valueOf(x) + " " + new BigDecimal(x).precision() + " " + new BigDecimal(x).scale() + " " + new BigDecimal(x).toString().length() + " " + new BigDecimal(x, MathContext.DECIMAL32));
        }
        System.out.println(new BigDecimal(0.1));
        System.out.println(BigDecimal.ONE.divide(BigDecimal.valueOf(8)) + " " + BigDecimal.TEN.divide(new BigDecimal("0.25")) + " " + new BigDecimal("1.00").divide(new BigDecimal("4")) + " " + new BigDecimal("6E+3").divide(new BigDecimal("2")));
        for (String bad : new String[] {"", "1.2.3", "abc", "1e", "--1"}) {
            try {
                new BigDecimal(bad);
                System.out.println("parsed " + bad);
            } catch (NumberFormatException e) {
                System.out.println("NFE " + bad);
            }
        }
        try {
            BigDecimal.ONE.divide(BigDecimal.ZERO);
        } catch (ArithmeticException e) {
            System.out.println("AE " + e.getMessage());
        }
        try {
            new BigDecimal("1.25").setScale(1);
        } catch (ArithmeticException e) {
            System.out.println("AE " + e.getMessage());
        }
    }
}
