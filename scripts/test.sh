#!/usr/bin/env bash
# Set up, build (warnings are errors) and run the whole test suite.
# SANITIZE=address,undefined builds with sanitizers; BUILD_DIR picks the
# build folder (default build). Ends with the count of skipped tests,
# which and why (scripts/ctest-skips.py).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
dir=${BUILD_DIR:-build}
cmake -S . -B "$dir" -DWERROR=ON -DSANITIZE="${SANITIZE:-}" >/dev/null
cmake --build "$dir" -j"$(nproc)"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# ctest's junit file says which tests were skipped and why: printed after
# the run (a skip is not a failure, but it is counted where CI shows it).
root=$PWD
cd "$dir"
rc=0
ctest --output-on-failure -j2 --output-junit ctest-junit.xml "$@" || rc=$?
[ ! -f ctest-junit.xml ] || python3 "$root/scripts/ctest-skips.py" ctest-junit.xml
exit "$rc"
