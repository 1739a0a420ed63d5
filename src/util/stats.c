/*
 * stats: the exact null distribution of U comes from counting, for m
 * values of x and n of y, the orderings with U = u: the largest value
 * is a y, which beats all m x's (W(m, n-1, u-m)), or an x, which beats
 * none (W(m-1, n, u)).  One row per m, updated in place for each n, so
 * sizes of 50 and 50 cost 51 rows of 2501 counts and 6 million sums.
 * Counts are doubles: C(100, 50) is about 1e29, well inside their range,
 * and only additions touch them.
 *
 * With ties the null distribution depends on which values tie, so it is
 * made per test: the statistic is the sum of the smaller sample's
 * midranks, doubled to stay integers (a run of ties from rank i+1 to j
 * has midrank (i+1+j)/2), and the number of subsets of k of the N
 * doubled midranks with each sum is counted by one pass over them,
 * k rows of at most 2kN sums: at most 2 (kN)^2 additions.
 */
#include "config.h"

#include "util/sort.h"
#include "util/stats.h"

#include "util/alloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int
double_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double
stats_median(double *x, size_t n)
{
	sort_items(x, n, sizeof(*x), double_cmp);
	return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

double
stats_normal_cdf(double z)
{
	return 0.5 * erfc(-z / sqrt(2.0));
}

double
stats_normal_quantile(double p)
{
	double lo = -40, hi = 40;
	int i;

	for (i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2;

		if (stats_normal_cdf(mid) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

void
stats_udist_init(struct stats_udist *d, size_t n1, size_t n2)
{
	size_t top = n1 * n2, m, n, u;
	double *w, total = 0, sum = 0;

	d->n1 = n1;
	d->n2 = n2;
	d->cdf = NULL;
	if (n1 > STATS_EXACT_MAX || n2 > STATS_EXACT_MAX)
		return;
	/* w[m * (top + 1) + u] = W(m, n, u) for the current n. */
	w = xcalloc((n1 + 1) * (top + 1), sizeof(*w));
	for (m = 0; m <= n1; m++)
		w[m * (top + 1)] = 1;
	for (n = 1; n <= n2; n++)
		for (m = 1; m <= n1; m++) {
			double *row = w + m * (top + 1);
			const double *less = row - (top + 1);

			for (u = m * n + 1; u-- > 0;)
				row[u] = (u >= m ? row[u - m] : 0) + less[u];
		}
	d->cdf = xcalloc(top + 1, sizeof(*d->cdf));
	for (u = 0; u <= top; u++)
		total += w[n1 * (top + 1) + u];
	for (u = 0; u <= top; u++) {
		sum += w[n1 * (top + 1) + u];
		d->cdf[u] = sum / total;
	}
	free(w);
}

void
stats_udist_done(struct stats_udist *d)
{
	free(d->cdf);
	d->cdf = NULL;
}

/* The normal approximation of U without ties, continuity corrected. */
static double
normal_u_cdf(size_t n1, size_t n2, double u)
{
	double mean = (double)n1 * (double)n2 / 2;
	double sd = sqrt((double)n1 * (double)n2 * (double)(n1 + n2 + 1) / 12);

	return stats_normal_cdf((u + 0.5 - mean) / sd);
}

double
stats_udist_cdf(const struct stats_udist *d, double u)
{
	double top = (double)d->n1 * (double)d->n2;

	if (u < 0)
		return 0;
	if (u >= top)
		return 1;
	if (!d->cdf)
		return normal_u_cdf(d->n1, d->n2, u);
	return d->cdf[(size_t)floor(u)];
}

double
stats_min_p(const struct stats_udist *d)
{
	/* The extreme U of the test's own distribution, either way: the
	 * no-ties one, which ties can only make less extreme. */
	double p = 2 * stats_udist_cdf(d, 0);

	return p < 1 ? p : 1;
}

bool
stats_exact_with_ties(size_t n1, size_t n2)
{
	size_t k = n1 < n2 ? n1 : n2;

	return n1 <= STATS_EXACT_MAX && n2 <= STATS_EXACT_MAX &&
	       k * (n1 + n2) <= STATS_EXACT_TIES_MAX;
}

struct ranked {
	double v;
	bool is_y;
};

static int
ranked_cmp(const void *a, const void *b)
{
	return double_cmp(&((const struct ranked *)a)->v,
	                  &((const struct ranked *)b)->v);
}

/*
 * The exact permutation test given the ties: r2[0..n) the doubled
 * midranks, of which the smaller sample holds k summing to observed.
 * Sets t->p (twice the smaller tail, at most 1) and t->min_p (the same
 * at the least and the greatest sum these midranks allow).
 */
static void
tied_exact(const unsigned *r2, size_t n, size_t k, unsigned long observed,
           struct stats_utest *t)
{
	size_t top = 0, i, j, s, lowest, highest;
	double *w, total = 0, below = 0, above = 0, tail;

	if (r2[0] == r2[n - 1]) { /* every value alike: nothing differs */
		t->p = t->min_p = 1;
		return;
	}
	for (i = 0; i < k; i++)
		top += r2[n - 1 - i]; /* r2 ascends: the k largest */
	/* w[j * (top + 1) + s]: subsets of j of the midranks so far with
	 * doubled sum s. */
	w = xcalloc((k + 1) * (top + 1), sizeof(*w));
	w[0] = 1;
	for (i = 0; i < n; i++)
		for (j = i + 1 < k ? i + 1 : k; j > 0; j--) {
			double *row = w + j * (top + 1);
			const double *less = row - (top + 1);

			for (s = top + 1; s-- > r2[i];)
				row[s] += less[s - r2[i]];
		}
	w += k * (top + 1);
	for (s = 0; s <= top; s++) {
		total += w[s];
		if (s <= observed)
			below += w[s];
		if (s >= observed)
			above += w[s];
	}
	for (lowest = 0; !w[lowest]; lowest++)
		;
	for (highest = top; !w[highest]; highest--)
		;
	tail = below < above ? below : above;
	t->p = 2 * tail / total;
	tail = w[lowest] < w[highest] ? w[lowest] : w[highest];
	t->min_p = 2 * tail / total;
	if (t->p > 1)
		t->p = 1;
	if (t->min_p > 1)
		t->min_p = 1;
	free(w - k * (top + 1));
}

void
stats_mann_whitney(const struct stats_udist *d, const double *x, size_t nx,
                   const double *y, size_t ny, struct stats_utest *t)
{
	size_t n = nx + ny, i, j;
	struct ranked *all = xcalloc(n, sizeof(*all));
	unsigned *r2 = xcalloc(n, sizeof(*r2));
	unsigned long doubled_small = 0;
	double ranks_y = 0, ties = 0, top = (double)nx * (double)ny;
	struct stats_udist own;
	bool small_is_y = ny <= nx;

	for (i = 0; i < nx; i++)
		all[i] = (struct ranked){x[i], false};
	for (i = 0; i < ny; i++)
		all[nx + i] = (struct ranked){y[i], true};
	sort_items(all, n, sizeof(*all), ranked_cmp);
	t->ties = false;
	for (i = 0; i < n; i = j) {
		double mid, run;
		unsigned twice;

		for (j = i + 1; j < n && all[j].v == all[i].v; j++)
			;
		/* Ranks i+1..j share their mean. */
		mid = (double)(i + 1 + j) / 2;
		run = (double)(j - i);
		if (j - i > 1) {
			t->ties = true;
			ties += run * run * run - run;
		}
		twice = (unsigned)(i + 1 + j);
		for (; i < j; i++) {
			r2[i] = twice;
			if (all[i].is_y)
				ranks_y += mid;
			if (all[i].is_y == small_is_y)
				doubled_small += r2[i];
		}
	}
	free(all);
	t->u = ranks_y - (double)ny * (double)(ny + 1) / 2;
	t->min_p = 0;
	if (t->ties && stats_exact_with_ties(nx, ny)) {
		t->exact = true;
		tied_exact(r2, n, small_is_y ? ny : nx, doubled_small, t);
		free(r2);
		return;
	}
	free(r2);
	t->exact = !t->ties && nx <= STATS_EXACT_MAX && ny <= STATS_EXACT_MAX;
	if (t->exact) {
		double low = t->u < top - t->u ? t->u : top - t->u;

		if (!d) {
			stats_udist_init(&own, nx, ny);
			d = &own;
		}
		t->p = 2 * stats_udist_cdf(d, low);
		t->min_p = stats_min_p(d);
		if (d == &own)
			stats_udist_done(&own);
	} else {
		double nn = (double)n;
		double var = top / 12 * (nn + 1 - ties / (nn * (nn - 1)));
		double z;

		if (var <= 0) {
			t->p = t->min_p = 1;
			return;
		}
		z = (fabs(t->u - top / 2) - 0.5) / sqrt(var);
		t->p = erfc((z > 0 ? z : 0) / sqrt(2.0));
		z = (top / 2 - 0.5) / sqrt(var);
		t->min_p = erfc((z > 0 ? z : 0) / sqrt(2.0));
	}
	if (t->p > 1)
		t->p = 1;
	if (t->min_p > 1)
		t->min_p = 1;
}

void
stats_shift(const struct stats_udist *d, const double *x, size_t nx,
            const double *y, size_t ny, double alpha, struct stats_shift *s)
{
	size_t npairs = nx * ny, i, j, c;
	double *diffs = xcalloc(npairs, sizeof(*diffs));
	struct stats_udist own;

	for (i = 0; i < nx; i++)
		for (j = 0; j < ny; j++)
			diffs[i * ny + j] = y[j] - x[i];
	s->estimate = stats_median(diffs, npairs);
	s->has_ci = false;
	s->low = s->high = s->estimate;
	s->confidence = 0;
	if (!d) {
		stats_udist_init(&own, nx, ny);
		d = &own;
	}
	/* c: the largest count with P(U <= c) <= alpha / 2. */
	if (stats_udist_cdf(d, 0) <= alpha / 2) {
		for (c = 0; c + 1 < npairs &&
		            stats_udist_cdf(d, (double)(c + 1)) <= alpha / 2;
		     c++)
			;
		if (c < npairs - 1 - c) {
			s->has_ci = true;
			s->low = diffs[c];
			s->high = diffs[npairs - 1 - c];
			s->confidence = 1 - 2 * stats_udist_cdf(d, (double)c);
		}
	}
	if (d == &own)
		stats_udist_done(&own);
	free(diffs);
}
