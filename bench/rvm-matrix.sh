#!/usr/bin/env bash
# The research VM on real programs: each program compiled with plain javac (no -XDstringConcat=
# inline, no --release), run on HotSpot's interpreter (java -Xint) and on rvm; the table says
# whether rvm's output (stdout and exit code) is HotSpot's, and the best wall and CPU times of
# each with their ratio. A program that fails on rvm shows the first line it printed to stderr.
#
#   bench/rvm-matrix.sh [RUNS]     (default 3; environment: JAVA_HOME or HPM_JAVA_HOME, RVM_VPS)
#
# Programs: the pseudojbb workload, the call-heavy micro-benchmark, the class-library programs of
# rvm's tests (reflection, regex, streams, files, properties and collections, BigInteger,
# BigDecimal, java.time, MessageFormat), drivers of Debian's commons-lang3 and Guava, and Debian's
# H2 with the bench driver and with the program of its errors and date values.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-3}
VPS=${RVM_VPS:-2}
JAVA_HOME=${HPM_JAVA_HOME:-${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}}
JARS=/usr/share/java
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$PWD/target}
cargo build --release -q -p rvm-backend
RVM="$CARGO_TARGET_DIR/release/rvm"
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
command -v bc >/dev/null || { echo "rvm-matrix: needs bc (apt-get install bc)" >&2; exit 1; }

compile() { # dir, javac args... (sources last)
  local d="$OUT/$1"; shift
  mkdir -p "$d"
  "$JAVA_HOME/bin/javac" -nowarn -encoding UTF-8 -d "$d" "$@" 2>"$OUT/javac.err" || { echo "rvm-matrix: javac failed:" >&2; cat "$OUT/javac.err" >&2; exit 1; }
}
compile workloads java-tests/workloads/pseudojbb/*.java java-tests/workloads/hpmagent/*.java java-tests/micro/CallHeavy.java
for area in reflect regex streams files props bigint time text; do
  compile "lib-$area" rvm-backend/tests/java-lib/"$area"/*.java
done
THIRD="$JARS/commons-lang3.jar:$JARS/guava.jar"
have_third=1
for j in commons-lang3.jar guava.jar h2.jar; do [ -f "$JARS/$j" ] || have_third=0; done
if [ "$have_third" = 1 ]; then
  compile thirdparty -cp "$THIRD" rvm-backend/tests/java-lib/thirdparty/*.java
  compile h2 -cp "$JARS/h2.jar" java-tests/thirdparty/bench/H2Driver.java rvm-backend/tests/java-lib/h2/*.java
else
  echo "rvm-matrix: commons-lang3, guava or h2 missing under $JARS (apt-get install libcommons-lang3-java libguava-java libh2-java): their rows are left out" >&2
fi

best() { # vm, command... -> "best-wall best-cpu status" over RUNS runs; stdout of the last run in $OUT/<vm>.out
  local vm=$1; shift
  local bw="" bc="" status=0
  for _ in $(seq "$RUNS"); do
    status=0
    # A program that writes files gets an empty directory each run.
    if [ -n "${FRESH:-}" ]; then rm -rf "$FRESH"; mkdir -p "$FRESH"; fi
    /usr/bin/time -f "%e %U %S" -o "$OUT/time" "$@" >"$OUT/$vm.out" 2>"$OUT/$vm.err" || status=$?
    local w u s c
    read -r w u s < <(tail -1 "$OUT/time")
    c=$(echo "$u + $s" | bc)
    if [ -z "$bw" ] || [ "$(echo "$w < $bw" | bc)" = 1 ]; then bw=$w; fi
    if [ -z "$bc" ] || [ "$(echo "$c < $bc" | bc)" = 1 ]; then bc=$c; fi
    [ "$status" = 0 ] || break
  done
  echo "$bw $bc $status"
}

row() { # name, classpath, main, args...
  local name=$1 cp=$2; shift 2
  local jw jc js rw rc rs result
  read -r jw jc js <<< "$(best java "$JAVA_HOME/bin/java" -Xint -Xmx256m -cp "$cp" "$@")"
  read -r rw rc rs <<< "$(best rvm "$RVM" -Xvps:"$VPS" -Xmx256m -cp "$cp" "$@")"
  if [ "$rs" != 0 ]; then
    result="fails (exit $rs): $(grep -m1 -v '^\s*$' "$OUT/rvm.err" | cut -c1-60)"
    printf '%-22s %s\n' "$name" "$result"
    return
  elif [ "$js" != "$rs" ] || ! cmp -s "$OUT/java.out" "$OUT/rvm.out"; then
    result="output differs ($(diff "$OUT/java.out" "$OUT/rvm.out" | grep -c '^[<>]') lines)"
  else
    result="same output ($(wc -l < "$OUT/rvm.out") lines)"
  fi
  printf '%-22s %-34s %9.2f %9.2f %6.2fx %9.2f %9.2f %6.2fx\n' "$name" "$result" "$jw" "$rw" "$(echo "scale=4; $rw / $jw" | bc)" "$jc" "$rc" "$(echo "scale=4; $rc / $jc" | bc)"
}

echo "best of $RUNS runs, rvm -Xvps:$VPS, $(nproc) cores, $("$JAVA_HOME/bin/java" -version 2>&1 | head -1); times include each VM's start-up"
printf '%-22s %-34s %9s %9s %7s %9s %9s %7s\n' program "rvm against HotSpot" "Xint-s" "rvm-s" "wall" "Xint-cpu" "rvm-cpu" "cpu"
row "pseudojbb 4x20000" "$OUT/workloads" pseudojbb.PseudoJbb 4 20000
row "CallHeavy 3" "$OUT/workloads" CallHeavy 3
row "reflection" "$OUT/lib-reflect" LibReflect
row "regex" "$OUT/lib-regex" LibRegex
row "streams" "$OUT/lib-streams" LibStreams
FRESH="$OUT/files-run" row "files" "$OUT/lib-files" LibFiles "$OUT/files-run"
row "properties etc." "$OUT/lib-props" LibProps
row "BigInteger" "$OUT/lib-bigint" LibBigInteger
row "BigDecimal" "$OUT/lib-bigint" LibBigDecimal
row "java.time" "$OUT/lib-time" LibTime
row "MessageFormat" "$OUT/lib-text" LibMessageFormat
if [ "$have_third" = 1 ]; then
  row "commons-lang3 driver" "$OUT/thirdparty:$THIRD" CommonsLangDriver
  row "Guava driver" "$OUT/thirdparty:$THIRD" GuavaDriver
  row "H2 2x300" "$OUT/h2:$JARS/h2.jar" bench.H2Driver 2 300
  row "H2 errors and dates" "$OUT/h2:$JARS/h2.jar" LibH2Errors
fi
