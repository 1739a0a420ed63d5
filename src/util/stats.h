/*
 * stats: two samples compared without assuming a distribution: medians,
 * the Mann-Whitney U test and the Hodges-Lehmann shift with its
 * distribution-free confidence interval.
 *
 * U counts the pairs (x_i, y_j) with y_j > x_i, plus half the pairs
 * that tie.  With at most STATS_EXACT_MAX values per sample its
 * two-sided p-value is exact without ties: twice the smaller tail of the
 * null distribution of U (every assignment of the ranks to the samples
 * equally likely), as benchstat does.  With ties it is exact as well
 * while k N is at most STATS_EXACT_TIES_MAX (N values, k in the smaller
 * sample: 22 a side, or 15 against 50): twice the smaller tail of the
 * permutation distribution of the midranks the values have (a tie of
 * every value gives p = 1).  Otherwise it is the normal approximation
 * with the tie correction of the variance and a continuity correction
 * of 1/2; on values of a few levels, the worst case for it, it was
 * within 0.01 of the exact p from 20 values a side (0.03 at 16, 0.07
 * at 11, 0.15 for 3 against 50: why small samples are counted).
 *
 * The shift is the median of the nx * ny differences y_j - x_i.  Its
 * interval is [D(c+1), D(N-c)] over the sorted differences, c the
 * largest count with P(U <= c) <= alpha / 2 under the exact null
 * distribution (or its normal approximation past STATS_EXACT_MAX): the
 * shifts the test would not reject.  Small samples cannot reach every
 * confidence; then there is no interval.
 */
#ifndef TRACETUI_STATS_H
#define TRACETUI_STATS_H

#include <stdbool.h>
#include <stddef.h>

enum { STATS_EXACT_MAX = 50 };
/* The largest k N for which the test with ties counts the exact
 * distribution (N values, k in the smaller sample; the count costs at
 * most 2 (k N)^2 additions, 2 million here: 0.35 ms a test for 22 runs
 * a side, 0.47 ms for 15 against 50). */
enum { STATS_EXACT_TIES_MAX = 1000 };

/* The median of x[0..n-1], n > 0; sorts x in place. */
double stats_median(double *x, size_t n);

struct stats_utest {
	double u;   /* pairs with y > x, plus half the ties */
	double p;   /* two-sided */
	double min_p; /* the least p these sizes and ties can give */
	bool exact;   /* from the exact distribution, not the normal one */
	bool ties;    /* some value occurs more than once */
};

/*
 * The null distribution of U for samples of n1 and n2 values without
 * ties: made once per pair of sizes, read by every test of that size.
 */
struct stats_udist {
	size_t n1, n2;
	double *cdf; /* P(U <= u), u = 0..n1*n2; NULL past STATS_EXACT_MAX */
};

/* Make the distribution for sizes n1, n2 (exact when both are at most
 * STATS_EXACT_MAX, else the normal approximation). */
void stats_udist_init(struct stats_udist *d, size_t n1, size_t n2);
/* Release it. */
void stats_udist_done(struct stats_udist *d);
/* P(U <= u) under d. */
double stats_udist_cdf(const struct stats_udist *d, double u);

/* The Mann-Whitney U test of y against x (nx, ny > 0); d is the
 * distribution for sizes nx, ny, or NULL to make one here. */
void stats_mann_whitney(const struct stats_udist *d, const double *x, size_t nx,
                        const double *y, size_t ny, struct stats_utest *t);

/* The smallest two-sided p-value samples of d's sizes can give (all of
 * one sample above the other, no ties; ties only raise it): 2 / C(n1 +
 * n2, n1) up to STATS_EXACT_MAX. */
double stats_min_p(const struct stats_udist *d);
/* True when stats_mann_whitney takes samples of n1 and n2 values with
 * ties through the exact distribution. */
bool stats_exact_with_ties(size_t n1, size_t n2);

struct stats_shift {
	double estimate;   /* Hodges-Lehmann: median of y_j - x_i */
	double low, high;  /* the interval, when has_ci */
	double confidence; /* its coverage under the null, e.g. 0.968 */
	bool has_ci;
};

/* The shift of y over x and its interval at level 1 - alpha; d as for
 * stats_mann_whitney. */
void stats_shift(const struct stats_udist *d, const double *x, size_t nx,
                 const double *y, size_t ny, double alpha,
                 struct stats_shift *s);

/* The standard normal distribution function. */
double stats_normal_cdf(double z);
/* Its inverse, for 0 < p < 1. */
double stats_normal_quantile(double p);

#endif
