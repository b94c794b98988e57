# The manual pages: `lockstep help --man --list` names every page, the
# build wrote each of them (man/PAGE beside the binary) as `lockstep help
# --man PAGE` prints it, and each renders with groff -ww and man -l
# without a warning. Each command's page has every option its --help
# prints, in the same order and with the same synopsis (one source: the
# command's option table); lockstep(1) lists every command of `lockstep
# help`; lockstep-params(5) has every keyword of the parser's tables in
# master/params/keywords.c (read from the source here, not from the
# binary), each in its kind's subsection or, for the ones lockstep skips
# or refuses, in the list of those with its kind.
source "$(dirname "$0")/lib.sh"

for tool in groff man; do
	command -v $tool > /dev/null ||
		{ echo "SKIP: no $tool (scripts/install-deps.sh installs groff-base and man-db)"; exit 77; }
done
BUILD=$(cd "$(dirname "$LOCKSTEP")" && pwd)
SRC=$HERE/../..

"$LOCKSTEP" help --man --list > "$TMP/list" || fail "help --man --list exited $?"
[ "$(head -1 "$TMP/list")" = lockstep.1 ] || fail "lockstep.1 is not the first page"
grep -qx lockstep-params.5 "$TMP/list" || fail "no lockstep-params.5"
grep -qx lockstep-nightly.1 "$TMP/list" || fail "no lockstep-nightly.1"
"$LOCKSTEP" help --man > "$TMP/default" || fail "help --man exited $?"
cmp -s "$TMP/default" <("$LOCKSTEP" help --man lockstep) || fail "help --man is not lockstep(1)"
"$LOCKSTEP" help --man no-such-page > /dev/null 2> "$TMP/err" && fail "an unknown page was printed"
grep -q "no manual page 'no-such-page'" "$TMP/err" || fail "unknown page: $(cat "$TMP/err")"
mkdir "$TMP/pages"
while read -r page; do
	"$LOCKSTEP" help --man "$page" > "$TMP/pages/$page" || fail "help --man $page exited $?"
	[ -f "$BUILD/man/$page" ] || fail "the build did not write man/$page (LS_MAN_PAGES in CMakeLists.txt)"
	cmp -s "$BUILD/man/$page" "$TMP/pages/$page" || fail "man/$page is not what help --man $page prints"
	# The short name and the file name are the same page.
	short=${page#lockstep-}
	short=${short%.[15]}
	cmp -s "$TMP/pages/$page" <("$LOCKSTEP" help --man "$short") || fail "help --man $short is not $page"
	if LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$TMP/pages/$page" 2>&1 | grep .; then
		fail "groff warns about $page"
	fi
	LC_ALL=C.UTF-8 MANWIDTH=80 man -l "$TMP/pages/$page" > "$TMP/$page.txt" 2> "$TMP/$page.err" ||
		fail "man -l $page exited $?"
	[ ! -s "$TMP/$page.err" ] || fail "man -l $page: $(cat "$TMP/$page.err")"
	grep -q '^NAME' "$TMP/$page.txt" || fail "$page renders without a NAME section"
done < "$TMP/list"
# Every page the build folder holds is one the binary lists.
for f in "$BUILD"/man/*; do
	grep -qx "$(basename "$f")" "$TMP/list" || fail "man/$(basename "$f") is not listed by help --man --list"
done

python3 - "$LOCKSTEP" "$TMP/pages" "$SRC/master/params/keywords.c" <<'PY' || fail "the manual pages and their sources disagree"
import re, subprocess, sys
exe, pages, kwsrc = sys.argv[1:]
def page(name):
    return open(f"{pages}/{name}").read()
def plain(roff):
    return roff.replace("\\-", "-").replace("\\e", "\\").replace("\\:", "").replace("\\&", "")

# lockstep(1) lists every command of `lockstep help`.
cmds = [l.split()[0] for l in subprocess.run([exe, "help"], capture_output=True,
        text=True, check=True).stdout.splitlines()[1:] if l.startswith("  ")]
assert {"run", "slave", "check", "keygen", "version", "help"} <= set(cmds), cmds
main = plain(page("lockstep.1"))
listed = set(open(f"{pages}/../list").read().split())
n = 0
for c in cmds:
    assert f"\\fBlockstep {c}" in main, f"lockstep(1) does not list {c}"
    h = subprocess.run([exe, c, "--help"], capture_output=True, text=True)
    if h.returncode != 0 or not h.stdout.startswith("usage:"):
        continue  # no options table (version, help)
    name = f"lockstep-{c}.1"
    assert name in listed, f"{c} has options but no page {name}"
    man = plain(page(name))
    want = [l.strip().split("  ")[0] for l in h.stdout.splitlines()[1:]
            if l.startswith("  -")]
    got = re.findall(r'^\.TP\n\.B "(.*)"$', man, re.M)
    assert want, f"{c} --help lists no option"
    assert want == got, f"{c}: --help {want}, the page {got}"
    syn = h.stdout.splitlines()[0][len("usage: "):]
    assert f'.SH SYNOPSIS\n.B "{syn}"' in man, f"{c}: synopsis {syn}"
    assert f".SH NAME\nlockstep-{c} - " in man, f"{c}: NAME"
    n += len(want)
assert n > 50, n

# lockstep-params(5): every keyword of keywords.c's tables.
src = open(kwsrc).read()
params = plain(page("lockstep-params.5"))
subsec = {}
for part in params.split("\n.SS ")[1:]:
    title, _, body = part.partition("\n")
    subsec[title.split("=")[0] if "=" in title else title] = body
kinds = {"general_kws": "General parameters", "hd_kws": "hd", "sd_kws": "sd",
         "wd_kws": "wd", "rd_kws": "rd", "ev_kws": "ev"}
total = 0
for table, kind in kinds.items():
    m = re.search(r"static const struct kw " + table + r"\[\] = \{(.*?)\n\};", src, re.S)
    assert m, f"no table {table} in keywords.c"
    rows = re.findall(r'(?:^\t(KW|KWF|KWS|LOOP|IGNORED|UNSUPPORTED|UNSUPPORTED_BUT)\(|^\t\{ \.name = )"(\w+)"',
                      m.group(1), re.M)
    assert rows, table
    for macro, name in rows:
        tag = f"\n.TP\n\\fB{name}=\\fR\n"
        if macro in ("IGNORED", "UNSUPPORTED", "UNSUPPORTED_BUT"):
            suffix = "" if kind.startswith("General") else "="
            k = "general" if kind.startswith("General") else kind
            want = f"\n.TP\n\\fB{name}=\\fR ({k}{suffix})\n"
            assert want in subsec["Skipped and refused Vdbench keywords"], \
                f"{kind} keyword {name}= is not among the skipped and refused"
        else:
            assert tag in subsec[kind], f"{kind} keyword {name}= is not in its subsection"
        total += 1
assert "include=FILE" in params
assert total > 100, total
print(f"{len(listed)} pages, {n} options, {total} keywords")
PY
echo "PASS"
