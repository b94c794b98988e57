#!/usr/bin/env bash
# Checks C files against the repository's .clang-format without changing
# them: scripts/check-format.sh [FILE...]; with no files, every tracked
# *.c and *.h. Exits 0 when all are formatted, 1 naming the files that
# differ (see what would change with: clang-format FILE | diff FILE -),
# 2 when clang-format or a file is missing. The code was not mass-formatted, so
# check the files a change touches rather than the whole tree.
set -euo pipefail

cd "$(git -C "$(dirname "$0")" rev-parse --show-toplevel)"
cf=""
for c in clang-format-14 clang-format; do
	if command -v "$c" >/dev/null; then
		cf=$c
		break
	fi
done
if [ -z "$cf" ]; then
	echo "check-format: clang-format not found (apt-get install clang-format)" >&2
	exit 2
fi

if [ $# -eq 0 ]; then
	mapfile -t files < <(git ls-files '*.c' '*.h')
else
	files=("$@")
fi

bad=()
for f in "${files[@]}"; do
	if [ ! -f "$f" ]; then
		echo "check-format: $f: no such file" >&2
		exit 2
	fi
	if ! "$cf" --dry-run -Werror --style=file "$f" >/dev/null 2>&1; then
		bad+=("$f")
	fi
done
if [ ${#bad[@]} -gt 0 ]; then
	echo "check-format: not formatted as .clang-format says:" >&2
	printf '  %s\n' "${bad[@]}" >&2
	exit 1
fi
