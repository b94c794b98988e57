#!/usr/bin/env python3
"""Vdbench's `vdbench parseflat` rules (ParseFlat.java, Vdbench 5.04),
written anew from reading them, to read a lockstep flatfile.html:
  the column names are the first non-empty line starting with a blank;
  every later line not starting with '*' is data, split on blanks, and
  must have one word per column (ParseFlat skips it with a message; here
  that is an error, except for a cut last line);
  rows whose Run starts with format_for_ are dropped; without -a the avg_
  rows are dropped, with -a only they are kept; -f COL VALUE pairs keep
  rows whose COL equals VALUE (ignoring case); a value '?' is written 0;
  an unknown column name is fatal, and so is no row written.
usage: parseflat.py -i FLATFILE [-o OUT.csv] -c COL... [-a] [-f COL VAL ...]
"""
import sys


def die(msg):
    print("parseflat: " + msg, file=sys.stderr)
    sys.exit(1)


def main(argv):
    args = []
    for a in argv:
        if a.startswith("-") and len(a) > 2:
            args += [a[:2], a[2:]]
        else:
            args.append(a)
    inp, out, avg, cols, filters = None, "-", False, [], []
    i = 0
    while i < len(args):
        a = args[i]
        if a == "-i":
            inp = args[i + 1]
            i += 2
        elif a == "-o":
            out = args[i + 1]
            i += 2
        elif a == "-a":
            avg = True
            i += 1
        elif a == "-c":
            i += 1
            while i < len(args) and not args[i].startswith("-"):
                cols.append(args[i])
                i += 1
        elif a == "-f":
            i += 1
            while i < len(args) and not args[i].startswith("-"):
                if i + 1 >= len(args):
                    die("'-f' filters must be specified in pairs")
                filters.append((args[i], args[i + 1]))
                i += 2
        else:
            die("invalid parameter: " + a)
    if not inp or not cols:
        die("usage: -i FILE -c COL...")
    lines = open(inp).read().split("\n")
    names, data = None, []
    for n, line in enumerate(lines):
        if names is None:
            if line.strip() and line.startswith(" "):
                names = line.split()
            continue
        if line.startswith("*"):
            continue
        w = line.split()
        if len(w) != len(names):
            if n == len(lines) - 1 and not line:
                continue
            die("line %d: %d words, %d columns: %r" % (n + 1, len(w), len(names), line))
        data.append(w)
    if names is None:
        die("no header line (a line starting with a blank)")
    low = [x.lower() for x in names]

    def colno(c):
        if c.lower() not in low:
            die("Column '%s' unknown" % c)
        return low.index(c.lower())

    for c in cols + [f[0] for f in filters]:
        colno(c)
    run, interval = colno("run"), colno("interval")
    data = [w for w in data if not w[run].startswith("format_for_")]
    data = [w for w in data if w[interval].startswith("avg") == avg]
    rows = []
    for w in data:
        if all(w[colno(c)].lower() == v.lower() for c, v in filters):
            rows.append(["0" if w[colno(c)] == "?" else w[colno(c)] for c in cols])
    if not rows:
        die("No output written. Check column names and filters")
    f = sys.stdout if out == "-" else open(out, "w")
    f.write(",".join(cols) + "\n")
    for r in rows:
        f.write(",".join(r) + "\n")


main(sys.argv[1:])
