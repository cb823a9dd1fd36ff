public class Arith {
    static volatile int zero = 0;
    public static void main(String[] args) {
        int max = Integer.MAX_VALUE, min = Integer.MIN_VALUE;
        System.out.println(max + 1);
        System.out.println(min - 1);
        System.out.println(max * 2);
        System.out.println(min / -1);
        System.out.println(min % -1);
        System.out.println(-7 / 2 + " " + -7 % 2 + " " + 7 % -2);
        System.out.println((1 << 33) + " " + (1L << 65) + " " + (-16 >> 2) + " " + (-16 >>> 28) + " " + (-16L >>> 60));
        long lmax = Long.MAX_VALUE;
        System.out.println(lmax + 1);
        System.out.println(Long.MIN_VALUE / -1);
        try { System.out.println(5 / zero); } catch (ArithmeticException e) { System.out.println("caught " + e.getMessage()); }
        try { System.out.println(5L % zero); } catch (ArithmeticException e) { System.out.println("caught " + e); }
        System.out.println(5.0 / zero + " " + -5.0 / zero + " " + 0.0 / zero);
        double nan = Double.NaN;
        System.out.println((nan < 1) + " " + (nan > 1) + " " + (nan == nan) + " " + (nan != nan));
        System.out.println((int) nan + " " + (long) nan + " " + (int) 1e20 + " " + (int) -1e20 + " " + (long) 1e30 + " " + (int) 3.99 + " " + (int) -3.99);
        System.out.println((int) Float.POSITIVE_INFINITY + " " + (char) 65.7 + " " + (byte) 200 + " " + (short) 70000 + " " + (char) -1 + 0);
        System.out.println(0.1 + 0.2);
        System.out.println(1.0 / 3);
        System.out.println(100.0 + " " + 1e7 + " " + 1e-3 + " " + 1e-4 + " " + 123456789.0 + " " + 1234567.0);
        System.out.println(0.1f + 0.2f);
        System.out.println(1.0f / 3 + " " + 1e10f + " " + 3.4028235e38f + " " + 1.17549435E-38f);
        System.out.println(-0.0 + " " + (0.0 == -0.0) + " " + Double.compare(0.0, -0.0) + " " + Math.min(0.0, -0.0));
        System.out.println(Double.MIN_VALUE + " " + Double.MAX_VALUE + " " + (float) 1e-50);
        System.out.println(5.5 % 2 + " " + -5.5 % 2 + " " + 5.5f % -2);
        System.out.println(Math.floor(-2.5) + " " + Math.ceil(-2.5) + " " + Math.round(-2.5) + " " + Math.round(2.5) + " " + Math.round(2.4f) + " " + Math.rint(2.5));
        System.out.println(Math.sqrt(2) + " " + Math.pow(2, 0.5) + " " + Math.abs(-7) + " " + Math.abs(Integer.MIN_VALUE) + " " + Math.max(3L, 9L));
        System.out.println(Integer.toHexString(-1) + " " + Integer.toBinaryString(10) + " " + Long.toHexString(Long.MIN_VALUE) + " " + Integer.toString(-255, 16));
        System.out.println(Integer.parseInt("-123") + " " + Long.parseLong("9223372036854775807") + " " + Integer.parseInt("7f", 16));
        try { Integer.parseInt("12x"); } catch (NumberFormatException e) { System.out.println(e.getMessage()); }
        try { Integer.parseInt("99999999999"); } catch (NumberFormatException e) { System.out.println(e.getMessage()); }
        System.out.println(Double.parseDouble("3.25") * 2 + " " + Double.valueOf("1e3"));
        System.out.println(Integer.MAX_VALUE + Integer.MIN_VALUE + " " + Integer.bitCount(255) + " " + Integer.numberOfLeadingZeros(1) + " " + Long.numberOfTrailingZeros(64));
        char c = 'a';
        c += 2;
        c++;
        System.out.println(c + " " + (int) c + " " + (char) (c + 1) + " " + Character.toUpperCase(c) + " " + Character.isDigit('5'));
        byte b = (byte) 127;
        b++;
        short s = (short) -32768;
        s--;
        System.out.println(b + " " + s);
        long acc = 17;
        for (int i = 0; i < 100; i++) acc = acc * 6364136223846793005L + 1442695040888963407L;
        System.out.println(acc);
        double d = 0;
        for (int i = 1; i <= 1000; i++) d += 1.0 / i;
        System.out.println(d);
        float f = 0;
        for (int i = 1; i <= 1000; i++) f += 1.0f / i;
        System.out.println(f);
        int[] arr = { 5, 3, 9, 1 };
        int sum = 0;
        for (int x : arr) sum += x;
        System.out.println(sum + " " + arr.length);
        System.out.println(Integer.valueOf(127) == Integer.valueOf(127));
        System.out.println(Long.hashCode(1L << 40) + " " + Double.hashCode(1.5) + " " + Boolean.hashCode(true) + " " + Float.floatToIntBits(1.5f));
        switch (arr[2]) {
            case 1: System.out.println("one"); break;
            case 9: System.out.println("nine");
            case 10: System.out.println("fallthrough"); break;
            default: System.out.println("default");
        }
        switch (arr[0] * 1000) {
            case 1000: System.out.println("k"); break;
            case 5000: System.out.println("5k"); break;
            case 1000000: System.out.println("M"); break;
            default: System.out.println("?");
        }
    }
}
