#!/usr/bin/python3
"""Checks a file tree lockstep formatted against Vdbench's rules.

usage: check_fstree.py TREE DEPTH WIDTH FILES SIZES [--dist bottom|all]
                       [--files-present N] [--totalsize BYTES]
                       [--print-wss BYTES]

SIZES is a size in bytes ("8192") or pairs "8192:50,16384:50" as
sizes=(8k,50,16k,50). Written from Vdbench's documented rules, not from
lockstep's code: folders are vdb.L_W.dir (level L from 1, width index W
from 1) nested width deep on each level; files vdb_fNNNN.file (%04d,
1-based) in every deepest folder (distribution=bottom) or every folder
(all); each file's size is drawn with java.util.Random(0): nextInt(100)
against the running percentages, file after file. The check: exactly
those folders, exactly those file names (or, with --files-present N,
N of them), no other entry, no link, and the sizes on disk are the
sizes drawn (as a multiset, for the files present).

--totalsize: only Vdbench's totalsize= subset of the files is expected
(FileAnchor.createUsedList: java.util.Random(0), file number
(int)(nextDouble() * files), each once, until their bytes reach it).
--print-wss: print the workingsetsize= subset's file names (drawn the
same way, with a new Random(0), from the totalsize= files or all) and
check nothing.
"""
import os
import stat
import sys

MULT = 0x5DEECE66D
MASK = (1 << 48) - 1


class JavaRandom:
    def __init__(self, seed):
        self.s = (seed ^ MULT) & MASK

    def next(self, bits):
        self.s = (self.s * MULT + 0xB) & MASK
        v = self.s >> (48 - bits)
        return v - (1 << 32) if v >= 1 << 31 else v

    def next_int(self, bound):
        if bound & (bound - 1) == 0:
            return (bound * self.next(31)) >> 31
        while True:
            u = self.next(31)
            r = u % bound
            # Java: u - r + (bound - 1) overflows to negative: draw again.
            if u - r + bound - 1 < 1 << 31:
                return r

    def next_double(self):
        hi = self.next(26)
        lo = self.next(27)
        return ((hi << 27) + lo) * 2.0 ** -53


def subset(sizes, want):
    """Indexes of Vdbench's subset of files of sizes, in file order."""
    if want > sum(sizes):
        sys.exit("a subset of %d bytes of %d" % (want, sum(sizes)))
    rng, got, picked = JavaRandom(0), 0, set()
    while got < want:
        f = int(rng.next_double() * len(sizes))
        if f not in picked:
            picked.add(f)
            got += sizes[f]
    return sorted(picked)


def expected(depth, width, files, sizes, dist):
    dirs = []
    level = [""]
    for lv in range(1, depth + 1):
        nxt = []
        for w in range(1, width + 1):
            for parent in level:
                nxt.append(os.path.join(parent, "vdb.%d_%d.dir" % (lv, w)))
        dirs.extend(nxt)
        level = nxt
    holders = level if dist == "bottom" else dirs
    names = [os.path.join(d, "vdb_f%04d.file" % (i + 1))
             for d in holders for i in range(files)]
    rng = JavaRandom(0)
    drawn = []
    for _ in names:
        if len(sizes) == 1:
            drawn.append(sizes[0][0])
            continue
        pct, cum = rng.next_int(100), 0
        for k, (size, share) in enumerate(sizes):
            cum += share
            if pct < cum or k == len(sizes) - 1:
                drawn.append(size)
                break
    return dirs, names, drawn


def main():
    a = sys.argv[1:]
    dist, present = "bottom", None
    if "--dist" in a:
        i = a.index("--dist")
        dist = a[i + 1]
        del a[i:i + 2]
    if "--files-present" in a:
        i = a.index("--files-present")
        present = int(a[i + 1])
        del a[i:i + 2]
    total = wss = 0
    if "--totalsize" in a:
        i = a.index("--totalsize")
        total = int(a[i + 1])
        del a[i:i + 2]
    if "--print-wss" in a:
        i = a.index("--print-wss")
        wss = int(a[i + 1])
        del a[i:i + 2]
    tree, depth, width, files, spec = a[0], int(a[1]), int(a[2]), int(a[3]), a[4]
    sizes = []
    for part in spec.split(","):
        size, _, share = part.partition(":")
        sizes.append((int(size), int(share or 100)))
    dirs, names, drawn = expected(depth, width, files, sizes, dist)
    if total:
        keep = subset(drawn, total)
        names = [names[k] for k in keep]
        drawn = [drawn[k] for k in keep]
    if wss:
        for k in subset(drawn, wss):
            print(names[k])
        return
    found_dirs, found_files = set(), {}
    for root, dnames, fnames in os.walk(tree):
        rel = os.path.relpath(root, tree)
        for n in dnames + fnames:
            p = os.path.join(root, n)
            r = os.path.normpath(os.path.join(rel, n))
            st = os.lstat(p)
            if stat.S_ISLNK(st.st_mode):
                sys.exit("%s: a link in the tree" % r)
            if stat.S_ISDIR(st.st_mode):
                found_dirs.add(r)
            elif n != ".lockstep-anchor" or rel != ".":
                found_files[r] = st.st_size
    if found_dirs != set(dirs):
        sys.exit("folders: %d found, %d expected; extra %s, missing %s" % (
            len(found_dirs), len(dirs), sorted(found_dirs - set(dirs))[:3],
            sorted(set(dirs) - found_dirs)[:3]))
    size_of = dict(zip(names, drawn))
    extra = sorted(set(found_files) - set(names))
    if extra:
        sys.exit("files not in the tree: %s" % extra[:3])
    want = len(names) if present is None else present
    if len(found_files) != want:
        sys.exit("%d files present, %d expected" % (len(found_files), want))
    wrong = [(n, s, size_of[n]) for n, s in found_files.items()
             if present is None and s != size_of[n]]
    if wrong:
        sys.exit("sizes differ from Vdbench's draws: %s" % wrong[:3])
    print("ok: %s: %d folders, %d files, %d bytes" % (
        tree, len(found_dirs), len(found_files), sum(found_files.values())))


if __name__ == "__main__":
    main()
