#!/usr/bin/python3
"""Blocks a validation journal has in flight: those whose last intent
record has no done or forget after it. Usage: jnl_pending.py HEADER FILE,
HEADER the journal's header bytes (160 for an sd's .jnl, 176 for an
fsd's .fsjnl); records are 8 bytes, block << 16 | generation << 8 |
type (1 intent, 2 done, 3 forget). Prints their count (a record cut at
the end is not one)."""
import struct
import sys

d = open(sys.argv[2], "rb").read()[int(sys.argv[1]):]
pend = set()
for (r,) in struct.iter_unpack("<Q", d[:len(d) // 8 * 8]):
    if r & 0xff == 1:
        pend.add(r >> 16)
    elif r & 0xff in (2, 3):
        pend.discard(r >> 16)
print(len(pend))
