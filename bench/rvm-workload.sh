# Sourced by the rvm benchmarks (quantum-overhead.sh, quantum-instructions.sh), with ROOT and
# JAVA_HOME set: builds rvm, the agent and hpm, and compiles the bundled workloads.
# Sets RVM, LIB, HPM and WORK (a temporary directory removed at exit; classes in $WORK/classes).
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
(cd "$ROOT" && cargo build --release -q -p rvm-backend -p hpmagent -p hpm)
RVM="$CARGO_TARGET_DIR/release/rvm"
LIB="$CARGO_TARGET_DIR/release/libhpmagent.so"
HPM="$CARGO_TARGET_DIR/release/hpm"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
find "$ROOT/java-tests/workloads" -name '*.java' >"$WORK/sources"
"$JAVA_HOME/bin/javac" -XDstringConcat=inline -d "$WORK/classes" @"$WORK/sources"
