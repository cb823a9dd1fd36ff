package java.time;

import java.time.temporal.TemporalAmount;
import java.time.temporal.UnsupportedTemporalTypeException;

/** The amounts rvm's date-time classes add: durations only. */
final class Amounts {
    private Amounts() {}

    static Duration duration(TemporalAmount amount) {
        if (amount == null) throw new NullPointerException("amountToAdd");
        if (amount instanceof Duration) return (Duration) amount;
        throw new UnsupportedTemporalTypeException("rvm: only a Duration can be added here, not " + amount.getClass().getName());
    }
}
