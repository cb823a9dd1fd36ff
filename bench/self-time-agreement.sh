#!/usr/bin/env bash
# Does the default mode (exact probes, sampled time, the probes' own code credited to no context) say
# where the time goes as sampling without probes does? For each program, one run with the default
# options and one with `calls=none,sample=cpu,sample-interval=1ms`; for the ten methods with the
# most self time in the sampled run, each method's self-time share (% of cpu-time, xprof.txt's
# %Base) in both, and the largest difference in points.
#   sunflow  Debian's sunflow benchmark (SunflowGUI -nogui -bench -threads 2; it renders, then
#            fails its own image check on these JDKs, which is not the agent's doing)
#   h2       java-tests/thirdparty/bench/H2Scaling.java, 2 clients, transactions and range queries
#
#   bench/self-time-agreement.sh            (JAVA_HOME: default JDK 17; PROGRAMS="sunflow h2")
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}"
JAVA="$JAVA_HOME/bin/java"
JARS=/usr/share/java
PROGRAMS="${PROGRAMS:-sunflow h2}"
for j in h2.jar sunflow.jar sunflowGUI.jar; do
  [ -f "$JARS/$j" ] || { echo "self-time-agreement: $JARS/$j missing: apt-get install libh2-java sunflow" >&2; exit 1; }
done
(cd "$ROOT" && cargo build --release -p hpmagent -q)
LIB="${CARGO_TARGET_DIR:-$ROOT/target}/release/libhpmagent.so"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
"$JAVA_HOME/bin/javac" -cp "$JARS/h2.jar" -d "$WORK/classes" "$ROOT/java-tests/thirdparty/bench/H2Scaling.java"

args() {
  case $1 in
    sunflow) echo "-cp $JARS/sunflow.jar:$JARS/sunflowGUI.jar SunflowGUI -nogui -bench -threads 2" ;;
    h2) echo "-cp $WORK/classes:$JARS/h2.jar bench.H2Scaling 2 6000" ;;
  esac
}

# method -> self share (%Base of cpu-time) from an xprof.txt; thread rows (no '.') left out.
shares() { awk 'NR > 5 && $NF ~ /\./ && $2 ~ /^[0-9.]+$/ {print $NF, $2}' "$1"; }

echo "self-time-agreement: JDK $("$JAVA" -version 2>&1 | head -1); $(nproc) cores"
for prog in $PROGRAMS; do
  # shellcheck disable=SC2046
  "$JAVA" "-agentpath:$LIB=out=$WORK/$prog-default" $(args "$prog") >/dev/null 2>"$WORK/err" || true
  # shellcheck disable=SC2046
  "$JAVA" "-agentpath:$LIB=out=$WORK/$prog-sampled,calls=none,sample=cpu,sample-interval=1ms" $(args "$prog") >/dev/null 2>>"$WORK/err" || true
  for d in default sampled; do
    [ -f "$WORK/$prog-$d/xprof.txt" ] || { cat "$WORK/err" >&2; echo "self-time-agreement: $prog ($d) wrote no reports" >&2; exit 1; }
  done
  shares "$WORK/$prog-default/xprof.txt" | sort >"$WORK/d"
  shares "$WORK/$prog-sampled/sampled/xprof.txt" | sort >"$WORK/s"
  echo
  echo "$prog: $(grep -h "removed%" -A3 "$WORK/$prog-default/compensation.txt" | awk '$1 == "cpu-time" {print "the probes took " $NF "% of the recorded cpu-time (compensation.txt)"}')"
  printf '%-60s %9s %9s %7s\n' method sampled% default% diff
  join -a1 -e 0 -o 0,1.2,2.2 "$WORK/s" "$WORK/d" | sort -k2,2 -gr | head -10 |
    awk '{d = $3 - $2; if (d < 0) d = -d; if (d > m) m = d; printf "%-60s %9.2f %9.2f %7.2f\n", substr($1, 1, 60), $2, $3, $3 - $2}
         END {printf "largest difference: %.2f points\n", m}'
done
