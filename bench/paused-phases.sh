#!/usr/bin/env bash
# What a paused agent (start=paused: no probes in the code, sampler held off) costs, split into
# the three phases of a run of the H2 driver (java-tests/thirdparty/bench/H2Driver.java, Debian's
# libh2-java): start-up (launch to main), the program's own work (main, timed inside the JVM by
# bench.Phases) and exit (main's end to the process's end: the agent's exit dump is here). The
# work phase is the running cost; the other two are fixed costs that do not grow with the run.
#
#   bench/paused-phases.sh [RUNS] [TRANSACTIONS]   (default 21 runs, 2 threads x 3000 transactions)
#
# Environment: JAVA_HOME (default JDK 17), BENCH_OUT (report directory base; default /dev/shm).
set -euo pipefail
RUNS="${1:-21}"
TX="${2:-3000}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}"
. "$ROOT/bench/jvm-bench.sh"
. "$ROOT/bench/h2-phases.sh"

echo "JDK: $("$JAVA_HOME/bin/java" -version 2>&1 | head -1); H2 driver 2 x $TX; $RUNS runs per configuration (interleaved)"
echo "cpu: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
for _ in $(seq "$RUNS"); do
  for c in none paused; do
    agent=()
    [ "$c" = paused ] && agent=("-agentpath:$LIB=out=$OUT/h2-paused,perf-map=off,start=paused")
    phases_run "$c" "${agent[@]}"
  done
done
mean() { cut -d' ' -f"$2" "$WORK/$1" | awk '{s+=$1} END {printf "%.1f", s/NR}'; }
printf '%-8s %10s %10s %10s %10s   (medians, ms)\n' config start-up work exit whole
for c in none paused; do
  printf '%-8s %10.0f %10.0f %10.0f %10.0f\n' "$c" "$(col "$c" 1)" "$(col "$c" 2)" "$(col "$c" 3)" "$(col "$c" 4)"
done
awk -v pw="$(col paused 2)" -v nw="$(col none 2)" -v pm="$(mean paused 2)" -v nm="$(mean none 2)" \
  -v pa="$(col paused 4)" -v na="$(col none 4)" \
  'BEGIN {printf "work paused/none: %.3f (median), %.3f (mean); whole run: %.3f (median)\n", pw/nw, pm/nm, pa/na}'
awk -v ps="$(col paused 1)" -v ns="$(col none 1)" -v pe="$(col paused 3)" -v ne="$(col none 3)" \
  'BEGIN {printf "fixed: start-up %+d ms, exit %+d ms\n", ps-ns, pe-ne}'
