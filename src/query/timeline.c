/*
 * timeline: the dominant call of a slice from four facts about the
 * pre-order that the calltree already keeps sorted, plus two arrays.
 *
 * Why this shape.  Per thread, calls are in pre-order and their starts
 * never decrease, so any time maps to calls by binary search, and the
 * calls starting inside a slice are one contiguous run.  Take C, the
 * deepest call containing the whole slice [a, b) (found by walking up
 * from the innermost call open at a).  Every ancestor of C contains the
 * slice too, so the descent passes through them without a choice.  Below
 * C, the children overlapping the slice are: at most one cut by a (L), at
 * most one cut by b (R), and whole children in between, which make a run
 * of whole subtrees in the pre-order.  Over that run:
 *
 *   - the longest whole child is a range maximum of durations (a child
 *     is never shorter than its descendants, so the leftmost maximum of
 *     the run is a child): a sparse table over blocks of 64 calls;
 *   - the time the whole children cover is a difference of prefix sums
 *     of exclusive times (a subtree's exclusive times add up to its
 *     root's duration): ex_prefix;
 *   - once the descent enters a whole child, the slice no longer matters
 *     (its children are whole too): the same two answer each level on
 *     the child's descendants, which end where the starts pass its end.
 *
 * If L or R wins, the descent continues in it with the slice cut at its
 * edge: a new query on a narrower slice, whose container is deeper, so a
 * query costs O(depth) binary searches at worst and usually one round.
 * Nothing is proportional to the calls in the slice, at any zoom.
 *
 * The walks up from a call go through calltree_parent, which searches;
 * a row's slices share their edges, and each remembers the ancestors
 * its walks met (`struct chain`), so the next slice starts from them.
 *
 * The multi-resolution alternative (per-level buckets of fixed width)
 * answers only for slices aligned to its buckets and needs a resolution
 * chosen in advance; this index answers any slice exactly, which the
 * tests check against a direct descent.
 *
 * Memory, per call: 2 bytes of prefix sums (offsets from a 64-bit base
 * per block of 64 calls; a block whose exclusive times add up to 2^16 or
 * more keeps 32- or 64-bit offsets of its own), 4 or fewer for the
 * per-method lists, and for the sparse table, per block, 2 bytes a level
 * up to 2^10 blocks long and 4 a level above (0.8 a call at 35 million
 * calls).  Building is a few linear passes.  The method lists keep, per
 * method and thread, the calls not nested in another call of the same
 * method (disjoint intervals sorted by start), with the longest of each
 * group.
 *
 * Only the prefix sums, the sparse table and each group's longest call
 * depend on the clock.  The method lists and the depth blocks do not,
 * and an index of the other clock shares them (timeline_new_sharing):
 * about 3 bytes a call more for the second clock, where a whole index
 * is about 7, so the viewer keeps both and switches clocks at once.
 */
#include "config.h"

#include "query/timeline.h"

#include "util/alloc.h"
#include "util/jobs.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

enum { BLOCK_SHIFT = 6, BLOCK = 1 << BLOCK_SHIFT };
/* The sparse table's levels (2^26 blocks at most) and the first whose
 * entries do not fit 16 bits as offsets from their first block. */
enum { MAX_LEVELS = 32, NEAR_LEVELS = 16 - BLOCK_SHIFT + 1 };
/* A block of prefix sums: 16-bit offsets in ex_low (EX_NEAR), else its
 * place among the blocks of 32-bit offsets (ex_mid) or, with EX_WIDE,
 * of 64-bit values (ex_wide). */
#define EX_NEAR UINT32_MAX
#define EX_WIDE ((uint32_t)1 << 31)

/* The calls of one method on one thread. */
struct method_group {
	uint32_t thread;
	uint32_t first; /* into mcalls */
	uint32_t count;
};

enum { DEPTH_SHIFT = 6, DEPTH_BLOCK = 1 << DEPTH_SHIFT };

/* What does not depend on the clock, shared by the indexes of both. */
struct timeline_shared {
	atomic_int refs;
	uint32_t *mcalls; /* by method, then thread, then start */
	struct method_group *groups;
	uint32_t *mgroups; /* method m: groups [mgroups[m], mgroups[m+1]) */
	size_t nmcalls;
	/* The least and greatest depth of each block of DEPTH_BLOCK calls
	 * (saturated at UINT16_MAX), and of each DEPTH_BLOCK of those: the
	 * depth searches skip blocks with nothing to find. */
	uint16_t *dmin[2], *dmax[2];
	size_t ndepth[2];
};

struct timeline {
	const struct calltree *tree;
	enum clock_index clock;
	size_t ncalls;
	/* E(i), the exclusive times of calls [0, i): see ex_prefix */
	uint16_t *ex_low;
	uint64_t *ex_base, *ex_wide;
	uint32_t *ex_far, *ex_mid;
	size_t nmid, nwide; /* blocks in ex_mid and ex_wide */
	/* The sparse table: entry j of level l is the leftmost longest call
	 * of blocks [j, j + 2^l), for j + 2^l <= nblocks.  Levels below
	 * NEAR_LEVELS keep it as an offset from block j's first call
	 * (under 2^(l + BLOCK_SHIFT)), in table_off; the others in
	 * table_call. */
	uint16_t *table_off;
	uint32_t *table_call;
	size_t level_first[MAX_LEVELS]; /* level l: its entry 0 */
	size_t nblocks, nlevels, ntable_off, ntable_call;
	uint32_t *longest; /* per method group, on this clock */
	uint64_t *busy;    /* per thread */
	struct timeline_shared *sh;
	bool build_shared; /* while building: the shared part too */
};

static inline uint64_t
start_of(const struct timeline *tl, size_t c)
{
	return calltree_start(tl->tree, c, tl->clock);
}

static inline uint64_t
end_of(const struct timeline *tl, size_t c)
{
	return calltree_end(tl->tree, c, tl->clock);
}

static inline uint64_t
dur(const struct timeline *tl, size_t c)
{
	return calltree_duration(tl->tree, c, tl->clock);
}

/* The longer of calls x and y, the earlier on a tie. */
static inline uint32_t
longer(const struct timeline *tl, uint32_t x, uint32_t y)
{
	uint64_t dx = dur(tl, x), dy = dur(tl, y);

	return dy > dx || (dy == dx && y < x) ? y : x;
}

/* First index of [lo, hi) whose start is >= at. */
static size_t
lower_bound(const struct timeline *tl, size_t lo, size_t hi, uint64_t at)
{
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (start_of(tl, mid) < at)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* First index of [lo, hi) whose start is > at. */
static size_t
upper_bound(const struct timeline *tl, size_t lo, size_t hi, uint64_t at)
{
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (start_of(tl, mid) <= at)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* E(i), the sum of the exclusive times of calls [0, i). */
static inline uint64_t
ex_prefix(const struct timeline *tl, size_t i)
{
	size_t b = i >> BLOCK_SHIFT, j = i & (BLOCK - 1);
	uint32_t far = tl->ex_far[b];

	if (far == EX_NEAR)
		return tl->ex_base[b] + tl->ex_low[i];
	if (far & EX_WIDE)
		return tl->ex_wide[(size_t)(far & ~EX_WIDE) * BLOCK + j];
	return tl->ex_base[b] + tl->ex_mid[(size_t)far * BLOCK + j];
}

/* While building: the exclusive time of call i, kept in ex_low[i + 1]
 * (exact, as it never exceeds the call's duration) or, for a call of
 * more than UINT16_MAX, in the `longs` list sorted by call. */
struct long_ex {
	uint32_t call;
	uint64_t ex;
};

static struct long_ex *
long_ex_of(struct long_ex *longs, size_t n, uint32_t call)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (longs[mid].call < call)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && longs[lo].call == call ? &longs[lo] : NULL;
}

static uint64_t
exclusive_of(const struct timeline *tl, struct long_ex *longs, size_t nlongs,
             size_t i)
{
	if (dur(tl, i) > UINT16_MAX)
		return long_ex_of(longs, nlongs, (uint32_t)i)->ex;
	return tl->ex_low[i + 1];
}

/* Turn the exclusive times into the prefix sums E(i), a block of BLOCK
 * indexes at a time: its exclusive times read first (the last one from
 * the next block's first slot, which the next block overwrites), then
 * its offsets from the block's base written in the narrowest width that
 * holds the greatest. */
static void
build_prefix(struct timeline *tl, struct long_ex *longs, size_t nlongs)
{
	size_t n = tl->ncalls, nb = (n >> BLOCK_SHIFT) + 1, b, j;
	size_t mid_cap = 0, wide_cap = 0;
	uint64_t e = 0;

	tl->ex_base = xmalloc(nb * sizeof(*tl->ex_base));
	tl->ex_far = xmalloc(nb * sizeof(*tl->ex_far));
	for (b = 0; b < nb; b++) {
		size_t first = b << BLOCK_SHIFT;
		size_t len = n + 1 - first < BLOCK ? n + 1 - first : BLOCK;
		uint64_t off[BLOCK], x;

		off[0] = 0;
		x = first < n ? exclusive_of(tl, longs, nlongs, first) : 0;
		for (j = 1; j < len; j++) {
			off[j] = off[j - 1] + x;
			x = first + j < n
			            ? exclusive_of(tl, longs, nlongs, first + j)
			            : 0;
		}
		tl->ex_base[b] = e;
		if (off[len - 1] <= UINT16_MAX) {
			tl->ex_far[b] = EX_NEAR;
			for (j = 0; j < len; j++)
				tl->ex_low[first + j] = (uint16_t)off[j];
		} else if (off[len - 1] <= UINT32_MAX) {
			tl->ex_far[b] = (uint32_t)tl->nmid;
			UTIL_GROW(tl->ex_mid, mid_cap, (tl->nmid + 1) * BLOCK);
			for (j = 0; j < len; j++)
				tl->ex_mid[tl->nmid * BLOCK + j] =
				        (uint32_t)off[j];
			tl->nmid++;
		} else {
			tl->ex_far[b] = (uint32_t)tl->nwide | EX_WIDE;
			UTIL_GROW(tl->ex_wide, wide_cap,
			          (tl->nwide + 1) * BLOCK);
			for (j = 0; j < len; j++)
				tl->ex_wide[tl->nwide * BLOCK + j] = e + off[j];
			tl->nwide++;
		}
		e += off[len - 1] + x;
	}
}

/* Exclusive times, then the prefix sums.  Each call gives its duration
 * to its own slot and takes it from its parent's. */
static void
build_descent(struct timeline *tl)
{
	const struct calltree *tree = tl->tree;
	size_t n = tl->ncalls, t, i, nlongs = 0, longs_cap = 0;
	struct long_ex *longs = NULL;
	struct calltree_walk walk = {0};

	tl->ex_low = xmalloc((n + 1) * sizeof(*tl->ex_low));
	for (t = 0; t < tree->nthreads && n; t++) {
		const struct tt_thread *th = &tree->threads[t];

		if (th->ncalls)
			calltree_walk_start(&walk, tree, th->first_call);
		for (i = th->first_call; i < th->first_call + th->ncalls; i++) {
			uint64_t d = dur(tl, i);
			uint32_t p = calltree_walk_parent(&walk, i);

			tl->ex_low[i + 1] = (uint16_t)d;
			if (d > UINT16_MAX) {
				UTIL_GROW(longs, longs_cap, nlongs + 1);
				longs[nlongs].call = (uint32_t)i;
				longs[nlongs++].ex = d;
			}
			if (p == CALL_NONE)
				continue;
			if (dur(tl, p) > UINT16_MAX)
				long_ex_of(longs, nlongs, p)->ex -= d;
			else
				tl->ex_low[p + 1] -= (uint16_t)d;
		}
	}
	calltree_walk_done(&walk);
	build_prefix(tl, longs, nlongs);
	free(longs);
}

/* Entry j of level l of the sparse table. */
static inline uint32_t
table_at(const struct timeline *tl, size_t l, size_t j)
{
	if (l < NEAR_LEVELS)
		return (uint32_t)((j << BLOCK_SHIFT) +
		                  tl->table_off[tl->level_first[l] + j]);
	return tl->table_call[tl->level_first[l] + j];
}

static void
table_set(struct timeline *tl, size_t l, size_t j, uint32_t call)
{
	if (l < NEAR_LEVELS)
		tl->table_off[tl->level_first[l] + j] =
		        (uint16_t)(call - (j << BLOCK_SHIFT));
	else
		tl->table_call[tl->level_first[l] + j] = call;
}

static void
build_table(struct timeline *tl)
{
	size_t n = tl->ncalls, nb = (n + BLOCK - 1) / BLOCK, l, j;

	tl->nblocks = nb;
	tl->nlevels = 1;
	while (((size_t)1 << tl->nlevels) <= nb)
		tl->nlevels++;
	for (l = 0; l < tl->nlevels; l++) {
		size_t *count =
		        l < NEAR_LEVELS ? &tl->ntable_off : &tl->ntable_call;

		tl->level_first[l] = *count;
		*count += nb + 1 - ((size_t)1 << l);
	}
	tl->table_off = xmalloc((tl->ntable_off + 1) * sizeof(*tl->table_off));
	tl->table_call =
	        xmalloc((tl->ntable_call + 1) * sizeof(*tl->table_call));
	for (j = 0; j < nb; j++) {
		size_t i = j * BLOCK, e = i + BLOCK < n ? i + BLOCK : n;
		uint32_t best = (uint32_t)i;

		for (i++; i < e; i++)
			best = longer(tl, best, (uint32_t)i);
		table_set(tl, 0, j, best);
	}
	for (l = 1; l < tl->nlevels; l++) {
		size_t half = (size_t)1 << (l - 1);

		for (j = 0; j + 2 * half <= nb; j++)
			table_set(tl, l, j,
			          longer(tl, table_at(tl, l - 1, j),
			                 table_at(tl, l - 1, j + half)));
	}
}

/* The leftmost longest call of [lo, hi), lo < hi. */
static uint32_t
longest_in(const struct timeline *tl, size_t lo, size_t hi)
{
	size_t bl = (lo + BLOCK - 1) >> BLOCK_SHIFT, bh = hi >> BLOCK_SHIFT;
	uint32_t best = (uint32_t)lo;
	size_t i;

	if (bl >= bh) {
		for (i = lo + 1; i < hi; i++)
			best = longer(tl, best, (uint32_t)i);
		return best;
	}
	for (i = lo + 1; i < bl << BLOCK_SHIFT; i++)
		best = longer(tl, best, (uint32_t)i);
	{
		size_t len = bh - bl, l = 0;

		while (((size_t)2 << l) <= len)
			l++;
		best = longer(tl, best, table_at(tl, l, bl));
		best = longer(tl, best, table_at(tl, l, bh - ((size_t)1 << l)));
	}
	for (i = bh << BLOCK_SHIFT; i < hi; i++)
		best = longer(tl, best, (uint32_t)i);
	return best;
}

/* Per method, per thread: the calls not inside another call of it. */
static void
build_methods(struct timeline *tl)
{
	const struct calltree *tree = tl->tree;
	const struct tt_calls *calls = &tree->calls;
	struct timeline_shared *sh = tl->sh;
	size_t nm = tree->nmethods, m, t, i, ncalls = 0, ngroups = 0;
	uint32_t *last = xmalloc((nm + 1) * sizeof(*last));
	uint32_t *count = xcalloc(nm + 1, sizeof(*count));
	uint32_t *fill = xcalloc(nm + 1, sizeof(*fill));

	sh->mgroups = xcalloc(nm + 1, sizeof(*sh->mgroups));
	for (m = 0; m < nm; m++)
		last[m] = UINT32_MAX;
	for (t = 0; t < tree->nthreads; t++) {
		const struct tt_thread *th = &tree->threads[t];

		for (i = th->first_call; i < th->first_call + th->ncalls; i++) {
			if (calls->flags[i] & CALL_RECURSIVE)
				continue;
			m = calltree_method(tree, i);
			count[m]++;
			ncalls++;
			if (last[m] != t) {
				last[m] = (uint32_t)t;
				sh->mgroups[m + 1]++;
				ngroups++;
			}
		}
	}
	for (m = 0; m < nm; m++) {
		sh->mgroups[m + 1] += sh->mgroups[m];
		fill[m + 1] = fill[m] + count[m];
		last[m] = UINT32_MAX;
	}
	sh->nmcalls = ncalls;
	sh->mcalls = xmalloc((ncalls + 1) * sizeof(*sh->mcalls));
	sh->groups = xcalloc(ngroups + 1, sizeof(*sh->groups));
	memset(count, 0, (nm + 1) * sizeof(*count)); /* groups made so far */
	for (t = 0; t < tree->nthreads; t++) {
		const struct tt_thread *th = &tree->threads[t];

		for (i = th->first_call; i < th->first_call + th->ncalls; i++) {
			struct method_group *g;

			if (calls->flags[i] & CALL_RECURSIVE)
				continue;
			m = calltree_method(tree, i);
			if (last[m] != t) {
				last[m] = (uint32_t)t;
				g = &sh->groups[sh->mgroups[m] + count[m]++];
				g->thread = (uint32_t)t;
				g->first = fill[m];
			}
			sh->groups[sh->mgroups[m] + count[m] - 1].count++;
			sh->mcalls[fill[m]++] = (uint32_t)i;
		}
	}
	free(last);
	free(count);
	free(fill);
}

/* Each method group's longest call on the index's clock (the earliest on
 * a tie), in one pass over the calls in order: a method's groups come
 * thread by thread, as the threads do. */
static void
build_longest(struct timeline *tl)
{
	const struct calltree *tree = tl->tree;
	const struct timeline_shared *sh = tl->sh;
	size_t nm = tree->nmethods, ngroups = sh->mgroups[nm], m, t, i, g;
	uint32_t *at = xmalloc((nm + 1) * sizeof(*at));

	tl->longest = xmalloc((ngroups + 1) * sizeof(*tl->longest));
	for (g = 0; g < ngroups; g++)
		tl->longest[g] = sh->mcalls[sh->groups[g].first];
	for (m = 0; m < nm; m++)
		at[m] = sh->mgroups[m];
	for (t = 0; t < tree->nthreads && tl->ncalls; t++) {
		const struct tt_thread *th = &tree->threads[t];

		for (i = th->first_call; i < th->first_call + th->ncalls; i++) {
			if (tree->calls.flags[i] & CALL_RECURSIVE)
				continue;
			m = calltree_method(tree, i);
			g = at[m];
			while (sh->groups[g].thread != t)
				g++;
			at[m] = (uint32_t)g;
			if (dur(tl, i) > dur(tl, tl->longest[g]))
				tl->longest[g] = (uint32_t)i;
		}
	}
	free(at);
}

/* The depth blocks: level 0 over the calls, level 1 over level 0. */
static void
build_depths(struct timeline *tl)
{
	const struct calltree *tree = tl->tree;
	struct timeline_shared *sh = tl->sh;
	size_t n = tree->calls.count, l, i;

	for (l = 0; l < 2; l++) {
		size_t below = l ? sh->ndepth[0] : n;
		size_t nb = (below + DEPTH_BLOCK - 1) >> DEPTH_SHIFT;

		sh->ndepth[l] = nb;
		sh->dmin[l] = xmalloc((nb + 1) * sizeof(*sh->dmin[l]));
		sh->dmax[l] = xmalloc((nb + 1) * sizeof(*sh->dmax[l]));
		for (i = 0; i < nb; i++) {
			sh->dmin[l][i] = UINT16_MAX;
			sh->dmax[l][i] = 0;
		}
		for (i = 0; i < below; i++) {
			uint16_t lo, hi;
			size_t b = i >> DEPTH_SHIFT;

			if (l) {
				lo = sh->dmin[0][i];
				hi = sh->dmax[0][i];
			} else {
				uint32_t d = calltree_depth(tree, i);

				lo = hi = d < UINT16_MAX ? (uint16_t)d
				                         : UINT16_MAX;
			}
			if (lo < sh->dmin[l][b])
				sh->dmin[l][b] = lo;
			if (hi > sh->dmax[l][b])
				sh->dmax[l][b] = hi;
		}
	}
}

/* Half of the index: the parts write fields of their own and only read
 * the model (the longest calls read the method lists, built first in the
 * same half), so the two halves can be built at once.  An index sharing
 * another's method lists and depth blocks builds the rest only. */
struct index_half {
	struct timeline *tl;
	int half;
};

static void *
build_half(void *arg)
{
	struct index_half *h = arg;

	if (h->half == 0) {
		build_descent(h->tl);
		if (h->tl->build_shared)
			build_depths(h->tl);
	} else {
		build_table(h->tl);
		if (h->tl->build_shared)
			build_methods(h->tl);
		build_longest(h->tl);
	}
	return NULL;
}

/* Build tl's parts, the shared ones too unless tl->sh is set. */
static struct timeline *
build_index(struct timeline *tl)
{
	const struct calltree *tree = tl->tree;
	struct index_half halves[2] = {{tl, 0}, {tl, 1}};
	size_t t;

	tl->ncalls = tree->has_clock[tl->clock] ? tree->calls.count : 0;
	if (!tl->sh) {
		tl->sh = xcalloc(1, sizeof(*tl->sh));
		atomic_init(&tl->sh->refs, 1);
		tl->build_shared = true;
	}
	if (tree->calls.count >= 65536 && util_jobs_count(2) > 1) {
		util_jobs_run(build_half, halves, sizeof(halves[0]), 2);
	} else {
		build_half(&halves[0]);
		build_half(&halves[1]);
	}
	tl->build_shared = false;
	tl->busy = xcalloc(tree->nthreads + 1, sizeof(*tl->busy));
	for (t = 0; t < tree->nthreads && tl->ncalls; t++) {
		const struct tt_thread *th = &tree->threads[t];

		tl->busy[t] = ex_prefix(tl, th->first_call + th->ncalls) -
		              ex_prefix(tl, th->first_call);
	}
	return tl;
}

struct timeline *
timeline_new(const struct calltree *tree, enum clock_index k)
{
	struct timeline *tl = xcalloc(1, sizeof(*tl));

	tl->tree = tree;
	tl->clock = k;
	return build_index(tl);
}

struct timeline *
timeline_new_sharing(const struct timeline *other, enum clock_index k)
{
	struct timeline *tl = xcalloc(1, sizeof(*tl));

	tl->tree = other->tree;
	tl->clock = k;
	tl->sh = other->sh;
	atomic_fetch_add(&tl->sh->refs, 1);
	return build_index(tl);
}

static void
shared_release(struct timeline_shared *sh)
{
	if (!sh || atomic_fetch_sub(&sh->refs, 1) != 1)
		return;
	free(sh->mcalls);
	free(sh->groups);
	free(sh->mgroups);
	free(sh->dmin[0]);
	free(sh->dmin[1]);
	free(sh->dmax[0]);
	free(sh->dmax[1]);
	free(sh);
}

void
timeline_free(struct timeline *tl)
{
	if (!tl)
		return;
	free(tl->ex_low);
	free(tl->ex_base);
	free(tl->ex_far);
	free(tl->ex_mid);
	free(tl->ex_wide);
	free(tl->table_off);
	free(tl->table_call);
	free(tl->longest);
	free(tl->busy);
	shared_release(tl->sh);
	free(tl);
}

enum clock_index
timeline_clock(const struct timeline *tl)
{
	return tl->clock;
}

const struct calltree *
timeline_tree(const struct timeline *tl)
{
	return tl->tree;
}

size_t
timeline_memory_own(const struct timeline *tl)
{
	size_t ngroups = tl->sh->mgroups[tl->tree->nmethods];
	size_t nb = (tl->ncalls >> BLOCK_SHIFT) + 1;

	return (tl->ncalls + 1) * sizeof(*tl->ex_low) +
	       nb * (sizeof(*tl->ex_base) + sizeof(*tl->ex_far)) +
	       tl->nmid * BLOCK * sizeof(*tl->ex_mid) +
	       tl->nwide * BLOCK * sizeof(*tl->ex_wide) +
	       tl->ntable_off * sizeof(*tl->table_off) +
	       tl->ntable_call * sizeof(*tl->table_call) +
	       ngroups * sizeof(*tl->longest) +
	       tl->tree->nthreads * sizeof(*tl->busy);
}

size_t
timeline_memory(const struct timeline *tl)
{
	const struct timeline_shared *sh = tl->sh;
	size_t ngroups = sh->mgroups[tl->tree->nmethods];

	return timeline_memory_own(tl) + sh->nmcalls * sizeof(*sh->mcalls) +
	       ngroups * sizeof(*sh->groups) +
	       (tl->tree->nmethods + 1) * sizeof(*sh->mgroups) +
	       (sh->ndepth[0] + sh->ndepth[1]) *
	               (sizeof(*sh->dmin[0]) + sizeof(*sh->dmax[0]));
}
/*
 * A call and what is known of its ancestors, by depth: at[d] is its
 * ancestor at depth d (at[len - 1] the call itself), or CALL_NONE until
 * a walk needs it.  Walks climb through calltree_parent, which may have
 * to search back over many calls, so a row keeps what its walks learnt:
 * a slice starts where the last one ended, with the same ancestors.
 */
struct chain {
	uint32_t *at;
	size_t len, cap;
};

/* chain_up for an ancestor not known yet. */
static uint32_t
chain_climb(const struct timeline *tl, struct chain *ch, size_t d)
{
	size_t e = d + 1;

	while (ch->at[e] == CALL_NONE)
		e++;
	for (; e > d; e--)
		ch->at[e - 1] = calltree_parent(tl->tree, ch->at[e]);
	return ch->at[d];
}

/* The ancestor at depth d < ch->len, found and kept if not known. */
static inline uint32_t
chain_up(const struct timeline *tl, struct chain *ch, size_t d)
{
	return ch->at[d] != CALL_NONE ? ch->at[d] : chain_climb(tl, ch, d);
}

/*
 * Make `to` describe call g, taking from `from` the ancestors it knows:
 * those up to depth `keep` (-1: none) are known to be g's, and deeper
 * ones are g's if they come before it and end after it starts.  (A
 * call starting right at the end of one before it may be its child of
 * no length or not; that one is left to chain_up.)  to may be from.
 */
static void
chain_start(const struct timeline *tl, struct chain *to,
            const struct chain *from, long keep, uint32_t g)
{
	size_t dg = calltree_depth(tl->tree, g), d;
	uint64_t sg = start_of(tl, g);

	UTIL_GROW(to->at, to->cap, dg + 1);
	/* Where to already has one of those ancestors, it has the ones
	 * above it too. */
	for (d = (size_t)(keep + 1); to != from && d-- > 0;) {
		if (d < to->len && to->at[d] == from->at[d] &&
		    to->at[d] != CALL_NONE)
			break;
		to->at[d] = from->at[d];
	}
	for (d = (size_t)(keep + 1); d <= dg && d < from->len; d++) {
		uint32_t x = from->at[d];

		if (x == CALL_NONE)
			continue;
		if (x != g && (x > g || end_of(tl, x) <= sg))
			break;
		for (; keep < (long)d; keep++)
			to->at[keep + 1] = from->at[keep + 1];
	}
	for (d = (size_t)(keep + 1); d < dg; d++)
		to->at[d] = CALL_NONE;
	to->at[dg] = g;
	to->len = dg + 1;
}

/* The innermost call of [lo, hi) open at `at`, given f, the first call
 * there starting after it, and its depth in *depth (-1 for none): every
 * call open at `at` is an ancestor of the last call starting at or
 * before it.  ch is left describing that last call; from and keep say
 * what is known, as for chain_start. */
static uint32_t
open_at(const struct timeline *tl, size_t lo, size_t f, uint64_t at,
        struct chain *ch, const struct chain *from, long keep, long *depth)
{
	uint32_t g;
	long d;

	*depth = -1;
	if (f == lo) {
		ch->len = 0;
		return CALL_NONE;
	}
	g = (uint32_t)(f - 1);
	chain_start(tl, ch, from, keep, g);
	for (d = (long)ch->len - 1; g != CALL_NONE && end_of(tl, g) <= at;)
		g = d ? chain_up(tl, ch, (size_t)--d) : CALL_NONE;
	if (g != CALL_NONE)
		*depth = d;
	return g;
}

/* What a query learnt about one time `at` of a thread: the first call
 * starting at or after it (lb, SIZE_MAX: unknown) and the innermost call
 * open at it (when has_open).  A row's slices share their edges, so each
 * slice hands its right edge to the next.  Once set, `open` is known even
 * without has_open (then it is the innermost call open across `at` that
 * starts before it), at depth `depth`, and `chain` describes it or a
 * call below it. */
struct probe {
	bool set, has_open;
	uint64_t at;
	size_t lb;
	uint32_t open;
	long depth;
	struct chain *chain;
};

static void
probe_reset(struct probe *p, uint64_t at)
{
	if (p->set && p->at == at)
		return;
	p->set = true;
	p->has_open = false;
	p->at = at;
	p->lb = SIZE_MAX;
}

/* The first call of [c + 1, hi) that starts at or after c's end: the
 * end of c's descendants, but those of no length at its very end.
 * Galloping, as most calls have few; a call alone in [c, hi) with its
 * descendants (the last of a parent's children) is seen at once. */
static size_t
subtree_end(const struct timeline *tl, size_t c, size_t hi)
{
	uint64_t e = end_of(tl, c);
	size_t lo = c + 1, next = lo, step = 1;

	if (lo < hi && start_of(tl, hi - 1) < e)
		return hi;
	while (next < hi && start_of(tl, next) < e) {
		lo = next + 1;
		next = lo + step;
		step *= 2;
	}
	return lower_bound(tl, lo, next < hi ? next : hi, e);
}

/* Where the descent from call c, whole in the slice, ends: into its
 * longest child (the earliest on a tie) while that one lasts longer
 * than c's own time.  c's descendants come before hi.  The leftmost
 * longest call of c's descendants is that child: none outlasts its
 * ancestor among the children, which comes first.  The first child,
 * if all of c's descendants start before its end, is the only one. */
static uint32_t
descend(const struct timeline *tl, uint32_t c, size_t hi)
{
	size_t end = subtree_end(tl, c, hi);

	while (end > (size_t)c + 1) {
		size_t first = (size_t)c + 1;
		bool only = start_of(tl, end - 1) < end_of(tl, first);
		uint32_t best =
		        only ? (uint32_t)first : longest_in(tl, first, end);

		if (dur(tl, best) <= ex_prefix(tl, first) - ex_prefix(tl, c))
			break;
		if (!only)
			end = subtree_end(tl, best, end);
		c = best;
	}
	return c;
}

/* The dominant call of [a, b) on thread th; pa may describe a, and pb
 * (if not NULL) is filled for b, its chain apart from pa's.  spare is a
 * third chain for the slices the descent narrows to. */
static uint32_t
dominant(const struct timeline *tl, const struct tt_thread *th, uint64_t a,
         uint64_t b, struct probe *pa, struct probe *pb, struct chain *spare)
{
	size_t lo_t = th->first_call, hi_t = lo_t + th->ncalls;
	size_t fb = lower_bound(tl, lo_t, hi_t, b);
	/* For a new probe at a: what is known of the ancestors of the last
	 * call starting at or before it.  bc: those of the last call before
	 * b, once walked for this b, and h, the innermost call open across
	 * b, at depth dh.  below: after a round into left, its depth. */
	const struct chain *known = pa->chain;
	struct chain *bc = NULL;
	uint32_t h = CALL_NONE;
	long keep = -1, below = -1, dh = -1;

	if (pa->set && pa->at == a)
		keep = pa->depth;
	while (a < b) {
		uint32_t c, left, right = CALL_NONE, whole;
		uint64_t cov_l = 0, cov_r = 0, cov_w = 0, sum, self;
		size_t lo, hi;
		long dc, dopen;

		/* C: the deepest call containing [a, b), at depth dc, open at
		 * a (after a round into left: that one or below it); left:
		 * its child open at a, if that one ends inside the slice. */
		probe_reset(pa, a);
		if (!pa->has_open) {
			size_t f = upper_bound(tl, lo_t, hi_t, a);

			pa->open = open_at(tl, lo_t, f, a, pa->chain, known,
			                   keep, &pa->depth);
			pa->has_open = true;
		}
		dopen = pa->depth;
		if (below >= 0) {
			for (dc = below; dc < dopen; dc++)
				if (end_of(tl, chain_up(tl, pa->chain,
				                        (size_t)dc + 1)) < b)
					break;
		} else {
			for (dc = dopen; dc >= 0; dc--)
				if (end_of(tl, chain_up(tl, pa->chain,
				                        (size_t)dc)) >= b)
					break;
		}
		c = dc >= 0 ? pa->chain->at[dc] : CALL_NONE;
		left = dc < dopen ? pa->chain->at[dc + 1] : CALL_NONE;
		/* right: the child of C open across b, if C does not end
		 * there; b's probe, for the next slice. */
		if (fb > lo_t && (pb || c == CALL_NONE || end_of(tl, c) > b)) {
			if (!bc) {
				/* h: the innermost call open across b. */
				bc = pb ? pb->chain : spare;
				h = (uint32_t)(fb - 1);
				chain_start(tl, bc, pa->chain, dc, h);
				for (dh = (long)bc->len - 1;
				     h != CALL_NONE && end_of(tl, h) <= b;)
					h = dh ? chain_up(tl, bc, (size_t)--dh)
					       : CALL_NONE;
			}
			if (pb) {
				/* No call starts at b: h is open at b. */
				pb->set = true;
				pb->at = b;
				pb->lb = fb;
				pb->has_open =
				        fb == hi_t || start_of(tl, fb) > b;
				pb->open = h;
				pb->depth = h != CALL_NONE ? dh : -1;
				pb = NULL;
			}
			if (h != CALL_NONE && dh > dc) {
				right = chain_up(tl, bc, (size_t)(dc + 1));
				cov_r = b - start_of(tl, right);
			}
		}
		/* The whole children: the calls in [lo, hi). */
		hi = right != CALL_NONE ? right : fb;
		if (left != CALL_NONE && start_of(tl, left) < a) {
			cov_l = end_of(tl, left) - a;
			lo = lower_bound(tl, left + 1, hi, end_of(tl, left));
		} else {
			left = CALL_NONE;
			if (pa->lb == SIZE_MAX)
				pa->lb = lower_bound(tl, lo_t, hi_t, a);
			lo = pa->lb;
			if (c != CALL_NONE && lo <= c)
				lo = c + 1;
		}
		if (lo > hi)
			lo = hi;
		sum = ex_prefix(tl, hi) - ex_prefix(tl, lo);
		whole = lo < hi ? longest_in(tl, lo, hi) : CALL_NONE;
		if (whole != CALL_NONE)
			cov_w = dur(tl, whole);
		self = (b - a) - cov_l - cov_r - sum;
		/* The earliest of the largest covers wins, if it beats C's
		 * own time (or the idle time at the top). */
		if (cov_l >= cov_w && cov_l >= cov_r) {
			if (cov_l <= self)
				return c;
			b = end_of(tl, left);
			fb = lower_bound(tl, lo_t, fb, b);
			bc = NULL;
			below = dc + 1;
		} else if (cov_w >= cov_r) {
			if (cov_w <= self)
				return c;
			return descend(tl, whole, hi);
		} else {
			if (cov_r <= self)
				return c;
			a = start_of(tl, right);
			known = bc;
			keep = dc + 1;
			below = -1;
		}
	}
	return CALL_NONE;
}

static void
chain_free(struct chain *ch)
{
	free(ch->at);
}

uint32_t
timeline_dominant(const struct timeline *tl, size_t t, uint64_t a, uint64_t b)
{
	const struct tt_thread *th = &tl->tree->threads[t];
	struct chain ch[2] = {{0}};
	struct probe pa = {.chain = &ch[0]};
	uint32_t c;

	if (!tl->ncalls || !th->ncalls)
		return CALL_NONE;
	c = dominant(tl, th, a, b, &pa, NULL, &ch[1]);
	chain_free(&ch[0]);
	chain_free(&ch[1]);
	return c;
}

void
timeline_row(const struct timeline *tl, size_t t, uint64_t t0, uint64_t width,
             size_t n, uint32_t *out)
{
	const struct tt_thread *th = &tl->tree->threads[t];
	struct chain ch[3] = {{0}};
	struct probe pa = {.chain = &ch[0]}, pb;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!tl->ncalls || !th->ncalls) {
			out[i] = CALL_NONE;
			continue;
		}
		pb.set = false;
		pb.chain = pa.chain == &ch[0] ? &ch[1] : &ch[0];
		out[i] = dominant(tl, th, t0 + i * width, t0 + (i + 1) * width,
		                  &pa, &pb, &ch[2]);
		if (pb.set)
			pa = pb;
	}
	for (i = 0; i < 3; i++)
		chain_free(&ch[i]);
}

uint32_t
timeline_call_at(const struct timeline *tl, size_t t, uint64_t at)
{
	const struct tt_thread *th = &tl->tree->threads[t];
	size_t lo = th->first_call, hi = lo + th->ncalls;
	struct chain ch = {0};
	uint32_t c;
	long depth;

	if (!tl->ncalls)
		return CALL_NONE;
	c = open_at(tl, lo, upper_bound(tl, lo, hi, at), at, &ch, &ch, -1,
	            &depth);
	chain_free(&ch);
	return c;
}

uint64_t
timeline_busy(const struct timeline *tl, size_t t)
{
	return tl->busy[t];
}

/* The group of method m on thread t, or SIZE_MAX. */
static size_t
group_of(const struct timeline *tl, uint32_t m, size_t t)
{
	const struct timeline_shared *sh = tl->sh;
	size_t lo, hi;

	if (m >= tl->tree->nmethods || !tl->ncalls)
		return SIZE_MAX;
	lo = sh->mgroups[m];
	hi = sh->mgroups[m + 1];
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (sh->groups[mid].thread < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < sh->mgroups[m + 1] && sh->groups[lo].thread == t ? lo
	                                                             : SIZE_MAX;
}

size_t
timeline_method_calls(const struct timeline *tl, uint32_t m, size_t t,
                      const uint32_t **calls)
{
	size_t g = group_of(tl, m, t);

	if (g == SIZE_MAX) {
		*calls = NULL;
		return 0;
	}
	*calls = tl->sh->mcalls + tl->sh->groups[g].first;
	return tl->sh->groups[g].count;
}

uint32_t
timeline_method_longest(const struct timeline *tl, uint32_t m, size_t t)
{
	size_t g = group_of(tl, m, t);

	return g != SIZE_MAX ? tl->longest[g] : CALL_NONE;
}

/* How many of the n calls start at or before `at` (strict: before). */
static size_t
calls_before(const struct timeline *tl, const uint32_t *calls, size_t n,
             uint64_t at, bool strict)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t s = start_of(tl, calls[mid]);

		if (strict ? s < at : s <= at)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

uint32_t
timeline_method_next(const struct timeline *tl, uint32_t m, size_t t,
                     uint64_t after)
{
	const uint32_t *calls;
	size_t n = timeline_method_calls(tl, m, t, &calls);
	size_t i = calls_before(tl, calls, n, after, false);

	return i < n ? calls[i] : CALL_NONE;
}

uint32_t
timeline_method_prev(const struct timeline *tl, uint32_t m, size_t t,
                     uint64_t before)
{
	const uint32_t *calls;
	size_t n = timeline_method_calls(tl, m, t, &calls);
	size_t i = calls_before(tl, calls, n, before, true);

	return i ? calls[i - 1] : CALL_NONE;
}

bool
timeline_method_overlaps(const struct timeline *tl, uint32_t m, size_t t,
                         uint64_t t0, uint64_t t1)
{
	const uint32_t *calls;
	size_t n = timeline_method_calls(tl, m, t, &calls);
	size_t i = calls_before(tl, calls, n, t1, true);

	/* The calls are disjoint and sorted, so their ends are too: only
	 * the last one starting before t1 can reach past t0.  A call of
	 * no length counts where it starts. */
	return t0 < t1 && i &&
	       (end_of(tl, calls[i - 1]) > t0 ||
	        start_of(tl, calls[i - 1]) >= t0);
}

/* ---- depths: moves in the call chart ----------------------------------- */

/* Does depth d pass the test (deep: at least want, else at most)? */
static inline bool
depth_ok(uint32_t d, uint32_t want, bool deep)
{
	return deep ? d >= want : d <= want;
}

/* Might block i of level l hold a depth that passes?  A saturated
 * bound says nothing. */
static inline bool
block_may(const struct timeline *tl, int l, size_t i, uint32_t want, bool deep)
{
	const struct timeline_shared *sh = tl->sh;

	return deep ? sh->dmax[l][i] >= want || sh->dmax[l][i] == UINT16_MAX
	            : sh->dmin[l][i] <= want;
}

/* The first call of [from, hi) whose depth passes, or hi. */
static size_t
depth_scan_forward(const struct timeline *tl, size_t from, size_t hi,
                   uint32_t want, bool deep)
{
	const size_t big = (size_t)1 << (2 * DEPTH_SHIFT);
	size_t i = from;

	while (i < hi) {
		if (!(i & (big - 1)) && i + big <= hi &&
		    !block_may(tl, 1, i >> (2 * DEPTH_SHIFT), want, deep)) {
			i += big;
			continue;
		}
		if (!(i & (DEPTH_BLOCK - 1)) && i + DEPTH_BLOCK <= hi &&
		    !block_may(tl, 0, i >> DEPTH_SHIFT, want, deep)) {
			i += DEPTH_BLOCK;
			continue;
		}
		if (depth_ok(calltree_depth(tl->tree, i), want, deep))
			return i;
		i++;
	}
	return hi;
}

/* The last call of [lo, before) whose depth passes, or SIZE_MAX. */
static size_t
depth_scan_back(const struct timeline *tl, size_t lo, size_t before,
                uint32_t want, bool deep)
{
	const size_t big = (size_t)1 << (2 * DEPTH_SHIFT);
	size_t i = before;

	while (i > lo) {
		if (!(i & (big - 1)) && i - big >= lo &&
		    !block_may(tl, 1, (i - big) >> (2 * DEPTH_SHIFT), want,
		               deep)) {
			i -= big;
			continue;
		}
		if (!(i & (DEPTH_BLOCK - 1)) && i - DEPTH_BLOCK >= lo &&
		    !block_may(tl, 0, (i - DEPTH_BLOCK) >> DEPTH_SHIFT, want,
		               deep)) {
			i -= DEPTH_BLOCK;
			continue;
		}
		i--;
		if (depth_ok(calltree_depth(tl->tree, i), want, deep))
			return i;
	}
	return SIZE_MAX;
}

size_t
timeline_subtree_end(const struct timeline *tl, size_t t, uint32_t c)
{
	const struct tt_thread *th = &tl->tree->threads[t];

	return depth_scan_forward(tl, (size_t)c + 1,
	                          th->first_call + th->ncalls,
	                          calltree_depth(tl->tree, c), false);
}

uint32_t
timeline_next_at_depth(const struct timeline *tl, size_t t, uint32_t c)
{
	const struct tt_thread *th = &tl->tree->threads[t];
	size_t hi = th->first_call + th->ncalls;
	uint32_t d = calltree_depth(tl->tree, c);
	size_t i = depth_scan_forward(tl, timeline_subtree_end(tl, t, c), hi, d,
	                              true);

	/* What follows c's descendants is less deep than c, so the first
	 * call at least as deep as c after them is as deep. */
	return i < hi ? (uint32_t)i : CALL_NONE;
}

uint32_t
timeline_prev_at_depth(const struct timeline *tl, size_t t, uint32_t c)
{
	const struct tt_thread *th = &tl->tree->threads[t];
	uint32_t d = calltree_depth(tl->tree, c);
	size_t i = depth_scan_back(tl, th->first_call, c, d, true);

	/* That is the previous call at c's depth or one of its
	 * descendants: the last call at most as deep, from there back. */
	if (i == SIZE_MAX)
		return CALL_NONE;
	return (uint32_t)depth_scan_back(tl, th->first_call, i + 1, d, false);
}

uint32_t
timeline_first_callee(const struct timeline *tl, size_t t, uint32_t c)
{
	const struct tt_thread *th = &tl->tree->threads[t];
	size_t n = (size_t)c + 1;

	return n < th->first_call + th->ncalls &&
	                       calltree_depth(tl->tree, n) >
	                               calltree_depth(tl->tree, c)
	               ? (uint32_t)n
	               : CALL_NONE;
}

bool
timeline_nested_overlaps(const struct timeline *tl, size_t t, uint32_t c,
                         size_t end, uint64_t a, uint64_t b)
{
	const struct tt_thread *th = &tl->tree->threads[t];
	size_t lo, hi, i, ch;
	uint32_t d;

	if (!tl->ncalls || !th->ncalls || a >= b)
		return false;
	if (c == CALL_NONE) {
		lo = th->first_call;
		hi = lo + th->ncalls;
		i = lower_bound(tl, lo, hi, a);
		return (i < hi && start_of(tl, i) < b) ||
		       timeline_call_at(tl, t, a) != CALL_NONE;
	}
	lo = (size_t)c + 1;
	hi = end;
	if (lo >= hi)
		return false;
	/* A descendant starting inside the slice, else the child open
	 * at its start. */
	i = lower_bound(tl, lo, hi, a);
	if (i < hi && start_of(tl, i) < b)
		return true;
	if (i == lo)
		return false;
	d = calltree_depth(tl->tree, c) + 1;
	ch = depth_scan_back(tl, lo, i, d, false);
	return ch != SIZE_MAX && end_of(tl, ch) > a;
}

uint32_t
timeline_first_at_depth(const struct timeline *tl, size_t t, uint32_t d)
{
	const struct tt_thread *th = &tl->tree->threads[t];
	size_t hi = th->first_call + th->ncalls;
	size_t i = depth_scan_forward(tl, th->first_call, hi, d, true);

	/* The first call that deep has no caller as deep before it. */
	return i < hi ? (uint32_t)i : CALL_NONE;
}

uint32_t
timeline_last_at_depth(const struct timeline *tl, size_t t, uint32_t d)
{
	const struct tt_thread *th = &tl->tree->threads[t];
	size_t hi = th->first_call + th->ncalls;
	size_t i = depth_scan_back(tl, th->first_call, hi, d, true);

	if (i == SIZE_MAX)
		return CALL_NONE;
	return (uint32_t)depth_scan_back(tl, th->first_call, i + 1, d, false);
}

uint32_t
timeline_first_from(const struct timeline *tl, size_t t, uint64_t at)
{
	const struct tt_thread *th = &tl->tree->threads[t];
	size_t hi = th->first_call + th->ncalls;
	size_t i = tl->ncalls ? lower_bound(tl, th->first_call, hi, at) : hi;

	return i < hi ? (uint32_t)i : CALL_NONE;
}

uint64_t
timeline_call_excl(const struct timeline *tl, uint32_t c)
{
	return tl->ncalls ? ex_prefix(tl, (size_t)c + 1) - ex_prefix(tl, c) : 0;
}
