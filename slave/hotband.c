/*
 * Vdbench's hot band: the access curve and the record arithmetic of
 * Vdb/HotBand.java. See hotband.h.
 */
#include "slave/hotband.h"

/*
 * The curve: a draw u in [at, next point's at) lands at
 * size + (u - at) * slope, in Vdbench's "megabytes". Each slope joins its
 * point to the next but the last one's, which is Vdbench's own value (the
 * line through the two last points would be some 40 times steeper): kept,
 * so that the draws past the 82nd percentile land where Vdbench's do.
 */
static const struct {
	double at;    /* share of the draws below this point */
	double size;  /* where the point is */
	double slope; /* size per share up to the next point */
} curve[] = {
	{ 0, 0, 183.4511752 },
	{ 0.087217, 16, 1159.945628 },
	{ 0.10101, 32, 1025.778015 },
	{ 0.132206, 64, 2307.172362 },
	{ 0.159946, 128, 3064.644852 },
	{ 0.201713, 256, 4204.331611 },
	{ 0.262602, 512, 8019.055699 },
	{ 0.32645, 1024, 25313.90019 },
	{ 0.366902, 2048, 106263.1067 },
	{ 0.386175, 4096, 80683.52498 },
	{ 0.436941, 8192, 179296.7222 },
	{ 0.482631, 16384, 398437.1604 },
	{ 0.523752, 32768, 885415.912 },
	{ 0.56076, 65536, 1967590.916 },
	{ 0.594068, 131072, 4372424.257 },
	{ 0.624045, 262144, 9716498.348 },
	{ 0.651024, 524288, 21592218.55 },
	{ 0.675305, 1048576, 47982707.89 },
	{ 0.697159, 2097152, 106628239.8 },
	{ 0.716827, 4194304, 236951643.9 },
	{ 0.734528, 8388608, 526559208.7 },
	{ 0.750459, 16777216, 1170131575.0 },
	{ 0.764797, 33554432, 2600292389.0 },
	{ 0.777701, 67108864, 5778427530.0 },
	{ 0.789314, 134217728, 12840950067.0 },
	{ 0.799767, 268435456, 28535444594.0 },
	{ 0.809174, 536870912, 63412099098.0 },
	{ 0.81764, 1073741824, 1313220630.0 },
	{ 1, 10737418240.0, 10737418240.0 },
};

#define NPOINTS (sizeof(curve) / sizeof(curve[0]))
#define MB 1000000ull

uint64_t hotband_records(uint64_t width, uint32_t len)
{
	return len ? width / MB * MB / len : 0;
}

/* The segment of u: the last point at or below it (u < 1). */
static unsigned segment(double u)
{
	unsigned lo = 0, hi = NPOINTS - 1;

	while (hi - lo > 1) {
		unsigned mid = (lo + hi) / 2;

		if (curve[mid].at <= u)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

uint64_t hotband_record(uint64_t width, uint32_t len, int write, uint64_t r)
{
	double u = (double)(r >> 11) * 0x1p-53;
	unsigned i = segment(u);
	uint64_t n = hotband_records(width, len);
	/* Vdbench truncates the point to whole "megabytes", times 1000... */
	uint64_t kb = (uint64_t)((u - curve[i].at) * curve[i].slope +
				 curve[i].size) *
		      1000;
	/* ...and divides that by the transfer size as if it were bytes. */
	uint64_t rec = kb * MB / len / MB;

	/* Writes step a percent of the band away from the hottest reads. */
	if (write)
		rec += n / 100;
	return rec % n;
}
