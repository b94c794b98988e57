/*
 * Unit tests for file system runs on the master (issue 32): fsd= and fwd=
 * lines and an rd= with fwd= are parsed with Vdbench's defaults, every
 * error and every refused Vdbench keyword comes with its exact
 * "NAME:LINE:COLUMN: message", and the planner turns such an rd into its
 * phases (a format phase, then the run) and each slave's plan of fsds and
 * fwds: subtrees, shares, threads and rates (plan_fs_for_slave).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "master/params/params.h"
#include "master/plan/plan.h"
#include "proto/proto.h"

#define NAME "fs.vdb"
#define FSD1 "fsd=fsd1,anchor=/mnt/a\n"
#define FWD1 "fwd=fwd1,fsd=fsd1\n"
#define RD1 "rd=rd1,fwd=fwd1\n"

#include "tests/params_test.h"

/* The parse fails with NAME ":" msg (msg starts at the line number). */
static void parse_err_at(const char *text, const char *msg)
{
	char want[512];

	snprintf(want, sizeof(want), NAME ":%s", msg);
	parse_err(text, want);
}

/* ---- the parser ------------------------------------------------------- */

static void test_defaults(void **state)
{
	struct params *p = parse_ok(FSD1 FWD1 "rd=rd1\n");
	const struct params_fsd *d = &p->fsd[0];
	const struct params_fwd *w = &p->fwd[0];
	const struct params_rd *r = &p->rd[0];

	(void)state;
	assert_int_equal(p->nfsd, 1);
	assert_int_equal(p->nfwd, 1);
	assert_string_equal(d->anchor, "/mnt/a");
	assert_int_equal(d->depth, 1);
	assert_int_equal(d->width, 1);
	assert_int_equal(d->files, 10);
	assert_int_equal(d->nsizes, 1);
	assert_int_equal(d->size[0], 4096);
	assert_false(d->dist_all);
	assert_false(d->shared);
	assert_false(d->average);
	assert_int_equal(w->nfsd, 1);
	assert_int_equal(w->fsd[0], 0);
	assert_int_equal(w->op, PARAMS_FSOP_READ);
	assert_dbl(w->rdpct, -1);
	assert_int_equal(w->nxfer, 1);
	assert_int_equal(w->xfer[0].size, 4096);
	assert_false(w->fileio_random);
	assert_int_equal(w->fileselect, 1); /* Vdbench's sequential */
	assert_int_equal(w->threads, 1);
	assert_int_equal(w->target, -1);
	/* The only fwd of a file without wds. */
	assert_int_equal(r->nwd, 0);
	assert_int_equal(r->nfwd, 1);
	assert_dbl(r->fwdrate, 0);
	assert_int_equal(r->format, PARAMS_FORMAT_NO);
	assert_dbl(r->elapsed_s, 30);
	params_free(&p);
}

static void test_fields(void **state)
{
	struct params *p = parse_ok(
		"fsd=default,depth=2,width=3\n"
		"fsd=fsd1,anchor=/mnt/a/,files=5,sizes=(4k,50,8k,50),distribution=all,shared=yes,openflags=o_direct\n"
		"fsd=fsd2,anchor=/mnt/b,files=5,size=(1m,0)\n"
		"fsd=fsd3,anchor=/mnt/c,files=5,sizes=(4k,50,8k,50),distribution=all\n"
		"fwd=default,xfersize=(4k,60,64k,40),threads=8\n"
		"fwd=fw1,fsd=fsd*,operation=write,rdpct=30,fileio=random,fileselect=once,skew=40\n"
		"fwd=fw2,fsd=fsd1,operation=copy,target=fsd3,fileselect=seq,host=*\n"
		"rd=rd1,fwd=fw*,fwdrate=500,format=restart,elapsed=20,interval=2,warmup=4\n");
	const struct params_fwd *w1 = &p->fwd[0], *w2 = &p->fwd[1];

	(void)state;
	assert_string_equal(p->fsd[0].anchor, "/mnt/a");
	assert_int_equal(p->fsd[0].depth, 2);
	assert_int_equal(p->fsd[0].width, 3);
	assert_int_equal(p->fsd[0].files, 5);
	assert_int_equal(p->fsd[0].nsizes, 2);
	assert_int_equal(p->fsd[0].size[1], 8192);
	assert_int_equal(p->fsd[0].pct[1], 50);
	assert_true(p->fsd[0].dist_all);
	assert_true(p->fsd[0].shared);
	assert_int_equal(p->fsd[0].openflags, PARAMS_O_DIRECT);
	assert_true(p->fsd[1].average);
	assert_int_equal(p->fsd[1].size[0], 1024 * 1024);
	assert_int_equal(w1->nfsd, 3);
	assert_int_equal(w1->op, PARAMS_FSOP_WRITE);
	assert_dbl(w1->rdpct, 30);
	assert_true(w1->fileio_random);
	assert_int_equal(w1->fileselect, 2);
	assert_dbl(w1->skew, 40);
	assert_int_equal(w1->threads, 8);
	assert_int_equal(w1->nxfer, 2);
	assert_int_equal(w1->xfer[1].size, 65536);
	assert_int_equal(w2->op, PARAMS_FSOP_COPY);
	assert_int_equal(w2->target, 2);
	assert_int_equal(w2->fileselect, 1);
	assert_int_equal(p->rd[0].nfwd, 2);
	assert_dbl(p->rd[0].fwdrate, 500);
	assert_int_equal(p->rd[0].format, PARAMS_FORMAT_RESTART);
	params_free(&p);
}

/*
 * totalsize=, workingsetsize= (wss=) and stopafter= with Vdbench's
 * meanings: bytes of the tree's files, transfers or a percentage of a
 * file; absent, every file and Vdbench's default.
 */
static void test_subsets_stopafter(void **state)
{
	struct params *p = parse_ok(
		"fsd=fsd1,anchor=/mnt/a,files=100,size=1m,totalsize=50m,workingsetsize=10m\n"
		"fsd=fsd2,anchor=/mnt/b,files=100,size=1m,wss=20m\n"
		"fwd=fw1,fsd=fsd1,stopafter=7\n"
		"fwd=fw2,fsd=fsd2,fileio=random,stopafter=25%\n"
		"fwd=fw3,fsd=fsd2\n"
		"rd=rd1,fwd=fw*\n");

	(void)state;
	assert_int_equal(p->fsd[0].totalsize, 50 << 20);
	assert_int_equal(p->fsd[0].wss, 10 << 20);
	assert_int_equal(p->fsd[1].totalsize, 0);
	assert_int_equal(p->fsd[1].wss, 20 << 20);
	assert_int_equal(p->fwd[0].stopafter, 7);
	assert_int_equal(p->fwd[0].stopafter_pct, 0);
	assert_int_equal(p->fwd[1].stopafter, 0);
	assert_int_equal(p->fwd[1].stopafter_pct, 25);
	assert_int_equal(p->fwd[2].stopafter, 0);
	assert_int_equal(p->fwd[2].stopafter_pct, 0);
	params_free(&p);
	/* fileselect=poisson and midpoint=N: random, skewed (Vdbench's). */
	p = parse_ok(FSD1 "fwd=fw1,fileselect=poisson\n"
			  "fwd=fw2,fileselect=midpoint=7.5\n"
			  "fwd=fw3,fileselect=(random,2)\n"
			  "fwd=fw4,fileselect=random\n"
			  "rd=rd1,fwd=fw*\n");
	assert_int_equal(p->fwd[0].fileselect, 0);
	assert_dbl(p->fwd[0].midpoint, 3);
	assert_int_equal(p->fwd[1].fileselect, 0);
	assert_dbl(p->fwd[1].midpoint, 7.5);
	assert_dbl(p->fwd[2].midpoint, 2);
	assert_int_equal(p->fwd[3].fileselect, 0);
	assert_dbl(p->fwd[3].midpoint, 0);
	params_free(&p);
	/* Vdbench's fileio= pairs and random once (its two flags). */
	p = parse_ok(FSD1 "fwd=fw1,operation=write,fileio=(sequential,delete)\n"
			  "fwd=fw2,fileio=(random,shared),threads=4\n"
			  "fwd=fw3,fileselect=(random,once)\n"
			  "fwd=fw4,fileselect=(once,random)\n"
			  "fwd=fw5,fileio=(random,shared),fileselect=once\n"
			  "fwd=fw6,fileselect=(once,sequential)\n"
			  "rd=rd1,fwd=fw*\n");
	assert_true(p->fwd[0].fileio_delete);
	assert_false(p->fwd[0].fileio_random);
	assert_false(p->fwd[0].fileio_shared);
	assert_true(p->fwd[1].fileio_shared);
	assert_true(p->fwd[1].fileio_random);
	assert_int_equal(p->fwd[1].fileselect, 1);
	assert_int_equal(p->fwd[2].fileselect, 3);
	assert_int_equal(p->fwd[3].fileselect, 3);
	assert_int_equal(p->fwd[4].fileselect, 2);
	assert_true(p->fwd[4].fileio_shared);
	assert_int_equal(p->fwd[5].fileselect, 2);
	params_free(&p);
	/* The whole tree is a totalsize= (10 files of 4k). */
	p = parse_ok("fsd=fsd1,anchor=/mnt/a,totalsize=40k,wss=40k\n" FWD1 RD1);
	assert_int_equal(p->fsd[0].totalsize, 40960);
	params_free(&p);
}

static void test_errors(void **state)
{
	static const struct {
		const char *text, *msg;
	} cases[] = {
		{ "fsd=fsd1\n" FWD1 RD1,
		  "1:1: fsd=fsd1 needs anchor= (the folder its tree is made in)" },
		{ "fsd=fsd1,anchor=mnt/a\n" FWD1 RD1,
		  "1:17: anchor=mnt/a is not an absolute folder (for example anchor=/mnt/nfs/lockstep): a slave resolves it on its own host" },
		{ "fsd=fsd1,anchor=/a,depth=0\n" FWD1 RD1,
		  "1:26: depth=0 is out of range 1..2048" },
		{ "fsd=fsd1,anchor=/a,files=10000001\n" FWD1 RD1,
		  "1:26: files=10000001 is out of range 1..10000000" },
		{ "fsd=fsd1,anchor=/a,sizes=(4k,50,8k,40)\n" FWD1 RD1,
		  "1:20: fsd=fsd1: sizes=(size,pct,...): the percentages add up to 90, not 100" },
		{ "fsd=fsd1,anchor=/a,sizes=(4k,0,8k,100)\n" FWD1 RD1,
		  "1:30: sizes=: a share of 0 is only for one pair, (size,0): sizes averaging size" },
		{ "fsd=fsd1,anchor=/a,sizes=(4k,50,8k)\n" FWD1 RD1,
		  "1:26: sizes= needs one size, size,percentage pairs such as (4k,50,64k,50), or (size,0) for sizes averaging size" },
		{ "fsd=fsd1,anchor=/a,width=100000,depth=3\n" FWD1 RD1,
		  "1:33: fsd=fsd1: depth=3,width=100000,files=10: the tree would have more than 2147483647 directories and files" },
		{ "fsd=fsd1,anchor=/a,totalsize=41k\n" FWD1 RD1,
		  "1:30: fsd=fsd1: totalsize=41984 is more than the tree's 40960 bytes (Vdbench's rule)" },
		{ "fsd=fsd1,anchor=/a,wss=1m\n" FWD1 RD1,
		  "1:24: fsd=fsd1: workingsetsize=1048576 is more than the tree's 40960 bytes (Vdbench's rule)" },
		{ "fsd=fsd1,anchor=/a,totalsize=8k,wss=12k\n" FWD1 RD1,
		  "1:37: fsd=fsd1: workingsetsize=12288 is more than totalsize=8192 (the working set is drawn from the totalsize= files)" },
		{ "fsd=fsd1,anchor=/a,totalsize=50%\n" FWD1 RD1,
		  "1:30: totalsize=50%: a percentage is not allowed on an fsd, only as an rd's fortotal= (Vdbench's rule); give bytes" },
		{ "fsd=fsd1,anchor=/a,totalsize=lots\n" FWD1 RD1,
		  "1:30: totalsize=lots is not a size (bytes, or a number with k, m, g or t)" },
		{ FSD1 "fwd=fwd1,stopafter=0\n" RD1,
		  "2:20: stopafter=0 is out of range 1..1000000000000000" },
		{ FSD1 "fwd=fwd1,stopafter=101%\n" RD1,
		  "2:20: stopafter=101 is out of range 1..100" },
		{ FSD1 "fwd=fwd1,stopafter=often\n" RD1,
		  "2:20: stopafter=often is not a number" },
		{ "fsd=fsd1,anchor=/a,distribution=top\n" FWD1 RD1,
		  "1:33: distribution=top is not bottom or all" },
		{ "fsd=fsd1,anchor=/a\nfsd=fsd2,anchor=/a/\n" FWD1 RD1,
		  "2:17: fsd=fsd2: anchor=/a is also fsd=fsd1's (line 1): two trees in one folder would clean each other away" },
		{ "fsd=fsd1,anchor=/a/b\nfsd=fsd2,anchor=/a\n" FWD1 RD1,
		  "2:17: fsd=fsd2: anchor=/a and fsd=fsd1's anchor=/a/b (line 1) are one inside the other (Vdbench's rule: anchors may not be parents or children of each other)" },
		{ "fsd=fsd1,anchor=/a,host=h1\n" FWD1 RD1,
		  "1:20: host= is not supported: give host= on the fwd: an fsd is used where its fwds run (Vdbench's rule)" },
		{ FSD1 "fwd=Delete\n" RD1,
		  "2:1: fwd=Delete: an fwd may not be named after an operation (Vdbench's rule)" },
		{ FSD1 "fwd=fwd1,fsd=fsd9\n" RD1,
		  "2:14: fsd=fsd9 refers to an undefined fsd" },
		{ FSD1 "fsd=fsd2,anchor=/b\nfwd=fwd1\n" RD1,
		  "3:1: fwd=fwd1 needs fsd= (the fsds it runs on: a name, a list or a wildcard)" },
		{ FSD1 "fwd=fwd1,operation=list\n" RD1,
		  "2:20: operation=list is not an operation (read, write, create, delete, mkdir, rmdir, open, close, getattr, setattr, access, copy or move)" },
		{ FSD1 "fwd=fwd1,operation=(read,write)\n" RD1,
		  "2:20: operation= takes one operation (one fwd= per operation, or the rd's operations= list)" },
		{ FSD1 "fwd=fwd1,operation=mkdir,rdpct=50\n" RD1,
		  "2:26: fwd=fwd1: rdpct= mixes reads and writes: it needs operation=read or operation=write, not mkdir" },
		{ FSD1 "fwd=fwd1,rdpct=50\n" RD1,
		  "2:10: fwd=fwd1: rdpct= needs fileio=random (Vdbench's rule: fileio=sequential and rdpct= are mutually exclusive)" },
		{ FSD1 "fwd=fwd1,fileio=backwards\n" RD1,
		  "2:17: fileio=backwards is not sequential or random" },
		{ FSD1 "fwd=fwd1,fileselect=sideways\n" RD1,
		  "2:21: fileselect=sideways is not random, sequential, once, poisson or midpoint=N" },
		{ FSD1 "fwd=fwd1,fileselect=(midpoint,10)\n" RD1,
		  "2:22: fileselect=midpoint is not random, sequential, once, poisson or midpoint=N" },
		{ FSD1 "fwd=fwd1,fileselect=midpoint=0\n" RD1,
		  "2:21: fileselect=midpoint=0: the midpoint must be above 0" },
		{ FSD1 "fwd=fwd1,fileselect=(poisson,sequential)\n" RD1,
		  "2:21: fileselect=(poisson,sequential): a poisson or midpoint= skew is for random selection (Vdbench skews only random picks; with once, none)" },
		{ FSD1
		  "fwd=fwd1,operation=read,fileio=(sequential,delete)\n" RD1,
		  "2:25: fwd=fwd1: fileio=(sequential,delete) deletes a file before a write rewrites it (Vdbench's openForWrite): it needs operation=write, not read" },
		{ FSD1
		  "fwd=fwd1,operation=write,fileio=(sequential,delete),rdpct=50\n" RD1,
		  "2:53: fwd=fwd1: rdpct= needs fileio=random (Vdbench's rule: fileio=sequential and rdpct= are mutually exclusive)" },
		{ FSD1
		  "fwd=fwd1,fileio=(random,shared),fileselect=random\n" RD1,
		  "2:10: fwd=fwd1: fileio=(random,shared) and fileselect=random are mutually exclusive (Vdbench's rule): give fileselect=sequential or once" },
		{ FSD1
		  "fwd=fwd1,fileio=(random,shared),fileselect=(random,once)\n" RD1,
		  "2:10: fwd=fwd1: fileio=(random,shared) and fileselect=random are mutually exclusive (Vdbench's rule): give fileselect=sequential or once" },
		{ FSD1 "fwd=fwd1,operation=create,fileio=(random,shared)\n" RD1,
		  "2:27: fwd=fwd1: fileio=(random,shared) lets threads use a file at once; operation=create takes its entry alone (read, write, open, close, getattr, setattr and access share)" },
		{ FSD1 "fwd=fwd1,fileio=(random,delete)\n" RD1,
		  "2:25: fileio=(random,delete): with random Vdbench takes shared, not delete" },
		{ FSD1 "fwd=fwd1,fileio=(sequential,shared)\n" RD1,
		  "2:29: fileio=(sequential,shared): with sequential Vdbench takes delete, not shared" },
		{ FSD1 "fwd=fwd1,fileio=(random,shared,x)\n" RD1,
		  "2:17: fileio=(random,shared,x): give sequential, random, (random,shared) or (sequential,delete)" },
		{ FSD1 "fwd=fwd1,fileselect=(random,once,midpoint=5)\n" RD1,
		  "2:21: fileselect=(random,once,midpoint=5): a poisson or midpoint= skew is for random selection (Vdbench skews only random picks; with once, none)" },
		{ FSD1 "fwd=fwd1,fileselect=4\n" RD1,
		  "2:21: fileselect=4: a poisson or midpoint= skew is for random selection (Vdbench skews only random picks; with once, none)" },
		{ FSD1 "fwd=fwd1,threads=0\n" RD1,
		  "2:18: threads=0 is out of range 1..65536" },
		{ FSD1 "fwd=fwd1,operation=read,target=fsd1\n" RD1,
		  "2:32: fwd=fwd1: target= is for operation=copy or move, not read" },
		{ FSD1 "fwd=fwd1,operation=copy,target=fsd1\n" RD1,
		  "2:32: fwd=fwd1: target=fsd1 is one of its own fsds (a copy or move goes to another fsd)" },
		{ FSD1 "fwd=fwd1,operation=copy\n" RD1,
		  "2:1: fwd=fwd1: operation=copy needs target= (the fsd to copy to, of the same shape: Vdbench's rule; a copy within one fsd would be onto the file itself)" },
		{ FSD1
		  "fsd=fsd2,anchor=/b,files=3\nfwd=fwd1,fsd=fsd1,operation=move,target=fsd2\n" RD1,
		  "3:41: fwd=fwd1: target=fsd2 must have the shape of fsd=fsd1 (depth=, width=, files=, distribution=, sizes=: Vdbench's rule)" },
		{ FSD1 "fwd=fwd1,operation=move,target=fsd2\n" RD1,
		  "2:32: target=fsd2 refers to an undefined fsd" },
		{ "sd=sd1,lun=/dev/x\nwd=wd1,sd=sd1\n" FSD1 FWD1 RD1,
		  "3:1: fsd=fsd1 must come before the wd= definitions (the order is general, hd, sd, wd, rd)" },
		{ "sd=sd1,lun=/dev/x\n" FSD1 "wd=wd1,sd=sd1\n" FWD1
		  "rd=rd1,wd=wd1,fwd=fwd1\n",
		  "5:15: rd=rd1 runs wd= or fwd=, not both (one rd= per kind of run)" },
		{ FSD1 FWD1 "fwd=fwd2\nrd=rd1\n",
		  "4:1: rd=rd1 needs fwd= to say which of the 2 fwds it runs" },
		{ FSD1 FWD1 "rd=rd1,fwdrate=0\n",
		  "3:16: fwdrate=0 is not max or a rate above 0, at most 1e9 operations per second" },
		{ FSD1 FWD1 "rd=rd1,fwdrate=(10,20)\n",
		  "3:16: fwdrate= takes one value, not a list" },
		{ FSD1 FWD1 "rd=rd1,format=sometimes\n",
		  "3:15: format=sometimes is not yes, only or no (or restart, clean, once, directories, limited or complete with fwd=)" },
		{ FSD1 "fwd=fwd1,skew=60\nfwd=fwd2,skew=60\nrd=rd1,fwd=fwd*\n",
		  "4:8: rd=rd1: the skew= of its fwds add up to 120: at most 100, and 100 when every fwd gives one" },
		{ FSD1 "fwd=fwd1,skew=60\nfwd=fwd2,skew=30\nrd=rd1,fwd=fwd*\n",
		  "4:8: rd=rd1: the skew= of its fwds add up to 90: at most 100, and 100 when every fwd gives one" },
		{ "sd=sd1,lun=/dev/x\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,fwdrate=5\n",
		  "3:15: rd=rd1: fwdrate= is for fwd= runs (a wd= run takes iorate=)" },
		{ "sd=sd1,lun=/dev/x\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,format=clean\n",
		  "3:15: rd=rd1: format=clean is for fwd= runs (a wd= run takes format=yes or only)" },
		{ FSD1 FWD1 "rd=rd1,elapsed=10,interval=3\n",
		  "3:8: elapsed=10 is not a multiple of interval=3" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		parse_err_at(cases[i].text, cases[i].msg);
}

/* Vdbench keywords lockstep does not run: refused, never skipped. */
static void test_refused(void **state)
{
	static const struct {
		const char *text, *msg;
	} cases[] = {
		{ FSD1 "fwd=format,threads=1000\n" FWD1 RD1,
		  "2:12: fwd=format threads=1000: a format runs 1..64 threads on each slave for each fsd" },
		{ FSD1 "fwd=format,threads=0\n" FWD1 RD1,
		  "2:20: threads=0 is out of range 1..65536" },
		/* fwd=format clones fwd=default (Vdbench's), threads= too. */
		{ FSD1
		  "fwd=default,threads=65\nfwd=format,xfersize=8k\n" FWD1 RD1,
		  "2:13: fwd=format threads=65: a format runs 1..64 threads on each slave for each fsd" },
		{ FSD1 "fwd=format,xfersize=32m\n" FWD1 RD1,
		  "2:21: xfersize=32m is out of range 512..1m" },
		{ FSD1 "fwd=format,fsd=fsd1,operation=write\n" FWD1 RD1,
		  "2:12: fwd=format takes xfersize=, threads= and openflags= only (the settings of every format; Vdbench uses no other): fsd= means nothing there" },
		{ FSD1 "fwd=format\nfwd=format\n" FWD1 RD1,
		  "3:1: fwd=format is given twice" },
		{ FSD1 FWD1 "rd=rd1,format=(yes,complete)\n",
		  "3:20: format=(yes,complete): complete says the trees are already formatted, so it goes with no: give format=(no,complete) (Vdbench's rule: format=yes and format=complete are mutually exclusive)" },
		{ FSD1 FWD1 "rd=rd1,format=complete\n",
		  "3:15: format=complete: complete says the trees are already formatted, so it goes with no: give format=(no,complete) (Vdbench's rule: format=yes and format=complete are mutually exclusive)" },
		{ FSD1 FWD1 "rd=rd1,format=limited\n",
		  "3:15: format=limited: limited needs only: give format=(only,limited) (Vdbench's rule; the format stops at elapsed= and nothing runs after it)" },
		{ FSD1 FWD1 "rd=rd1,format=(yes,limited)\n",
		  "3:20: format=(yes,limited): limited needs only: give format=(only,limited) (Vdbench's rule; the format stops at elapsed= and nothing runs after it)" },
		{ FSD1 FWD1 "rd=rd1,format=(clean,directories)\n",
		  "3:22: format=(clean,directories): clean deletes the trees and makes nothing: directories means nothing with it" },
		{ "sd=sd1,lun=/dev/x\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,format=once\n",
		  "3:15: rd=rd1: format=once is for fwd= runs (a wd= run takes format=yes or only)" },
		{ "sd=sd1,lun=/dev/x\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,format=(no,complete)\n",
		  "3:15: rd=rd1: format=complete is for fwd= runs (a wd= run takes format=yes or only)" },
		{ FSD1 FWD1 "rd=rd1,format=(clean,restart)\n",
		  "3:15: format=(clean,restart): clean deletes the trees and stops, restart makes them: give one" },
		{ FSD1 FWD1 "rd=rd1,fwdrate=100,curve=(10,50)\n",
		  "3:20: rd=rd1: curve= goes with fwdrate=curve (Vdbench ignores it at another fwdrate=)" },
		{ FSD1 FWD1 "rd=rd1,stopcurve=5\n",
		  "3:8: rd=rd1: stopcurve= goes with fwdrate=curve (Vdbench ignores it at another fwdrate=)" },
		{ FSD1 FWD1 "rd=default,curve=(10,50)\nrd=rd1,fwdrate=max\n",
		  "3:12: rd=rd1: curve= goes with fwdrate=curve (Vdbench ignores it at another fwdrate=)" },
		{ FSD1 FWD1 "rd=rd1,fwdrate=curve,iorate=curve\n",
		  "3:22: rd=rd1: iorate= is not run with fwd= yet (issue 32): give fwdrate=" },
		{ FSD1 FWD1 "rd=rd1,fwdrate=curve,curve=(10,0)\n",
		  "3:32: curve=0 is out of range (0..100]" },
		{ FSD1 FWD1 "rd=rd1,iorate=100\n",
		  "3:8: rd=rd1: iorate= is not run with fwd= yet (issue 32): give fwdrate=" },
		{ FSD1 FWD1 "rd=rd1,forseekpct=(0,100)\n",
		  "3:8: rd=rd1: forseekpct= is not run with fwd= yet (issue 32)" },
		{ FSD1 FWD1 "rd=rd1,forrdpct=(0,50)\n",
		  "3:8: rd=rd1: forrdpct= mixes reads and writes in every fwd, and fwd=fwd1 is not operation=read or write with fileio=random (Vdbench's rdpct= rule)" },
		{ "validate=yes\n" FSD1 FWD1 "rd=rd1,forxfersize=(4k,6k)\n",
		  "4:8: rd=rd1: forxfersize 6144 is not a multiple of 4k, as validate=yes needs (one key per 4 KiB block of a file)" },
		{ FSD1 FWD1 "rd=rd1,warmup=(steady,10)\n",
		  "3:8: rd=rd1: warmup=steady is not run with fwd= yet (issue 32): give a time" },
		{ "validate=yes\n" FSD1 FWD1
		  "rd=rd1,format=yes,validate=only\n",
		  "4:8: rd=rd1: validate=only reads every file of its fsds once, as fast as it can: it takes no format=, for-loops, operations= or fwdrate= other than max (give them their own rd)" },
		{ "validate=yes\n" FSD1 FWD1
		  "rd=rd1,fwdrate=10,validate=only\n",
		  "4:28: rd=rd1: validate=only reads every file of its fsds once, as fast as it can: it takes no format=, for-loops, operations= or fwdrate= other than max (give them their own rd)" },
		{ "validate=yes\n" FSD1
		  "fwd=fwd1,fsd=fsd1,xfersize=(4k,50,6k,50)\n" RD1,
		  "3:1: fwd=fwd1: xfersize 6144 is not a multiple of 4k, as validate=yes needs (one key per 4 KiB block of a file)" },
		{ "validate=yes\n" FSD1 "fsd=fsd2,anchor=/mnt/b\n"
		  "fwd=fwd1,fsd=fsd1,operation=move,target=fsd2\n" RD1,
		  "4:1: fwd=fwd1: validate=yes does not follow what operation=move does to a file's contents" },
		{ "validate=yes\n" FSD1 "fwd=fwd1,fileio=(random,shared)\n" RD1,
		  "3:10: fwd=fwd1: fileio=(random,shared) may not be used with validate=yes (Vdbench's rule: threads writing one file at once leave no key to follow)" },
		{ FSD1 FWD1 "rd=rd1,fwd=fwd1,mount=x\n",
		  "3:17: mount= is not supported: it would run mount commands as root on every slave: give them as the rd's startcmd= (run on one slave of each host, started with --allow-commands)" },
		{ "create_anchors=maybe\n" FSD1 FWD1 RD1,
		  "1:16: create_anchors=maybe is not supported (use yes or no)" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		parse_err_at(cases[i].text, cases[i].msg);
}

/* ---- the plan --------------------------------------------------------- */

static struct plan_phase *phases_ok(const struct params *p, size_t *n)
{
	struct plan_phase *ph = NULL;
	int ret = plan_phases(p, NULL, &ph, n, err, sizeof(err));

	if (ret) {
		print_error("plan_phases: %d %s\n", ret, err);
		fail();
	}
	return ph;
}

static void test_phases(void **state)
{
	static const struct {
		const char *format;
		size_t n;
		uint32_t fs_format;
		const char *name0;
	} cases[] = {
		{ "no", 1, 0, "rd1" },
		{ "yes", 2, PROTO_FSFMT_YES, "rd1 format" },
		{ "restart", 2, PROTO_FSFMT_RESTART, "rd1 format=restart" },
		{ "only", 1, PROTO_FSFMT_YES, "rd1 format" },
		{ "clean", 1, PROTO_FSFMT_CLEAN, "rd1 format=clean" },
		{ "(restart,only)", 1, PROTO_FSFMT_RESTART,
		  "rd1 format=restart" },
		{ "(clean,only)", 1, PROTO_FSFMT_CLEAN, "rd1 format=clean" },
		{ "(yes,only)", 1, PROTO_FSFMT_YES, "rd1 format" },
		{ "(yes,no)", 1, 0, "rd1" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char text[256];
		struct params *p;
		struct plan_phase *ph;
		size_t n;

		snprintf(text, sizeof(text),
			 FSD1 FWD1
			 "rd=rd1,format=%s,fwdrate=300,elapsed=10,interval=2\n",
			 cases[i].format);
		p = parse_ok(text);
		ph = phases_ok(p, &n);
		assert_int_equal(n, cases[i].n);
		assert_true(ph[0].fs);
		assert_string_equal(ph[0].name, cases[i].name0);
		if (cases[i].fs_format) {
			assert_int_equal(ph[0].kind, PLAN_FORMAT);
			assert_int_equal(ph[0].fs_format, cases[i].fs_format);
			/* Ended by the slaves when done: a long bound. */
			assert_int_equal(ph[0].intervals,
					 (unsigned)(PLAN_FORMAT_BOUND_S / 2));
		}
		if (n > 1 || !cases[i].fs_format) {
			assert_int_equal(ph[n - 1].kind, PLAN_MEASURE);
			assert_dbl(ph[n - 1].iorate, 300);
			assert_int_equal(ph[n - 1].intervals, 5);
		}
		free(ph);
		params_free(&p);
	}
}

/*
 * Which openflags= open an fwd's files (Vdbench's FwgEntry): the rd's,
 * else the fwd's, else the fsd's; a format's files: fwd=format's over
 * the fsd's.
 */
static void test_fwd_openflags(void **state)
{
	static const char *const rds[] = {
		"rd=rd1,fwd=*,fwdrate=max,format=no,elapsed=2,interval=1\n",
		"rd=rd1,fwd=*,fwdrate=max,format=no,elapsed=2,interval=1,openflags=o_sync\n",
	};
	static const uint32_t want[2][2] = {
		{ PROTO_O_DIRECT, PROTO_O_DSYNC }, /* the fwd's, the fsd's */
		{ PROTO_O_SYNC, PROTO_O_SYNC },    /* the rd's over both */
	};
	char text[1024];

	(void)state;
	for (int r = 0; r < 2; r++) {
		struct params *p;
		struct plan_phase *ph;
		struct proto_plan a;
		size_t n;

		snprintf(text, sizeof(text), "%s%s",
			 "fsd=f1,anchor=/mnt/a,depth=1,width=1,files=2,openflags=o_dsync\n"
			 "fwd=own,fsd=f1,operation=read,openflags=o_direct\n"
			 "fwd=inh,fsd=f1,operation=read\n",
			 rds[r]);
		p = parse_ok(text);
		ph = phases_ok(p, &n);
		assert_int_equal(n, 1);
		assert_int_equal(plan_fs_for_slave(p, &ph[0], 1, NULL, 0, 1,
						   "local-1", "uring", &a, err,
						   sizeof(err)),
				 0);
		assert_int_equal(a.nfwds, 2);
		assert_string_equal(a.fwds[0].name, "own");
		assert_int_equal(a.fwds[0].openflags, want[r][0]);
		assert_int_equal(a.fwds[1].openflags, want[r][1]);
		proto_msg_free(
			&(struct proto_msg){ .type = PROTO_PLAN, .u.plan = a });
		free(ph);
		params_free(&p);
	}
	/* A format's: fwd=format's over the fsd's, not its fwds'. */
	{
		struct params *p = parse_ok(
			"fsd=f1,anchor=/mnt/a,openflags=o_dsync\n"
			"fwd=format,openflags=o_direct\n"
			"fwd=r,fsd=f1,openflags=o_sync\n"
			"rd=rd1,fwd=r,fwdrate=max,format=yes,elapsed=2,interval=1\n");
		struct plan_phase *ph;
		struct proto_plan a;
		size_t n;

		ph = phases_ok(p, &n);
		assert_int_equal(n, 2);
		assert_int_equal(plan_fs_for_slave(p, &ph[0], 1, NULL, 0, 1,
						   "local-1", "uring", &a, err,
						   sizeof(err)),
				 0);
		assert_int_equal(a.fsds[0].openflags, PROTO_O_DIRECT);
		proto_msg_free(
			&(struct proto_msg){ .type = PROTO_PLAN, .u.plan = a });
		assert_int_equal(plan_fs_for_slave(p, &ph[1], 1, NULL, 0, 1,
						   "local-1", "uring", &a, err,
						   sizeof(err)),
				 0);
		assert_int_equal(a.fwds[0].openflags, PROTO_O_SYNC);
		proto_msg_free(
			&(struct proto_msg){ .type = PROTO_PLAN, .u.plan = a });
		free(ph);
		params_free(&p);
	}
}

/*
 * An fsd's journal= (Vdbench's jnl_dir_name): its key maps' folder,
 * over the general journal=; it needs validate=yes and an absolute
 * folder.
 */
static void test_fsd_journal(void **state)
{
	struct params *p = parse_ok(
		"validate=yes\njournal=/var/j\n"
		"fsd=f1,anchor=/mnt/a,journal=/var/own\n"
		"fsd=f2,anchor=/mnt/b\n"
		"fwd=r,fsd=(f1,f2),operation=read\n"
		"rd=rd1,fwd=r,fwdrate=max,format=no,elapsed=2,interval=1\n");
	struct plan_phase *ph;
	struct proto_plan a;
	size_t n;

	(void)state;
	assert_string_equal(p->fsd[0].journal, "/var/own");
	ph = phases_ok(p, &n);
	assert_int_equal(plan_fs_for_slave(p, &ph[0], 1, NULL, 0, 1, "local-1",
					   "uring", &a, err, sizeof(err)),
			 0);
	assert_string_equal(a.journal, "/var/j");
	assert_string_equal(a.fsds[0].journal, "/var/own");
	assert_string_equal(a.fsds[1].journal, "");
	proto_msg_free(&(struct proto_msg){ .type = PROTO_PLAN, .u.plan = a });
	free(ph);
	params_free(&p);
	parse_err_at("fsd=f1,anchor=/mnt/a,journal=j\n",
		     "1:30: journal=j is not an absolute folder (for example journal=/var/lib/lockstep/journal)");
	p = parse_ok(
		"fsd=f1,anchor=/mnt/a,journal=/var/own\n"
		"fwd=r,fsd=f1\n"
		"rd=rd1,fwd=r,fwdrate=max,format=no,elapsed=2,interval=1\n");
	assert_int_equal(plan_phases(p, NULL, &ph, &n, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(
		strstr(err,
		       "fsd=f1 journal=/var/own journals its data validation: it needs validate=yes"));
	params_free(&p);
}

/*
 * create_anchors=yes (general, Vdbench's): every fsd of every phase,
 * format and run, tells the slave it may make its anchor; without it
 * none does.
 */
static void test_create_anchors(void **state)
{
	static const char *const text[2] = {
		"fsd=f1,anchor=/mnt/a\nfsd=f2,anchor=/mnt/b\n"
		"fwd=r,fsd=(f1,f2),operation=read\n"
		"rd=rd1,fwd=r,fwdrate=max,format=yes,elapsed=2,interval=1\n",
		"create_anchors=yes\n"
		"fsd=f1,anchor=/mnt/a\nfsd=f2,anchor=/mnt/b\n"
		"fwd=r,fsd=(f1,f2),operation=read\n"
		"rd=rd1,fwd=r,fwdrate=max,format=yes,elapsed=2,interval=1\n",
	};

	(void)state;
	for (int on = 0; on < 2; on++) {
		struct params *p = parse_ok(text[on]);
		struct plan_phase *ph;
		struct proto_plan a;
		size_t n;

		assert_int_equal(p->create_anchors, on);
		ph = phases_ok(p, &n);
		assert_int_equal(n, 2); /* the format, then the run */
		for (size_t k = 0; k < n; k++) {
			assert_int_equal(plan_fs_for_slave(p, &ph[k], 1, NULL,
							   0, 1, "local-1",
							   "uring", &a, err,
							   sizeof(err)),
					 0);
			for (uint32_t f = 0; f < a.nfsds; f++)
				assert_int_equal(a.fsds[f].format_flags &
							 PROTO_FSFMT_ANCHOR,
						 on ? PROTO_FSFMT_ANCHOR : 0);
			proto_msg_free(&(struct proto_msg){ .type = PROTO_PLAN,
							    .u.plan = a });
		}
		free(ph);
		params_free(&p);
	}
}

/* Two slaves on two hosts, an fwd on both and one on h2 only. */
static const char two[] =
	"hd=h1\nhd=h2\n"
	"fsd=own,anchor=/mnt/own,depth=2,width=2,files=3\n"
	"fsd=sh,anchor=/mnt/sh,shared=yes,sizes=(4k,50,8k,50),openflags=o_dsync\n"
	"fwd=rw,fsd=(own,sh),operation=read,rdpct=70,fileio=random,fileselect=random,threads=8,skew=75\n"
	"fwd=cr,fsd=sh,operation=create,host=h2,threads=3\n"
	"rd=rd1,fwd=(rw,cr),fwdrate=1000,format=yes,elapsed=10,interval=1\n";

static void plan_ok(const struct params *p, const struct plan_phase *ph,
		    unsigned s, const char *name, struct proto_plan *pl)
{
	static const int hd[2] = { 0, 1 };
	int ret = plan_fs_for_slave(p, ph, 1, hd, s, 2, name, "uring", pl, err,
				    sizeof(err));

	if (ret) {
		print_error("plan_fs_for_slave: %d %s\n", ret, err);
		fail();
	}
}

static void test_plan_two_slaves(void **state)
{
	struct params *p = parse_ok(two);
	struct plan_phase *ph;
	struct proto_plan a, b;
	size_t n;

	(void)state;
	ph = phases_ok(p, &n);
	assert_int_equal(n, 2);

	/* The format phase: every fsd a slave uses, no fwds. */
	plan_ok(p, &ph[0], 0, "h1", &a);
	plan_ok(p, &ph[0], 1, "h2", &b);
	assert_int_equal(a.format, 1);
	assert_int_equal(a.nfwds, 0);
	assert_int_equal(a.nfsds, 2);
	assert_string_equal(a.fsds[0].name, "own");
	assert_string_equal(a.fsds[0].subdir, "h1");
	assert_int_equal(a.fsds[0].share_count, 0);
	assert_int_equal(a.fsds[0].format, PROTO_FSFMT_YES);
	assert_int_equal(a.fsds[0].depth, 2);
	assert_int_equal(a.fsds[0].width, 2);
	assert_int_equal(a.fsds[0].files, 3);
	assert_string_equal(a.fsds[1].name, "sh");
	assert_string_equal(a.fsds[1].subdir, "");
	assert_int_equal(a.fsds[1].share_no, 0);
	assert_int_equal(a.fsds[1].share_count, 2);
	assert_int_equal(a.fsds[1].openflags, PROTO_O_DSYNC);
	assert_int_equal(a.fsds[1].nsizes, 2);
	assert_int_equal(a.fsds[1].sizes[1].size, 8192);
	assert_int_equal(a.fsds[1].sizes[1].pct, 50);
	assert_string_equal(b.fsds[0].subdir, "h2");
	assert_int_equal(b.fsds[1].share_no, 1);
	assert_int_equal(b.fsds[1].share_count, 2);
	assert_int_equal(a.intervals, b.intervals);
	proto_msg_free(&(struct proto_msg){ .type = PROTO_PLAN, .u.plan = a });
	proto_msg_free(&(struct proto_msg){ .type = PROTO_PLAN, .u.plan = b });

	/* The run: one fwd per (fwd, fsd) the slave runs. */
	plan_ok(p, &ph[1], 0, "h1", &a);
	plan_ok(p, &ph[1], 1, "h2", &b);
	assert_int_equal(a.format, 0);
	assert_int_equal(a.fsds[0].format, 0);
	assert_int_equal(a.nfwds, 2);
	assert_int_equal(b.nfwds, 3);
	assert_string_equal(a.fwds[0].name, "rw");
	assert_int_equal(a.fwds[0].fsd, 0);
	assert_int_equal(a.fwds[1].fsd, 1);
	assert_int_equal(a.fwds[0].op, PROTO_FSOP_READ);
	assert_int_equal(a.fwds[0].mixed, 1);
	assert_dbl(a.fwds[0].rdpct, 70);
	assert_int_equal(a.fwds[0].fileio, PROTO_FILEIO_RANDOM);
	assert_int_equal(a.fwds[0].fileselect, PROTO_FSEL_RANDOM);
	/* threads=8 over 2 fsds and 2 slaves; 3 over 1 fsd and 1 slave. */
	assert_int_equal(a.fwds[0].threads, 2);
	assert_string_equal(b.fwds[2].name, "cr");
	assert_int_equal(b.fwds[2].op, PROTO_FSOP_CREATE);
	assert_int_equal(b.fwds[2].fsd, 1);
	assert_int_equal(b.fwds[2].threads, 3);
	/* 1000/s: rw 75% over 2 fsds x 2 slaves, cr 25% on h2 alone. */
	assert_dbl(a.fwds[0].rate, 187.5);
	assert_dbl(a.fwds[1].rate, 187.5);
	assert_dbl(b.fwds[2].rate, 250);
	/* The rates are the fwds': the plan's stays 0 (the slave's rule). */
	assert_dbl(a.iorate, 0);
	assert_dbl(b.iorate, 0);
	assert_int_equal(a.ntargets, 0);
	assert_int_equal(a.nstreams, 0);
	assert_int_equal(a.validate, PROTO_VALIDATE_OFF);
	proto_msg_free(&(struct proto_msg){ .type = PROTO_PLAN, .u.plan = a });
	proto_msg_free(&(struct proto_msg){ .type = PROTO_PLAN, .u.plan = b });

	/* Every check passes with stand-in names; block plans refuse it. */
	assert_int_equal(plan_check_slaves(p, ph, n, (const int[]){ 0, 1 }, 2,
					   err, sizeof(err)),
			 0);
	assert_int_equal(plan_for_slave(p, &ph[1], 2, NULL, 0, 1, "uring", &a,
					err, sizeof(err)),
			 -EINVAL);
	free(ph);
	params_free(&p);
}

/*
 * forxfersize=, forthreads= and forrdpct= with fwd=: after the one format
 * phase (format=once), a run phase per combination (the last loop turning fastest),
 * each value standing for every fwd's own on every slave.
 */
static void test_plan_loops(void **state)
{
	struct params *p = parse_ok(
		"hd=h1\nhd=h2\n"
		"fsd=fsd1,anchor=/mnt/a,depth=1,width=2,files=4\n"
		"fwd=rw,fsd=fsd1,operation=read,fileio=random,xfersize=(4k,50,8k,50),threads=4\n"
		"rd=rd1,fwd=rw,format=once,elapsed=4,interval=1,forxfersize=(16k,32k),forthreads=(2,8),forrdpct=(100,70)\n");
	static const uint32_t xfer[] = { 16384, 32768 };
	static const unsigned threads[] = { 2, 8 };
	static const double rdpct[] = { 100, 70 };
	struct plan_phase *ph;
	struct proto_plan a;
	size_t n;

	(void)state;
	ph = phases_ok(p, &n);
	assert_int_equal(n, 1 + 2 * 2 * 2);
	assert_int_equal(ph[0].fs_format, PROTO_FSFMT_YES);
	for (size_t k = 1; k < n; k++) {
		size_t c = k - 1; /* the odometer: forrdpct turns fastest */

		plan_ok(p, &ph[k], 1, "h2", &a);
		assert_int_equal(a.format, 0);
		assert_int_equal(a.nfwds, 1);
		assert_int_equal(a.fwds[0].nxfer, 1);
		assert_int_equal(a.fwds[0].xfer[0].size, xfer[c / 4]);
		/* threads= is the fwd's total over its slaves: half each. */
		assert_int_equal(a.fwds[0].threads, threads[c / 2 % 2] / 2);
		assert_int_equal(a.fwds[0].mixed, 1);
		assert_true(a.fwds[0].rdpct == rdpct[c % 2]);
		proto_msg_free(
			&(struct proto_msg){ .type = PROTO_PLAN, .u.plan = a });
	}
	assert_non_null(strstr(ph[8].name, "xfersize=32k"));
	assert_non_null(strstr(ph[8].name, "threads=8"));
	assert_non_null(strstr(ph[8].name, "rdpct=70"));
	free(ph);
	params_free(&p);
}

/*
 * fwdrate=curve: per loop combination (one format: once) a curve-max
 * phase, then a point per curve= percentage (default Vdbench's
 * 10,50,70,80,90,100); a point's
 * rate, set by the master from the max phase, is split as any fwdrate=.
 */
static void test_curve_phases(void **state)
{
	struct params *p = parse_ok(
		"hd=h1\nhd=h2\n" FSD1
		"fwd=fwd1,fsd=fsd1,operation=getattr,threads=4\n"
		"rd=r0,fwd=fwd1,fwdrate=100,format=no,elapsed=1\n"
		"rd=rd1,fwd=fwd1,fwdrate=curve,curve=(20,50),stopcurve=5,format=once,forthreads=(2,4),elapsed=2,interval=1\n"
		"rd=rd2,fwd=fwd1,fwdrate=curve,format=no,elapsed=1\n");
	static const double dflt[] = { 10, 50, 70, 80, 90, 100 };
	struct plan_phase *ph;
	struct proto_plan a, b;
	size_t n;

	(void)state;
	ph = phases_ok(p, &n);
	assert_int_equal(n, 1 + 1 + 2 * 3 + 1 + 6);
	assert_int_equal(ph[0].kind, PLAN_MEASURE);
	assert_dbl(ph[0].iorate, 100);
	assert_int_equal(ph[1].kind, PLAN_FORMAT);
	for (size_t c = 0; c < 2; c++) {
		size_t max = 2 + 3 * c;

		assert_true(ph[max].fs);
		assert_int_equal(ph[max].kind, PLAN_CURVE_MAX);
		assert_dbl(ph[max].iorate, 0);
		assert_dbl(ph[max].stopcurve_ms, 5);
		assert_non_null(strstr(ph[max].name, " curve=max"));
		assert_non_null(
			strstr(ph[max].name, c ? "threads=4" : "threads=2"));
		for (size_t i = 1; i <= 2; i++) {
			assert_true(ph[max + i].fs);
			assert_int_equal(ph[max + i].kind, PLAN_CURVE_POINT);
			assert_int_equal(ph[max + i].curve_max, max);
			assert_dbl(ph[max + i].curve_pct, i == 1 ? 20 : 50);
			assert_dbl(ph[max + i].iorate, 0); /* the master's */
			assert_dbl(ph[max + i].stopcurve_ms, 5);
			assert_int_equal(ph[max + i].intervals, 2);
		}
	}
	assert_string_equal(ph[3].name, "rd1 threads=2 curve=20%");
	assert_int_equal(ph[8].kind, PLAN_CURVE_MAX);
	assert_string_equal(ph[8].name, "rd2 curve=max");
	for (size_t i = 0; i < 6; i++) {
		assert_int_equal(ph[9 + i].curve_max, 8);
		assert_dbl(ph[9 + i].curve_pct, dflt[i]);
		assert_dbl(ph[9 + i].stopcurve_ms, 0);
	}
	/* 20% of a max run's 12345 ops/s: 2469, up to 2500, half a slave. */
	ph[3].iorate = plan_curve_rate(12345, ph[3].curve_pct);
	plan_ok(p, &ph[3], 0, "h1", &a);
	plan_ok(p, &ph[3], 1, "h2", &b);
	assert_int_equal(a.nfwds, 1);
	assert_dbl(a.fwds[0].rate, 1250);
	assert_dbl(b.fwds[0].rate, 1250);
	proto_msg_free(&(struct proto_msg){ .type = PROTO_PLAN, .u.plan = a });
	proto_msg_free(&(struct proto_msg){ .type = PROTO_PLAN, .u.plan = b });
	free(ph);
	params_free(&p);
}

/* validate=yes: every phase's plan says so, the format's too, no journal. */
static void test_plan_validate(void **state)
{
	struct params *p = parse_ok("validate=yes\n" FSD1
				    "fwd=fwd1,fsd=fsd1,xfersize=(4k,50,8k,50)\n"
				    "rd=rd1,fwd=fwd1,format=yes\n");
	struct plan_phase *ph;
	struct proto_plan a;
	size_t n;

	(void)state;
	ph = phases_ok(p, &n);
	assert_int_equal(n, 2);
	for (size_t i = 0; i < n; i++) {
		plan_ok(p, &ph[i], 0, "h1", &a);
		assert_int_equal(a.validate, PROTO_VALIDATE_YES);
		assert_string_equal(a.journal, "");
		proto_msg_free(
			&(struct proto_msg){ .type = PROTO_PLAN, .u.plan = a });
	}
	free(ph);
	params_free(&p);
}

/*
 * journal= and validate=only with fwd=: every plan carries the journal
 * folder; the validate=only rd is one pass (a format-like phase, named
 * "rd2 validate") whose plan is validate=only with, per fsd, one thread
 * reading every file once in order, 128 KiB at a time (Vdbench's
 * journal_recovery run), over the whole tree (no totalsize= or wss=).
 */
static void test_plan_validate_only(void **state)
{
	struct params *p = parse_ok(
		"validate=yes\njournal=/var/j\n" FSD1
		"fsd=fsd2,anchor=/mnt/b,totalsize=8k,wss=4k\n"
		"fwd=fwd1,fsd=(fsd1,fsd2),rdpct=50,fileio=random,xfersize=4k,threads=4\n"
		"rd=rd1,fwd=fwd1,format=yes\n"
		"rd=rd2,fwd=fwd1,validate=only\n");
	struct plan_phase *ph;
	struct proto_plan a;
	size_t n;

	(void)state;
	ph = phases_ok(p, &n);
	assert_int_equal(n, 3);
	for (size_t i = 0; i < 2; i++) {
		plan_ok(p, &ph[i], 0, "h1", &a);
		assert_false(ph[i].verify);
		assert_int_equal(a.validate, PROTO_VALIDATE_YES);
		assert_string_equal(a.journal, "/var/j");
		assert_int_equal(a.fsds[1].totalsize, 8192);
		assert_int_equal(a.fsds[1].wss, 4096);
		proto_msg_free(
			&(struct proto_msg){ .type = PROTO_PLAN, .u.plan = a });
	}
	assert_true(ph[2].verify);
	assert_string_equal(ph[2].name, "rd2 validate");
	plan_ok(p, &ph[2], 0, "h1", &a);
	assert_int_equal(a.validate, PROTO_VALIDATE_ONLY);
	assert_string_equal(a.journal, "/var/j");
	assert_int_equal(a.format, 0);
	assert_int_equal(a.nfsds, 2);
	assert_int_equal(a.nfwds, 2);
	for (uint32_t i = 0; i < a.nfwds; i++) {
		assert_int_equal(a.fwds[i].fsd, i);
		assert_int_equal(a.fsds[i].format, PROTO_FSFMT_NONE);
		/* Every file there is read, whatever subset held keys. */
		assert_int_equal(a.fsds[i].totalsize, 0);
		assert_int_equal(a.fsds[i].wss, 0);
		assert_int_equal(a.fwds[i].op, PROTO_FSOP_READ);
		assert_int_equal(a.fwds[i].mixed, 0);
		assert_int_equal(a.fwds[i].fileio, PROTO_FILEIO_SEQ);
		assert_int_equal(a.fwds[i].fileselect, PROTO_FSEL_ONCE);
		assert_int_equal(a.fwds[i].threads, 1);
		assert_int_equal(a.fwds[i].nxfer, 1);
		assert_int_equal(a.fwds[i].xfer[0].size, 128 * 1024);
		assert_true(a.fwds[i].rate == 0);
	}
	proto_msg_free(&(struct proto_msg){ .type = PROTO_PLAN, .u.plan = a });
	free(ph);
	params_free(&p);
}

/*
 * Vdbench's format= words with fwd= (FormatFlags, RD_entry's
 * buildNewRdListForFwd): a format before every combination of the
 * for-loops, once only before the first (a clean only once: a second
 * deletes nothing); directories, limited (sized by elapsed=) and
 * (no,complete) carried to each slave's fsds; fwd=format's first
 * xfersize= is every fsd's format_xfer and it is no workload.
 */
static void test_format_words(void **state)
{
	static const struct {
		const char *format;
		const char *kinds; /* F format, M measure */
		uint32_t fs_format, flags;
		const char *name0;
	} cases[] = {
		{ "yes", "FMFM", PROTO_FSFMT_YES, 0, "rd1 xfersize=4k format" },
		{ "once", "FMM", PROTO_FSFMT_YES, 0, "rd1 format" },
		{ "(once,restart)", "FMM", PROTO_FSFMT_RESTART, 0,
		  "rd1 format=restart" },
		{ "only", "FF", PROTO_FSFMT_YES, 0, "rd1 xfersize=4k format" },
		{ "clean", "F", PROTO_FSFMT_CLEAN, 0,
		  "rd1 xfersize=4k format=clean" },
		{ "(once,directories)", "FMM", PROTO_FSFMT_YES,
		  PROTO_FSFMT_DIRS, "rd1 format=directories" },
		{ "(restart,directories,only,once)", "F", PROTO_FSFMT_RESTART,
		  PROTO_FSFMT_DIRS, "rd1 format=(restart,directories)" },
		{ "(only,limited,once)", "F", PROTO_FSFMT_YES,
		  PROTO_FSFMT_LIMITED, "rd1 format=limited" },
		{ "(no,complete)", "MM", 0, PROTO_FSFMT_COMPLETE,
		  "rd1 xfersize=4k" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char text[512];
		struct params *p;
		struct plan_phase *ph;
		struct proto_plan a;
		size_t n;

		snprintf(text, sizeof(text),
			 FSD1
			 "fwd=format,xfersize=(16k,50,32k,50)\n" FWD1
			 "rd=rd1,format=%s,elapsed=6,interval=2,forxfersize=(4k,8k)\n",
			 cases[i].format);
		p = parse_ok(text);
		assert_int_equal(p->nfwd, 1); /* fwd=format is no workload */
		assert_int_equal(p->fs_format_xfer, 16384);
		ph = phases_ok(p, &n);
		assert_int_equal(n, strlen(cases[i].kinds));
		assert_string_equal(ph[0].name, cases[i].name0);
		for (size_t k = 0; k < n; k++) {
			bool fmt = cases[i].kinds[k] == 'F';

			assert_int_equal(ph[k].kind,
					 fmt ? PLAN_FORMAT : PLAN_MEASURE);
			plan_ok(p, &ph[k], 0, "h1", &a);
			assert_int_equal(a.nfsds, 1);
			assert_int_equal(a.format, fmt);
			assert_int_equal(a.fsds[0].format,
					 fmt ? cases[i].fs_format : 0);
			assert_int_equal(a.fsds[0].format_xfer, 16384);
			/* Format words on formats, complete on runs. */
			assert_int_equal(a.fsds[0].format_flags,
					 (cases[i].flags ==
					  PROTO_FSFMT_COMPLETE) == !fmt ?
						 cases[i].flags :
						 0);
			/* limited: the rd's elapsed=, else a long bound. */
			if (fmt)
				assert_int_equal(ph[k].intervals,
						 cases[i].flags &
								 PROTO_FSFMT_LIMITED ?
							 3 :
							 (unsigned)(PLAN_FORMAT_BOUND_S /
								    2));
			proto_msg_free(&(struct proto_msg){ .type = PROTO_PLAN,
							    .u.plan = a });
		}
		free(ph);
		params_free(&p);
	}
	/* Without fwd=format: Vdbench's 128k and 8 threads. */
	{
		struct params *p = parse_ok(FSD1 FWD1 RD1);

		assert_int_equal(p->fs_format_xfer, 128 * 1024);
		assert_int_equal(p->fs_format_threads, 8);
		assert_false(p->format_fwd);
		params_free(&p);
	}
	/*
	 * fwd=format threads=: each slave's threads, on each fsd of the
	 * plan; without threads= fwd=default's (1 unless it gives some),
	 * as Vdbench clones fwd=default into fwd=format.
	 */
	{
		static const struct {
			const char *fwd;
			uint32_t threads;
		} tcase[] = {
			{ "fwd=format,threads=4\n", 4 },
			{ "fwd=format,threads=64\n", 64 },
			{ "fwd=format,xfersize=8k\n", 1 },
			{ "fwd=default,threads=3\nfwd=format\n", 3 },
		};

		for (size_t i = 0; i < sizeof(tcase) / sizeof(*tcase); i++) {
			char text[512];
			struct params *p;
			struct plan_phase *ph;
			struct proto_plan a;
			size_t n;

			snprintf(text, sizeof(text),
				 FSD1
				 "%s" FWD1
				 "rd=rd1,format=yes,elapsed=6,interval=2\n",
				 tcase[i].fwd);
			p = parse_ok(text);
			assert_int_equal(p->fs_format_threads,
					 tcase[i].threads);
			ph = phases_ok(p, &n);
			plan_ok(p, &ph[0], 0, "h1", &a);
			assert_int_equal(a.format, 1);
			assert_int_equal(a.fsds[0].format_threads,
					 tcase[i].threads);
			proto_msg_free(&(struct proto_msg){ .type = PROTO_PLAN,
							    .u.plan = a });
			free(ph);
			params_free(&p);
		}
	}
}

static void test_plan_errors(void **state)
{
	struct params *p = parse_ok(two);
	struct plan_phase *ph;
	struct proto_plan a;
	size_t n;

	(void)state;
	ph = phases_ok(p, &n);
	/* A slave name that is not one folder name. */
	assert_int_equal(plan_fs_for_slave(p, &ph[1], 2, (const int[]){ 0, 1 },
					   0, 2, "../x", "uring", &a, err,
					   sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, NAME
			    ":3:1: fsd=own: slave name '../x' cannot name its subtree of anchor=/mnt/own (one folder name: letters, digits, '-', '_' and '.', not starting with '.'); rename the slave or give the fsd shared=yes");
	/* fwd cr runs on h2 only: a cluster of h1 alone cannot run it. */
	assert_int_equal(plan_fs_for_slave(p, &ph[1], 2, (const int[]){ 0 }, 0,
					   1, "h1", "uring", &a, err,
					   sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, NAME
			    ":6:1: fwd=cr: no slave runs it in rd1 (check its host=)");
	free(ph);
	params_free(&p);
}

/* The rd loops of fwd= runs and count=, refused in their bad forms. */
static void test_loop_errors(void **state)
{
	static const struct {
		const char *text, *msg;
	} cases[] = {
		{ FSD1 FWD1 "rd=rd1,operations=(read,bogus)\n",
		  "3:25: operations=bogus is not an operation (read, write, create, delete, mkdir, rmdir, open, close, getattr, setattr, access, copy or move)" },
		{ FSD1 FWD1 "rd=rd1,operations=(read,getattr,read)\n",
		  "3:33: operations= names read twice (each fwd runs each operation once)" },
		{ FSD1 FWD1
		  "rd=rd1,operations=read,foroperation=(read,write)\n",
		  "3:24: rd=rd1: operations= and foroperation= are mutually exclusive (Vdbench's rule)" },
		{ FSD1 FWD1 "rd=rd1,foroperation=(read,move)\n",
		  "3:8: rd=rd1: copy and move need a target=, and fwd=fwd1 has none (Vdbench's rule)" },
		{ FSD1 "fwd=fwd1,rdpct=50,fileio=random\n"
		       "rd=rd1,operations=(read,write)\n",
		  "3:8: rd=rd1: fwd=fwd1 has rdpct=, so it runs read or write alone (Vdbench's rule)" },
		{ FSD1 "fwd=fwd1,fileio=random\n"
		       "rd=rd1,foroperation=(read,getattr),forrdpct=(50,70)\n",
		  "3:36: rd=rd1: forrdpct= mixes reads and writes in every fwd, and fwd=fwd1 is not operation=read or write with fileio=random (Vdbench's rdpct= rule)" },
		{ FSD1 FWD1 "rd=rd1,foroperation=(read,sideways)\n",
		  "3:27: foroperation=sideways is not an operation (read, write, create, delete, mkdir, rmdir, open, close, getattr, setattr, access, copy or move)" },
		{ FSD1 FWD1 "rd=rd1,forwidth=(2,3)\n",
		  "3:8: rd=rd1: forwidth= changes the tree's shape, which needs format=yes or only (Vdbench refuses a run on a tree of another shape than its control file's)" },
		{ FSD1 FWD1 "rd=rd1,format=restart,fordepth=(1,2)\n",
		  "3:23: rd=rd1: fordepth= changes the tree's shape, which needs format=yes or only (Vdbench refuses a run on a tree of another shape than its control file's)" },
		{ FSD1 FWD1 "rd=rd1,format=once,forwidth=(2,3)\n",
		  "3:20: rd=rd1: forwidth= with format=once: each value makes another tree, which needs its own format (give format=yes)" },
		{ FSD1 FWD1 "rd=rd1,format=clean,fortotal=(1m,2m)\n",
		  "3:21: rd=rd1: fortotal= with format=clean: clean deletes the trees and runs nothing to loop over" },
		{ FSD1 FWD1 "rd=rd1,format=yes,forfiles=(0,2)\n",
		  "3:29: forfiles=0 is out of range 1..10000000" },
		{ FSD1 FWD1 "rd=rd1,forwss=10%\n",
		  "3:15: forwss=10%: a percentage is only for fortotal= (Vdbench's For_loop resolves no other); give bytes" },
		{ "sd=sd1,lun=/dev/x\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,forwidth=(1,2)\n",
		  "3:15: rd=rd1: forwidth= is for fwd= runs" },
		{ "sd=sd1,lun=/dev/x\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,operations=read\n",
		  "3:15: rd=rd1: operations= is for fwd= runs" },
		{ "fsd=f,anchor=/a,count=(1)\n" FWD1 RD1,
		  "1:23: count= takes two values, (start,count) (Vdbench's rule)" },
		{ "fsd=f,anchor=/a,count=(1,0)\n" FWD1 RD1,
		  "1:26: count=0 is out of range 1..10000" },
		{ "fsd=f2,anchor=/b\nfsd=f,anchor=/a,count=(1,2)\n" FWD1 RD1,
		  "2:1: fsd=f: count= makes fsd=f2, which is defined already" },
		{ "fsd=g,anchor=/a2\nfsd=f,anchor=/a,count=(1,2)\n" FWD1 RD1,
		  "2:14: fsd=f2: anchor=/a2 is also fsd=g's (line 1): two trees in one folder would clean each other away" },
		{ "fsd=f,anchor=/a,count=(1,2)\nfwd=fwd1,fsd=f\n" RD1,
		  "2:14: fsd=f refers to an undefined fsd" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		parse_err_at(cases[i].text, cases[i].msg);
}

/* count=(start,n): n fsds, names and anchors numbered from start. */
static void test_count(void **state)
{
	struct params *p = parse_ok(
		"fsd=f,anchor=/mnt/a,width=3,count=(0,3)\n"
		"fsd=g,anchor=/mnt/b/,count=(7,1)\n"
		"fwd=fwd1,fsd=f*\nfwd=fwd2,fsd=g7\nrd=rd1,fwd=fwd1\n");
	static const char *const names[] = { "f0", "f1", "f2", "g7" };
	static const char *const anchors[] = { "/mnt/a0", "/mnt/a1", "/mnt/a2",
					       "/mnt/b/7" };

	(void)state;
	assert_int_equal(p->nfsd, 4);
	for (size_t i = 0; i < 4; i++) {
		assert_string_equal(p->fsd[i].name, names[i]);
		assert_string_equal(p->fsd[i].anchor, anchors[i]);
		assert_int_equal(p->fsd[i].width, i < 3 ? 3 : 1);
	}
	assert_int_equal(p->fwd[0].nfsd, 3);
	assert_int_equal(p->fwd[1].fsd[0], 3);
	params_free(&p);
}

/*
 * operations=: each fwd runs each operation on each fsd, its threads
 * and rate split over them (Vdbench's createFwgListForOneRd);
 * foroperation=: a run per operation, standing for every fwd's.
 */
static void test_plan_operations(void **state)
{
	struct params *p = parse_ok(
		"hd=h1\nhd=h2\n"
		"fsd=fsd1,anchor=/mnt/a\nfsd=fsd2,anchor=/mnt/b\n"
		"fwd=w,fsd=(fsd1,fsd2),operation=read,threads=16\n"
		"rd=ops,fwd=w,fwdrate=800,operations=(getattr,access)\n"
		"rd=for,fwd=w,fwdrate=800,foroperation=(delete,read)\n");
	static const uint32_t ops[] = { PROTO_FSOP_GETATTR, PROTO_FSOP_ACCESS };
	struct plan_phase *ph;
	struct proto_plan a;
	size_t n;

	(void)state;
	ph = phases_ok(p, &n);
	assert_int_equal(n, 3);
	plan_ok(p, &ph[0], 1, "h2", &a);
	assert_int_equal(a.nfwds, 4);
	for (uint32_t i = 0; i < 4; i++) {
		assert_int_equal(a.fwds[i].fsd, i / 2);
		assert_int_equal(a.fwds[i].op, ops[i % 2]);
		/* 16 threads over 2 fsds, 2 operations and 2 slaves. */
		assert_int_equal(a.fwds[i].threads, 2);
		assert_true(a.fwds[i].rate == 100);
	}
	proto_msg_free(&(struct proto_msg){ .type = PROTO_PLAN, .u.plan = a });
	assert_string_equal(ph[1].name, "for operation=delete");
	assert_string_equal(ph[2].name, "for operation=read");
	for (size_t k = 1; k < 3; k++) {
		plan_ok(p, &ph[k], 0, "h1", &a);
		assert_int_equal(a.nfwds, 2);
		for (uint32_t i = 0; i < 2; i++) {
			assert_int_equal(a.fwds[i].op,
					 k == 1 ? PROTO_FSOP_DELETE :
						  PROTO_FSOP_READ);
			assert_int_equal(a.fwds[i].threads, 4);
			assert_true(a.fwds[i].rate == 200);
		}
		proto_msg_free(
			&(struct proto_msg){ .type = PROTO_PLAN, .u.plan = a });
	}
	free(ph);
	params_free(&p);
}

/*
 * The tree loops with format=yes: a format before each combination
 * (Vdbench's buildNewRdListForFwd), the last shape cleaned as it was
 * made before a new shape; each slave's fsds carry the phase's values;
 * format=only runs nothing.
 */
static void test_plan_tree_loops(void **state)
{
	struct params *p = parse_ok(
		"hd=h1\nhd=h2\n"
		"fsd=fsd1,anchor=/mnt/a,depth=1,width=2,files=4,sizes=(4k,50,8k,50)\n"
		"fwd=w,fsd=fsd1,operation=read,threads=2\n"
		"rd=t,fwd=w,format=yes,forwidth=(2,3),forsizes=(8k,16k),forwss=(8k,16k)\n"
		"rd=o,fwd=w,format=only,fordepth=(1,2),fortotal=(16k,32k)\n");
	static const struct {
		const char *name;
		uint32_t format, width;
		uint64_t size, wss;
	} want[] = {
		{ "t width=2 sizes=8k wss=8k format", PROTO_FSFMT_YES, 2, 8192,
		  8192 },
		{ "t width=2 sizes=8k wss=8k", 0, 2, 8192, 8192 },
		{ "t width=2 sizes=8k wss=16k format", PROTO_FSFMT_YES, 2, 8192,
		  16384 },
		{ "t width=2 sizes=8k wss=16k", 0, 2, 8192, 16384 },
		{ "t width=2 sizes=8k wss=16k format=clean", PROTO_FSFMT_CLEAN,
		  2, 8192, 16384 },
		{ "t width=2 sizes=16k wss=8k format", PROTO_FSFMT_YES, 2,
		  16384, 8192 },
		{ "t width=2 sizes=16k wss=8k", 0, 2, 16384, 8192 },
		{ "t width=2 sizes=16k wss=16k format", PROTO_FSFMT_YES, 2,
		  16384, 16384 },
		{ "t width=2 sizes=16k wss=16k", 0, 2, 16384, 16384 },
		{ "t width=2 sizes=16k wss=16k format=clean", PROTO_FSFMT_CLEAN,
		  2, 16384, 16384 },
		{ "t width=3 sizes=8k wss=8k format", PROTO_FSFMT_YES, 3, 8192,
		  8192 },
		{ "t width=3 sizes=8k wss=8k", 0, 3, 8192, 8192 },
		{ "t width=3 sizes=8k wss=16k format", PROTO_FSFMT_YES, 3, 8192,
		  16384 },
		{ "t width=3 sizes=8k wss=16k", 0, 3, 8192, 16384 },
		{ "t width=3 sizes=8k wss=16k format=clean", PROTO_FSFMT_CLEAN,
		  3, 8192, 16384 },
		{ "t width=3 sizes=16k wss=8k format", PROTO_FSFMT_YES, 3,
		  16384, 8192 },
		{ "t width=3 sizes=16k wss=8k", 0, 3, 16384, 8192 },
		{ "t width=3 sizes=16k wss=16k format", PROTO_FSFMT_YES, 3,
		  16384, 16384 },
		{ "t width=3 sizes=16k wss=16k", 0, 3, 16384, 16384 },
		/* format=only: a format per tree, the shape's clean between. */
		{ "o depth=1 totalsize=16k format", PROTO_FSFMT_YES, 2, 0, 0 },
		{ "o depth=1 totalsize=32k format", PROTO_FSFMT_YES, 2, 0, 0 },
		{ "o depth=1 totalsize=32k format=clean", PROTO_FSFMT_CLEAN, 2,
		  0, 0 },
		{ "o depth=2 totalsize=16k format", PROTO_FSFMT_YES, 2, 0, 0 },
		{ "o depth=2 totalsize=32k format", PROTO_FSFMT_YES, 2, 0, 0 },
	};
	struct plan_phase *ph;
	struct proto_plan a;
	size_t n;

	(void)state;
	ph = phases_ok(p, &n);
	assert_int_equal(n, sizeof(want) / sizeof(want[0]));
	for (size_t k = 0; k < n; k++) {
		const struct proto_fsd *f;

		assert_string_equal(ph[k].name, want[k].name);
		assert_int_equal(ph[k].kind,
				 want[k].format ? PLAN_FORMAT : PLAN_MEASURE);
		plan_ok(p, &ph[k], 1, "h2", &a);
		assert_int_equal(a.nfsds, 1);
		f = &a.fsds[0];
		assert_int_equal(f->format, want[k].format);
		assert_int_equal(f->width, want[k].width);
		assert_int_equal(a.nfwds, want[k].format ? 0 : 1);
		if (want[k].size) {
			assert_int_equal(f->nsizes, 1);
			assert_int_equal(f->sizes[0].size, want[k].size);
			assert_int_equal(f->sizes[0].pct, 100);
			assert_int_equal(f->wss, want[k].wss);
		} else {
			assert_int_equal(f->depth, ph[k].depth);
			assert_int_equal(f->totalsize, ph[k].totalsize);
			assert_int_equal(f->nsizes, 2);
		}
		proto_msg_free(
			&(struct proto_msg){ .type = PROTO_PLAN, .u.plan = a });
	}
	free(ph);
	params_free(&p);
}

/*
 * A tree loop inside another: the same tree comes again, each format
 * and clean phase keeps a name of its own (named as the run next to it).
 */
static void test_plan_tree_names(void **state)
{
	struct params *p = parse_ok(
		FSD1 FWD1
		"rd=u,fwd=fwd1,format=yes,forxfersize=(4k,8k),forwidth=(1,2)\n");
	static const char *const want[] = {
		"u xfersize=4k width=1 format",
		"u xfersize=4k width=1",
		"u xfersize=4k width=1 format=clean",
		"u xfersize=4k width=2 format",
		"u xfersize=4k width=2",
		"u xfersize=4k width=2 format=clean",
		"u xfersize=8k width=1 format",
		"u xfersize=8k width=1",
		"u xfersize=8k width=1 format=clean",
		"u xfersize=8k width=2 format",
		"u xfersize=8k width=2",
	};
	struct plan_phase *ph;
	size_t n;

	(void)state;
	ph = phases_ok(p, &n);
	assert_int_equal(n, sizeof(want) / sizeof(want[0]));
	for (size_t k = 0; k < n; k++)
		assert_string_equal(ph[k].name, want[k]);
	free(ph);
	params_free(&p);
}

/* A loop value that makes a tree the parser would refuse: the plan says. */
static void test_plan_tree_errors(void **state)
{
	struct params *p = parse_ok(
		"fsd=fsd1,anchor=/mnt/a,files=2,sizes=4k,totalsize=8k\n"
		"fwd=w,fsd=fsd1\n"
		"rd=t,fwd=w,format=yes,forfiles=(2,1)\n");
	struct plan_phase *ph;
	struct proto_plan a;
	size_t n;

	(void)state;
	ph = phases_ok(p, &n);
	assert_int_equal(n, 5);
	assert_int_equal(plan_fs_for_slave(p, &ph[4], 4, (const int[]){ -1 }, 0,
					   1, "s", "uring", &a, err,
					   sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, NAME
			    ":3:23: t files=1: fsd=fsd1: totalsize=8192 and workingsetsize=0 must be within the tree's 4096 bytes, the working set within totalsize= (Vdbench's rule)");
	free(ph);
	params_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_subsets_stopafter),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_phases),
		cmocka_unit_test(test_fwd_openflags),
		cmocka_unit_test(test_fsd_journal),
		cmocka_unit_test(test_create_anchors),
		cmocka_unit_test(test_plan_two_slaves),
		cmocka_unit_test(test_plan_loops),
		cmocka_unit_test(test_curve_phases),
		cmocka_unit_test(test_plan_validate),
		cmocka_unit_test(test_plan_validate_only),
		cmocka_unit_test(test_format_words),
		cmocka_unit_test(test_plan_errors),
		cmocka_unit_test(test_loop_errors),
		cmocka_unit_test(test_count),
		cmocka_unit_test(test_plan_operations),
		cmocka_unit_test(test_plan_tree_loops),
		cmocka_unit_test(test_plan_tree_errors),
		cmocka_unit_test(test_plan_tree_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
