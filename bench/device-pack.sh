#!/usr/bin/env bash
# Packs what bench/scaling.sh needs on a machine with no JDK and no network (a many-core server
# lent for a measurement): a runtime made with jlink, the stripped agent, the two programs compiled,
# and Debian's h2.jar, in one directory of at most 64 MiB. Then prints the command that runs the
# benchmark with them there.
#
#   bench/device-pack.sh [DIR]      (default target/device; replaced if it exists)
#
# Environment: JAVA_HOME, the JDK whose jlink and javac are used (default Temurin 25, then JDK 17).
# The runtime needs glibc 2.17 or later, the agent the glibc it was built against.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
DIR="${1:-$ROOT/target/device}"
if [ -z "${JAVA_HOME:-}" ]; then
  for j in /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/java-17-openjdk-amd64; do
    [ -x "$j/bin/jlink" ] && JAVA_HOME=$j && break
  done
fi
[ -x "${JAVA_HOME:-}/bin/jlink" ] || { echo "device-pack: no jlink: set JAVA_HOME to a JDK" >&2; exit 1; }
H2_JAR="${H2_JAR:-/usr/share/java/h2.jar}"
[ -f "$H2_JAR" ] || { echo "device-pack: $H2_JAR missing: apt-get install libh2-java, or set H2_JAR" >&2; exit 1; }
command -v strip >/dev/null || { echo "device-pack: no strip: apt-get install binutils" >&2; exit 1; }

(cd "$ROOT" && cargo build --release -p hpmagent -q)
rm -rf "$DIR"
mkdir -p "$DIR"
# The modules the agent's probe runtime and H2 use; without debug data, headers or man pages.
"$JAVA_HOME/bin/jlink" --add-modules java.base,java.sql,java.logging,java.naming,java.management,jdk.unsupported \
  --strip-debug --no-header-files --no-man-pages --compress=zip-9 --output "$DIR/runtime"
strip -o "$DIR/libhpmagent.so" "${CARGO_TARGET_DIR:-$ROOT/target}/release/libhpmagent.so"
"$JAVA_HOME/bin/javac" -d "$DIR/classes" "$ROOT/java-tests/calls/calls/Scaling.java"
"$JAVA_HOME/bin/javac" -cp "$H2_JAR" -d "$DIR/classes" "$ROOT/java-tests/thirdparty/bench/H2Scaling.java"
cp "$H2_JAR" "$DIR/h2.jar"

size=$(du -sm "$DIR" | cut -f1)
[ "$size" -le 64 ] || { echo "device-pack: $DIR is $size MiB, over 64" >&2; exit 1; }
rel="${DIR#"$ROOT"/}"
echo "device-pack: $rel, $size MiB ($("$DIR/runtime/bin/java" -version 2>&1 | head -1))"
echo "run from the repository root there (with $rel carried):"
echo "  JAVA_HOME=$rel/runtime LIB=$rel/libhpmagent.so CLASSES=$rel/classes H2_JAR=$rel/h2.jar bench/scaling.sh 3"
echo "and H2 in steady state (the last of 4 rounds):"
echo "  JAVA_HOME=$rel/runtime LIB=$rel/libhpmagent.so CLASSES=$rel/classes H2_JAR=$rel/h2.jar PROGRAMS=h2 H2_ROUNDS=4 H2_TRANSACTIONS=1000 bench/scaling.sh 3"
echo "and the same with trivial methods left without probes:"
echo "  JAVA_HOME=$rel/runtime LIB=$rel/libhpmagent.so CLASSES=$rel/classes H2_JAR=$rel/h2.jar PROGRAMS=h2 H2_ROUNDS=4 H2_TRANSACTIONS=1000 AGENT_OPTS=trivial=skip bench/scaling.sh 3"
