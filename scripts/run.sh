#!/usr/bin/env bash
# Builds everything and runs the main job: profiles the bundled pseudojbb workload (4 warehouse
# threads running transactions against in-memory trees and maps) on HotSpot with the agent, then
# prints where the reports are and the top of the flat profile; then runs it on the research VM
# (2 virtual processors) with quantum tracing and prints the per-thread table of the trace.
#
# usage: scripts/run.sh [WAREHOUSES [TRANSACTIONS]]   (default 4 2000)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/prereqs.sh
cargo build --workspace --release
# where cargo put the binaries (CARGO_TARGET_DIR when set, as cargo itself does)
bin="${CARGO_TARGET_DIR:-target}/release"
classes="${CARGO_TARGET_DIR:-target}/java-classes/run-demo"
mkdir -p "$classes"
"$JAVA_HOME/bin/javac" -XDstringConcat=inline -d "$classes" java-tests/workloads/pseudojbb/*.java java-tests/workloads/hpmagent/*.java
out=out/demo
rm -rf "$out"
echo "hpm: profiling pseudojbb on $("$JAVA_HOME/bin/java" -version 2>&1 | head -1)" >&2
"$bin"/hpm run "out=$out" "collect=all" "perf-map=off" "event=task-clock" "event=page-faults" \
    -- "$JAVA_HOME/bin/java" -cp "$classes" pseudojbb.PseudoJbb "${1:-4}" "${2:-2000}"
echo
echo "hpm: reports in $out/ (xtree.txt, xarc.txt, xprof.txt, arcflow.json, collapsed.txt, flame.svg,"
echo "     threads.txt, gc.txt, locks.txt, waits.txt, alloc.txt, code.txt, threads/ per thread,"
echo "     explore.html: open it in a browser)"
echo "---- $out/xprof.txt (top) ----"
head -n 30 "$out/xprof.txt"

trace=out/demo-rvm
rm -rf "$trace"
echo
echo "hpm: the same workload on the research VM (rvm -Xvps:2) with quantum traces" >&2
"$bin"/hpm run "out=$trace" "quantum" "collect=gc" "socket=off" \
    -- "$bin"/rvm -Xvps:2 -Xmx64m -cp "$classes" pseudojbb.PseudoJbb "${1:-4}" "${2:-2000}" >/dev/null
echo "---- hpm trace $trace (per-thread table; full output: $bin/hpm trace $trace) ----"
"$bin"/hpm trace "$trace" | sed -n '1,/^Records after each GC/p' | sed '$d'
