/*
 * The phases of an rd with fwd= (docs/DESIGN.md section 12): per
 * combination of its for-loops a format phase as format= says (yes,
 * only, restart, clean, directories, limited, once, (no,complete)), a
 * tree loop's format and clean per tree, then the run at fwdrate= or
 * fwdrate=curve's phases; validate=only's one pass. Built on plan_loop.c;
 * plan.c's plan_phases calls plan_fs_phases. The per-slave plans are
 * plan_fs.c.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include "master/plan/plan.h"
#include "master/plan/plan_int.h"

/* " format" then "", "=restart", "=(restart,directories)", ... */
static void fs_format_name(const struct params_rd *rd, char *name)
{
	const char *w[3];
	int n = 0;

	if (rd->format == PARAMS_FORMAT_RESTART ||
	    rd->format == PARAMS_FORMAT_RESTART_ONLY)
		w[n++] = "restart";
	else if (rd->format == PARAMS_FORMAT_CLEAN)
		w[n++] = "clean";
	if (rd->format_dirs)
		w[n++] = "directories";
	if (rd->format_limited)
		w[n++] = "limited";
	if (n == 1)
		plan_name_add(name, "=%s", w[0]);
	else if (n == 2)
		plan_name_add(name, "=(%s,%s)", w[0], w[1]);
	else if (n == 3)
		plan_name_add(name, "=(%s,%s,%s)", w[0], w[1], w[2]);
}

/*
 * The run phases of an fwd= rd's loop combination: one at fwdrate= (0 =
 * max), or fwdrate=curve's (curve_phases; the point's rate is its share
 * of the max phase's requested operations' rate, master/run/skip.c).
 */
static int fs_rate_phases(const struct params_rd *rd,
			  const struct plan_phase *combo, struct plan_list *a)
{
	struct plan_phase *x;

	if (rd->fwdrate_curve)
		return plan_curve_phases(rd, combo, a);
	x = plan_phase_add(a, combo);
	if (!x)
		return -ENOMEM;
	x->iorate = rd->fwdrate;
	return 0;
}

/*
 * The format phase of an rd with fwd=: format=yes, only and restart make
 * the trees (directories: the folders only), clean deletes them. Sized
 * as a block format phase, but format=(only,limited): the rd's elapsed=
 * (Vdbench's setFormatOperation gives a limited format the rd's elapsed,
 * any other none), the slave's format stopped at its end being done.
 */
static int fs_format_phase(const struct params *p, const struct params_rd *rd,
			   const struct plan_phase *base, struct plan_list *a)
{
	struct plan_phase *x = plan_phase_add(a, base);

	if (!x)
		return -1;
	plan_format_phase(p, rd, x);
	x->fs_format_flags = 0;
	if (rd->format_dirs)
		x->fs_format_flags |= PROTO_FSFMT_DIRS;
	if (rd->format_limited) {
		x->fs_format_flags |= PROTO_FSFMT_LIMITED;
		x->intervals = base->intervals - base->warmup_intervals;
		x->elapsed_s = base->elapsed_s;
	}
	x->fs_format = rd->format == PARAMS_FORMAT_RESTART ||
				       rd->format ==
					       PARAMS_FORMAT_RESTART_ONLY ?
			       PROTO_FSFMT_RESTART :
		       rd->format == PARAMS_FORMAT_CLEAN ? PROTO_FSFMT_CLEAN :
							   PROTO_FSFMT_YES;
	fs_format_name(rd, x->name);
	return 0;
}

/* Whether rd formats a tree per value of a tree loop (fs_tree_phases). */
static bool fs_tree_formats(const struct params_rd *rd)
{
	if (rd->format != PARAMS_FORMAT_YES && rd->format != PARAMS_FORMAT_ONLY)
		return false;
	for (size_t l = 0; l < rd->nloop; l++)
		if (rd->loop[l].kind >= PARAMS_LOOP_DEPTH &&
		    rd->loop[l].kind <= PARAMS_LOOP_TOTAL)
			return true;
	return false;
}

/* Whether phases a and b of one rd make trees of one shape (the marker's). */
static bool fs_same_shape(const struct plan_phase *a,
			  const struct plan_phase *b)
{
	return a->depth == b->depth && a->width == b->width &&
	       a->files == b->files && a->fsize == b->fsize;
}

/* A format=clean phase of the trees combo's values say, into a. */
static int fs_clean_add(const struct params *p, const struct params_rd *rd,
			const struct plan_phase *combo, struct plan_list *a)
{
	struct plan_phase *x = plan_phase_add(a, combo);

	if (!x)
		return -1;
	plan_format_phase(p, rd, x);
	x->fs_format = PROTO_FSFMT_CLEAN;
	x->fs_format_flags = 0;
	plan_name_add(x->name, "=clean");
	return 0;
}

/*
 * format=yes or only with a tree loop (fordepth=, forwidth=, forfiles=,
 * forsizes=, fortotal=): Vdbench's buildNewRdListForFwd formats before
 * each combination (insertFwdFormatIfNeeded, with the combination's
 * values), and so does lockstep (fs_format_phase; format=once is
 * refused with a tree loop: each tree needs its format). A tree of
 * another shape is first cleaned as the last
 * one was made (a format=clean phase with its values): the slave's
 * format refuses a marker of another shape, and its clean removes only
 * what that marker's tree names (slave/anchor.c), never anything else.
 */
static int fs_tree_phases(const struct params *p, const struct params_rd *rd,
			  const struct plan_phase *base, struct plan_list *a)
{
	size_t idx[PARAMS_LOOP_NR] = { 0 };
	struct plan_phase last;
	bool made = false;

	do {
		struct plan_phase combo = *base;

		/*
		 * A format phase is named as the run it comes before (and a
		 * clean as the run after the tree it cleans): with a tree
		 * loop inside another, the tree's values alone come again.
		 */
		plan_loops_apply(rd, idx, &combo);
		if (made && !fs_same_shape(&last, &combo) &&
		    fs_clean_add(p, rd, &last, a))
			return -1;
		if (fs_format_phase(p, rd, &combo, a))
			return -1;
		last = combo;
		made = true;
		if (rd->format == PARAMS_FORMAT_ONLY)
			continue;
		if (fs_rate_phases(rd, &combo, a))
			return -1;
	} while (plan_loops_next(rd, idx));
	return 0;
}

/*
 * An rd with fwd=: for each combination of its for-loops (an odometer,
 * the last loop given turning fastest, as for wds; one without loops) a
 * format phase when format= asks for one, then, but for only and clean,
 * the fwds at fwdrate=. Vdbench's buildNewRdListForFwd inserts the
 * format before every combination; format=once (FormatFlags'
 * one_format_done) only before the first. (no,complete): no format, the
 * runs take the trees as complete. With a tree loop and format=yes or
 * only, fs_tree_phases.
 */
int plan_fs_phases(const struct params *p, const struct params_rd *rd,
		   struct plan_phase *base, struct plan_list *a)
{
	size_t idx[PARAMS_LOOP_NR] = { 0 }, n0;
	bool first = true;

	base->fs = true;
	/* validate=only: one pass reading every file once (plan_fs.c). */
	if (rd->validate_only) {
		struct plan_phase *x = plan_phase_add(a, base);

		if (!x)
			return -1;
		plan_format_phase(p, rd, x);
		memcpy(x->name, base->name, sizeof(x->name));
		plan_name_add(x->name, " validate");
		x->verify = true;
		x->format_bytes = 0;
		x->format_unsized = 0;
		x->fs_format = PROTO_FSFMT_NONE;
		x->fs_format_flags = 0;
		return 0;
	}
	if (fs_tree_formats(rd))
		return fs_tree_phases(p, rd, base, a);
	/* The for-loops (fs_rd.c fs_loops): a run phase per value. */
	do {
		struct plan_phase combo = *base;

		plan_loops_apply(rd, idx, &combo);
		/* A clean after a clean has nothing left to delete. */
		if (rd->format != PARAMS_FORMAT_NO &&
		    (first ||
		     (!rd->format_once && rd->format != PARAMS_FORMAT_CLEAN)) &&
		    fs_format_phase(p, rd, rd->format_once ? base : &combo, a))
			return -1;
		first = false;
		if (rd->format == PARAMS_FORMAT_ONLY ||
		    rd->format == PARAMS_FORMAT_RESTART_ONLY ||
		    rd->format == PARAMS_FORMAT_CLEAN)
			continue;
		n0 = a->n;
		if (fs_rate_phases(rd, &combo, a))
			return -1;
		for (size_t i = n0; rd->format_complete && i < a->n; i++)
			a->ph[i].fs_format_flags = PROTO_FSFMT_COMPLETE;
	} while (plan_loops_next(rd, idx));
	return 0;
}
