#!/usr/bin/env bash
# A cron-safe nightly run of one parameter file against its own history:
#   nightly.sh FILE [--keep DAYS] [-- lockstep run options...]
# (installed as lockstep-nightly). Runs `lockstep run FILE` into
# $LOCKSTEP_OUTPUT/<date>-nightly (default lockstep-output), compares it
# with the median of the last 7 usable runs of the same file (clean, or
# accepted with `lockstep history accept`; fewer while the history is
# young; none on the first night), prints one line (and sends it to syslog
# with logger), and exits with lockstep's exit code: 0 fine, 3 regression,
# 6 not compared (a baseline was due but none could be used), 2 aborted,
# 4 degraded, 5 incomplete results, 1 bad input or another night still
# running (flock), 127 lockstep not found.
# The run's console goes to console.log in its folder, or, when no folder
# was made, to <date>-nightly.console.log in the output folder: the line
# names whichever exists.
# --keep DAYS removes lockstep results folders (those with a summary.json)
# older than DAYS from the output folder; the history keeps their numbers.
# lockstep is found without PATH: $LOCKSTEP, else next to this script
# (installed: /usr/bin/lockstep-nightly beside /usr/bin/lockstep; a source
# tree: ../build/lockstep), else /usr/bin, /usr/local/bin, else PATH.
# Environment: LOCKSTEP, LOCKSTEP_OUTPUT, LOCKSTEP_HISTORY (default:
# lockstep's own, /var/lib/lockstep/history.db for root),
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

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" 2>/dev/null && pwd)
out=${LOCKSTEP_OUTPUT:-lockstep-output}
median=${LOCKSTEP_NIGHTLY_MEDIAN:-7}
name=$(basename "$file")
mkdir -p "$out" || exit 1
stamp=$(date +%Y%m%d-%H%M%S)
dir="$out/$stamp-nightly"
keptlog="$out/$stamp-nightly.console.log"
[ -e "$keptlog" ] && keptlog="$out/$stamp-nightly.$$.console.log"

say() { # the one line: stdout, and syslog when there is one
	echo "$*"
	command -v logger >/dev/null && logger -t lockstep-nightly -- "$*" 2>/dev/null
	return 0
}

# lockstep itself, without relying on cron's PATH.
lockstep=${LOCKSTEP:-}
tried=""
if [ -z "$lockstep" ]; then
	for c in "$here/lockstep" "$here/../build/lockstep" /usr/bin/lockstep \
		/usr/local/bin/lockstep "$(command -v lockstep 2>/dev/null)"; do
		[ -n "$c" ] || continue
		tried="$tried $c"
		if [ -f "$c" ] && [ -x "$c" ]; then
			lockstep=$c
			break
		fi
	done
fi
if [ -z "$lockstep" ] || ! [ -x "$lockstep" ]; then
	log=$keptlog
	if [ -n "${LOCKSTEP:-}" ]; then
		why="LOCKSTEP=$LOCKSTEP is not executable"
	else
		why="tried$tried"
	fi
	{
		echo "nightly: lockstep not found: $why"
		echo "nightly: PATH=$PATH; set LOCKSTEP=/path/to/lockstep in the crontab line"
	} > "$log"
	say "lockstep nightly $name: failed (exit 127), lockstep not found (set LOCKSTEP=), log in $log"
	exit 127
fi

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

# The baseline: the median of the last N usable runs of this file (never a
# regression, unless accepted), as many as the history has (none yet: the
# first night only records).
have=$("$lockstep" history --baseline --file "$name" --last "$median" 2>/dev/null |
	grep -c '^[0-9]' || true)
base=()
[ "${have:-0}" -gt 0 ] && base=(--baseline "median:$have")
[ ${#base[@]} -gt 0 ] && [ -n "${LOCKSTEP_THRESHOLD:-}" ] &&
	base+=(--threshold "$LOCKSTEP_THRESHOLD")

log="$out/.nightly-console.$$"
"$lockstep" run "$file" -o "$dir" "${base[@]}" "$@" > "$log" 2>&1
rc=$?
# The console is kept whatever happened: in the folder, or beside it.
if [ -d "$dir" ] && mv -f "$log" "$dir/console.log"; then
	where="results in $dir"
else
	mv -f "$log" "$keptlog"
	where="no results folder, log in $keptlog"
	log=$keptlog
fi
[ -d "$dir" ] && log="$dir/console.log"

verdict="no baseline yet"
[ ${#base[@]} -gt 0 ] && verdict="no comparison (see console.log)"
# The verdict lockstep sealed into summary.json, as it printed it.
v=$(grep -m1 -o '"verdict": "[^"]*"' "$dir/summary.json" 2>/dev/null |
	sed 's/.*: "\(.*\)"/\1/')
[ -n "$v" ] && verdict=$v
case $rc in
0) status=ok ;;
3) status=REGRESSION ;;
6) status="NOT COMPARED" ;;
2) status=aborted ;;
4) status=degraded ;;
5) status="incomplete results" ;;
*) status=failed ;;
esac
if [ "$rc" -ne 0 ] && [ "$rc" -ne 3 ] && [ "$rc" -ne 6 ]; then
	# Why, in the line itself: the console's last error.
	why=$(grep -m1 -E '(error|refused|cannot|:[0-9]+:[0-9]+: )' "$log" 2>/dev/null |
		cut -c1-200)
	[ -n "$why" ] || why=$(grep -v '^[[:space:]]*$' "$log" 2>/dev/null | tail -1 | cut -c1-200)
	[ -n "$why" ] && verdict="$verdict; $why"
fi
say "lockstep nightly $name: $status (exit $rc), $verdict, $where"
exit "$rc"
