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
"$JAVA_HOME/bin/javac" -XDstringConcat=inline -d "$OUT" java-tests/workloads/pseudojbb/*.java java-tests/workloads/hpmagent/*.java java-tests/micro/CallHeavy.java

best() { # command... -> "best-wall best-cpu" in seconds over RUNS runs (cpu = user+sys, robust on a
          # loaded machine); checks the output is identical each run
  local bw="" bc="" out="" prev=""
  for _ in $(seq "$RUNS"); do
    out=$(/usr/bin/time -f "%e %U %S" -o "$OUT/time" "$@" 2>/dev/null)
    read -r w u s < "$OUT/time"
    local c
    c=$(echo "$u + $s" | bc)
    if [ -n "$prev" ] && [ "$out" != "$prev" ]; then echo "output differs between runs of $*" >&2; exit 1; fi
    prev=$out
    if [ -z "$bw" ] || [ "$(echo "$w < $bw" | bc)" = 1 ]; then bw=$w; fi
    if [ -z "$bc" ] || [ "$(echo "$c < $bc" | bc)" = 1 ]; then bc=$c; fi
  done
  echo "$bw $bc"
  echo "$out" > "$OUT/last.out"
}

run_case() { # name, args...
  local name=$1; shift
  local jw jc rw rc
  read -r jw jc <<< "$(best "$JAVA_HOME/bin/java" -Xint -Xmx64m -cp "$OUT" "$@")"
  cp "$OUT/last.out" "$OUT/java.out"
  read -r rw rc <<< "$(best "$RVM" -Xvps:"$VPS" -Xmx64m -cp "$OUT" "$@")"
  if ! cmp -s "$OUT/java.out" "$OUT/last.out"; then echo "$name: rvm output differs from java" >&2; diff "$OUT/java.out" "$OUT/last.out" >&2 || true; exit 1; fi
  printf '%-20s wall: java -Xint %6.2fs  rvm %6.2fs  (%4.2fx)   cpu: java -Xint %6.2fs  rvm %6.2fs  (%4.2fx)\n' \
    "$name" "$jw" "$rw" "$(echo "scale=4; $rw / $jw" | bc)" "$jc" "$rc" "$(echo "scale=4; $rc / $jc" | bc)"
}

echo "best of $RUNS runs, rvm -Xvps:$VPS, $(nproc) cores, $("$JAVA_HOME/bin/java" -version 2>&1 | head -1)"
run_case "pseudojbb 4x20000" pseudojbb.PseudoJbb 4 20000
run_case "CallHeavy 3" CallHeavy 3
