import java.math.BigInteger;
import java.util.Arrays;
import java.util.Random;

/** java.math.BigInteger: arithmetic, bits, conversions and hash codes on fixed and random values. */
public class LibBigInteger {
    static void show(BigInteger a, BigInteger b) {
        StringBuilder sb = new StringBuilder();
        sb.append(a).append(" ").append(b).append(": ").append(a.add(b)).append(' ').append(a.subtract(b)).append(' ').append(a.multiply(b));
        if (b.signum() != 0) sb.append(' ').append(a.divide(b)).append(' ').append(a.remainder(b)).append(' ').append(Arrays.toString(a.divideAndRemainder(b)));
        if (b.signum() > 0) sb.append(' ').append(a.mod(b));
        sb.append(' ').append(a.compareTo(b)).append(' ').append(a.equals(b)).append(' ').append(a.gcd(b)).append(' ').append(a.and(b)).append(' ').append(a.or(b)).append(' ').append(a.xor(b)).append(' ').append(a.andNot(b));
        System.out.println(sb);
        System.out.println("  " + a.hashCode() + " " + a.bitLength() + " " + a.bitCount() + " " + a.getLowestSetBit() + " " + a.signum() + " " + a.negate() + " " + a.abs() + " " + a.not() + " " + a.shiftLeft(37) + " " + a.shiftRight(3) + " " + a.shiftRight(70) + " " + a.testBit(5) + " " + a.longValue() + " " + a.intValue() + " " + Long.toHexString(Double.doubleToLongBits(a.doubleValue())) + " " + Arrays.toString(a.toByteArray()) + " " + a.toString(16) + " " + a.toString(7) + " " + new BigInteger(a.toByteArray()).equals(a));
    }

    public static void main(String[] args) {
        String[] fixed = {"0", "1", "-1", "7", "-7", "4294967295", "4294967296", "-4294967296", "9223372036854775807", "-9223372036854775808", "18446744073709551616",
            "123456789012345678901234567890", "-98765432109876543210987654321", "340282366920938463463374607431768211456"};
        for (int i = 0; i < fixed.length; i++) show(new BigInteger(fixed[i]), new BigInteger(fixed[(i * 5 + 3) % fixed.length]));
        Random r = new Random(2024);
        for (int i = 0; i < 40; i++) {
            BigInteger a = new BigInteger(r.nextBoolean() ? "-" + Math.abs(r.nextLong()) + Math.abs(r.nextInt()) : Long.toString(r.nextLong()));
            BigInteger b = BigInteger.valueOf(r.nextInt(1000000) - 500000).multiply(BigInteger.valueOf(r.nextLong()));
            show(a, b);
        }
        BigInteger f = BigInteger.ONE;
        for (int i = 1; i <= 50; i++) f = f.multiply(BigInteger.valueOf(i));
        System.out.println(f + " " + f.bitLength() + " " + f.sqrt() + " " + BigInteger.TWO.pow(200) + " " + BigInteger.valueOf(3).modPow(BigInteger.valueOf(200), BigInteger.valueOf(1000007)) + " " + f.hashCode());
        System.out.println(new BigInteger("ff", 16) + " " + new BigInteger("-zz", 36) + " " + BigInteger.valueOf(Long.MIN_VALUE) + " " + BigInteger.TEN.min(BigInteger.ONE) + " " + BigInteger.ONE.setBit(100).clearBit(0).flipBit(3));
        try {
            new BigInteger("12x");
        } catch (NumberFormatException e) {
            System.out.println("NFE " + e.getMessage());
        }
        try {
            BigInteger.ONE.divide(BigInteger.ZERO);
        } catch (ArithmeticException e) {
            System.out.println("AE " + e.getMessage());
        }
    }
}
