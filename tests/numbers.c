/*
 * numbers: one set of numbers (PRODUCT.md section 2) on each trace named
 * on the command line, in TAP.  Per scope (every thread, each thread
 * alone, every thread within the middle half of the trace) and clock:
 *
 *   the scope's total (report's) = the profile's total
 *     = its methods' exclusive times plus the time outside any method
 *     = the root of the merged call paths (tree --no-thread, folded
 *       --no-thread), of the paths by thread (tree, folded), of the
 *       merge of each thread's own paths (the icicle) and of its
 *       inversion (the bottom-up icicle)
 *     = the sum of the nodes' exclusive times (folded's lines);
 *
 * and every method's drill-down: no share above 100%, the self rows add
 * up to the exclusive time, each section to its base; the call tree's
 * bottom-up rows (Android Studio's Bottom Up, query/callers.h): every
 * method's total, self and calls are the profile's inclusive time,
 * exclusive time and calls, and, for a method never recursive, each
 * caller's row is the drill-down's parent row.  A file that does
 * not load is skipped.
 */
#include "config.h"

#include "model/open.h"
#include "query/callers.h"
#include "query/callpath.h"
#include "query/drilldown.h"
#include "query/profile-index.h"
#include "query/profile.h"
#include "invert-eager.h"
#include "tap.h"

#include <stdlib.h>

/* Checks that held, per file, so a pass prints one line per kind. */
struct tally {
	const char *file;
	unsigned failed;
};

static bool
same(struct tally *t, uint64_t got, uint64_t want, const char *what,
     const char *scope, int k)
{
	if (got == want)
		return true;
	if (t->failed++ < 20)
		printf("# %s: %s, clock %d: %s is %llu, not %llu\n", t->file,
		       scope, k, what, (unsigned long long)got,
		       (unsigned long long)want);
	return false;
}

/* The time outside any method below node `under` of path. */
static uint64_t
outside_under(const struct callpath *p, uint32_t under, int k)
{
	uint32_t ch;
	uint64_t sum = 0;

	for (ch = p->nodes[under].first_child; ch != CALL_NONE;
	     ch = p->nodes[ch].next_sibling) {
		if (p->nodes[ch].method == CALLPATH_OUTSIDE)
			sum += p->nodes[ch].incl[k];
		else if (p->nodes[ch].method == CALL_NONE)
			sum += outside_under(p, ch, k);
	}
	return sum;
}

static uint64_t
excl_sum(const struct callpath *p, int k)
{
	uint64_t sum = 0;
	uint32_t n;

	for (n = 0; n < p->count; n++)
		sum += callpath_excl(p, n, (enum clock_index)k);
	return sum;
}

/* The drill-down's rules for every method of profile p on clock k. */
static bool
drilldowns_hold(struct tally *t, const struct calltree *tree,
                const struct profile *p, int k, const char *scope)
{
	bool good = true;
	size_t m, i;

	for (m = 0; m < tree->nmethods; m++) {
		struct drilldown d;
		uint64_t self = 0, sums[DRILL_SECTION_COUNT] = {0};

		if (!profile_row_used(p, m))
			continue;
		drilldown_compute(&d, p, (uint32_t)m, (enum clock_index)k);
		for (i = 0; i < d.nrows; i++) {
			const struct drill_row *r = &d.rows[i];

			if (r->kind == DRILL_HEADING)
				continue;
			if (r->incl[k] > r->base[k]) {
				if (t->failed++ < 20)
					printf("# %s: %s, clock %d: method "
					       "%zu, row %zu: %llu of %llu\n",
					       t->file, scope, k, m, i,
					       (unsigned long long)r->incl[k],
					       (unsigned long long)r->base[k]);
				good = false;
			}
			if (r->kind == DRILL_SELF)
				self += r->incl[k];
			sums[r->section] += r->incl[k];
		}
		good &= same(t, self, d.excl[k], "self rows vs excl", scope, k);
		good &= same(t, sums[DRILL_CHILDREN], d.incl[k],
		             "children and self vs incl", scope, k);
		if (sums[DRILL_PARENTS] || d.incl[k])
			good &= same(t, sums[DRILL_PARENTS], d.incl[k],
			             "parents vs incl", scope, k);
		good &= same(t, sums[DRILL_PARENTS_RECURSIVE], d.recursive[k],
		             "recursive parents vs time while recursive", scope,
		             k);
		if (p->rows[m].rcalls)
			good &= same(
			        t, sums[DRILL_CHILDREN_RECURSIVE],
			        d.recursive[k],
			        "recursive children and self vs time while "
			        "recursive",
			        scope, k);
		drilldown_done(&d);
	}
	return good;
}

/* The bottom-up rows of merged against the profile on clock k. */
static bool
callers_hold(struct tally *t, const struct callpath *merged,
             const struct profile *prof, int k, const char *scope)
{
	struct callpath up;
	struct callers *c = callers_new(&up, merged);
	uint32_t r, ch;
	bool good = true;
	size_t count = up.count, i;

	for (r = 1; r < count; r++) {
		uint32_t m = up.nodes[r].method;
		struct profile_edges e;

		if (up.nodes[r].depth != 1 || !callpath_is_method(&up.nodes[r]))
			continue;
		good &= same(t, up.nodes[r].incl[k], prof->rows[m].incl[k],
		             "bottom-up total", scope, k);
		good &= same(t, callers_self(c, r, k), prof->rows[m].excl[k],
		             "bottom-up self", scope, k);
		good &= same(t, up.nodes[r].calls, prof->rows[m].calls,
		             "bottom-up calls", scope, k);
		if (prof->rows[m].rcalls)
			continue;
		callers_expand(c, &up, r);
		profile_edges_of(&e, prof, m, (enum clock_index)k);
		for (ch = up.nodes[r].first_child; ch != CALL_NONE;
		     ch = up.nodes[ch].next_sibling) {
			uint64_t want = 0;

			for (i = 0; i < e.nparents; i++)
				if (e.parents[i].method == up.nodes[ch].method)
					want += e.parents[i].incl[k];
			good &= same(t, up.nodes[ch].incl[k], want,
			             "bottom-up caller's total", scope, k);
		}
		profile_edges_done(&e);
	}
	callers_free(c);
	callpath_done(&up);
	return good;
}

/* Every equality on one scope; false when any fails. */
static bool
scope_holds(struct tally *t, const struct calltree *tree,
            const struct scope *scope, const struct profile *prof,
            const char *name)
{
	struct callpath merged, by_thread, icicle, inverted;
	struct callpath *parts = NULL;
	size_t nparts = 0, u, m;
	bool good = true;
	int k;

	callpath_build_whole(&merged, tree, scope, false);
	callpath_build_whole(&by_thread, tree, scope, true);
	memset(&icicle, 0, sizeof(icicle));
	if (!scope->range.on) {
		/* The icicle's tree: each thread's own paths, merged. */
		parts = calloc(tree->nthreads + 1, sizeof(*parts));
		for (u = 0; u < tree->nthreads; u++) {
			struct scope one;

			if (!scope_has(scope, u))
				continue;
			scope_init_none(&one, tree);
			scope_add(&one, u);
			callpath_build_whole(&parts[nparts++], tree, &one,
			                     false);
			scope_done(&one);
		}
		callpath_merge(&icicle, parts, nparts);
	}
	callpath_invert(&inverted, &merged);
	for (k = 0; k < CLOCK_COUNT; k++) {
		uint64_t total = scope_total(scope, tree, k), excl = 0;

		if (!tree->has_clock[k])
			continue;
		for (m = 0; m < tree->nmethods; m++)
			excl += prof->rows[m].excl[k];
		good &= same(t, prof->total[k], total, "profile total", name,
		             k);
		good &= same(t, excl + outside_under(&merged, 0, k), total,
		             "methods' excl + outside", name, k);
		good &= same(t, merged.nodes[0].incl[k], total,
		             "merged root (tree --no-thread)", name, k);
		good &= same(t, excl_sum(&merged, k), total,
		             "merged excl sum (folded --no-thread)", name, k);
		good &= same(t, by_thread.nodes[0].incl[k], total,
		             "root by thread (tree)", name, k);
		good &= same(t, excl_sum(&by_thread, k), total,
		             "excl sum by thread (folded)", name, k);
		good &= same(t, inverted.nodes[0].incl[k], total,
		             "bottom-up root", name, k);
		if (!scope->range.on)
			good &= same(t, icicle.nodes[0].incl[k], total,
			             "icicle root", name, k);
		good &= drilldowns_hold(t, tree, prof, k, name);
		good &= callers_hold(t, &merged, prof, k, name);
	}
	for (u = 0; u < nparts; u++)
		callpath_done(&parts[u]);
	free(parts);
	callpath_done(&icicle);
	callpath_done(&merged);
	callpath_done(&by_thread);
	callpath_done(&inverted);
	return good;
}

/* Whether the profile of scope, its threads summed in parts of 7 calls
 * (cut inside calls) and joined, equals whole, links in order. */
static bool
same_in_parts(const struct calltree *tree, const struct scope *scope,
              const struct profile *whole)
{
	struct profile p;
	bool same;
	size_t i;
	int k;

	profile_part_calls = 7;
	profile_compute(&p, tree, scope);
	profile_part_calls = 0;
	same = p.nrows == whole->nrows && p.nlinks == whole->nlinks &&
	       memcmp(p.rows, whole->rows, p.nrows * sizeof(*p.rows)) == 0;
	for (i = 0; same && i < p.nlinks; i++) {
		const struct profile_link *a = &p.links[i],
		                          *b = &whole->links[i];

		same = a->parent == b->parent && a->child == b->child &&
		       a->child_recursive == b->child_recursive &&
		       a->parent_recursive == b->parent_recursive &&
		       a->calls == b->calls;
		for (k = 0; k < CLOCK_COUNT; k++)
			same = same && a->incl[k] == b->incl[k];
	}
	profile_done(&p);
	return same;
}

/* Whether every thread's own tree, built in pieces of 7 calls (cut
 * inside calls) on every cpu and merged, is its one-pass tree. */
static bool
paths_in_pieces(const struct calltree *tree)
{
	struct callpath *pieces = calloc(tree->nthreads + 1, sizeof(*pieces));
	bool same = pieces != NULL;
	size_t u;

	if (!same)
		return false;
	callpath_build_threads(pieces, tree, 7);
	for (u = 0; u < tree->nthreads; u++) {
		struct callpath one;

		callpath_build_thread_whole(&one, tree, u);
		same = same && one.count == pieces[u].count &&
		       memcmp(one.nodes, pieces[u].nodes,
		              one.count * sizeof(*one.nodes)) == 0;
		callpath_done(&one);
		callpath_done(&pieces[u]);
	}
	free(pieces);
	return same;
}

static void
check_file(const char *path)
{
	struct trace_error err = {0};
	struct calltree *tree = calltree_load(path, &err);
	struct tally t = {path, 0};
	struct profile_cache *cache;
	struct profile_index *index;
	struct scope scope;
	struct profile prof;
	bool all = true, each = true, range = true;
	enum clock_index k;
	size_t u;

	if (!tree) {
		printf("# %s: not loaded, skipped\n", path);
		trace_error_clear(&err);
		return;
	}
	scope_init_all(&scope, tree);
	{
		/* The lazy bottom-up tree, expanded whole, is the eager one. */
		struct callpath fwd, lazy, eager;
		enum clock_index c = calltree_default_clock(tree);

		callpath_build_whole(&fwd, tree, &scope, false);
		callpath_invert(&lazy, &fwd);
		callpath_sort(&lazy, c);
		callpath_expand_all(&lazy);
		invert_eager(&eager, &fwd);
		callpath_sort(&eager, c);
		ok(lazy.count == eager.count && invert_same(&lazy, &eager),
		   "%s: the bottom-up tree expanded is the eager one (%zu "
		   "nodes)",
		   path, eager.count);
		callpath_done(&fwd);
		callpath_done(&lazy);
		callpath_done(&eager);
	}
	profile_compute(&prof, tree, &scope);
	all = scope_holds(&t, tree, &scope, &prof, "all threads");
	ok(same_in_parts(tree, &scope, &prof),
	   "%s: summed in parts of 7 calls and joined: the same rows and "
	   "links, in the same order",
	   path);
	profile_done(&prof);
	scope_done(&scope);
	ok(all, "%s: every thread: the totals and drill-downs agree", path);
	ok(paths_in_pieces(tree),
	   "%s: each thread's call paths built in pieces of 7 calls and "
	   "merged: its one-pass tree, node for node",
	   path);

	cache = profile_cache_new(tree);
	for (u = 0; u < tree->nthreads; u++) {
		scope_init_none(&scope, tree);
		scope_add(&scope, u);
		profile_from_cache(&prof, cache, tree, &scope);
		each &= scope_holds(&t, tree, &scope, &prof, "one thread");
		profile_done(&prof);
		scope_done(&scope);
	}
	profile_cache_free(cache);
	ok(each, "%s: each thread alone: the totals and drill-downs agree",
	   path);

	/* The middle half of the trace, on its default clock. */
	k = calltree_default_clock(tree);
	scope_init_all(&scope, tree);
	{
		uint64_t lo = UINT64_MAX, hi = 0, span;

		for (u = 0; u < tree->nthreads; u++) {
			if (!tree->threads[u].nevents)
				continue;
			if (tree->threads[u].first[k] < lo)
				lo = tree->threads[u].first[k];
			if (tree->threads[u].last[k] > hi)
				hi = tree->threads[u].last[k];
		}
		span = hi > lo ? hi - lo : 0;
		scope.range.on = span >= 4;
		scope.range.clock = k;
		scope.range.start = lo + span / 4;
		scope.range.end = hi - span / 4;
	}
	index = profile_index_new(tree, 0);
	profile_from_index(&prof, index, tree, &scope);
	range = scope_holds(&t, tree, &scope, &prof, "middle half");
	profile_done(&prof);
	profile_index_free(index);
	scope_done(&scope);
	ok(range, "%s: the middle half: the totals and drill-downs agree",
	   path);
	calltree_free(tree);
}

int
main(int argc, char **argv)
{
	int i;

	if (argc < 2)
		return skip_all("no trace given");
	for (i = 1; i < argc; i++)
		check_file(argv[i]);
	return done_testing();
}
