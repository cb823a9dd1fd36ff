#!/usr/bin/env bash
# What stack sampling costs (calls=none,sample=cpu: a stack sample every 10 ms of each thread's
# CPU time, 100 Hz, with the agent's other default events), against the same program without an
# agent, on the H2 driver (java-tests/thirdparty/bench/H2Driver.java, 2 threads of JDBC
# transactions on Debian's libh2-java). Each run is split by bench.Phases into start-up (launch to
# main), the program's own work (main, timed inside the JVM) and exit (main's end to the
# process's end, where the agent writes its reports).
#
#   bench/sampling-overhead.sh [RUNS] [TRANSACTIONS]   (default 15 runs, 2 threads x 6000)
#
# With ASYNC_PROFILER_LIB=/path/to/libasyncProfiler.so (one you built yourself) the same runs
# also measure async-profiler's `event=cpu,interval=10ms` in the same interleaving.
# Environment: JAVA_HOME (default JDK 17), BENCH_OUT (report directory base; default /dev/shm),
# SAMPLE_OPTIONS (agent options instead of calls=none,sample=cpu).
set -euo pipefail
RUNS="${1:-15}"
TX="${2:-6000}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}"
. "$ROOT/bench/jvm-bench.sh"
. "$ROOT/bench/h2-phases.sh"
OPTS="${SAMPLE_OPTIONS:-calls=none,sample=cpu}"
CONFIGS=(none sampled)
if [ -n "${ASYNC_PROFILER_LIB:-}" ]; then
  [ -f "$ASYNC_PROFILER_LIB" ] || { echo "bench: ASYNC_PROFILER_LIB=$ASYNC_PROFILER_LIB is not a file" >&2; exit 1; }
  CONFIGS+=(asprof)
fi

echo "JDK: $("$JAVA_HOME/bin/java" -version 2>&1 | head -1); H2 driver 2 x $TX; $RUNS runs per configuration (interleaved)"
echo "sampled: $OPTS${ASYNC_PROFILER_LIB:+; asprof: start,event=cpu,interval=10ms}"
echo "cpu: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
for _ in $(seq "$RUNS"); do
  for c in "${CONFIGS[@]}"; do
    agent=()
    case $c in
      sampled) agent=("-agentpath:$LIB=out=$OUT/h2-sampled,perf-map=off,$OPTS") ;;
      asprof) agent=("-agentpath:$ASYNC_PROFILER_LIB=start,event=cpu,interval=10ms,file=$OUT/h2-asprof.txt,collapsed") ;;
    esac
    phases_run "$c" "${agent[@]}"
  done
done
printf '%-8s %10s %10s %10s %10s %8s   (medians; ms, cpu s)\n' config start-up work exit whole cpu
for c in "${CONFIGS[@]}"; do
  printf '%-8s %10.0f %10.0f %10.0f %10.0f %8.2f\n' "$c" "$(col "$c" 1)" "$(col "$c" 2)" "$(col "$c" 3)" "$(col "$c" 4)" "$(col "$c" 5)"
done
for c in "${CONFIGS[@]:1}"; do
  awk -v c="$c" -v w="$(col "$c" 2)" -v nw="$(col none 2)" -v a="$(col "$c" 4)" -v na="$(col none 4)" \
    -v cp="$(col "$c" 5)" -v nc="$(col none 5)" -v s="$(col "$c" 1)" -v ns="$(col none 1)" -v e="$(col "$c" 3)" -v ne="$(col none 3)" \
    'BEGIN {printf "%s/none: work %.3f, whole run %.3f, cpu %.3f; start-up %+d ms, exit %+d ms\n", c, w/nw, a/na, cp/nc, s-ns, e-ne}'
done
