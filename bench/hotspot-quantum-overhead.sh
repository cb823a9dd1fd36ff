#!/usr/bin/env bash
# What quantum tracing costs on HotSpot (`quantum`: every Java thread's context switches through
# perf_event, written per CPU by the agent's writer thread; `quantum=all`: every thread of the
# process), on the H2 driver (java-tests/thirdparty/bench/H2Driver.java, 2 threads of JDBC
# transactions on Debian's libh2-java), against the same program without an agent and with the
# agent doing nothing else (calls=none,collect=none), in one interleaved series. Each run is split
# by bench.Phases into start-up, the program's own work (timed inside the JVM) and exit.
#
#   bench/hotspot-quantum-overhead.sh [RUNS] [TRANSACTIONS]   (default 15 runs, 2 threads x 6000)
#
# Needs what `quantum` needs: root, CAP_PERFMON or perf_event_paranoid <= 1.
# Environment: JAVA_HOME (default JDK 17), BENCH_OUT (report directory base; default /dev/shm).
set -euo pipefail
RUNS="${1:-15}"
TX="${2:-6000}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}"
. "$ROOT/bench/jvm-bench.sh"
. "$ROOT/bench/h2-phases.sh"
BASE="calls=none,collect=none,socket=off,perf-map=off"
CONFIGS=(none agent quantum all)

echo "agent: $BASE; quantum: $BASE,quantum; all: $BASE,quantum=all"
agent_args() {
  case $1 in
    agent) echo "-agentpath:$LIB=out=$OUT/h2-agent,$BASE" ;;
    quantum) echo "-agentpath:$LIB=out=$OUT/h2-quantum,$BASE,quantum" ;;
    all) echo "-agentpath:$LIB=out=$OUT/h2-quantum-all,$BASE,quantum=all" ;;
  esac
}
phases_series "${CONFIGS[@]}"
[ -f "$OUT/h2-quantum/quantum.meta" ] || { echo "bench: no quantum trace was written (is quantum refused here? see the agent's warning)" >&2; exit 1; }
phases_table "${CONFIGS[@]}"
for c in "${CONFIGS[@]:1}"; do
  phases_ratio "$c" none
  [ "$c" = agent ] || phases_ratio "$c" agent
done
