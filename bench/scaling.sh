#!/usr/bin/env bash
# How the cost of exact call trees (default recording: bytecode probes, sampled metrics) grows
# with the number of busy threads, against the same program without the agent, in one interleaved
# run. Two programs, each with N = 1, 2, 4, ... threads up to the cores present (and the core count
# itself):
#   work   java-tests/calls/calls/Scaling.java: N independent workers, each inserting into and
#          searching a tree of its own (recursion, small value objects, a comparator)
#   h2     java-tests/thirdparty/bench/H2Scaling.java: N clients of one in-memory H2 database
#          (Debian's libh2-java), transactions and range queries, each on its own rows
# Both time their own work (start-up and exit excluded) and print it.
#
#   bench/scaling.sh [RUNS]      (default 5 runs per configuration and N; medians)
#
# Figures per program and N: the median work time without the agent (none) and with it (probes),
# their ratio, and that ratio divided by the ratio at N=1 ("growth": 1.00 means the agent's cost
# does not grow with the threads). For `work` also the cost per probed call, (probes - none) /
# calls per thread, the calls counted by the agent (xprof.txt's total), and its growth.
#
# Environment:
#   JAVA_HOME   the JDK or runtime to run (default JDK 17); javac is needed only to compile the
#               programs, unless CLASSES names a directory with them compiled already
#   LIB         the agent (default target/release/libhpmagent.so, built with cargo if cargo is here)
#   THREADS     the thread counts (default "1 2 4 ... nproc")
#   PROGRAMS    default "work h2"; WORK_ROUNDS (default 400), H2_TRANSACTIONS (default 3000),
#               H2_ROUNDS (default 1: the clients' whole time, their warm-up included; above 1,
#               H2Scaling runs that many rounds and prints the last one's time, the steady state)
#   H2_JAR      default /usr/share/java/h2.jar
#   BENCH_OUT   where the agent's reports go (default /dev/shm when writable; removed at exit)
#   AGENT_OPTS  extra agent options for the probes configuration (e.g. sample=cpu)
set -euo pipefail
RUNS="${1:-5}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}"
JAVA="$JAVA_HOME/bin/java"
[ -x "$JAVA" ] || { echo "scaling: no java at $JAVA: set JAVA_HOME" >&2; exit 1; }
H2_JAR="${H2_JAR:-/usr/share/java/h2.jar}"
PROGRAMS="${PROGRAMS:-work h2}"
WORK_ROUNDS="${WORK_ROUNDS:-400}"
H2_TRANSACTIONS="${H2_TRANSACTIONS:-3000}"
H2_ROUNDS="${H2_ROUNDS:-1}"
case " $PROGRAMS " in *" h2 "*) [ -f "$H2_JAR" ] || { echo "scaling: $H2_JAR missing: apt-get install libh2-java, or set H2_JAR, or PROGRAMS=work" >&2; exit 1; } ;; esac

if [ -z "${LIB:-}" ]; then
  if command -v cargo >/dev/null; then (cd "$ROOT" && cargo build --release -p hpmagent -q); fi
  LIB="${CARGO_TARGET_DIR:-$ROOT/target}/release/libhpmagent.so"
fi
[ -f "$LIB" ] || { echo "scaling: no agent at $LIB: cargo build --release, or set LIB" >&2; exit 1; }

WORK="$(mktemp -d)"
if [ -z "${BENCH_OUT:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then BENCH_OUT=/dev/shm; fi
OUT="$(mktemp -d "${BENCH_OUT:-$WORK}/hpm-scaling.XXXXXX")"
trap 'rm -rf "$WORK" "$OUT"' EXIT

if [ -z "${CLASSES:-}" ]; then
  CLASSES="$WORK/classes"
  [ -x "$JAVA_HOME/bin/javac" ] || { echo "scaling: no javac in $JAVA_HOME: set CLASSES to the compiled programs" >&2; exit 1; }
  "$JAVA_HOME/bin/javac" -d "$CLASSES" "$ROOT/java-tests/calls/calls/Scaling.java"
  "$JAVA_HOME/bin/javac" -cp "$H2_JAR" -d "$CLASSES" "$ROOT/java-tests/thirdparty/bench/H2Scaling.java"
fi

if [ -z "${THREADS:-}" ]; then
  cores=$(nproc)
  THREADS=""
  for ((n = 1; n < cores; n *= 2)); do THREADS="$THREADS $n"; done
  THREADS="$THREADS $cores"
fi

# One run: appends the program's own time (ms) to $WORK/PROG.CFG.N; for probes also the calls
# the agent counted (xprof.txt's total) to $WORK/PROG.calls.N.
one() {
  local prog=$1 cfg=$2 n=$3 agent=() args line
  local dir="$OUT/$prog-$cfg-$n"
  case $prog in
    work) args=(-cp "$CLASSES" calls.Scaling "$n" "$WORK_ROUNDS") ;;
    h2) args=(-cp "$CLASSES:$H2_JAR" bench.H2Scaling "$n" "$H2_TRANSACTIONS" "$H2_ROUNDS") ;;
  esac
  rm -rf "$dir"
  [ "$cfg" = probes ] && agent=("-agentpath:$LIB=out=$dir${AGENT_OPTS:+,$AGENT_OPTS}")
  line=$("$JAVA" "${agent[@]}" "${args[@]}" 2>"$WORK/err") || { cat "$WORK/err" >&2; exit 1; }
  echo "$line" | awk '{print $3}' >>"$WORK/$prog.$cfg.$n"
  if [ "$cfg" = probes ]; then
    awk '/Total$/ {print $1}' "$dir/xprof.txt" >>"$WORK/$prog.calls.$n"
  fi
}

median() { sort -n | awk '{a[NR]=$1} END {if (NR) printf "%.1f", a[int((NR+1)/2)]; else print "nan"}'; }

echo "scaling: JDK $("$JAVA" -version 2>&1 | head -1); $(nproc) cores; threads:$THREADS; $RUNS runs each (median, interleaved)"
echo "scaling: agent $LIB${AGENT_OPTS:+ with $AGENT_OPTS}; load average $(cut -d' ' -f1-3 /proc/loadavg)"
for _ in $(seq "$RUNS"); do
  for prog in $PROGRAMS; do
    for n in $THREADS; do
      for cfg in none probes; do one "$prog" "$cfg" "$n"; done
    done
  done
done

printf '%-5s %3s %10s %10s %7s %7s %12s %7s\n' program N "none ms" "probes ms" ratio growth "ns per call" growth
for prog in $PROGRAMS; do
  r1=""; c1=""
  for n in $THREADS; do
    none=$(median <"$WORK/$prog.none.$n"); probes=$(median <"$WORK/$prog.probes.$n")
    calls=$(median <"$WORK/$prog.calls.$n")
    read -r ratio percall < <(awk -v a="$probes" -v b="$none" -v c="$calls" -v n="$n" \
      'BEGIN {printf "%.3f %.2f\n", a/b, (a-b)*1e6/(c/n)}')
    [ -z "$r1" ] && r1=$ratio && c1=$percall
    if [ "$prog" = work ]; then
      awk -v p="$prog" -v n="$n" -v a="$none" -v b="$probes" -v r="$ratio" -v r1="$r1" -v c="$percall" -v c1="$c1" \
        'BEGIN {printf "%-5s %3d %10.1f %10.1f %6.2fx %7.2f %12.2f %7.2f\n", p, n, a, b, r, r/r1, c, c/c1}'
    else
      awk -v p="$prog" -v n="$n" -v a="$none" -v b="$probes" -v r="$ratio" -v r1="$r1" \
        'BEGIN {printf "%-5s %3d %10.1f %10.1f %6.2fx %7.2f %12s %7s\n", p, n, a, b, r, r/r1, "-", "-"}'
    fi
  done
done
