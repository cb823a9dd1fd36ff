#!/usr/bin/env bash
# How much of the sampled CPU time has no Java stack, on Debian's H2 (the bench driver, 2 threads),
# Lucene (its demo indexing this repository) and Sunflow (its benchmark scene, 2 threads), with
# calls=none,sample=cpu on each JDK given. A sample without a Java stack is charged to a
# pseudo-frame naming why (docs/agent.md, "Stack sampling"); the table splits those into
#   named:     the thread ran no Java code (no Java frame: VM or native code not called from Java),
#              or the VM was in a state that has no Java stack to give (GC active, deoptimisation,
#              safepoint, thread exit, class loading);
#   unplaced:  the thread was in Java, or called out of Java, and its stack could not be walked.
# Figures are shares of the sampled cpu-time (sampled/collapsed.txt).
#
#   bench/unplaced-samples.sh [INTERVAL]   (default 1ms: ten times the default rate, for more samples)
# Environment: JDKS (default: JDK 17 and Temurin 25 where present), PROGRAMS (default "h2 lucene sunflow").
set -euo pipefail
INTERVAL="${1:-1ms}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
JARS=/usr/share/java
PROGRAMS="${PROGRAMS:-h2 lucene sunflow}"
JDKS="${JDKS:-$(ls -d /usr/lib/jvm/java-17-openjdk-amd64 /usr/lib/jvm/temurin-25-jdk-amd64 2>/dev/null | tr '\n' ' ')}"
for j in h2.jar lucene-core-8.7.0.jar lucene-analyzers-common-8.7.0.jar lucene-demo-8.7.0.jar sunflow.jar sunflowGUI.jar; do
  [ -f "$JARS/$j" ] || { echo "unplaced-samples: $JARS/$j missing: apt-get install libh2-java liblucene8-java sunflow" >&2; exit 1; }
done
JAVA_HOME="${JDKS%% *}"
. "$ROOT/bench/jvm-bench.sh"
mkdir -p "$WORK/docs"
(cd "$ROOT" && git ls-files -z | grep -zv '^java-tests/' | xargs -0 cp --parents -t "$WORK/docs")
LUCENE_CP="$JARS/lucene-core-8.7.0.jar:$JARS/lucene-analyzers-common-8.7.0.jar:$JARS/lucene-demo-8.7.0.jar"

args() {
  case $1 in
    h2) echo "-cp $WORK/classes-$2:$JARS/h2.jar bench.H2Driver 2 6000" ;;
    lucene) echo "-cp $LUCENE_CP org.apache.lucene.demo.IndexFiles -index $WORK/index -docs $WORK/docs" ;;
    sunflow) echo "-cp $JARS/sunflow.jar:$JARS/sunflowGUI.jar SunflowGUI -nogui -bench -threads 2" ;;
  esac
}

printf '%-8s %-4s %8s %8s %9s %9s   %s\n' program jdk samples cpu-s named% unplaced% "unplaced by reason"
for jdk in $JDKS; do
  v=$("$jdk/bin/java" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1)
  "$jdk/bin/javac" -cp "$JARS/h2.jar" -d "$WORK/classes-$v" "$ROOT"/java-tests/thirdparty/bench/H2Driver.java
  for p in $PROGRAMS; do
    out="$OUT/$p-$v"
    rm -rf "$WORK/index" "$out"
    read -ra a <<<"$(args "$p" "$v")"
    "$jdk/bin/java" "-agentpath:$LIB=out=$out,calls=none,sample=cpu,sample-interval=$INTERVAL,log=info" "${a[@]}" >/dev/null 2>"$WORK/err" || true
    samples=$(sed -n 's/.*stack samples: \([0-9]*\) stored.*/\1/p' "$WORK/err")
    [ -f "$out/sampled/collapsed.txt" ] || { echo "unplaced-samples: $p on JDK $v wrote no sampled/collapsed.txt:" >&2; cat "$WORK/err" >&2; exit 1; }
    # A line: "thread;frame;...;frame weight"; a failed walk is "thread;(reason) weight".
    awk -v p="$p" -v v="$v" -v n="${samples:-0}" '
      { w = $NF; total += w; stack = $0; sub(/ [0-9]+$/, "", stack); k = split(stack, f, ";") }
      k == 2 && f[2] ~ /^\(/ {
        r = f[2]
        if (r ~ /^\((no Java frame|GC active|deoptimisation|safepoint|thread exit|no class load)\)$/) named += w
        else { unplaced += w; by[r] += w }
      }
      END {
        s = ""
        for (r in by) s = s sprintf("%s %.2f%%  ", r, 100 * by[r] / total)
        printf "%-8s %-4s %8d %8.2f %9.2f %9.2f   %s\n", p, v, n, total / 1e9, 100 * named / total, 100 * unplaced / total, s
      }' "$out/sampled/collapsed.txt"
  done
done
