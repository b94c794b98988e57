# Installing: `cmake --install` of the build that made $LOCKSTEP into a
# DESTDIR with a prefix puts the binary, the manual page, the docs and
# examples, the slave's unit (naming the installed binary and options
# file, not enabled) and its commented options file in place, and the
# installed binary runs and says its version. Every manual page `lockstep
# help --man --list` names is installed, in man1 or man5, as the binary
# prints it (what the pages hold is the manpages test's). `cpack -G DEB` makes a package whose Depends
# name the libraries the binary links, with no maintainer scripts (nothing
# enabled at install); its binary, unpacked, runs.
source "$(dirname "$0")/lib.sh"

BUILD=$(cd "$(dirname "$LOCKSTEP")" && pwd)
[ -f "$BUILD/CMakeCache.txt" ] || fail "$LOCKSTEP is not in a cmake build folder"
VERSION=$("$LOCKSTEP" version)
[[ "$VERSION" =~ ^lockstep\ [0-9]+\.[0-9]+\.[0-9]+(-g[0-9a-f]+(-dirty)?)?$ ]] ||
	fail "lockstep version printed '$VERSION'"
# A build from a git checkout carries its revision: a commit of this
# repository (the one built, which may be older than HEAD by now).
if git -C "$HERE" rev-parse HEAD > /dev/null 2>&1; then
	rev=$(sed -n 's/.*-g\([0-9a-f]\{7,\}\).*/\1/p' <<< "$VERSION")
	[ -n "$rev" ] || fail "lockstep version '$VERSION' names no git revision"
	git -C "$HERE" cat-file -e "$rev^{commit}" ||
		fail "lockstep version '$VERSION': $rev is not a commit here"
fi

# ---- cmake --install into a DESTDIR ------------------------------------
D=$TMP/root
run_bounded 120 env DESTDIR="$D" cmake --install "$BUILD" --prefix /opt/ls > "$TMP/install.log" 2>&1
[ "$rc" -eq 0 ] || { fail_show "$TMP/install.log" "cmake --install exited $rc"; }
for f in opt/ls/bin/lockstep opt/ls/bin/lockstep-nightly opt/ls/share/man/man1/lockstep.1 \
	opt/ls/share/man/man1/lockstep-run.1 opt/ls/share/man/man5/lockstep-params.5 \
	opt/ls/share/doc/lockstep/README.md opt/ls/share/doc/lockstep/PROTOCOL.md \
	opt/ls/share/doc/lockstep/examples/quick.vdb \
	opt/ls/lib/systemd/system/lockstep-slave.service \
	opt/ls/etc/lockstep/slave.env; do
	[ -f "$D/$f" ] || { find "$D"; fail "$f not installed"; }
done
# Nothing outside the DESTDIR.
[ ! -e /opt/ls ] || fail "installed outside DESTDIR (/opt/ls exists)"
[ -x "$D/opt/ls/bin/lockstep" ] || fail "installed lockstep is not executable"
[ "$("$D/opt/ls/bin/lockstep" version)" = "$VERSION" ] || fail "installed binary says another version"
"$D/opt/ls/bin/lockstep" check "$D/opt/ls/share/doc/lockstep/examples/quick.vdb" > /dev/null ||
	fail "the installed binary refuses the installed example"
UNIT=$D/opt/ls/lib/systemd/system/lockstep-slave.service
grep -q '^ExecStart=/opt/ls/bin/lockstep slave --daemon ' "$UNIT" || fail "the unit does not start the installed binary"
grep -q '^EnvironmentFile=-/opt/ls/etc/lockstep/slave.env$' "$UNIT" || fail "the unit does not read the installed options file"
grep -q -- '--allow ${LOCKSTEP_ALLOW}' "$UNIT" || fail "the unit does not pass --allow from the options file"
# The options file enables nothing: every line is a comment or empty.
grep -v '^#' "$D/opt/ls/etc/lockstep/slave.env" | grep . > /dev/null && fail "slave.env sets something"
# The service refuses to start with the example as installed.
ENVF=$D/opt/ls/etc/lockstep/slave.env
pre=$(sed -n "s/^ExecStartPre=\/bin\/sh -c '\(.*\)'$/\1/p" "$UNIT" | sed 's/\$\$/$/g')
[ -n "$pre" ] || fail "no ExecStartPre check"
set -a; source "$ENVF"; set +a
if LOCKSTEP_MASTER="" LOCKSTEP_ALLOW="" sh -c "$pre" 2> "$TMP/pre.err"; then
	fail "the unit's start check passes without LOCKSTEP_MASTER and LOCKSTEP_ALLOW"
fi
grep -q "set LOCKSTEP_MASTER" "$TMP/pre.err" || fail "the start check does not say what to set"

# ---- the manual pages, as the binary prints them -------------------------
npages=0
while read -r page; do
	MAN=$D/opt/ls/share/man/man${page##*.}/$page
	[ -f "$MAN" ] || fail "$page is not installed in man${page##*.}"
	cmp -s "$MAN" <("$LOCKSTEP" help --man "$page") || fail "the installed $page is not what lockstep help --man $page prints"
	npages=$((npages + 1))
done < <("$LOCKSTEP" help --man --list)
[ "$npages" -gt 10 ] || fail "only $npages manual pages"
[ "$(find "$D/opt/ls/share/man" -type f | wc -l)" -eq "$npages" ] ||
	fail "pages installed that help --man --list does not name: $(find "$D/opt/ls/share/man" -type f)"

# ---- the Debian package --------------------------------------------------
run_bounded 200 cpack -G DEB -B "$TMP/pkg" --config "$BUILD/CPackConfig.cmake" > "$TMP/cpack.log" 2>&1
[ "$rc" -eq 0 ] || { fail_show "$TMP/cpack.log" "cpack exited $rc"; }
DEB=$(ls "$TMP"/pkg/lockstep_*.deb)
[ -f "$DEB" ] || fail "no lockstep_*.deb"
dpkg-deb --field "$DEB" Depends > "$TMP/depends"
for lib in libzmq5 libmsgpackc2 liburing2 libuuid1 libblkid1; do
	grep -q "\b$lib\b" "$TMP/depends" || fail "Depends lacks $lib: $(cat "$TMP/depends")"
done
# Every library the binary links is in Depends (dpkg-shlibdeps, not a list).
ldd "$LOCKSTEP" > "$TMP/ldd"
for name in $(objdump -p "$LOCKSTEP" | awk '/NEEDED/ {print $2}'); do
	so=$(awk -v n="$name" '$1 == n && $3 ~ /^\// {print $3}' "$TMP/ldd")
	[ -n "$so" ] || fail "ldd does not resolve $name"
	pkg=$( (dpkg -S "$so" || dpkg -S "$(readlink -f "$so")") 2>/dev/null | head -1 | cut -d: -f1)
	[ -n "$pkg" ] || fail "no package owns $so"
	grep -q "\b$pkg\b" "$TMP/depends" || fail "$so ($pkg) is not in Depends: $(cat "$TMP/depends")"
done
[ "$(dpkg-deb --field "$DEB" Package)" = lockstep ] || fail "package name"
dpkg-deb --contents "$DEB" > "$TMP/contents"
for f in ./usr/bin/lockstep ./usr/bin/lockstep-nightly ./usr/share/man/man1/lockstep.1 \
	./usr/share/man/man1/lockstep-run.1 ./usr/share/man/man5/lockstep-params.5 \
	./usr/lib/systemd/system/lockstep-slave.service ./etc/lockstep/slave.env \
	./usr/share/doc/lockstep/README.md; do
	grep -q " $f\$" "$TMP/contents" || { fail_show "$TMP/contents" "$f not in the package"; }
done
# The unit is installed, never enabled: no maintainer script and no link
# under /etc/systemd; the options file is a conffile.
mkdir "$TMP/ctl"
dpkg-deb --control "$DEB" "$TMP/ctl"
for s in preinst postinst prerm postrm; do
	[ ! -e "$TMP/ctl/$s" ] || fail "the package has a $s script"
done
grep -q "etc/systemd" "$TMP/contents" && fail "the package enables something under /etc/systemd"
grep -qx /etc/lockstep/slave.env "$TMP/ctl/conffiles" || fail "slave.env is not a conffile"
dpkg-deb -x "$DEB" "$TMP/x"
[ "$("$TMP/x/usr/bin/lockstep" version)" = "$VERSION" ] || fail "the packaged binary says another version"
grep -q '^ExecStart=/usr/bin/lockstep ' "$TMP/x/usr/lib/systemd/system/lockstep-slave.service" ||
	fail "the packaged unit does not start /usr/bin/lockstep"
grep -q '^EnvironmentFile=-/etc/lockstep/slave.env$' "$TMP/x/usr/lib/systemd/system/lockstep-slave.service" ||
	fail "the packaged unit does not read /etc/lockstep/slave.env"
echo "PASS"
