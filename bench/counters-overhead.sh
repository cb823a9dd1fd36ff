#!/usr/bin/env bash
# Counter overhead and overhead compensation.
#
#   bench/counters-overhead.sh [RUNS]      (default 5 runs per configuration; medians)
#
# 1. Overhead on a call-heavy program (java-tests/calls/calls/Bench.java: recursive fib, RECORD_ARGS)
#    of: no agent; the agent recording calls with JVMTI method events (calls=jvmti: every metric read at
#    every event; cpu-time + wall-time, no perf counters); plus 1 perf
#    counter (COUNTERS1, default task-clock); plus 4 (COUNTERS4, default task-clock, page-faults,
#    context-switches, cpu-migrations: software events, which every Linux counts; on a machine with a
#    PMU try COUNTERS4=cycles,instructions,cache-misses,branch-misses). Ratios are of wall and CPU time.
# 2. Compensation error on many tiny methods (java-tests/calls/counters/Tiny.java): tiny() does K loop
#    iterations; the program measures the CPU time of the same iterations without calls ("true") and the
#    agent records tiny(); the raw base per call (arcflow-raw.json) and the compensated one
#    (arcflow.json) are compared with the true cost, per run, for cpu-time and task-clock.
# Group read costs (read() and rdpmc) are in `cargo bench -p hpm-collectors --bench counters`.
# Environment: JAVA_HOME (default JDK 17), RECORD_ARGS (default "25 10"), TINY_N (default 100000).
set -euo pipefail
RUNS="${1:-5}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}"
RECORD_ARGS="${RECORD_ARGS:-25 10}"
TINY_N="${TINY_N:-100000}"
COUNTERS1="${COUNTERS1:-task-clock}"
COUNTERS4="${COUNTERS4:-task-clock,page-faults,context-switches,cpu-migrations}"
. "$ROOT/bench/jvm-bench.sh"
"$JAVA_HOME/bin/javac" -d "$WORK/classes" "$ROOT"/java-tests/calls/calls/Bench.java "$ROOT"/java-tests/calls/hpmagent/Agent.java \
  "$ROOT"/java-tests/calls/counters/Tiny.java

events() { local e="" x; IFS=',' read -ra xs <<<"$1"; for x in "${xs[@]}"; do e="$e,event=$x"; done; echo "$e"; }

# timed_java, with the agent's warnings (refused events) shown once.
one() {
  timed_java "$@"
  if grep -q "hpmagent: warning" "$WORK/err"; then grep "hpmagent: warning" "$WORK/err" | sort -u >&2; fi
}

echo "JDK: $("$JAVA_HOME/bin/java" -version 2>&1 | head -1); runs per configuration: $RUNS (median; interleaved)"
echo "cpu: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
CP=(-cp "$WORK/classes" calls.Bench)
A="-agentpath:$LIB=perf-map=off,socket=off,calls=jvmti"
: >"$WORK/none"; : >"$WORK/agent"; : >"$WORK/c1"; : >"$WORK/c4"
for _ in $(seq "$RUNS"); do
  one "${CP[@]}" $RECORD_ARGS >>"$WORK/none"
  one "$A,out=$OUT/a" "${CP[@]}" $RECORD_ARGS >>"$WORK/agent"
  one "$A,out=$OUT/c1$(events "$COUNTERS1")" "${CP[@]}" $RECORD_ARGS >>"$WORK/c1"
  one "$A,out=$OUT/c4$(events "$COUNTERS4")" "${CP[@]}" $RECORD_ARGS >>"$WORK/c4"
done
col() { cut -d' ' -f"$2" "$WORK/$1" | median; }
printf '%-44s %9s %9s\n' "configuration, fib($RECORD_ARGS)" "wall s" "cpu s"
for c in none agent c1 c4; do
  case $c in none) n="no agent";; agent) n="agent, no counters";; c1) n="agent + 1 counter ($COUNTERS1)";; c4) n="agent + 4 counters";; esac
  printf '%-44s %9s %9s\n' "$n" "$(col $c 1)" "$(col $c 2)"
done
echo "4 counters: $COUNTERS4"
for c in c1 c4; do
  awk -v n="$c" -v w="$(col $c 1)" -v cp="$(col $c 2)" -v w0="$(col none 1)" -v c0="$(col none 2)" -v wa="$(col agent 1)" -v ca="$(col agent 2)" \
    'BEGIN {printf "%s: vs no agent wall %.2f cpu %.2f; vs agent without counters wall %.3f cpu %.3f\n", (n=="c1"?"1 counter ":"4 counters"), w/w0, cp/c0, w/wa, cp/ca}'
done

echo
echo "Compensation on tiny methods (Tiny, n=$TINY_N, $RUNS runs, event=task-clock):"
printf '%-5s %10s %12s %12s %12s %12s %12s\n' run metric true-ns raw-ns comp-ns raw-err% comp-err%
for i in $(seq "$RUNS"); do
  d="$OUT/tiny$i"
  "$JAVA_HOME/bin/java" "$A,out=$d,event=task-clock" -cp "$WORK/classes" calls.counters.Tiny "$TINY_N" >"$WORK/tiny.out" 2>"$WORK/err" || { cat "$WORK/err" >&2; exit 1; }
  truth=$(awk '/^inline-ns-per-call/ {print $2}' "$WORK/tiny.out")
  python3 - "$d" "$truth" "$i" <<'PY' | tee -a "$WORK/tiny"
import json, sys
d, truth, run = sys.argv[1], float(sys.argv[2]), sys.argv[3]
def find(node, path):
    if not path: return node
    for c in node["children"]:
        if c["name"] == path[0]:
            return find(c, path[1:])
path = ["calls.counters.Tiny.main", "calls.counters.Tiny.calls", "calls.counters.Tiny.tiny"]
def per_call(f, metric):
    j = json.load(open(f))
    k = [m["name"] for m in j["metrics"]].index(metric)
    main = [t for t in j["threads"] if t["name"] == "main"][0]
    n = find(main["root"], path)
    return n["base"][k] / n["calls"]
for metric in ["cpu-time", "task-clock"]:
    raw, comp = per_call(d + "/arcflow-raw.json", metric), per_call(d + "/arcflow.json", metric)
    print("%-5s %10s %12.1f %12.1f %12.1f %12.1f %12.1f" % (run, metric, truth, raw, comp, abs(raw - truth) * 100 / truth, abs(comp - truth) * 100 / truth))
PY
done
awk '{r[$2]+=$6; c[$2]+=$7; n[$2]++} END {for (m in r) printf "mean error %s: raw %.1f%%, compensated %.1f%% (error reduced by %.0f%%)\n", m, r[m]/n[m], c[m]/n[m], (1 - c[m]/r[m]) * 100}' "$WORK/tiny"
grep -A4 "^metric" "$OUT/tiny1/compensation.txt" | sed 's/^/  /'
