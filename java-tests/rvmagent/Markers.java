import hpmagent.Trace;

/** Places one marker of each kind (compiled against java-tests/workloads/hpmagent/Trace.java). */
public class Markers {
    public static void main(String[] args) {
        Trace.appStart("markers");
        for (int run = 1; run <= 2; run++) {
            Trace.runStart(run, "run " + run);
            Trace.note("inside run " + run + " \u00e9");
            Trace.runComplete(run, "run " + run);
        }
        Trace.appComplete("markers");
        System.out.println("markers placed");
    }
}
