# Sourced by the other scripts: finds (or, as root with apt, installs) what the build and tests need,
# and exports JAVA_HOME. Every failure names the missing piece and what to do.

hpm_die() { echo "hpm: error: $*" >&2; exit 1; }

command -v cargo >/dev/null 2>&1 || hpm_die "cargo not found: install Rust with rustup (https://rustup.rs) and retry"

hpm_find_jdk() {
    local c
    for c in "${HPM_JAVA_HOME:-}" "${JAVA_HOME:-}" /usr/lib/jvm/java-17-openjdk-amd64 /usr/lib/jvm/*; do
        if [ -n "$c" ] && [ -x "$c/bin/javac" ] && [ -x "$c/bin/java" ]; then
            echo "$c"
            return 0
        fi
    done
    return 1
}

if ! JAVA_HOME=$(hpm_find_jdk); then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "hpm: no JDK found; installing openjdk-17-jdk-headless with apt-get" >&2
        (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openjdk-17-jdk-headless) >&2 \
            || hpm_die "could not install openjdk-17-jdk-headless; install a JDK 17+ and set JAVA_HOME"
        JAVA_HOME=$(hpm_find_jdk) || hpm_die "no JDK with bin/javac found after installing; set JAVA_HOME"
    else
        hpm_die "no JDK found (need bin/java and bin/javac): install openjdk-17-jdk-headless or set JAVA_HOME"
    fi
fi
export JAVA_HOME

# Linux perf, for the tests: one counters test compares the agent's task-clock with `perf stat` for
# the whole process.
hpm_need_perf() {
    command -v perf >/dev/null 2>&1 && return 0
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "hpm: perf not found; installing linux-perf with apt-get" >&2
        (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq linux-perf) >&2 \
            || hpm_die "could not install linux-perf; install it (it provides perf) and retry"
    else
        hpm_die "perf not found: install linux-perf (Debian) or your distribution's perf package"
    fi
}

# Debian's H2, Lucene and Sunflow jars, for the instrumentation corpus test (instrument/tests/corpus.rs),
# and commons-lang3 and Guava, for the research VM's class library test (rvm-backend/tests/library.rs).
hpm_need_corpus() {
    local missing=""
    [ -f /usr/share/java/h2.jar ] || missing="$missing libh2-java"
    [ -f /usr/share/java/commons-lang3.jar ] || missing="$missing libcommons-lang3-java"
    [ -f /usr/share/java/guava.jar ] || missing="$missing libguava-java"
    ls /usr/share/java/lucene-core-*.jar >/dev/null 2>&1 || missing="$missing liblucene8-java"
    { [ -f /usr/share/java/sunflow.jar ] && [ -f /usr/share/java/sunflowGUI.jar ]; } || missing="$missing sunflow"
    [ -z "$missing" ] && return 0
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "hpm: corpus jars missing; installing$missing with apt-get" >&2
        # shellcheck disable=SC2086 # one word per package
        (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing) >&2 \
            || hpm_die "could not install$missing; install them (Debian packages) and retry"
    else
        hpm_die "corpus jars missing: install the Debian packages$missing (jars under /usr/share/java)"
    fi
}

# Headless Chromium and npm's playwright-core, for the explorer's end-to-end tests
# (hpm/tests/explore.rs drives hpm/tests/explorer/*.mjs): Debian's chromium, and
# playwright-core as pinned by hpm/tests/explorer/package-lock.json (npm ci; no browser download).
hpm_need_chromium() {
    local explorer=hpm/tests/explorer
    if [ ! -x /usr/bin/chromium ]; then
        if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
            echo "hpm: /usr/bin/chromium not found; installing chromium with apt-get" >&2
            (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) >&2 \
                || hpm_die "could not install chromium; install Debian's chromium package and retry"
        else
            hpm_die "/usr/bin/chromium not found: install Debian's chromium package (the explorer tests run it headless)"
        fi
    fi
    command -v npm >/dev/null 2>&1 || hpm_die "npm not found: install Debian's npm (or Node.js 18+) for the explorer tests"
    if [ ! -f "$explorer/node_modules/playwright-core/package.json" ]; then
        echo "hpm: installing playwright-core into $explorer/node_modules (npm ci)" >&2
        (cd "$explorer" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error) >&2 \
            || hpm_die "npm ci in $explorer failed; check npm's access to the registry and retry"
    fi
}

# Go's pprof (`go tool pprof`), for the test that reads `hpm export pprof` files back (agent/tests/exports.rs).
hpm_need_go() {
    command -v go >/dev/null 2>&1 && return 0
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "hpm: go not found; installing golang-go with apt-get (for go tool pprof)" >&2
        (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq golang-go) >&2 \
            || hpm_die "could not install golang-go; install Go (it provides go tool pprof) and retry"
    else
        hpm_die "go not found: install golang-go (Debian) or Go, for go tool pprof"
    fi
}

# The export tests' browser consumers (agent/tests/exports.rs): Debian's chromium, node and npm, and
# speedscope's built web app, playwright-core and ajv from npm (reports/tests/exports/package-lock.json).
hpm_need_export_viewers() {
    local missing=""
    command -v chromium >/dev/null 2>&1 || missing="$missing chromium"
    command -v node >/dev/null 2>&1 || missing="$missing nodejs"
    command -v npm >/dev/null 2>&1 || missing="$missing npm"
    if [ -n "$missing" ]; then
        if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
            echo "hpm: installing$missing with apt-get (for the export tests)" >&2
            # shellcheck disable=SC2086 # one word per package
            (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing) >&2 \
                || hpm_die "could not install$missing; install them (Debian packages) and retry"
        else
            hpm_die "missing for the export tests:$missing (Debian packages)"
        fi
    fi
    local dir
    dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/reports/tests/exports"
    if [ ! -d "$dir/node_modules/speedscope" ] || [ ! -d "$dir/node_modules/playwright-core" ] || [ ! -d "$dir/node_modules/ajv" ]; then
        echo "hpm: installing the export tests' npm packages in $dir" >&2
        (cd "$dir" && npm ci --no-audit --no-fund) >&2 || hpm_die "npm ci failed in $dir; check that the npm registry is reachable"
    fi
}
