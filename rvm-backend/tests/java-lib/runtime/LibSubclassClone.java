import java.util.BitSet;

/** Object.clone of a library class's subclass is of the subclass (H2's VersionedBitSet relies on it). */
public class LibSubclassClone {
    static final class Versioned extends BitSet {
        long version;

        @Override
        public Versioned clone() {
            return (Versioned) super.clone();
        }
    }

    public static void main(String[] args) {
        Versioned v = new Versioned();
        v.set(3);
        v.set(130);
        v.version = 7;
        Versioned c = v.clone();
        c.set(5);
        System.out.println(c.getClass().getName() + " " + c + " version " + c.version + "; original " + v + " equal " + v.equals(c));
        BitSet plain = new BitSet();
        plain.set(64);
        BitSet pc = (BitSet) plain.clone();
        pc.clear(64);
        System.out.println(pc.getClass().getName() + " " + pc + " " + plain);
    }
}
