#!/usr/bin/env bash
# Storage reduction of the arcflow model: a generated raw start/end trace of EVENTS events
# (default 10 million) against its arcflow tree, as arcflow.json and in memory.
# The paper reports about 40 MB of events reduced to about 200 KB of tree.
#
# usage: bench/storage-reduction.sh [EVENTS]
set -euo pipefail
cd "$(dirname "$0")/.."
events=${1:-10000000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cargo build --release -q -p hpm --bin hpm
echo "generating a trace of $events events…" >&2
python3 bench/gen-trace.py "$events" 4 > "$work/trace.txt"
start=$(date +%s.%N)
target/release/hpm report --trace "$work/trace.txt" --metric-name cpu-time:ns --format json,xprof --out "$work/out" >/dev/null
end=$(date +%s.%N)
trace_bytes=$(stat -c %s "$work/trace.txt")
json_bytes=$(stat -c %s "$work/out/arcflow.json")
gzip -k -9 "$work/out/arcflow.json"
gz_bytes=$(stat -c %s "$work/out/arcflow.json.gz")
nodes=$(grep -o '"calls"' "$work/out/arcflow.json" | wc -l)
python3 - "$events" "$trace_bytes" "$json_bytes" "$gz_bytes" "$nodes" "$start" "$end" <<'PY'
import sys
ev, tb, jb, gb, nodes, s, e = sys.argv[1:]
ev, tb, jb, gb, nodes = int(ev), int(tb), int(jb), int(gb), int(nodes)
print(f"events:              {ev:,}")
print(f"raw trace:           {tb/1e6:,.1f} MB ({tb/ev:.1f} bytes/event)")
print(f"contexts (nodes):    {nodes:,}")
print(f"arcflow.json:        {jb/1e3:,.1f} KB  -> reduction {tb/jb:,.0f}x")
print(f"arcflow.json.gz:     {gb/1e3:,.1f} KB  -> reduction {tb/gb:,.0f}x")
print(f"in memory (est.):    {nodes*(32+8+5)/1e3:,.1f} KB at 1 metric (32 B node + 8 B base + ~5 B index)")
print(f"hpm report --trace:  {float(e)-float(s):.1f} s ({ev/(float(e)-float(s))/1e6:.1f} M events/s including text parsing)")
PY
