#!/usr/bin/env bash
# Compares rvm with HotSpot's interpreter (java -Xint) on the pseudojbb-like workload and on a
# call-heavy micro-benchmark. Prints the best of N wall-clock times for each and the ratio.
#   bench/rvm-vs-xint.sh [runs]        (environment: JAVA_HOME or HPM_JAVA_HOME, RVM_VPS)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-3}
VPS=${RVM_VPS:-1}
JAVA_HOME=${HPM_JAVA_HOME:-${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}}
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$PWD/target}
cargo build --release -q -p rvm-backend
RVM="$CARGO_TARGET_DIR/release/rvm"
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
"$JAVA_HOME/bin/javac" -XDstringConcat=inline -d "$OUT" java-tests/workloads/pseudojbb/*.java java-tests/micro/CallHeavy.java

best() { # command... -> best wall time in seconds over RUNS runs; checks the output is identical each run
  local best="" out="" prev=""
  for _ in $(seq "$RUNS"); do
    local s e t
    s=$(date +%s.%N)
    out=$("$@" 2>/dev/null)
    e=$(date +%s.%N)
    t=$(echo "$e - $s" | bc)
    if [ -n "$prev" ] && [ "$out" != "$prev" ]; then echo "output differs between runs of $*" >&2; exit 1; fi
    prev=$out
    if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" = 1 ]; then best=$t; fi
  done
  echo "$best"
  echo "$out" > "$OUT/last.out"
}

run_case() { # name, args...
  local name=$1; shift
  local tj tr
  tj=$(best "$JAVA_HOME/bin/java" -Xint -Xmx64m -cp "$OUT" "$@")
  cp "$OUT/last.out" "$OUT/java.out"
  tr=$(best "$RVM" -Xvps:"$VPS" -Xmx64m -cp "$OUT" "$@")
  if ! cmp -s "$OUT/java.out" "$OUT/last.out"; then echo "$name: rvm output differs from java" >&2; diff "$OUT/java.out" "$OUT/last.out" >&2 || true; exit 1; fi
  printf '%-28s java -Xint %7.2fs   rvm -Xvps:%s %7.2fs   rvm/Xint %5.2fx\n' "$name" "$tj" "$VPS" "$tr" "$(echo "scale=4; $tr / $tj" | bc)"
}

echo "best of $RUNS runs, $(nproc) cores, $("$JAVA_HOME/bin/java" -version 2>&1 | head -1)"
run_case "pseudojbb 4x20000" pseudojbb.PseudoJbb 4 20000
run_case "CallHeavy 3" CallHeavy 3
