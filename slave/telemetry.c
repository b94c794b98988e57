/*
 * Device and host telemetry (telemetry.h): file descriptors opened once
 * per phase and re-read from offset 0 at every sample, which makes sysfs
 * and procfs generate the file afresh; no allocation after open.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "common/timeutil.h"
#include "slave/telemetry.h"

static const char *const psi_files[3] = { "/proc/pressure/cpu",
					  "/proc/pressure/memory",
					  "/proc/pressure/io" };
static const char *const net_files[TELE_NNET] = { "rx_bytes", "tx_bytes",
						  "rx_packets", "tx_packets" };

/* Reads the first N numbers of s; 0 or -EINVAL. */
static int parse_nums(const char *s, uint64_t *v, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		char *end;

		while (*s == ' ' || *s == '\t')
			s++;
		if (!isdigit((unsigned char)*s))
			return -EINVAL;
		errno = 0;
		v[i] = strtoull(s, &end, 10);
		if (errno || end == s)
			return -EINVAL;
		s = end;
	}
	return 0;
}

int telemetry_parse_stat(const char *s, uint64_t v[TELE_NSTAT])
{
	return parse_nums(s, v, TELE_NSTAT);
}

int telemetry_parse_cpu(const char *s, uint64_t v[5])
{
	/* user nice system idle iowait irq softirq steal (Linux >= 2.6.11) */
	uint64_t f[8];

	if (strncmp(s, "cpu ", 4) || parse_nums(s + 4, f, 8) < 0)
		return -EINVAL;
	v[0] = f[0] + f[1];
	v[1] = f[2] + f[5] + f[6];
	v[2] = f[4];
	v[3] = f[7];
	v[4] = f[3];
	return 0;
}

int telemetry_parse_psi(const char *s, uint64_t *some_us)
{
	const char *t;

	if (strncmp(s, "some ", 5))
		return -EINVAL;
	t = strstr(s, " total=");
	if (!t || (strchr(s, '\n') && t > strchr(s, '\n')))
		return -EINVAL;
	return parse_nums(t + 7, some_us, 1);
}

int telemetry_parse_u64(const char *s, uint64_t *v)
{
	return parse_nums(s, v, 1);
}

int telemetry_nic_ok(const char *name)
{
	size_t n = strlen(name);

	if (!n || n >= PROTO_NIC_LEN || !strcmp(name, ".") ||
	    !strcmp(name, ".."))
		return 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)name[i];

		if (c == '/' || c <= ' ' || c >= 0x7f || c == ':')
			return 0;
	}
	return 1;
}

static void warn(struct telemetry *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void warn(struct telemetry *t, const char *fmt, ...)
{
	va_list ap;

	if (t->nwarn >= sizeof(t->warn) / sizeof(t->warn[0]))
		return;
	va_start(ap, fmt);
	vsnprintf(t->warn[t->nwarn++], sizeof(t->warn[0]), fmt, ap);
	va_end(ap);
}

/* Reads fd from offset 0 into buf (len bytes, NUL-terminated). */
static int read_at0(int fd, char *buf, size_t len)
{
	ssize_t n = pread(fd, buf, len - 1, 0);

	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return 0;
}

/* The kernel's name of block device dev (the link /sys/dev/block/M:m). */
static int dev_name(dev_t dev, char *name, size_t len)
{
	char path[64], link[PATH_MAX];
	const char *base;
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", major(dev),
		 minor(dev));
	n = readlink(path, link, sizeof(link) - 1);
	if (n < 0)
		return -errno;
	link[n] = '\0';
	base = strrchr(link, '/');
	base = base ? base + 1 : link;
	if (!*base || strlen(base) >= len)
		return -ENAMETOOLONG;
	snprintf(name, len, "%s", base);
	return 0;
}

static void add_dev(struct telemetry *t, dev_t dev, unsigned target)
{
	struct telemetry_dev *d;
	char path[64];

	for (unsigned i = 0; i < t->ndevs; i++)
		if (t->dev[i].major == major(dev) &&
		    t->dev[i].minor == minor(dev))
			return;
	if (t->ndevs == PROTO_MAX_DEVS) {
		warn(t,
		     "telemetry: more than %d block devices under the targets: device %u:%u (target %u) and later ones are not sampled",
		     PROTO_MAX_DEVS, major(dev), minor(dev), target + 1);
		return;
	}
	d = &t->dev[t->ndevs];
	memset(d, 0, sizeof(*d));
	d->major = major(dev);
	d->minor = minor(dev);
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/stat", d->major,
		 d->minor);
	if (dev_name(dev, d->name, sizeof(d->name)) < 0 ||
	    (d->fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		warn(t,
		     "telemetry: cannot read %s (%s): block device %u:%u is not sampled",
		     path, strerror(errno), d->major, d->minor);
		return;
	}
	t->ndevs++;
}

static void open_nic(struct telemetry *t, const char *nic)
{
	char path[96];

	if (!*nic)
		return;
	if (!telemetry_nic_ok(nic)) {
		warn(t,
		     "telemetry: nic=%.*s is not an interface name: not sampled",
		     PROTO_NIC_LEN, nic);
		return;
	}
	snprintf(t->nic, sizeof(t->nic), "%s", nic);
	for (int i = 0; i < TELE_NNET; i++) {
		snprintf(path, sizeof(path), "/sys/class/net/%s/statistics/%s",
			 nic, net_files[i]);
		t->net_fd[i] = open(path, O_RDONLY | O_CLOEXEC);
		if (t->net_fd[i] < 0) {
			warn(t,
			     "telemetry: cannot read %s (%s): nic=%s is not sampled on this host",
			     path, strerror(errno), nic);
			return;
		}
	}
	t->have |= PROTO_TELE_NIC;
}

void telemetry_open(struct telemetry *t, const int *fds, unsigned nfds,
		    const char *nic)
{
	long hz = sysconf(_SC_CLK_TCK);
	int nodev = -1;

	memset(t, 0, sizeof(*t));
	t->cpu_fd = -1;
	for (int i = 0; i < 3; i++)
		t->psi_fd[i] = -1;
	for (int i = 0; i < TELE_NNET; i++)
		t->net_fd[i] = -1;
	t->tick_ns = NS_PER_SEC / (uint64_t)(hz > 0 ? hz : 100);
	for (unsigned i = 0; i < nfds; i++) {
		struct stat st;

		if (fds[i] < 0 || fstat(fds[i], &st) < 0)
			continue;
		if (S_ISBLK(st.st_mode))
			add_dev(t, st.st_rdev, i);
		else if (major(st.st_dev))
			add_dev(t, st.st_dev, i);
		else if (nodev < 0)
			nodev = (int)i;
	}
	if (nodev >= 0)
		warn(t,
		     "telemetry: target %d is on a file system without a block device (tmpfs, NFS, overlay...): no device figures for it",
		     nodev + 1);
	t->cpu_fd = open("/proc/stat", O_RDONLY | O_CLOEXEC);
	if (t->cpu_fd >= 0)
		t->have |= PROTO_TELE_CPU;
	else
		warn(t,
		     "telemetry: cannot read /proc/stat (%s): no host CPU figures",
		     strerror(errno));
	for (int i = 0; i < 3; i++)
		t->psi_fd[i] = open(psi_files[i], O_RDONLY | O_CLOEXEC);
	if (t->psi_fd[0] >= 0 && t->psi_fd[1] >= 0 && t->psi_fd[2] >= 0)
		t->have |= PROTO_TELE_PSI; /* absent without CONFIG_PSI: quiet */
	open_nic(t, nic);
}

/* Reads every counter into the given arrays; clears what fails in *have. */
static void read_all(struct telemetry *t, uint32_t *have, int *dev_ok,
		     uint64_t dev[][TELE_NSTAT], uint64_t cpu[5],
		     uint64_t psi[3], uint64_t net[TELE_NNET])
{
	char buf[512];

	for (unsigned i = 0; i < t->ndevs; i++)
		dev_ok[i] = read_at0(t->dev[i].fd, buf, sizeof(buf)) == 0 &&
			    telemetry_parse_stat(buf, dev[i]) == 0;
	if ((*have & PROTO_TELE_CPU) &&
	    (read_at0(t->cpu_fd, buf, sizeof(buf)) < 0 ||
	     telemetry_parse_cpu(buf, cpu) < 0))
		*have &= ~(uint32_t)PROTO_TELE_CPU;
	for (int i = 0; i < 3 && (*have & PROTO_TELE_PSI); i++)
		if (read_at0(t->psi_fd[i], buf, sizeof(buf)) < 0 ||
		    telemetry_parse_psi(buf, &psi[i]) < 0)
			*have &= ~(uint32_t)PROTO_TELE_PSI;
	for (int i = 0; i < TELE_NNET && (*have & PROTO_TELE_NIC); i++)
		if (read_at0(t->net_fd[i], buf, sizeof(buf)) < 0 ||
		    telemetry_parse_u64(buf, &net[i]) < 0)
			*have &= ~(uint32_t)PROTO_TELE_NIC;
}

static void take_base(struct telemetry *t, uint64_t now_ns)
{
	int ok[PROTO_MAX_DEVS];
	uint64_t dev[PROTO_MAX_DEVS][TELE_NSTAT];
	uint32_t have = t->have;

	read_all(t, &have, ok, dev, t->cpu_last, t->psi_last, t->net_last);
	t->have = have;
	t->last_ns = now_ns ? now_ns : 1;
	for (unsigned i = 0; i < t->ndevs; i++) {
		memcpy(t->dev[i].last, dev[i], sizeof(dev[i]));
		t->dev[i].last_ns = ok[i] ? t->last_ns : 0;
	}
}

/* A counter's growth; 0 when it went back (a reset device). */
static uint64_t grew(uint64_t now, uint64_t last)
{
	return now >= last ? now - last : 0;
}

static void take_sample(struct telemetry *t, uint64_t now_ns,
			struct proto_interval *pi)
{
	int ok[PROTO_MAX_DEVS];
	uint64_t dev[PROTO_MAX_DEVS][TELE_NSTAT], cpu[5], psi[3],
		net[TELE_NNET];
	uint32_t have = t->have;
	uint64_t span;

	pi->tele = 0;
	pi->ndevs = 0;
	if (!t->last_ns || now_ns <= t->last_ns)
		return;
	span = now_ns - t->last_ns;
	read_all(t, &have, ok, dev, cpu, psi, net);
	pi->tele = have;
	pi->tele_span_ns = span;
	for (int i = 0; i < 5 && (have & PROTO_TELE_CPU); i++)
		pi->host_cpu_ns[i] = grew(cpu[i], t->cpu_last[i]) * t->tick_ns;
	for (int i = 0; i < 3 && (have & PROTO_TELE_PSI); i++)
		pi->psi_ns[i] = grew(psi[i], t->psi_last[i]) * 1000;
	if (have & PROTO_TELE_NIC) {
		snprintf(pi->nic, sizeof(pi->nic), "%s", t->nic);
		for (int d = 0; d < 2; d++) {
			pi->net_bytes[d] = grew(net[d], t->net_last[d]);
			pi->net_pkts[d] = grew(net[2 + d], t->net_last[2 + d]);
		}
	}
	for (unsigned i = 0; i < t->ndevs; i++) {
		struct telemetry_dev *d = &t->dev[i];
		struct proto_dev *o = &pi->devs[pi->ndevs];
		const uint64_t *v = dev[i];

		if (!ok[i])
			continue;
		if (!d->last_ns) { /* its first good read: a base */
			memcpy(d->last, v, sizeof(d->last));
			d->last_ns = now_ns;
			continue;
		}
		snprintf(o->name, sizeof(o->name), "%s", d->name);
		o->major = d->major;
		o->minor = d->minor;
		o->span_ns = now_ns - d->last_ns;
		o->ios[0] = grew(v[TELE_RD_IOS], d->last[TELE_RD_IOS]);
		o->ios[1] = grew(v[TELE_WR_IOS], d->last[TELE_WR_IOS]);
		o->sectors[0] = grew(v[TELE_RD_SECTORS],
				     d->last[TELE_RD_SECTORS]);
		o->sectors[1] = grew(v[TELE_WR_SECTORS],
				     d->last[TELE_WR_SECTORS]);
		o->ticks_ms[0] = grew(v[TELE_RD_TICKS], d->last[TELE_RD_TICKS]);
		o->ticks_ms[1] = grew(v[TELE_WR_TICKS], d->last[TELE_WR_TICKS]);
		o->in_flight = v[TELE_IN_FLIGHT];
		o->busy_ms = grew(v[TELE_IO_TICKS], d->last[TELE_IO_TICKS]);
		o->queue_ms = grew(v[TELE_QUEUE], d->last[TELE_QUEUE]);
		memcpy(d->last, v, sizeof(d->last));
		d->last_ns = now_ns;
		pi->ndevs++;
	}
	if (have & PROTO_TELE_CPU)
		memcpy(t->cpu_last, cpu, sizeof(cpu));
	if (have & PROTO_TELE_PSI)
		memcpy(t->psi_last, psi, sizeof(psi));
	if (have & PROTO_TELE_NIC)
		memcpy(t->net_last, net, sizeof(net));
	t->last_ns = now_ns;
}

void telemetry_start(struct telemetry *t, uint64_t start, uint32_t first,
		     uint64_t interval_ns)
{
	t->next_ns = start ? start : 1;
	t->next_seq = first;
	t->interval_ns = interval_ns;
	t->based = 0;
	for (int i = 0; i < TELEMETRY_PENDING; i++)
		t->pend[i].valid = 0;
}

/*
 * When the base is due: before the start, not at it. Reading every counter
 * at the start took a core from the workers just when they go, and spread
 * their first I/Os (docs/PERFORMANCE.md, start skew). Nothing of the phase
 * runs before the start, so the first interval loses nothing; its span
 * says how long it was.
 */
static uint64_t base_due(const struct telemetry *t)
{
	return t->next_ns > TELEMETRY_BASE_LEAD_NS ?
		       t->next_ns - TELEMETRY_BASE_LEAD_NS :
		       1;
}

int telemetry_due_ms(const struct telemetry *t, uint64_t now, int most)
{
	uint64_t due = t->based ? t->next_ns : base_due(t), ms;

	if (!t->next_ns)
		return most;
	if (now >= due)
		return 0;
	ms = (due - now + 999999) / 1000000;
	return ms < (uint64_t)most ? (int)ms : most;
}

void telemetry_tick(struct telemetry *t, uint64_t now)
{
	struct telemetry_pending *p;
	uint64_t late;
	uint32_t seq;

	if (!t->next_ns || !t->interval_ns)
		return;
	if (!t->based && now >= base_due(t) && now < t->next_ns) {
		take_base(t, now); /* before the start: its first interval */
		t->based = 1;
		t->next_ns += t->interval_ns;
		return;
	}
	if (now < t->next_ns)
		return;
	late = (now - t->next_ns) / t->interval_ns; /* boundaries missed */
	if (!t->based) {
		take_base(t, now);
		t->based = 1;
		t->next_ns += (late + 1) * t->interval_ns;
		t->next_seq += (uint32_t)late;
		return;
	}
	seq = t->next_seq + (uint32_t)late; /* the last interval ended */
	p = &t->pend[seq % TELEMETRY_PENDING];
	memset(p, 0, sizeof(*p));
	take_sample(t, now, &p->iv);
	p->valid = 1;
	p->seq = seq;
	t->next_ns += (late + 1) * t->interval_ns;
	t->next_seq = seq + 1;
}

void telemetry_fill(struct telemetry *t, uint32_t seq,
		    struct proto_interval *pi)
{
	struct telemetry_pending *p = &t->pend[seq % TELEMETRY_PENDING];
	const struct proto_interval *v = &p->iv;

	pi->tele = 0;
	pi->ndevs = 0;
	if (!p->valid || p->seq != seq)
		return;
	pi->tele = v->tele;
	pi->tele_span_ns = v->tele_span_ns;
	memcpy(pi->host_cpu_ns, v->host_cpu_ns, sizeof(pi->host_cpu_ns));
	memcpy(pi->psi_ns, v->psi_ns, sizeof(pi->psi_ns));
	memcpy(pi->nic, v->nic, sizeof(pi->nic));
	memcpy(pi->net_bytes, v->net_bytes, sizeof(pi->net_bytes));
	memcpy(pi->net_pkts, v->net_pkts, sizeof(pi->net_pkts));
	pi->ndevs = v->ndevs;
	memcpy(pi->devs, v->devs, v->ndevs * sizeof(pi->devs[0]));
	p->valid = 0;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

void telemetry_close(struct telemetry *t)
{
	for (unsigned i = 0; i < t->ndevs; i++)
		close_fd(&t->dev[i].fd);
	close_fd(&t->cpu_fd);
	for (int i = 0; i < 3; i++)
		close_fd(&t->psi_fd[i]);
	for (int i = 0; i < TELE_NNET; i++)
		close_fd(&t->net_fd[i]);
	t->ndevs = 0;
	t->have = 0;
	t->last_ns = 0;
	t->next_ns = 0;
}
