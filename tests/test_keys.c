/*
 * Unit tests for common/keys.c: Z85 keys, the authorized-slaves file
 * (good, comments, names, bad keys, long lines, duplicates), the name
 * decision, ssh's permission rule on real files, and key files that are
 * written 0600 and never overwritten.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include "common/keys.h"

/* The key pairs of libzmq's CURVE documentation: valid Z85 keys. */
#define PUB_A "Yne@$w-vo<fVvi]a<NY6T1ed:M$fCG*[IaLV{hID"
#define SEC_A "D:)Q[IlAW!ahhC2ac:9*A}h:p?([4%wOTJ%JR%cs"
#define PUB_B "rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7"
#define SEC_B "JTKVSB%%)wK0E.X)V>+}o?pNmC{O&4W4b!Ni{Lh6"

static char dir[64];

static int setup_dir(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/test_keys.XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown_dir(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void write_file(const char *path, const char *text, mode_t mode)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	assert_int_equal(chmod(path, mode), 0);
}

static void test_z85(void **state)
{
	(void)state;
	assert_true(keys_z85_valid(PUB_A, 40));
	assert_true(keys_z85_valid(SEC_B, 40));
	assert_false(keys_z85_valid(PUB_A, 39));
	assert_false(keys_z85_valid("", 0));
	/* '"' and '~' are not in the Z85 alphabet. */
	assert_false(keys_z85_valid("\"ne@$w-vo<fVvi]a<NY6T1ed:M$fCG*[IaLV{hID",
				    40));
	assert_false(
		keys_z85_valid("~ne@$w-vo<fVvi]a<NY6T1ed:M$fCG*[IaLV{hID", 40));
	/* "#####" is 85^5 - 1, more than 32 bits: not a Z85 encoding. */
	assert_false(
		keys_z85_valid("#####w-vo<fVvi]a<NY6T1ed:M$fCG*[IaLV{hID", 40));
}

static void test_name_valid(void **state)
{
	char long_name[80];

	(void)state;
	assert_true(keys_name_valid("local-1", 7));
	assert_true(keys_name_valid("h1.rack_2", 9));
	assert_false(keys_name_valid(".hidden", 7));
	assert_false(keys_name_valid("../x", 4));
	assert_false(keys_name_valid("a b", 3));
	assert_false(keys_name_valid("a\nb", 3));
	assert_false(keys_name_valid("", 0));
	memset(long_name, 'a', sizeof(long_name));
	assert_true(keys_name_valid(long_name, KEYS_NAME_LEN - 1));
	assert_false(keys_name_valid(long_name, KEYS_NAME_LEN));
}

static void test_parse_key(void **state)
{
	char out[KEYS_Z85_LEN + 1], err[256];
	const char *ok = "# a comment\n\n  " PUB_A "  \r\n";

	(void)state;
	assert_int_equal(keys_parse_key(ok, strlen(ok), out, err, sizeof(err)),
			 0);
	assert_string_equal(out, PUB_A);
	assert_int_equal(keys_parse_key("nonsense\n", 9, out, err, sizeof(err)),
			 -EINVAL);
	/* The message never repeats what was in the file. */
	assert_null(strstr(err, "nonsense"));
	assert_int_equal(keys_parse_key("# only\n", 7, out, err, sizeof(err)),
			 -EINVAL);
	assert_int_equal(keys_parse_key(PUB_A " extra", 46, out, err,
					sizeof(err)),
			 -EINVAL);
}

static void test_authorized_good(void **state)
{
	struct keys_authorized a;
	char err[256] = "";
	const char *text = "# slaves of the lab\n"
			   "\n" PUB_A " h1 h2,h3  # rack 1\n"
			   "   " PUB_B "\n"
			   "# the end";

	(void)state;
	assert_int_equal(keys_authorized_parse(text, strlen(text), "auth", &a,
					       err, sizeof(err)),
			 0);
	assert_int_equal(a.n, 2);
	assert_string_equal(a.e[0].key, PUB_A);
	assert_int_equal(a.e[0].nnames, 3);
	assert_string_equal(a.e[0].names[2], "h3");
	assert_int_equal(a.e[0].line, 3);
	assert_int_equal(a.e[1].nnames, 0);
	assert_int_equal(keys_authorized_find(&a, PUB_B), 1);
	assert_int_equal(keys_authorized_find(&a, SEC_A), -1);
	keys_authorized_free(&a);
	assert_int_equal(a.n, 0);
}

/* Each bad file and the FILE:LINE:COLUMN its error must start with. */
static void test_authorized_bad(void **state)
{
	static const struct {
		const char *text;
		const char *where;
		const char *what;
	} cases[] = {
		{ PUB_A "\nnot-a-key h1\n", "auth:2:1: ", "not a CURVE" },
		{ PUB_A "x h1\n", "auth:1:1: ", "not a CURVE" },
		{ "  " PUB_A "\n" PUB_B "\n" PUB_A " h9\n",
		  "auth:3:1: ", "listed already at line 1" },
		{ PUB_A " h1 ../etc\n", "auth:1:45: ", "not a slave name" },
		{ PUB_A " .h1\n", "auth:1:42: ", "not a slave name" },
		{ PUB_A " h\x1b[2J\n", "auth:1:42: ", "not a slave name" },
	};
	char err[512];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct keys_authorized a;

		err[0] = 0;
		assert_int_equal(keys_authorized_parse(cases[i].text,
						       strlen(cases[i].text),
						       "auth", &a, err,
						       sizeof(err)),
				 -EINVAL);
		if (strncmp(err, cases[i].where, strlen(cases[i].where)) ||
		    !strstr(err, cases[i].what))
			fail_msg("case %zu: '%s'", i, err);
		assert_int_equal(a.n, 0);
	}
}

static void test_authorized_limits(void **state)
{
	struct keys_authorized a;
	size_t len = KEYS_MAX_LINE + 100;
	char *text = malloc(len + 1), err[256];
	char nul[] = PUB_A " h1\0x\n";

	(void)state;
	assert_non_null(text);
	memcpy(text, PUB_A, 40);
	memset(text + 40, ' ', len - 40);
	text[len] = 0;
	assert_int_equal(keys_authorized_parse(text, len, "auth", &a, err,
					       sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "auth:1:1: line longer than"));
	free(text);
	assert_int_equal(keys_authorized_parse(nul, sizeof(nul) - 1, "auth", &a,
					       err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "auth:1:44: a NUL byte"));
}

static void test_name_allowed(void **state)
{
	struct keys_authorized a;
	const char *text = PUB_A " h1 h2\n" PUB_B "\n";
	char err[256];

	(void)state;
	assert_int_equal(keys_authorized_parse(text, strlen(text), "auth", &a,
					       err, sizeof(err)),
			 0);
	assert_true(keys_name_allowed(&a, PUB_A, "h1"));
	assert_true(keys_name_allowed(&a, PUB_A, "h2"));
	assert_false(keys_name_allowed(&a, PUB_A, "h3"));
	/* A key without names: any name no key lists. */
	assert_true(keys_name_allowed(&a, PUB_B, "h3"));
	assert_false(keys_name_allowed(&a, PUB_B, "h1"));
	/* Unlisted, or no key at all (a plain connection). */
	assert_false(keys_name_allowed(&a, SEC_A, "h3"));
	assert_false(keys_name_allowed(&a, "", "h3"));
	/* A launched slave's key, bound to its name at run time. */
	assert_int_equal(keys_authorized_add(&a, SEC_B, "local-1"), 0);
	assert_int_equal(keys_authorized_add(&a, SEC_B, "local-2"), -EEXIST);
	assert_int_equal(keys_authorized_add(&a, "short", NULL), -EINVAL);
	assert_int_equal(keys_authorized_add(&a, SEC_A, "../x"), -EINVAL);
	assert_true(keys_name_allowed(&a, SEC_B, "local-1"));
	assert_false(keys_name_allowed(&a, PUB_B, "local-1"));
	assert_false(keys_name_allowed(&a, SEC_B, "local-2"));
	/* Bound names (refused on a plain port under --insecure). */
	assert_true(keys_name_bound(&a, "local-1"));
	assert_true(keys_name_bound(&a, "h2"));
	assert_false(keys_name_bound(&a, "local-2"));
	assert_false(keys_name_bound(&a, "local-"));
	keys_authorized_free(&a);
}

static void test_mode_problem(void **state)
{
	(void)state;
	assert_int_equal(keys_mode_problem(S_IFREG | 0600, 1), 0);
	assert_int_equal(keys_mode_problem(S_IFREG | 0400, 1), 0);
	assert_int_equal(keys_mode_problem(S_IFREG | 0640, 1), 040);
	assert_int_equal(keys_mode_problem(S_IFREG | 0604, 1), 04);
	assert_int_equal(keys_mode_problem(S_IFREG | 0644, 0), 0);
	assert_int_equal(keys_mode_problem(S_IFREG | 0664, 0), 020);
	assert_int_equal(keys_mode_problem(S_IFREG | 0646, 0), 02);
}

static void test_load_permissions(void **state)
{
	char path[128], pub[128], err[512], key[KEYS_Z85_LEN + 1];
	struct keys_pair kp;

	(void)state;
	snprintf(path, sizeof(path), "%s/s.key", dir);
	snprintf(pub, sizeof(pub), "%s/s.pub", dir);
	write_file(path, SEC_A "\n", 0644);
	assert_int_equal(keys_load_secret(path, &kp, err, sizeof(err)), -EPERM);
	assert_non_null(strstr(err, path));
	assert_non_null(strstr(err, "mode 0644"));
	assert_null(strstr(err, SEC_A));
	assert_int_equal(chmod(path, 0600), 0);
	assert_int_equal(keys_load_secret(path, &kp, err, sizeof(err)), 0);
	assert_string_equal(kp.secret, SEC_A);
	/* The public key is derived: the documentation's pair matches. */
	assert_string_equal(kp.public, PUB_A);
	write_file(pub, PUB_B "\n", 0666);
	assert_int_equal(keys_load_public(pub, key, err, sizeof(err)), -EPERM);
	assert_non_null(strstr(err, "mode 0666"));
	assert_int_equal(chmod(pub, 0644), 0);
	assert_int_equal(keys_load_public(pub, key, err, sizeof(err)), 0);
	assert_string_equal(key, PUB_B);
	snprintf(path, sizeof(path), "%s/missing", dir);
	assert_true(keys_load_public(path, key, err, sizeof(err)) == -ENOENT);
	assert_int_equal(keys_load_public(dir, key, err, sizeof(err)), -EINVAL);
}

static void test_write_pair(void **state)
{
	char path[128], err[512], text[128];
	struct keys_pair kp, again, back;
	struct stat st;
	FILE *f;

	(void)state;
	assert_int_equal(keys_generate(&kp), 0);
	assert_true(keys_z85_valid(kp.public, strlen(kp.public)));
	assert_int_equal(keys_write_pair(dir, "n1", &kp, err, sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/n1.key", dir);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	assert_int_equal(keys_load_secret(path, &back, err, sizeof(err)), 0);
	assert_string_equal(back.public, kp.public);
	snprintf(path, sizeof(path), "%s/n1.pub", dir);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);
	/* Never overwritten: the old key stays. */
	assert_int_equal(keys_generate(&again), 0);
	assert_int_equal(keys_write_pair(dir, "n1", &again, err, sizeof(err)),
			 -EEXIST);
	assert_non_null(strstr(err, "never overwritten"));
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(text, sizeof(text), f));
	fclose(f);
	assert_memory_equal(text, kp.public, KEYS_Z85_LEN);
	/* A .pub in the way: no half pair is left behind. */
	snprintf(path, sizeof(path), "%s/n2.pub", dir);
	write_file(path, "x\n", 0644);
	assert_int_equal(keys_write_pair(dir, "n2", &kp, err, sizeof(err)),
			 -EEXIST);
	snprintf(path, sizeof(path), "%s/n2.key", dir);
	assert_int_equal(access(path, F_OK), -1);
	/* A symlink where the key goes is not followed. */
	snprintf(path, sizeof(path), "%s/n3.key", dir);
	snprintf(text, sizeof(text), "%s/elsewhere", dir);
	assert_int_equal(symlink(text, path), 0);
	assert_int_equal(keys_write_pair(dir, "n3", &kp, err, sizeof(err)),
			 -EEXIST);
	assert_int_equal(access(text, F_OK), -1);
	assert_int_equal(keys_write_pair(dir, "../n4", &kp, err, sizeof(err)),
			 -EINVAL);
}

static void test_triplet(void **state)
{
	struct keys_pair own;
	char master[KEYS_Z85_LEN + 1], err[256];
	const char *good = SEC_A "\n" PUB_A "\n" PUB_B "\nrest";
	int p[2];

	(void)state;
	assert_int_equal(pipe(p), 0);
	assert_int_equal(write(p[1], good, strlen(good)),
			 (ssize_t)strlen(good));
	assert_int_equal(keys_read_triplet(p[0], &own, master, err,
					   sizeof(err)),
			 0);
	assert_string_equal(own.secret, SEC_A);
	assert_string_equal(own.public, PUB_A);
	assert_string_equal(master, PUB_B);
	/* Only three lines were read. */
	assert_int_equal(read(p[0], err, 4), 4);
	close(p[1]);
	close(p[0]);
	assert_int_equal(pipe(p), 0);
	assert_int_equal(write(p[1], SEC_A "\n", 41), 41);
	close(p[1]);
	assert_int_equal(keys_read_triplet(p[0], &own, master, err,
					   sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "line 2"));
	close(p[0]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_z85),
		cmocka_unit_test(test_name_valid),
		cmocka_unit_test(test_parse_key),
		cmocka_unit_test(test_authorized_good),
		cmocka_unit_test(test_authorized_bad),
		cmocka_unit_test(test_authorized_limits),
		cmocka_unit_test(test_name_allowed),
		cmocka_unit_test(test_mode_problem),
		cmocka_unit_test(test_load_permissions),
		cmocka_unit_test(test_write_pair),
		cmocka_unit_test(test_triplet),
	};

	return cmocka_run_group_tests(tests, setup_dir, teardown_dir);
}
