#!/usr/bin/env bash
# A cron-safe nightly run of one parameter file against its own history:
#   scripts/nightly.sh FILE [--keep DAYS] [-- lockstep run options...]
# Runs `lockstep run FILE` into $LOCKSTEP_OUTPUT/<date>-nightly (default
# lockstep-output), compares it with the median of the last 7 completed
# runs of the same file (fewer while the history is young; none on the
# first night), prints one line (and sends it to syslog with logger), and
# exits with lockstep's exit code: 0 fine, 3 regression, 2 aborted,
# 4 degraded, 5 incomplete results, 1 bad input or another night still
# running (flock). The run's console goes to console.log in its folder.
# --keep DAYS removes lockstep results folders (those with a summary.json)
# older than DAYS from the output folder; the history keeps their numbers.
# Environment: LOCKSTEP (the binary, default lockstep from PATH),
# LOCKSTEP_OUTPUT, LOCKSTEP_HISTORY (default $LOCKSTEP_OUTPUT/history.db),
# LOCKSTEP_NIGHTLY_MEDIAN (7), LOCKSTEP_THRESHOLD (lockstep's default).
set -uo pipefail

usage() {
	echo "usage: $0 FILE [--keep DAYS] [-- lockstep run options...]" >&2
	exit 1
}
[ $# -ge 1 ] || usage
file=$1
shift
keep=""
while [ $# -gt 0 ]; do
	case $1 in
	--keep)
		[ $# -ge 2 ] && [[ $2 =~ ^[0-9]+$ ]] || usage
		keep=$2
		shift 2
		;;
	--)
		shift
		break
		;;
	*) usage ;;
	esac
done
[ -r "$file" ] || { echo "nightly: cannot read $file" >&2; exit 1; }

lockstep=${LOCKSTEP:-lockstep}
out=${LOCKSTEP_OUTPUT:-lockstep-output}
export LOCKSTEP_HISTORY=${LOCKSTEP_HISTORY:-$out/history.db}
median=${LOCKSTEP_NIGHTLY_MEDIAN:-7}
name=$(basename "$file")
mkdir -p "$out" || exit 1

say() { # the one line: stdout, and syslog when there is one
	echo "$*"
	command -v logger >/dev/null && logger -t lockstep-nightly -- "$*" 2>/dev/null
	return 0
}

# One night at a time: a run that overran its slot is not doubled.
exec 9>>"$out/.nightly.lock" || exit 1
if ! flock -n 9; then
	say "lockstep nightly $name: another nightly run holds $out/.nightly.lock; not started"
	exit 1
fi

if [ -n "$keep" ]; then
	find "$out" -mindepth 1 -maxdepth 1 -type d -mtime +"$keep" -print0 |
		while IFS= read -r -d '' d; do
			# Only what lockstep wrote: a folder with its summary.
			[ -f "$d/summary.json" ] && rm -rf -- "$d"
		done
fi

# The baseline: the median of the last N completed runs of this file, as
# many as the history has (none yet: the first night only records).
have=$("$lockstep" history --file "$name" --last "$median" 2>/dev/null |
	grep -c ' completed ' || true)
base=()
[ "${have:-0}" -gt 0 ] && base=(--baseline "median:$have")
[ ${#base[@]} -gt 0 ] && [ -n "${LOCKSTEP_THRESHOLD:-}" ] &&
	base+=(--threshold "$LOCKSTEP_THRESHOLD")

dir="$out/$(date +%Y%m%d-%H%M%S)-nightly"
log="$out/.nightly-console.$$"
"$lockstep" run "$file" -o "$dir" "${base[@]}" "$@" > "$log" 2>&1
rc=$?
[ -d "$dir" ] && mv -f "$log" "$dir/console.log" || rm -f "$log"

verdict="no baseline yet"
[ ${#base[@]} -gt 0 ] && verdict="no comparison (see console.log)"
if [ -f "$dir/compare.json" ]; then
	verdict=$(grep -m1 -o '"verdict": "[^"]*"' "$dir/compare.json" |
		sed 's/.*: "\(.*\)"/\1/')
	verdict="$verdict vs median of $have"
	what=$(grep -m1 '^Run .*: regression' "$dir/compare.txt" 2>/dev/null)
	[ -n "$what" ] && verdict="$verdict ($what)"
fi
case $rc in
0) status=ok ;;
3) status=REGRESSION ;;
2) status=aborted ;;
4) status=degraded ;;
5) status="incomplete results" ;;
*) status=failed ;;
esac
say "lockstep nightly $name: $status (exit $rc), $verdict, results in $dir"
exit "$rc"
