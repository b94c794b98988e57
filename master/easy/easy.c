/*
 * `lockstep easy FILE` (easy.h): learn each host's cores and each sd's
 * size with `lockstep probe` (over ssh for hd= hosts, as `lockstep hosts`
 * does; as a child process here without hd=), size and write the
 * parameter file (plan.c), print it, and run it as `lockstep run` would.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "common/exitcode.h"
#include "common/opts.h"
#include "common/timeutil.h"
#include "master/deploy/deploy.h"
#include "master/easy/easy.h"
#include "master/params/params.h"
#include "master/results/vdbench.h"
#include "master/run/run.h"

#define EASY_PROBE_S 30.0
#define EASY_RUN_ARGS 64

/* What the probe said of one host. */
struct probe_out {
	unsigned cores;
	uint64_t *bytes; /* per sd of the host, in the order asked */
	size_t n;
};

/* The probe's command line for host hd (or local, hd < 0), into *cmd. */
static int probe_cmd(const struct params *p, long hd, const char *exe,
		     char **cmd)
{
	size_t cap = 256 + 2 * PATH_MAX, len;
	char find[3 * PATH_MAX];

	for (size_t s = 0; s < p->nsd; s++)
		cap += strlen(p->sd[s].lun) + 16;
	*cmd = malloc(cap);
	if (!*cmd)
		return -ENOMEM;
	if (strpbrk(exe, "'\n")) {
		free(*cmd);
		return -EINVAL;
	}
	if (hd >= 0 && p->hd[hd].lockstep_dir) {
		if (vdbench_remote_exe(exe, find, sizeof(find)) < 0 ||
		    strlen(find) + 32 > cap) {
			free(*cmd);
			return -EINVAL;
		}
		len = (size_t)snprintf(*cmd, cap, "%s \"$x\" probe", find);
	} else {
		len = (size_t)snprintf(*cmd, cap, "'%s' probe", exe);
	}
	for (size_t s = 0; s < p->nsd && len < cap; s++) {
		const struct params_sd *sd = &p->sd[s];
		int on = hd < 0 || !sd->nhost;

		for (size_t k = 0; !on && k < sd->nhost; k++)
			on = sd->host[k] == (unsigned)hd;
		if (!on)
			continue;
		if (strpbrk(sd->lun, "'\n")) {
			free(*cmd);
			return -EINVAL;
		}
		len += (size_t)snprintf(*cmd + len, cap - len, " 'w%s:%s'",
					sd->force ? "f" : "", sd->lun);
	}
	return 0;
}

/* This machine's probe: /proc/self/exe probe ARGS, its output into out. */
static int probe_local(const struct params *p, char *out, size_t len)
{
	char *cmd = NULL, self[PATH_MAX];
	ssize_t sl = readlink("/proc/self/exe", self, sizeof(self) - 1);
	int pfd[2], st, ret;
	size_t used = 0;
	pid_t pid;

	if (sl <= 0 || (size_t)sl >= sizeof(self) - 1)
		return -ENOENT;
	self[sl] = 0;
	ret = probe_cmd(p, -1, self, &cmd);
	if (ret < 0)
		return ret;
	if (pipe2(pfd, O_CLOEXEC) < 0) {
		free(cmd);
		return -errno;
	}
	pid = fork();
	if (pid == 0) {
		dup2(pfd[1], 1);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	free(cmd);
	close(pfd[1]);
	if (pid < 0) {
		close(pfd[0]);
		return -errno;
	}
	while (used + 1 < len) {
		ssize_t n = read(pfd[0], out + used, len - 1 - used);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		used += (size_t)n;
	}
	out[used] = 0;
	close(pfd[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 255;
}

/*
 * Parse a probe's lines into *o; a target refused or missing (and not
 * created: no size=) is an error named in err. sds: the host's sds, in
 * the order asked.
 */
static int probe_parse(char *out, const struct params *p, const size_t *sds,
		       size_t n, const char *host, struct probe_out *o,
		       char *err, size_t errlen)
{
	size_t k = 0;

	o->cores = 0;
	for (char *save = NULL, *l = strtok_r(out, "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save)) {
		char *f[6] = { 0 };
		int nf = 0;

		for (char *s2 = NULL, *w = strtok_r(l, "\t", &s2); w && nf < 6;
		     w = strtok_r(NULL, "\t", &s2))
			f[nf++] = w;
		if (nf == 2 && strcmp(f[0], "cores") == 0) {
			long c = strtol(f[1], NULL, 10);

			o->cores = c > 0 && c < 1 << 20 ? (unsigned)c : 0;
		} else if (nf >= 5 && strcmp(f[0], "target") == 0 && k < n) {
			const struct params_sd *sd = &p->sd[sds[k]];
			uint64_t b = strtoull(f[3], NULL, 10);

			if (strcmp(f[4], "refused") == 0) {
				snprintf(err, errlen,
					 "sd=%s on %s: %s is refused: %s",
					 sd->name, host, sd->lun,
					 nf > 5 ? f[5] : "");
				return -EINVAL;
			}
			if (strcmp(f[2], "missing") == 0 && !sd->size) {
				snprintf(err, errlen,
					 "sd=%s on %s: %s is missing (give size= to have a file made)",
					 sd->name, host, sd->lun);
				return -EINVAL;
			}
			if (sd->size && (!b || sd->size < b))
				b = sd->size;
			o->bytes[k++] = b;
		}
	}
	if (k < n) {
		snprintf(err, errlen,
			 "%s: its lockstep probe answered for %zu of %zu targets (lockstep hosts FILE says why)",
			 host, k, n);
		return -EINVAL;
	}
	return 0;
}

/* What easy learned of every host and sd, and the storage it owns. */
struct learned {
	struct easy_host *h;
	struct easy_sd *sd;
	unsigned char *on; /* nh x nsd */
	char (*names)[PARAMS_NAME_MAX + 8];
	size_t nh;
};

static void learned_free(struct learned *L)
{
	free(L->h);
	free(L->sd);
	free(L->on);
	free(L->names);
}

/* One host's probe, run by deploy_each() beside the others. */
struct probe_job {
	const struct params *p;
	const char *ssh;
	size_t i;
	int run; /* it has sds to ask about */
	char *out;
	size_t outlen;
	int st; /* the probe's exit status, or -errno */
};

static void probe_job_run(size_t k, void *arg)
{
	struct probe_job *j = (struct probe_job *)arg + k;
	const struct params_hd *hd;
	struct deploy_host dh;
	char *cmd = NULL;

	if (!j->run)
		return;
	if (!j->p->nhd) {
		j->st = probe_local(j->p, j->out, j->outlen);
		return;
	}
	hd = &j->p->hd[j->i];
	dh = (struct deploy_host){ j->ssh, hd->user, hd->system };
	j->st = probe_cmd(j->p, (long)j->i,
			  hd->lockstep[0] ? hd->lockstep : "lockstep", &cmd);
	if (j->st == 0)
		j->st = deploy_run(&dh, cmd, -1, j->out, j->outlen,
				   EASY_PROBE_S);
	free(cmd);
}

/*
 * Which sds each host runs (L->on), then every host's probe, up to
 * DEPLOY_PARALLEL at a time (as lockstep hosts: 64 hosts are not asked
 * one after another), then their answers, in hd= order.
 */
static int learn(const struct params *p, const char *ssh, unsigned nlocal,
		 struct learned *L, char *err, size_t errlen)
{
	size_t nh = p->nhd ? p->nhd : 1, *sds;
	size_t outlen = 4096 + 512 * p->nsd;
	uint64_t *bytes;
	struct probe_job *job;
	int ret = 0;

	L->nh = nh;
	L->h = calloc(nh, sizeof(*L->h));
	L->sd = calloc(p->nsd, sizeof(*L->sd));
	L->on = calloc(nh * p->nsd, 1);
	L->names = calloc(nh, sizeof(*L->names));
	sds = calloc(p->nsd, sizeof(*sds));
	bytes = calloc(p->nsd, sizeof(*bytes));
	job = calloc(nh, sizeof(*job));
	for (size_t i = 0; job && i < nh; i++) {
		job[i] = (struct probe_job){
			.p = p, .ssh = ssh, .i = i, .outlen = outlen
		};
		job[i].out = malloc(outlen);
		if (!job[i].out)
			ret = -ENOMEM;
	}
	if (ret || !L->h || !L->sd || !L->on || !L->names || !sds || !bytes ||
	    !job) {
		snprintf(err, errlen, "out of memory");
		ret = -ENOMEM;
	}
	for (size_t s = 0; !ret && s < p->nsd; s++) {
		L->sd[s].name = p->sd[s].name;
		L->sd[s].on = L->on + s * nh;
		L->sd[s].bytes = UINT64_MAX;
	}
	for (size_t i = 0; !ret && i < nh; i++) {
		const struct params_hd *hd = p->nhd ? &p->hd[i] : NULL;

		snprintf(L->names[i], sizeof(L->names[i]), "%s%s",
			 hd ? "hd=" : "", hd ? hd->name : "this machine");
		L->h[i].name = L->names[i];
		L->h[i].slaves = hd ? hd->slaves : nlocal;
		for (size_t s = 0; s < p->nsd; s++) {
			int on = !hd || !p->sd[s].nhost;

			for (size_t k = 0; !on && k < p->sd[s].nhost; k++)
				on = p->sd[s].host[k] == i;
			if (on && L->h[i].slaves) {
				L->on[s * nh + i] = 1;
				job[i].run = 1;
			}
		}
		if (job[i].run && hd && hd->shell == PARAMS_SHELL_NONE) {
			snprintf(err, errlen,
				 "hd=%s has shell=none: easy cannot ask it for its cores and targets",
				 hd->name);
			ret = -EINVAL;
		}
	}
	if (!ret)
		deploy_each(nh, probe_job_run, job);
	for (size_t i = 0; !ret && i < nh; i++) {
		struct probe_out po = { .bytes = bytes };
		size_t n = 0;

		if (!job[i].run)
			continue;
		if (job[i].st != 0) {
			snprintf(err, errlen,
				 "%s: its lockstep probe failed (%s); lockstep hosts FILE says why",
				 L->h[i].name,
				 job[i].st < 0 ? strerror(-job[i].st) :
						 "exit status");
			ret = -EINVAL;
			break;
		}
		for (size_t s = 0; s < p->nsd; s++)
			if (L->on[s * nh + i])
				sds[n++] = s;
		ret = probe_parse(job[i].out, p, sds, n, L->h[i].name, &po, err,
				  errlen);
		L->h[i].cores = po.cores;
		for (size_t k = 0; !ret && k < n; k++)
			if (bytes[k] < L->sd[sds[k]].bytes)
				L->sd[sds[k]].bytes = bytes[k];
	}
	for (size_t s = 0; !ret && s < p->nsd; s++)
		if (L->sd[s].bytes == UINT64_MAX) {
			snprintf(err, errlen, "sd=%s runs on no host's slave",
				 p->sd[s].name);
			ret = -EINVAL;
		}
	for (size_t i = 0; job && i < nh; i++)
		free(job[i].out);
	free(job);
	free(sds);
	free(bytes);
	return ret;
}

/* FILE's text, then the generated lines, into path. */
static int write_file(const char *path, const char *src, struct learned *L,
		      const struct params *p, const struct easy_opts *o,
		      unsigned threads)
{
	FILE *in = fopen(src, "re"), *f = fopen(path, "wxe");
	char buf[8192], stamp[64];
	size_t n, last = '\n';
	time_t now = time(NULL);
	int ret = 0;

	if (!in || !f) {
		ret = -errno;
		goto out;
	}
	strftime(stamp, sizeof(stamp), "%Y-%m-%d %H:%M:%S", localtime(&now));
	fprintf(f, "* generated by lockstep easy from %s at %s\n", src, stamp);
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0) {
		fwrite(buf, 1, n, f);
		last = (unsigned char)buf[n - 1];
	}
	if (last != '\n')
		fputc('\n', f);
	ret = ferror(in) ?
		      -EIO :
		      easy_write(f, L->h, L->nh, L->sd, p->nsd, o, threads);
out:
	if (in)
		fclose(in);
	if (f && fclose(f) != 0 && !ret)
		ret = -EIO;
	return ret;
}

static int print_file(const char *path)
{
	FILE *f = fopen(path, "re");
	char buf[8192];
	size_t n;

	if (!f)
		return -errno;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, n, stdout);
	fclose(f);
	return fflush(stdout) == 0 ? 0 : -EIO;
}

int easy_main(int argc, char **argv, const char *const *engines)
{
	struct easy_opts o = {
		.slo = "p99:5ms",
		.sloprecision = 5,
		.elapsed_s = 300,
		.warmup_max_s = 1800,
		.interval_s = 5,
		.ws_pct = 100,
		.prepare = 1,
	};
	const char *ssh = NULL, *dir = NULL;
	unsigned nlocal = 2, threads;
	int args, ret, print = 0, noprep = 0;
	char err[1024], tmp[] = "/tmp/lockstep-easy.XXXXXX",
			path[sizeof(tmp) + 16], defdir[96], stamp[32], nl[16],
			kept[PATH_MAX + 16];
	char *run[EASY_RUN_ARGS];
	int nrun = 0;
	struct params *p = NULL;
	struct learned L = { 0 };
	const struct opts_def defs[] = {
		{ "slo", 0, OPTS_STRING, &o.slo, .max = 24, .arg = "pPCT:TIME",
		  .help = "the latency objective of every search: p99:5ms (default), p99.9:10ms, mean:1ms" },
		{ "precision", 0, OPTS_SECONDS, &o.sloprecision, 0, 50,
		  .arg = "PCT",
		  .help = "each search stops when its bracket is this narrow, in % of its max rate (default 5)" },
		{ "elapsed", 0, OPTS_SECONDS, &o.elapsed_s, 0, 1e7,
		  OPTS_UNITS | OPTS_POSITIVE, .arg = "TIME",
		  .help = "measured time of every phase (default 5m)" },
		{ "warmup-max", 0, OPTS_SECONDS, &o.warmup_max_s, 0, 1e7,
		  OPTS_UNITS | OPTS_POSITIVE, .arg = "TIME",
		  .help = "the longest warmup of a phase; it ends once steady (default 30m)" },
		{ "interval", 0, OPTS_SECONDS, &o.interval_s, 0, 1e7,
		  OPTS_UNITS | OPTS_POSITIVE, .arg = "TIME",
		  .help = "reporting interval, one steady-state round (default 5)" },
		{ "working-set", 0, OPTS_UINT, &o.ws_pct, 1, 100, .arg = "PCT",
		  .help = "the part of each sd the I/O covers (default 100)" },
		{ "no-prepare", 0, OPTS_FLAG, &noprep,
		  .help = "do not write the working set once before the first profile" },
		{ "local-slaves", 0, OPTS_UINT, &nlocal, 1, 256, .arg = "N",
		  .help = "slaves on this machine when FILE has no hd= (default 2)" },
		{ "ssh", 0, OPTS_STRING, &ssh, .arg = "CMD",
		  .help = "the ssh command for hd= hosts (default ssh)" },
		{ "output", 'o', OPTS_STRING, &dir, .arg = "DIR",
		  .help = "results folder (default lockstep-output/easy-STAMP)" },
		{ "print", 0, OPTS_FLAG, &print,
		  .help = "print the parameter file and stop" },
		{ "help", 'h', OPTS_HELP, NULL, .help = "this text" },
	};
	const struct opts_cmd cmd = {
		.prog = "lockstep easy",
		.synopsis =
			"usage: lockstep easy FILE [options] [-- run options]",
		.description =
			"HCIBench's Easy Run, with answers. FILE names the cluster only: hd= hosts and sd= targets, as for lockstep run (no wd=, rd= or ev=). easy asks every host, with the probe lockstep hosts runs, for its cores and the size of each target, then writes a parameter file of the four standard profiles (4k 70% read random, 4k 100% read random, 8k 50% read random, 256k 100% write sequential): one wd= and one rd= each, every rd an SLO search (iorate=slo: the highest cluster rate whose objective holds) after a warmup until the cluster and every slave are steady (SNIA PTS), with threads= at 8 I/Os in flight a core (HCIBench's ratio) and the working set written once first. It prints the file, runs it as lockstep run does (options after -- go to the run), and the results folder keeps it as easy.vdb to edit and rerun with lockstep run.",
		.footer = "Exit as lockstep run; 0 after --print.\n",
		.width = 21,
		.defs = defs,
		.ndefs = sizeof(defs) / sizeof(defs[0]),
		.nargs = -1,
	};

	ret = opts_parse(&cmd, argc, argv, &args);
	if (ret)
		return ret > 0 ? LS_EXIT_OK : LS_EXIT_BAD_INPUT;
	o.prepare = !noprep;
	if (strpbrk(o.slo, ",() \t\n'\"")) {
		fprintf(stderr, "lockstep easy: --slo '%s' is not pPCT:TIME\n",
			o.slo);
		return LS_EXIT_BAD_INPUT;
	}
	if (o.sloprecision < 0.5) {
		fprintf(stderr, "lockstep easy: --precision wants 0.5..50\n");
		return LS_EXIT_BAD_INPUT;
	}
	ret = params_parse_file_flags(argv[args], PARAMS_CLUSTER, &p, err,
				      sizeof(err));
	if (ret == 0 && !p->nsd) {
		snprintf(err, sizeof(err), "%s: no sd=: name the targets",
			 argv[args]);
		ret = -EINVAL;
	} else if (ret == 0 && p->nfiles > 1) {
		snprintf(err, sizeof(err),
			 "%s: include= in a cluster file: write its lines in the file (easy copies the file, not what it includes)",
			 argv[args]);
		ret = -EINVAL;
	}
	if (ret == 0 && learn(p, ssh, nlocal, &L, err, sizeof(err)) < 0)
		ret = -EINVAL;
	if (ret < 0) {
		fprintf(stderr, "lockstep easy: %s\n", err);
		goto out;
	}
	threads = easy_threads(L.h, L.nh, L.sd, p->nsd);
	if (!mkdtemp(tmp)) {
		ret = -errno;
		fprintf(stderr, "lockstep easy: %s: %s\n", tmp, strerror(-ret));
		goto out;
	}
	snprintf(path, sizeof(path), "%s/easy.vdb", tmp);
	ret = write_file(path, argv[args], &L, p, &o, threads);
	if (ret == 0) {
		/* An option's value the language refuses (--slo) stops here. */
		struct params *chk = NULL;

		if (params_parse_file(path, &chk, err, sizeof(err)) < 0) {
			fprintf(stderr,
				"lockstep easy: the file it wrote is refused (an option's value?): %s\n",
				err);
			ret = -EINVAL;
			goto done;
		}
		params_free(&chk);
		ret = print_file(path);
	}
	if (ret < 0) {
		fprintf(stderr, "lockstep easy: cannot write %s: %s\n", path,
			strerror(-ret));
	} else if (!print) {
		if (!dir) {
			snprintf(defdir, sizeof(defdir),
				 "lockstep-output/easy-%s",
				 time_fmt_stamp(time_real_ns(), stamp,
						sizeof(stamp)));
			dir = defdir;
		}
		run[nrun++] = "run";
		run[nrun++] = "-o";
		run[nrun++] = (char *)dir;
		if (ssh) {
			run[nrun++] = "--ssh";
			run[nrun++] = (char *)ssh;
		}
		if (!p->nhd) {
			snprintf(nl, sizeof(nl), "%u", nlocal);
			run[nrun++] = "--local-slaves";
			run[nrun++] = nl;
		}
		for (int i = args + 1; i < argc && nrun < EASY_RUN_ARGS - 2;
		     i++)
			run[nrun++] = argv[i];
		run[nrun++] = path;
		run[nrun] = NULL;
		fflush(stdout);
		ret = master_main(nrun, run, engines);
		if (snprintf(kept, sizeof(kept), "%s/easy.vdb", dir) <
			    (int)sizeof(kept) &&
		    access(kept, F_OK) == 0)
			fprintf(stderr,
				"lockstep easy: the parameter file is %s: edit it and rerun with lockstep run %s\n",
				kept, kept);
		else
			fprintf(stderr,
				"lockstep easy: the run kept no copy of the file (it is printed above)\n");
	}
done:
	unlink(path);
	rmdir(tmp);
out:
	learned_free(&L);
	params_free(&p);
	if (ret < 0)
		return LS_EXIT_BAD_INPUT;
	return print ? LS_EXIT_OK : ret;
}
