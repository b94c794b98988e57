#!/usr/bin/env bash
# Install what lockstep needs to build and test on Debian 12 (bookworm).
# Idempotent and quiet when everything is already there.
set -euo pipefail

pkgs=(build-essential cmake pkg-config libzmq3-dev libmsgpack-dev
	liburing-dev uuid-dev libcmocka-dev libblkid-dev libsqlite3-dev)
# Optional extras for the test suite and benchmarks.
[ "${LOCKSTEP_DEPS_MINIMAL:-}" = 1 ] ||
	pkgs+=(python3 iproute2 fio clang libclang-rt-14-dev clang-format zlib1g-dev
		openssh-client openssh-server
		procps psmisc
		fdisk e2fsprogs util-linux
		chromium python3-pil    # report_html: headless page, screenshot
		poppler-utils           # report_html: the PDF's pages rendered (pdftoppm)
		ruby)   # consumers_console, vdbench_cli: HCIBench's parser rules
# Real receivers for the live export tests (tests/integration/export_*.sh).
[ "${LOCKSTEP_DEPS_MINIMAL:-}" = 1 ] ||
	pkgs+=(graphite-carbon python3-whisper influxdb prometheus
		prometheus-node-exporter curl)
# Packaging and its test (dpkg-shlibdeps, the manual pages' checks with
# groff and man -l, the revision in `lockstep version`).
[ "${LOCKSTEP_DEPS_MINIMAL:-}" = 1 ] || pkgs+=(dpkg-dev groff-base man-db git binutils)

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep "ok installed" > /dev/null ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >/dev/null
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
