#!/usr/bin/env bash
# Checks the subjects of the commits made since a base: each at most 72
# characters, so that `git log --oneline` reads as a list (the why goes in
# the body; docs/CONTRIBUTING.md, "Commits").
#   scripts/check-commits.sh [BASE]   BASE defaults to the hash in
#                                     .ci/commit-base (what CI checks)
# Exits 0 when every subject in BASE..HEAD fits, 1 listing those that do
# not. When BASE is not in this clone (a shallow clone, say) nothing can be
# checked: it says so loudly and exits 0, since the base is history's, not
# the change's, fault.
set -euo pipefail

cd "$(git -C "$(dirname "$0")" rev-parse --show-toplevel)"
max=72
base=${1:-$(cat .ci/commit-base)}
if ! git cat-file -e "$base^{commit}" 2>/dev/null; then
	echo "check-commits: SKIPPED: base $base is not in this clone" \
		"(shallow clone?); commit subjects NOT checked" >&2
	exit 0
fi
if ! git merge-base --is-ancestor "$base" HEAD; then
	echo "check-commits: note: $base is not an ancestor of HEAD;" \
		"checking the commits of HEAD that it does not have" >&2
fi

export LC_ALL=C.UTF-8
bad=0 n=0
while IFS= read -r line; do
	hash=${line%% *}
	subject=${line#* }
	n=$((n + 1))
	if [ "${#subject}" -gt "$max" ]; then
		echo "check-commits: ${hash:0:12}: subject is ${#subject}" \
			"characters (at most $max): $subject"
		bad=1
	fi
done < <(git log --format='%H %s' "$base..HEAD")
if [ "$bad" -ne 0 ]; then
	echo "check-commits: say what changed in the subject, the why in the body" \
		"(docs/CONTRIBUTING.md, Commits); fix with git rebase -i $base"
	exit 1
fi
echo "check-commits: $n commit(s) since ${base:0:12}, every subject <= $max characters"
