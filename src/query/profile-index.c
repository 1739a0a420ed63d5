/*
 * profile-index: per-thread blocks of calls with their link sums.
 *
 * A profile's rows follow from its links: a call adds one to its link's
 * count and its duration to its link's time, and its method's row and
 * its parent's row change by the same amounts (see add_call in
 * query/profile.c).  So only links are summed, per link id, and the rows are
 * derived at the end.
 *
 * Within a range, a thread's calls are those open at its start and the
 * calls [first, end) starting inside it (scope_span_of).  The calls
 * [first, end) are summed uncut: whole blocks from the index, and the
 * part of a block at either end either walked, or, when that part is
 * most of its block, the block added and the rest of it walked and
 * subtracted.  Of those calls, only the ones still open at the range's
 * end are cut, and they are the last one and its ancestors: each gets
 * its cut duration minus its whole one.  The open calls are added cut.
 * All sums are modulo 2^64, like profile_compute's, so the order in
 * which terms are added or subtracted does not change a single bit.
 */
#include "config.h"

#include "query/profile-index.h"

#include "util/alloc.h"
#include "util/map.h"

#include <stdlib.h>
#include <string.h>

/*
 * A block keeps its sums only when it has at most one link per
 * PLAIN_RATIO calls, plus PLAIN_SLACK / PLAIN_RATIO links (so that small
 * blocks keep theirs too); a block with no entries is walked.  An entry
 * is 14 bytes with both clocks, so with the default blocks the index
 * stays under 4 bytes a call whatever the trace.  One link per 8 calls
 * left a sixth of the 975 MB trace's blocks to be walked (they hold one
 * per 4 to 8), which made a range over a tenth of it walk 600000 calls
 * (7 to 18 ms); one per 4 keeps them all, for 13 MB more.
 */
enum { PLAIN_RATIO = 4, PLAIN_SLACK = 64 };

/* A block's sum on one clock of 2^32 - 1 or more. */
struct long_sum {
	size_t entry;
	uint64_t incl;
};

struct profile_index {
	size_t block;              /* calls per block */
	struct profile_link *keys; /* per link id; numbers left at 0 */
	size_t nlinks, links_cap;
	struct util_map ids;  /* link key -> link id */
	size_t *thread_block; /* per thread, its first block; + 1 */
	size_t nthreads;
	size_t *entry; /* per block, its first entry; nblocks + 1 */
	size_t nblocks;
	/* Per entry: one link's calls and summed durations in one block;
	 * an incl of UINT32_MAX is in longs, sorted by entry. */
	uint32_t *link;
	uint16_t *calls;
	uint32_t *incl[CLOCK_COUNT]; /* NULL for a clock the trace lacks */
	size_t nentries, entries_cap;
	struct long_sum *longs[CLOCK_COUNT];
	size_t nlongs[CLOCK_COUNT], longs_cap[CLOCK_COUNT];
	bool has_clock[CLOCK_COUNT];
};

/* One link's sums within a block or a computation. */
struct link_sum {
	uint64_t calls;
	uint64_t incl[CLOCK_COUNT];
};

/* The links a build has summed in the block at hand. */
struct block_sums {
	struct link_sum *sums; /* per link id; zero when not touched */
	size_t cap;
	uint32_t *touched;
	size_t ntouched, touched_cap;
};

static uint64_t
link_key(const struct calltree *tree, size_t i, uint32_t parent)
{
	const struct tt_calls *c = &tree->calls;
	uint64_t pm = 0x7FFFFFFF, prec = 0;

	if (parent != CALL_NONE) {
		pm = calltree_method(tree, parent);
		prec = c->flags[parent] & CALL_RECURSIVE;
	}
	return pm << 33 | (uint64_t)calltree_method(tree, i) << 2 |
	       (uint64_t)(c->flags[i] & CALL_RECURSIVE) << 1 | prec;
}

/* Link id of call i, called by parent, adding the link when new. */
static uint32_t
link_add(struct profile_index *ix, const struct calltree *tree, size_t i,
         uint32_t parent)
{
	const struct tt_calls *c = &tree->calls;
	uint32_t *slot =
	        util_map_slot(&ix->ids, link_key(tree, i, parent), CALL_NONE);
	struct profile_link *l;

	if (*slot != CALL_NONE)
		return *slot;
	UTIL_GROW(ix->keys, ix->links_cap, ix->nlinks + 1);
	l = &ix->keys[ix->nlinks];
	memset(l, 0, sizeof(*l));
	l->parent =
	        parent == CALL_NONE ? CALL_NONE : calltree_method(tree, parent);
	l->child = calltree_method(tree, i);
	l->child_recursive = c->flags[i] & CALL_RECURSIVE;
	l->parent_recursive =
	        parent != CALL_NONE && (c->flags[parent] & CALL_RECURSIVE);
	*slot = (uint32_t)ix->nlinks++;
	return *slot;
}

/* Link id of call i, called by parent, which the index has seen. */
static inline uint32_t
link_of(const struct profile_index *ix, const struct calltree *tree, size_t i,
        uint32_t parent)
{
	uint32_t id = 0;

	util_map_get(&ix->ids, link_key(tree, i, parent), &id);
	return id;
}

static inline uint64_t
duration(const struct calltree *tree, size_t i, int k)
{
	return tree->has_clock[k]
	               ? calltree_duration(tree, i, (enum clock_index)k)
	               : 0;
}

/* Make room for one more entry in every array. */
static void
grow_entries(struct profile_index *ix)
{
	size_t cap = ix->entries_cap ? 2 * ix->entries_cap : 4096;
	int k;

	if (ix->nentries < ix->entries_cap)
		return;
	ix->link = xreallocarray(ix->link, cap, sizeof(*ix->link));
	ix->calls = xreallocarray(ix->calls, cap, sizeof(*ix->calls));
	for (k = 0; k < CLOCK_COUNT; k++)
		if (ix->has_clock[k])
			ix->incl[k] = xreallocarray(ix->incl[k], cap,
			                            sizeof(*ix->incl[k]));
	ix->entries_cap = cap;
}

/* Store the sums of link l as a new entry. */
static void
add_entry(struct profile_index *ix, uint32_t l, const struct link_sum *s)
{
	size_t e = ix->nentries;
	int k;

	grow_entries(ix);
	ix->link[e] = l;
	ix->calls[e] = (uint16_t)s->calls;
	for (k = 0; k < CLOCK_COUNT; k++) {
		if (!ix->has_clock[k])
			continue;
		if (s->incl[k] < UINT32_MAX) {
			ix->incl[k][e] = (uint32_t)s->incl[k];
			continue;
		}
		ix->incl[k][e] = UINT32_MAX;
		UTIL_GROW(ix->longs[k], ix->longs_cap[k], ix->nlongs[k] + 1);
		ix->longs[k][ix->nlongs[k]].entry = e;
		ix->longs[k][ix->nlongs[k]++].incl = s->incl[k];
	}
	ix->nentries++;
}

/* Sum calls [from, to), global block g, into one entry per link; walk
 * has met every call of the thread before from. */
static void
index_block(struct profile_index *ix, struct block_sums *b,
            struct calltree_walk *walk, size_t g, size_t from, size_t to)
{
	const struct calltree *tree = walk->tree;
	size_t i;
	bool keep;
	int k;

	ix->entry[g] = ix->nentries;
	for (i = from; i < to; i++) {
		uint32_t l =
		        link_add(ix, tree, i, calltree_walk_parent(walk, i));
		struct link_sum *s;

		if (l >= b->cap) {
			size_t old = b->cap;

			UTIL_GROW(b->sums, b->cap, (size_t)l + 1);
			memset(b->sums + old, 0,
			       (b->cap - old) * sizeof(*b->sums));
		}
		s = &b->sums[l];
		if (!s->calls) {
			UTIL_GROW(b->touched, b->touched_cap, b->ntouched + 1);
			b->touched[b->ntouched++] = l;
		}
		s->calls++;
		for (k = 0; k < CLOCK_COUNT; k++)
			s->incl[k] += duration(tree, i, k);
	}
	/* A block of many links, each called a few times, would cost
	 * nearly as much as its calls: it is left to be walked. */
	keep = b->ntouched * PLAIN_RATIO <= (to - from) + PLAIN_SLACK;
	for (i = 0; i < b->ntouched; i++) {
		if (keep)
			add_entry(ix, b->touched[i], &b->sums[b->touched[i]]);
		memset(&b->sums[b->touched[i]], 0, sizeof(*b->sums));
	}
	b->ntouched = 0;
}

struct profile_index *
profile_index_new(const struct calltree *tree, size_t block)
{
	struct profile_index *ix = xcalloc(1, sizeof(*ix));
	struct block_sums b = {0};
	struct calltree_walk walk = {0};
	size_t t, j;
	int k;

	ix->block = block ? block : PROFILE_INDEX_BLOCK;
	if (ix->block > UINT16_MAX)
		ix->block = UINT16_MAX;
	for (k = 0; k < CLOCK_COUNT; k++)
		ix->has_clock[k] = tree->has_clock[k];
	util_map_init(&ix->ids);
	ix->nthreads = tree->nthreads;
	ix->thread_block =
	        xcalloc(tree->nthreads + 1, sizeof(*ix->thread_block));
	for (t = 0; t < tree->nthreads; t++) {
		ix->thread_block[t] = ix->nblocks;
		ix->nblocks +=
		        (tree->threads[t].ncalls + ix->block - 1) / ix->block;
	}
	ix->thread_block[tree->nthreads] = ix->nblocks;
	ix->entry = xcalloc(ix->nblocks + 1, sizeof(*ix->entry));
	for (t = 0; t < tree->nthreads; t++) {
		const struct tt_thread *th = &tree->threads[t];
		size_t lo = th->first_call, hi = lo + th->ncalls;

		if (lo < hi)
			calltree_walk_start(&walk, tree, lo);
		for (j = 0; lo + j * ix->block < hi; j++) {
			size_t from = lo + j * ix->block;
			size_t to =
			        hi - from > ix->block ? from + ix->block : hi;

			index_block(ix, &b, &walk, ix->thread_block[t] + j,
			            from, to);
		}
	}
	calltree_walk_done(&walk);
	ix->entry[ix->nblocks] = ix->nentries;
	free(b.sums);
	free(b.touched);
	/* Give back what the arrays grew beyond their final size. */
	if (ix->nentries) {
		ix->link = xreallocarray(ix->link, ix->nentries,
		                         sizeof(*ix->link));
		ix->calls = xreallocarray(ix->calls, ix->nentries,
		                          sizeof(*ix->calls));
		for (k = 0; k < CLOCK_COUNT; k++)
			if (ix->incl[k])
				ix->incl[k] =
				        xreallocarray(ix->incl[k], ix->nentries,
				                      sizeof(*ix->incl[k]));
		ix->entries_cap = ix->nentries;
	}
	return ix;
}

void
profile_index_free(struct profile_index *ix)
{
	int k;

	if (!ix)
		return;
	free(ix->keys);
	util_map_done(&ix->ids);
	free(ix->thread_block);
	free(ix->entry);
	free(ix->link);
	free(ix->calls);
	for (k = 0; k < CLOCK_COUNT; k++) {
		free(ix->incl[k]);
		free(ix->longs[k]);
	}
	free(ix);
}

size_t
profile_index_bytes(const struct profile_index *ix)
{
	size_t per_entry = sizeof(*ix->link) + sizeof(*ix->calls);
	size_t map = ix->ids.mask
	                     ? (ix->ids.mask + 1) * (sizeof(*ix->ids.keys) +
	                                             sizeof(*ix->ids.values) +
	                                             sizeof(*ix->ids.used))
	                     : 0;
	size_t longs = 0;
	int k;

	for (k = 0; k < CLOCK_COUNT; k++) {
		if (ix->incl[k])
			per_entry += sizeof(*ix->incl[k]);
		longs += ix->longs_cap[k] * sizeof(*ix->longs[k]);
	}
	return sizeof(*ix) + ix->entries_cap * per_entry + longs +
	       ix->links_cap * sizeof(*ix->keys) + map +
	       (ix->nthreads + 1) * sizeof(*ix->thread_block) +
	       (ix->nblocks + 1) * sizeof(*ix->entry);
}

/* Add (or, with neg, subtract) the whole durations of calls [from, to). */
static void
walk(struct link_sum *sums, const struct profile_index *ix,
     const struct calltree *tree, size_t from, size_t to, bool neg)
{
	uint64_t one = neg ? UINT64_MAX : 1;
	struct calltree_walk w = {0};
	size_t i;
	int k;

	if (from >= to)
		return;
	calltree_walk_start(&w, tree, from);
	for (i = from; i < to; i++) {
		struct link_sum *s = &sums[link_of(
		        ix, tree, i, calltree_walk_parent(&w, i))];

		s->calls += one;
		for (k = 0; k < CLOCK_COUNT; k++) {
			uint64_t d = duration(tree, i, k);

			s->incl[k] += neg ? 0 - d : d;
		}
	}
	calltree_walk_done(&w);
}

/* The incl on clock k of entry e, stored as UINT32_MAX. */
static uint64_t
long_incl(const struct profile_index *ix, int k, size_t e)
{
	size_t lo = 0, hi = ix->nlongs[k];

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ix->longs[k][mid].entry < e)
			lo = mid + 1;
		else
			hi = mid;
	}
	return ix->longs[k][lo].incl;
}

/* Calls [*from, *to) of block j of thread t, and true when the block
 * holds sums, false when it is walked. */
static bool
block_of(const struct profile_index *ix, const struct calltree *tree, size_t t,
         size_t j, size_t *from, size_t *to)
{
	const struct tt_thread *th = &tree->threads[t];
	size_t lo = th->first_call, hi = lo + th->ncalls;
	size_t g = ix->thread_block[t] + j;

	*from = lo + j * ix->block;
	*to = hi - *from > ix->block ? *from + ix->block : hi;
	return ix->entry[g] != ix->entry[g + 1];
}

/* Add block j of thread t. */
static void
add_block(struct link_sum *sums, const struct profile_index *ix,
          const struct calltree *tree, size_t t, size_t j)
{
	size_t e, from, to, g = ix->thread_block[t] + j;
	int k;

	if (!block_of(ix, tree, t, j, &from, &to)) {
		walk(sums, ix, tree, from, to, false);
		return;
	}
	for (e = ix->entry[g]; e < ix->entry[g + 1]; e++) {
		struct link_sum *s = &sums[ix->link[e]];

		s->calls += ix->calls[e];
		for (k = 0; k < CLOCK_COUNT; k++) {
			uint32_t d;

			if (!ix->incl[k])
				continue;
			d = ix->incl[k][e];
			s->incl[k] += d != UINT32_MAX ? d : long_incl(ix, k, e);
		}
	}
}

/*
 * Add calls [from, to) of block j of thread t: walked, or, when they are
 * most of the block, the block minus the calls of it outside them.
 */
static void
add_part(struct link_sum *sums, const struct profile_index *ix,
         const struct calltree *tree, size_t t, size_t j, size_t from,
         size_t to)
{
	size_t bfrom, bto;

	if (!block_of(ix, tree, t, j, &bfrom, &bto) ||
	    2 * (to - from) <= bto - bfrom) {
		walk(sums, ix, tree, from, to, false);
		return;
	}
	add_block(sums, ix, tree, t, j);
	walk(sums, ix, tree, bfrom, from, true);
	walk(sums, ix, tree, to, bto, true);
}

/* Add the whole durations of calls [from, to) of thread t. */
static void
add_calls(struct link_sum *sums, const struct profile_index *ix,
          const struct calltree *tree, size_t t, size_t from, size_t to)
{
	size_t lo = tree->threads[t].first_call, b = ix->block;
	/* Blocks [ja, jb) lie inside [from, to). */
	size_t ja = (from - lo + b - 1) / b, jb = (to - lo) / b;
	size_t j;

	if (from >= to)
		return;
	if (ja > jb) {
		add_part(sums, ix, tree, t, jb, from, to);
		return;
	}
	if (from < lo + ja * b)
		add_part(sums, ix, tree, t, ja - 1, from, lo + ja * b);
	for (j = ja; j < jb; j++)
		add_block(sums, ix, tree, t, j);
	if (lo + jb * b < to)
		add_part(sums, ix, tree, t, jb, lo + jb * b, to);
}

/* Add call c cut to the range: one call and its cut durations, or, when
 * `uncut` (c was added whole already), its cut durations minus its whole
 * ones. */
static void
add_cut(struct link_sum *sums, const struct profile_index *ix,
        const struct calltree *tree, const struct scope *scope,
        const struct scope_span *span, size_t c, bool uncut)
{
	struct link_sum *s =
	        &sums[link_of(ix, tree, c, calltree_parent(tree, c))];
	uint64_t dur[CLOCK_COUNT];
	int k;

	scope_clip(scope, tree, span, c, dur);
	if (!uncut)
		s->calls++;
	for (k = 0; k < CLOCK_COUNT; k++)
		s->incl[k] += dur[k] - (uncut ? duration(tree, c, k) : 0);
}

/* Add the calls of thread t that the scope's range touches. */
static void
add_thread(struct link_sum *sums, const struct profile_index *ix,
           const struct calltree *tree, const struct scope *scope, size_t t,
           struct scope_span *span)
{
	uint32_t c;
	size_t i;

	scope_span_of(span, scope, tree, t);
	add_calls(sums, ix, tree, t, span->first, span->end);
	if (!scope->range.on)
		return;
	/* A call of [first, end) that outlasts the range contains the
	 * last one: only they and that one may be cut. */
	if (span->end > span->first)
		for (c = (uint32_t)(span->end - 1);
		     c != CALL_NONE && c >= span->first;
		     c = calltree_parent(tree, c))
			add_cut(sums, ix, tree, scope, span, c, true);
	for (i = 0; i < span->nopen; i++)
		add_cut(sums, ix, tree, scope, span, span->open[i], false);
}

/* Fill out's rows and links from the link sums. */
static void
profile_of_sums(struct profile *out, const struct profile_index *ix,
                const struct link_sum *sums)
{
	size_t l, n = 0;
	int k;

	for (l = 0; l < ix->nlinks; l++)
		n += sums[l].calls != 0;
	out->links = xcalloc(n + 1, sizeof(*out->links));
	for (l = 0; l < ix->nlinks; l++) {
		const struct link_sum *s = &sums[l];
		struct profile_link *link;
		struct profile_row *r, *pr = NULL;

		if (!s->calls)
			continue;
		link = &out->links[out->nlinks++];
		*link = ix->keys[l];
		link->calls = s->calls;
		r = &out->rows[link->child];
		if (link->parent != CALL_NONE)
			pr = &out->rows[link->parent];
		if (link->child_recursive)
			r->rcalls += s->calls;
		else
			r->calls += s->calls;
		for (k = 0; k < CLOCK_COUNT; k++) {
			uint64_t d = s->incl[k];

			link->incl[k] = d;
			r->excl[k] += d;
			if (!link->child_recursive) {
				r->incl[k] += d;
				r->top_excl[k] += d;
			}
			if (pr) {
				pr->excl[k] -= d;
				if (!link->parent_recursive)
					pr->top_excl[k] -= d;
			}
		}
	}
}

void
profile_from_index(struct profile *out, const struct profile_index *ix,
                   const struct calltree *tree, const struct scope *scope)
{
	struct link_sum *sums = xcalloc(ix->nlinks + 1, sizeof(*sums));
	struct scope_span span = {0};
	size_t t;

	profile_start(out, tree, scope);
	for (t = 0; t < tree->nthreads; t++)
		if (scope_has(scope, t))
			add_thread(sums, ix, tree, scope, t, &span);
	scope_span_done(&span);
	profile_of_sums(out, ix, sums);
	free(sums);
}
