/*
 * diff-stats: a diff over several runs per side (query/diff.h) read as
 * two samples per method and metric: the median of each side, the
 * change of the medians, the Hodges-Lehmann shift with its interval and
 * the two-sided Mann-Whitney U test (util/stats.h).  A change is
 * significant when its p-value is below alpha.
 *
 * A run where a method does not occur counts as zero for it.  With
 * normalize each run's times are shares of that run's own total.
 */
#ifndef TRACETUI_DIFF_STATS_H
#define TRACETUI_DIFF_STATS_H

#include "query/diff.h"
#include "util/stats.h"

#include <stdbool.h>
#include <stddef.h>

/* What every test on one diff shares. */
struct diff_stats {
	const struct diff *diff;
	double alpha;
	enum clock_index clock;
	bool normalize;
	struct stats_udist dist; /* of U for the diff's run counts */
	double *sample[2];       /* one value per run, reused */
};

/* One metric of one row (or one condition) over the runs. */
struct diff_stat {
	double median[2]; /* indexed by enum diff_side */
	double delta;     /* median[DIFF_NEW] - median[DIFF_BASE] */
	struct stats_shift shift;
	struct stats_utest test;
	bool significant; /* test.p < alpha */
};

/* Prepare tests on diff (runs matched) at level alpha, on clock k. */
void diff_stats_init(struct diff_stats *st, const struct diff *diff,
                     double alpha, enum clock_index k, bool normalize);
/* Release what init made. */
void diff_stats_done(struct diff_stats *st);

/* Metric m of row over the runs into out. */
void diff_stats_row(struct diff_stats *st, const struct diff_row *row,
                    enum diff_metric m, struct diff_stat *out);

/* Order diff's rows by the absolute change of the medians of m, largest
 * first, or by name for DIFF_NAME; ties by name. */
void diff_stats_sort(struct diff_stats *st, struct diff *diff,
                     enum diff_metric m);

/*
 * Evaluate c per run (the values of the methods its glob matches summed
 * within each run, or each run's total) and compare the medians as
 * diff_cond_eval compares two traces; r->holds only when the threshold
 * is passed and the runs differ significantly.  The test goes to *stat.
 */
void diff_stats_cond_eval(struct diff_stats *st, const struct diff_cond *c,
                          struct diff_cond_result *r, struct diff_stat *stat);

#endif
