# Sourced by the benchmarks that split runs of the H2 driver into phases (paused-phases.sh,
# sampling-overhead.sh), after jvm-bench.sh: checks for Debian's libh2-java, compiles the driver
# (java-tests/thirdparty/bench/H2Driver.java) and bench.Phases, which times the driver's main
# inside the JVM, and defines:
#   phases_run CONFIG JAVA-ARGS...  one run of `java JAVA-ARGS... bench.Phases bench.H2Driver 2 $TX`;
#                                   appends "start-up work exit whole" (ms) and "cpu" (s) to $WORK/CONFIG
#   col CONFIG N                    the median of column N of CONFIG's runs
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
