/*
 * unit-stats: util/stats against references that share no code with it.
 *
 *   median       odd and even counts, unsorted input;
 *   U exact      the null distribution of U for every pair of sizes up
 *                to 7 against a brute-force enumeration of every subset
 *                of ranks; the two-sided critical values of published
 *                Mann-Whitney tables (alpha 0.05: 5 and 5 -> 2, 10 and
 *                10 -> 23, 20 and 20 -> 127, 8 and 12 -> 22);
 *   U test       p-values worked out by hand: complete separation of 4
 *                and 4 values (2/70), and of 5 and 5 (2/252); one
 *                crossing; ties in small samples through the exact
 *                permutation distribution of the midranks: 8,8,8
 *                against 7,7,7 (0.1, a textbook count), and every
 *                sample of sizes 1..6 x 1..6 over a few values against
 *                a brute-force enumeration of every assignment of the
 *                values to the samples, p and the least p attainable;
 *                ties in larger samples through the normal formula
 *                written out here (midranks, tie-corrected variance,
 *                continuity);
 *   shift        the Hodges-Lehmann estimate and interval of a pair of
 *                samples worked out by hand, the interval against a
 *                brute-force one at every size up to 6, and no interval
 *                where 3 and 3 values cannot reach 95%;
 *   normal       table values of the normal distribution and quantile.
 */
#include "config.h"

#include "util/stats.h"

#include "tap.h"

#include <math.h>
#include <stdlib.h>

static bool
near(double got, double want, double tol)
{
	return fabs(got - want) <= tol;
}

#define is_near(got, want, tol, ...)                                           \
	do {                                                                   \
		double g_ = (got), w_ = (want);                                \
		if (!ok(near(g_, w_, (tol)), __VA_ARGS__))                     \
			printf("#   got %.12g, want %.12g\n", g_, w_);         \
	} while (0)

static void
test_median(void)
{
	double odd[] = {5, 1, 4, 2, 3};
	double even[] = {10, 40, 20, 30};
	double one[] = {7};

	is_near(stats_median(odd, 5), 3, 0, "median of 5 values");
	is_near(stats_median(even, 4), 25, 0,
	        "median of 4: mean of the middle");
	is_near(stats_median(one, 1), 7, 0, "median of 1 value");
}

/*
 * Brute force: every subset of n1 ranks out of n1 + n2 is one equally
 * likely assignment; U of y over x = rank sum of y - n2 (n2 + 1) / 2.
 * counts[u] gets how many assignments give U = u.
 */
static void
brute_u_counts(int n1, int n2, double *counts)
{
	int n = n1 + n2;
	unsigned mask;

	for (mask = 0; mask < (1u << n); mask++) {
		int bits = 0, rank_y = 0, r;

		for (r = 0; r < n; r++)
			if (mask >> r & 1)
				bits++;
		if (bits != n2)
			continue;
		for (r = 0; r < n; r++)
			if (mask >> r & 1)
				rank_y += r + 1;
		counts[rank_y - n2 * (n2 + 1) / 2] += 1;
	}
}

static void
test_exact_distribution(void)
{
	int n1, n2;
	bool all = true;

	for (n1 = 1; n1 <= 7; n1++)
		for (n2 = 1; n2 <= 7; n2++) {
			double counts[50] = {0}, total = 0, sum = 0;
			struct stats_udist d;
			int u;

			brute_u_counts(n1, n2, counts);
			for (u = 0; u <= n1 * n2; u++)
				total += counts[u];
			stats_udist_init(&d, (size_t)n1, (size_t)n2);
			for (u = 0; u <= n1 * n2; u++) {
				sum += counts[u];
				if (!near(stats_udist_cdf(&d, u), sum / total,
				          1e-12)) {
					all = false;
					printf("# n1=%d n2=%d u=%d: %g != %g\n",
					       n1, n2, u,
					       stats_udist_cdf(&d, u),
					       sum / total);
				}
			}
			stats_udist_done(&d);
		}
	ok(all, "exact U distribution = brute force, sizes 1..7 x 1..7");
}

/* Published two-sided 0.05 critical values: P(U <= c) <= 0.025 and
 * P(U <= c + 1) > 0.025. */
static void
test_critical_values(void)
{
	static const struct {
		size_t n1, n2;
		double c;
	} table[] = {{5, 5, 2}, {10, 10, 23}, {20, 20, 127}, {8, 12, 22}};
	size_t i;

	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		struct stats_udist d;

		stats_udist_init(&d, table[i].n1, table[i].n2);
		ok(stats_udist_cdf(&d, table[i].c) <= 0.025 &&
		           stats_udist_cdf(&d, table[i].c + 1) > 0.025,
		   "critical U at 0.05 for %zu and %zu is %.0f", table[i].n1,
		   table[i].n2, table[i].c);
		stats_udist_done(&d);
	}
}

static void
test_utest(void)
{
	double x4[] = {1, 2, 3, 4}, y4[] = {5, 6, 7, 8};
	double x5[] = {98, 99, 100, 101, 102};
	double y5[] = {118, 119, 120, 121, 122};
	double cx[] = {1, 2, 3, 5}, cy[] = {4, 6, 7, 8};
	double tx[] = {1, 2, 2, 3}, ty[] = {2, 3, 4, 5};
	double same[] = {5, 5, 5}, eights[] = {8, 8, 8}, sevens[] = {7, 7, 7};
	double low3[] = {1, 1, 2}, high3[] = {2, 3, 3};
	struct stats_utest t;
	struct stats_udist d;

	stats_mann_whitney(NULL, x4, 4, y4, 4, &t);
	is_near(t.u, 16, 0, "U of 4 above 4 is 16");
	ok(t.exact && !t.ties, "no ties: exact");
	is_near(t.p, 2.0 / 70, 1e-12, "complete separation of 4 and 4: 2/70");
	stats_mann_whitney(NULL, y4, 4, x4, 4, &t);
	is_near(t.u, 0, 0, "U of 4 below 4 is 0");
	is_near(t.p, 2.0 / 70, 1e-12, "the other way round: the same p");
	stats_mann_whitney(NULL, x5, 5, y5, 5, &t);
	is_near(t.p, 2.0 / 252, 1e-12, "separation of 5 and 5: 2/252");
	/* cy over cx: 4 beats 1,2,3 (3); 6,7,8 beat all four (12): U 15,
	 * N - U = 1.  P(U <= 1) = 2/70 (U = 0 and U = 1 one way each). */
	stats_mann_whitney(NULL, cx, 4, cy, 4, &t);
	is_near(t.u, 15, 0, "one crossing: U 15");
	is_near(t.p, 2 * 2.0 / 70, 1e-12, "one crossing: p = 4/70");
	/*
	 * Ties: sorted 1x 2x 2x 2y 3x 3y 4y 5y; ranks 1, (2+3+4)/3 = 3 for
	 * the three 2s, (5+6)/2 = 5.5 for the 3s, 7, 8.  Rank sum of y:
	 * 3 + 5.5 + 7 + 8 = 23.5, U = 23.5 - 10 = 13.5.  Of the 70 ways to
	 * give 4 of the midranks 1, 3, 3, 3, 5.5, 5.5, 7, 8 to y, those
	 * summing to 23.5 or more: {8, 7, 5.5, 5.5} 26, {8, 7, 5.5, 3} (2 x
	 * 3 = 6 ways) 23.5, {8, 7, 5.5, 1} (2) 21.5 no, {8, 7, 3, 3} (3)
	 * 21 no, {8, 5.5, 5.5, 3} (3) 22 no, {7, 5.5, 5.5, 3} (3) 21 no:
	 * 7 of 70, the smaller tail; p = 14/70 = 0.2.
	 */
	stats_mann_whitney(NULL, tx, 4, ty, 4, &t);
	ok(t.ties && t.exact, "ties in small samples: exact");
	is_near(t.u, 13.5, 0, "ties: U counts half of each tied pair");
	is_near(t.p, 0.2, 1e-12, "ties: exact p 14/70");
	stats_mann_whitney(NULL, same, 3, same, 3, &t);
	is_near(t.p, 1, 0, "every value equal: p = 1");
	is_near(t.min_p, 1, 0, "every value equal: no p below 1");
	/* 8,8,8 against 7,7,7: midranks 5 and 2; of the C(6,3) = 20
	 * assignments one gives y all three 2s: p = 2/20, not 0.0469. */
	stats_mann_whitney(NULL, eights, 3, sevens, 3, &t);
	ok(t.exact, "8,8,8 against 7,7,7: exact");
	is_near(t.p, 0.1, 1e-12, "8,8,8 against 7,7,7: p = 0.1");
	is_near(t.min_p, 0.1, 1e-12, "8,8,8 against 7,7,7: least p 0.1");
	/* 1,1,2 against 2,3,3: midranks 1.5 1.5 3.5 | 3.5 5.5 5.5; y's
	 * doubled sums of 3 of 3,3,7,7,11,11 range 13..29, one way of 20 at
	 * the ends (3+3+7 two ways: 2/20 each end): least p 0.2. */
	stats_mann_whitney(NULL, low3, 3, high3, 3, &t);
	is_near(t.min_p, 0.2, 1e-12, "ties at both ends: least p 0.2");
	is_near(t.p, 0.2, 1e-12, "the extreme assignment: p = its least");

	stats_udist_init(&d, 3, 3);
	is_near(stats_min_p(&d), 0.1, 1e-12, "3 and 3: p never below 0.1");
	stats_udist_done(&d);
	stats_udist_init(&d, 5, 5);
	is_near(stats_min_p(&d), 2.0 / 252, 1e-12, "5 and 5: 2/252");
	stats_udist_done(&d);
	stats_udist_init(&d, 1, 1);
	is_near(stats_min_p(&d), 1, 0, "1 and 1: p is always 1");
	stats_udist_done(&d);
}

/*
 * Brute force with ties: every assignment of the n1 + n2 values to y
 * (n2 of them, as a bit mask) equally likely; midranks by counting the
 * values below and equal; p twice the smaller tail of y's midrank sum,
 * the least p from the smallest and largest sums' counts.
 */
static void
brute_tied(const double *v, int n1, int n2, double observed, double *p,
           double *min_p)
{
	int n = n1 + n2, i, j;
	double mid[12], sums[1 << 12], lo = 1e300, hi = -1e300;
	double below = 0, above = 0, at_lo = 0, at_hi = 0, total = 0;
	unsigned mask;

	for (i = 0; i < n; i++) {
		int less = 0, same = 0;

		for (j = 0; j < n; j++) {
			less += v[j] < v[i];
			same += v[j] == v[i];
		}
		mid[i] = less + (same + 1) / 2.0;
	}
	for (mask = 0; mask < (1u << n); mask++) {
		double sum = 0;
		int bits = 0;

		for (i = 0; i < n; i++)
			if (mask >> i & 1) {
				bits++;
				sum += mid[i];
			}
		sums[mask] = bits == n2 ? sum : -1;
		if (bits != n2)
			continue;
		total++;
		below += sum <= observed + 1e-9;
		above += sum >= observed - 1e-9;
		if (sum < lo)
			lo = sum;
		if (sum > hi)
			hi = sum;
	}
	for (mask = 0; mask < (1u << n); mask++) {
		at_lo += sums[mask] >= 0 && fabs(sums[mask] - lo) < 1e-9;
		at_hi += sums[mask] >= 0 && fabs(sums[mask] - hi) < 1e-9;
	}
	*p = 2 * (below < above ? below : above) / total;
	*min_p = 2 * (at_lo < at_hi ? at_lo : at_hi) / total;
	if (lo == hi)
		*p = *min_p = 1;
	if (*p > 1)
		*p = 1;
	if (*min_p > 1)
		*min_p = 1;
}

static void
test_ties_brute(void)
{
	int n1, n2, trial, bad = 0, tried = 0;
	unsigned seed = 12345;

	for (n1 = 1; n1 <= 6; n1++)
		for (n2 = 1; n2 <= 6; n2++)
			for (trial = 0; trial < 40; trial++) {
				double v[12], want_p, want_min, ysum = 0;
				struct stats_utest t;
				int i, j, levels = 2 + trial % 4;

				for (i = 0; i < n1 + n2; i++) {
					seed = seed * 1103515245u + 12345u;
					v[i] = (double)((seed >> 16) %
					                (unsigned)levels);
				}
				/* y's midrank sum, as brute_tied ranks. */
				for (i = n1; i < n1 + n2; i++) {
					int less = 0, same = 0;

					for (j = 0; j < n1 + n2; j++) {
						less += v[j] < v[i];
						same += v[j] == v[i];
					}
					ysum += less + (same + 1) / 2.0;
				}
				brute_tied(v, n1, n2, ysum, &want_p, &want_min);
				stats_mann_whitney(NULL, v, (size_t)n1, v + n1,
				                   (size_t)n2, &t);
				tried++;
				if (!near(t.p, want_p, 1e-12) ||
				    !near(t.min_p, want_min, 1e-12)) {
					if (bad++ < 5)
						printf("# %d x %d: p %g min %g, "
						       "want %g %g\n",
						       n1, n2, t.p, t.min_p,
						       want_p, want_min);
				}
			}
	ok(bad == 0, "%d samples with ties, sizes 1..6 x 1..6: p and least "
	             "p = brute force",
	   tried);
}

/* Past the exact bound ties go through the normal formula, written out
 * here: 23 values a side, x 0..22 and y 1..23 (22 ties of two). */
static void
test_ties_normal(void)
{
	double x[23], y[23], var, z, top = 23.0 * 23;
	struct stats_utest t;
	int i;

	for (i = 0; i < 23; i++) {
		x[i] = i;
		y[i] = i + 1;
	}
	ok(!stats_exact_with_ties(23, 23) && stats_exact_with_ties(22, 22) &&
	           stats_exact_with_ties(15, 50) &&
	           !stats_exact_with_ties(16, 50),
	   "exact with ties up to k N = 1000");
	stats_mann_whitney(NULL, x, 23, y, 23, &t);
	/* Sorted: 0x, then 1..22 each in both (midranks 2.5, 4.5, ...,
	 * 44.5), 23y (46).  y's rank sum: 2.5 + 4.5 + ... + 44.5 (22
	 * terms, 517) + 46 = 563; U = 563 - 276 = 287.  Tie term 22 * 6. */
	var = top / 12 * (47 - 22.0 * 6 / (46.0 * 45));
	z = (fabs(287 - top / 2) - 0.5) / sqrt(var);
	ok(t.ties && !t.exact, "23 and 23 with ties: the normal approximation");
	is_near(t.u, 287, 0, "23 and 23: U 287");
	is_near(t.p, erfc(z / sqrt(2.0)), 1e-12,
	        "ties: tie-corrected normal p-value");
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void
test_shift(void)
{
	double x5[] = {98, 99, 100, 101, 102};
	double y5[] = {118, 119, 120, 121, 122};
	double x3[] = {1, 2, 3}, y3[] = {4, 5, 6};
	struct stats_shift s;
	bool all = true;
	size_t n1, n2;

	/*
	 * Differences 16..24, d occurring 5 - |d - 20| times: sorted, the
	 * 13th is 20; for 5 and 5 the 0.05 critical count is 2, so the
	 * interval is the 3rd and 23rd: 17 and 23.  Coverage 1 - 2 P(U <=
	 * 2) = 1 - 2 * 4/252.
	 */
	stats_shift(NULL, x5, 5, y5, 5, 0.05, &s);
	is_near(s.estimate, 20, 0, "Hodges-Lehmann shift 20");
	ok(s.has_ci, "5 and 5 have a 95%% interval");
	is_near(s.low, 17, 0, "interval from the 3rd difference: 17");
	is_near(s.high, 23, 0, "to the 23rd: 23");
	is_near(s.confidence, 1 - 8.0 / 252, 1e-12, "coverage 1 - 8/252");
	stats_shift(NULL, x3, 3, y3, 3, 0.05, &s);
	ok(!s.has_ci, "3 and 3 cannot reach 95%%: no interval");
	is_near(s.estimate, 3, 0, "3 and 3: shift 3 all the same");

	/* Brute force at every size: the interval is the (c+1)th and
	 * (N-c)th smallest difference, c from the enumerated counts. */
	for (n1 = 1; n1 <= 6; n1++)
		for (n2 = 1; n2 <= 6; n2++) {
			double x[6], y[6], d[36], counts[40] = {0}, total = 0;
			double sum = 0;
			size_t i, j, np = n1 * n2;
			long c = -1;

			for (i = 0; i < n1; i++)
				x[i] = (double)((i * 7 + 3) % 11);
			for (j = 0; j < n2; j++)
				y[j] = 0.5 + (double)((j * 5 + 1) % 13);
			for (i = 0; i < n1; i++)
				for (j = 0; j < n2; j++)
					d[i * n2 + j] = y[j] - x[i];
			qsort(d, np, sizeof(*d), cmp_double);
			brute_u_counts((int)n1, (int)n2, counts);
			for (i = 0; i <= np; i++)
				total += counts[i];
			for (i = 0; i <= np; i++) {
				sum += counts[i];
				if (sum / total > 0.1 / 2 + 1e-12)
					break;
				c = (long)i;
			}
			stats_shift(NULL, x, n1, y, n2, 0.1, &s);
			if (np % 2 ? s.estimate != d[np / 2]
			           : s.estimate !=
			                     (d[np / 2 - 1] + d[np / 2]) / 2)
				all = false;
			if (c < 0 || (size_t)c >= np - 1 - (size_t)c) {
				if (s.has_ci)
					all = false;
			} else if (!s.has_ci || s.low != d[c] ||
			           s.high != d[np - 1 - (size_t)c]) {
				all = false;
				printf("# %zu x %zu: [%g, %g] want [%g, %g]\n",
				       n1, n2, s.low, s.high, d[c],
				       d[np - 1 - (size_t)c]);
			}
		}
	ok(all, "90%% intervals = brute force, sizes 1..6 x 1..6");
}

static void
test_normal(void)
{
	is_near(stats_normal_cdf(0), 0.5, 1e-15, "Phi(0) = 0.5");
	is_near(stats_normal_cdf(1.959963984540054), 0.975, 1e-12,
	        "Phi(1.96) = 0.975");
	is_near(stats_normal_cdf(-1), 0.158655253931457, 1e-12,
	        "Phi(-1) = 0.158655");
	is_near(stats_normal_quantile(0.975), 1.959963984540054, 1e-9,
	        "quantile(0.975) = 1.959964");
	is_near(stats_normal_quantile(0.5), 0, 1e-12, "quantile(0.5) = 0");
}

int
main(void)
{
	test_median();
	test_exact_distribution();
	test_critical_values();
	test_utest();
	test_ties_brute();
	test_ties_normal();
	test_shift();
	test_normal();
	return done_testing();
}
