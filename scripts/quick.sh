#!/usr/bin/env bash
# Set up, build and run the example (examples/quick.vdb) on this machine.
set -euo pipefail
cd "$(dirname "$0")/.."
LOCKSTEP_DEPS_MINIMAL=1 ./scripts/install-deps.sh
cmake -S . -B build >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
exec ./build/lockstep run examples/quick.vdb "$@"
