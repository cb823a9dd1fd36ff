#!/usr/bin/env bash
# What a live bottleneck search costs the program it searches: the H2 driver
# (java-tests/thirdparty/bench/H2Driver.java, 2 threads of JDBC transactions on Debian's
# libh2-java) with stack sampling alone (calls=none,sample=cpu), against the same with the probe
# runtime (calls=requested,sample=cpu) and `hpm consult PID` running during the program's work: it
# samples, then puts exact probes into the hot subtrees' methods for a while and takes them out.
# The figure is the program's own work time (main, timed inside the JVM by bench.Phases), as the
# median of RUNS interleaved runs of each.
#
#   bench/consult-overhead.sh [RUNS] [TRANSACTIONS] [SAMPLE_FOR] [PROBE_FOR] [METHODS] [SUBTREES] [DATABASES]
#       (default 5 runs, 2 threads x 40000, consult --sample-for 3 --probe-for 3 --methods 1
#       --subtrees 3; SUBTREES 0 runs the search without probes, to separate what the probes cost)
#
# DATABASES is `separate` (the default: each worker has a database of its own) or `shared` (both
# work on one). On a shared database the two workers' spinning on H2's shared maps makes a run
# switch between a fast and a slow pace, a factor of 2 for seconds at a time, with or without an
# agent: medians of 10 runs then differ by more than the 5% sought. Separate databases run the same
# code without that contention, and their runs vary by a few percent.
#
# Environment: JAVA_HOME (default JDK 17), BENCH_OUT (report directory base; default /dev/shm).
set -euo pipefail
RUNS="${1:-5}"
TX="${2:-40000}"
SAMPLE_FOR="${3:-3}"
PROBE_FOR="${4:-3}"
METHODS="${5:-1}"
SUBTREES="${6:-3}"
DATABASES="${7:-separate}"
case $DATABASES in separate | shared) ;; *) echo "bench: DATABASES is separate or shared, not $DATABASES" >&2; exit 2 ;; esac
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}"
. "$ROOT/bench/jvm-bench.sh"
H2=/usr/share/java/h2.jar
[ -f "$H2" ] || { echo "bench: $H2 missing: apt-get install libh2-java" >&2; exit 1; }
"$JAVA_HOME/bin/javac" -cp "$H2" -d "$WORK/classes" "$ROOT"/java-tests/thirdparty/bench/{H2Driver,Phases}.java
(cd "$ROOT" && cargo build --release -p hpm --bin hpm -q)
HPM="$TARGET/release/hpm"
# The agents' sockets in a runtime directory of the benchmark's own.
export XDG_RUNTIME_DIR="$WORK/run"
mkdir -m 700 "$XDG_RUNTIME_DIR"

mean() { awk '{s += $1} END {printf "%.3f", s / NR}'; }

# One run of CONFIG: appends the program's work time (ms) to $WORK/CONFIG.
run() {
  local config=$1 opts pid line
  case $config in
    sampled) opts="calls=none,sample=cpu" ;;
    consult) opts="calls=requested,sample=cpu" ;;
  esac
  /usr/bin/time -f "%U %S" -o "$WORK/time" "$JAVA_HOME/bin/java" "-agentpath:$LIB=out=$OUT/h2-$config,perf-map=off,$opts" \
    -cp "$WORK/classes:$H2" bench.Phases bench.H2Driver 2 "$TX" "$DATABASES" >"$WORK/out" 2>"$WORK/err" &
  local timer=$! i=0
  # The JVM is the child of time(1).
  while ! pid=$(pgrep -P "$timer" java) && [ $i -lt 300 ]; do sleep 0.05; i=$((i + 1)); done
  if [ "$config" = consult ]; then
    local sock="$XDG_RUNTIME_DIR/hpmagent/$pid.sock"
    i=0
    while [ ! -S "$sock" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
    # The search starts with the program's work (its agent is up), as a user's would.
    "$HPM" consult "$pid" --sample-for "$SAMPLE_FOR" --probe-for "$PROBE_FOR" --methods "$METHODS" --subtrees "$SUBTREES" --keep "$OUT/consult" -o "$WORK/consult.txt" \
      >/dev/null 2>"$WORK/consult.err" || { cat "$WORK/consult.err" >&2; kill "$pid"; exit 1; }
  fi
  wait "$timer" || { cat "$WORK/err" >&2; exit 1; }
  line=$(grep '^phases ' "$WORK/out") || { cat "$WORK/out" "$WORK/err" >&2; exit 1; }
  echo "$line" | awk '{print $3 - $2}' >>"$WORK/$config"
  awk '{printf "%.2f\n", $1 + $2}' "$WORK/time" >>"$WORK/$config.cpu"
}

echo "JDK: $("$JAVA_HOME/bin/java" -version 2>&1 | head -1); H2 driver 2 x $TX ($([ "$DATABASES" = separate ] && echo "a database per worker" || echo "one shared database")); $RUNS runs per configuration (interleaved)"
echo "cpu: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "sampled: calls=none,sample=cpu; consult: calls=requested,sample=cpu and hpm consult PID --sample-for $SAMPLE_FOR --probe-for $PROBE_FOR --methods $METHODS --subtrees $SUBTREES during the work"
for _ in $(seq "$RUNS"); do
  run sampled
  run consult
done
s=$(median <"$WORK/sampled")
c=$(median <"$WORK/consult")
sc=$(median <"$WORK/sampled.cpu")
cc=$(median <"$WORK/consult.cpu")
printf 'work (median ms): sampled %.0f, consult %.0f; consult/sampled %.3f\n' "$s" "$c" "$(awk -v c="$c" -v s="$s" 'BEGIN {print c/s}')"
sm=$(mean <"$WORK/sampled")
cm=$(mean <"$WORK/consult")
printf 'work (mean ms, outliers included): sampled %.0f, consult %.0f; consult/sampled %.3f\n' "$sm" "$cm" "$(awk -v c="$cm" -v s="$sm" 'BEGIN {print c/s}')"
printf 'JVM cpu (median s, the whole run): sampled %.2f, consult %.2f; consult/sampled %.3f\n' "$sc" "$cc" "$(awk -v c="$cc" -v s="$sc" 'BEGIN {print c/s}')"
echo "each run's work (ms): sampled $(tr '\n' ' ' <"$WORK/sampled")| consult $(tr '\n' ' ' <"$WORK/consult")"
echo "each run's cpu (s): sampled $(tr '\n' ' ' <"$WORK/sampled.cpu")| consult $(tr '\n' ' ' <"$WORK/consult.cpu")"
echo "the last search's refinement:"
sed -n '/^Refinement/,$p' "$WORK/consult.txt" | head -20
