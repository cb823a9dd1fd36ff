package calls;

import hpmagent.Agent;

/**
 * Pause and resume from Java code: outer() pauses, middle() (entered while paused) calls hidden()
 * and resumes, then calls inner() twice. Expected on main: before, outer, outer;pause,
 * outer;middle (0 calls: re-synchronised from the stack), outer;middle;inner (2), after. hidden()
 * never appears.
 */
public class PauseResume {
    static int sink;

    static void before() { sink++; }

    static void hidden() { sink += 2; }

    static void inner() { sink += 3; }

    static void after() { sink += 4; }

    static void middle() {
        hidden();
        if (!Agent.resume()) throw new IllegalStateException("was not paused");
        inner();
        inner();
    }

    static void outer() {
        if (!Agent.pause()) throw new IllegalStateException("was not recording");
        middle();
    }

    public static void main(String[] args) {
        before();
        outer();
        after();
        System.out.println(Agent.status());
    }
}
