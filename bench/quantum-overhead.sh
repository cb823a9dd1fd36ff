#!/usr/bin/env bash
# Cost of quantum tracing on the research VM: pseudojbb on `rvm -Xvps:2` without the agent, against
# the same run with the agent writing quantum traces only (`quantum,collect=none`), configurations
# interleaved, median of RUNS each. Then the trace writers' share, read from the last trace itself
# (their records are in it: they are VM threads scheduled on the processors they drain).
#
#   bench/quantum-overhead.sh [RUNS]      (default 7)
#
# Environment: PSEUDOJBB_ARGS (default "4 30000"), RVM_VPS (default 2), RVM_ARGS (e.g. "-Xquantum:1"), MODE (default "quantum"; or
# "quantum=tick"), EVENTS (extra agent options, e.g. "event=task-clock"), CARGO_TARGET_DIR, JAVA_HOME.
set -euo pipefail
RUNS="${1:-7}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
ARGS="${PSEUDOJBB_ARGS:-4 30000}"
VPS="${RVM_VPS:-2}"
RVM_ARGS="${RVM_ARGS:-}"
EXTRA="${EVENTS:+,$EVENTS}"
MODE="${MODE:-quantum}"
JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}"
. "$ROOT/bench/rvm-workload.sh"

# One run: "wall cpu" in seconds (cpu = user + system of all the VM's threads).
one() {
  local t0 t1
  t0=$(date +%s%N)
  /usr/bin/time -f "%U %S" -o "$WORK/time" "$RVM" -Xvps:"$VPS" -Xmx64m $RVM_ARGS "$@" -cp "$WORK/classes" pseudojbb.PseudoJbb $ARGS >"$WORK/stdout" 2>"$WORK/err" || { cat "$WORK/err" >&2; exit 1; }
  t1=$(date +%s%N)
  awk -v w="$(( (t1 - t0) / 1000000 ))" '{printf "%.3f %.3f\n", w/1000, $1+$2}' "$WORK/time"
}
median() { sort -n | awk '{a[NR]=$1} END {printf "%.3f", a[int((NR+1)/2)]}'; }

echo "pseudojbb $ARGS on rvm -Xvps:$VPS $RVM_ARGS; agent: collect=none,$MODE$EXTRA; $RUNS runs per configuration (median; interleaved); $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
: >"$WORK/none"; : >"$WORK/traced"
traced() {
  rm -rf "$WORK/trace"
  one "-agentpath:$LIB=out=$WORK/trace,socket=off,log=info,collect=none,$MODE$EXTRA" >>"$WORK/traced"
  grep -h "thread-switch callbacks" "$WORK/err" >>"$WORK/switch-cost" || true
}
for i in $(seq "$RUNS"); do
  # Which configuration runs first alternates, so that a pattern in the machine's speed (the first
  # or second run of a pair being slower) does not favour either.
  if [ $((i % 2)) = 1 ]; then one >>"$WORK/none"; traced; else traced; one >>"$WORK/none"; fi
done
col() { cut -d' ' -f"$2" "$WORK/$1" | median; }
n_w=$(col none 1); n_c=$(col none 2); t_w=$(col traced 1); t_c=$(col traced 2)
printf "%-22s %8s %8s\n" "" "wall s" "cpu s"
printf "%-22s %8s %8s\n" "no agent" "$n_w" "$n_c"
printf "%-22s %8s %8s\n" "quantum tracing" "$t_w" "$t_c"
awk -v a="$t_w" -v b="$n_w" -v c="$t_c" -v d="$n_c" 'BEGIN {printf "ratio of medians (traced / none):  wall %.4f  cpu %.4f\n", a/b, c/d}'
# Pairs ran back to back, so the median of the per-pair ratios is less exposed to slow drifts in
# the machine's speed (other load, hypervisor steal) than the ratio of medians; the best runs
# are the least disturbed ones.
paste -d' ' "$WORK/none" "$WORK/traced" | awk '{print $3/$1, $4/$2}' >"$WORK/pairs"
pw=$(cut -d' ' -f1 "$WORK/pairs" | median); pc=$(cut -d' ' -f2 "$WORK/pairs" | median)
bw=$(awk 'NR==1||$1<m{m=$1} END{print m}' "$WORK/none"); bt=$(awk 'NR==1||$1<m{m=$1} END{print m}' "$WORK/traced")
bcn=$(awk 'NR==1||$2<m{m=$2} END{print m}' "$WORK/none"); bct=$(awk 'NR==1||$2<m{m=$2} END{print m}' "$WORK/traced")
awk -v a="$pw" -v b="$pc" 'BEGIN {printf "median of per-pair ratios:         wall %.4f  cpu %.4f\n", a, b}'
awk -v a="$bt" -v b="$bw" -v c="$bct" -v d="$bcn" 'BEGIN {printf "ratio of best runs:                wall %.4f  cpu %.4f\n", a/b, c/d}'
# How well these runs resolve the ratio: a bootstrap 95% interval of the median per-pair ratio
# (pairs resampled with replacement). An interval wider than the cost looked for means this machine
# cannot tell that cost from noise with this many runs.
python3 - "$WORK/pairs" <<'PY'
import random, statistics, sys
pairs = [tuple(map(float, l.split())) for l in open(sys.argv[1]) if l.strip()]
rng = random.Random(1)
for col, name in [(0, "wall"), (1, "cpu")]:
    xs = [p[col] for p in pairs]
    meds = sorted(statistics.median(rng.choices(xs, k=len(xs))) for _ in range(4000))
    print(f"median per-pair ratio, {name}: {statistics.median(xs):.4f}, bootstrap 95% interval {meds[100]:.4f} to {meds[3899]:.4f} ({len(xs)} pairs)")
PY

# The writers' share, from the last trace: their records' real time and CPU time against all
# records', and against all non-idle records' (the time the processors were doing something).
"$HPM" trace "$WORK/trace" --json >"$WORK/trace.json"
python3 - "$WORK/trace.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
counters = s["counters"]
cpu = counters.index("cpu-time") if "cpu-time" in counters else None
def total(kinds, i):
    return sum(t["totals"][i] for t in s["threads"] if t["kind"] in kinds)
every = ("app", "collector", "idle", "writer", "system")
busy = ("app", "collector", "writer", "system")
print(f"trace: {s['records']} records, {s['missed']} missed, valid={s['valid']}")
for name, i in [("real time", 0)] + ([("cpu time", cpu)] if cpu is not None else []):
    w = total(("writer",), i)
    print(f"trace writers, {name}: {w / 1e6:.3f} ms = {100 * w / total(every, i):.4f}% of all records, {100 * w / total(busy, i):.4f}% of non-idle records")
for v in s["processors"]:
    print(f"vp{v['vp']}: {v['records']} records, coverage {100 * v['coverage']:.2f}%")
PY

# The agent measures its own thread-switch callback (two clock reads around it), summed over the
# processors: the time it adds inside rvm's scheduler lock, per traced run.
if [ -s "$WORK/switch-cost" ]; then
  echo "in-process: $(tail -1 "$WORK/switch-cost" | sed 's/^hpmagent: //')"
  awk -v n="$n_c" '{for (i = 1; i <= NF; i++) if ($i == "ms") ms += $(i-1); runs++} END {printf "switch callbacks: %.3f ms per run on average = %.4f%% of the untraced run'"'"'s CPU time\n", ms/runs, 100*ms/runs/1000/n}' "$WORK/switch-cost"
fi

# This VM's run-to-run noise (±5-15% between identical runs) is far above the agent's cost, so the
# ratios above can only bound it. When Linux perf works here, one more traced run is profiled
# (software cpu-clock sampling) and the share of samples in the agent's own code is printed: a direct
# measure of the time spent in the switch callback, the counter reads' user-space part, the writers
# and start-up/exit work.
if command -v perf >/dev/null 2>&1 && perf record -q -e cpu-clock -o "$WORK/probe.data" true >/dev/null 2>&1; then
  rm -rf "$WORK/trace"
  perf record -q -e cpu-clock -F 2000 -o "$WORK/perf.data" "$RVM" -Xvps:"$VPS" -Xmx64m $RVM_ARGS \
    "-agentpath:$LIB=out=$WORK/trace,socket=off,collect=none,$MODE$EXTRA" -cp "$WORK/classes" pseudojbb.PseudoJbb $ARGS >/dev/null 2>&1
  share=$(perf report -i "$WORK/perf.data" --no-children --sort dso 2>/dev/null | awk '/libhpmagent.so/ {print $1}')
  samples=$(perf report -i "$WORK/perf.data" --no-children --sort dso 2>/dev/null | awk '/^# Samples/ {print $3; exit}')
  echo "perf profile of one traced run ($samples cpu-clock samples): ${share:-0%} in libhpmagent.so"
else
  echo "perf profile: skipped (perf not installed or not permitted here)"
fi
