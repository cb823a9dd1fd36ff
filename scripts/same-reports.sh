#!/usr/bin/env bash
# Checks that two builds of hpmagent (before and after a refactor) write the same reports for the
# bundled workload, apart from what is measured (times, counter values, pids):
#
#   1. each build's agent profiles pseudojbb on HotSpot as scripts/run.sh does (every collector, two
#      software events) and the research VM's run with a quantum trace;
#   2. the two agents' saved runs record the same things: the same report files, the same call
#      counts in every context of every thread (calls and per-phase trees), the same threads,
#      configuration and markers (exact counts are deterministic; times, counter values and which
#      locks happened to be contended are not);
#   3. each build's `hpm report` regenerates the *other* build's report directory byte for byte, and
#      both builds' `hpm trace` print the same bytes for each quantum trace: every renderer and the
#      saved-run format are unchanged in both directions.
#
# usage: scripts/same-reports.sh BEFORE AFTER [WAREHOUSES TRANSACTIONS]
#   BEFORE and AFTER are build directories holding libhpmagent.so, hpm and rvm (a target/release).
#   To build a revision REV beside the working tree:
#     git worktree add /tmp/hpm-before REV && (cd /tmp/hpm-before && cargo build --release)
#     scripts/same-reports.sh /tmp/hpm-before/target/release target/release
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/prereqs.sh
before=$(realpath "$1") after=$(realpath "$2")
warehouses=${3:-4} transactions=${4:-2000}
for b in "$before" "$after"; do
    for f in libhpmagent.so hpm rvm; do
        [ -x "$b/$f" ] || [ -f "$b/$f" ] || { echo "same-reports: $b/$f is missing: give a build directory (target/release) of each revision" >&2; exit 2; }
    done
done
work=$(mktemp -d /tmp/hpm-same-reports.XXXXXX)
classes="$work/classes"
mkdir -p "$classes"
"$JAVA_HOME/bin/javac" -XDstringConcat=inline -d "$classes" java-tests/workloads/pseudojbb/*.java java-tests/workloads/hpmagent/*.java

for side in before after; do
    bin=${!side}
    "$bin/hpm" run "out=$work/$side" collect=all perf-map=off socket=off event=task-clock event=page-faults \
        -- "$JAVA_HOME/bin/java" -cp "$classes" pseudojbb.PseudoJbb "$warehouses" "$transactions" >/dev/null 2>"$work/$side.log" \
        || { echo "same-reports: the $side build's HotSpot run failed:" >&2; cat "$work/$side.log" >&2; exit 1; }
    "$bin/hpm" run "out=$work/$side-rvm" quantum collect=gc socket=off \
        -- "$bin/rvm" -Xvps:2 -Xmx64m -cp "$classes" pseudojbb.PseudoJbb "$warehouses" "$transactions" >/dev/null 2>"$work/$side-rvm.log" \
        || { echo "same-reports: the $side build's research VM run failed:" >&2; cat "$work/$side-rvm.log" >&2; exit 1; }
done

failed=0
# 3. Each build renders the other's saved runs to the same bytes, and prints the same trace tables.
for pair in "before after" "after before"; do
    set -- $pair
    writer=$1 reader=$2
    for run in "$writer" "$writer-rvm"; do
        "${!reader}/hpm" report "$work/$run" --out "$work/$run.by-$reader" >/dev/null 2>&1
        # quantum.* are the trace itself, an input of hpm report, not one of its reports
        if diff -r -x 'quantum.*' "$work/$run" "$work/$run.by-$reader" >"$work/diff" 2>&1; then
            echo "same-reports: the $reader build's hpm report regenerates the $writer build's $run/ byte for byte ($(find "$work/$run" -type f | wc -l) files)"
        else
            echo "same-reports: FAIL: the $reader build's hpm report writes other bytes than the $writer build's agent in $run/:" >&2
            head -20 "$work/diff" >&2
            failed=1
        fi
    done
    "${!writer}/hpm" trace "$work/$writer-rvm" >"$work/trace.$writer" 2>&1
    "${!reader}/hpm" trace "$work/$writer-rvm" >"$work/trace.$reader" 2>&1
    if cmp -s "$work/trace.$writer" "$work/trace.$reader"; then
        echo "same-reports: both builds' hpm trace print the same $(wc -l <"$work/trace.$writer") lines for the $writer build's trace"
    else
        echo "same-reports: FAIL: hpm trace differs between the builds on the $writer build's trace:" >&2
        diff "$work/trace.$writer" "$work/trace.$reader" | head -20 >&2
        failed=1
    fi
done

# 2. Both agents recorded the same things.
python3 - "$work" <<'EOF' || failed=1
import json, os, re, sys
work = sys.argv[1]

def files(root):
    # Thread directories are numbered in the order threads started, which varies between runs.
    return sorted(re.sub(r'threads/\d+-', 'threads/N-', os.path.relpath(os.path.join(d, f), root))
                  for d, _, fs in os.walk(root) for f in fs)

def counts(saved, section):
    # A section is one profile (threads of node rows: parent, consumer, calls, metrics...) or a
    # list of them (one per phase).
    cons, out = saved['consumers'], {}
    profiles = saved.get(section) or []
    for phase, profile in enumerate(profiles if isinstance(profiles, list) else [profiles]):
        for t in profile['threads']:
            paths = []
            for parent, consumer, calls, *_ in t['nodes']:
                path = (paths[parent] if parent is not None else (f'phase {phase}', t['name'])) + (cons[consumer],)
                paths.append(path)
                out[path] = out.get(path, 0) + calls
    return out

def facts(run):
    s = json.load(open(os.path.join(work, run, 'arcflow.json')))
    summaries = sorted((t['name'], t['kind'], t['method_events'], t['exception_exits'], t['unmatched_exits']) for t in s['thread_summaries'])
    return {
        'report files': files(os.path.join(work, run)),
        'format and version': (s['format'], s['version']),
        'configuration': s['config'],
        'calls in every context': counts(s, 'calls'),
        'calls in every context of every phase': counts(s, 'phase_calls'),
        'threads (name, kind, method events, exception and unmatched exits)': summaries,
        'markers (text, method events)': [(m['text'], m['method_events']) for m in s.get('marks') or []],
    }

bad = 0
for run in ('', '-rvm'):
    a, b = facts('before' + run), facts('after' + run)
    for what in a:
        if a[what] == b[what]:
            n = len(a[what]) if hasattr(a[what], '__len__') else 1
            print(f"same-reports: before{run} and after{run}: same {what} ({n})")
        else:
            bad = 1
            print(f"same-reports: FAIL: before{run} and after{run} differ in {what}", file=sys.stderr)
            if isinstance(a[what], dict):
                for k in sorted(set(a[what]) | set(b[what]), key=str):
                    if a[what].get(k) != b[what].get(k):
                        print(f"    {' > '.join(k)}: {a[what].get(k)} before, {b[what].get(k)} after", file=sys.stderr)
            else:
                print(f"    before: {a[what]}\n    after:  {b[what]}", file=sys.stderr)
sys.exit(bad)
EOF

if [ "$failed" = 0 ]; then
    echo "same-reports: the two builds write the same reports"
    rm -rf "$work"
else
    echo "same-reports: the builds differ (see FAIL lines above); both runs are kept in $work" >&2
    exit 1
fi
