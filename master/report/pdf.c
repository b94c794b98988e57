/*
 * `lockstep report --pdf`: the page printed to DIR/report.pdf by a headless
 * Chromium found on PATH (the page's print stylesheet lays it out). The
 * browser runs in a process group of its own on a private profile that is
 * removed afterwards, for a bounded time; its whole group is killed when
 * it is done or late, so no helper of it outlives the command. It prints
 * to a temporary file of the folder, which becomes report.pdf only when it
 * is a PDF: the folder never holds half a report.pdf, and nothing else is
 * written anywhere but the profile.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "common/spawn.h"
#include "master/report/pdf.h"

extern char **environ;

/* The names a Chromium goes by, in the order they are looked for. */
static const char *const browsers[] = { "chromium", "chromium-browser" };

int pdf_find_browser(char *out, size_t outlen)
{
	const char *path = getenv("PATH");

	if (!path || !path[0])
		return -ENOENT;
	for (size_t b = 0; b < sizeof(browsers) / sizeof(browsers[0]); b++) {
		const char *p = path;

		while (*p) {
			size_t n = strcspn(p, ":");

			/*
			 * Absolute entries only: an empty or relative one
			 * would run a "chromium" of the current folder, as
			 * root on a storage host.
			 */
			if (n && p[0] == '/' &&
			    (size_t)snprintf(out, outlen, "%.*s/%s", (int)n, p,
					     browsers[b]) < outlen &&
			    access(out, X_OK) == 0)
				return 0;
			p += n;
			if (*p == ':')
				p++;
		}
	}
	return -ENOENT;
}

/* file:// and the absolute path, every byte but [A-Za-z0-9/._~-] as %XX. */
static int file_url(const char *abs, char *out, size_t outlen)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t o = 0;

	if (outlen < 8)
		return -ENAMETOOLONG;
	memcpy(out, "file://", 7);
	o = 7;
	for (const unsigned char *s = (const unsigned char *)abs; *s; s++) {
		int plain = (*s >= 'a' && *s <= 'z') ||
			    (*s >= 'A' && *s <= 'Z') ||
			    (*s >= '0' && *s <= '9') || strchr("/._~-", *s);

		if (o + 4 > outlen)
			return -ENAMETOOLONG;
		if (plain) {
			out[o++] = (char)*s;
		} else {
			out[o++] = '%';
			out[o++] = hex[*s >> 4];
			out[o++] = hex[*s & 15];
		}
	}
	out[o] = '\0';
	return 0;
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

/* The browser's last words (its log's end), for the error message. */
static void log_tail(const char *prof, char *out, size_t outlen)
{
	char path[PATH_MAX], buf[4096];
	ssize_t n;
	int fd;

	out[0] = '\0';
	snprintf(path, sizeof(path), "%s/chromium.log", prof);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return;
	if (lseek(fd, -(off_t)(sizeof(buf) - 1), SEEK_END) < 0)
		(void)lseek(fd, 0, SEEK_SET);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
		buf[--n] = '\0';
	/* The last line only: Chromium says a lot before it. */
	char *nl = strrchr(buf, '\n');

	snprintf(out, outlen, ": %s", nl ? nl + 1 : buf);
}

/*
 * Wait for pid up to secs seconds; then (or when it is done) kill its
 * group. Returns its wait status, or -ETIMEDOUT.
 */
static int wait_bounded(pid_t pid, unsigned secs)
{
	const struct timespec tick = { 0, 20 * 1000 * 1000 };
	struct timespec t0, now;
	int status = 0, ret = -ETIMEDOUT;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		pid_t w = waitpid(pid, &status, WNOHANG);

		if (w == pid) {
			ret = status;
			break;
		}
		if (w < 0 && errno != EINTR) {
			ret = -errno;
			break;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - t0.tv_sec >= (time_t)secs)
			break;
		nanosleep(&tick, NULL);
	}
	kill(-pid, SIGKILL);
	if (ret == -ETIMEDOUT)
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	return ret;
}

/* Whether path is a PDF (it begins with %PDF-). */
static int is_pdf(const char *path)
{
	char head[5];
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	ssize_t n;

	if (fd < 0)
		return 0;
	n = read(fd, head, sizeof(head));
	close(fd);
	return n == (ssize_t)sizeof(head) && !memcmp(head, "%PDF-", 5);
}

int pdf_print(const char *browser, const char *html, const char *dir, char *err,
	      size_t errlen)
{
	char abs[PATH_MAX], url[3 * PATH_MAX + 8], prof[PATH_MAX];
	char tmp[PATH_MAX], out[PATH_MAX], logp[PATH_MAX + 16];
	char profarg[PATH_MAX + 32], printarg[PATH_MAX + 32], tail[600];
	const char *tdir = getenv("TMPDIR");
	int fd, logfd, ret, st;
	pid_t pid;

	if (!realpath(html, abs)) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", html, strerror(-ret));
		return ret;
	}
	if (file_url(abs, url, sizeof(url)) < 0 ||
	    (size_t)snprintf(out, sizeof(out), "%s/report.pdf", dir) >=
		    sizeof(out) ||
	    (size_t)snprintf(tmp, sizeof(tmp), "%s/.report.pdf.XXXXXX", dir) >=
		    sizeof(tmp)) {
		snprintf(err, errlen, "%s: %s", dir, strerror(ENAMETOOLONG));
		return -ENAMETOOLONG;
	}
	if ((size_t)snprintf(prof, sizeof(prof), "%s/lockstep-pdf.XXXXXX",
			     tdir && tdir[0] == '/' ? tdir : "/tmp") >=
		    sizeof(prof) ||
	    !mkdtemp(prof)) {
		ret = -errno;
		snprintf(err, errlen, "a profile for %s: %s", browser,
			 strerror(-ret));
		return ret;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", dir, strerror(-ret));
		goto out_prof;
	}
	close(fd);
	snprintf(logp, sizeof(logp), "%s/chromium.log", prof);
	logfd = open(logp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (logfd < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", logp, strerror(-ret));
		goto out_tmp;
	}
	snprintf(profarg, sizeof(profarg), "--user-data-dir=%s", prof);
	snprintf(printarg, sizeof(printarg), "--print-to-pdf=%s", tmp);
	/* The page draws its charts on a timer: the virtual time budget
	   lets it finish before the print. */
	char *argv[] = { (char *)browser,
			 "--headless=new",
			 "--no-sandbox",
			 "--disable-gpu",
			 "--no-first-run",
			 "--no-default-browser-check",
			 "--disable-extensions",
			 "--hide-scrollbars",
			 profarg,
			 "--virtual-time-budget=5000",
			 "--no-pdf-header-footer",
			 printarg,
			 url,
			 NULL };

	pid = spawn_grouped(argv, environ, logfd, logfd);
	close(logfd);
	if (pid < 0) {
		ret = (int)pid;
		snprintf(err, errlen, "%s: %s", browser, strerror(-ret));
		goto out_tmp;
	}
	st = wait_bounded(pid, PDF_TIMEOUT_S);
	if (st == -ETIMEDOUT) {
		ret = st;
		snprintf(err, errlen, "%s did not print within %u s (killed)",
			 browser, PDF_TIMEOUT_S);
		goto out_tmp;
	}
	if (st < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0 || !is_pdf(tmp)) {
		log_tail(prof, tail, sizeof(tail));
		ret = -EIO;
		if (st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0)
			snprintf(err, errlen, "%s wrote no PDF%s", browser,
				 tail);
		else if (st >= 0 && WIFSIGNALED(st))
			snprintf(err, errlen, "%s died of signal %d%s", browser,
				 WTERMSIG(st), tail);
		else
			snprintf(err, errlen, "%s exited %d%s", browser,
				 st >= 0 && WIFEXITED(st) ? WEXITSTATUS(st) :
							    -1,
				 tail);
		goto out_tmp;
	}
	/* Readable like report.html (mkstemp made it 0600). */
	(void)chmod(tmp, 0644);
	if (rename(tmp, out) < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", out, strerror(-ret));
		goto out_tmp;
	}
	ret = 0;
	goto out_prof;
out_tmp:
	unlink(tmp);
out_prof:
	nftw(prof, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return ret;
}
