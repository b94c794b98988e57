#!/usr/bin/env bash
# Build the Debian package: a release build with prefix /usr in
# build-deb/ (or $BUILD_DIR), then cpack -G DEB. Prints the .deb's path;
# install it with `apt install ./lockstep_*.deb`.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${BUILD_DIR:-build-deb}
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr >/dev/null
cmake --build "$dir" -j"$(nproc)" --target lockstep ls_man >/dev/null
(cd "$dir" && cpack -G DEB >/dev/null)
ls "$dir"/lockstep_*.deb
