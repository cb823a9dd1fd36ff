#!/usr/bin/env bash
# Runs every test of the project: unit, property and integration tests (real JVMs, real perf_event
# file descriptors, real sockets). Release mode, because the integration tests run the agent inside
# JVMs and the research VM on real programs.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/prereqs.sh
hpm_need_perf
hpm_need_corpus
hpm_need_chromium
hpm_need_go
hpm_need_export_viewers
echo "hpm: testing with JDK at $JAVA_HOME" >&2
# --no-fail-fast: one failing test binary should not hide the results of the others.
cargo test --workspace --release --no-fail-fast "$@"
