#!/usr/bin/env bash
# What the park wrappers cost: java-tests/waits/waits/ParkBench.java (two threads handing a turn
# back and forth, each parking in LockSupport.park(blocker) until unparked) timed inside the
# JVM, per hand-over (the best of 5 rounds), without an agent and with the agent with and
# without waits (so with and without the wrappers), sampling-only and with the probes. The
# configurations are interleaved; the median of the runs is printed.
#
#   bench/park-overhead.sh [RUNS] [HAND-OVERS]   (default 7 runs, 200000 hand-overs)
#
# Environment: JAVA_HOME (default JDK 17), LIB (default target/release/libhpmagent.so),
# BENCH_OUT (report directory base; default /dev/shm).
set -euo pipefail
RUNS="${1:-7}"
N="${2:-200000}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}"
LIB="${LIB:-$ROOT/target/release/libhpmagent.so}"
[ -f "$LIB" ] || { echo "bench: no agent at $LIB (cargo build --release -p hpmagent, or set LIB=)" >&2; exit 1; }
OUT="$(mktemp -d "${BENCH_OUT:-/dev/shm}/park-bench.XXXXXX")"
trap 'rm -rf "$OUT"' EXIT
"$JAVA_HOME/bin/javac" -d "$OUT/classes" "$ROOT/java-tests/waits/waits/ParkBench.java"
CONFIGS=("none:" "no-waits:calls=none,collect=gc" "waits:calls=none" "probes-no-waits:collect=calls+gc" "probes-waits:")
declare -A TIMES
for ((r = 0; r < RUNS; r++)); do
  for c in "${CONFIGS[@]}"; do
    name="${c%%:*}" opts="${c#*:}"
    agent=()
    [ "$name" = none ] || agent=("-agentpath:$LIB=out=$OUT/$name,perf-map=off${opts:+,$opts}")
    line="$("$JAVA_HOME/bin/java" "${agent[@]}" -cp "$OUT/classes" waits.ParkBench "$N" 5 2>/dev/null)"
    TIMES[$name]+="$(sed -E 's/ns per hand-over ([0-9]+),.*/\1/' <<<"$line") "
  done
done
printf '%-16s %10s  %s\n' config median-ns runs
for c in "${CONFIGS[@]}"; do
  name="${c%%:*}"
  median="$(tr ' ' '\n' <<<"${TIMES[$name]}" | grep . | sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}')"
  printf '%-16s %10s  %s\n' "$name" "$median" "${TIMES[$name]}"
done
