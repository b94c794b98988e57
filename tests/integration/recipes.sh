# The engine, output and keyword recipes of docs/CONTRIBUTING.md, done
# once: on a copy of the source tree, a throwaway engine is added exactly
# as the recipe says (a copy of slave/engine_null.c renamed, and its name
# in LS_ENGINES), a throwaway output (master/results/sink_throwaway.c and
# one X() row in sinks.c) and a throwaway sd keyword (its field and its
# row); the lockstep binary is built from the copy alone; the keyword is
# parsed, refused when bad and in lockstep-params(5), and a local run with
# --engine throwaway completes with its results naming the engine and the
# new file holding a line per interval with the ops intervals.csv has for
# it. If one of these ever takes another file, this build or run fails.
source "$(dirname "$0")/lib.sh"

SRC=$(cd "$HERE/../.." && pwd)
command -v cmake >/dev/null || fail "cmake not found"
mkdir "$TMP/src"
# The tree as it is (tracked or not), without builds or git's store.
tar -C "$SRC" --exclude=./.git --exclude='./build*' -cf - . | tar -C "$TMP/src" -xf -

# The recipe, step 1: the engine's file, engine_NAME.c defining
# engine_NAME_ops with its name.
sed -e 's/engine_null_ops/engine_throwaway_ops/' \
	-e 's/\.name = "null"/.name = "throwaway"/' \
	"$TMP/src/slave/engine_null.c" > "$TMP/src/slave/engine_throwaway.c"
grep -q 'engine_throwaway_ops = {' "$TMP/src/slave/engine_throwaway.c" || fail "the null engine's ops table was not found to rename"
grep -q '\.name = "throwaway"' "$TMP/src/slave/engine_throwaway.c" || fail "the null engine's name was not found to rename"
# Step 2: its name in the list of engines.
sed -i 's/^set(LS_ENGINES \(.*\))$/set(LS_ENGINES \1 throwaway)/' "$TMP/src/slave/CMakeLists.txt"
grep -q '^set(LS_ENGINES .* throwaway)$' "$TMP/src/slave/CMakeLists.txt" || fail "no LS_ENGINES line in slave/CMakeLists.txt to add the engine to"

# The output recipe, step 1: the sink's file (its hooks, its state, the
# checked writer only).
cat > "$TMP/src/master/results/sink_throwaway.c" <<'C'
#include "master/run/master_int.h"
#include "master/results/sink.h"

static int throwaway_open(const struct run_view *rv, void *priv)
{
	return results_file_open(rv, "throwaway.txt", priv);
}

static void throwaway_row(const struct run_view *rv, void *priv,
			  const struct sink_row *r)
{
	FILE *f = results_w(priv);

	if (f)
		fprintf(f, "%s %llu\n", r->label, (unsigned long long)r->v.ops);
	results_wrote(rv, priv);
}

static void throwaway_end(const struct run_view *rv, void *priv)
{
	results_file_close(rv, priv, 1);
}

static void throwaway_close(const struct run_view *rv, void *priv)
{
	results_file_close(rv, priv, 0);
}

const struct sink_ops sink_throwaway = {
	.name = "throwaway.txt",
	.priv_size = sizeof(struct rfile),
	.open = throwaway_open,
	.row = throwaway_row,
	.end = throwaway_end,
	.close = throwaway_close,
};
C
# Step 2: its row in the table, after intervals.csv's.
sed -i 's|^\(\tX(intervals) .*\)$|\1\n\tX(throwaway) \\|' "$TMP/src/master/results/sinks.c"
grep -q '^	X(throwaway) \\$' "$TMP/src/master/results/sinks.c" || fail "no X(intervals) row in master/results/sinks.c to add the sink after"

# The keyword recipe, steps 1 and 2: its field in struct params_sd, its
# row (with its doc) in the sd table of keywords.c, after sqpoll=.
sed -i 's|^\(\tbool sqpoll; .*\)$|\1\n\tbool throwaway;|' "$TMP/src/master/params/params.h"
grep -q '^	bool throwaway;$' "$TMP/src/master/params/params.h" || fail "no sqpoll field in struct params_sd to add the keyword after"
sed -i 's|^\(\tKWF("sqpoll", set_yesno, struct params_sd, sqpoll,\)$|\tKWF("throwaway", set_yesno, struct params_sd, throwaway, "yes: a throwaway keyword of the recipe test"),\n\1|' "$TMP/src/master/params/keywords.c"
grep -q 'KWF("throwaway"' "$TMP/src/master/params/keywords.c" || fail "no sqpoll row in master/params/keywords.c to add the keyword before"

# Only the binary, without the fuzz targets: the point is that it builds.
cmake -S "$TMP/src" -B "$TMP/build" -DWERROR=ON -DFUZZ=OFF > "$TMP/cmake.txt" 2>&1 || { fail_show "$TMP/cmake.txt" "configure of the copy failed"; }
cmake --build "$TMP/build" --target lockstep -j2 > "$TMP/make.txt" 2>&1 || { tail -40 "$TMP/make.txt"; fail "the copy with a throwaway engine does not build"; }
BIN=$TMP/build/lockstep

# The keyword: parsed, its bad value refused at FILE:LINE:COLUMN, and in
# lockstep-params(5), which is built from the same table.
printf 'sd=sd1,lun=%s/k.dat,size=1m,throwaway=yes\nwd=wd1,sd=sd1\nrd=r1,wd=wd1,elapsed=1\n' "$TMP" > "$TMP/k.vdb"
"$BIN" check "$TMP/k.vdb" > "$TMP/k.txt" 2>&1 || { fail_show "$TMP/k.txt" "check refuses throwaway=yes"; }
printf 'sd=sd1,lun=%s/k.dat,size=1m,throwaway=maybe\nwd=wd1,sd=sd1\nrd=r1,wd=wd1,elapsed=1\n' "$TMP" > "$TMP/k2.vdb"
if "$BIN" check "$TMP/k2.vdb" > "$TMP/k2.txt" 2>&1; then fail "check took throwaway=maybe"; fi
grep -q "^$TMP/k2.vdb:1:[0-9]*: " "$TMP/k2.txt" || { fail_show "$TMP/k2.txt" "throwaway=maybe is not refused at FILE:LINE:COLUMN"; }
"$BIN" help --man lockstep-params > "$TMP/params.5"
grep -q 'a throwaway keyword of the recipe test' "$TMP/params.5" || fail "lockstep-params(5) does not list the new keyword"
echo "ok: keyword throwaway= parsed, refused when bad, in the manual"

# The master offers it (its --engine choices are the slave's table).
"$BIN" run --help 2>&1 | grep -- "--engine NAME .*throwaway" > /dev/null || { "$BIN" run --help 2>&1 | grep -- --engine; fail "run --help does not list the throwaway engine"; }

cat > "$TMP/t.vdb" <<VDB
sd=sd1,lun=$TMP/d1.dat,size=1m,threads=2
wd=wd1,sd=sd1,xfersize=4k,rdpct=50
rd=r1,wd=wd1,iorate=max,elapsed=2,warmup=0,interval=1
VDB
run_bounded 60 "$BIN" run "$TMP/t.vdb" -o "$TMP/out" --local-slaves 1 --engine throwaway > "$TMP/console.txt" 2> "$TMP/stderr.txt"
[ "$rc" -eq 0 ] || { cat "$TMP/console.txt" "$TMP/stderr.txt"; fail "run with --engine throwaway exited $rc"; }
python3 - "$TMP/out/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
assert s["engine"] == "throwaway", s["engine"]
ops = s["runs"][0]["totals"]["ops"]
assert ops > 0, ops
print("ok: engine %s did %d I/Os" % (s["engine"], ops))
PY
# The output: a line per cluster row of intervals.csv (late rows are
# intervals.csv's own), with the same ops.
python3 - "$TMP/out/intervals.csv" "$TMP/out/throwaway.txt" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["phase"] != "late"]
want = ["%s %s" % (r["interval"], r["ops"]) for r in rows]
got = open(sys.argv[2]).read().split("\n")[:-1]
assert got == want and want, (got, want)
print("ok: throwaway.txt has the %d rows of intervals.csv" % len(want))
PY
echo "PASS"
