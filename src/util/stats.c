/*
 * stats: the exact null distribution of U comes from counting, for m
 * values of x and n of y, the orderings with U = u: the largest value
 * is a y, which beats all m x's (W(m, n-1, u-m)), or an x, which beats
 * none (W(m-1, n, u)).  One row per m, updated in place for each n, so
 * sizes of 50 and 50 cost 51 rows of 2501 counts and 6 million sums.
 * Counts are doubles: C(100, 50) is about 1e29, well inside their range,
 * and only additions touch them.
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
stats_min_p(size_t n1, size_t n2)
{
	double c = 1;
	size_t i;

	/* C(n1 + n2, n1) built as a product, exact while it fits. */
	for (i = 1; i <= n1; i++)
		c = c * (double)(n2 + i) / (double)i;
	return 2 / c < 1 ? 2 / c : 1;
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

void
stats_mann_whitney(const struct stats_udist *d, const double *x, size_t nx,
                   const double *y, size_t ny, struct stats_utest *t)
{
	size_t n = nx + ny, i, j;
	struct ranked *all = xcalloc(n, sizeof(*all));
	double ranks_y = 0, ties = 0, top = (double)nx * (double)ny;
	struct stats_udist own;

	for (i = 0; i < nx; i++)
		all[i] = (struct ranked){x[i], false};
	for (i = 0; i < ny; i++)
		all[nx + i] = (struct ranked){y[i], true};
	sort_items(all, n, sizeof(*all), ranked_cmp);
	t->ties = false;
	for (i = 0; i < n; i = j) {
		double mid, run;

		for (j = i + 1; j < n && all[j].v == all[i].v; j++)
			;
		/* Ranks i+1..j share their mean. */
		mid = (double)(i + 1 + j) / 2;
		run = (double)(j - i);
		if (j - i > 1) {
			t->ties = true;
			ties += run * run * run - run;
		}
		for (; i < j; i++)
			if (all[i].is_y)
				ranks_y += mid;
	}
	free(all);
	t->u = ranks_y - (double)ny * (double)(ny + 1) / 2;
	t->exact = !t->ties && nx <= STATS_EXACT_MAX && ny <= STATS_EXACT_MAX;
	if (t->exact) {
		double low = t->u < top - t->u ? t->u : top - t->u;

		if (!d) {
			stats_udist_init(&own, nx, ny);
			t->p = 2 * stats_udist_cdf(&own, low);
			stats_udist_done(&own);
		} else {
			t->p = 2 * stats_udist_cdf(d, low);
		}
	} else {
		double nn = (double)n;
		double var = top / 12 * (nn + 1 - ties / (nn * (nn - 1)));
		double z;

		if (var <= 0) {
			t->p = 1;
			return;
		}
		z = (fabs(t->u - top / 2) - 0.5) / sqrt(var);
		t->p = erfc((z > 0 ? z : 0) / sqrt(2.0));
	}
	if (t->p > 1)
		t->p = 1;
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
