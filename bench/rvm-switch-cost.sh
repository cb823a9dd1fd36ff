#!/usr/bin/env bash
# What the agent costs the research VM on a switch-heavy program: java-tests/workloads/phases/
# PingPong (two threads handing a token back and forth through wait/notify, every hand-over a
# thread switch) on `rvm -Xvps:2` (or VPS), without the agent and with it in several configurations,
# interleaved, median of RUNS each: CPU (user + system of all the VM's threads) and its ratio to
# no agent; the median and quartiles of each run's ratio to the `none` run just before it (the
# machine's speed drifts by more than the agent's cost over a series, much less between
# neighbouring runs); the processes' voluntary context switches (the processors' sleeps on the
# scheduler's condvar: each costs microseconds in the kernel, and their number moves with the
# timing of the program's hand-overs); and the agent's own measure of its thread-switch callback
# (`log=info`: callbacks and ns each on average). The agent's default metric mode is `auto` (sampled where a thread CPU
# clock read costs over 50 ns, as here); the `exact` rows force `metric-mode=exact` (a read at
# every method event and switch) for comparison.
#
# On two processors much of rvm's own time is the kernel's futex sleeps and wake-ups of the
# processors, whose number moves with any change in timing; on one (VPS=1) there are none, and the
# ratio is the agent's own cost.
#
#   bench/rvm-switch-cost.sh [RUNS] [ROUNDS] [VPS] [STEPS]
#       default 7 runs, 150000 rounds (~330,000 switches), 2 processors, 20 steps of work per turn
#       (about 1.7 µs per hand-over on one processor: 600,000 switches a second); 200 steps give
#       about 80,000 switches a second.
#
# The CPU of identical runs varies by ±10-25% on a shared virtual machine, so a series also prints a
# bootstrap 95% interval of each median paired ratio: a difference between configurations smaller
# than that interval is not resolved by the series (seen: 40 runs, intervals about ±0.05; 200 runs
# of two configurations, CONFIGS="none defaults-quantum", about ±0.02).
#
# The agent writes some 45 report files at exit, each a new file renamed into place. On this
# machine's ext4 creating a file has cost 0.15-0.5 ms of system CPU (45 of them: 7-24 ms, more
# the more files the machine deleted in the last minutes, which the inode allocator steps over one
# by one), on tmpfs next to nothing. OUT_ROOT=/dev/shm puts the report directories on tmpfs, to
# tell that cost from the agent's own; by default they go to the temporary work directory.
#
# Environment: CARGO_TARGET_DIR, JAVA_HOME, OUT_ROOT; CONFIGS (a subset of the names below, `none` first);
# INSTRUCTIONS=N also runs each configuration once with N
# rounds under valgrind's callgrind and prints its user-space instructions and their ratio to no
# agent. CPU ratios on a shared virtual machine move by ±10% between identical series; instruction
# counts do not (identical runs agree within about 0.01%), but leave out the kernel's time (the
# agent's file writes and fsyncs at exit, its signals) and what each instruction costs (cache misses,
# clock reads under a hypervisor). Callgrind runs about 50 times slower than native. Needs valgrind.
set -euo pipefail
RUNS="${1:-7}"
ROUNDS="${2:-150000}"
VPS="${3:-2}"
STEPS="${4:-20}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}"
. "$ROOT/bench/rvm-workload.sh"
if [ -n "${OUT_ROOT:-}" ]; then
  OUT="$(mktemp -d "$OUT_ROOT/hpm-bench.XXXXXX")"
  trap 'rm -rf "$WORK" "$OUT"' EXIT
else
  OUT="$WORK/out"
fi
median() { sort -n | awk '{a[NR]=$1} END {printf "%.3f", a[int((NR+1)/2)]}'; }

read -r -a CONFIGS <<<"${CONFIGS:-none collect-none quantum-only defaults defaults-quantum exact exact-quantum}"
[ "${CONFIGS[0]}" = none ] || { echo "rvm-switch-cost: CONFIGS must start with none" >&2; exit 1; }
options() {
  case $1 in
    collect-none) echo "collect=none" ;;
    quantum-only) echo "quantum,collect=none" ;;
    defaults) echo "" ;;
    defaults-quantum) echo "quantum" ;;
    exact) echo "metric-mode=exact" ;;
    exact-quantum) echo "quantum,metric-mode=exact" ;;
  esac
}
# Sets `agent` to the -agentpath argument of configuration $1 with the extra options $2 (nothing
# for `none`), writing to a new report directory. The directories stay until the end: removing
# and re-creating some 50 files at every run makes ext4 search past its recently deleted inodes at
# every file the next run creates (`recently_deleted` in a kernel profile), up to 0.6 ms a file
# here: a cost of the benchmark's loop, not of the agent.
runs_so_far=0
agent_for() {
  agent=()
  runs_so_far=$((runs_so_far + 1))
  if [ "$1" != none ]; then
    local o
    o="$(options "$1")"
    agent=("-agentpath:$LIB=out=$OUT/$runs_so_far,socket=off$2${o:+,$o}")
  fi
}
echo "phases.PingPong $ROUNDS $STEPS on rvm -Xvps:$VPS; $RUNS runs per configuration (median; interleaved); reports to $OUT ($(stat -f -c %T "$OUT" 2>/dev/null || echo ?)); $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
for c in "${CONFIGS[@]}"; do : >"$WORK/$c"; : >"$WORK/$c.paired"; : >"$WORK/$c.switch"; : >"$WORK/$c.cs"; done
# CPU in ms (bash's `time`; GNU time's %U and %S are in 10 ms steps), os sleeps from GNU time.
TIMEFORMAT='%3U %3S'
for _ in $(seq "$RUNS"); do
  for c in "${CONFIGS[@]}"; do
    agent_for "$c" ",log=info"
    { time /usr/bin/time -f "%w" -o "$WORK/cs" "$RVM" -Xvps:"$VPS" "${agent[@]}" -cp "$WORK/classes" phases.PingPong "$ROUNDS" "$STEPS" >"$WORK/stdout" 2>"$WORK/err" \
      || { cat "$WORK/err" >&2; exit 1; }; } 2>"$WORK/time"
    grep -q "^pingpong $ROUNDS " "$WORK/stdout" || { cat "$WORK/stdout" "$WORK/err" >&2; exit 1; }
    cpu=$(awk '{print $1+$2}' "$WORK/time")
    echo "$cpu" >>"$WORK/$c"
    # Against the `none` run of this round, just before: the machine's speed drifts by more than
    # the agent's cost between rounds, much less between neighbouring runs.
    [ "$c" = none ] && round_none=$cpu
    awk -v a="$cpu" -v b="$round_none" 'BEGIN {print a/b}' >>"$WORK/$c.paired"
    tail -1 "$WORK/cs" >>"$WORK/$c.cs"
    # "thread-switch callbacks: N, T ms in total, X ns each on average"
    sed -n 's/.*thread-switch callbacks: \([0-9]*\), .* ms in total, \([0-9]*\) ns each.*/\1 \2/p' "$WORK/err" >>"$WORK/$c.switch"
  done
done
none=$(median <"$WORK/none")
quartiles() { sort -n | awk '{a[NR]=$1} END {printf "%.3f-%.3f", a[int((NR+3)/4)], a[int((3*NR+3)/4)]}'; }
printf '%-18s %8s %8s %9s %13s %10s %12s %10s\n' config "cpu s" "× none" "paired ×" "quartiles" switches "ns/switch" "os sleeps"
for c in "${CONFIGS[@]}"; do
  cpu=$(median <"$WORK/$c")
  if [ -s "$WORK/$c.switch" ]; then
    n=$(cut -d' ' -f1 "$WORK/$c.switch" | median); ns=$(cut -d' ' -f2 "$WORK/$c.switch" | median)
  else
    n=-; ns=-
  fi
  cs=$(median <"$WORK/$c.cs")
  printf '%-18s %8s %8.3f %9s %13s %10s %12s %10s\n' "$c" "$cpu" "$(awk -v a="$cpu" -v b="$none" 'BEGIN {print a/b}')" "$(median <"$WORK/$c.paired")" \
    "$(quartiles <"$WORK/$c.paired")" "${n%.000}" "${ns%.000}" "${cs%.000}"
done
for c in "${CONFIGS[@]:1}"; do echo "$c: $(options "$c")"; done
# How well the series resolves each ratio: a bootstrap 95% interval of the median paired ratio
# (runs resampled with replacement).
python3 - "$WORK" "${CONFIGS[@]:1}" <<'PY'
import random, statistics, sys
rng = random.Random(1)
for c in sys.argv[2:]:
    xs = [float(l) for l in open(f"{sys.argv[1]}/{c}.paired") if l.strip()]
    meds = sorted(statistics.median(rng.choices(xs, k=len(xs))) for _ in range(4000))
    print(f"{c}: median paired ratio {statistics.median(xs):.3f}, bootstrap 95% interval {meds[100]:.3f} to {meds[3899]:.3f} ({len(xs)} runs)")
PY

if [ -n "${INSTRUCTIONS:-}" ]; then
  command -v valgrind >/dev/null 2>&1 || { echo "rvm-switch-cost: valgrind not found; install it (apt-get install valgrind) to count instructions" >&2; exit 1; }
  echo
  echo "user-space instructions, phases.PingPong $INSTRUCTIONS $STEPS on rvm -Xvps:$VPS under callgrind (one run each)"
  printf '%-18s %16s %8s\n' config instructions "× none"
  base=""
  for c in "${CONFIGS[@]}"; do
    agent_for "$c" ""
    # --fair-sched: rvm's timer thread runs while the processors spin, as natively.
    valgrind --tool=callgrind --fair-sched=yes --callgrind-out-file="$WORK/cg.out" "$RVM" -Xvps:"$VPS" "${agent[@]}" -cp "$WORK/classes" \
      phases.PingPong "$INSTRUCTIONS" "$STEPS" >"$WORK/stdout" 2>"$WORK/err" || { cat "$WORK/err" >&2; exit 1; }
    n=$(grep -oE 'refs: +[0-9,]+' "$WORK/err" | tr -d ', ' | cut -d: -f2)
    base="${base:-$n}"
    printf '%-18s %16s %8.4f\n' "$c" "$n" "$(awk -v a="$n" -v b="$base" 'BEGIN {print a/b}')"
  done
fi
