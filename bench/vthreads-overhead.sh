#!/usr/bin/env bash
# What telling virtual threads apart costs on a mount-heavy program: java-tests/jdk21/vthreads/
# YieldLoop (4 virtual threads, each yielding ROUNDS times: every yield an unmount and a mount) on
# a JDK 21+, without the agent and with it in four configurations, interleaved, median of RUNS
# each: CPU (user + system of all the JVM's threads), its ratio to no agent, and the agent's cost
# per mount (the CPU difference over the number of yields; every yield is an unmount and a mount).
#
#   agent:   calls=none,collect=none      virtual threads not tracked (no mount events)
#   tracked: exclude=vthreads.*           a recorder per virtual thread, switched at every mount
#                                         (HotSpot's mount events included), no probe in the loop
#   quantum: exclude=vthreads.*,quantum   and a record per mount in DIR/vthreads
#   calls:   the default options          also exact calls: 20 probed calls of `step` per yield
#
#   bench/vthreads-overhead.sh [RUNS] [ROUNDS]    (default 7 runs, 100000 rounds: 400,000 mounts)
#
# Environment: JAVA_HOME (default Temurin 25), BENCH_OUT (report directory base; default /dev/shm).
set -euo pipefail
RUNS="${1:-7}"
ROUNDS="${2:-100000}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
[ -x "$JAVA_HOME/bin/javac" ] || { echo "bench: no javac in JAVA_HOME=$JAVA_HOME (a JDK 21 or later is needed)" >&2; exit 1; }
. "$ROOT/bench/jvm-bench.sh"
"$JAVA_HOME/bin/javac" -d "$WORK/classes" "$ROOT/java-tests/jdk21/vthreads/YieldLoop.java"
CONFIGS=(none agent tracked quantum calls)
options() {
  case $1 in
    agent) echo "calls=none,collect=none" ;;
    tracked) echo "exclude=vthreads.*" ;;
    quantum) echo "exclude=vthreads.*,quantum" ;;
    calls) echo "log=warn" ;;
  esac
}
echo "vthreads.YieldLoop 4 $ROUNDS on $("$JAVA_HOME/bin/java" -version 2>&1 | head -1); $RUNS runs per configuration (median; interleaved); $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
for c in "${CONFIGS[@]}"; do : >"$WORK/$c"; done
for _ in $(seq "$RUNS"); do
  for c in "${CONFIGS[@]}"; do
    agent=()
    if [ "$c" != none ]; then
      rm -rf "$OUT/$c"
      agent=("-agentpath:$LIB=out=$OUT/$c,socket=off,perf-map=off,$(options "$c")")
    fi
    timed_java "${agent[@]}" -cp "$WORK/classes" vthreads.YieldLoop 4 "$ROUNDS" | cut -d' ' -f2 >>"$WORK/$c"
  done
done
[ -f "$OUT/quantum/vthreads/quantum.meta" ] || { echo "bench: no trace of the virtual threads was written" >&2; exit 1; }
yields=$((4 * ROUNDS))
none=$(median <"$WORK/none")
printf '%-10s %8s %8s %14s\n' config "cpu s" "× none" "ns per mount"
for c in "${CONFIGS[@]}"; do
  cpu=$(median <"$WORK/$c")
  printf '%-10s %8s %8.3f %14.0f\n' "$c" "$cpu" "$(awk -v a="$cpu" -v b="$none" 'BEGIN {print a/b}')" "$(awk -v a="$cpu" -v b="$none" -v n="$yields" 'BEGIN {print (a-b)*1e9/n}')"
done
for c in "${CONFIGS[@]:1}"; do echo "$c: $(options "$c")"; done
