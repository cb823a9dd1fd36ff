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

echo "sampled: $OPTS${ASYNC_PROFILER_LIB:+; asprof: start,event=cpu,interval=10ms}"
agent_args() {
  case $1 in
    sampled) echo "-agentpath:$LIB=out=$OUT/h2-sampled,perf-map=off,$OPTS" ;;
    asprof) echo "-agentpath:$ASYNC_PROFILER_LIB=start,event=cpu,interval=10ms,file=$OUT/h2-asprof.txt,collapsed" ;;
  esac
}
phases_series "${CONFIGS[@]}"
phases_table "${CONFIGS[@]}"
for c in "${CONFIGS[@]:1}"; do
  phases_ratio "$c" none
done
