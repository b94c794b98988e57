/*
 * Unit tests for the names and paths a peer supplies (common/fsutil.c):
 * which slave and host names are accepted, the same rule for hd= names in
 * a parameter file (with its FILE:LINE:COLUMN error), and the join that
 * keeps hosts/<name>.csv inside the results folder. Table-driven.
 */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include "common/fsutil.h"
#include "master/params/params.h"

static void test_name_ok(void **state)
{
	static const struct {
		const char *name;
		int ok;
	} t[] = {
		{ "local-1", 1 },
		{ "esx1.lab_2", 1 },
		{ "A", 1 },
		{ "h-3.example.com", 1 },
		{ "x.", 1 },
		{ "", 0 },
		{ ".", 0 },
		{ "..", 0 },
		{ ".hidden", 0 },
		{ "../../../../tmp/x", 0 },
		{ "a/b", 0 },
		{ "a\\b", 0 },
		{ "a b", 0 },
		{ "a\nb", 0 },
		{ "red\x1b[31m", 0 },
		{ "caf\xc3\xa9", 0 },
		{ "a:b", 0 },
		{ "*", 0 },
		/* 63 bytes: the most; 64: one too many. */
		{ "123456789012345678901234567890123456789012345678901234567890123",
		  1 },
		{ "1234567890123456789012345678901234567890123456789012345678901234",
		  0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (fsutil_name_ok(t[i].name) != t[i].ok)
			fail_msg("'%s': %d, want %d", t[i].name,
				 fsutil_name_ok(t[i].name), t[i].ok);
	assert_false(fsutil_name_ok(NULL));
}

static void test_join_inside(void **state)
{
	static const struct {
		const char *rel;
		int rc;
		const char *want;
	} t[] = {
		{ "hosts/local-1.csv", 0, "/r/out/hosts/local-1.csv" },
		{ "summary.json", 0, "/r/out/summary.json" },
		{ "a..b/c", 0, "/r/out/a..b/c" },
		{ "hosts/../../../../tmp/x.csv", -EINVAL, NULL },
		{ "../x", -EINVAL, NULL },
		{ "..", -EINVAL, NULL },
		{ "hosts/..", -EINVAL, NULL },
		{ "./x", -EINVAL, NULL },
		{ "/etc/passwd", -EINVAL, NULL },
		{ "", -EINVAL, NULL },
		{ "hosts//x", -EINVAL, NULL },
		{ "hosts/", -EINVAL, NULL },
	};
	char out[64];

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		int rc = fsutil_join_inside("/r/out", t[i].rel, out,
					    sizeof(out));

		if (rc != t[i].rc)
			fail_msg("'%s': %d, want %d", t[i].rel, rc, t[i].rc);
		if (t[i].want)
			assert_string_equal(out, t[i].want);
	}
	/* A result that does not fit is refused, never cut short. */
	assert_int_equal(fsutil_join_inside("/r/out", "hosts/x.csv", out, 12),
			 -ENAMETOOLONG);
	assert_int_equal(fsutil_join_inside("/r/out", NULL, out, sizeof(out)),
			 -EINVAL);
}

/* hd= names follow the slave-name rule, with the file's position. */
static void test_hd_names(void **state)
{
	static const struct {
		const char *hd;
		const char *err; /* NULL: parses */
	} t[] = {
		{ "esx1", NULL },
		{ "host-2.lab", NULL },
		{ "a:b", "t.vdb:1:4: hd=a:b: a host name is" },
		{ ".x", "t.vdb:1:4: hd=.x" },
		{ "caf\xc3\xa9", "t.vdb:1:4: hd=" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		char text[512], err[512] = "";
		struct params *p = NULL;
		int rc;

		snprintf(text, sizeof(text),
			 "hd=%s,system=10.0.0.1\n"
			 "sd=sd1,lun=/tmp/x,size=1m\n"
			 "wd=wd1,sd=sd1,xfersize=4k\n"
			 "rd=r1,wd=wd1,elapsed=1,interval=1\n",
			 t[i].hd);
		rc = params_parse_string("t.vdb", text, &p, err, sizeof(err));
		if (!t[i].err) {
			if (rc != 0)
				fail_msg("hd=%s: %s", t[i].hd, err);
			params_free(&p);
			continue;
		}
		assert_int_equal(rc, -EINVAL);
		if (strncmp(err, t[i].err, strlen(t[i].err)) != 0)
			fail_msg("hd=%s: '%s', want '%s...'", t[i].hd, err,
				 t[i].err);
	}
}

static int fill_text(FILE *f, void *arg)
{
	fputs(arg, f);
	return 0;
}

static int fill_fail(FILE *f, void *arg)
{
	(void)arg;
	fputs("half", f);
	return -ENOSPC;
}

/* A file written whole or not at all, and no temporary left either way. */
static void test_write_atomic(void **state)
{
	char dir[] = "/tmp/ls-atomic-XXXXXX", path[256], buf[64];
	struct dirent *de;
	unsigned n = 0;
	FILE *f;
	DIR *d;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/out.txt", dir);
	assert_int_equal(fsutil_write_atomic(path, 1, fill_text, "one"), 0);
	assert_int_equal(fsutil_write_atomic(path, 0, fill_fail, NULL),
			 -ENOSPC);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	assert_string_equal(buf, "one");
	d = opendir(dir);
	assert_non_null(d);
	while ((de = readdir(d)))
		n += de->d_name[0] != '.' || strlen(de->d_name) > 2;
	closedir(d);
	assert_int_equal(n, 1);
	/* Not a regular file (or a link): refused, left alone. */
	snprintf(path, sizeof(path), "%s/sub", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	assert_int_equal(fsutil_write_atomic(path, 1, fill_text, "x"), -EEXIST);
	assert_int_equal(rmdir(path), 0);
	snprintf(path, sizeof(path), "%s/out.txt", dir);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_name_ok),
		cmocka_unit_test(test_join_inside),
		cmocka_unit_test(test_write_atomic),
		cmocka_unit_test(test_hd_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
