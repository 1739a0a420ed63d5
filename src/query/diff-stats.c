/*
 * diff-stats: each test copies the runs' values into two small samples
 * and hands them to util/stats; the null distribution of U without ties
 * depends only on the run counts, so it is made once per diff (with
 * ties util/stats counts one per test).
 */
#include "config.h"

#include "query/diff-stats.h"

#include "util/alloc.h"
#include "util/sort.h"

#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void
diff_stats_init(struct diff_stats *st, const struct diff *diff, double alpha,
                enum clock_index k, bool normalize)
{
	int s;

	st->diff = diff;
	st->alpha = alpha;
	st->clock = k;
	st->normalize = normalize;
	stats_udist_init(&st->dist, diff->nruns[DIFF_BASE],
	                 diff->nruns[DIFF_NEW]);
	for (s = 0; s < 2; s++)
		st->sample[s] =
		        xcalloc(diff->nruns[s] + 1, sizeof(*st->sample[s]));
}

void
diff_stats_done(struct diff_stats *st)
{
	stats_udist_done(&st->dist);
	free(st->sample[0]);
	free(st->sample[1]);
	st->sample[0] = st->sample[1] = NULL;
}

/* The tests on the samples already in st. */
static void
compare_samples(struct diff_stats *st, struct diff_stat *out)
{
	const size_t *n = st->diff->nruns;
	int s;

	stats_mann_whitney(&st->dist, st->sample[DIFF_BASE], n[DIFF_BASE],
	                   st->sample[DIFF_NEW], n[DIFF_NEW], &out->test);
	stats_shift(&st->dist, st->sample[DIFF_BASE], n[DIFF_BASE],
	            st->sample[DIFF_NEW], n[DIFF_NEW], st->alpha, &out->shift);
	/* The median sorts its sample in place: after the tests. */
	for (s = 0; s < 2; s++)
		out->median[s] = stats_median(st->sample[s], n[s]);
	out->delta = out->median[DIFF_NEW] - out->median[DIFF_BASE];
	out->significant = out->test.p < st->alpha;
}

void
diff_stats_row(struct diff_stats *st, const struct diff_row *row,
               enum diff_metric m, struct diff_stat *out)
{
	size_t r;
	int s;

	for (s = 0; s < 2; s++)
		for (r = 0; r < st->diff->nruns[s]; r++)
			st->sample[s][r] =
			        diff_run_value(st->diff, row, (enum diff_side)s,
			                       r, m, st->clock, st->normalize);
	compare_samples(st, out);
}

struct keyed_row {
	double key;
	struct diff_row row;
};

static int
keyed_cmp(const void *a, const void *b)
{
	const struct keyed_row *x = a, *y = b;

	if (x->key != y->key)
		return x->key > y->key ? -1 : 1;
	return strcmp(x->row.name, y->row.name);
}

void
diff_stats_sort(struct diff_stats *st, struct diff *diff, enum diff_metric m)
{
	struct keyed_row *k = xcalloc(diff->nrows + 1, sizeof(*k));
	size_t i, r;
	int s;

	for (i = 0; i < diff->nrows; i++) {
		double med[2] = {0, 0};

		k[i].row = diff->rows[i];
		if (m != DIFF_NAME) {
			for (s = 0; s < 2; s++) {
				for (r = 0; r < diff->nruns[s]; r++)
					st->sample[s][r] = diff_run_value(
					        diff, &diff->rows[i],
					        (enum diff_side)s, r, m,
					        st->clock, st->normalize);
				med[s] = stats_median(st->sample[s],
				                      diff->nruns[s]);
			}
		}
		k[i].key = fabs(med[DIFF_NEW] - med[DIFF_BASE]);
	}
	sort_items(k, diff->nrows, sizeof(*k), keyed_cmp);
	for (i = 0; i < diff->nrows; i++)
		diff->rows[i] = k[i].row;
	free(k);
}

void
diff_stats_cond_eval(struct diff_stats *st, const struct diff_cond *c,
                     struct diff_cond_result *r, struct diff_stat *stat)
{
	const struct diff *diff = st->diff;
	enum clock_index k = c->clock;
	bool normalize = st->normalize && !c->total;
	double base_total;
	size_t i, run;
	int s;

	memset(r, 0, sizeof(*r));
	if (c->frame)
		normalize = false;
	for (s = 0; s < 2; s++)
		for (run = 0; run < diff->nruns[s]; run++)
			st->sample[s][run] =
			        c->frame   ? (run < diff->nrun_frames[s]
			                              ? diff_frame_value(
			                                        &diff->run_frames
			                                                 [s][run],
			                                        c->frame)
			                              : 0)
			        : c->total ? (double)diff->run_total[s][run][k]
			                   : 0;
	for (i = 0; !c->total && i < diff->nrows; i++) {
		const struct diff_row *row = &diff->rows[i];

		if (fnmatch(c->glob, row->short_name, 0) != 0)
			continue;
		r->matched++;
		for (s = 0; s < 2; s++)
			for (run = 0; run < diff->nruns[s]; run++)
				st->sample[s][run] += diff_run_value(
				        diff, row, (enum diff_side)s, run,
				        c->metric, k, normalize);
	}
	compare_samples(st, stat);
	for (s = 0; s < 2; s++)
		r->value[s] = stat->median[s];
	if (c->unit == DIFF_UNIT_PERCENT) {
		diff_percent(r->value[DIFF_BASE], r->value[DIFF_NEW],
		             &r->change);
	} else if (normalize && c->metric != DIFF_CALLS) {
		for (run = 0; run < diff->nruns[DIFF_BASE]; run++)
			st->sample[DIFF_BASE][run] =
			        (double)diff->run_total[DIFF_BASE][run][k];
		base_total = stats_median(st->sample[DIFF_BASE],
		                          diff->nruns[DIFF_BASE]);
		r->change = stat->delta / 100.0 * base_total;
	} else {
		r->change = stat->delta;
	}
	for (s = 0; s < 2; s++)
		r->no_frames[s] = !diff_cond_has_frames(c, diff, s);
	r->holds = stat->significant && !diff_cond_missing(c, r) &&
	           (c->op == '>' ? r->change > c->threshold
	                         : r->change < c->threshold);
}
