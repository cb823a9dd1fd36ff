#!/usr/bin/env bash
# Size and time to first render of `hpm explore` pages of synthetic profiles (10 k and 1 M
# contexts, 4 threads, 4 metrics; reports/examples/explore-synthetic.rs) in headless Chromium:
# the page's own mark from navigation start to the first drawn flame graph (all threads merged),
# median of RUNS page loads, with the steps (script start = HTML read and parsed, JSON parsed,
# columns loaded, threads merged, cum and children, view done).
#
# usage: bench/explorer-size.sh [RUNS]   (default 3)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/prereqs.sh
hpm_need_chromium
runs=${1:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cargo build --release -q -p hpm-reports --example explore-synthetic
for nodes in 10000 1000000; do
    echo "== $nodes contexts"
    "${CARGO_TARGET_DIR:-target}"/release/examples/explore-synthetic "$nodes" "$work/page-$nodes.html"
    (cd hpm/tests/explorer && node first-render.mjs "$work/page-$nodes.html" "$runs")
done
echo "(load average: $(cut -d' ' -f1-3 /proc/loadavg))"
