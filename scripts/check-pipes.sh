#!/usr/bin/env bash
# The pipe rule of docs/CONTRIBUTING.md: under `set -o pipefail` (every
# test and script here), `PRODUCER | grep -q PATTERN` fails when grep
# finds its match and exits before the producer has written everything:
# the producer dies of SIGPIPE (141) and the pipeline's status is that
# failure, though the line was there. Measured: `cat console err | grep
# -qE LINE` failed 3 times in 2,000 on an idle 2-core machine, with the
# line in the first file; it failed rejoin_netns in CI twice. A pipe into
# grep writes `grep PATTERN > /dev/null` (grep reads to the end), and a
# grep of files names the files. Prints every offending line; exits 1 when
# there is one.
set -euo pipefail
cd "$(git -C "$(dirname "$0")" rev-parse --show-toplevel)"
bad=0
while IFS= read -r hit; do
	# A comment may show the pattern it warns of.
	[[ "${hit#*:*:}" =~ ^[[:space:]]*# ]] && continue
	echo "check-pipes: $hit: a pipe into grep -q (SIGPIPE under pipefail); write grep PATTERN > /dev/null" >&2
	bad=1
done < <(git ls-files --cached --others --exclude-standard -- \
	'*.sh' '.ci/*' | xargs -r grep -nHE \
	'(^|[^|])\|[[:space:]]*grep[[:space:]]+(-[a-zA-Z]*q|--quiet|--silent)' || true)
[ "$bad" -eq 0 ] && echo "check-pipes: no pipe into grep -q"
exit "$bad"
