#!/usr/bin/env bash
# The 800-line rule of docs/CONTRIBUTING.md: no C file of the program
# (common/, proto/, master/, slave/, src/, tests/tools/) over 800 lines
# unless its top comment says "Over 800 lines on purpose: ..." in its
# first 30 lines. Prints each file over the limit; exits 1 when one has no
# reason, 0 otherwise.
set -euo pipefail
cd "$(git -C "$(dirname "$0")" rev-parse --show-toplevel)"
bad=0
while IFS= read -r f; do
	n=$(wc -l < "$f")
	[ "$n" -gt 800 ] || continue
	if head -n 30 "$f" | grep "Over 800 lines on purpose" > /dev/null; then
		echo "check-sizes: $f: $n lines, with its reason"
	else
		echo "check-sizes: $f: $n lines and no \"Over 800 lines on purpose\" at its top" >&2
		bad=1
	fi
done < <(git ls-files --cached --others --exclude-standard -- \
	'common/*.c' 'proto/*.c' 'master/*.c' 'slave/*.c' 'src/*.c' 'tests/tools/*.c')
exit "$bad"
