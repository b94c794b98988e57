# Shared by the report tests (report_html.sh, report_fs.sh), sourced
# after lib.sh with $CHROMIUM set.

# chrome NAME HEIGHT ARGS...: one bounded headless Chromium on a private
# profile, its log in $TMP/NAME.log; fails on any console message.
chrome() {
	echo "${0##*/}: chromium $1 at ${SECONDS}s" >&2
	local name=$1 height=$2
	shift 2
	# A browser that hangs past the bound (exit 124: seen twice in CI
	# under a loaded ASan stage, the same page drawn in 2 s when run
	# again) gets one more try in a fresh profile; a page that fails
	# any check below still fails, and one that hangs twice fails.
	for try in 1 2; do
		run_bounded 90 "$CHROMIUM" --headless=new --no-sandbox --disable-gpu \
			--hide-scrollbars --no-first-run --force-device-scale-factor=1 \
			--user-data-dir="$TMP/chr-$name-$try" --enable-logging=stderr --v=0 \
			--virtual-time-budget=3000 --window-size="1280,$height" "$@" \
			2> "$TMP/$name.log"
		# Chromium's helpers go with it; any left on our profile are killed.
		for p in $(pgrep -f -- "--user-data-dir=$TMP/chr-$name-$try" || true); do
			kill -9 "$p" 2>/dev/null || true
		done
		[ "$rc" -eq 124 ] && [ "$try" -eq 1 ] || break
		echo "${0##*/}: chromium ($name) hung past 90 s: once more" >&2
	done
	[ "$rc" -eq 0 ] || { tail -20 "$TMP/$name.log"; fail "chromium ($name) exited $rc"; }
	# The messages go into the failure itself: CI keeps no folder.
	local msgs
	msgs=$(grep -a ":CONSOLE" "$TMP/$name.log" | head -5 | cut -c1-2500 || true)
	[ -z "$msgs" ] ||
		fail "console messages while loading the page ($name): $msgs"
}
