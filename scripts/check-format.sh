#!/usr/bin/env bash
# Checks C code against the repository's .clang-format without changing it.
#   scripts/check-format.sh [FILE...]   whole files; with none, every tracked
#                                       *.c and *.h
#   scripts/check-format.sh --since REV only the lines of *.c/*.h changed
#                                       since REV (git clang-format), what
#                                       CI checks with REV from
#                                       .ci/format-base
# Exits 0 when all are formatted, 1 naming the files that differ (see what
# would change with: clang-format FILE | diff FILE -, or git clang-format
# --diff REV), 2 when clang-format or a file is missing. The code was not
# mass-formatted (clang-format makes the hand-aligned tables worse), so
# changes are held to the format line by line.
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

if [ "${1:-}" = --since ]; then
	rev=${2:?--since wants a revision}
	gcf=""
	for c in git-clang-format-14 git-clang-format; do
		if command -v "$c" >/dev/null; then
			gcf=$c
			break
		fi
	done
	[ -n "$gcf" ] || { echo "check-format: git-clang-format not found" >&2; exit 2; }
	if ! git cat-file -e "$rev^{commit}" 2>/dev/null; then
		echo "check-format: $rev is not in this clone (a shallow clone?): lines not checked" >&2
		exit 0
	fi
	out=$("$gcf" --binary "$(command -v "$cf")" --style file --diff \
		--extensions c,h "$rev" -- 2>&1) || true
	case $out in
	"" | *"no modified files to format"* | *"did not modify any files"*)
		echo "check-format: every C line changed since ${rev:0:12} is formatted"
		exit 0 ;;
	esac
	echo "check-format: lines changed since ${rev:0:12} are not formatted as .clang-format says:" >&2
	echo "$out" >&2
	exit 1
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
