#!/usr/bin/env bash
# Builds everything and runs the main job: renders the arcflow reports of the bundled trace of the
# arcflow paper (Figure 2) into out/demo and prints the flat profile.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/prereqs.sh
cargo build --workspace --release
out=out/demo
target/release/hpm report --trace examples/figure2.trace --metric-name cpu-seconds --out "$out"
echo
echo "hpm: reports written to $out/"
echo "---- $out/xprof.txt ----"
head -n 30 "$out/xprof.txt"
