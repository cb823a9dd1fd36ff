# Sourced by the JVM overhead benchmarks (agent-overhead.sh, calls-overhead.sh, counters-overhead.sh)
# with ROOT and JAVA_HOME set: builds libhpmagent.so and sets LIB, WORK (a temporary directory) and
# OUT (the agent's report directories; on a tmpfs when there is one, because fsyncing the reports at
# exit on a busy disk is a fixed 0.1-0.5 s that is not the agent's running cost; BENCH_OUT overrides).
# Both are removed at exit. Defines timed_java and median.
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
(cd "$ROOT" && cargo build --release -p hpmagent -q)
LIB="$TARGET/release/libhpmagent.so"
WORK="$(mktemp -d)"
if [ -z "${BENCH_OUT:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then BENCH_OUT=/dev/shm; fi
OUT="$(mktemp -d "${BENCH_OUT:-$WORK}/hpm-bench.XXXXXX")"
trap 'rm -rf "$WORK" "$OUT"' EXIT

# One run of "$JAVA_HOME/bin/java ARGS...": prints "wall cpu" in seconds (cpu = user + system of the
# JVM, all its threads) and leaves its stderr in $WORK/err. A failed run stops the benchmark.
timed_java() {
  local t0 t1
  t0=$(date +%s%N)
  /usr/bin/time -f "%U %S" -o "$WORK/time" "$JAVA_HOME/bin/java" "$@" >/dev/null 2>"$WORK/err" || { cat "$WORK/err" >&2; exit 1; }
  t1=$(date +%s%N)
  awk -v w="$(( (t1 - t0) / 1000000 ))" '{printf "%.3f %.3f\n", w/1000, $1+$2}' "$WORK/time"
}

median() { sort -n | awk '{a[NR]=$1} END {printf "%.3f", a[int((NR+1)/2)]}'; }
