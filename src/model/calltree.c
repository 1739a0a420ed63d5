/*
 * calltree: releasing a model and reading the values its
 * compact arrays keep in side tables.  The builder is builder.c;
 * open.c loads a file into a model.
 */
#include "config.h"

#include "model/calltree.h"

#include "util/alloc.h"

#include <stdlib.h>
#include <string.h>

void
calltree_alloc_calls(struct calltree *tree, size_t n, bool narrow)
{
	struct tt_calls *c = &tree->calls;
	int k;

	c->count = n;
	if (!n)
		return; /* the call arrays stay NULL */
	if (narrow)
		c->method16 = xmalloc_large(n, sizeof(*c->method16));
	else
		c->method = xmalloc_large(n, sizeof(*c->method));
	c->depth = xmalloc_large(n, sizeof(*c->depth));
	c->flags = xmalloc_large(n, sizeof(*c->flags));
	for (k = 0; k < CLOCK_COUNT; k++) {
		if (!tree->has_clock[k])
			continue;
		c->start[k] = xmalloc_large(n, sizeof(*c->start[k]));
		c->duration[k] = xmalloc_large(n, sizeof(*c->duration[k]));
	}
}

void
calltree_free_calls(struct calltree *tree)
{
	struct tt_calls *c = &tree->calls;
	int k, l;

	free(c->method);
	free(c->method16);
	free(c->depth);
	free(c->flags);
	for (k = 0; k < CLOCK_COUNT; k++) {
		free(c->start[k]);
		free(c->duration[k]);
		free(c->steps[k]);
		free(c->step_index[k]);
		free(c->long_index[k]);
		free(c->longs[k]);
	}
	free(c->deep);
	for (l = 0; l < DEPTH_LEVELS; l++)
		free(c->depth_min[l]);
	memset(c, 0, sizeof(*c));
}

void
thread_sums_done(struct thread_sums *s)
{
	free(s->methods);
	free(s->rows);
	free(s->links);
	free(s->paths);
	free(s->frames);
	triage_sums_free(s->triage, s->ntriage);
	free(s->triage_frames);
	memset(s, 0, sizeof(*s));
}

void
triage_sums_free(struct triage_sum *sums, size_t n)
{
	size_t r;

	for (r = 0; sums && r < n; r++) {
		free(sums[r].path);
		free(sums[r].methods);
		free(sums[r].first);
	}
	free(sums);
}

void
calltree_free(struct calltree *tree)
{
	if (!tree)
		return;
	free(tree->path);
	free(tree->methods);
	free(tree->threads);
	free(tree->properties);
	free(tree->warnings);
	if (tree->sums) {
		size_t t;

		for (t = 0; t < tree->nthreads; t++) {
			if (tree->sums_in_arena) {
				free(tree->sums[t].paths);
				free(tree->sums[t].frames);
			} else {
				thread_sums_done(&tree->sums[t]);
			}
		}
		free(tree->sums);
	}
	calltree_free_calls(tree);
	free(tree->frame_spans);
	util_arena_done(&tree->arena);
	free(tree);
}

void
calltree_index_times(struct calltree *tree)
{
	struct tt_calls *c = &tree->calls;
	size_t nb = (c->count >> TIME_BLOCK_SHIFT) + 1, b, s, l;
	int k;

	for (k = 0; k < CLOCK_COUNT; k++) {
		if (!c->start[k])
			continue;
		c->step_index[k] =
		        xreallocarray(NULL, nb + 1, sizeof(*c->step_index[k]));
		c->long_index[k] =
		        xreallocarray(NULL, nb + 1, sizeof(*c->long_index[k]));
		for (b = 0, s = 0, l = 0; b <= nb; b++) {
			size_t first = b << TIME_BLOCK_SHIFT;

			while (s < c->nsteps[k] &&
			       c->steps[k][s].first_call <= first)
				s++;
			while (l < c->nlongs[k] && c->longs[k][l].call < first)
				l++;
			c->step_index[k][b] = (uint32_t)s;
			c->long_index[k][b] = (uint32_t)l;
		}
	}
}

void
calltree_index_depths(struct calltree *tree)
{
	struct tt_calls *c = &tree->calls;
	const uint16_t *below = c->depth;
	size_t n = c->count, i;
	int l;

	for (i = 0; i < tree->nthreads; i++)
		if (tree->threads[i].max_depth > tree->max_depth)
			tree->max_depth = tree->threads[i].max_depth;
	/* Up to the level of a single minimum. */
	for (l = 0; l < DEPTH_LEVELS && n > 1; l++) {
		size_t m =
		        (n + (1 << DEPTH_BLOCK_SHIFT) - 1) >> DEPTH_BLOCK_SHIFT;
		uint16_t *mins = xreallocarray(NULL, m, sizeof(*mins));

		for (i = 0; i < m; i++) {
			size_t j = i << DEPTH_BLOCK_SHIFT,
			       end = j + (1 << DEPTH_BLOCK_SHIFT);
			uint16_t least = UINT16_MAX;

			for (end = end < n ? end : n; j < end; j++)
				least = below[j] < least ? below[j] : least;
			mins[i] = least;
		}
		c->depth_min[l] = mins;
		c->depth_min_count[l] = m;
		below = mins;
		n = m;
	}
	c->depth_levels = l;
}

/* The side table's entry for call c, 65535 deep or more, or NULL. */
static const struct tt_deep_call *
deep_call(const struct calltree *tree, size_t c)
{
	const struct tt_deep_call *deep = tree->calls.deep;
	size_t lo = 0, hi = tree->calls.ndeep;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (deep[mid].call < c)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < tree->calls.ndeep && deep[lo].call == c ? &deep[lo] : NULL;
}

/* Level l of the depths: the calls' own for l = 0, else the minimums. */
static const uint16_t *
depth_level(const struct tt_calls *c, int l, size_t *count)
{
	*count = l ? c->depth_min_count[l - 1] : c->count;
	return l ? c->depth_min[l - 1] : c->depth;
}

uint32_t
calltree_parent(const struct calltree *tree, size_t c)
{
	const struct tt_calls *calls = &tree->calls;
	uint16_t d = calls->depth[c];
	size_t pos = c, found = SIZE_MAX, count, i;
	int l = 0, top = calls->depth_levels;

	if (!d)
		return CALL_NONE;
	if (d == UINT16_MAX)
		return deep_call(tree, c)->parent;
	/* Up: the entries before pos in its block, then before the block
	 * at the level above, until one is less deep than c (the top level
	 * has one, as a call deeper than 0 has a caller). */
	for (;; l++) {
		const uint16_t *v = depth_level(calls, l, &count);
		size_t lo =
		        l == top
		                ? 0
		                : pos & ~(size_t)((1 << DEPTH_BLOCK_SHIFT) - 1);

		for (i = pos; i > lo; i--)
			if (v[i - 1] < d)
				break;
		if (i > lo) {
			found = i - 1;
			break;
		}
		if (l == top)
			return CALL_NONE;
		pos = lo >> DEPTH_BLOCK_SHIFT;
	}
	/* Down: the last entry of the found block less deep than c. */
	while (l-- > 0) {
		const uint16_t *v = depth_level(calls, l, &count);
		size_t lo = found << DEPTH_BLOCK_SHIFT;

		i = lo + (1 << DEPTH_BLOCK_SHIFT);
		for (i = i < count ? i : count; i > lo; i--)
			if (v[i - 1] < d)
				break;
		found = i - 1;
	}
	return (uint32_t)found;
}

void
calltree_walk_start(struct calltree_walk *w, const struct calltree *tree,
                    size_t from)
{
	uint32_t g;

	if (!w->path) {
		w->tree = tree;
		w->path = xreallocarray(NULL, (size_t)tree->max_depth + 1,
		                        sizeof(*w->path));
	}
	for (g = calltree_parent(tree, from); g != CALL_NONE;
	     g = calltree_parent(tree, g))
		w->path[calltree_depth(tree, g)] = g;
}

void
calltree_walk_done(struct calltree_walk *w)
{
	free(w->path);
	memset(w, 0, sizeof(*w));
}

uint64_t
calltree_long_duration(const struct calltree *tree, size_t c,
                       enum clock_index k)
{
	const struct tt_long_call *longs = tree->calls.longs[k];
	const uint32_t *index =
	        tree->calls.long_index[k] + (c >> TIME_BLOCK_SHIFT);
	size_t lo = index[0], hi = index[1], end = hi;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (longs[mid].call < c)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < end && longs[lo].call == c ? longs[lo].duration
	                                       : UINT16_MAX;
}

uint32_t
calltree_deep_depth(const struct calltree *tree, size_t c)
{
	const struct tt_deep_call *deep = deep_call(tree, c);

	return deep ? deep->depth : UINT16_MAX;
}

long
calltree_find_thread(const struct calltree *tree, uint32_t tid)
{
	size_t i;

	for (i = 0; i < tree->nthreads; i++)
		if (tree->threads[i].tid == tid)
			return (long)i;
	return -1;
}

uint64_t
calltree_thread_calls(const struct calltree *tree, size_t t)
{
	const struct thread_sums *s;
	uint64_t n = 0;
	size_t i;

	if (!tree->sums)
		return tree->threads[t].ncalls;
	/* Each call counts once in its method's row, recursive or not. */
	s = &tree->sums[t];
	for (i = 0; i < s->count; i++)
		n += s->rows[i].calls + s->rows[i].rcalls;
	return n;
}

uint64_t
calltree_call_count(const struct calltree *tree)
{
	uint64_t n = 0;
	size_t t;

	if (!tree->sums)
		return tree->calls.count;
	for (t = 0; t < tree->nthreads; t++)
		n += calltree_thread_calls(tree, t);
	return n;
}

enum clock_index
calltree_default_clock(const struct calltree *tree)
{
	return tree->has_clock[CLOCK_CPU] ? CLOCK_CPU : CLOCK_WALL;
}

const char *
calltree_property(const struct calltree *tree, const char *key)
{
	size_t i;

	for (i = tree->nproperties; i-- > 0;)
		if (strcmp(tree->properties[i].key, key) == 0)
			return tree->properties[i].value;
	return NULL;
}
