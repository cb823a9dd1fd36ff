#!/usr/bin/env bash
# Builds everything and runs the main job: profiles the bundled pseudojbb workload (4 warehouse
# threads running transactions against in-memory trees and maps) on HotSpot with the agent, then
# prints where the reports are and the top of the flat profile.
#
# usage: scripts/run.sh [WAREHOUSES [TRANSACTIONS]]   (default 4 2000)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/prereqs.sh
cargo build --workspace --release
classes=target/java-classes/run-demo
mkdir -p "$classes"
"$JAVA_HOME/bin/javac" -XDstringConcat=inline -d "$classes" java-tests/workloads/pseudojbb/*.java
out=out/demo
rm -rf "$out"
echo "hpm: profiling pseudojbb on $("$JAVA_HOME/bin/java" -version 2>&1 | head -1)" >&2
target/release/hpm run "out=$out" "collect=all" "perf-map=off" "event=task-clock" "event=page-faults" \
    -- "$JAVA_HOME/bin/java" -cp "$classes" pseudojbb.PseudoJbb "${1:-4}" "${2:-2000}"
echo
echo "hpm: reports in $out/ (xtree.txt, xarc.txt, xprof.txt, arcflow.json, collapsed.txt, flame.svg,"
echo "     threads.txt, gc.txt, locks.txt, waits.txt, alloc.txt, code.txt, threads/ per thread)"
echo "---- $out/xprof.txt (top) ----"
head -n 30 "$out/xprof.txt"
