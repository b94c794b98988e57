/*
 * `lockstep hosts FILE`: the pre-flight a careful engineer does by hand
 * before a long run, for every hd= host, without running I/O: ssh
 * reaches it, the binary the run would start is there and of this
 * version, the kernel and its io_uring, the clock offset to the master
 * (a round trip over the ssh connection, halved), its cores, and each sd
 * target: there, its size, and what target safety would say (the host's own
 * `lockstep probe`, so the rules are slave/safety.c's, not copied here).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "common/exitcode.h"
#include "common/opts.h"
#include "common/timeutil.h"
#include "common/units.h"
#include "lockstep_version.h"
#include "master/deploy/deploy.h"
#include "master/deploy/deploy_int.h"
#include "master/results/vdbench.h"
#include "master/params/params.h"

#define CLOCK_ROUNDS 5
#define HOSTS_MARK "lockstep-hosts"

struct host_check {
	int ssh_ok;
	char why[512]; /* ssh's reason when not */
	char kernel[128];
	int64_t offset_ns; /* host clock minus master clock */
	uint64_t rtt_ns;   /* of the best round: offset is +- rtt/2 */
	int have_clock;
};

/*
 * One ssh session: the kernel's release, then CLOCK_ROUNDS round trips of
 * one line each, the host answering with its CLOCK_REALTIME. The round
 * with the shortest trip bounds the offset best.
 */
static void check_ssh(const struct deploy_host *h, struct host_check *c)
{
	uint64_t deadline = time_mono_ns() + (uint64_t)(DEPLOY_CHECK_S * 1e9);
	char buf[1024];
	size_t used = 0;
	int to, from, ret, st;
	pid_t pid;

	/* The marker tells the host's lines from ssh's own complaints. */
	ret = deploy_spawn(h,
			   "echo " HOSTS_MARK
			   "; uname -r; while read x; do date +%s%N; done",
			   -1, &to, &from, &pid);
	if (ret < 0) {
		snprintf(c->why, sizeof(c->why), "%s", strerror(-ret));
		return;
	}
	buf[0] = 0;
	ret = deploy_read(from, buf, sizeof(buf), &used, deadline, 1);
	if (ret == 0 && strcmp(buf, HOSTS_MARK "\n") == 0) {
		used = 0;
		buf[0] = 0;
		ret = deploy_read(from, buf, sizeof(buf), &used, deadline, 1);
		c->ssh_ok = ret == 0;
		snprintf(c->kernel, sizeof(c->kernel), "%.*s",
			 (int)strcspn(buf, "\n"), buf);
	}
	for (int r = 0; c->ssh_ok && r < CLOCK_ROUNDS; r++) {
		uint64_t t0 = time_real_ns(), t1;
		unsigned long long there;

		used = 0;
		buf[0] = 0;
		if (write(to, "x\n", 2) != 2 ||
		    deploy_read(from, buf, sizeof(buf), &used, deadline, 1))
			break;
		t1 = time_real_ns();
		if (sscanf(buf, "%llu", &there) != 1)
			break;
		if (!c->have_clock || t1 - t0 < c->rtt_ns) {
			c->rtt_ns = t1 - t0;
			c->offset_ns = (int64_t)there -
				       (int64_t)(t0 + (t1 - t0) / 2);
			c->have_clock = 1;
		}
	}
	close(to);
	if (!c->ssh_ok && ret != -ETIMEDOUT) /* the rest of ssh's words */
		deploy_read(from, buf, sizeof(buf), &used, deadline, 0);
	close(from);
	st = deploy_finish(pid, !c->ssh_ok);
	deploy_escape(c->kernel, sizeof(c->kernel));
	if (!c->ssh_ok) {
		while (used && buf[used - 1] == '\n')
			buf[--used] = 0;
		deploy_escape(buf, sizeof(buf));
		snprintf(c->why, sizeof(c->why), "%s",
			 ret == -ETIMEDOUT ? "no answer within 30 s" :
			 buf[0]            ? deploy_last_line(buf) :
					     "ssh failed");
		(void)st;
	}
}

/* Which sds the run may write (a wd with rdpct < 100 on them). */
static void sd_writes(const struct params *p, unsigned char *w)
{
	for (size_t i = 0; i < p->nwd; i++)
		for (size_t k = 0; k < p->wd[i].nsd; k++)
			if (p->wd[i].rdpct < 100)
				w[p->wd[i].sd[k]] = 1;
}

static int sd_on_host(const struct params_sd *sd, size_t hd)
{
	if (!sd->nhost)
		return 1;
	for (size_t i = 0; i < sd->nhost; i++)
		if (sd->host[i] == hd)
			return 1;
	return 0;
}

/*
 * The binary, its version and the probe, in one ssh call. Prints the
 * host's lines; returns the problems found.
 */
static int check_binary(FILE *o, const struct deploy_host *h,
			const struct params *p, size_t hd,
			const unsigned char *writes)
{
	const char *exe = p->hd[hd].lockstep[0] ? p->hd[hd].lockstep :
						  "lockstep";
	size_t cap = 1024 + 3 * PATH_MAX, len;
	char *cmd, out[16384], want[128], size[32];
	int st, problems = 0, probed = 0;

	for (size_t s = 0; s < p->nsd; s++)
		cap += strlen(p->sd[s].lun) + 16;
	cmd = malloc(cap);
	if (!cmd)
		return 1;
	if (strpbrk(exe, "'\n")) {
		fprintf(o, "  lockstep: %s cannot be named to a remote shell\n",
			exe);
		free(cmd);
		return 1;
	}
	if (p->hd[hd].lockstep_dir) {
		/* vdbench=DIR: found there as a start finds it. */
		char find[3 * PATH_MAX];

		if (vdbench_remote_exe(exe, find, sizeof(find)) < 0 ||
		    cap < sizeof(find) + 64) {
			fprintf(o,
				"  lockstep: vdbench=%s cannot be named to a remote shell\n",
				exe);
			free(cmd);
			return 1;
		}
		len = (size_t)snprintf(cmd, cap,
				       "%s version || exit $?; \"$x\" probe",
				       find);
	} else {
		len = (size_t)snprintf(cmd, cap,
				       "'%s' version || exit $?; '%s' probe",
				       exe, exe);
	}
	for (size_t s = 0; s < p->nsd && len < cap; s++) {
		if (!sd_on_host(&p->sd[s], hd) || strpbrk(p->sd[s].lun, "'\n"))
			continue;
		len += (size_t)snprintf(cmd + len, cap - len, " '%s%s:%s'",
					writes[s] ? "w" : "r",
					p->sd[s].force ? "f" : "",
					p->sd[s].lun);
	}
	st = deploy_run(h, cmd, -1, out, sizeof(out), DEPLOY_CHECK_S);
	free(cmd);
	snprintf(want, sizeof(want), "lockstep %s", LOCKSTEP_VERSION);
	if (st == 127 && p->hd[hd].lockstep_dir) {
		fprintf(o, "  lockstep: %s\n", deploy_last_line(out));
		return 1;
	}
	if (st == 126 || st == 127) {
		fprintf(o,
			"  lockstep: %s missing (lockstep run --push copies it)\n",
			exe);
		return 1;
	}
	if (st < 0 || st == 255) {
		fprintf(o, "  lockstep: %s: %s\n", exe,
			st < 0 ? strerror(-st) : deploy_last_line(out));
		return 1;
	}
	for (char *save = NULL, *l = strtok_r(out, "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save)) {
		char *f[6] = { 0 };
		int n = 0;

		if (strncmp(l, "lockstep ", 9) == 0 && !probed) {
			int same = strcmp(l, want) == 0;

			fprintf(o, "  lockstep: %s is %s%s\n", exe, l + 9,
				same ? " (this version)" :
				       ", not this version: lockstep run --push replaces it");
			problems += !same;
			probed = 1;
			if (!same) /* its probe, if any, is not ours */
				break;
			continue;
		}
		for (char *s2 = NULL, *w = strtok_r(l, "\t", &s2); w && n < 6;
		     w = strtok_r(NULL, "\t", &s2))
			f[n++] = w;
		if (n >= 2 && strcmp(f[0], "io_uring") == 0) {
			fprintf(o, "  io_uring: %s%s%s\n",
				strcmp(f[1], "yes") ? "NO" : "yes",
				n > 2 ? ", " : "", n > 2 ? f[2] : "");
			problems += strcmp(f[1], "yes") != 0;
		} else if (n == 2 && strcmp(f[0], "cores") == 0) {
			fprintf(o, "  cores: %s\n", f[1]);
		} else if (n >= 5 && strcmp(f[0], "target") == 0) {
			int refused = strcmp(f[4], "refused") == 0;
			int sized = strcmp(f[2], "file") == 0 ||
				    strcmp(f[2], "block") == 0;

			fprintf(o, "  target %s: %s%s%s, %s%s%s\n", f[1], f[2],
				sized ? " " : "",
				sized ? units_fmt_iec(strtoull(f[3], NULL, 10),
						      size, sizeof(size)) :
					"",
				refused ? "REFUSED" : f[4],
				n > 5 && f[5][0] ? ": " : "",
				n > 5 ? f[5] : "");
			problems += refused;
		} else if (probed) {
			fprintf(o,
				"  probe: %s (needs this version: lockstep run --push)\n",
				l);
			problems++;
			break;
		}
	}
	/* A binary that printed no version (lockstep=/bin/true) is not one. */
	if (!probed) {
		fprintf(o,
			"  lockstep: %s printed no version line (is it lockstep? lockstep run --push copies it)\n",
			exe);
		problems++;
	}
	return problems;
}

/* One host's report, written by any thread of deploy_each(). */
struct host_job {
	const struct params *p;
	size_t i;
	const char *ssh;
	const unsigned char *writes;
	char *text; /* the report's lines */
	size_t len;
	int bad;
};

static void check_host(struct host_job *j, FILE *o)
{
	const struct params_hd *hd = &j->p->hd[j->i];
	const struct deploy_host h = { j->ssh, hd->user, hd->system };
	struct host_check c = { 0 };

	fprintf(o, "hd=%s (%s%s%s)", hd->name, hd->user, hd->user[0] ? "@" : "",
		hd->system);
	if (hd->shell == PARAMS_SHELL_NONE) {
		fprintf(o,
			": shell=none, its slaves are started elsewhere: not checked\n");
		return;
	}
	check_ssh(&h, &c);
	if (!c.ssh_ok) {
		fprintf(o, ": UNREACHABLE: %s\n", c.why);
		j->bad = 1;
		return;
	}
	fprintf(o, ": ssh ok, kernel %s", c.kernel);
	if (c.have_clock)
		fprintf(o, ", clock %+.3f ms (+- %.3f ms) from the master\n",
			(double)c.offset_ns / 1e6, (double)c.rtt_ns / 2e6);
	else
		fprintf(o, ", clock unknown (no date +%%s%%N there)\n");
	j->bad = check_binary(o, &h, j->p, j->i, j->writes) > 0;
}

static void host_job_run(size_t i, void *arg)
{
	struct host_job *j = (struct host_job *)arg + i;
	FILE *o = open_memstream(&j->text, &j->len);

	if (!o) {
		j->bad = 1;
		return;
	}
	check_host(j, o);
	fclose(o);
}

/*
 * Every hd=, up to DEPLOY_PARALLEL at a time (sixteen hosts, one of them
 * unreachable for ssh's 10 s, are not checked one after another), each
 * report printed whole and in hd= order once all are in. Returns how many
 * hosts are not ready.
 */
static int check_all(const struct params *p, const char *ssh,
		     const unsigned char *writes)
{
	struct host_job *job = calloc(p->nhd ? p->nhd : 1, sizeof(*job));
	int bad = 0;

	if (!job) {
		fprintf(stderr, "lockstep hosts: out of memory\n");
		return 1;
	}
	for (size_t i = 0; i < p->nhd; i++)
		job[i] = (struct host_job){
			.p = p, .i = i, .ssh = ssh, .writes = writes
		};
	deploy_each(p->nhd, host_job_run, job);
	for (size_t i = 0; i < p->nhd; i++) {
		struct host_job *j = &job[i];

		if (j->text)
			fputs(j->text, stdout);
		else
			printf("hd=%s: cannot be checked: out of memory\n",
			       p->hd[i].name);
		bad += j->bad;
		free(j->text);
	}
	fflush(stdout);
	free(job);
	return bad;
}

int hosts_main(int argc, char **argv)
{
	const char *ssh = NULL;
	char err[1024];
	struct params *p = NULL;
	unsigned char *writes;
	int args, ret, bad = 0;
	const struct opts_def defs[] = {
		{ "ssh", 0, OPTS_STRING, &ssh, .arg = "CMD",
		  .help = "the ssh command for hd= hosts (default ssh)" },
		{ "help", 'h', OPTS_HELP, NULL, .help = "this text" },
	};
	const struct opts_cmd cmd = {
		.prog = "lockstep hosts",
		.synopsis = "usage: lockstep hosts FILE [--ssh CMD]",
		.description =
			"Checks every hd= host of FILE without running I/O: ssh reaches it, the lockstep there (lockstep= or the PATH's) and its version, the kernel, io_uring and its features, the clock offset to this master (a round trip over ssh, +- half of it), its online cores, and each sd target: present, its size, and whether target safety would refuse it (the host's own rules, run by its lockstep).",
		.footer =
			"Exit 0 when every host is ready, 1 when one is not.\n",
		.width = 14,
		.defs = defs,
		.ndefs = sizeof(defs) / sizeof(defs[0]),
		.nargs = 1,
	};

	ret = opts_parse(&cmd, argc, argv, &args);
	if (ret)
		return ret > 0 ? LS_EXIT_OK : LS_EXIT_BAD_INPUT;
	if (params_parse_file(argv[args], &p, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s\n", err);
		return LS_EXIT_BAD_INPUT;
	}
	writes = calloc(p->nsd + 1, 1);
	if (!writes) {
		params_free(&p);
		return LS_EXIT_BAD_INPUT;
	}
	sd_writes(p, writes);
	if (!p->nhd)
		printf("%s: no hd= lines: the run's slaves are local\n",
		       argv[args]);
	bad = check_all(p, ssh, writes);
	free(writes);
	params_free(&p);
	return bad ? LS_EXIT_BAD_INPUT : LS_EXIT_OK;
}
