#!/usr/bin/env bash
# Does the default mode (exact probes, sampled time, the probes' own code credited to no context) say
# where the time goes as sampling without probes does? For each program, one run with the default
# options and one with `calls=none,sample=cpu,sample-interval=1ms`; for the ten methods with the
# most self time in the sampled run, each method's self-time share (% of cpu-time, xprof.txt's
# %Base) in both, and the largest difference in points.
#
# The default run also takes stack samples (`sample=cpu,sample-interval=1ms`), so that a
# difference can be split in two: the column "probed" is each method's share of those stack samples
# with the probes' own frames left out, in the same run as "default". default - probed is the
# agent's attribution (contexts named by the probes against the method that was running);
# probed - sampled is how much the probes changed the program itself (code around the probes,
# the JIT's decisions). The stack samples cost the run about a thousandth of its time. A method
# whose small callees are inlined into its code shows a large "attribution" when the instructions
# around those callees' probe calls are the callees' to the stack samples and the method's own to
# the contexts (H2's Value.cache and ValueBigint.getValueType): the split is per method, not exact.
#   sunflow  Debian's sunflow benchmark (SunflowGUI -nogui -bench -threads 2; it renders, then
#            fails its own image check on these JDKs, which is not the agent's doing)
#   h2       java-tests/thirdparty/bench/H2Scaling.java, 2 clients, transactions and range queries
#
#   bench/self-time-agreement.sh [RUNS]     (JAVA_HOME: default JDK 17; PROGRAMS="sunflow h2";
#                                            LIB: the agent, default this checkout's release build;
#                                            AGENT_OPTS: more options for the default run, e.g.
#                                            trivial=skip)
# Single runs move by several points (the JIT decides differently from run to run): with RUNS > 1
# each run prints its table, and a last line per program gives every run's largest differences.
set -euo pipefail
export LC_ALL=C # sort and join agree on the order
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
RUNS="${1:-1}"
JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}"
JAVA="$JAVA_HOME/bin/java"
JARS=/usr/share/java
PROGRAMS="${PROGRAMS:-sunflow h2}"
for j in h2.jar sunflow.jar sunflowGUI.jar; do
  [ -f "$JARS/$j" ] || { echo "self-time-agreement: $JARS/$j missing: apt-get install libh2-java sunflow" >&2; exit 1; }
done
if [ -z "${LIB:-}" ]; then
  (cd "$ROOT" && cargo build --release -p hpmagent -q)
  LIB="${CARGO_TARGET_DIR:-$ROOT/target}/release/libhpmagent.so"
fi
[ -f "$LIB" ] || { echo "self-time-agreement: no agent at $LIB" >&2; exit 1; }
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
# The same without the probes' own methods, as shares of what is left.
program_shares() {
  shares "$1" | awk '$1 !~ /^hpmagent\.probe\./ {m[$1] = $2; t += $2} END {for (k in m) printf "%s %.4f\n", k, (t > 0 ? 100 * m[k] / t : 0)}'
}

echo "self-time-agreement: JDK $("$JAVA" -version 2>&1 | head -1); $(nproc) cores; $RUNS run(s)"
for run in $(seq "$RUNS"); do
  for prog in $PROGRAMS; do
    rm -rf "$WORK/$prog-default" "$WORK/$prog-sampled"
    # shellcheck disable=SC2046
    "$JAVA" "-agentpath:$LIB=out=$WORK/$prog-default,sample=cpu,sample-interval=1ms${AGENT_OPTS:+,$AGENT_OPTS}" $(args "$prog") >/dev/null 2>"$WORK/err" || true
    # shellcheck disable=SC2046
    "$JAVA" "-agentpath:$LIB=out=$WORK/$prog-sampled,calls=none,sample=cpu,sample-interval=1ms" $(args "$prog") >/dev/null 2>>"$WORK/err" || true
    for f in default/xprof.txt default/sampled/xprof.txt sampled/sampled/xprof.txt; do
      [ -f "$WORK/$prog-$f" ] || { cat "$WORK/err" >&2; echo "self-time-agreement: $prog wrote no $f" >&2; exit 1; }
    done
    shares "$WORK/$prog-default/xprof.txt" | sort >"$WORK/d"
    program_shares "$WORK/$prog-default/sampled/xprof.txt" | sort >"$WORK/p"
    shares "$WORK/$prog-sampled/sampled/xprof.txt" | sort >"$WORK/s"
    echo
    echo "$prog, run $run: $(grep -h "removed%" -A3 "$WORK/$prog-default/compensation.txt" | awk '$1 == "cpu-time" {print "the probes took " $NF "% of the recorded cpu-time (compensation.txt)"}')"
    printf '%-60s %9s %9s %9s %7s %12s\n' method sampled% probed% default% diff attribution
    join -a1 -e 0 -o 0,1.2,2.2 "$WORK/s" "$WORK/p" | join -a1 -e 0 -o 0,1.2,1.3,2.2 - "$WORK/d" | sort -k2,2 -gr |
      awk -v prog="$prog" '
        function abs(x) { return x < 0 ? -x : x }
        NR > 10 { next }
        { d = $4 - $2; a = $4 - $3; if (abs(d) > m) m = abs(d); if (abs(a) > ma) ma = abs(a)
          printf "%-60s %9.2f %9.2f %9.2f %7.2f %12.2f\n", substr($1, 1, 60), $2, $3, $4, d, a }
        END { printf "largest difference: %.2f points; of the attribution alone: %.2f\n", m, ma
              printf "%s %.2f %.2f\n", prog, m, ma > "/dev/stderr" }' 2>>"$WORK/summary"
  done
done
if [ "$RUNS" -gt 1 ]; then
  echo
  for prog in $PROGRAMS; do
    awk -v prog="$prog" '$1 == prog {d = d " " $2; a = a " " $3} END {print prog ": largest difference per run:" d "; of the attribution alone:" a}' "$WORK/summary"
  done
fi
