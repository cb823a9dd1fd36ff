#!/usr/bin/env bash
# Cost of quantum tracing in user-space instructions: pseudojbb on `rvm -Xvps:2` without the agent
# and with `collect=none,quantum`, each run under valgrind's callgrind, which counts every
# instruction the process executes in user space (I refs). `--fair-sched=yes` lets rvm's timer
# thread run while the processors spin, so quanta expire as they do natively (without it valgrind
# starves the timer and the run has a few dozen switches). Unlike wall or CPU time these counts do
# not move with the machine's load or a hypervisor's steal: identical runs agree within about 0.01%.
# What they leave out is time in the kernel; the agent's system calls (CPU-clock and perf reads at
# each switch) are in the in-process switch-callback timing of bench/quantum-overhead.sh.
#
#   bench/quantum-instructions.sh [RUNS]      (default 2 per configuration)
#
# Environment: PSEUDOJBB_ARGS (default "4 3000": callgrind runs ~50x slower than native),
# MODE (default "quantum"), CARGO_TARGET_DIR, JAVA_HOME. Needs valgrind (Debian: valgrind).
set -euo pipefail
RUNS="${1:-2}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
ARGS="${PSEUDOJBB_ARGS:-4 3000}"
MODE="${MODE:-quantum}"
JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}"
if ! command -v valgrind >/dev/null 2>&1; then
  echo "quantum-instructions: valgrind not found; install it (apt-get install valgrind) to count instructions" >&2
  exit 1
fi
. "$ROOT/bench/rvm-workload.sh"

# One run under callgrind: prints its instruction count.
count() {
  valgrind --tool=callgrind --fair-sched=yes --callgrind-out-file="$WORK/cg.out" "$RVM" -Xvps:2 -Xmx64m "$@" \
    -cp "$WORK/classes" pseudojbb.PseudoJbb $ARGS >"$WORK/stdout" 2>"$WORK/err" || { cat "$WORK/err" >&2; exit 1; }
  grep -oE 'refs: +[0-9,]+' "$WORK/err" | tr -d ', ' | cut -d: -f2
}

echo "pseudojbb $ARGS on rvm -Xvps:2 under callgrind; agent: collect=none,$MODE; $RUNS runs each"
: >"$WORK/none"; : >"$WORK/traced"
for i in $(seq "$RUNS"); do
  n=$(count); echo "no agent:        $n instructions"; echo "$n" >>"$WORK/none"
  rm -rf "$WORK/trace"
  t=$(count "-agentpath:$LIB=out=$WORK/trace,socket=off,collect=none,$MODE"); echo "quantum tracing: $t instructions"; echo "$t" >>"$WORK/traced"
done
records=$("$HPM" trace "$WORK/trace" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["records"])')
python3 - "$WORK/none" "$WORK/traced" "$records" <<'PY'
import statistics, sys
none = [int(l) for l in open(sys.argv[1])]
traced = [int(l) for l in open(sys.argv[2])]
records = int(sys.argv[3])
n, t = statistics.median(none), statistics.median(traced)
spread = (max(none) - min(none)) / n
print(f"median: no agent {n:.0f}, traced {t:.0f}: ratio {t / n:.5f} ({100 * (t - n) / n:+.3f}%); "
      f"identical runs without the agent differ by {100 * spread:.3f}%")
print(f"the last traced run wrote {records} records: {(t - n) / max(records, 1):.0f} more user-space instructions per record, "
      "the agent's start-up and exit work included")
PY
