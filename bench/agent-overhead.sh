#!/usr/bin/env bash
# Overhead of JVMTI method events (calls=jvmti) on a call-heavy program (java-tests/calls/calls/Bench.java:
# recursive fib). For the default bytecode probes see bench/calls-overhead.sh.
#
#   bench/agent-overhead.sh [RUNS]        (default 5 runs per configuration; the median is used)
#
# Builds libhpmagent.so (release) and compares wall time of:
#   none      no agent
#   recording agent loaded, recording method entry/exit (HotSpot in interpreter-only mode)
#   paused    agent loaded with start=paused (method events off: HotSpot runs compiled code)
#   paused-at-run  agent recording from the start; main calls hpmagent.Agent.pause() first thing
#             (method events turned off at run time: HotSpot must leave interpreter-only mode)
# Recording is ~100x slower, so it is measured on a smaller workload (RECORD_ARGS) than the paused
# comparison (PAUSED_ARGS); each ratio is against "none" on the same workload.
# The reports go to a tmpfs (/dev/shm) when there is one: writing them at exit (each file fsynced) is a
# fixed cost of 0.1-0.5 s on a busy disk that has nothing to do with the agent's running overhead.
# Environment: JAVA_HOME (default JDK 17), RECORD_ARGS (default "27 10"), PAUSED_ARGS (default "36 10"),
# BENCH_OUT (report directory base, default /dev/shm or a temporary directory).
set -euo pipefail
RUNS="${1:-5}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}"
RECORD_ARGS="${RECORD_ARGS:-27 10}"
PAUSED_ARGS="${PAUSED_ARGS:-36 10}"
. "$ROOT/bench/jvm-bench.sh"
"$JAVA_HOME/bin/javac" -d "$WORK/classes" "$ROOT"/java-tests/calls/calls/Bench.java "$ROOT"/java-tests/calls/hpmagent/Agent.java

echo "JDK: $("$JAVA_HOME/bin/java" -version 2>&1 | head -1); runs per configuration: $RUNS (median; configurations interleaved)"
echo "reports to: $OUT"
echo "cpu: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"

CP=(-cp "$WORK/classes" calls.Bench)
: >"$WORK/none_r"; : >"$WORK/rec"; : >"$WORK/none_p"; : >"$WORK/paused"; : >"$WORK/prun"
for _ in $(seq "$RUNS"); do
  timed_java "${CP[@]}" $RECORD_ARGS >>"$WORK/none_r"
  timed_java "-agentpath:$LIB=out=$OUT/rec,perf-map=off,calls=jvmti" "${CP[@]}" $RECORD_ARGS >>"$WORK/rec"
  timed_java "${CP[@]}" $PAUSED_ARGS >>"$WORK/none_p"
  timed_java "-agentpath:$LIB=out=$OUT/paused,start=paused,perf-map=off,calls=jvmti" "${CP[@]}" $PAUSED_ARGS >>"$WORK/paused"
  timed_java "-agentpath:$LIB=out=$OUT/prun,perf-map=off,calls=jvmti" -Dhpm.pause=true "${CP[@]}" $PAUSED_ARGS >>"$WORK/prun"
done
col() { cut -d' ' -f"$2" "$WORK/$1" | median; }
none_r=$(col none_r 1); rec=$(col rec 1); none_p=$(col none_p 1); paused=$(col paused 1)
prun=$(col prun 1); prun_c=$(col prun 2)
none_r_c=$(col none_r 2); rec_c=$(col rec 2); none_p_c=$(col none_p 2); paused_c=$(col paused 2)

printf '%-32s %9s %9s\n' "configuration" "wall s" "cpu s"
printf '%-32s %9s %9s\n' "none      fib($RECORD_ARGS)" "$none_r" "$none_r_c" "recording fib($RECORD_ARGS)" "$rec" "$rec_c" \
  "none      fib($PAUSED_ARGS)" "$none_p" "$none_p_c" "paused    fib($PAUSED_ARGS)" "$paused" "$paused_c" "paused-at-run fib($PAUSED_ARGS)" "$prun" "$prun_c"
awk -v a="$rec" -v b="$none_r" -v c="$rec_c" -v d="$none_r_c" 'BEGIN {printf "recording / none: wall %.2f, cpu %.2f\n", a/b, c/d}'
awk -v a="$paused" -v b="$none_p" -v c="$paused_c" -v d="$none_p_c" 'BEGIN {printf "paused / none:    wall %.3f, cpu %.3f (target < 1.05)\n", a/b, c/d}'
awk -v a="$prun" -v b="$none_p" -v c="$prun_c" -v d="$none_p_c" 'BEGIN {printf "paused-at-run / none: wall %.3f, cpu %.3f\n", a/b, c/d}'
