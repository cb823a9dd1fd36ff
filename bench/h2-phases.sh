# Sourced by the benchmarks that split runs of the H2 driver into phases (paused-phases.sh,
# sampling-overhead.sh), after jvm-bench.sh: checks for Debian's libh2-java, compiles the driver
# (java-tests/thirdparty/bench/H2Driver.java) and bench.Phases, which times the driver's main
# inside the JVM, and defines:
#   phases_run CONFIG JAVA-ARGS...  one run of `java JAVA-ARGS... bench.Phases bench.H2Driver 2 $TX`;
#                                   appends "start-up work exit whole" (ms) and "cpu" (s) to $WORK/CONFIG
#   col CONFIG N                    the median of column N of CONFIG's runs
#   phases_series CONFIG...         $RUNS interleaved rounds of one run per CONFIG (after a header
#                                   line naming the JDK, the runs and the machine); the JVM
#                                   arguments of CONFIG are what the script's `agent_args CONFIG`
#                                   prints, one per line (nothing: no agent)
#   phases_table CONFIG...          the table of each CONFIG's medians
#   phases_ratio CONFIG BASE        one line: CONFIG's work, whole run and cpu over BASE's
H2=/usr/share/java/h2.jar
[ -f "$H2" ] || { echo "bench: $H2 missing: apt-get install libh2-java" >&2; exit 1; }
"$JAVA_HOME/bin/javac" -cp "$H2" -d "$WORK/classes" "$ROOT"/java-tests/thirdparty/bench/{H2Driver,Phases}.java

phases_run() {
  local file="$WORK/$1" t0 t1 line
  shift
  t0=$(date +%s%3N)
  /usr/bin/time -f "%U %S" -o "$WORK/time" "$JAVA_HOME/bin/java" "$@" -cp "$WORK/classes:$H2" bench.Phases bench.H2Driver 2 "$TX" \
    >"$WORK/out" 2>"$WORK/err" || { cat "$WORK/err" >&2; exit 1; }
  t1=$(date +%s%3N)
  line=$(grep '^phases ' "$WORK/out") || { cat "$WORK/out" "$WORK/err" >&2; exit 1; }
  # "phases START END" (epoch ms, inside the JVM), then the launch and exit times seen from here.
  echo "$line $t0 $t1 $(awk '{print $1+$2}' "$WORK/time")" | awk '{print $2-$4, $3-$2, $5-$3, $5-$4, $6}' >>"$file"
}

col() { cut -d' ' -f"$2" "$WORK/$1" | median; }

phases_series() {
  local c
  echo "JDK: $("$JAVA_HOME/bin/java" -version 2>&1 | head -1); H2 driver 2 x $TX; $RUNS runs per configuration (interleaved)"
  echo "cpu: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
  for _ in $(seq "$RUNS"); do
    for c in "$@"; do
      local args=()
      mapfile -t args < <(agent_args "$c")
      phases_run "$c" "${args[@]}"
    done
  done
}

phases_table() {
  printf '%-8s %10s %10s %10s %10s %8s   (medians; ms, cpu s)\n' config start-up work exit whole cpu
  local c
  for c in "$@"; do
    printf '%-8s %10.0f %10.0f %10.0f %10.0f %8.2f\n' "$c" "$(col "$c" 1)" "$(col "$c" 2)" "$(col "$c" 3)" "$(col "$c" 4)" "$(col "$c" 5)"
  done
}

phases_ratio() {
  awk -v c="$1" -v b="$2" -v w="$(col "$1" 2)" -v nw="$(col "$2" 2)" -v a="$(col "$1" 4)" -v na="$(col "$2" 4)" \
    -v cp="$(col "$1" 5)" -v nc="$(col "$2" 5)" -v s="$(col "$1" 1)" -v ns="$(col "$2" 1)" -v e="$(col "$1" 3)" -v ne="$(col "$2" 3)" \
    'BEGIN {printf "%s/%s: work %.3f, whole run %.3f, cpu %.3f; start-up %+d ms, exit %+d ms\n", c, b, w/nw, a/na, cp/nc, s-ns, e-ne}'
}
