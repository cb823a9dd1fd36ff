#!/usr/bin/env bash
# Cost of recording exact call trees with bytecode probes (the default), against the same program
# without the agent, on three workloads:
#   work    java-tests/calls/calls/Work.java: recursive fib, a HashMap and sorting on 2 threads
#   h2      java-tests/thirdparty/bench/H2Driver.java: 2 threads of JDBC transactions on Debian's H2
#   lucene  Lucene's own demo (org.apache.lucene.demo.IndexFiles, Debian's liblucene8-java) indexing
#           this repository's tracked files
# and on calls.Bench (fib through add(), 1 probed call per fib call) for the cost per probed call.
#
#   bench/calls-overhead.sh [RUNS]     (default 5 runs per configuration; medians; interleaved)
#
# Configurations: none (no agent), probes (calls=probes), paused (start=paused: classes load without
# probes until a start). With JVMTI=1 also calls=jvmti (the reference mode; slow: only on small inputs).
# Environment: JAVA_HOME (default JDK 17), BENCH_OUT (report directory base; default /dev/shm).
set -euo pipefail
RUNS="${1:-5}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}"
JARS=/usr/share/java
for j in h2.jar lucene-core-8.7.0.jar lucene-analyzers-common-8.7.0.jar lucene-demo-8.7.0.jar; do
  [ -f "$JARS/$j" ] || { echo "bench: $JARS/$j missing: apt-get install libh2-java liblucene8-java" >&2; exit 1; }
done

. "$ROOT/bench/jvm-bench.sh"
"$JAVA_HOME/bin/javac" -d "$WORK/classes" "$ROOT"/java-tests/calls/calls/{Work,Bench}.java "$ROOT"/java-tests/calls/hpmagent/Agent.java
"$JAVA_HOME/bin/javac" -cp "$JARS/h2.jar" -d "$WORK/classes" "$ROOT"/java-tests/thirdparty/bench/H2Driver.java
mkdir -p "$WORK/docs"
(cd "$ROOT" && git ls-files -z | grep -zv '^java-tests/' | xargs -0 cp --parents -t "$WORK/docs")
LUCENE_CP="$JARS/lucene-core-8.7.0.jar:$JARS/lucene-analyzers-common-8.7.0.jar:$JARS/lucene-demo-8.7.0.jar"

# name → java arguments
declare -A PROG=(
  [work]="-cp $WORK/classes calls.Work 40 2"
  [h2]="-cp $WORK/classes:$JARS/h2.jar bench.H2Driver 2 3000"
  [lucene]="-cp $LUCENE_CP org.apache.lucene.demo.IndexFiles -index $WORK/index -docs $WORK/docs"
  [fib]="-cp $WORK/classes calls.Bench 32 10"
)
ORDER=(work h2 lucene fib)
CONFIGS=(none probes paused)
[ "${JVMTI:-0}" = 1 ] && CONFIGS+=(jvmti)

# One run: prints "wall cpu" in seconds (cpu = user + system of the JVM).
one() {
  local prog=$1 cfg=$2 agent=()
  case $cfg in
    none) ;;
    probes) agent=("-agentpath:$LIB=out=$OUT/$prog-$cfg,perf-map=off,calls=probes") ;;
    paused) agent=("-agentpath:$LIB=out=$OUT/$prog-$cfg,perf-map=off,calls=probes,start=paused") ;;
    jvmti) agent=("-agentpath:$LIB=out=$OUT/$prog-$cfg,perf-map=off,calls=jvmti") ;;
  esac
  rm -rf "$WORK/index"
  # shellcheck disable=SC2086
  timed_java "${agent[@]}" ${PROG[$prog]}
}

echo "JDK: $("$JAVA_HOME/bin/java" -version 2>&1 | head -1); $RUNS runs per configuration (median, interleaved)"
echo "cpu: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
for _ in $(seq "$RUNS"); do
  for p in "${ORDER[@]}"; do
    for c in "${CONFIGS[@]}"; do
      one "$p" "$c" >>"$WORK/$p.$c"
    done
  done
done

printf '%-8s %-8s %8s %8s %8s %8s\n' program config "wall s" "cpu s" "wall x" "cpu x"
for p in "${ORDER[@]}"; do
  nw=$(cut -d' ' -f1 "$WORK/$p.none" | median); nc=$(cut -d' ' -f2 "$WORK/$p.none" | median)
  for c in "${CONFIGS[@]}"; do
    w=$(cut -d' ' -f1 "$WORK/$p.$c" | median); cp=$(cut -d' ' -f2 "$WORK/$p.$c" | median)
    awk -v p="$p" -v c="$c" -v w="$w" -v cp="$cp" -v nw="$nw" -v nc="$nc" \
      'BEGIN {printf "%-8s %-8s %8.3f %8.3f %8.2f %8.2f\n", p, c, w, cp, w/nw, cp/nc}'
  done
done
# fib(32) 10 times: 2*fib(33)-1 = 7,049,155 fib calls per repetition, and one add() per call that
# recurses ((7,049,155-1)/2 = 3,524,577): 10,573,732 probed calls per repetition.
calls=$(( 10 * 10573732 ))
fw=$(cut -d' ' -f1 "$WORK/fib.probes" | median); fn=$(cut -d' ' -f1 "$WORK/fib.none" | median)
awk -v a="$fw" -v b="$fn" -v n="$calls" 'BEGIN {printf "ns per probed call (calls.Bench fib, probes - none): %.1f\n", (a-b)*1e9/n}'
