#!/usr/bin/env bash
# Finds dependency circles between two C files of one library: file A calls
# (or reads) something file B defines and B something A defines. Read from
# the object files of a build, so what counts is what the compiler emitted,
# not what a header declares:
#   scripts/check-deps.sh [BUILD_DIR]   (default: build)
# For each library (each CMake target named ls_*), every object's global
# definitions (nm --defined-only) and undefined references (nm -u) are
# matched within the library. A circle is allowed when the comment at the
# top of each file (its first /* ... */ block) has a line
#   Circle: OTHER.c — why the two belong together
# naming the other file. Prints every circle, allowed ones marked so;
# exits 0 when every circle is allowed, 1 when one is not, 2 on a usage
# error (no build, no nm).
set -euo pipefail

top=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
build=${1:-$top/build}
build=$(cd "$build" 2>/dev/null && pwd) || {
	echo "check-deps: no build folder ${1:-build} (cmake --build it first)" >&2
	exit 2
}
command -v nm >/dev/null || {
	echo "check-deps: nm not found (binutils)" >&2
	exit 2
}

# circle_named FILE OTHER: whether FILE's top comment has a Circle: line
# naming OTHER (by its path from the top or its base name).
circle_named() {
	awk -v a="$2" -v b="${2##*/}" '
		/\*\// { if (/Circle:/ && (index($0, a) || index($0, b))) hit = 1; exit }
		/Circle:/ && (index($0, a) || index($0, b)) { hit = 1 }
		END { exit !hit }' "$top/$1"
}

bad=0
found=0
while IFS= read -r dir; do
	lib=${dir##*/}
	lib=${lib%.dir}
	# A source's path from the top: the object's path under the build
	# tree, without CMakeFiles/TARGET.dir/ and the .o.
	rel=${dir#"$build"/}
	rel=${rel%/CMakeFiles/*}
	[ "$rel" = CMakeFiles ] && rel=. || true
	defs=$(mktemp)
	uses=$(mktemp)
	while IFS= read -r obj; do
		src=${obj#"$dir"/}
		src=${src%.o}
		[ "$rel" = . ] || src=$rel/$src
		nm --defined-only -g "$obj" | awk -v s="$src" 'NF == 3 { print $3, s }' >> "$defs"
		nm -u "$obj" | awk -v s="$src" '{ print $NF, s }' >> "$uses"
	done < <(find "$dir" -name '*.o' | sort)
	# Edges "user definer symbol", then the pairs that go both ways.
	while read -r a b syms_ab syms_ba; do
		found=1
		if circle_named "$a" "$b" && circle_named "$b" "$a"; then
			note="allowed"
		else
			note="not allowed"
			bad=1
		fi
		echo "$lib: $a <-> $b ($note)"
		echo "  $a uses ${syms_ab//,/, }"
		echo "  $b uses ${syms_ba//,/, }"
	done < <(awk '
		NR == FNR { def[$1] = $2; next }
		($1 in def) && def[$1] != $2 {
			k = $2 SUBSEP def[$1]
			if (k in e)
				e[k] = e[k] "," $1
			else
				e[k] = $1
		}
		END {
			for (k in e) {
				split(k, p, SUBSEP)
				r = p[2] SUBSEP p[1]
				if ((r in e) && p[1] < p[2])
					print p[1], p[2], e[k], e[r]
			}
		}' "$defs" "$uses" | sort)
	rm -f "$defs" "$uses"
done < <(find "$build" -type d -path '*/CMakeFiles/ls_*.dir' | sort)

if [ "$found" = 0 ]; then
	echo "check-deps: no circles"
fi
exit "$bad"
