import java.util.TreeSet;
import java.util.UUID;

/** java.util.UUID: text form both ways, bits, version and variant, order, hash; random ones' form. */
public class LibUuid {
    public static void main(String[] args) {
        String[] texts = { "123e4567-e89b-12d3-a456-426614174000", "00000000-0000-0000-0000-000000000000", "ffffffff-ffff-4fff-bfff-ffffffffffff", "1-2-3-4-5" };
        TreeSet<UUID> sorted = new TreeSet<>();
        for (String t : texts) {
            UUID u = UUID.fromString(t);
            sorted.add(u);
            System.out.println(t + " -> " + u + " msb " + Long.toHexString(u.getMostSignificantBits()) + " lsb " + Long.toHexString(u.getLeastSignificantBits())
                    + " version " + u.version() + " variant " + u.variant() + " hash " + u.hashCode());
        }
        System.out.println("sorted " + sorted);
        System.out.println("equals " + UUID.fromString(texts[0]).equals(new UUID(0x123e4567e89b12d3L, 0xa456426614174000L)));
        for (int i = 0; i < 3; i++) {
            UUID r = UUID.randomUUID();
            System.out.println("random: version " + r.version() + " variant " + r.variant() + " length " + r.toString().length() + " round trip " + UUID.fromString(r.toString()).equals(r));
        }
        try {
            UUID.fromString("not-a-uuid");
        } catch (IllegalArgumentException e) {
            System.out.println("bad: IllegalArgumentException");
        }
    }
}
