/*
 * Skewed access distributions: fio's zipf and pareto rank formulas, a
 * normal curve, fio's zones, and the permutation that scatters ranks over
 * a range's blocks. See dist.h.
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include "proto/proto.h"
#include "slave/dist.h"

/* Terms summed one by one before the Euler-Maclaurin tail takes over. */
#define ZETA_DIRECT 1000u

static double term(double x, double theta)
{
	return pow(x, -theta);
}

/* sum_{i=a..b} i^-theta by Euler-Maclaurin, to the f' term: its error is
 * below 1e-12 for a >= ZETA_DIRECT. */
static double zeta_tail(double a, double b, double theta)
{
	double integral, fa = term(a, theta), fb = term(b, theta);
	double dfa = -theta * fa / a, dfb = -theta * fb / b;

	if (fabs(theta - 1) < 1e-12)
		integral = log(b / a);
	else
		integral = (pow(b, 1 - theta) - pow(a, 1 - theta)) /
			   (1 - theta);
	return integral + (fa + fb) / 2 + (dfb - dfa) / 12;
}

double dist_zeta(uint64_t n, double theta)
{
	double sum = 0;
	uint64_t direct = n < ZETA_DIRECT ? n : ZETA_DIRECT - 1;

	for (uint64_t i = 1; i <= direct; i++)
		sum += term((double)i, theta);
	if (n > direct)
		sum += zeta_tail((double)direct + 1, (double)n, theta);
	return sum;
}

uint64_t dist_key(const char *name)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *name; name++) {
		h ^= (unsigned char)*name;
		h *= 0x100000001b3ull;
	}
	return h;
}

static void perm_init(struct dist *d, uint64_t key)
{
	unsigned bits = d->n > 1 ? 64 - (unsigned)__builtin_clzll(d->n - 1) : 1;

	d->mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
	d->shift = bits / 2 + 1;
	d->key = key;
}

static void zipf_init(struct dist *d, double theta)
{
	double n = (double)d->n;

	d->zetan = dist_zeta(d->n, theta);
	d->half_theta = pow(0.5, theta);
	d->zeta2 = 1 + d->half_theta;
	d->alpha = 1 / (1 - theta);
	/* n <= 2 never reaches the formula (the first two ranks are exact). */
	d->eta = d->n > 2 ? (1 - pow(2 / n, 1 - theta)) /
				    (1 - d->zeta2 / d->zetan) :
			    0;
}

int dist_init(struct dist *d, uint32_t kind, double arg, uint64_t n,
	      uint64_t key)
{
	memset(d, 0, sizeof(*d));
	if (n == 0)
		return -EINVAL;
	d->kind = kind;
	d->n = n;
	perm_init(d, key);
	switch (kind) {
	case PROTO_ACCESS_UNIFORM:
		return 0;
	case PROTO_ACCESS_ZIPF:
		if (!(arg > 0) || fabs(arg - 1) < 1e-9 || !isfinite(arg))
			return -EINVAL;
		zipf_init(d, arg);
		return 0;
	case PROTO_ACCESS_PARETO:
		if (!(arg > 0 && arg < 1))
			return -EINVAL;
		d->pareto_pow = log(arg) / log(1 - arg);
		return 0;
	case PROTO_ACCESS_NORMAL:
		if (!(arg > 0 && arg <= 100))
			return -EINVAL;
		d->sigma = (double)n * arg / 100;
		return 0;
	default:
		return -EINVAL;
	}
}

int dist_init_zoned(struct dist *d, const struct proto_zone *z, unsigned nz,
		    uint64_t n)
{
	uint64_t io = 0, range = 0;

	memset(d, 0, sizeof(*d));
	if (n == 0 || nz == 0 || nz > PROTO_MAX_ZONES)
		return -EINVAL;
	d->kind = PROTO_ACCESS_ZONED;
	d->n = n;
	d->nzones = nz;
	for (unsigned i = 0; i < nz; i++) {
		struct dist_zone *dz = &d->zones[i];

		if (z[i].io > 100 || z[i].range > 100 ||
		    (z[i].io && !z[i].range))
			return -EINVAL;
		/* fio's __get_next_rand_offset_zoned, in blocks. */
		dz->first = (uint64_t)((unsigned __int128)n * range / 100);
		dz->count = (uint64_t)((unsigned __int128)n * z[i].range / 100);
		if (dz->first >= n)
			dz->first = n - 1;
		if (dz->count == 0 || dz->count > n - dz->first)
			dz->count = dz->count ? n - dz->first : 1;
		dz->scale = z[i].io ? (double)dz->count * 100 / z[i].io *
					      0x1p-64 :
				      0;
		io += z[i].io;
		range += z[i].range;
		dz->end = ((unsigned __int128)io << 64) / 100;
	}
	return io == 100 && range <= 100 ? 0 : -EINVAL;
}

/* A block of the zone a draw falls in, the rest of the draw within it. */
static uint64_t zoned(const struct dist *d, uint64_t r)
{
	unsigned i = 0;
	unsigned __int128 start;

	while (i + 1 < d->nzones && r >= d->zones[i].end)
		i++;
	start = i ? d->zones[i - 1].end : 0;
	return d->zones[i].first + (uint64_t)((r - start) * d->zones[i].count /
					      (d->zones[i].end - start));
}

/* Uniform in [0, 1) with 53 bits. */
static double unit(uint64_t r)
{
	return (double)(r >> 11) * 0x1p-53;
}

static uint64_t clamp(const struct dist *d, double x)
{
	if (!(x > 0))
		return 0;
	if (x >= (double)d->n)
		return d->n - 1;
	return (uint64_t)x;
}

uint64_t dist_rank(const struct dist *d, uint64_t r)
{
	double u, z, x;

	switch (d->kind) {
	case PROTO_ACCESS_ZIPF:
		/* fio's zipf_next: the first two ranks exactly, then the
		 * continuous approximation of the rank's inverse CDF. */
		u = unit(r);
		z = u * d->zetan;
		if (z < 1)
			return 0;
		if (z < d->zeta2 || d->n <= 2)
			return d->n > 1 ? 1 : 0;
		return clamp(d, (double)d->n *
					pow(d->eta * u - d->eta + 1, d->alpha));
	case PROTO_ACCESS_PARETO:
		/* fio's pareto_next: (n - 1) u^pow. */
		return clamp(d,
			     (double)(d->n - 1) * pow(unit(r), d->pareto_pow));
	case PROTO_ACCESS_NORMAL:
		/* Box-Muller from the two halves; wrapped around the range. */
		u = ((double)(r >> 32) + 1) * 0x1p-32;
		z = sqrt(-2 * log(u)) *
		    cos(2 * M_PI * (double)(r & 0xffffffffu) * 0x1p-32);
		x = fmod((double)d->n / 2 + z * d->sigma, (double)d->n);
		return clamp(d, x < 0 ? x + (double)d->n : x);
	case PROTO_ACCESS_ZONED:
		return zoned(d, r);
	default:
		return (uint64_t)(((unsigned __int128)r * d->n) >> 64);
	}
}

/*
 * One round of a bijection of [0, mask]: multiplications by odd numbers
 * and xor-shifts to the right are each invertible modulo a power of two.
 */
static uint64_t perm_round(const struct dist *d, uint64_t x)
{
	x = (x * 0x9e3779b97f4a7c15ull + d->key) & d->mask;
	x ^= x >> d->shift;
	x = (x * 0xbf58476d1ce4e5b9ull) & d->mask;
	x ^= x >> d->shift;
	return x;
}

uint64_t dist_place(const struct dist *d, uint64_t rank)
{
	uint64_t x = rank;

	/* Cycle-walking: mask < 2n, so fewer than two rounds on average;
	 * the walk ends at the latest back at rank itself. */
	do
		x = perm_round(d, x);
	while (x >= d->n);
	return x;
}
