/*
 * Vdbench's hot band (wd hotband=, Vdb/HotBand.java): where in a band a
 * random I/O goes so that small caches get a few hits and larger ones more,
 * as a database index would. A uniform draw goes through a piecewise-linear
 * curve that Vdbench tabulates (the share of the accesses that fall below
 * each size), the point is turned into a record of the transfer size
 * (Vdbench's arithmetic, units and all: the curve's sizes, read as
 * megabytes, come out as bytes times a thousand, so the hottest records are
 * the band's first few kilobytes), a write is moved on by one percent of
 * the band's records, and the record wraps around the band's whole
 * megabytes. Pure: no state, no allocation, a binary search of 29 points.
 */
#ifndef LOCKSTEP_SLAVE_HOTBAND_H
#define LOCKSTEP_SLAVE_HOTBAND_H

#include <stdint.h>

/* Vdbench refuses a band of less than one of its megabytes (10^6 bytes). */
#define HOTBAND_MIN_BYTES 1000000ull

/*
 * Records of len bytes a band of width bytes draws from: its whole
 * megabytes (10^6 bytes) divided by len, as Vdbench counts them; 0 when the
 * band is under a megabyte or len is larger than its whole megabytes.
 */
uint64_t hotband_records(uint64_t width, uint32_t len);

/*
 * The record (0 = the band's first len bytes) of an I/O of len bytes in a
 * band of width bytes, a write if write, from the uniform 64-bit r; below
 * hotband_records(width, len), which must not be 0.
 */
uint64_t hotband_record(uint64_t width, uint32_t len, int write, uint64_t r);

#endif
